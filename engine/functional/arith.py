"""Arithmetic: + - * / // % ** and negation as torch functions (`torch.add`, `t.mul_`)."""

from __future__ import annotations

from typing import Any

from engine.operands import expect_tensor
from engine.ops import arith
from engine.registry import public
from engine.tensor import Tensor

# --- arithmetic ---------------------------------------------------------------------------------

@public(method=True, inplace=True)
def add(a: Any, b: Any, alpha: Any = 1) -> Tensor:
    if not isinstance(a, Tensor):
        a, b = b, a
    return arith.Add.apply(a, b) if alpha == 1 else arith.Add.apply(a, b, alpha=alpha)


@public(method=True, inplace=True)
def sub(a: Any, b: Any, alpha: Any = 1) -> Tensor:
    if not isinstance(a, Tensor):
        return rsub(b, a)
    return arith.Sub.apply(a, b, alpha=alpha)


@public
def rsub(a: Tensor, b: Any) -> Tensor:
    """`b - a` where b is a python number (a tensor b is an ordinary subtraction)."""
    if isinstance(b, Tensor):
        return arith.Sub.apply(b, a)
    return arith.Rsub.apply(a, arith.as_tensor_operand(b))


@public(method=True, inplace=True)
def mul(a: Any, b: Any) -> Tensor:
    if not isinstance(a, Tensor):
        a, b = b, a
    return arith.Mul.apply(a, b)




@public(method=True, inplace=True)
def div(a: Any, b: Any, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode is not None:
        if rounding_mode not in ("floor", "trunc"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or "
                               f"'floor' but found '{rounding_mode}'")
        return arith.DivRounding.apply(a, arith.as_tensor_operand(b),
                                       rounding_mode=rounding_mode)
    if not isinstance(a, Tensor):
        return rdiv(b, a)
    return arith.Div.apply(a, b)




@public(torch=False)
def rdiv(a: Tensor, b: Any) -> Tensor:
    """`b / a` for a python number b: PyTorch computes reciprocal(a) * b."""
    if isinstance(b, Tensor):
        return div(b, a)
    return mul(reciprocal(a), arith.as_tensor_operand(b))


@public(method=True)
def floor_divide(a: Any, b: Any) -> Tensor:
    return arith.FloorDivide.apply(a, arith.as_tensor_operand(b))


@public(method=True, inplace=True)
def remainder(a: Any, b: Any) -> Tensor:
    if not isinstance(a, Tensor):
        return arith.RemainderOfNumber.apply(a, b)
    if isinstance(b, Tensor):
        return arith.Remainder.apply(a, b)
    return arith.RemainderScalar.apply(a, arith.as_tensor_operand(b))


@public(method=True, inplace=True)
def fmod(a: Tensor, b: Any) -> Tensor:
    a = expect_tensor(a, "fmod")
    if isinstance(b, Tensor):
        return arith.Fmod.apply(a, b)
    return arith.FmodScalar.apply(a, arith.as_tensor_operand(b))


@public(method=True)
def reciprocal(a: Tensor) -> Tensor:
    return arith.Reciprocal.apply(a)


@public(method=True, inplace=True)
def neg(a: Tensor) -> Tensor:
    return arith.Neg.apply(expect_tensor(a, "neg"))




@public(method=True, inplace=True)
def pow(a: Any, exponent: Any) -> Tensor:  # noqa: A001 - torch.pow
    if not isinstance(a, Tensor):
        return rpow(exponent, a)
    if isinstance(exponent, Tensor):
        return arith.PowTensor.apply(a, exponent)
    return arith.PowScalar.apply(a, exponent=arith.as_tensor_operand(exponent))


@public(method=True, inplace=True)
def float_power(a: Any, exponent: Any) -> Tensor:
    """torch.float_power: pow computed in double (each tensor operand cast to float64)."""
    def double(x: Any) -> Any:
        return x.double() if isinstance(x, Tensor) else float(x)

    if not isinstance(a, Tensor):
        return pow(float(a), double(exponent))
    return pow(double(a), double(exponent))


@public(torch=False)
def rpow(a: Tensor, base: Any) -> Tensor:
    """`base ** a` for a python number base."""
    return arith.RPow.apply(a, arith.as_tensor_operand(base))


@public(method=True)
def square(a: Tensor) -> Tensor:
    return pow(a, 2)


@public(method=True, inplace=True)
def addcmul(a: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    return arith.Addcmul.apply(expect_tensor(a, "addcmul"), tensor1, tensor2, value=value)


@public(method=True, inplace=True)
def addcdiv(a: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    if not (tensor1.dtype.is_floating_point or tensor2.dtype.is_floating_point):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))."
            "to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes.")
    return arith.Addcdiv.apply(expect_tensor(a, "addcdiv"), tensor1, tensor2, value=value)
