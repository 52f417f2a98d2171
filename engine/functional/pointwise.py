"""Elementwise functions of one tensor: exp/log, trigonometry and friends, activations,
clamp, abs/sign, the roundings, atan2/hypot/lerp, deg2rad/rad2deg, nan_to_num."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

from engine.functional.arith import neg
from engine.operands import expect_tensor
from engine.ops import pointwise, special
from engine.registry import public
from engine.tensor import Tensor

# --- pointwise ----------------------------------------------------------------------------------


@public(method=True, inplace=True)
def clamp(a: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    """PyTorch's two overloads: any python-number bound picks the Scalar one (ClampBackward1,
    0-dim tensor bounds read as numbers); tensor bounds only pick the Tensor one."""
    a = expect_tensor(a, "clamp")
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    bounds = [bound for bound in (min, max) if bound is not None]
    if builtins.all(isinstance(bound, Tensor) for bound in bounds):
        return pointwise.ClampTensor.apply(a, min, max)
    if builtins.any(isinstance(bound, Tensor) and bound.ndim for bound in bounds):
        raise TypeError("clamp() received an invalid combination of arguments - got (Tensor, "
                        "Tensor, number), but expected one of: (Tensor input, Tensor min, "
                        "Tensor max) or (Tensor input, Number min, Number max)")
    low = min.item() if isinstance(min, Tensor) else min
    high = max.item() if isinstance(max, Tensor) else max
    return pointwise.Clamp.apply(a, low=low, high=high)




@public(method=True, inplace=True)
def clamp_min(a: Tensor, min: Any) -> Tensor:  # noqa: A002
    return pointwise.ClampMin.apply(a, low=min)


@public(method=True, inplace=True)
def clamp_max(a: Tensor, max: Any) -> Tensor:  # noqa: A002
    return pointwise.ClampMax.apply(a, high=max)


@public(method=True, inplace=True)
def round(a: Tensor, decimals: int = 0) -> Tensor:  # noqa: A001 - torch.round
    if decimals:
        return pointwise.RoundDecimals.apply(a, decimals=decimals)
    return pointwise.Round.apply(a)


# --- elementwise -------------------------------------------------------------------------------


@public(method=True)
def atan2(a: Tensor, other: Any) -> Tensor:
    return pointwise.Atan2.apply(expect_tensor(a, "atan2"),
                                 expect_tensor(other, "atan2", "other", 2))




@public(method=True)
def hypot(a: Tensor, other: Any) -> Tensor:
    return pointwise.Hypot.apply(expect_tensor(a, "hypot"),
                                 expect_tensor(other, "hypot", "other", 2))


@public(method=True, inplace=True)
def lerp(a: Tensor, end: Tensor, weight: Any) -> Tensor:
    if isinstance(weight, Tensor):
        return pointwise.LerpTensor.apply(a, end, weight)
    return pointwise.Lerp.apply(a, end, weight=weight)


@public(method=True)
def heaviside(a: Tensor, values: Tensor) -> Tensor:
    return pointwise.Heaviside.apply(expect_tensor(a, "heaviside"),
                                     expect_tensor(values, "heaviside"))


def _unary(name: str, op: Any) -> Callable[[Tensor], Tensor]:
    """`torch.NAME(t)`: the op of one tensor, after PyTorch's check that t is a Tensor."""

    def function(a: Tensor) -> Tensor:
        return op.apply(expect_tensor(a, name))

    function.__name__ = function.__qualname__ = name
    return function


# the functions of one tensor and nothing else: torch name -> its op; each is torch.NAME, the
# method t.NAME() and the in-place method t.NAME_()
UNARY: dict[str, Any] = {
    "exp": pointwise.Exp,
    "log": pointwise.Log,
    "sqrt": pointwise.Sqrt,
    "rsqrt": pointwise.Rsqrt,
    "sin": pointwise.Sin,
    "cos": pointwise.Cos,
    "tanh": pointwise.Tanh,
    "sigmoid": pointwise.Sigmoid,
    "relu": pointwise.Relu,
    "abs": pointwise.Abs,
    "sign": pointwise.Sign,
    "log1p": pointwise.Log1p,
    "expm1": pointwise.Expm1,
    "floor": pointwise.Floor,
    "ceil": pointwise.Ceil,
    "trunc": pointwise.Trunc,
    "tan": pointwise.Tan,
    "atan": pointwise.Atan,
    "asin": pointwise.Asin,
    "acos": pointwise.Acos,
    "sinh": pointwise.Sinh,
    "cosh": pointwise.Cosh,
    "erf": special.Erf,
    "exp2": pointwise.Exp2,
    "log2": pointwise.Log2,
    "log10": pointwise.Log10,
    "frac": pointwise.Frac,
    "sgn": pointwise.Sgn,
    "asinh": pointwise.Asinh,
    "acosh": pointwise.Acosh,
    "atanh": pointwise.Atanh,
    "erfinv": special.Erfinv,
    "lgamma": special.Lgamma,
    "digamma": special.Digamma,
    "deg2rad": pointwise.Deg2Rad,
    "rad2deg": pointwise.Rad2Deg,
}
@public(method=True, inplace=True)
def nan_to_num(a: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    return pointwise.NanToNum.apply(expect_tensor(a, "nan_to_num"), nan=nan, posinf=posinf,
                                    neginf=neginf)


UNARY_FUNCTIONS = [public(_unary(name, op), method=True, inplace=True)
                   for name, op in UNARY.items()]


@public
def polygamma(n: int, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's keywords
    """torch.polygamma(n, x): digamma for n = 0, its n-th derivative above."""
    return special.polygamma(n, expect_tensor(input, "polygamma"))


def _inplace(function: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """`torch.NAME_(t, ...)`: t.NAME_(...), the result written into t."""
    name = f"{function.__name__}_"

    def inplace(a: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return expect_tensor(a, name).assign_inplace(function(a, *args, **kwargs))

    inplace.__name__ = inplace.__qualname__ = name
    return inplace


# the in-place forms that are torch functions too (torch.sin_(t)): all of the above but sign,
# sgn and the special functions PyTorch keeps as methods only, and neg, clamp and round
for _function in [*UNARY_FUNCTIONS, neg, clamp, clamp_min, clamp_max, round]:
    if _function.__name__ not in ("sign", "sgn", "erfinv", "lgamma", "digamma"):
        public(_inplace(_function))
