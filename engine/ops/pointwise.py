"""Elementwise functions: exp/log and their bases, trigonometry and the hyperbolic functions,
erf, activations, clamp, abs, frac, atan2, hypot and lerp."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import budget, dtypes, float_math
from engine.autograd import Function, plain_arrays
from engine.float_math import fma64, in_blocks
from engine.operands import first_broadcast_error
from engine.ops import mkl, numerics
from engine.ops.arith import scale
from engine.tensor import Tensor


def float_input(a: np.ndarray) -> np.ndarray:
    """Integer inputs to float functions compute in the default float dtype, as in PyTorch."""
    return a if a.dtype.kind == "f" else a.astype(dtypes.default_float().np)


def rounded_in_float64(function: Any, a: np.ndarray) -> np.ndarray:
    """A transcendental function of float32 values computed in float64 and rounded once.

    PyTorch's CPU kernels (SLEEF, 1-ulp) are nearly always correctly rounded; numpy's float32
    loops are often 1 ulp off, enough to print `1.0000` where PyTorch prints `1.`.
    """
    a = float_input(a)
    if a.dtype == np.float32:
        return in_blocks(lambda part: function(part.astype(np.float64)).astype(np.float32), a)  # type: ignore[no-any-return]
    return in_blocks(function, a)  # type: ignore[no-any-return]


def vector_math(name: str, function: Any, a: np.ndarray) -> np.ndarray:
    """torch.<name> of a float tensor: MKL's vector function, as PyTorch's CPU kernel calls it
    (engine/ops/mkl.py); without MKL, `function` computed in float64 and rounded once."""
    a = float_input(a)
    out = mkl.vml(name, a)
    return rounded_in_float64(function, a) if out is None else out


class Exp(Function):
    grad_fn_name = "ExpBackward0"
    saves_output = True

    def forward(self, a):
        return vector_math("exp", np.exp, a)

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, output)
        return None if arrays is None else (arrays[0] * arrays[1],)

    def backward(self, grad, inputs, output):
        return (grad * output,)


class Log(Function):
    grad_fn_name = "LogBackward0"
    saves = (0,)

    def forward(self, a):
        return vector_math("log", np.log, a)

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, *inputs)
        return None if arrays is None else (arrays[0] / arrays[1],)

    def backward(self, grad, inputs, output):
        return (grad / inputs[0],)


class Sqrt(Function):
    grad_fn_name = "SqrtBackward0"
    saves_output = True

    def forward(self, a):
        return vector_math("sqrt", np.sqrt, a)

    def backward(self, grad, inputs, output):
        return (grad / scale(output, 2),)


class Sin(Function):
    grad_fn_name = "SinBackward0"
    saves = (0,)

    def forward(self, a):
        return vector_math("sin", np.sin, a)

    def backward(self, grad, inputs, output):
        return (grad * inputs[0].cos(),)


class Cos(Function):
    grad_fn_name = "CosBackward0"
    saves = (0,)

    def forward(self, a):
        return vector_math("cos", np.cos, a)

    def backward(self, grad, inputs, output):
        return (grad * -inputs[0].sin(),)


class Tanh(Function):
    grad_fn_name = "TanhBackward0"
    saves_output = True

    def forward(self, a):
        return vector_math("tanh", np.tanh, a)

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, output)
        return None if arrays is None else (_tanh_backward(*arrays),)

    def backward(self, grad, inputs, output):
        return (TanhBackward.apply(grad, output),)


def _tanh_backward(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    """grad * (1 - y^2): PyTorch's kernel is compiled with 1 - y*y fused (one rounding)."""
    if y.dtype == np.float32:
        return grad * (1 - y.astype(np.float64) ** 2).astype(np.float32)
    if y.dtype == np.float64:
        return grad * fma64(-y, y, 1.0)
    return grad * (1 - y * y)


class TanhBackward(Function):
    """tanh's derivative as its own op (PyTorch's tanh_backward): grad * (1 - y^2)."""

    grad_fn_name = "TanhBackwardBackward0"
    saves = (0, 1)

    def forward(self, grad, y):
        return _tanh_backward(grad, y)

    def backward(self, gg, inputs, output):
        grad, y = inputs
        return gg * (1 - y * y), gg * grad * scale(y, -2)


class Sigmoid(Function):
    grad_fn_name = "SigmoidBackward0"
    saves_output = True

    def forward(self, a):
        # PyTorch's kernel: 1 / (1 + exp(-a)) in the tensor's dtype, so sigmoid(-100) is
        # exactly 0 in float32 (exp overflows to inf) rather than a denormal
        return numerics.sigmoid(float_input(a))

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, output)
        return None if arrays is None else (_sigmoid_backward(*arrays),)

    def backward(self, grad, inputs, output):
        return (SigmoidBackward.apply(grad, output),)


class SigmoidBackward(Function):
    """sigmoid's derivative as its own op (PyTorch's sigmoid_backward): grad * y * (1 - y)."""

    grad_fn_name = "SigmoidBackwardBackward0"
    saves = (0, 1)

    def forward(self, grad, y):
        return _sigmoid_backward(grad, y)

    def backward(self, gg, inputs, output):
        grad, y = inputs
        return gg * y * (1 - y), gg * grad * (1 - scale(y, 2))


def _sigmoid_backward(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    return grad * (1 - y) * y  # PyTorch's order of roundings


class Relu(Function):
    grad_fn_name = "ReluBackward0"
    saves_output = True

    def forward(self, a):
        zero = float_math.ZEROS.get(a.dtype)
        if zero is not None:  # ATen's max(x, 0): NaN and -0 stay, negatives become +0
            return np.where(a < 0, zero, a)
        return float_math.maximum(a, np.zeros((), dtype=a.dtype))

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, output)
        return None if arrays is None else (_threshold_backward(*arrays),)

    def backward(self, grad, inputs, output):
        return (ThresholdBackward.apply(grad, output),)


def _threshold_backward(grad: np.ndarray, y: np.ndarray) -> np.ndarray:
    zero = float_math.ZEROS.get(grad.dtype)
    return np.where(y > 0, grad, np.zeros((), dtype=grad.dtype) if zero is None else zero)


class ThresholdBackward(Function):
    """relu's derivative as its own op (PyTorch's threshold_backward): grad where y > 0."""

    grad_fn_name = "ThresholdBackwardBackward0"
    saves = (1,)

    def forward(self, grad, y):
        return _threshold_backward(grad, y)

    def backward(self, gg, inputs, output):
        y = inputs[1]
        return where(y.array > 0, gg, 0.0), _zeros_like(y)


class Abs(Function):
    grad_fn_name = "AbsBackward0"
    saves = (0,)

    def forward(self, a):
        return np.abs(a)

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, inputs[0])
        return None if arrays is None else (arrays[0] * np.sign(arrays[1]),)  # sgn's kernel

    def backward(self, grad, inputs, output):
        return (grad * Sgn.apply(inputs[0]),)


class Sign(Function):
    """sign(x): its derivative is zero everywhere it exists."""

    grad_fn_name = "SignBackward0"

    def forward(self, a):
        return np.sign(a)

    def backward(self, grad, inputs, output):
        return (_zeros_like(grad),)


class Sgn(Sign):
    grad_fn_name = "SgnBackward0"


def _zeros_like(tensor):
    return Tensor._wrap(np.zeros(tensor.array.shape, dtype=tensor.array.dtype))


class Rsqrt(Function):
    grad_fn_name = "RsqrtBackward0"
    saves_output = True

    def forward(self, a):
        return 1 / np.sqrt(float_input(a))

    def backward(self, grad, inputs, output):
        return (scale(grad, -0.5) * (output * output * output),)


class Clamp(Function):
    """clamp with number bounds; the gradient passes where min <= x <= max (ends included)."""

    grad_fn_name = "ClampBackward1"
    saves = (0,)

    def forward(self, a, low: Any = None, high: Any = None):
        if low is None and high is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        self.low, self.high = low, high
        if a.dtype.kind in "biu" and any(isinstance(bound, float) for bound in (low, high)):
            a = float_input(a)  # a float bound promotes an integer tensor, as in PyTorch
        out = a
        if low is not None:
            out = float_math.maximum(out, np.asarray(low, dtype=a.dtype))
        if high is not None:
            out = float_math.minimum(out, np.asarray(high, dtype=a.dtype))
        return out

    def backward(self, grad, inputs, output):
        (a,) = inputs
        inside = np.ones(a.shape_tuple, dtype=bool)
        if self.low is not None:
            inside &= a.array >= self.low
        if self.high is not None:
            inside &= a.array <= self.high
        return (where(inside, grad, 0.0),)


class ClampTensor(Function):
    """clamp with tensor bounds: min(max(x, low), high); the bounds get gradients too."""

    grad_fn_name = "ClampBackward0"
    saves = (0, 1, 2)
    counts_scalars = True  # an absent bound is listed as (None, 0)
    promotes = True

    def forward(self, a, low, high):
        self.has = (low is not None, high is not None)
        out = a
        if low is not None:
            out = float_math.maximum(out, low)
        if high is not None:
            out = float_math.minimum(out, high)
        return out

    def backward(self, grad, inputs, output):
        a, low, high = (x.array if x is not None else None for x in inputs)
        inside = np.ones(a.shape, dtype=bool)
        if low is not None:
            inside = inside & (a >= low)
        if high is not None:
            inside = inside & (a <= high)
        grad_low = grad_high = None
        if low is not None and self.needs[1]:
            below = a < low if high is None else (a < low) & (low < high)
            grad_low = where(below, grad, 0.0)
        if high is not None and self.needs[2]:
            above = a > high if low is None else (a > high) | (high < low)
            grad_high = where(above, grad, 0.0)
        return where(inside, grad, 0.0), grad_low, grad_high


class Where(Function):
    """where(condition, a, b); the condition is not differentiable and not an edge."""

    grad_fn_name = "WhereBackward0"
    promotes = True
    counts_scalars = True
    saves_state = True  # PyTorch saves the condition
    released_state = ("condition",)

    def forward(self, a, b, condition):
        self.condition = condition
        return np.where(condition, a, b)

    def backward(self, grad, inputs, output):
        zero = 0.0
        return (where(self.condition, grad, zero) if self.needs[0] else None,
                where(self.condition, zero, grad) if self.needs[1] else None)


def where(condition, a, b):
    """torch.where on a boolean numpy array or tensor condition."""
    mask = condition.array if isinstance(condition, Tensor) else np.asarray(condition)
    shape = mask.shape
    for value in (a, b):
        if isinstance(value, Tensor) and value.array.shape != shape:
            _check_where(shape, a, b)  # the condition takes part in the broadcast too
            break
    return Where.apply(a, b, condition=mask.astype(bool, copy=False))


def _check_where(shape: tuple[int, ...], a: Any, b: Any) -> None:
    arrays = [value.array for value in (a, b) if isinstance(value, Tensor)]
    shapes = [shape] + [x.shape for x in arrays]
    if budget.check_broadcast(shapes, max(x.itemsize for x in arrays)) is None:
        raise first_broadcast_error(shapes)  # torch's message, condition first


class ClampMin(Clamp):
    grad_fn_name = "ClampMinBackward0"


class ClampMax(Clamp):
    grad_fn_name = "ClampMaxBackward0"


class Log1p(Function):
    grad_fn_name = "Log1PBackward0"
    saves = (0,)

    def forward(self, a):
        return rounded_in_float64(np.log1p, a)

    def backward(self, grad, inputs, output):
        return (grad / (inputs[0] + 1),)


class Expm1(Function):
    grad_fn_name = "Expm1Backward0"
    saves_output = True

    def forward(self, a):
        return rounded_in_float64(np.expm1, a)

    def backward(self, grad, inputs, output):
        return (grad * (output + 1),)


class Floor(Function):
    """floor / ceil / round / trunc: steps, so the gradient is zero wherever it exists."""

    grad_fn_name = "FloorBackward0"
    rounding = staticmethod(np.floor)

    def forward(self, a, decimals=0):
        if a.dtype.kind in "biu":
            return a.copy()
        if decimals > 0:  # torch: nearbyint(x * 10^d) / 10^d
            scale = np.asarray(10.0 ** decimals, dtype=a.dtype)
            return self.rounding(a * scale) / scale
        if decimals < 0:  # nearbyint(x / 10^-d) * 10^-d: 10^-d is exact where 10^d is not
            scale = np.asarray(10.0 ** -decimals, dtype=a.dtype)
            return self.rounding(a / scale) * scale
        return self.rounding(a)

    def backward(self, grad, inputs, output):
        return (_zeros_like(grad),)


class Ceil(Floor):
    grad_fn_name = "CeilBackward0"
    rounding = staticmethod(np.ceil)


class Round(Floor):
    grad_fn_name = "RoundBackward0"
    rounding = staticmethod(np.rint)  # halves to even, as torch.round


class RoundDecimals(Round):
    grad_fn_name = "RoundBackward1"


class Trunc(Floor):
    grad_fn_name = "TruncBackward0"
    rounding = staticmethod(np.trunc)


# --- tan, atan, asin, acos, sinh, cosh, erf, exp2, log2, log10, frac, atan2, hypot, lerp, with the
# derivative formulas of PyTorch's derivatives.yaml (a create_graph=True graph carries its names)

class Unary:
    """forward for the functions computed in float64 and rounded once (a mixin)."""

    function: Any = staticmethod(np.tan)
    vml = ""  # the name of MKL's vector function torch uses for it, if any

    def forward(self, a):
        if self.vml:
            return vector_math(self.vml, self.function, a)
        return rounded_in_float64(self.function, a)


class Tan(Unary, Function):
    grad_fn_name = "TanBackward0"
    saves_output = True
    vml = "tan"

    def backward(self, grad, inputs, output):
        # lazy: engine.ops.activation imports this module
        from engine.ops.activation import AddScalar

        return (grad * AddScalar.apply(output ** 2, scalar=1),)


class Atan(Unary, Function):
    grad_fn_name = "AtanBackward0"
    saves = (0,)
    function = staticmethod(np.arctan)
    vml = "atan"

    def backward(self, grad, inputs, output):
        # lazy: engine.ops.activation imports this module
        from engine.ops.activation import AddScalar

        x = inputs[0]
        return (grad / AddScalar.apply(x * x, scalar=1),)


class Asin(Unary, Function):
    grad_fn_name = "AsinBackward0"
    saves = (0,)
    function = staticmethod(np.arcsin)
    vml = "asin"

    def backward(self, grad, inputs, output):
        # lazy: engine.ops.activation imports this module
        from engine.ops.activation import AddScalar

        x = inputs[0]
        return (grad * AddScalar.apply(-x * x, scalar=1).rsqrt(),)


class Acos(Unary, Function):
    grad_fn_name = "AcosBackward0"
    saves = (0,)
    function = staticmethod(np.arccos)
    vml = "acos"

    def backward(self, grad, inputs, output):
        # lazy: engine.ops.activation imports this module
        from engine.ops.activation import AddScalar

        x = inputs[0]
        return (grad * -AddScalar.apply(-x * x, scalar=1).rsqrt(),)


class Sinh(Unary, Function):
    grad_fn_name = "SinhBackward0"
    saves = (0,)
    function = staticmethod(np.sinh)

    def backward(self, grad, inputs, output):
        return (grad * Cosh.apply(inputs[0]),)


class Cosh(Unary, Function):
    grad_fn_name = "CoshBackward0"
    saves = (0,)
    function = staticmethod(np.cosh)

    def backward(self, grad, inputs, output):
        return (grad * Sinh.apply(inputs[0]),)


class Asinh(Unary, Function):
    grad_fn_name = "AsinhBackward0"
    saves = (0,)
    function = staticmethod(np.arcsinh)

    def backward(self, grad, inputs, output):
        return (grad * _plus(inputs[0] ** 2, 1).rsqrt(),)


class Acosh(Unary, Function):
    grad_fn_name = "AcoshBackward0"
    saves = (0,)
    function = staticmethod(np.arccosh)

    def backward(self, grad, inputs, output):
        return (grad * _plus(inputs[0] ** 2, -1).rsqrt(),)


class Atanh(Unary, Function):
    grad_fn_name = "AtanhBackward0"
    saves = (0,)
    function = staticmethod(np.arctanh)

    def backward(self, grad, inputs, output):
        x = inputs[0]
        return (grad * (1 / _plus(-(x ** 2), 1)),)


def _plus(tensor: Tensor, scalar: float) -> Tensor:
    """tensor + number as the derivative formulas write it (AddBackward1, no scalar edge)."""
    from engine.ops.activation import AddScalar  # lazy: engine.ops.activation imports this

    return AddScalar.apply(tensor, scalar=scalar)  # type: ignore[no-any-return]


class Exp2(Unary, Function):
    grad_fn_name = "Exp2Backward0"
    saves_output = True
    function = staticmethod(np.exp2)

    def backward(self, grad, inputs, output):
        return (scale(grad * output, math.log(2.0)),)


class Log2(Unary, Function):
    grad_fn_name = "Log2Backward0"
    saves = (0,)
    function = staticmethod(np.log2)
    vml = "log2"

    def backward(self, grad, inputs, output):
        return (grad / scale(inputs[0], 0.6931471805599453),)


class Log10(Unary, Function):
    grad_fn_name = "Log10Backward0"
    saves = (0,)
    function = staticmethod(np.log10)
    vml = "log10"

    def backward(self, grad, inputs, output):
        return (grad / scale(inputs[0], 2.3025850929940456),)


class Frac(Function):
    """x - trunc(x); its derivative is 1."""

    grad_fn_name = "FracBackward0"

    def forward(self, a):
        if a.dtype.kind != "f":
            raise RuntimeError(f'"frac_cpu" not implemented for \'{_type(a.dtype)}\'')
        return a - np.trunc(a)

    def backward(self, grad, inputs, output):
        return (grad,)


def _type(dtype: np.dtype) -> str:
    return {"int64": "Long", "int32": "Int", "bool": "Bool"}.get(dtype.name, dtype.name)


class Atan2(Function):
    grad_fn_name = "Atan2Backward0"
    promotes = True
    saves = (0, 1)

    def forward(self, a, b):
        a, b = float_input(a), float_input(b)
        if a.dtype == np.float32 and b.dtype == np.float32:
            return np.arctan2(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
        return np.arctan2(a, b)

    def backward(self, grad, inputs, output):
        a, b = inputs
        recip = (a * a + b * b).reciprocal()
        return (grad * b * recip if self.needs[0] else None,
                grad * -a * recip if self.needs[1] else None)


class Hypot(Function):
    grad_fn_name = "HypotBackward0"
    promotes = True
    saves = (0, 1)
    saves_output = True

    def forward(self, a, b):
        if a.dtype == np.float32:
            return np.hypot(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
        return np.hypot(a, b)

    def backward(self, grad, inputs, output):
        a, b = inputs
        return (grad * a / output if self.needs[0] else None,
                grad * b / output if self.needs[1] else None)


class Lerp(Function):
    """lerp with a number weight: start + weight * (end - start)."""

    grad_fn_name = "LerpBackward0"
    promotes = True

    def forward(self, start, end, weight):
        self.weight = weight
        return numerics.lerp_values(start, end, np.asarray(weight, dtype=start.dtype))

    def backward(self, grad, inputs, output):
        return (scale(grad, 1 - self.weight) if self.needs[0] else None,
                scale(grad, self.weight) if self.needs[1] else None)


class LerpTensor(Function):
    """lerp with a tensor weight (LerpBackward1); the weight gets a gradient too."""

    grad_fn_name = "LerpBackward1"
    promotes = True
    saves = (0, 1, 2)

    def forward(self, start, end, weight):
        return numerics.lerp_values(start, end, weight)

    def backward(self, grad, inputs, output):
        start, end, weight = inputs
        return (grad * (1 - weight) if self.needs[0] else None,
                grad * weight if self.needs[1] else None,
                grad * (end - start) if self.needs[2] else None)


class Heaviside(Function):
    """0 below zero, `values` at zero, 1 above; recorded (as PyTorch's NotImplemented node)
    but with no derivative."""

    grad_fn_name = "NotImplemented"
    no_derivative = True  # recorded, as in PyTorch, but backward through it fails

    def forward(self, a, values):
        if a.dtype != values.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different "
                               "dtypes.")
        if a.shape != values.shape:  # the broadcast result may be far bigger than both
            budget.check_broadcast((a.shape, values.shape), a.itemsize)
        return np.where(a == 0, values, (a > 0).astype(a.dtype))

    def backward(self, grad, inputs, output):
        raise RuntimeError("derivative for aten::heaviside is not implemented")


# --- deg2rad, rad2deg, nan_to_num ---------------------------------------------------------------

class Deg2Rad(Function):
    """x * (pi / 180), the factor rounded to x's dtype first, as PyTorch's kernel multiplies."""

    grad_fn_name = "Deg2RadBackward0"
    factor = math.pi / 180

    def forward(self, a):
        if a.dtype.kind != "f":
            a = a.astype(np.float32)
        return a * a.dtype.type(self.factor)

    def backward(self, grad, inputs, output):
        return (type(self).apply(grad),)


class Rad2Deg(Deg2Rad):
    grad_fn_name = "Rad2DegBackward0"
    factor = 180 / math.pi


class NanToNum(Function):
    """NaN, +inf, -inf replaced; the gradient passes where the input was finite."""

    grad_fn_name = "NanToNumBackward0"
    saves = (0,)

    def forward(self, a, nan=0.0, posinf=None, neginf=None):
        return np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)

    def backward(self, grad, inputs, output):
        return (grad * Tensor._wrap(np.isfinite(inputs[0].array).astype(grad.array.dtype)),)
