"""The builtins of a program and the methods of its plain values: explicit allow-lists.

Nothing here hands out a host object a program could climb from: `str` and friends are wrappers
that show values with `display_str`, `isinstance` knows them, and every builtin that consumes an
iterable counts its items (a C loop over `range(10**12)` could not be interrupted otherwise).
`int`, `float` and `bool` are Python's own types, because `dtype=float` means float64 to torch.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from autograd_cli.limits import LimitExceeded, Limits
from autograd_cli.script_format import TextFormatter
from autograd_cli.script_objects import BuiltinMethod, BuiltinType, display_repr, display_str

_MISSING: Any = object()


class Runtime(Protocol):
    """What the builtins need from the interpreter."""

    limits: Limits
    formatter: TextFormatter

    def bounded(self, iterable: Iterable[Any]) -> Iterator[Any]: ...

    def bounded_list(self, iterable: Iterable[Any]) -> list[Any]: ...

    def add(self, left: Any, right: Any) -> Any: ...

    def write(self, text: str) -> None: ...


def make_builtins(runtime: Runtime) -> dict[str, Any]:
    """The names every program starts with."""
    functions = _Builtins(runtime)
    table: dict[str, Any] = {
        "int": int, "float": float, "bool": bool, "range": range, "len": len, "abs": abs,
        "id": id, "zip": zip, "enumerate": enumerate, "reversed": reversed, "iter": _iter,
        "next": next,
        "str": BuiltinType(str, functions.make_str),
        "list": BuiltinType(list, functions.make_list),
        "tuple": BuiltinType(tuple, functions.make_tuple),
        "dict": BuiltinType(dict, functions.make_dict),
        "set": BuiltinType(set, functions.make_set),
    }
    for name in ("print", "repr", "format", "min", "max", "sum", "round", "sorted", "any",
                 "all", "isinstance"):
        table[name] = getattr(functions, name)
    return table


def _iter(iterable: Any) -> Iterator[Any]:
    """`iter(x)`: the one-argument form only."""
    return iter(iterable)


_iter.__name__ = _iter.__qualname__ = "iter"


class _Builtins:
    """The builtins that need the run's limits, output or formatter.

    Each method's __qualname__ is its builtin name (set below the class), so Python's own
    messages read "print() got an unexpected keyword argument 'file'".
    """

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def print(self, *values: Any, sep: str | None = " ", end: str | None = "\n",
              flush: bool = False) -> None:
        for name, value in (("sep", sep), ("end", end)):
            if value is not None and type(value) is not str:
                raise TypeError(f"{name} must be None or a string, not {type(value).__name__}")
        text = (" " if sep is None else sep).join(display_str(value) for value in values)
        self.runtime.write(text + ("\n" if end is None else end))

    def make_str(self, value: Any = "") -> str:
        return display_str(value)

    def repr(self, value: Any) -> str:
        return display_repr(value)

    def format(self, value: Any, spec: str = "") -> str:
        if type(spec) is not str:
            raise TypeError(f"format() argument 2 must be str, not {type(spec).__name__}")
        return self.runtime.formatter.format_value(value, spec)

    def make_list(self, iterable: Any = ()) -> list[Any]:
        return self.runtime.bounded_list(iterable)

    def make_tuple(self, iterable: Any = ()) -> tuple[Any, ...]:
        return tuple(self.runtime.bounded_list(iterable))

    def make_set(self, iterable: Any = ()) -> set[Any]:
        return set(self.runtime.bounded(iterable))

    def make_dict(self, iterable: Any = (), **kwargs: Any) -> dict[Any, Any]:
        result = dict(iterable) if type(iterable) is dict else dict(self.runtime.bounded(iterable))
        result.update(kwargs)
        return result

    def min(self, *args: Any, key: Any = None, default: Any = _MISSING) -> Any:
        return self._extreme(min, "min", args, key, default)

    def max(self, *args: Any, key: Any = None, default: Any = _MISSING) -> Any:
        return self._extreme(max, "max", args, key, default)

    def _extreme(self, choose: Callable[..., Any], name: str, args: tuple[Any, ...], key: Any,
                 default: Any) -> Any:
        if not args:
            raise TypeError(f"{name} expected at least 1 argument, got 0")
        items = self.runtime.bounded(args[0]) if len(args) == 1 else args
        if default is not _MISSING:
            if len(args) > 1:
                raise TypeError(f"Cannot specify a default for {name}() with multiple "
                                "positional arguments")
            return choose(items, key=key, default=default)
        return choose(items, key=key)

    def sum(self, iterable: Any, start: Any = 0) -> Any:
        if type(start) is str:
            raise TypeError("sum() can't sum strings [use ''.join(seq) instead]")
        total = start
        for item in self.runtime.bounded(iterable):
            total = self.runtime.add(total, item)
        return total

    def round(self, number: Any, ndigits: Any = None) -> Any:
        if ndigits is None:
            return round(number)
        if type(number) is int and type(ndigits) is int and ndigits < 0:
            # round(n, -k) computes 10**k in C: beyond the digits of n the answer is 0.
            if -ndigits > number.bit_length() * math.log10(2) + 2:
                return 0
        return round(number, ndigits)

    def sorted(self, iterable: Any, *, key: Any = None, reverse: bool = False) -> list[Any]:
        items = self.runtime.bounded_list(iterable)
        items.sort(key=key, reverse=reverse)
        return items

    def any(self, iterable: Any) -> bool:
        return any(self.runtime.bounded(iterable))

    def all(self, iterable: Any) -> bool:
        return all(self.runtime.bounded(iterable))

    def isinstance(self, value: Any, classinfo: Any) -> bool:
        return isinstance(value, _python_types(classinfo))


for _name in ("print", "repr", "format", "min", "max", "sum", "round", "sorted", "any", "all",
              "isinstance"):
    getattr(_Builtins, _name).__qualname__ = _name


def _python_types(classinfo: Any) -> type | tuple[type, ...]:
    if isinstance(classinfo, BuiltinType):
        return classinfo.python_type
    if isinstance(classinfo, type):
        return classinfo
    if type(classinfo) is tuple:
        flat: list[type] = []
        for item in classinfo:
            found = _python_types(item)
            flat.extend(found if isinstance(found, tuple) else (found,))
        return tuple(flat)
    raise TypeError("isinstance() arg 2 must be a type, a tuple of types, or a union")


# Methods of plain values a program may call as they are (they cannot grow anything much).
PLAIN_METHODS: dict[type, frozenset[str]] = {
    str: frozenset("""
        upper lower title capitalize casefold swapcase strip lstrip rstrip split rsplit
        splitlines partition rpartition startswith endswith find rfind index rindex count
        isdigit isalpha isalnum isspace isupper islower isdecimal isnumeric isidentifier
        removeprefix removesuffix
        """.split()),
    list: frozenset("pop remove index count reverse sort copy clear".split()),
    tuple: frozenset("count index".split()),
    dict: frozenset("items keys values get pop popitem setdefault copy clear".split()),
    OrderedDict: frozenset("items keys values get pop popitem setdefault copy clear".split()),
    set: frozenset("add discard remove pop copy clear".split()),
    int: frozenset({"bit_length"}),
    float: frozenset({"is_integer"}),
}


def checked_method_names(kind: type) -> frozenset[str]:
    """The methods of `kind` that `checked_method` wraps."""
    return frozenset(_CHECKED_METHODS.get(kind, ()))


def checked_method(runtime: Runtime, value: Any, name: str) -> BuiltinMethod | None:
    """The methods whose result size depends on their arguments, with the size checked first."""
    factory = _CHECKED_METHODS.get(type(value), {}).get(name)
    if factory is None:
        return None
    return BuiltinMethod(name, type(value).__name__, factory(runtime, value))


def _str_format(runtime: Runtime, text: str) -> Callable[..., str]:
    def format_method(*args: Any, **kwargs: Any) -> str:
        return runtime.formatter.format_string(text, args, kwargs)
    return format_method


def _str_join(runtime: Runtime, separator: str) -> Callable[[Any], str]:
    def join(iterable: Any) -> str:
        items = runtime.bounded_list(iterable)
        length = sum(len(item) for item in items if type(item) is str)
        runtime.formatter.check_length(length + len(separator) * max(0, len(items) - 1))
        return separator.join(items)
    return join


def _str_replace(runtime: Runtime, text: str) -> Callable[..., str]:
    def replace(old: str, new: str, count: int = -1) -> str:
        if type(old) is str and type(new) is str and len(new) > len(old):
            occurrences = text.count(old) if count < 0 else min(count, text.count(old))
            runtime.formatter.check_length(len(text) + occurrences * (len(new) - len(old)))
        return text.replace(old, new, count)
    return replace


def _str_pad(name: str) -> Callable[[Runtime, str], Callable[..., str]]:
    def factory(runtime: Runtime, text: str) -> Callable[..., str]:
        def pad(width: int, *fill: str) -> str:
            if type(width) is int:
                runtime.formatter.check_length(width)
            return getattr(text, name)(width, *fill)  # type: ignore[no-any-return]
        return pad
    return factory


def _dict_update(runtime: Runtime, mapping: dict[Any, Any]) -> Callable[..., None]:
    def update(other: Any = (), **kwargs: Any) -> None:
        mapping.update(other if type(other) is dict else runtime.bounded(other), **kwargs)
    return update


def _list_grow(name: str) -> Callable[[Runtime, list[Any]], Callable[..., None]]:
    def factory(runtime: Runtime, items: list[Any]) -> Callable[..., None]:
        limit = runtime.limits.max_list_len

        def grow(*args: Any) -> None:
            added = runtime.bounded_list(args[0]) if name == "extend" and args else [None]
            if len(items) + len(added) > limit:
                raise LimitExceeded("max_list_len", f"the list would have more than {limit} "
                                    "items")
            getattr(items, name)(*((added,) if name == "extend" else args))
        return grow
    return factory


_CHECKED_METHODS: dict[type, dict[str, Callable[[Runtime, Any], Callable[..., Any]]]] = {
    str: {"format": _str_format, "join": _str_join, "replace": _str_replace,
          "ljust": _str_pad("ljust"), "rjust": _str_pad("rjust"), "center": _str_pad("center"),
          "zfill": _str_pad("zfill")},
    list: {"append": _list_grow("append"), "extend": _list_grow("extend"),
           "insert": _list_grow("insert")},
    dict: {"update": _dict_update},
}
