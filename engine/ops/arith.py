"""Elementwise arithmetic: + - * / ** and negation, addcmul and addcdiv."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from engine.autograd import Function, other_operands, plain_arrays
from engine.float_math import HALF29, LOW29
from engine.tensor import Tensor


class Add(Function):
    grad_fn_name = "AddBackward0"
    promotes = True
    counts_scalars = True

    def forward(self, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        self.alpha = alpha
        return a + b if alpha == 1 else a + b * alpha

    def array_backward(self, grad, inputs, output):
        return (grad, grad) if self.alpha == 1 else None

    def backward(self, grad, inputs, output):
        return grad, grad if self.alpha == 1 else grad * self.alpha


class Sub(Function):
    grad_fn_name = "SubBackward0"
    promotes = True
    counts_scalars = True

    def forward(self, a: np.ndarray, b: np.ndarray, alpha: Any = 1) -> np.ndarray:
        if a.dtype == np.bool_:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use the `^` or `logical_xor()` operator instead.")
        self.alpha = alpha
        return a - b if alpha == 1 else a - b * alpha

    def array_backward(self, grad, inputs, output):
        return (grad, -grad) if self.alpha == 1 and grad.dtype.kind == "f" else None

    def backward(self, grad, inputs, output):
        return grad, -grad if self.alpha == 1 else grad * -self.alpha


class Rsub(Function):
    """`scalar - tensor`: PyTorch records it as RsubBackward1 with the tensor as only input."""

    grad_fn_name = "RsubBackward1"
    promotes = True

    def forward(self, a: np.ndarray, scalar: np.ndarray) -> np.ndarray:
        return scalar - a

    def backward(self, grad, inputs, output):
        return (-grad, None)


class Mul(Function):
    grad_fn_name = "MulBackward0"
    saves_other_first = True
    promotes = True
    counts_scalars = True

    def saved_indices(self, needs):
        return other_operands(needs)

    def forward(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return a * b

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, *inputs)
        if arrays is None:
            return None
        g, a, b = arrays
        return (g * b if self.needs[0] else None, g * a if self.needs[1] else None)

    def backward(self, grad, inputs, output):
        a, b = inputs
        return (grad * b if self.needs[0] else None, grad * a if self.needs[1] else None)


class MulScalar(Function):
    """tensor * number inside derivative formulas (PyTorch's MulBackward1: no scalar edge)."""

    grad_fn_name = "MulBackward1"

    def forward(self, a: np.ndarray, scalar: Any) -> np.ndarray:
        self.scalar = scalar
        return a * scalar

    def backward(self, grad, inputs, output):
        return (scale(grad, self.scalar),)


def scale(tensor: Tensor, scalar: Any) -> Tensor:
    return MulScalar.apply(tensor, scalar=scalar)


class DivScalar(Function):
    """tensor / number inside composite ops (PyTorch's DivBackward1: no scalar edge)."""

    grad_fn_name = "DivBackward1"

    def forward(self, a: np.ndarray, scalar: Any) -> np.ndarray:
        self.scalar = scalar
        return a / np.asarray(scalar, dtype=a.dtype)

    def backward(self, grad, inputs, output):
        return (DivScalar.apply(grad, scalar=self.scalar),)


class Div(Function):
    grad_fn_name = "DivBackward0"
    saves_other_first = True
    promotes = True
    counts_scalars = True

    def saved_indices(self, needs: Sequence[bool]) -> tuple[int, ...]:
        return (0, 1) if needs[1] else (1,)

    def forward(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.dtype.kind in "iub":
            return np.true_divide(a, b).astype(np.float32)
        return a / b

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, *inputs)
        if arrays is None:
            return None
        g, a, b = arrays
        return (g / b if self.needs[0] else None, -g * ((a / b) / b) if self.needs[1] else None)

    def backward(self, grad, inputs, output):
        a, b = inputs
        return (grad / b if self.needs[0] else None,
                -grad * ((a / b) / b) if self.needs[1] else None)  # PyTorch's rounding order


def _check_integer_divisor(a: Any, b: Any) -> None:
    if np.result_type(a, b).kind in "iu" and np.any(np.asarray(b) == 0):
        if np.prod(np.broadcast_shapes(np.shape(a), np.shape(b))):  # not an empty result
            raise RuntimeError("ZeroDivisionError")  # integer // 0 and % 0, as in torch


def _rounded_quotient(a: Any, b: Any, rounding_mode: str) -> np.ndarray:
    _check_integer_divisor(a, b)
    if rounding_mode == "floor":
        return np.floor_divide(a, b)
    return np.trunc(a / b).astype(np.result_type(a, b))


class DivRounding(Function):
    """`torch.div(a, b, rounding_mode='floor'|'trunc')`: a step function, its derivative zero
    (PyTorch's DivBackward2)."""

    grad_fn_name = "DivBackward2"
    promotes = True
    counts_scalars = True

    def forward(self, a: np.ndarray, b: np.ndarray, rounding_mode: str = "floor"
                ) -> np.ndarray:
        return _rounded_quotient(a, b, rounding_mode)

    def backward(self, grad, inputs, output):
        return tuple(Tensor._wrap(np.zeros(grad.array.shape, grad.array.dtype)) if need else None
                     for need in self.needs)


class FloorDivide(Function):
    """`a // b`, torch.floor_divide: recorded as PyTorch's NotImplemented node."""

    grad_fn_name = "NotImplemented"
    promotes = True
    no_derivative = True  # recorded, as in PyTorch, but backward through it fails

    def forward(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return _rounded_quotient(a, b, "floor")

    def backward(self, grad, inputs, output):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


def _remainder(a: Any, b: Any) -> np.ndarray:
    """ATen's: C's fmod, then b added where the result is nonzero and its sign differs from
    b's (so -2. % 2 is -0.); integers as Python's %."""
    _check_integer_divisor(a, b)
    if np.result_type(a, b).kind in "iub":
        return np.remainder(a, b)
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((np.asarray(b) < 0) != (mod < 0)), mod + b, mod)


def _fmod(a: Any, b: Any) -> np.ndarray:
    _check_integer_divisor(a, b)
    return np.fmod(a, b)


class Remainder(Function):
    """`a % b` of two tensors: other's derivative is -floor(a / b)."""

    grad_fn_name = "RemainderBackward1"
    promotes = True
    saves: tuple[int, ...] = (0, 1)
    rounding = "floor"
    kernel = staticmethod(_remainder)

    def forward(self, a: np.ndarray, b: Any) -> np.ndarray:
        return self.kernel(a, b)

    def backward(self, grad, inputs, output):
        a, b = inputs
        other = None
        if isinstance(b, Tensor) and self.needs[1]:
            quotient = np.asarray(_rounded_quotient(a.array, b.array, self.rounding))
            other = -grad * Tensor._wrap(quotient.astype(grad.array.dtype))
        return grad if self.needs[0] else None, other


class RemainderScalar(Remainder):
    """`tensor % number` (remainder.Scalar): one edge, the gradient passes unchanged."""

    grad_fn_name = "RemainderBackward0"
    saves = ()


class Fmod(Remainder):
    """torch.fmod of two tensors: C's fmod; other's derivative is -trunc(a / b)."""

    grad_fn_name = "FmodBackward1"
    rounding = "trunc"
    kernel = staticmethod(_fmod)


class FmodScalar(Fmod):
    grad_fn_name = "FmodBackward0"
    saves = ()


class RemainderOfNumber(Function):
    """`number % tensor`: recorded as PyTorch's NotImplemented node."""

    grad_fn_name = "NotImplemented"
    promotes = True
    no_derivative = True  # recorded, as in PyTorch, but backward through it fails

    def forward(self, a: Any, b: np.ndarray) -> np.ndarray:
        return _remainder(a, b)

    def backward(self, grad, inputs, output):
        raise RuntimeError("derivative for aten::remainder is not implemented")


class Addcmul(Function):
    """input + value * tensor1 * tensor2, as PyTorch's kernel computes it."""

    grad_fn_name = "AddcmulBackward0"
    promotes = True
    saves = (1, 2)

    def forward(self, a: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: Any = 1
                ) -> np.ndarray:
        self.value = value
        return a + value * t1 * t2

    def backward(self, grad, inputs, output):
        _, t1, t2 = inputs
        return (grad, grad * (t2 * self.value) if self.needs[1] else None,
                grad * (t1 * self.value) if self.needs[2] else None)


class Addcdiv(Function):
    """input + value * tensor1 / tensor2, as PyTorch's kernel computes it."""

    grad_fn_name = "AddcdivBackward0"
    promotes = True
    saves = (1, 2)

    def forward(self, a: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: Any = 1
                ) -> np.ndarray:
        self.value = value
        return a + value * t1 / t2

    def backward(self, grad, inputs, output):
        _, t1, t2 = inputs
        return (grad, grad * (self.value / t2) if self.needs[1] else None,
                -grad * self.value * t1 / (t2 * t2) if self.needs[2] else None)


class Reciprocal(Function):
    grad_fn_name = "ReciprocalBackward0"
    saves_output = True

    def forward(self, a: np.ndarray) -> np.ndarray:
        return 1 / (a if a.dtype.kind == "f" else a.astype(np.float32))

    def backward(self, grad, inputs, output):
        return (-grad * (output * output),)


class Neg(Function):
    grad_fn_name = "NegBackward0"

    def forward(self, a: np.ndarray) -> np.ndarray:
        if a.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                               "If you are trying to invert a mask, use the `~` or "
                               "`logical_not()` operator instead.")
        return -a

    def array_backward(self, grad, inputs, output):
        return (-grad,)

    def backward(self, grad, inputs, output):
        return (-grad,)


class PowScalar(Function):
    """`tensor ** number`."""

    grad_fn_name = "PowBackward0"
    saves = (0,)

    def forward(self, a: np.ndarray, exponent: Any) -> np.ndarray:
        self.exponent = exponent
        if a.dtype.kind in "iu" and isinstance(exponent, int) and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        if a.dtype.kind in "iub" and isinstance(exponent, float):
            a = a.astype(np.float32)
        if a.dtype.kind == "f":
            return _float_power(a, exponent)
        return np.power(a, np.asarray(exponent, dtype=a.dtype))

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, *inputs) if self.exponent != 0 else None
        if arrays is None:
            return None
        g, base = arrays
        power = base if self.exponent == 2 else _float_power(base, self.exponent - 1)
        return (g * (power * self.exponent),)  # (x ** 1 is x's copy)

    def backward(self, grad, inputs, output):
        (a,) = inputs
        if self.exponent == 0:
            return (Tensor._wrap(np.zeros(a.shape_tuple, dtype=a.array.dtype)),)
        return (grad * scale(a ** (self.exponent - 1), self.exponent),)


def _float_power(a: np.ndarray, exponent: Any) -> np.ndarray:
    """PyTorch's float pow kernel: x*x, x*x*x, 1/(x*x), sqrt, 1/sqrt and 1/x are computed as
    such; other exponents by a ~correctly rounded pow (here in float64, rounded once)."""
    if exponent == 1:
        return a.copy()
    if exponent == 2:
        return a * a
    if exponent == 3:
        return a * a * a
    if exponent == -2:
        return a.dtype.type(1) / (a * a)
    if exponent == 0.5:
        return np.sqrt(a)
    if exponent == -0.5:
        return a.dtype.type(1) / np.sqrt(a)
    if exponent == -1:
        return a.dtype.type(1) / a
    if a.dtype == np.float32:
        if exponent in (4, 5, 6) and a.ndim:  # (a 0-d array gains nothing)
            return _small_power(a, exponent)
        return np.power(a.astype(np.float64), float(exponent)).astype(np.float32)
    return np.power(a, np.asarray(exponent, dtype=a.dtype))


def _small_power(a: np.ndarray, exponent: int) -> np.ndarray:
    """float32 `a ** exponent` for 4, 5 and 6, the float32 that numpy's float64 pow rounds to
    (what `_float_power` gives for other exponents), from float64 products: several times
    faster than pow. A float32's square is exact in float64, so the product is within about
    one float64 ulp of the true power, and numpy's pow is within a few: both round to the
    same float32 unless a float32 rounding midpoint lies within 2**13 float64 ulps of the
    product (about 1 element in 30,000), or the power is not a normal float32 (zero, tiny,
    huge, inf, NaN). Those elements take numpy's pow itself."""
    wide = a.astype(np.float64)
    square = wide * wide
    power = square * square
    if exponent == 5:
        power *= wide
    elif exponent == 6:
        power *= square
    bits = power.view(np.uint64)
    # below the float32 midpoint's low bits by up to the margin, or above it: wraps past 2 * it
    near_midpoint = (bits & LOW29) - _NEAR_MIDPOINT <= _TWICE_MARGIN
    outside_normal = ((bits >> _SHIFT52) & _EXPONENT11) - _FLOAT32_LOWEST_EXPONENT > _FLOAT32_SPAN
    unsafe = near_midpoint | outside_normal
    result = power.astype(np.float32)
    if unsafe.any():
        result[unsafe] = np.power(wide[unsafe], float(exponent)).astype(np.float32)
    return result


# Near a float32 midpoint (float_math.HALF29) by a margin, and float32's normal range, as
# float64 fields.
_MARGIN = 1 << 13  # float64 ulps
_NEAR_MIDPOINT = HALF29 - np.uint64(_MARGIN)
_TWICE_MARGIN = np.uint64(2 * _MARGIN)
_SHIFT52, _EXPONENT11 = np.uint64(52), np.uint64(0x7FF)
_FLOAT32_LOWEST_EXPONENT = np.uint64(1023 - 126)  # biased float64 exponent of 2**-126
_FLOAT32_SPAN = np.uint64(126 + 127)  # up to the exponent of 2**127


class PowTensor(Function):
    """`tensor ** tensor`."""

    grad_fn_name = "PowBackward1"
    promotes = True
    saves = (0, 1)
    saves_output = True

    def forward(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.dtype == np.float32 == b.dtype:  # C's powf per element, nearly always correctly
            # rounded: numpy's float32 loop is often 1 ulp off. (PyTorch's vector kernel, SLEEF's
            # powf, takes runs of 32 contiguous elements instead; not reproduced.)
            return np.power(a.astype(np.float64), b).astype(np.float32)  # type: ignore
        return np.power(a, b)

    def backward(self, grad, inputs, output):
        from engine.ops.pointwise import Log, where  # pointwise imports this module

        a, b = inputs
        grad_a = None
        if self.needs[0]:  # PyTorch takes it as 0 where the exponent is 0 (even for a == 0)
            grad_a = where(b.array == 0, 0.0, grad * (b * a ** (b - 1)))
        grad_b = None
        if self.needs[1]:
            # d(a**b)/db = a**b * log(a); PyTorch takes it as 0 where a == 0 and b >= 0.
            zero = np.logical_and(a.array == 0, b.array >= 0)
            grad_b = grad * where(zero, 0.0, output * Log.apply(a))
        return grad_a, grad_b


class RPow(Function):
    """`number ** tensor`."""

    grad_fn_name = "PowBackward2"
    saves_output = True

    def forward(self, exponent: np.ndarray, base: Any) -> np.ndarray:
        self.base = base
        if exponent.dtype.kind in "iub" and isinstance(base, float):
            exponent = exponent.astype(np.float32)
        return np.power(np.asarray(base, dtype=exponent.dtype), exponent)

    def backward(self, grad, inputs, output):
        if self.base == 0:
            return (grad * 0,)
        return (grad * scale(output, float(np.log(self.base))),)


def as_tensor_operand(value: Any) -> Any:
    """Python numbers stay numbers (PyTorch's wrapped scalars); anything else must be a tensor."""
    if isinstance(value, (Tensor, bool, int, float)):
        return value
    raise TypeError(f"unsupported operand type(s): 'Tensor' and '{type(value).__name__}'")
