"""The objects a program holds that agraph makes, and how any value is shown as text.

- `UserFunction`: a `def` or `lambda` of the program. It is an interpreter object, not a Python
  function: it has no attributes a program can read, and the engine can still call it (hooks).
- `Namespace`: `torch`, `torch.nn`, ... built from the dicts of engine/api.py; read-only.
- `BuiltinMethod`: a checked method of a str/list (e.g. `", ".join`) handed to the program.
- `BuiltinType`: `str`, `list`, ... as a program sees them (callable, known to isinstance).
- `display_str` / `display_repr`: what `print`, `str()`, f-strings and `repr()` show. They never
  let Python's default repr of a host object through (`<function f at 0x...>`, `<module ...>`),
  and print integers of any allowed size. Given `max_len`, they refuse (max_str_len) a text
  that would be longer, before building it where its length can be told from the value.
- `nested_size`: how many items one C call over a value walks (`==`, `<`, `in`, hash, sort,
  repr). Lists and tuples can share their items: `b = [a] * 1000; c = [b] * 1000` is small
  in memory, yet `c == d` or `hash(c)` walks a billion items in one C call that no time limit
  can interrupt. It is counted first, each shared container looked at once.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from itertools import chain, compress, filterfalse, repeat
from operator import and_, not_
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from autograd_cli.language.limits import LimitExceeded
from engine.addresses import address_of

# CPython refuses int -> str beyond 4300 digits; bigger (allowed) ints are printed in chunks.
_DIGITS_PER_CHUNK = 4000
_CHUNK = 10 ** _DIGITS_PER_CHUNK


class FunctionCaller(Protocol):
    def call_from_host(self, function: UserFunction, args: tuple[Any, ...],
                       kwargs: dict[str, Any]) -> Any: ...


class Signature(NamedTuple):
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

    __slots__ = ("name", "node", "signature", "enclosing", "caller", "local_names",
                 "owner_class", "is_generator")

    def __init__(self, name: str, node: ast.FunctionDef | ast.Lambda, signature: Signature,
                 enclosing: tuple[dict[str, Any], ...], caller: FunctionCaller,
                 local_names: frozenset[str]) -> None:
        self.name = name
        self.node = node
        self.signature = signature
        self.enclosing = enclosing
        self.caller = caller
        self.local_names = local_names
        self.owner_class: type | None = None  # the class whose body defined it (super())
        self.is_generator = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Called by host code (a hook in the engine, a `key=` of sorted)."""
        return self.caller.call_from_host(self, args, kwargs)

    @property
    def __name__(self) -> str:  # noqa: A003 - what host code names it by (PyTorch's hook errors)
        return str(self.name).rpartition(".")[2]

    def __repr__(self) -> str:
        return f"<function {self.name} at {address_of(self)}>"


class BoundMethod:
    """`obj.method`: a program function with its first argument given."""

    __slots__ = ("function", "owner")

    def __init__(self, function: Any, owner: Any) -> None:
        self.function = function
        self.owner = owner

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(self.owner, *args, **kwargs)

    def __repr__(self) -> str:
        name = getattr(self.function, "name", "method")
        return f"<bound method {name} of {display_repr(self.owner)}>"


BoundMethod.__name__ = BoundMethod.__qualname__ = "method"


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
        """`members`: a dict (copied) or a read-only mapping kept as it is (engine/api.py's
        submodules, built when first read)."""
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "members", MappingProxyType(dict(members))
                           if isinstance(members, dict) else members)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"'{self.name}' is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"'{self.name}' is read-only")

    def __repr__(self) -> str:
        return f"<agraph namespace {self.name}>"


class HostCallable:
    """What agraph gives a program to call in place of a host callable: it runs `function`,
    and shows as `shown` says (filled in from its attributes)."""

    __slots__ = ("name", "function")
    shown = "<function {self.name}>"

    def __init__(self, name: str, function: Callable[..., Any]) -> None:
        self.name = name
        self.function = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **kwargs)

    def __repr__(self) -> str:
        return self.shown.format(self=self)


class BuiltinMethod(HostCallable):
    """A method of a str/list/dict value that agraph checks before running (sizes)."""

    __slots__ = ("owner",)
    shown = "<built-in method {self.name} of {self.owner} object>"

    def __init__(self, name: str, owner: str, function: Callable[..., Any]) -> None:
        self.name = name
        self.owner = owner
        self.function = function


class TensorMethod(BuiltinMethod):
    """A tensor's method read without a call (`print(loss.item)`, `x.mean + 1`): PyTorch's are
    built-in methods, and show so (with the tensor's address)."""

    __slots__ = ("tensor",)

    def __init__(self, name: str, tensor: Any, function: Callable[..., Any]) -> None:
        super().__init__(name, type(tensor).__name__, function)
        self.tensor = tensor

    def __repr__(self) -> str:
        return (f"<built-in method {self.name} of {self.owner} object at "
                f"{address_of(self.tensor)}>")


class UnboundMethod(BuiltinMethod):
    """`str.lower` read from the type: called with the value first."""

    __slots__ = ()
    shown = "<method '{self.name}' of '{self.owner}' objects>"


class BuiltinType(HostCallable):
    """`str`, `list`, ...: callable like the type, known to `isinstance`; its methods read from
    it are UnboundMethods."""

    __slots__ = ("python_type",)

    def __init__(self, python_type: type, construct: Callable[..., Any]) -> None:
        self.name = python_type.__name__
        self.python_type = python_type
        self.function = construct

    def __repr__(self) -> str:
        return class_text(self.python_type)


def class_text(kind: type) -> str:
    """How Python shows a class a program reaches: `<class 'torch.Tensor'>` for the engine's,
    `<class 'numpy.ndarray'>`, `<class 'collections.OrderedDict'>`, `<class 'int'>`."""
    module = getattr(kind, "__module__", "")
    if module == "__main__":
        return f"<class '__main__.{kind.__qualname__}'>"
    if module.startswith("engine"):
        module = "torch"
    elif module in ("builtins", "itertools") or module.startswith("autograd_cli"):
        module = ""
    return f"<class '{module + '.' if module else ''}{kind.__name__}'>"


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


def display_str(value: Any, max_len: int | None = None) -> str:
    """What `print(value)` and `str(value)` show; `max_len` bounds a container's text."""
    kind = type(value)
    if kind is str:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return int_text(value)
    if kind is float or kind is bool or value is None:
        return str(value)
    if isinstance(value, BaseException):  # a program's exception too: its args are shown
        return exception_text(value, max_len)  # with agraph's reprs, never the host's
    if is_engine_object(value) or _is_program_object(value):
        if kind.__str__ is object.__str__ and kind.__repr__ is object.__repr__:
            return object_text(value)
        return str(value)
    return display_repr(value, max_len)


def _is_program_object(value: Any) -> bool:
    return any("_agraph_members" in klass.__dict__ for klass in type(value).__mro__)


def _program_defines(value: Any, name: str) -> bool:
    """A class of the program's, among `value`'s classes, defines the method `name`."""
    return any(name in klass.__dict__ for klass in type(value).__mro__
               if "_agraph_members" in klass.__dict__)


# Libraries whose own objects (a ufunc, a dtype) must never reach a program raw.
_HOST_LIBRARIES = frozenset({"numpy", "matplotlib", "graphviz", "PIL", "pyparsing",
                             "contourpy", "kiwisolver", "cycler", "dateutil"})


def exception_args(exception: BaseException) -> tuple[Any, ...]:
    """`e.args`: Python's, but for an exception a library raised with its own objects in it
    (numpy's UFuncTypeError carries the real `np.add` and its dtypes): then its message."""
    if _from_host(exception) or any(_from_host(arg) for arg in exception.args[:100]):
        return (str(exception),)
    return exception.args


def _from_host(value: Any, depth: int = 0) -> bool:
    kind = type(value)
    if (kind is tuple or kind is list) and depth < 3:
        return any(_from_host(item, depth + 1) for item in value[:100])
    return kind.__module__.partition(".")[0] in _HOST_LIBRARIES


def exception_text(exception: BaseException, max_len: int | None = None) -> str:
    """`str(e)` as Python shows it, its arguments shown with agraph's reprs."""
    if _program_defines(exception, "__str__"):
        return str(exception)
    if isinstance(exception, OSError) and exception.errno is not None and exception.strerror:
        text = f"[Errno {exception.errno}] {exception.strerror}"  # Python's OSError.__str__
        if exception.filename is not None:
            text += f": {display_repr(exception.filename, max_len)}"
        return text
    args = exception_args(exception)
    if not args:
        return ""
    if len(args) == 1:
        if type(exception) is KeyError:
            return display_repr(args[0], max_len)
        return display_str(args[0], max_len)
    return display_repr(args, max_len)


def display_repr(value: Any, max_len: int | None = None) -> str:
    """What `repr(value)` shows; containers show their items with `display_repr`.

    With `max_len`, a text longer than that is refused (LimitExceeded, max_str_len): at once if
    a lower bound of its length (from the lengths of the containers and strings in it) is over,
    else as soon as the text built so far is.
    """
    if max_len is not None and type(value) in NESTED_TYPES and has_nested(value):
        if nested_size(value, max_len, text=True) > max_len:
            raise _text_too_long(max_len)
    builder = _Repr(max_len)
    builder.add(value)
    text = "".join(builder.parts)
    if max_len is not None and len(text) > max_len:
        raise _text_too_long(max_len)
    return text


def _text_too_long(max_len: int) -> LimitExceeded:
    return LimitExceeded("max_str_len", f"the text of this value would be longer than {max_len} "
                         "characters")


class _Repr:
    """Builds a repr into `parts`; a container that contains itself shows as `[...]`.

    With a `limit`, the length built so far is checked after each item of a container.
    """

    def __init__(self, limit: int | None = None) -> None:
        self.parts: list[str] = []
        self.active: set[int] = set()
        self.limit = limit
        self.length = 0

    def add(self, value: Any) -> None:
        kind = type(value)
        if kind is int:
            text = int_text(value)
        elif kind in _SIMPLE:
            text = repr(value)
        elif kind in _CONTAINERS:
            self._container(value)
            return
        elif kind is OrderedDict:  # Python 3.11's repr: OrderedDict([(key, value), ...])
            self.parts.append("OrderedDict(")
            if value:
                self._container(list(value.items()))
            self.parts.append(")")
            return
        else:
            text = _object_repr(value)
        self.parts.append(text)
        if self.limit is not None:
            self.length += len(text) + 2  # and about a separator
            if self.length > self.limit:
                raise _text_too_long(self.limit)

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
_OWN_REPR = (UserFunction, BoundMethod, Namespace, BuiltinMethod, BuiltinType)


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _object_repr(value: Any) -> str:
    if isinstance(value, BaseException) and not _program_defines(value, "__repr__"):
        args = ", ".join(display_repr(arg) for arg in value.args)
        return f"{type(value).__name__}({args})"
    if is_engine_object(value) or isinstance(value, _OWN_REPR) or _is_program_object(value):
        return repr(value) if type(value).__repr__ is not object.__repr__ else object_text(value)
    if isinstance(value, BaseException):
        args = ", ".join(display_repr(arg) for arg in value.args)
        return f"{type(value).__name__}({args})"
    if isinstance(value, type):
        return class_text(value)
    if callable(value):
        name = getattr(value, "__name__", "")
        return f"<built-in function {name}>" if name.isidentifier() else "<built-in function>"
    return host_repr(value)


def object_text(value: Any) -> str:
    """`<torch.RemovableHandle object at 0x...>`: an engine or program object whose class has
    no repr of its own, named as `type(value)` prints, at the run's address (never the real
    one, nor agraph's module path)."""
    return f"<{class_text(type(value))[8:-2]} object at {address_of(value)}>"


def host_repr(value: Any) -> str:
    """Python's repr of a value agraph has no repr of its own for: `<list_iterator object at
    0x...>` for an iterator, a zip, a generator, ..., with the run's deterministic address
    (engine/addresses.py), never the real one; a library's own repr (a defaultdict) as it is,
    but for any address in it."""
    kind = type(value)
    if kind.__name__ == "generator":
        return f"<generator object <genexpr> at {address_of(value)}>"
    if kind.__repr__ is not object.__repr__:
        return _ADDRESS.sub(" at " + address_of(value), repr(value))
    module = kind.__module__
    prefix = "" if module in ("builtins", "itertools") or module.startswith(
        ("engine", "autograd_cli")) else module + "."
    return f"<{prefix}{kind.__qualname__} object at {address_of(value)}>"


# --- how much a C walk over a value visits -------------------------------------------------------

_KEYS: type = type({}.keys())
_VALUES: type = type({}.values())
_ITEMS: type = type({}.items())
# Containers whose items `==`, `<`, `in`, hashing, sorting and repr walk in C (exact types: a
# torch.Size is a tuple of ints, and engine objects compare and hash as themselves).
# A program's namedtuple classes join them when made (register_tuple): a tuple underneath.
NESTED_TYPES: set[type] = {list, tuple, dict, set, frozenset, OrderedDict, _KEYS, _VALUES,
                           _ITEMS}
_MAPPINGS = frozenset({dict, OrderedDict, _ITEMS})
_SEQUENCE_TYPES = NESTED_TYPES - _MAPPINGS
_is_sequence = _SEQUENCE_TYPES.__contains__
_TUPLES: set[type] = {tuple}


def register_tuple(kind: type) -> None:
    """A tuple class a program made (a namedtuple): hashed and compared as a tuple, in C."""
    NESTED_TYPES.add(kind)
    _SEQUENCE_TYPES.add(kind)
    _TUPLES.add(kind)
# Containers whose `in` hashes the item (a dict_items view: the key of a (key, value) pair).
_HASHED = frozenset({dict, OrderedDict, set, frozenset, _KEYS, _ITEMS})
_is_nested = NESTED_TYPES.__contains__
_is_str = frozenset({str}).__contains__
_is_int = frozenset({int}).__contains__


def nested_size(value: Any, cap: int, text: bool = False) -> int:
    """The items a C call walks over `value`: its items, and theirs, counted each time they are
    reached (`[a] * 1000` counts a's items 1000 times), though each container is read once.

    With `text`, a lower bound of the length of its repr instead (3 characters an item, the
    length of its strings and about the digits of its integers). 0 for anything that is not
    a container. A result over `cap` is returned as soon as it is known, so the walk costs
    about `cap` at most, in C but for one step per distinct container that holds containers.
    A value nested deeper than Python's recursion limit (which C's own recursion in `==` and
    repr obeys, but a tuple's hash does not) is a RecursionError.
    """
    if type(value) not in NESTED_TYPES:
        return 0
    seen = _own_size(value, cap, text)  # a lower bound of the result as the walk goes
    if seen > cap:
        return seen
    max_depth = sys.getrecursionlimit()
    sizes: dict[int, int] = {}  # id -> size, of the containers done that hold containers
    heights: dict[int, int] = {}  # id -> levels of containers in it, itself included
    # id -> (its own size and that of the flat containers in it, ids of the others, repeated,
    # and the same without repeats)
    started: dict[int, tuple[int, list[int], list[int]]] = {}
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        top, depth = stack[-1]
        key = id(top)
        if key in sizes:
            stack.pop()
            continue
        state = started.get(key)
        if state is None:
            if depth > max_depth:
                raise _too_deep()
            children: list[Any] = []
            for part in _parts(top):  # the non-empty containers among its items, repeated
                children.extend(filter(None, compress(part, map(_is_nested, map(type, part)))))
            if not children:
                size = _own_size(top, cap, text)
                if size > cap:
                    return size
                sizes[key] = size
                heights[key] = 1
                stack.pop()
                continue
            # Every path to a child is walked: this sum is part of the result. Reading the
            # children's items below costs no more than it.
            below = _sum_own(children, cap, text)
            seen += below
            if seen > cap:
                return seen
            if _MAPPINGS.isdisjoint(map(type, children)) and NESTED_TYPES.isdisjoint(
                    map(type, chain.from_iterable(children))):  # all of them flat
                size = _own_size(top, cap, text) + below
                if size > cap:
                    return size
                sizes[key] = size
                heights[key] = 2
                stack.pop()
                continue
            flags = list(map(and_, map(_is_sequence, map(type, children)),
                             map(NESTED_TYPES.isdisjoint, map(map, repeat(type), children))))
            nested = list(compress(children, map(not_, flags)))
            nested_ids = list(map(id, nested))
            distinct = dict(zip(nested_ids, nested, strict=True))
            own = _own_size(top, cap, text) + _sum_own(list(compress(children, flags)), cap, text)
            state = started[key] = (own, nested_ids, list(distinct))
            new = list(filterfalse(started.__contains__,
                                   filterfalse(sizes.__contains__, distinct)))
            if new:
                stack.extend(zip(map(distinct.__getitem__, new), repeat(depth + 1)))
                continue
        own, nested_ids, distinct_ids = state
        stack.pop()
        size = own + sum(map(sizes.get, nested_ids, repeat(0)))  # a container in itself: 0
        if size > cap:
            return size
        height = 1 + max(map(heights.get, distinct_ids, repeat(0)), default=1)
        if height > max_depth:
            raise _too_deep()
        sizes[key] = size
        heights[key] = max(height, 2)
    return sizes[id(value)]


def _too_deep() -> RecursionError:
    return RecursionError("maximum recursion depth exceeded while walking a nested value")


def _parts(value: Any) -> tuple[Iterable[Any], ...]:
    """What to iterate for the items of a container: a mapping's keys and values."""
    kind = type(value)
    if kind is _ITEMS:
        value = value.mapping
    elif kind not in _MAPPINGS:
        return (value,)
    return (value.keys(), value.values())


def _own_size(value: Any, cap: int, text: bool) -> int:
    """A container's items or, with `text`, a lower bound of the length of its repr without
    its nested containers."""
    if not text:
        return len(value)
    size = 2 + (6 if type(value) in _MAPPINGS else 3) * len(value)
    if size > cap:
        return size
    for part in _parts(value):
        size += _text_in(lambda: part)  # noqa: B023 - called before the next part
    return size


def _sum_own(containers: list[Any], cap: int, text: bool) -> int:
    """The sum of `_own_size` over `containers` (with repeats), all in C; only a lower bound
    with `text` (a dict's values are left out)."""
    length = sum(map(len, containers))
    if not text:
        return length
    size = 2 * len(containers) + 3 * length
    if size > cap:
        return size
    return size + _text_in(lambda: chain.from_iterable(containers))


def _text_in(items: Callable[[], Iterable[Any]]) -> int:
    """The characters of the strings among the items `items()` iterates and about the digits
    of its integers, but for one character an item."""
    size = sum(map(len, compress(items(), map(_is_str, map(type, items())))))
    integers = list(compress(items(), map(_is_int, map(type, items()))))
    if integers:  # digits >= 0.3 * bits - 1 each
        size += max(0, 3 * sum(map(int.bit_length, integers)) // 10 - 2 * len(integers))
    return size


def check_nested(value: Any, cap: int, what: str) -> None:
    """Refuse (max_nested_items) a value that `what` would walk more than `cap` items of."""
    size = nested_size(value, cap)
    if size > cap:
        raise _walks_too_much(cap, what)


def _walks_too_much(cap: int, what: str) -> LimitExceeded:
    return LimitExceeded("max_nested_items", f"{what} would walk more than {cap} nested items "
                         "(a list or tuple counts each time it appears, shared or not)")


def has_nested(value: Any) -> bool:
    """Whether a container holds a container (a mapping: among its keys or values)."""
    if type(value) in _MAPPINGS:
        return not (NESTED_TYPES.isdisjoint(map(type, _parts(value)[0]))
                    and NESTED_TYPES.isdisjoint(map(type, _parts(value)[1])))
    return not NESTED_TYPES.isdisjoint(map(type, value))


def check_compare(left: Any, right: Any, cap: int) -> None:
    """`left < right`, `==`, ... of two containers walks up to the smaller of them (no more
    than its length if it holds no containers)."""
    if not has_nested(left) or not has_nested(right):
        return
    if nested_size(left, cap) > cap and nested_size(right, cap) > cap:
        raise _walks_too_much(cap, "comparing these values")


def check_contains(container: Any, item: Any, cap: int) -> None:
    """`item in container` for a container `item`: its hash and one comparison (a set, a
    dict), or a comparison with every item, each costing the smaller of the two (a list)."""
    kind = type(container)
    if kind in _HASHED:
        check_hash(item, cap)
    elif kind in NESTED_TYPES:
        if nested_size(container, cap) > cap and (
                len(container) * (nested_size(item, cap) + 1) > cap):
            raise _walks_too_much(cap, "looking for this value")
    else:  # an iterator, compared item by item
        check_nested(item, cap, "looking for this value")


def check_hash(value: Any, cap: int) -> None:
    """Hashing a tuple walks all of it, every time (its hash is not kept)."""
    if type(value) in _TUPLES and not NESTED_TYPES.isdisjoint(map(type, value)):
        check_nested(value, cap, "hashing this tuple")


def check_hashes(values: list[Any], cap: int) -> None:
    """Hashing every item of `values` in one call (`set(values)`, `{a, b}`)."""
    if not NESTED_TYPES.isdisjoint(map(type, values)):
        check_nested(values, cap, "hashing these values")


def check_items(values: list[Any], cap: int, what: str) -> None:
    """Comparing items of `values` with each other or with one value (sort, min, index)."""
    if not NESTED_TYPES.isdisjoint(map(type, values)):
        check_nested(values, cap, what)


# Python's own error messages name the type of a value ("'function' object is not
# subscriptable"): let them show the names Python users know, not agraph's class names.
for _class, _shown in ((UserFunction, "function"), (Namespace, "module"),
                       (BuiltinMethod, "builtin_function_or_method"), (BuiltinType, "type"),
                       (TensorMethod, "builtin_function_or_method")):
    _class.__name__ = _class.__qualname__ = _shown  # type: ignore[method-assign]
TensorMethod.__module__ = "builtins"  # a missing attribute gets Python's own message
