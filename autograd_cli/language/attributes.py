"""`value.name` and `value.name = x` for a program: the names agraph exposes and nothing else.

Engine classes list what a program may read (`PUBLIC_ATTRS`) and set (`SETTABLE_ATTRS`);
str/list/dict methods come from builtins.py; objects of program classes go through
language/classes.py; a `ctx` of a custom Function keeps attributes of the program's own apart
from its state (`OPEN_ATTRS`). Of the dunder names only `__name__`, `__doc__` (and
`x.__class__.__name__`, in evaluator.py) are read.
"""

from __future__ import annotations

import ast
import sys
from typing import TYPE_CHECKING, Any

from autograd_cli.language import classes, definitions
from autograd_cli.language.builtins import PLAIN_METHODS, checked_method, checked_method_names
from autograd_cli.language.checker import SAVED_TENSOR_ATTRIBUTES
from autograd_cli.language.exceptions import ProgramExit
from autograd_cli.language.objects import (
    BoundMethod,
    BuiltinType,
    Namespace,
    UnboundMethod,
    UserFunction,
    exception_args,
    is_engine_object,
)
from autograd_cli.language.torch_modules import torch_class
from engine.refused import Refused
from engine.tensor import Tensor

# What Python's exceptions carry besides `args`: a generator's return value, an OS error's
# number, text and file name (values a program or agraph gave, never the host's).
EXCEPTION_ATTRIBUTES: dict[type, frozenset[str]] = {
    StopIteration: frozenset({"value"}),
    **{kind: frozenset({"errno", "strerror", "filename"}) for kind in (OSError,
                                                                       FileNotFoundError)},
}

# nn.Module's tables of its children, parameters and buffers: private in name, but tutorials
# read them (d2l's MySequential fills `self._modules[str(i)]` and walks `.values()`)
MODULE_TABLES = frozenset({"_modules", "_parameters", "_buffers"})


def _module_class() -> type | None:
    """nn.Module's class, or None while engine.nn is not loaded (then nothing is a module)."""
    loaded = sys.modules.get("engine.nn.module")
    return None if loaded is None else loaded.Module  # type: ignore[no-any-return]


def _module_table(value: Any, name: str) -> Any:
    """`module._modules` (or `_parameters`, `_buffers`): the module's own dict, as in PyTorch;
    MISSING when `value` is not a module."""
    module_class = _module_class()
    if module_class is None or not isinstance(value, module_class):
        return classes.MISSING
    table = value.__dict__.get(name)
    if table is None:  # before nn.Module.__init__ ran
        raise AttributeError(f"'{type(value).__name__}' object has no attribute '{name}'")
    return table


def _is_bare_module(value: Any) -> bool:
    """A plain `nn.Module()`, which a program builds by assignment (`module.param = ...`)."""
    module_class = _module_class()
    return module_class is not None and type(value) is module_class


# A namedtuple's methods and fields that start with "_" by design (not _make: it would take
# any iterable in one C call, past the interpreter's counted iteration).
NAMEDTUPLE_API = frozenset({"_asdict", "_replace", "_fields", "_field_defaults"})


def _is_namedtuple(value: Any) -> bool:
    """One of collections_module's namedtuple classes, or an instance of one."""
    kind = value if isinstance(value, type) else type(value)
    return issubclass(kind, tuple) and isinstance(getattr(kind, "_fields", None), tuple) and \
        isinstance(getattr(kind, "PUBLIC_ATTRS", None), frozenset)


class AttributeAccess:
    """The attribute handlers of the interpreter (a part of `Interpreter`)."""

    if TYPE_CHECKING:
        allowed_attributes: dict[type, frozenset[str]]
        plain_attributes: dict[type, frozenset[str]]
        builtins: dict[str, Any]

    def get_attribute(self, value: Any, name: str) -> Any:
        """`value.name`, for the names agraph exposes and nothing else."""
        plain = self.plain_attributes.get(type(value))
        if plain is not None and name in plain:  # seen before: a public, unchecked name
            return getattr(value, name)
        kind = type(value)
        if kind is classes.SuperProxy:
            return value.attribute(name, self._engine_attribute)
        if name.startswith("_"):
            if name in SAVED_TENSOR_ATTRIBUTES and hasattr(type(value), "saved_attribute"):
                return value.saved_attribute(name)  # grad_fn._saved_self: PyTorch's public name
            if name == "_version" and isinstance(value, Tensor):
                return value._version[0]  # the version counter PyTorch's docs read
            if name in NAMEDTUPLE_API and _is_namedtuple(value):
                return getattr(value, name)  # a namedtuple's own public API
            if not name.startswith("__") and classes.owns_private(value, name):
                return classes.read_attribute(value, name, self._engine_attribute)
            if name in MODULE_TABLES:
                table = _module_table(value, name)
                if table is not classes.MISSING:
                    return table
            return self._dunder_attribute(value, name)
        if classes.is_program_instance(value) or (
                kind is type and classes.is_program_class(value)):
            return classes.read_attribute(value, name, self._engine_attribute)
        return self._engine_attribute(value, name)

    def _engine_attribute(self, value: Any, name: str) -> Any:
        kind = type(value)
        if kind is BuiltinType:
            return self._unbound_method(value, name)
        if kind is Namespace:
            try:
                return value.members[name]
            except KeyError:
                raise AttributeError(f"module '{value.name}' has no attribute '{name}' "
                                     f"({value.name}.{name} is not supported by agraph)") from None
        method = checked_method(self, value, name)  # type: ignore[arg-type]
        if method is not None:
            return method
        if name in self._allowed_attributes(kind):
            return getattr(value, name)
        if kind is type and name in getattr(value, "CLASS_ATTRS", ()):  # nn.Embedding.from_...
            return getattr(value, name)
        if getattr(kind, "OPEN_ATTRS", False) and name in value.program_attributes:
            return value.program_attributes[name]
        if isinstance(value, BaseException) and name == "args":
            return exception_args(value)
        if isinstance(value, ProgramExit) and name == "code":
            return value.code
        if name in EXCEPTION_ATTRIBUTES.get(kind, ()):  # Python's data on its exceptions
            return getattr(value, name)
        if kind is Refused:  # a library function that would touch the host, used
            raise value.error()
        registered = classes.registered_member(value, name)  # `seq.hidden_linear`: a named child
        if registered is not classes.MISSING:
            return registered
        if _is_bare_module(value) and name in value.__dict__:
            return value.__dict__[name]  # what the program set on a plain nn.Module()
        if kind.__module__ == "builtins" and not hasattr(kind, name):  # Python's own message
            raise AttributeError(f"'{kind.__name__}' object has no attribute '{name}'")
        raise AttributeError(f"'{kind.__name__}' object has no attribute '{name}' (or agraph "
                             "does not support it)")

    def _unbound_method(self, builtin: BuiltinType, name: str) -> Any:
        """`str.lower`, `list.append`, ...: a method of a plain type read from the type, called
        with the value first (`sorted(words, key=str.lower)`); the same names and checks as
        `value.name`."""
        python_type = builtin.python_type
        if name not in self._allowed_attributes(python_type) | checked_method_names(python_type):
            raise AttributeError(f"type object '{python_type.__name__}' has no attribute "
                                 f"'{name}' (or agraph does not support it)")

        def call(owner: Any, *args: Any, **kwargs: Any) -> Any:
            if not isinstance(owner, python_type):
                raise TypeError(f"descriptor '{name}' for '{python_type.__name__}' objects "
                                f"doesn't apply to a '{type(owner).__name__}' object")
            return self.get_attribute(owner, name)(*args, **kwargs)

        return UnboundMethod(name, python_type.__name__, call)

    def _allowed_attributes(self, kind: type) -> frozenset[str]:
        allowed = self.allowed_attributes.get(kind)
        if allowed is None:
            public = getattr(kind, "PUBLIC_ATTRS", None)
            allowed = public if isinstance(public, frozenset) else PLAIN_METHODS.get(
                kind, frozenset())
            self.allowed_attributes[kind] = allowed
            if kind is not Namespace:
                checked = checked_method_names(kind)
                self.plain_attributes[kind] = frozenset(
                    name for name in allowed if not name.startswith("_") and name not in checked)
        return allowed

    def _dunder_attribute(self, value: Any, name: str) -> Any:
        """The few dunder attributes a program may read (SECURITY.md): the names of classes
        and functions, docstrings; `x.__class__` only as `x.__class__.__name__` (the
        checker sees to it)."""
        if name == "__name__":
            if isinstance(value, classes.ClassView):
                return value.python_type.__name__
            if isinstance(value, type):
                return value.__name__
            if isinstance(value, BoundMethod):
                value = value.function
            if isinstance(value, (UserFunction, definitions.ContextDecorated, BuiltinType)):
                return str(value.name).rpartition(".")[2]
        elif name == "__init__" and isinstance(value, type) and (
                issubclass(value, classes.allowed_bases()) or value is object):
            return classes.UnboundInit(value)
        elif name == "__version__" and isinstance(value, Namespace) and name in value.members:
            return value.members[name]  # `torch.__version__`: the PyTorch agraph answers as
        elif name == "__doc__":
            if type(value) is UserFunction and isinstance(value.node, ast.FunctionDef):
                return ast.get_docstring(value.node)
            if classes.is_program_class(value):
                return value.__doc__
        raise AttributeError(f"attribute '{name}' is not allowed: names starting with '_' "
                             "are private to agraph")

    def set_attribute(self, value: Any, name: str, new_value: Any) -> None:
        if name.startswith("_") and not (
                not name.startswith("__") and classes.claim_private(value, name)):
            raise AttributeError(f"cannot set attribute '{name}': names starting with '_' are "
                                 "private to agraph")
        kind = type(value)
        if classes.is_program_instance(value) or (kind is type
                                                  and classes.is_program_class(value)):
            classes.write_attribute(value, name, new_value)
            return
        if _is_bare_module(value) and name not in kind.PUBLIC_ATTRS and not hasattr(kind, name):
            setattr(value, name, new_value)  # a Parameter or Module registered, as in PyTorch
            return
        if getattr(kind, "OPEN_ATTRS", False) and name not in kind.PUBLIC_ATTRS:
            value.program_attributes[name] = new_value
            return
        settable = getattr(type(value), "SETTABLE_ATTRS", None) if is_engine_object(value) else None
        if isinstance(settable, frozenset) and name in settable and not name.startswith("_"):
            setattr(value, name, new_value)
            return
        raise AttributeError(f"cannot set attribute '{name}' of '{type(value).__name__}' object")

    def _type(self, *args: Any) -> Any:
        """`type(x)` (one argument: making a class with three is `class`'s job)."""
        if len(args) != 1:
            raise TypeError("type() takes 1 argument in agraph programs (write a class "
                            "statement to make a class)")
        return classes.type_of(args[0], self.builtins, torch_class)

    def _getattr(self, value: Any, name: Any, *default: Any) -> Any:
        """`getattr(x, "name")`: the same checks as `x.name` (a computed name reaches no
        more than a written one)."""
        if type(name) is not str:
            raise TypeError("attribute name must be string, not "
                            f"'{type(name).__name__}'")
        if len(default) > 1:
            raise TypeError(f"getattr expected at most 3 arguments, got {2 + len(default)}")
        try:
            return self.get_attribute(value, name)
        except AttributeError:
            if default:
                return default[0]
            raise

    def _hasattr(self, value: Any, name: Any) -> bool:
        try:
            self._getattr(value, name)
        except AttributeError:
            return False
        return True

    def _setattr(self, value: Any, name: Any, new_value: Any) -> None:
        if type(name) is not str:
            raise TypeError("attribute name must be string, not "
                            f"'{type(name).__name__}'")
        self.set_attribute(value, name, new_value)
