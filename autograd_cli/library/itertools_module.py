"""`itertools`, written over the interpreter's counted iteration.

Python's own itertools would pull items in C (`islice(count(), 10**12, None)` skips a trillion
items in one call no time limit can interrupt, `product(range(10**9))` first copies its input),
so each function here takes its items through `runtime.bounded` (every item a step, a loop
limit per iterable) and the combinatoric ones copy their inputs through `bounded_list` (sized)
before handing them to Python's itertools, whose output is then lazy and counted by the loop
that consumes it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from autograd_cli.language.memory import check_container, size_argument
from autograd_cli.language.objects import Namespace

_MISSING: Any = object()


def namespace(runtime: Any, name: str) -> Namespace:
    bounded = runtime.bounded
    listed = runtime.bounded_list

    def count(start: Any = 0, step: Any = 1) -> Iterator[Any]:
        value = start
        while True:
            yield value
            value = runtime.add(value, step)

    def cycle(iterable: Any) -> Iterator[Any]:
        items = listed(iterable)
        while items:
            yield from items

    def repeat(item: Any, times: int | None = None) -> Iterator[Any]:
        return itertools.repeat(item) if times is None else itertools.repeat(item, times)

    def accumulate(iterable: Any, func: Any = None, *, initial: Any = None) -> Iterator[Any]:
        items = bounded(iterable)
        total = initial
        if initial is None:
            total = next(items, _MISSING)
            if total is _MISSING:
                return
        yield total
        for item in items:
            total = runtime.add(total, item) if func is None else func(total, item)
            yield total

    def chain(*iterables: Any) -> Iterator[Any]:
        for iterable in iterables:
            yield from bounded(iterable)

    def from_iterable(iterables: Any) -> Iterator[Any]:
        for iterable in bounded(iterables):
            yield from bounded(iterable)

    def islice(iterable: Any, *bounds: Any) -> Iterator[Any]:
        window = slice(*bounds)
        start, stop, step = window.start or 0, window.stop, window.step or 1
        for index, item in enumerate(bounded(iterable)):
            if stop is not None and index >= stop:
                return
            if index >= start and (index - start) % step == 0:
                yield item

    def pairwise(iterable: Any) -> Iterator[Any]:
        items = bounded(iterable)
        previous = next(items, _MISSING)
        for item in items:
            yield previous, item
            previous = item

    def batched(iterable: Any, n: int) -> Iterator[tuple[Any, ...]]:
        if n < 1:
            raise ValueError("n must be at least one")
        batch: list[Any] = []
        for item in bounded(iterable):
            batch.append(item)
            if len(batch) == n:
                yield tuple(batch)
                batch = []
        if batch:
            yield tuple(batch)

    def starmap(function: Any, iterable: Any) -> Iterator[Any]:
        for arguments in bounded(iterable):
            yield function(*listed(arguments))

    def takewhile(predicate: Any, iterable: Any) -> Iterator[Any]:
        for item in bounded(iterable):
            if not predicate(item):
                return
            yield item

    def dropwhile(predicate: Any, iterable: Any) -> Iterator[Any]:
        items = bounded(iterable)
        for item in items:
            if not predicate(item):
                yield item
                break
        yield from items

    def filterfalse(predicate: Any, iterable: Any) -> Iterator[Any]:
        for item in bounded(iterable):
            if not (bool(item) if predicate is None else predicate(item)):
                yield item

    def compress(data: Any, selectors: Any) -> Iterator[Any]:
        for item, selected in zip(bounded(data), bounded(selectors), strict=False):
            if selected:
                yield item

    def zip_longest(*iterables: Any, fillvalue: Any = None) -> Iterator[tuple[Any, ...]]:
        sized(len(iterables), 12, "zip_longest")  # a counted iterator (a generator) each
        iterators = [bounded(iterable) for iterable in iterables]
        while iterators:
            row = [next(iterator, _MISSING) for iterator in iterators]
            if all(item is _MISSING for item in row):
                return
            yield tuple(fillvalue if item is _MISSING else item for item in row)

    def groupby(iterable: Any, key: Any = None) -> Iterator[tuple[Any, Iterator[Any]]]:
        group: list[Any] = []
        current: Any = _MISSING
        for item in bounded(iterable):
            value = item if key is None else key(item)
            if current is not _MISSING and value != current:
                yield current, iter(group)
                group = []
            current = value
            group.append(item)
        if current is not _MISSING:
            yield current, iter(group)

    def sized(count: Any, slots: int, what: str) -> Any:
        """A count for which Python allocates `slots` machine words an item before the first
        one is made (the indices of `combinations(xs, r)`, `tee`'s iterators): as big a list
        would be within the limits, checked first."""
        count = size_argument(count)
        if type(count) is int and count > 0:
            runtime.operators.check_list_length(count)
            check_container(tuple, slots * count, f"{what} of {count} items")
        return count

    def tee(iterable: Any, n: int = 2) -> tuple[Iterator[Any], ...]:
        items = listed(iterable)
        return tuple(iter(items) for _ in range(sized(n, 8, "tee")))

    def product(*iterables: Any, repeat: int = 1) -> Iterator[tuple[Any, ...]]:
        pools = [listed(iterable) for iterable in iterables]
        if isinstance(repeat, int):  # Python copies the pools `repeat` times first
            runtime.operators.check_list_length(sum(len(pool) for pool in pools) * repeat)
        return itertools.product(*pools, repeat=repeat)

    def combinations(iterable: Any, r: int) -> Iterator[tuple[Any, ...]]:
        pool = listed(iterable)
        return itertools.combinations(pool, sized(r, 2, "combinations"))

    def combinations_with_replacement(iterable: Any, r: int) -> Iterator[tuple[Any, ...]]:
        pool = listed(iterable)
        return itertools.combinations_with_replacement(
            pool, sized(r, 2, "combinations_with_replacement"))

    def permutations(iterable: Any, r: int | None = None) -> Iterator[tuple[Any, ...]]:
        pool = listed(iterable)
        return itertools.permutations(pool, sized(len(pool) if r is None else r, 3,
                                                          "permutations"))

    functions = [count, cycle, repeat, accumulate, chain, islice, pairwise, batched, starmap,
                 takewhile, dropwhile, filterfalse, compress, zip_longest, groupby, tee,
                 product, combinations, combinations_with_replacement, permutations]
    members: dict[str, Any] = {function.__name__: function for function in functions}
    members["chain"] = ChainFunction(chain, from_iterable)
    return Namespace(name, members)


class ChainFunction:
    """`itertools.chain(...)`, with its `chain.from_iterable(...)`."""

    PUBLIC_ATTRS = frozenset({"from_iterable"})
    __slots__ = ("function", "from_iterable")

    def __init__(self, function: Any, from_iterable: Any) -> None:
        self.function = function
        self.from_iterable = from_iterable

    def __call__(self, *iterables: Any) -> Any:
        return self.function(*iterables)

    def __repr__(self) -> str:
        return "<class 'itertools.chain'>"
