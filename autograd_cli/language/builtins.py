"""The builtins of a program and the methods of its plain values: explicit allow-lists.

Nothing here hands out a host object a program could climb from: `str` and friends are wrappers
that show values with `display_str`, `isinstance` knows them, and every builtin that consumes an
iterable counts its items (a C loop over `range(10**12)` could not be interrupted otherwise).
`int`, `float` and `bool` are Python's own types, because `dtype=float` means float64 to torch;
the interpreter checks `int(text, base)` with `check_int_call`.

Builtins and methods that compare or hash items in one C call (`sorted`, `min`, `set(...)`,
`list.index`, `dict.get`, ...) count the nested items that walks first (max_nested_items), and
those that build text check its length before joining it (max_str_len, max_output_bytes).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, Protocol

from autograd_cli.language import classes
from autograd_cli.language.formatting import TextFormatter
from autograd_cli.language.limits import LimitExceeded, Limits
from autograd_cli.language.memory import POINTER, STR_OBJECT, check_container, size_argument
from autograd_cli.language.objects import (
    NESTED_TYPES,
    BuiltinMethod,
    BuiltinType,
    check_contains,
    check_hash,
    check_hashes,
    check_items,
    display_repr,
    display_str,
)
from engine.memory import charge, check

_MISSING: Any = object()


class Runtime(Protocol):
    """What the builtins need from the interpreter."""

    limits: Limits
    formatter: TextFormatter

    def bounded(self, iterable: Iterable[Any]) -> Iterator[Any]: ...

    def bounded_list(self, iterable: Iterable[Any]) -> list[Any]: ...

    def add(self, left: Any, right: Any) -> Any: ...

    def power(self, left: Any, right: Any) -> Any: ...

    def write(self, text: str) -> None: ...

    def check_output(self, length: int) -> None: ...


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
        "frozenset": BuiltinType(frozenset, functions.make_frozenset),
        "slice": slice, "callable": callable, "chr": chr, "ord": ord, "divmod": divmod,
        "bin": bin, "oct": oct, "hex": hex, "NotImplemented": NotImplemented,
        "Ellipsis": Ellipsis,
    }
    for name in FUNCTIONS:
        table[name] = getattr(functions, name)
    return table


def _iter(iterable: Any) -> Iterator[Any]:
    """`iter(x)`: the one-argument form only."""
    return iter(iterable)


_iter.__name__ = _iter.__qualname__ = "iter"


class Lazy:
    """What `map` and `filter` give: their items made one at a time, each one counted."""

    __slots__ = ("items",)

    def __init__(self, items: Iterator[Any]) -> None:
        self.items = items

    def __iter__(self) -> Lazy:
        return self

    def __next__(self) -> Any:
        return next(self.items)


class MapObject(Lazy):
    __slots__ = ()


class FilterObject(Lazy):
    __slots__ = ()


MapObject.__name__ = MapObject.__qualname__ = "map"
FilterObject.__name__ = FilterObject.__qualname__ = "filter"


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
        separator = " " if sep is None else sep
        ending = "\n" if end is None else end
        # The length is checked as it grows, before anything is joined: print(*[s] * 500)
        # would otherwise build 500 times s in one C call.
        length = len(ending) + len(separator) * max(0, len(values) - 1)
        self.runtime.check_output(length)
        max_len = self.runtime.limits.max_str_len
        pieces = []
        for value in values:
            piece = display_str(value, max_len)
            length += len(piece)
            self.runtime.check_output(length)
            pieces.append(piece)
        self.runtime.write(separator.join(pieces) + ending)

    def make_str(self, value: Any = "") -> str:
        return display_str(value, self.runtime.limits.max_str_len)

    def repr(self, value: Any) -> str:
        return display_repr(value, self.runtime.limits.max_str_len)

    def format(self, value: Any, spec: str = "") -> str:
        if type(spec) is not str:
            raise TypeError(f"format() argument 2 must be str, not {type(spec).__name__}")
        return self.runtime.formatter.format_value(value, spec)

    def make_list(self, iterable: Any = ()) -> list[Any]:
        return self.runtime.bounded_list(iterable)

    def make_tuple(self, iterable: Any = ()) -> tuple[Any, ...]:
        return tuple(self.runtime.bounded_list(iterable))

    def make_set(self, iterable: Any = ()) -> set[Any]:
        if type(iterable) in _KEEP_HASHES:
            check_container(set, len(iterable))
            return set(iterable)
        items = self.runtime.bounded_list(iterable)
        check_hashes(items, self.runtime.limits.max_nested_items)
        check_container(set, len(items))
        return set(items)

    def make_dict(self, iterable: Any = (), **kwargs: Any) -> dict[Any, Any]:
        if isinstance(iterable, dict):  # a dict, OrderedDict, defaultdict, Counter: a mapping
            check_container(dict, len(iterable))
            result = dict(iterable)
        else:
            pairs = _checked_pairs(self.runtime, iterable)
            check_container(dict, len(pairs))
            result = dict(pairs)
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
        items = self.runtime.bounded_list(args[0]) if len(args) == 1 else list(args)
        if default is not _MISSING and len(args) > 1:
            raise TypeError(f"Cannot specify a default for {name}() with multiple positional "
                            "arguments")
        key = _checked_keys(items, key, self.runtime.limits.max_nested_items,
                            "comparing these values")
        if default is not _MISSING:
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
        ndigits = size_argument(ndigits)
        if type(number) is int and type(ndigits) is int and ndigits < 0:
            # round(n, -k) computes 10**k in C: beyond the digits of n the answer is 0.
            if -ndigits > number.bit_length() * math.log10(2) + 2:
                return 0
        return round(number, ndigits)

    def sorted(self, iterable: Any, *, key: Any = None, reverse: bool = False) -> list[Any]:
        items = self.runtime.bounded_list(iterable)
        _sort(items, key, reverse, self.runtime.limits.max_nested_items)
        return items

    def any(self, iterable: Any) -> bool:
        return any(self.runtime.bounded(iterable))

    def all(self, iterable: Any) -> bool:
        return all(self.runtime.bounded(iterable))

    def isinstance(self, value: Any, classinfo: Any) -> bool:
        return isinstance(value, _python_types(classinfo))

    def make_frozenset(self, iterable: Any = ()) -> frozenset[Any]:
        return frozenset(self.make_set(iterable))

    def map(self, function: Any, *iterables: Any) -> MapObject:
        if not iterables:
            raise TypeError("map() must have at least two arguments.")
        counted = [self.runtime.bounded(iterable) for iterable in iterables]
        return MapObject(function(*items) for items in zip(*counted, strict=False))

    def filter(self, function: Any, iterable: Any) -> FilterObject:
        test = bool if function is None else function
        return FilterObject(item for item in self.runtime.bounded(iterable) if test(item))

    def hash(self, value: Any) -> int:
        check_hash(value, self.runtime.limits.max_nested_items)
        return hash(value)

    def vars(self, *args: Any) -> dict[str, Any]:
        """`vars(obj)` of an object whose attributes are all the program's (its own classes'
        plain objects, `argparse.Namespace`): a new dict of them. Without an argument it would
        show a scope, and an engine object's attributes are agraph's: both refused."""
        if len(args) != 1:
            raise TypeError("vars() takes one argument in agraph programs")
        value = args[0]
        if getattr(type(value), "OPEN_ATTRS", False):
            return dict(value.program_attributes)
        if classes.is_plain_program_object(value):
            return dict(getattr(value, "__dict__", {}))
        raise TypeError("vars() argument must have __dict__ attribute")

    def pow(self, base: Any, exp: Any, mod: Any = None) -> Any:
        if mod is None:
            return self.runtime.power(base, exp)
        if isinstance(exp, int) and isinstance(mod, int):
            _check_modular_power(abs(exp).bit_length(), abs(mod).bit_length(),
                                 self.runtime.limits.max_int_bits)
        return pow(base, exp, mod)


def _check_modular_power(exp_bits: int, mod_bits: int, max_bits: int) -> None:
    """`pow(b, e, m)` runs in C for about bits(e) * bits(m)**2 steps, operands each within the
    integer limit yet past any time limit together (a 65,530-bit exponent modulo a 65,000-bit
    number: minutes); at most about a second of it (max_int_bits * 2048**2)."""
    if exp_bits * mod_bits * mod_bits > max_bits * 2048 * 2048:
        raise LimitExceeded("max_int_bits", f"pow() of a {exp_bits}-bit exponent modulo a "
                            f"{mod_bits}-bit number is too much work (exponent bits times the "
                            f"modulus bits squared at most {max_bits} * 2048**2)")


FUNCTIONS = ("print", "repr", "format", "min", "max", "sum", "round", "sorted", "any", "all",
             "isinstance", "map", "filter", "hash", "pow", "vars")
for _name in FUNCTIONS:
    getattr(_Builtins, _name).__qualname__ = _name


# Sets built from these reuse the hashes their items have: nothing is hashed again.
_KEEP_HASHES = frozenset({set, frozenset, dict})
_PAIRS = frozenset({tuple, list})


def _checked_keys(items: list[Any], key: Any, cap: int, what: str) -> Any:
    """The `key=` to hand to sort/min/max once the values they compare are checked: the keys
    are computed first (in order, as Python does), then handed back one by one in C."""
    if key is None:
        check_items(items, cap, what)
        return None
    keys = [key(item) for item in items]
    check_items(keys, cap, what)
    return partial(next, iter(keys))  # called once per item, in order, by sort, min and max


def _sort(items: list[Any], key: Any, reverse: Any, cap: int) -> None:
    """`items.sort(key=key, reverse=reverse)`, with the items (or keys) it compares checked."""
    items.sort(key=_checked_keys(items, key, cap, "sorting these values"), reverse=reverse)


def _checked_pairs(runtime: Runtime, iterable: Any) -> list[Any]:
    """The (key, value) pairs of `dict(iterable)`, with the keys it hashes checked."""
    pairs = runtime.bounded_list(iterable)
    keys = [pair[0] for pair in pairs if type(pair) in _PAIRS and len(pair) == 2]
    check_hashes(keys, runtime.limits.max_nested_items)
    return pairs


def check_int_call(args: list[Any] | tuple[Any, ...], kwargs: dict[str, Any],
                   max_bits: int) -> int:
    """`int(text, base)`, with the bits of the result checked first: Python's limit of 4,300
    digits leaves out the bases that are powers of two, so `int("1" * 10**7, 2)` would make a
    10-million-bit integer (and `//` of two of them takes a minute in one C call)."""
    text = args[0] if args else None
    base = size_argument(args[1] if len(args) > 1 else kwargs.get("base", 10))
    if len(args) > 1:
        args = (args[0], base, *args[2:])
    elif "base" in kwargs:
        kwargs = {**kwargs, "base": base}
    if type(text) is str and type(base) is int:
        bits = _parsed_bits(text, base)
        if bits > max_bits + 64:
            raise LimitExceeded("max_int_bits", f"int() of this text would have about {bits} "
                                f"bits, more than {max_bits}")
    result = int(*args, **kwargs)
    if result.bit_length() > max_bits:
        raise LimitExceeded("max_int_bits", f"int() of this text has {result.bit_length()} "
                            f"bits, more than {max_bits}")
    return result


def _parsed_bits(text: str, base: int) -> int:
    """About the bits of `int(text, base)` (the digits after a sign, prefix and zeros)."""
    digits = text.strip().lstrip("+-")
    prefix = digits[:2].lower()
    prefixed = {"0x": 16, "0o": 8, "0b": 2}.get(prefix)
    if prefixed is not None and base in (0, prefixed):
        digits, base = digits[2:], prefixed
    elif base == 0:
        base = 10
    if not 2 <= base <= 36:
        return 0  # Python refuses the base
    significant = len(digits.replace("_", "").lstrip("0"))
    return math.ceil(significant * math.log2(base))


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
        strip lstrip rstrip partition rpartition startswith endswith find rfind index rindex count
        isdigit isalpha isalnum isspace isupper islower isdecimal isnumeric isidentifier
        removeprefix removesuffix
        """.split()),
    # (remove, index, count, sort, get, pop, setdefault, add, discard: checked, see below)
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
    checks = _CHECKED_METHODS.get(type(value))
    if checks is None and isinstance(value, dict):  # a defaultdict, a Counter: keys as a dict's
        checks = _HASHING_METHODS
    factory = (checks or {}).get(name)
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
        wide = "" if separator.isascii() and all(
            item.isascii() for item in items if type(item) is str) else "\u0100"
        runtime.formatter.check_length(length + len(separator) * max(0, len(items) - 1), wide)
        return separator.join(items)
    return join


def _str_replace(runtime: Runtime, text: str) -> Callable[..., str]:
    def replace(old: str, new: str, count: Any = -1) -> str:
        count = size_argument(count)
        if type(old) is str and type(new) is str and len(new) > len(old) and type(count) is int:
            occurrences = text.count(old) if count < 0 else min(count, text.count(old))
            runtime.formatter.check_length(len(text) + occurrences * (len(new) - len(old)),
                                           text, new)
        return text.replace(old, new, count)
    return replace


def _str_split(name: str) -> Callable[[Runtime, str], Callable[..., list[str]]]:
    """split/rsplit/splitlines make a string per piece (about 50 bytes each besides its
    characters): the pieces are counted (a separator's occurrences) or bounded (one every
    two characters) and their memory checked first."""
    def factory(runtime: Runtime, text: str) -> Callable[..., list[str]]:
        def split(*args: Any, **kwargs: Any) -> list[str]:
            sep = args[0] if args and name != "splitlines" else kwargs.get("sep")
            if type(sep) is str and sep:
                pieces = text.count(sep) + 1
            else:
                pieces = len(text) // 2 + 1
            check(64 + (POINTER + STR_OBJECT) * pieces + len(text),
                  f"{name}() of a string of {len(text)} characters")
            return getattr(text, name)(*args, **kwargs)  # type: ignore[no-any-return]
        return split
    return factory


def _str_case(name: str) -> Callable[[Runtime, str], Callable[..., str]]:
    """upper/lower/title/...: a character may map to three ("ß".upper() is "SS", "ﬃ" is
    "FFI"), so a text that is not ASCII is sized at three times its length first."""
    def factory(runtime: Runtime, text: str) -> Callable[..., str]:
        def case(*args: Any, **kwargs: Any) -> str:
            if not text.isascii():
                runtime.formatter.check_length(3 * len(text), text)
            return getattr(text, name)(*args, **kwargs)  # type: ignore[no-any-return]
        return case
    return factory


def _str_pad(name: str) -> Callable[[Runtime, str], Callable[..., str]]:
    def factory(runtime: Runtime, text: str) -> Callable[..., str]:
        def pad(width: Any, *fill: Any) -> str:
            width = size_argument(width)
            if type(width) is int:
                runtime.formatter.check_length(width, text, *(f for f in fill if type(f) is str))
            return getattr(text, name)(width, *fill)  # type: ignore[no-any-return]
        return pad
    return factory


def _dict_update(runtime: Runtime, mapping: dict[Any, Any]) -> Callable[..., None]:
    def update(other: Any = (), **kwargs: Any) -> None:
        mapping.update(other if type(other) is dict else _checked_pairs(runtime, other),
                       **kwargs)
    return update


def _hashing(name: str) -> Callable[[Runtime, Any], Callable[..., Any]]:
    """dict.get/pop/setdefault, set.add/discard/remove: they hash their first argument."""
    def factory(runtime: Runtime, container: Any) -> Callable[..., Any]:
        method = getattr(container, name)
        cap = runtime.limits.max_nested_items

        def call(*args: Any, **kwargs: Any) -> Any:
            if args and args[0].__class__ is tuple:
                check_hash(args[0], cap)
            return method(*args, **kwargs)
        return call
    return factory


def _comparing(name: str) -> Callable[[Runtime, Any], Callable[..., Any]]:
    """list.index/count/remove, tuple.index/count: they compare their argument with items."""
    def factory(runtime: Runtime, sequence: Any) -> Callable[..., Any]:
        method = getattr(sequence, name)
        cap = runtime.limits.max_nested_items

        def call(*args: Any, **kwargs: Any) -> Any:
            if args and args[0].__class__ in NESTED_TYPES:
                check_contains(sequence, args[0], cap)
            try:
                return method(*args, **kwargs)
            except ValueError:
                if name == "index" and type(sequence) is list and args:
                    # Python's message shows the host repr (`<bound method add of ...>`)
                    shown = _short_repr(args[0], runtime.limits.max_str_len)
                    raise ValueError(f"{shown} is not in list") from None
                raise
        return call
    return factory


def _short_repr(value: Any, max_len: int) -> str:
    try:
        return display_repr(value, max_len)
    except (LimitExceeded, RecursionError):
        return f"<a value of type {type(value).__name__}>"


def _list_sort(runtime: Runtime, items: list[Any]) -> Callable[..., None]:
    def sort(*args: Any, key: Any = None, reverse: bool = False) -> None:
        if args:
            raise TypeError("sort() takes no positional arguments")
        _sort(items, key, reverse, runtime.limits.max_nested_items)
    return sort


def _list_grow(name: str) -> Callable[[Runtime, list[Any]], Callable[..., None]]:
    def factory(runtime: Runtime, items: list[Any]) -> Callable[..., None]:
        limit = runtime.limits.max_list_len

        def grow(*args: Any) -> None:
            added = runtime.bounded_list(args[0]) if name == "extend" and args else [None]
            if len(items) + len(added) > limit:
                raise LimitExceeded("max_list_len", f"the list would have more than {limit} "
                                    "items")
            if name == "extend":
                check_container(list, len(items) + len(added))
            else:
                charge(POINTER)
            getattr(items, name)(*((added,) if name == "extend" else args))
        return grow
    return factory


_HASHING_METHODS = {name: _hashing(name) for name in ("get", "pop", "setdefault")}
_CHECKED_METHODS: dict[type, dict[str, Callable[[Runtime, Any], Callable[..., Any]]]] = {
    str: {"format": _str_format, "join": _str_join, "replace": _str_replace,
          "ljust": _str_pad("ljust"), "rjust": _str_pad("rjust"), "center": _str_pad("center"),
          "zfill": _str_pad("zfill"),
          **{name: _str_case(name) for name in ("upper", "lower", "title", "capitalize",
                                                "casefold", "swapcase")},
          **{name: _str_split(name) for name in ("split", "rsplit", "splitlines")}},
    list: {"append": _list_grow("append"), "extend": _list_grow("extend"),
           "insert": _list_grow("insert"), "sort": _list_sort,
           **{name: _comparing(name) for name in ("index", "count", "remove")}},
    tuple: {name: _comparing(name) for name in ("index", "count")},
    dict: {"update": _dict_update, **_HASHING_METHODS},
    OrderedDict: _HASHING_METHODS,
    set: {name: _hashing(name) for name in ("add", "discard", "remove")},
}
