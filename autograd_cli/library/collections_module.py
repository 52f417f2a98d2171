"""`collections`: OrderedDict, defaultdict, Counter, deque and namedtuple.

Each container is a subclass of Python's own with an allow-list of its methods (PUBLIC_ATTRS);
whatever would take items from an iterator in C (the constructors, `update`, `extend`) takes
them through the interpreter's counted iteration first, and `deque * n` is sized first.
Their text is built with agraph's own repr of the items.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping
from typing import Any

from autograd_cli.language.memory import check_container, size_argument
from autograd_cli.language.objects import (
    BuiltinType,
    Namespace,
    check_contains,
    check_hash,
    check_hashes,
    display_repr,
    register_tuple,
)

_DICT_METHODS = frozenset("items keys values get pop popitem setdefault copy clear update".split())


def _items(runtime: Any, iterable: Any) -> Any:
    """An argument that Python would iterate in C, with its items taken through the
    interpreter (a mapping is already materialized)."""
    if iterable is None or isinstance(iterable, Mapping):
        return iterable
    items = runtime.bounded_list(iterable)
    check_container(dict, len(items))  # each becomes an entry (a Counter of a range)
    check_hashes(items, runtime.limits.max_nested_items)  # hashed in C, a tuple all through
    return items


class DefaultDict(collections.defaultdict):  # type: ignore[type-arg]
    PUBLIC_ATTRS = _DICT_METHODS | {"default_factory"}

    def __repr__(self) -> str:
        return f"defaultdict({display_repr(self.default_factory)}, {display_repr(dict(self))})"


DefaultDict.__name__ = DefaultDict.__qualname__ = "defaultdict"
DefaultDict.__module__ = "collections"


class Counter(collections.Counter):  # type: ignore[type-arg]
    PUBLIC_ATTRS = _DICT_METHODS | {"most_common", "elements", "subtract", "total"}
    runtime: Any = None

    def update(self, iterable: Any = None, /, **kwargs: Any) -> None:
        super().update(_items(self.runtime, iterable), **kwargs)

    def subtract(self, iterable: Any = None, /, **kwargs: Any) -> None:
        super().subtract(_items(self.runtime, iterable), **kwargs)

    def _rewrap(self, result: Any) -> Counter:
        counter = type(self)()
        dict.update(counter, result)
        return counter

    def __add__(self, other: Any) -> Any:
        return self._rewrap(super().__add__(other))

    def __sub__(self, other: Any) -> Any:
        return self._rewrap(super().__sub__(other))

    def __or__(self, other: Any) -> Any:
        return self._rewrap(super().__or__(other))

    def __and__(self, other: Any) -> Any:
        return self._rewrap(super().__and__(other))

    def __repr__(self) -> str:
        if not self:
            return "Counter()"
        return f"Counter({display_repr(dict(self.most_common()))})"


class Deque(collections.deque):  # type: ignore[type-arg]
    PUBLIC_ATTRS = frozenset("""append appendleft pop popleft extend extendleft rotate clear
        copy count index remove reverse insert maxlen""".split())
    runtime: Any = None

    def extend(self, iterable: Any) -> None:
        super().extend(self.runtime.bounded_list(iterable))

    def extendleft(self, iterable: Any) -> None:
        super().extendleft(self.runtime.bounded_list(iterable))

    # they compare their argument with the items in C: a nested one is sized first, as `in`
    def count(self, value: Any) -> int:
        check_contains(self, value, self.runtime.limits.max_nested_items)
        return super().count(value)

    def index(self, value: Any, *bounds: Any) -> int:
        check_contains(self, value, self.runtime.limits.max_nested_items)
        return super().index(value, *bounds)

    def remove(self, value: Any) -> None:
        check_contains(self, value, self.runtime.limits.max_nested_items)
        super().remove(value)

    def _repeated(self, times: Any) -> Any:
        """The count of `deque * times` as an int (asked once), its size checked."""
        times = size_argument(times)
        if isinstance(times, int):
            self.runtime.operators.check_list_length(len(self) * times)
            check_container(list, len(self) * max(times, 0))
        return times

    def __mul__(self, times: Any) -> Any:
        return super().__mul__(self._repeated(times))

    __rmul__ = __mul__

    def __imul__(self, times: Any) -> Any:
        return super().__imul__(self._repeated(times))

    def __repr__(self) -> str:
        items = display_repr(list(self))
        return f"deque({items})" if self.maxlen is None else f"deque({items}, maxlen={self.maxlen})"


Deque.__name__ = Deque.__qualname__ = "deque"


def namespace(runtime: Any, name: str) -> Namespace:
    counter_type = type("Counter", (Counter,), {"runtime": runtime, "__module__": "collections"})
    deque_type = type("deque", (Deque,), {"runtime": runtime, "__module__": "collections"})

    def make_ordered_dict(iterable: Any = (), /, **kwargs: Any) -> collections.OrderedDict[
            Any, Any]:
        return collections.OrderedDict(_items(runtime, iterable), **kwargs)

    def make_defaultdict(default_factory: Any = None, iterable: Any = (), /,
                         **kwargs: Any) -> DefaultDict:
        if default_factory is not None and not callable(default_factory):
            raise TypeError("first argument must be callable or None")
        return DefaultDict(default_factory, _items(runtime, iterable), **kwargs)

    def make_counter(iterable: Any = None, /, **kwargs: Any) -> Counter:
        counter = counter_type()
        counter.update(iterable, **kwargs)
        return counter

    def make_deque(iterable: Any = (), maxlen: int | None = None) -> Deque:
        return deque_type(runtime.bounded_list(iterable), maxlen)

    def namedtuple(typename: str, field_names: Any, *, rename: bool = False,
                   defaults: Any = None) -> type:
        if isinstance(field_names, str):
            field_names = field_names.replace(",", " ").split()
        fields = [str(field) for field in runtime.bounded_list(field_names)]
        make = collections.namedtuple
        made: Any = make(typename, fields, rename=bool(rename), defaults=defaults)
        made.PUBLIC_ATTRS = frozenset(made._fields) | {"count", "index"}
        register_tuple(made)  # compared, hashed and sorted as the tuple it is: sized first
        cap = runtime.limits.max_nested_items

        def __hash__(self: Any) -> int:  # whatever hashes it (a key, a set, lru_cache)
            check_hash(self, cap)
            return tuple.__hash__(self)

        made.__hash__ = __hash__
        return made  # type: ignore[no-any-return]

    return Namespace(name, {
        "OrderedDict": BuiltinType(collections.OrderedDict, make_ordered_dict),
        "defaultdict": BuiltinType(DefaultDict, make_defaultdict),
        "Counter": BuiltinType(counter_type, make_counter),
        "deque": BuiltinType(deque_type, make_deque),
        "namedtuple": namedtuple,
    })
