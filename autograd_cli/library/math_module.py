"""`math`: all of Python's math module, with the sizes of integer results checked first.

`factorial`, `comb` and `perm` can make integers far past the run's integer limit in one C call
that no time limit interrupts, so the bits of their result are estimated before the call;
`prod`, `fsum`, `dist` and `sumprod` take their items through the interpreter's counted
iteration (an endless iterator is stopped by the loop limit, not run in C forever).
"""

from __future__ import annotations

import math
from typing import Any

from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.objects import Namespace

_LOG2_E = 1 / math.log(2)


def namespace(runtime: Any, name: str) -> Namespace:
    members: dict[str, Any] = {key: getattr(math, key) for key in dir(math)
                               if not key.startswith("_")}
    max_bits = runtime.limits.max_int_bits

    def check_bits(bits: float, what: str) -> None:
        if bits > max_bits:
            raise LimitExceeded("max_int_bits", f"{what} has about {int(bits)} bits, more than "
                                f"the limit of {max_bits} bits")

    def log2_factorial(n: int) -> float:
        return math.lgamma(n + 1) * _LOG2_E if n > 1 else 0.0

    def factorial(n: Any) -> int:
        if isinstance(n, int) and n > 0:
            check_bits(log2_factorial(n), f"factorial({n})")
        return math.factorial(n)

    def perm(n: Any, k: Any = None) -> int:
        if isinstance(n, int) and n > 0 and (k is None or isinstance(k, int)):
            top = n if k is None else min(max(k, 0), n)
            check_bits(log2_factorial(n) - log2_factorial(n - top), f"perm({n}, {k})")
        return math.perm(n, k)

    def comb(n: Any, k: Any) -> int:
        if isinstance(n, int) and isinstance(k, int) and 0 <= k <= n:
            check_bits(log2_factorial(n) - log2_factorial(k) - log2_factorial(n - k) - 1,
                       f"comb({n}, {k})")
        return math.comb(n, k)

    def prod(iterable: Any, *, start: Any = 1) -> Any:
        result = start
        for item in runtime.bounded(iterable):
            result = runtime.multiply(result, item)
        return result

    def fsum(iterable: Any) -> float:
        return math.fsum(runtime.bounded_list(iterable))

    def dist(p: Any, q: Any) -> float:
        return math.dist(runtime.bounded_list(p), runtime.bounded_list(q))

    def lcm(*integers: Any) -> int:
        result = 1
        for item in integers:
            result = math.lcm(result, item)
            check_bits(result.bit_length(), "the lcm")
        return result

    members.update(factorial=factorial, perm=perm, comb=comb, prod=prod, fsum=fsum, dist=dist,
                   lcm=lcm)
    if hasattr(math, "sumprod"):  # Python 3.12
        def sumprod(p: Any, q: Any) -> Any:
            items = runtime.bounded_list(p), runtime.bounded_list(q)
            return math.sumprod(*items)  # type: ignore[attr-defined]
        members["sumprod"] = sumprod
    for key in ("factorial", "perm", "comb", "prod", "fsum", "dist", "lcm", "sumprod"):
        if key in members:
            members[key].__name__ = members[key].__qualname__ = key
    return Namespace(name, members)
