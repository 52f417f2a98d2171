"""The program's classes: `class` statements, their instances, methods, `super()`.

A program class is a host class made with `type(name, (base,), namespace)`, so the engine and
Python's protocols see an ordinary subclass: `Module.__call__` finds `self.forward`,
`Function.apply` finds `cls.forward`, `print` finds `__repr__`, `len` finds `__len__`. What the
program wrote lives in the class's `MEMBERS_KEY` dict (name -> function, static/class method,
property or plain value); the host namespace holds only *dispatchers* that call those through
the interpreter (`UserFunction.__call__`: the run's steps, time and call depth count them).

The program reaches its objects only through `read_attribute` / `write_attribute` (names
without `_`, and the few the checker lets through), never through Python's own getattr. A
class may define only the dunder methods in `DEFINABLE_DUNDERS` (SECURITY.md); its bases are
`object`, program classes, `nn.Module` and its subclasses, `torch.autograd.Function` and
exception classes. Every instance is made by `instantiate` (the one place objects of program
classes come into being).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator
from types import BuiltinFunctionType, MethodType
from typing import Any

from autograd_cli.language.errors import ScriptError
from autograd_cli.language.exceptions import program_exception
from autograd_cli.language.objects import BoundMethod, BuiltinType, UserFunction, class_text
from engine.addresses import address_of

MEMBERS_KEY = "_agraph_members"
SOURCE_KEY = "_agraph_node"
FROZEN_KEY = "_agraph_frozen"  # a frozen dataclass: the error assigning an attribute raises
PRIVATE_KEY = "_agraph_private"  # the `_x` names a program set on an object of an engine class

# The dunder methods a program may define. Each one except __init__ is installed on the host
# class as a dispatcher, so Python's protocols (print, len, ==, +, with, iteration) use it.
DEFINABLE_DUNDERS = frozenset("""
    __init__ __call__ __repr__ __str__ __len__ __getitem__ __setitem__ __delitem__ __iter__
    __next__ __contains__ __bool__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__
    __enter__ __exit__ __add__ __radd__ __iadd__ __sub__ __rsub__ __isub__ __mul__ __rmul__
    __imul__ __truediv__ __rtruediv__ __itruediv__ __floordiv__ __rfloordiv__ __mod__ __rmod__
    __pow__ __rpow__ __matmul__ __rmatmul__ __neg__ __pos__ __abs__ __invert__ __float__
    __int__ __index__ __format__ __post_init__
""".split())


class ProgramObject:
    """The base of a program class written without a base (or with `object`)."""

    def __repr__(self) -> str:
        return f"<__main__.{type(self).__qualname__} object at {address_of(self)}>"


class StaticMember:
    """`@staticmethod`: the function, called without an instance."""

    __slots__ = ("function",)
    PUBLIC_ATTRS: frozenset[str] = frozenset()

    def __init__(self, function: Any) -> None:
        self.function = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **kwargs)

    def __repr__(self) -> str:
        return "<staticmethod object>"


class ClassMember:
    """`@classmethod`: the function, called with the class."""

    __slots__ = ("function",)
    PUBLIC_ATTRS: frozenset[str] = frozenset()

    def __init__(self, function: Any) -> None:
        self.function = function

    def __repr__(self) -> str:
        return "<classmethod object>"


class PropertyMember:
    """`@property` (and `@name.setter`): read and written as an attribute."""

    __slots__ = ("getter_function", "setter_function")
    PUBLIC_ATTRS = frozenset({"setter", "getter"})

    def __init__(self, getter: Any, setter: Any = None) -> None:
        self.getter_function = getter
        self.setter_function = setter

    def setter(self, function: Any) -> PropertyMember:
        return PropertyMember(self.getter_function, function)

    def getter(self, function: Any) -> PropertyMember:
        return PropertyMember(function, self.setter_function)

    def __repr__(self) -> str:
        return "<property object>"


def is_program_class(value: Any) -> bool:
    return isinstance(value, type) and MEMBERS_KEY in value.__dict__


def is_program_instance(value: Any) -> bool:
    for klass in type(value).__mro__:  # a loop, not any(): asked for every `with` and call
        if MEMBERS_KEY in klass.__dict__:
            return True
    return False


def is_plain_program_object(value: Any) -> bool:
    """An object of a program class that derives from no engine class: its attributes are
    all the program's, so it may use names like `self._n` (a module's `_parameters` are
    agraph's)."""
    return isinstance(value, (ProgramObject, Exception)) and is_program_instance(value)


def owns_private(value: Any, name: str) -> bool:
    """Whether `_name` (one leading underscore) is the program's own on `value`: any name on
    an object of a class without engine bases; on a program class deriving from nn.Module (or
    another engine class), or its objects, a member its classes define (`self._forward_alg`)
    or an attribute the program set (`self._cache`); never the engine's `_parameters`, ..."""
    if is_plain_program_object(value):
        return True
    if is_program_class(value):
        return find_member(value, name)[0] is not MISSING
    if not is_program_instance(value):
        return False
    return (find_member(type(value), name)[0] is not MISSING
            or name in value.__dict__.get(PRIVATE_KEY, ()))


@functools.cache
def _module_fields(engine_base: type) -> frozenset[str]:
    """The fields nn.Module's __init__ gives an object of `engine_base` (`_parameters`, ...):
    the engine's even before a program's `__init__` reaches `super().__init__()`."""
    from engine.nn import Module  # lazy: startup time (loaded only when used)

    return frozenset(vars(Module())) if issubclass(engine_base, Module) else frozenset()


def claim_private(value: Any, name: str) -> bool:
    """Whether the program may set `_name` on `value`; a name no engine class or field of the
    object uses becomes the program's (owns_private) on its first assignment."""
    if owns_private(value, name):
        return True
    if not is_program_instance(value) or name.startswith("_agraph"):
        return False
    engine_base = next(klass for klass in type(value).__mro__
                       if MEMBERS_KEY not in klass.__dict__)
    if hasattr(engine_base, name) or name in value.__dict__ or name in _module_fields(
            engine_base):
        return False
    value.__dict__.setdefault(PRIVATE_KEY, set()).add(name)
    return True


# Engine classes a program may subclass besides nn.Module, autograd.Function and exceptions
# (their module and name: the engine module need not be loaded for the others to work).
ENGINE_BASES = frozenset({("engine.data", "Dataset"), ("engine.data", "IterableDataset"),
                          ("engine.data", "Sampler")})


def allowed_bases() -> tuple[type, ...]:
    # lazy: startup time (loaded only when used)
    from engine.custom_function import Function
    from engine.nn import Module

    return (ProgramObject, Module, Function, Exception)


def is_allowed_base(base: Any) -> bool:
    if not isinstance(base, type):
        return False
    if issubclass(base, allowed_bases()):
        return True
    return any((klass.__module__, klass.__name__) in ENGINE_BASES for klass in base.__mro__)


def make_class(name: str, qualname: str, bases: list[Any], namespace: dict[str, Any],
               node: ast.ClassDef) -> type:
    """The host class of a `class` statement whose body left `namespace`."""
    host_bases: list[type] = []
    for base in bases:
        if base is object:
            continue
        if not is_allowed_base(base):
            raise TypeError(f"class {name}: a program class can derive from object, its own "
                            "classes, nn.Module, torch.autograd.Function and exception classes, "
                            f"not {getattr(base, '__name__', type(base).__name__)}")
        host_bases.append(base)
    if not host_bases:
        host_bases.append(ProgramObject)
    engine_bases = [klass for base in host_bases for klass in base.__mro__
                    if MEMBERS_KEY not in klass.__dict__]
    for key in namespace:  # `_parameters = None` would open the engine's own to `self.`
        for engine_base in engine_bases:
            if key.startswith("_") and not key.startswith("__") and (
                    hasattr(engine_base, key) or key in _module_fields(engine_base)):
                raise TypeError(f"class {name}: '{key}' is private to agraph (a name of "
                                f"{engine_base.__name__}'s); give it another name")
    members: dict[str, Any] = {}
    host_namespace: dict[str, Any] = {"__module__": "__main__", "__qualname__": qualname,
                                      "__doc__": ast.get_docstring(node), MEMBERS_KEY: members,
                                      SOURCE_KEY: node}
    for key, value in namespace.items():
        members[key] = value
        host_namespace.update(_host_entries(key, value))
    if "__getitem__" in host_namespace and "__iter__" not in host_namespace and not any(
            hasattr(base, "__iter__") for base in host_bases):
        host_namespace["__iter__"] = _sequence_iterator
    try:
        cls = type(name, tuple(host_bases), host_namespace)
    except TypeError as exc:  # e.g. an inconsistent method resolution order
        raise TypeError(f"class {name}: {exc}") from None
    for value in members.values():
        function = value.function if isinstance(value, (StaticMember, ClassMember)) else value
        if type(function) is UserFunction and function.owner_class is None:
            function.owner_class = cls
    return cls


def _host_entries(key: str, value: Any) -> dict[str, Any]:
    """What the host class gets for a member: a dispatcher for a function, the value else."""
    if key.startswith("__") and key not in DEFINABLE_DUNDERS:
        return {}
    if key == "__init__":
        return {}
    if type(value) is UserFunction or getattr(type(value), "BINDS_AS_METHOD", False):
        return {key: _dispatcher(value)}
    if isinstance(value, StaticMember):
        return {key: staticmethod(_plain_dispatcher(value.function))}
    if isinstance(value, ClassMember):
        return {key: classmethod(_plain_dispatcher(value.function))}
    if isinstance(value, PropertyMember):
        setter = value.setter_function
        return {key: property(_plain_dispatcher(value.getter_function),
                              None if setter is None else _plain_dispatcher(setter))}
    if key.startswith("__"):
        return {}
    return {key: value}


def _sequence_iterator(self: Any) -> Iterator[Any]:
    """Python's iteration over a class with `__getitem__` and no `__iter__`: items 0, 1, 2, ...
    until its `__getitem__` raises IndexError (or StopIteration). The program's error comes
    through the interpreter, so this looks at the exception it carries."""
    index = 0
    while True:
        try:
            item = self.__getitem__(index)
        except ScriptError as error:
            if isinstance(program_exception(error), (IndexError, StopIteration)):
                return
            raise
        except (IndexError, StopIteration):  # raised by engine code the program called
            return
        yield item
        index += 1


def _dispatcher(function: Any) -> Callable[..., Any]:
    def dispatch(self: Any, *args: Any, **kwargs: Any) -> Any:
        return function(self, *args, **kwargs)
    dispatch.__name__ = dispatch.__qualname__ = function.name
    return dispatch


def _plain_dispatcher(function: Any) -> Callable[..., Any]:
    def dispatch(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)
    dispatch.__name__ = dispatch.__qualname__ = getattr(function, "name", "function")
    return dispatch


def find_member(cls: type, name: str) -> tuple[Any, type | None]:
    """A member the program wrote, looked up along the method resolution order."""
    for klass in cls.__mro__:
        members = klass.__dict__.get(MEMBERS_KEY)
        if members is not None and name in members:
            return members[name], klass
    return MISSING, None


MISSING: Any = object()


def bind_member(member: Any, instance: Any, cls: type) -> Any:
    """What reading a member gives: a bound method, the function of a static method, ..."""
    if type(member) is UserFunction or getattr(type(member), "BINDS_AS_METHOD", False):
        return member if instance is None else BoundMethod(member, instance)
    if isinstance(member, StaticMember):
        return member.function
    if isinstance(member, ClassMember):
        return BoundMethod(member.function, cls)
    if isinstance(member, PropertyMember) and instance is not None:
        return member.getter_function(instance)
    return member


def read_attribute(value: Any, name: str, engine_attribute: Callable[[Any, str], Any]) -> Any:
    """`value.name` for an instance or class of a program class."""
    if isinstance(value, type):
        member, _ = find_member(value, name)
        if member is not MISSING:
            return bind_member(member, None, value)
        public: Any = getattr(value, "PUBLIC_ATTRS", None)
        if isinstance(public, frozenset) and name in public:  # Function.apply
            return getattr(value, name)
        return engine_attribute(value, name)
    cls = type(value)
    member, _ = find_member(cls, name)
    if isinstance(member, PropertyMember):
        return member.getter_function(value)
    own = getattr(value, "__dict__", {})
    if name in own:
        return own[name]
    registered = registered_member(value, name)
    if registered is not MISSING:
        return registered
    if member is not MISSING:
        return bind_member(member, value, cls)
    return engine_attribute(value, name)


def registered_member(value: Any, name: str) -> Any:
    """A module's parameter, buffer or submodule registered under `name`."""
    own = getattr(value, "__dict__", None)
    if own is None:
        return MISSING
    for table in ("_parameters", "_buffers", "_modules"):
        registered = own.get(table)
        if registered is not None and name in registered:
            return registered[name]
    return MISSING


def write_attribute(value: Any, name: str, new_value: Any) -> None:
    """`value.name = new_value` for an instance or class of a program class."""
    if isinstance(value, type):
        members = value.__dict__[MEMBERS_KEY] if MEMBERS_KEY in value.__dict__ else None
        if members is None:
            raise TypeError(f"cannot set '{name}' attribute of immutable type "
                            f"'{value.__name__}'")
        members[name] = new_value
        for key, entry in _host_entries(name, new_value).items():
            setattr(value, key, entry)
        return
    member, _ = find_member(type(value), name)
    if isinstance(member, PropertyMember):
        if member.setter_function is None:
            raise AttributeError(f"property '{name}' of '{type(value).__name__}' object has no "
                                 "setter")
        member.setter_function(value, new_value)
        return
    frozen = getattr(type(value), FROZEN_KEY, None)
    if frozen is not None:
        raise frozen(f"cannot assign to field '{name}'")
    from engine.nn import Module  # lazy: startup time (loaded only when used)

    if isinstance(value, Module):
        Module.__setattr__(value, name, new_value)
    else:
        value.__dict__[name] = new_value


def delete_attribute(value: Any, name: str) -> None:
    if name.startswith("_") and not owns_private(value, name):
        raise AttributeError(f"cannot delete attribute '{name}': names starting with '_' are "
                             "private to agraph")
    own = getattr(value, "__dict__", None)
    if own is None or isinstance(value, type) or name not in own:
        registered = registered_member(value, name) if own is not None else MISSING
        if registered is MISSING:
            raise AttributeError(f"'{type(value).__name__}' object has no attribute '{name}'")
        for table in ("_parameters", "_buffers", "_modules"):
            own.get(table, {}).pop(name, None)  # type: ignore[union-attr]
        return
    del own[name]


def instantiate(cls: type, args: list[Any] | tuple[Any, ...], kwargs: dict[str, Any],
                call: Callable[[Any, list[Any], dict[str, Any]], Any]) -> Any:
    """`Cls(*args, **kwargs)`: a new object, then the program's `__init__` (or the base's)."""
    from engine.custom_function import Function  # lazy: startup time (loaded only when used)

    if issubclass(cls, Function):
        Function.warn_instantiated(cls)  # an instance's `apply` still works; calling it fails
    instance: Any = cls.__new__(cls, *args) if issubclass(cls, BaseException) else (
        cls.__new__(cls))
    init, _ = find_member(cls, "__init__")
    if init is not MISSING:
        result = call(init, [instance, *args], kwargs)
        if result is not None:
            raise TypeError(f"__init__() should return None, not '{type(result).__name__}'")
        return instance
    base_init(cls, instance, list(args), kwargs)
    return instance


def base_init(start: type, instance: Any, args: list[Any], kwargs: dict[str, Any]) -> None:
    """The host `__init__` of the first host base of `start` (`super().__init__()` reaching
    nn.Module, an exception class or object)."""
    from engine.nn import Module  # lazy: startup time (loaded only when used)

    for klass in start.__mro__:
        if MEMBERS_KEY in klass.__dict__:
            continue
        if klass is ProgramObject or klass is object:
            if args or kwargs:
                raise TypeError(f"{type(instance).__name__}() takes no arguments")
            return
        if issubclass(klass, BaseException):
            BaseException.__init__(instance, *args)
            return
        if issubclass(klass, Module) and klass is Module:
            Module.__init__(instance)
            return
        klass.__init__(instance, *args, **kwargs)
        return


class ClassView:
    """What `type(x)` gives when x's class is not one a program may hold (an engine or
    interpreter class): it prints and compares as the class, and has a `__name__`."""

    __slots__ = ("python_type",)

    def __init__(self, python_type: type) -> None:
        self.python_type = python_type

    def __repr__(self) -> str:
        return class_text(self.python_type)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (ClassView, BuiltinType)):
            return other.python_type is self.python_type
        return other is self.python_type

    def __hash__(self) -> int:
        return hash(self.python_type)


ClassView.__name__ = ClassView.__qualname__ = "type"


def type_of(value: Any, builtins: dict[str, Any], reachable: Callable[[type], bool]) -> Any:
    """`type(value)`: a program class, an exception class, `int`/`str`/... as the builtins
    have them, a class the torch namespaces hold; else a ClassView of it."""
    kind = type(value)
    if is_program_class(kind) or is_program_instance(value):
        return kind
    if issubclass(kind, Exception) and builtins.get(kind.__name__) is kind:
        return kind
    for name in ("int", "float", "bool", "str", "list", "tuple", "dict", "set"):
        builtin = builtins[name]
        if builtin is kind or getattr(builtin, "python_type", None) is kind:
            return builtin
    if reachable(kind):
        return kind
    if kind is MethodType and value in builtins.values():  # print, sorted, ...: agraph's
        kind = BuiltinFunctionType  # bound methods stand in for Python's built-in functions
    return ClassView(kind)


class SuperProxy:
    """What `super()` gives in a method: the members after `start` in the object's MRO."""

    __slots__ = ("start", "instance")
    PUBLIC_ATTRS: frozenset[str] = frozenset()

    def __init__(self, start: type, instance: Any) -> None:
        self.start = start
        self.instance = instance

    def attribute(self, name: str, engine_attribute: Callable[[Any, str], Any]) -> Any:
        cls = self.instance if isinstance(self.instance, type) else type(self.instance)
        mro = cls.__mro__
        after = mro[mro.index(self.start) + 1:] if self.start in mro else mro
        for klass in after:
            members = klass.__dict__.get(MEMBERS_KEY)
            if members is None:
                if name == "__init__":
                    return _BaseInit(klass, self.instance)
                return _host_member(klass, self.instance, name, engine_attribute)
            if name in members:
                owner = None if isinstance(self.instance, type) else self.instance
                return bind_member(members[name], owner, cls)
        return engine_attribute(self.instance, name)

    def __repr__(self) -> str:
        return f"<super: <class '{self.start.__name__}'>, <{type(self.instance).__name__} object>>"


SuperProxy.__name__ = SuperProxy.__qualname__ = "super"


def _host_member(start: type, instance: Any, name: str,
                 engine_attribute: Callable[[Any, str], Any]) -> Any:
    """`super().forward` reaching an engine class (a subclass of nn.Linear): that class's
    own method, for the names the engine class makes public."""
    public = getattr(start, "PUBLIC_ATTRS", None)
    if isinstance(public, frozenset) and name in public and not isinstance(instance, type):
        for klass in start.__mro__:
            if name in klass.__dict__:
                found = klass.__dict__[name]
                getter = getattr(found, "__get__", None)
                return found if getter is None else getter(instance, type(instance))
    return engine_attribute(instance, name)


class UnboundInit:
    """`Base.__init__` read from a class (`nn.Module.__init__(self)`, an old idiom)."""

    __slots__ = ("klass",)

    def __init__(self, klass: type) -> None:
        self.klass = klass

    def __repr__(self) -> str:
        return f"<slot wrapper '__init__' of '{self.klass.__name__}' objects>"


class _BaseInit:
    """`super().__init__` when the next class is a host one."""

    __slots__ = ("klass", "instance")

    def __init__(self, klass: type, instance: Any) -> None:
        self.klass = klass
        self.instance = instance

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        base_init(self.klass, self.instance, list(args), kwargs)

    def __repr__(self) -> str:
        return "<method-wrapper '__init__'>"
