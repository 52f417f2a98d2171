"""`numpy.random`: numpy's own generators, so seeded programs draw numpy's numbers.

The module-level functions (`np.random.seed`, `rand`, `randn`, `normal`, ...) are those of one
legacy `RandomState` per run, as numpy's module functions are of its global one; each run
starts from seed 0 (numpy would take host entropy: agraph's runs print the same bytes every
time). `default_rng(seed)` gives a `Generator` facade over numpy's PCG64 Generator. The size
of every draw is checked before numpy allocates it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from autograd_cli.language.objects import Namespace
from engine.ndarray import check_result, unwrap, unwrap_all, wrap

# name -> the position of its `size` argument when passed positionally (None: not positional)
LEGACY: dict[str, int | None] = {
    "random": 0, "random_sample": 0, "uniform": 2, "normal": 2,
    "standard_normal": 0, "randint": 2, "binomial": 2, "poisson": 1, "exponential": 1,
    "beta": 2, "gamma": 2, "laplace": 2, "logistic": 2, "lognormal": 2, "multinomial": 2,
    "geometric": 1, "chisquare": 1, "standard_t": 1, "standard_cauchy": 0,
    "standard_exponential": 0, "triangular": 3, "choice": 1, "permutation": None,
    "shuffle": None, "bytes": None,
}
GENERATOR: dict[str, int | None] = {
    "random": 0, "uniform": 2, "normal": 2, "standard_normal": 0, "integers": 2,
    "binomial": 2, "poisson": 1, "exponential": 1, "beta": 2, "gamma": 2, "laplace": 2,
    "logistic": 2, "lognormal": 2, "multinomial": 2, "geometric": 1, "chisquare": 1,
    "standard_t": 1, "standard_cauchy": 0, "standard_exponential": 0, "triangular": 3,
    "choice": 1, "permutation": None, "shuffle": None, "permuted": None,
    "multivariate_normal": 2,
}


def _size_checked(method: Callable[..., Any], name: str, position: int | None
                  ) -> Callable[..., Any]:
    def draw(*args: Any, **kwargs: Any) -> Any:
        args, kwargs = unwrap_all(args, kwargs)
        size = kwargs.get("size", args[position] if position is not None and len(args) >
                          position else None)
        if size is not None:  # `choice(["a" * 10**7], 60)`: items as big as the array's
            shape = tuple(size) if isinstance(size, (tuple, list)) else (size,)
            check_result(tuple(int(n) for n in shape), max([16, *(
                np.asarray(arg).itemsize for arg in args[:1] if isinstance(arg, (
                    np.ndarray, list, tuple)))]))
        if name == "bytes" and args:
            check_result((int(args[0]),), 1)
        if name in ("shuffle", "permuted") and args and not isinstance(args[0], np.ndarray):
            raise TypeError("agraph's numpy shuffles arrays; use random.shuffle for a list")
        if name == "permutation" and args and isinstance(args[0], int):
            check_result((args[0],), 8)
        replace = kwargs.get("replace", args[2] if len(args) > 2 else True)
        if name == "choice" and args and isinstance(args[0], (int, np.integer)) and not replace:
            check_result((int(args[0]),), 8)  # without replacement numpy permutes all of range(a)
        return wrap(method(*args, **kwargs))

    draw.__name__ = draw.__qualname__ = name
    return draw


def _legacy_dims(method: Callable[..., Any], name: str) -> Callable[..., Any]:
    """`rand(d0, d1, ...)` and `randn(d0, d1, ...)`: the shape as separate arguments."""
    def draw(*dims: Any) -> Any:
        shape = tuple(int(unwrap(d)) for d in dims)
        check_result(shape, 8)
        return wrap(method(*shape))

    draw.__name__ = draw.__qualname__ = name
    return draw


class Generator:
    """`np.random.default_rng(seed)`: numpy's Generator, through an allow-list."""

    PUBLIC_ATTRS = frozenset(GENERATOR)
    __slots__ = ("_generator",)

    def __init__(self, seed: Any = None) -> None:
        self._generator = np.random.default_rng(0 if seed is None else unwrap(seed))

    def __repr__(self) -> str:
        return "Generator(PCG64)"

    def __getattr__(self, name: str) -> Any:
        position = GENERATOR.get(name, -1)
        if position == -1:
            raise AttributeError(name)
        return _size_checked(getattr(self._generator, name), name, position)


class RandomState:
    """`np.random.RandomState(seed)`: numpy's legacy generator, through an allow-list."""

    PUBLIC_ATTRS = frozenset(LEGACY) | {"rand", "randn", "seed", "get_state"}
    __slots__ = ("_state",)

    def __init__(self, seed: Any = None) -> None:
        self._state = np.random.RandomState(0 if seed is None else unwrap(seed))

    def __repr__(self) -> str:
        return "RandomState(MT19937)"

    def __getattr__(self, name: str) -> Any:
        if name in ("rand", "randn"):
            return _legacy_dims(getattr(self._state, name), name)
        if name == "seed":
            return self.seed
        position = LEGACY.get(name, -1)
        if position == -1:
            raise AttributeError(name)
        return _size_checked(getattr(self._state, name), name, position)

    def seed(self, seed: Any = None) -> None:
        self._state.seed(0 if seed is None else unwrap(seed))


def namespace(runtime: Any) -> Namespace:
    state = RandomState()
    members: dict[str, Any] = {name: getattr(state, name) for name in RandomState.PUBLIC_ATTRS
                               if name != "get_state"}
    members.update(default_rng=Generator, RandomState=RandomState, Generator=Generator)
    return Namespace("numpy.random", members)
