"""Elementwise functions of one tensor: exp/log, trigonometry and friends, activations,
clamp, abs/sign, the roundings, atan2/hypot/lerp."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

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


clip = public(clamp, name="clip", method=True)


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


arctan2 = public(atan2, name="arctan2", method=True)


@public(method=True)
def hypot(a: Tensor, other: Any) -> Tensor:
    return pointwise.Hypot.apply(expect_tensor(a, "hypot"),
                                 expect_tensor(other, "hypot", "other", 2))


@public(method=True, inplace=True)
def lerp(a: Tensor, end: Tensor, weight: Any) -> Tensor:
    if isinstance(weight, Tensor):
        return pointwise.LerpTensor.apply(a, end, weight)
    return pointwise.Lerp.apply(a, end, weight=weight)


def _unary(name: str, op: Any) -> Callable[[Tensor], Tensor]:
    """`torch.NAME(t)`: the op of one tensor, after PyTorch's check that t is a Tensor."""

    def function(a: Tensor) -> Tensor:
        return op.apply(expect_tensor(a, name))

    function.__name__ = function.__qualname__ = name
    return function


# the functions of one tensor and nothing else: torch name -> (its op, whether the Tensor
# method has an in-place form `t.NAME_()`); each is torch.NAME and the method t.NAME()
UNARY: dict[str, tuple[Any, bool]] = {
    "exp": (pointwise.Exp, True),
    "log": (pointwise.Log, False),
    "sqrt": (pointwise.Sqrt, True),
    "rsqrt": (pointwise.Rsqrt, False),
    "sin": (pointwise.Sin, False),
    "cos": (pointwise.Cos, False),
    "tanh": (pointwise.Tanh, True),
    "sigmoid": (pointwise.Sigmoid, True),
    "relu": (pointwise.Relu, True),
    "abs": (pointwise.Abs, True),
    "sign": (pointwise.Sign, False),
    "log1p": (pointwise.Log1p, True),
    "expm1": (pointwise.Expm1, True),
    "floor": (pointwise.Floor, True),
    "ceil": (pointwise.Ceil, True),
    "trunc": (pointwise.Trunc, True),
    "tan": (pointwise.Tan, True),
    "atan": (pointwise.Atan, True),
    "asin": (pointwise.Asin, False),
    "acos": (pointwise.Acos, False),
    "sinh": (pointwise.Sinh, True),
    "cosh": (pointwise.Cosh, True),
    "erf": (special.Erf, True),
    "exp2": (pointwise.Exp2, False),
    "log2": (pointwise.Log2, False),
    "log10": (pointwise.Log10, False),
    "frac": (pointwise.Frac, True),
    "sgn": (pointwise.Sgn, False),
    "asinh": (pointwise.Asinh, True),
    "acosh": (pointwise.Acosh, True),
    "atanh": (pointwise.Atanh, True),
    "erfinv": (special.Erfinv, True),
    "lgamma": (special.Lgamma, True),
    "digamma": (special.Digamma, True),
}
for _name, (_op, _inplace) in UNARY.items():
    public(_unary(_name, _op), method=True, inplace=_inplace)


@public
def polygamma(n: int, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's keywords
    """torch.polygamma(n, x): digamma for n = 0, its n-th derivative above."""
    return special.polygamma(n, expect_tensor(input, "polygamma"))
