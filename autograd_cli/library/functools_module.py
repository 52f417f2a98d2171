"""`functools`: `reduce`, `partial`, `cache`/`lru_cache`, `wraps`, `cmp_to_key`.

`reduce` takes its items through the interpreter's counted iteration; `partial` and the cache
are agraph objects a program can call and read the documented attributes of, nothing else.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from autograd_cli.language.objects import Namespace, check_hash

_NO_INITIAL: Any = object()


class Partial:
    """`functools.partial(func, *args, **keywords)`."""

    PUBLIC_ATTRS = frozenset({"func", "args", "keywords"})
    __slots__ = ("func", "args", "keywords")

    def __init__(self, func: Any, *args: Any, **keywords: Any) -> None:
        if not callable(func):
            raise TypeError("the first argument must be callable")
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args: Any, **keywords: Any) -> Any:
        return self.func(*self.args, *args, **{**self.keywords, **keywords})

    def __repr__(self) -> str:
        return "functools.partial(...)"


class CachedFunction:
    """What `@functools.lru_cache(maxsize)` / `@functools.cache` make of a function."""

    PUBLIC_ATTRS = frozenset({"cache_info", "cache_clear"})
    __slots__ = ("function", "maxsize", "entries", "hits", "misses", "max_nested")

    def __init__(self, function: Any, maxsize: int | None, max_nested: int) -> None:
        self.function = function
        self.maxsize = maxsize
        self.entries: OrderedDict[Any, Any] = OrderedDict()
        self.hits = 0
        self.misses = 0
        self.max_nested = max_nested

    def __call__(self, *args: Any, **keywords: Any) -> Any:
        key = (args, tuple(sorted(keywords.items()))) if keywords else args
        check_hash(key, self.max_nested)
        if key in self.entries:
            self.hits += 1
            self.entries.move_to_end(key)
            return self.entries[key]
        self.misses += 1
        value = self.function(*args, **keywords)
        if self.maxsize != 0:
            self.entries[key] = value
            if self.maxsize is not None and len(self.entries) > self.maxsize:
                self.entries.popitem(last=False)
        return value

    def cache_info(self) -> str:
        return (f"CacheInfo(hits={self.hits}, misses={self.misses}, maxsize={self.maxsize}, "
                f"currsize={len(self.entries)})")

    def cache_clear(self) -> None:
        self.entries.clear()
        self.hits = self.misses = 0

    def __repr__(self) -> str:
        return f"<cached {self.function!r}>"


def namespace(runtime: Any, name: str) -> Namespace:
    max_nested = runtime.limits.max_nested_items

    def reduce(function: Any, iterable: Any, initial: Any = _NO_INITIAL) -> Any:
        items = runtime.bounded(iterable)
        if initial is _NO_INITIAL:
            try:
                value = next(items)
            except StopIteration:
                raise TypeError("reduce() of empty iterable with no initial value") from None
        else:
            value = initial
        for item in items:
            value = function(value, item)
        return value

    def lru_cache(maxsize: Any = 128, typed: bool = False) -> Any:
        if callable(maxsize):  # @lru_cache without parentheses
            return CachedFunction(maxsize, 128, max_nested)
        if maxsize is not None and not isinstance(maxsize, int):
            raise TypeError("Expected first argument to be an integer, a callable, or None")

        def decorate(function: Any) -> CachedFunction:
            return CachedFunction(function, maxsize if maxsize is None else max(maxsize, 0),
                                  max_nested)
        return decorate

    def cache(function: Any) -> CachedFunction:
        return CachedFunction(function, None, max_nested)

    def wraps(wrapped: Any, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        def decorate(wrapper: Any) -> Any:
            return wrapper
        return decorate

    members: dict[str, Any] = {"reduce": reduce, "partial": Partial, "lru_cache": lru_cache,
                               "cache": cache, "wraps": wraps,
                               "cmp_to_key": functools.cmp_to_key}
    for key in ("reduce", "lru_cache", "cache", "wraps"):
        members[key].__name__ = members[key].__qualname__ = key
    return Namespace(name, members)
