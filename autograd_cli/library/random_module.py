"""`random`: Python's own Mersenne Twister, so `random.seed(0); random.random()` gives what
CPython gives; `random.Random(seed)` makes more generators.

A program holds a `Random` facade, never the host's generator: its methods are an allow-list,
and the sizes a call would build (`choices(k=...)`, `sample`, `getrandbits`, `randbytes`) are
checked first. Each run starts from seed 0 (so an unseeded program prints the same numbers on
every run), and `random.seed()` without an argument also means seed 0: nothing is drawn from
the host's entropy.
"""

from __future__ import annotations

import random
from typing import Any

from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.memory import check_container, size_argument
from autograd_cli.language.objects import Namespace

_SEED_TYPES = (int, float, str, bytes)
_PLAIN = ("random", "uniform", "triangular", "randint", "randrange", "gauss", "normalvariate",
          "lognormvariate", "expovariate", "vonmisesvariate", "gammavariate", "betavariate",
          "paretovariate", "weibullvariate", "getstate", "setstate", "choice")


class Random:
    """One generator of Python's `random` module, as a program sees it."""

    PUBLIC_ATTRS = frozenset(_PLAIN + ("seed", "choices", "sample", "shuffle", "getrandbits",
                                       "randbytes"))
    __slots__ = ("_generator", "_runtime")

    def __init__(self, runtime: Any, x: Any = None) -> None:
        self._runtime = runtime
        self._generator = random.Random()
        self.seed(x)

    def seed(self, a: Any = None, version: int = 2) -> None:
        if a is None:
            a = 0
        if not isinstance(a, _SEED_TYPES):
            raise TypeError("The only supported seed types are: None,\nint, float, str, "
                            "bytes, and bytearray.")
        self._generator.seed(a, version)

    def _check_count(self, count: Any) -> Any:
        """A count as an int (an integer tensor too, asked once), within max_list_len."""
        count = size_argument(count)
        if isinstance(count, int):
            self._runtime.operators.check_list_length(count)
            check_container(list, max(count, 0))
        return count

    def choices(self, population: Any, weights: Any = None, *, cum_weights: Any = None,
                k: int = 1) -> list[Any]:
        k = self._check_count(k)
        population = self._runtime.bounded_list(population)
        if weights is not None:
            weights = self._runtime.bounded_list(weights)
        if cum_weights is not None:
            cum_weights = self._runtime.bounded_list(cum_weights)
        return self._generator.choices(population, weights, cum_weights=cum_weights, k=k)

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        if counts is not None:
            counts = self._runtime.bounded_list(counts)
            self._runtime.operators.check_list_length(sum(counts))
        k = self._check_count(k)
        if not isinstance(population, (list, tuple, str, range)):
            population = self._runtime.bounded_list(population)
        return self._generator.sample(population, k, counts=counts)

    def shuffle(self, x: Any) -> None:
        if not isinstance(x, list):
            raise TypeError("agraph's random.shuffle() shuffles a list")
        self._generator.shuffle(x)

    def getrandbits(self, k: int) -> int:
        k = size_argument(k)
        limit = self._runtime.limits.max_int_bits
        if isinstance(k, int) and k > limit:
            raise LimitExceeded("max_int_bits", f"getrandbits({k}) makes an integer of more "
                                f"than {limit} bits")
        return self._generator.getrandbits(k)

    def randbytes(self, n: int) -> bytes:
        n = size_argument(n)
        if isinstance(n, int):
            self._runtime.formatter.check_length(n)
        return self._generator.randbytes(n)

    def __repr__(self) -> str:
        return "<random.Random object>"


def _delegate(name: str) -> Any:
    def method(self: Random, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._generator, name)(*args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


for _name in _PLAIN:
    setattr(Random, _name, _delegate(_name))


def namespace(runtime: Any, name: str) -> Namespace:
    default = Random(runtime)

    def make_random(x: Any = None) -> Random:
        return Random(runtime, x)

    make_random.__name__ = make_random.__qualname__ = "Random"
    members = {method: getattr(default, method) for method in Random.PUBLIC_ATTRS}
    members["Random"] = make_random
    return Namespace(name, members)
