"""The objects a program holds that agraph makes, and how any value is shown as text.

- `UserFunction`: a `def` or `lambda` of the program. It is an interpreter object, not a Python
  function: it has no attributes a program can read, and the engine can still call it (hooks).
- `Namespace`: `torch`, `torch.nn`, ... built from the dicts of engine/api.py; read-only.
- `BuiltinMethod`: a checked method of a str/list (e.g. `", ".join`) handed to the program.
- `BuiltinType`: `str`, `list`, ... as a program sees them (callable, known to isinstance).
- `display_str` / `display_repr`: what `print`, `str()`, f-strings and `repr()` show. They never
  let Python's default repr of a host object through (`<function f at 0x...>`, `<module ...>`),
  and print integers of any allowed size.
"""

from __future__ import annotations

import ast
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

# CPython refuses int -> str beyond 4300 digits; bigger (allowed) ints are printed in chunks.
_DIGITS_PER_CHUNK = 4000
_CHUNK = 10 ** _DIGITS_PER_CHUNK


class FunctionCaller(Protocol):
    def call_from_host(self, function: UserFunction, args: tuple[Any, ...],
                       kwargs: dict[str, Any]) -> Any: ...


@dataclass(frozen=True)
class Signature:
    """The parameters of a user function, with its default values (evaluated at `def` time)."""

    positional: tuple[str, ...]
    positional_only: int
    defaults: Mapping[str, Any]
    var_positional: str | None
    keyword_only: tuple[str, ...]
    var_keyword: str | None

    @property
    def simple(self) -> bool:
        """Only plain positional parameters: calls can bind them with a zip."""
        return not (self.var_positional or self.keyword_only or self.var_keyword
                    or self.positional_only)


class UserFunction:
    """A function of the program; calling it runs its body in the interpreter."""

    __slots__ = ("name", "node", "signature", "enclosing", "caller", "local_names")

    def __init__(self, name: str, node: ast.FunctionDef | ast.Lambda, signature: Signature,
                 enclosing: tuple[dict[str, Any], ...], caller: FunctionCaller,
                 local_names: frozenset[str]) -> None:
        self.name = name
        self.node = node
        self.signature = signature
        self.enclosing = enclosing
        self.caller = caller
        self.local_names = local_names

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Called by host code (a hook in the engine, a `key=` of sorted)."""
        return self.caller.call_from_host(self, args, kwargs)

    def __repr__(self) -> str:
        return "<lambda>" if self.name == "<lambda>" else f"<def {self.name}>"


def bind_arguments(function: UserFunction, args: tuple[Any, ...] | list[Any],
                   kwargs: dict[str, Any]) -> dict[str, Any]:
    """The new local variables of a call, or Python's TypeError for a call that does not fit."""
    signature = function.signature
    positional = signature.positional
    if signature.simple and not kwargs and len(args) == len(positional):
        return dict(zip(positional, args, strict=True))
    name = function.name
    if len(args) > len(positional) and signature.var_positional is None:
        expected = len(positional)
        raise TypeError(f"{name}() takes {expected} positional argument"
                        f"{'' if expected == 1 else 's'} but {len(args)} "
                        f"{'was' if len(args) == 1 else 'were'} given")
    names: dict[str, Any] = dict(zip(positional, args, strict=False))
    if signature.var_positional is not None:
        names[signature.var_positional] = tuple(args[len(positional):])
    extra: dict[str, Any] = {}
    keyword_names = positional[signature.positional_only:] + signature.keyword_only
    for key, value in kwargs.items():
        if key in keyword_names:
            if key in names:
                raise TypeError(f"{name}() got multiple values for argument '{key}'")
            names[key] = value
        elif signature.var_keyword is not None:
            extra[key] = value
        else:
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
    _fill_defaults(name, signature, names)
    if signature.var_keyword is not None:
        names[signature.var_keyword] = extra
    return names


def _fill_defaults(name: str, signature: Signature, names: dict[str, Any]) -> None:
    for kind, parameters in (("positional", signature.positional),
                             ("keyword-only", signature.keyword_only)):
        missing = []
        for parameter in parameters:
            if parameter not in names:
                if parameter in signature.defaults:
                    names[parameter] = signature.defaults[parameter]
                else:
                    missing.append(parameter)
        if missing:
            raise TypeError(f"{name}() missing {len(missing)} required {kind} argument"
                            f"{'' if len(missing) == 1 else 's'}: {_quoted_list(missing)}")


def _quoted_list(names: list[str]) -> str:
    quoted = [f"'{name}'" for name in names]
    if len(quoted) <= 2:
        return " and ".join(quoted)
    return ", ".join(quoted[:-1]) + ", and " + quoted[-1]


class Namespace:
    """`torch`, `torch.nn`, ...: a read-only table of names a program can reach."""

    __slots__ = ("name", "members")
    name: str
    members: Mapping[str, Any]

    def __init__(self, name: str, members: Mapping[str, Any]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "members", MappingProxyType(dict(members)))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"'{self.name}' is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"'{self.name}' is read-only")

    def __repr__(self) -> str:
        return f"<agraph namespace {self.name}>"


class BuiltinMethod:
    """A method of a str/list/dict value that agraph checks before running (sizes)."""

    __slots__ = ("name", "owner", "function")

    def __init__(self, name: str, owner: str, function: Callable[..., Any]) -> None:
        self.name = name
        self.owner = owner
        self.function = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<built-in method {self.name} of {self.owner} object>"


class BuiltinType:
    """`str`, `list`, ...: callable like the type, known to `isinstance`, no attributes."""

    __slots__ = ("name", "python_type", "construct")

    def __init__(self, python_type: type, construct: Callable[..., Any]) -> None:
        self.name = python_type.__name__
        self.python_type = python_type
        self.construct = construct

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.construct(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<class '{self.name}'>"


def is_engine_object(value: Any) -> bool:
    """Instances of engine classes declare the attributes a program may read."""
    return isinstance(getattr(type(value), "PUBLIC_ATTRS", None), frozenset)


def int_text(value: int) -> str:
    """`str(value)` without CPython's 4300-digit limit (the int size limit bounds the cost)."""
    if value.bit_length() < 13_000:
        return str(value)
    sign = "-" if value < 0 else ""
    chunks = []
    rest = abs(value)
    while rest:
        rest, chunk = divmod(rest, _CHUNK)
        chunks.append(chunk)
    head, *tail = reversed(chunks)
    return sign + str(head) + "".join(str(chunk).zfill(_DIGITS_PER_CHUNK) for chunk in tail)


def display_str(value: Any) -> str:
    """What `print(value)` and `str(value)` show."""
    kind = type(value)
    if kind is str:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return int_text(value)
    if kind is float or kind is bool or value is None:
        return str(value)
    if is_engine_object(value):
        return str(value)
    return display_repr(value)


def display_repr(value: Any) -> str:
    """What `repr(value)` shows; containers show their items with `display_repr`."""
    parts: list[str] = []
    _Repr(parts).add(value)
    return "".join(parts)


class _Repr:
    """Builds a repr into `parts`; a container that contains itself shows as `[...]`."""

    def __init__(self, parts: list[str]) -> None:
        self.parts = parts
        self.active: set[int] = set()

    def add(self, value: Any) -> None:
        kind = type(value)
        if kind is int:
            self.parts.append(int_text(value))
        elif kind in _SIMPLE:
            self.parts.append(repr(value))
        elif kind in _CONTAINERS:
            self._container(value)
        elif kind is OrderedDict:  # Python 3.11's repr: OrderedDict([(key, value), ...])
            self.parts.append("OrderedDict(")
            if value:
                self._container(list(value.items()))
            self.parts.append(")")
        else:
            self.parts.append(_object_repr(value))

    def _container(self, value: Any) -> None:
        opening, closing, empty = _CONTAINERS[type(value)]
        if not value:
            self.parts.append(empty)
            return
        if id(value) in self.active:
            self.parts.append(opening + "..." + closing)
            return
        self.active.add(id(value))
        self.parts.append(opening)
        items = value.items() if type(value) is dict else value
        for index, item in enumerate(items):
            if index:
                self.parts.append(", ")
            if type(value) is dict:
                self.add(item[0])
                self.parts.append(": ")
                self.add(item[1])
            else:
                self.add(item)
        if type(value) is tuple and len(value) == 1:
            self.parts.append(",")
        self.parts.append(closing)
        self.active.discard(id(value))


_SIMPLE = frozenset({str, float, bool, type(None), complex, bytes, range, slice,
                     type(Ellipsis)})
_CONTAINERS: dict[type, tuple[str, str, str]] = {
    list: ("[", "]", "[]"), tuple: ("(", ")", "()"), dict: ("{", "}", "{}"),
    set: ("{", "}", "set()"), frozenset: ("frozenset({", "})", "frozenset()"),
    type({}.keys()): ("dict_keys([", "])", "dict_keys([])"),
    type({}.values()): ("dict_values([", "])", "dict_values([])"),
    type({}.items()): ("dict_items([", "])", "dict_items([])"),
}
_OWN_REPR = (UserFunction, Namespace, BuiltinMethod, BuiltinType)


def _object_repr(value: Any) -> str:
    if is_engine_object(value) or isinstance(value, _OWN_REPR):
        return repr(value)
    if isinstance(value, type):
        module = getattr(value, "__module__", "")
        prefix = "torch." if module.startswith("engine") else ""
        return f"<class '{prefix}{value.__name__}'>"
    if callable(value):
        name = getattr(value, "__name__", "")
        return f"<built-in function {name}>" if name.isidentifier() else "<built-in function>"
    if type(value).__name__ == "generator":
        return "<generator object>"
    return repr(value)


# Python's own error messages name the type of a value ("'function' object is not
# subscriptable"): let them show the names Python users know, not agraph's class names.
for _class, _shown in ((UserFunction, "function"), (Namespace, "module"),
                       (BuiltinMethod, "builtin_function_or_method"), (BuiltinType, "type")):
    _class.__name__ = _class.__qualname__ = _shown
