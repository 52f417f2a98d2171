"""Activation functions of nn.functional with PyTorch's own derivative ops.

Each activation whose derivative is an ATen op of its own (gelu_backward, elu_backward,
leaky_relu_backward, softplus_backward, hardtanh_backward, log_sigmoid_backward,
hardswish_backward, hardsigmoid_backward, softshrink/hardshrink_backward) records that
derivative as a Function here, so a graph built with create_graph=True shows PyTorch's node
names (GeluBackwardBackward0, ...); their own derivatives follow derivatives.yaml /
FunctionsManual.cpp. Float32 values follow the CPU kernels' order of roundings; transcendental
functions are computed in float64 and rounded once (as engine/ops/pointwise.py does), except in
gelu and elu, which reproduce ATen's kernels bit for bit (`cpu_kernel`: SLEEF's vector functions
on whole vector steps, the C library's on the rest) and oneDNN's gelu_erf where torch uses it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import numpy as np

from engine import float_math, grad_mode
from engine.autograd import Function
from engine.float_math import fma32, fma64, in_blocks
from engine.late_imports import late
from engine.ops import arith, numerics
from engine.ops.arith import scale
from engine.ops.pointwise import (
    Cosh,
    Sigmoid,
    SigmoidBackward,
    Tanh,
    float_input,
    rounded_in_float64,
)
from engine.tensor import Tensor
from engine.threads import thread_chunks, torch_threads

_vector_erf = np.vectorize(math.erf, otypes=[np.float64])


def erf(a: np.ndarray) -> np.ndarray:
    """erf, correctly rounded for float32 (numpy has none: math.erf per element)."""
    return rounded_in_float64(_vector_erf, a)


VECTOR_BYTES = 128  # cpu_kernel_vec's step: two AVX512 vectors (32 floats, 16 doubles)
GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE


def vector_erf(x: np.ndarray) -> np.ndarray:
    """ATen's Vectorized<float>::erf (Abramowitz-Stegun 7.1.26 with fused multiply-adds and
    SLEEF's exp): up to ~1e-7 from erf itself."""
    t = np.float32(1) / fma32(np.float32(0.3275911), np.abs(x), np.float32(1))
    r = fma32(np.float32(1.061405429), t, np.float32(-1.453152027))
    for coefficient in (1.421413741, -0.284496736, 0.254829592):
        r = fma32(r, t, np.float32(coefficient))
    tail = -numerics.sleef_expf(-(x * x)) * t
    return np.copysign(fma32(tail, r, np.float32(1)), x)  # type: ignore[no-any-return]


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once in the arrays' float dtype (the kernels' contracted FMAs)."""
    return fma32(a, b, c) if c.dtype == np.float32 else fma64(a, b, c)


def cpu_kernel(vector: Callable[..., np.ndarray], scalar: Callable[..., np.ndarray],
               *arrays: np.ndarray, grain: int = GRAIN_SIZE) -> np.ndarray:
    """ATen's cpu_kernel_vec: `vector` over whole steps of two AVX512 vectors, `scalar` (the C
    library's functions) over the rest of each run. The last array (the op's input) sets the
    walk: dense (contiguous, or transposed, in memory order) it is one run per thread chunk
    of at::parallel_for; with a contiguous last axis, one run per row; else all scalar."""
    x = arrays[-1]
    if x.ndim == 0:  # one element: the scalar path
        return scalar(*np.broadcast_arrays(*arrays))
    order = np.argsort([-abs(stride) for stride in x.strides], kind="stable")
    walked = [np.ascontiguousarray(np.transpose(a, order)) for a in np.broadcast_arrays(*arrays)]
    shape = walked[0].shape
    step = VECTOR_BYTES // x.itemsize
    # both kernels are elementwise: each runs block by block (its temporaries stay small)
    vector, scalar = partial(in_blocks, vector), partial(in_blocks, scalar)
    if x.strides[order[-1]] != x.itemsize:
        out = scalar(*walked)
    elif np.transpose(x, order).flags.c_contiguous:
        flat = [a.reshape(-1) for a in walked]
        out = np.empty_like(flat[0])
        with np.errstate(all="ignore"):
            for begin, end in thread_chunks(out.size, grain):
                split = begin + (end - begin) // step * step
                out[begin:split] = vector(*(a[begin:split] for a in flat))
                out[split:end] = scalar(*(a[split:end] for a in flat))
    else:
        rows = [a.reshape(-1, shape[-1]) for a in walked]
        split = shape[-1] // step * step
        out = np.empty_like(rows[0])
        with np.errstate(all="ignore"):
            out[:, :split] = vector(*(a[:, :split] for a in rows))
            out[:, split:] = scalar(*(a[:, split:] for a in rows))
    return np.transpose(out.reshape(shape), np.argsort(order))  # type: ignore[no-any-return]


def _c(value: float, like: np.ndarray) -> np.ndarray:
    """A python number as the CPU kernels use it: converted to the tensor's dtype."""
    return np.asarray(value, dtype=like.dtype)


def _exp(a: np.ndarray) -> np.ndarray:
    return rounded_in_float64(np.exp, a)


def _mask(condition: np.ndarray, like: Tensor) -> Tensor:
    return Tensor._wrap(condition.astype(like.array.dtype))


class AddScalar(Function):
    """tensor + number inside derivative formulas (PyTorch's AddBackward1: no scalar edge)."""

    grad_fn_name = "AddBackward1"

    def forward(self, a, scalar):
        return a + np.asarray(scalar, dtype=a.dtype)

    def backward(self, grad, inputs, output):
        return (grad,)


class SubScalar(AddScalar):
    """tensor - number inside composite ops (PyTorch's SubBackward1)."""

    grad_fn_name = "SubBackward1"

    def forward(self, a, scalar):
        return a - np.asarray(scalar, dtype=a.dtype)


# --- gelu --------------------------------------------------------------------------------------

# <math.h>'s constants as written (1 / math.sqrt(2) and 2 / math.sqrt(math.pi) are an ulp off)
_SQRT2, _SQRT1_2, _2_SQRTPI = 1.41421356237309504880, 0.70710678118654752440, 1.12837916709551257390
_GELU_PDF = _2_SQRTPI * _SQRT1_2 * 0.5
_TANH_BETA = _SQRT2 * _2_SQRTPI * 0.5
_TANH_KAPPA = 0.044715


_GELU_MIN_ELEMENTS_FOR_MULTI_THREADING = 16384  # GeluKernelImpl's grain: numel / threads above


_EXP_FINITE = 709.782712893384  # the largest double whose exp is finite (math.exp raises past it)


def _libm(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """The scalar kernels' C library function: std::erf, std::exp, ... of the tensor's dtype."""
    def apply(values: np.ndarray) -> np.ndarray:
        if values.dtype == np.float64 and name in ("exp", "expm1"):
            result = float_math.libm(name, np.minimum(values, _EXP_FINITE))
            return np.where(values > _EXP_FINITE, np.inf, result)
        return float_math.libm(name, values)
    return apply


def _vectorized(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """Vectorized<float> / Vectorized<double>'s erf, exp, expm1 or tanh (AVX512 build)."""
    def apply(values: np.ndarray) -> np.ndarray:
        if values.dtype != np.float32:  # the SLEEF kernels load on first use (startup time)
            return late("engine.ops.sleef_double", name)(values)  # type: ignore[no-any-return]
        if name in ("erf", "exp"):
            return vector_erf(values) if name == "erf" else numerics.sleef_expf(values)
        return late("engine.ops.sleef_float", name + "f")(values)  # type: ignore[no-any-return]
    return apply


def _gelu_tanh_inner(x: np.ndarray) -> np.ndarray:
    """kBeta * (x + kKappa * x^3), the sum contracted to a fused multiply-add."""
    return _c(_TANH_BETA, x) * fma(_c(_TANH_KAPPA, x), x * x * x, x)


def _gelu(erf_: Callable, tanh_: Callable, approximate: str, x: np.ndarray) -> np.ndarray:
    if approximate == "tanh":
        return _c(0.5, x) * x * (_c(1, x) + tanh_(_gelu_tanh_inner(x)))
    return x * _c(0.5, x) * (_c(1, x) + erf_(x * _c(_SQRT1_2, x)))


def _gelu_backward(erf_: Callable, exp_: Callable, tanh_: Callable, fused: bool,
                   approximate: str, grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """GeluBackwardKernelImpl; `fused`: the vector kernel's cdf + x * pdf is one fused
    multiply-add, the scalar one's is not."""
    one = _c(1, x)
    if approximate == "tanh":
        tanh_inner = tanh_(_gelu_tanh_inner(x))
        left_derivative = _c(0.5, x) * (one + tanh_inner)
        tanh_derivative = fma(-tanh_inner, tanh_inner, one)
        inner_derivative = _c(_TANH_BETA, x) * fma(_c(3, x) * _c(_TANH_KAPPA, x), x * x, one)
        return grad * (left_derivative + _c(0.5, x) * x * tanh_derivative * inner_derivative)
    cdf = _c(0.5, x) * (one + erf_(x * _c(_SQRT1_2, x)))
    pdf = _c(_GELU_PDF, x) * exp_(x * x * _c(-0.5, x))
    return grad * (fma(x, pdf, cdf) if fused else cdf + x * pdf)


def _takes_onednn(approximate: str, x: np.ndarray) -> bool:
    """torch's use_mkldnn: gelu and gelu_backward (erf) of a contiguous float32 input of more
    than one element run oneDNN's kernels, not ATen's."""
    return (approximate == "none" and x.dtype == np.float32 and x.size > 1
            and x.flags.c_contiguous)


class Gelu(Function):
    grad_fn_name = "GeluBackward0"
    saves = (0,)

    def forward(self, a, approximate="none"):
        self.approximate = approximate
        x = float_input(a)
        grain = GRAIN_SIZE
        if x.size > _GELU_MIN_ELEMENTS_FOR_MULTI_THREADING:
            grain = max(1, x.size // torch_threads())
        if _takes_onednn(approximate, x):
            return late("engine.ops.onednn_gelu", "gelu")(x)  # type: ignore[no-any-return]
        return cpu_kernel(lambda v: _gelu(_vectorized("erf"), _vectorized("tanh"), approximate, v),
                          lambda v: _gelu(_libm("erf"), _libm("tanh"), approximate, v),
                          x, grain=grain)

    def backward(self, grad, inputs, output):
        return (GeluBackward.apply(grad, inputs[0], approximate=self.approximate),)


class GeluBackward(Function):
    """gelu_backward(grad, x): grad * (cdf(x) + x * pdf(x)) (or its tanh approximation)."""

    grad_fn_name = "GeluBackwardBackward0"
    saves = (0, 1)

    def forward(self, grad, x, approximate="none"):
        self.approximate = approximate
        if _takes_onednn(approximate, x):
            return late("engine.ops.onednn_gelu", "gelu_backward")(  # type: ignore[no-any-return]
                *np.broadcast_arrays(grad, x))
        return cpu_kernel(
            lambda g, v: _gelu_backward(_vectorized("erf"), _vectorized("exp"), _vectorized("tanh"),
                                        True,
                                        approximate, g, v),
            lambda g, v: _gelu_backward(_libm("erf"), _libm("exp"), _libm("tanh"), False,
                                        approximate, g, v),
            grad, x)

    def backward(self, gg, inputs, output):
        grad, x = inputs
        grad_grad = GeluBackward.apply(gg, x, approximate=self.approximate) if self.needs[0] \
            else None
        grad_x = None
        if self.needs[1]:  # FunctionsManual's gelu_double_backward
            if self.approximate == "tanh":
                inner = scale(x + scale(x ** 3, _TANH_KAPPA), _TANH_BETA)
                tanh_inner = Tanh.apply(inner)
                sech_inner = 1 / Cosh.apply(inner)
                f = scale(x, 0.5)
                g = 1 - tanh_inner * tanh_inner
                h = scale(1 + scale(x * x, 3 * _TANH_KAPPA), _TANH_BETA)
                f_prime_gh = scale(g, 0.5) * h
                g_prime = scale(sech_inner, 2) * (-sech_inner * tanh_inner) * h
                g_prime_fh = f * h * g_prime
                h_prime = scale(x, 6 * _TANH_KAPPA) * _TANH_BETA
                h_prime_fg = f * g * h_prime
                grad_x = gg * grad * (f_prime_gh + f_prime_gh + g_prime_fh + h_prime_fg)
            else:
                square = x * x
                pdf = scale(scale(square, -0.5).exp(), _GELU_PDF)
                grad_x = gg * grad * (scale(pdf, 2) - square * pdf)
        return grad_grad, grad_x


# --- elu / selu / celu -------------------------------------------------------------------------

class Elu(Function):
    """elu(x) = scale * x for x > 0, alpha * scale * (exp(input_scale * x) - 1) otherwise."""

    grad_fn_name = "EluBackward0"
    saves = (0,)

    def forward(self, a, alpha=1.0, scale=1.0, input_scale=1.0):
        self.params = (alpha, scale, input_scale)
        x = float_input(a)
        negcoef = _c(alpha, x) * _c(scale, x)
        poscoef, negiptcoef = _c(scale, x), _c(input_scale, x)

        def kernel(expm1: Callable) -> Callable:
            return lambda v: np.where(v > 0, v * poscoef, expm1(v * negiptcoef) * negcoef)

        return cpu_kernel(kernel(_vectorized("expm1")), kernel(_libm("expm1")), x)

    def backward(self, grad, inputs, output):
        return (EluBackward.apply(grad, inputs[0], params=self.params),)


class Celu(Elu):
    grad_fn_name = "CeluBackward0"

    def backward(self, grad, inputs, output):
        # derivatives.yaml: elu_backward(grad, alpha, 1, 1.0/alpha.toFloat(), ...): the input
        # scale from alpha rounded to float (the forward's is 1.0 / alpha in double)
        alpha = self.params[0]
        params = (alpha, 1.0, 1.0 / float(np.float32(alpha)))
        return (EluBackward.apply(grad, inputs[0], params=params),)


class EluBackward(Function):
    """elu_backward(grad, x) (is_result=false)."""

    grad_fn_name = "EluBackwardBackward0"
    saves = (0, 1)

    def forward(self, grad, x, params):
        self.params = params
        alpha, scale_, input_scale = params
        negcoef = _c(alpha, x) * _c(scale_, x)
        poscoef, negiptcoef = _c(scale_, x), _c(input_scale, x)

        def kernel(exp: Callable) -> Callable:
            return lambda g, v: np.where(v > 0, g * poscoef,
                                         g * negiptcoef * negcoef * exp(v * negiptcoef))

        return cpu_kernel(kernel(_vectorized("exp")), kernel(_libm("exp")), grad, x)

    def backward(self, gg, inputs, output):
        grad, x = inputs
        grad_grad = EluBackward.apply(gg, x, params=self.params) if self.needs[0] else None
        grad_x = None
        if self.needs[1]:  # elu_double_backward
            inner = scale(gg * grad, self.params[2])
            grad_x = EluBackward.apply(inner, x, params=self.params) * _mask(x.array < 0, gg)
        return grad_grad, grad_x


# --- leaky_relu / hardtanh ---------------------------------------------------------------------

class LeakyRelu(Function):
    grad_fn_name = "LeakyReluBackward0"
    saves = (0,)

    def forward(self, a, negative_slope=0.01):
        self.slope = negative_slope
        if a.dtype.kind != "f":
            raise NotImplementedError(f'"leaky_relu_cpu" not implemented for '
                                      f"'{_type_name(a.dtype)}'")
        return np.where(a > 0, a, a * _c(negative_slope, a))

    def backward(self, grad, inputs, output):
        return (LeakyReluBackward.apply(grad, inputs[0], slope=self.slope),)


def _type_name(dtype: np.dtype) -> str:
    return {"int64": "Long", "int32": "Int", "bool": "Bool", "int16": "Short",
            "int8": "Char", "uint8": "Byte"}.get(dtype.name, dtype.name)


class LeakyReluBackward(Function):
    grad_fn_name = "LeakyReluBackwardBackward0"
    saves = (1,)

    def forward(self, grad, x, slope):
        self.slope = slope
        return np.where(x > 0, grad, grad * _c(slope, grad))

    def backward(self, gg, inputs, output):
        x = inputs[1]
        grad_grad = LeakyReluBackward.apply(gg, x, slope=self.slope) if self.needs[0] else None
        return grad_grad, _zeros(x) if self.needs[1] else None


def _zeros(like: Tensor) -> Tensor:
    return Tensor._wrap(np.zeros(like.array.shape, dtype=like.array.dtype))


class Hardtanh(Function):
    """hardtanh (and relu6): clamp to [min_val, max_val]; no gradient at or beyond the ends."""

    grad_fn_name = "HardtanhBackward0"
    saves = (0,)

    def forward(self, a, min_val=-1.0, max_val=1.0):
        self.bounds = (min_val, max_val)
        if a.dtype == np.bool_:
            raise RuntimeError("Bool inputs not supported for hardtanh")
        low, high = np.asarray(min_val).astype(a.dtype), np.asarray(max_val).astype(a.dtype)
        return float_math.minimum(float_math.maximum(a, low), high)

    def backward(self, grad, inputs, output):
        return (HardtanhBackward.apply(grad, inputs[0], bounds=self.bounds),)


class HardtanhBackward(Function):
    grad_fn_name = "HardtanhBackwardBackward0"
    saves = (1,)

    def forward(self, grad, x, bounds):
        self.bounds = bounds
        low, high = bounds
        return np.where((x <= low) | (x >= high), np.zeros((), dtype=grad.dtype), grad)

    def backward(self, gg, inputs, output):
        x = inputs[1]
        grad_grad = HardtanhBackward.apply(gg, x, bounds=self.bounds) if self.needs[0] \
            else None
        return grad_grad, _zeros(x) if self.needs[1] else None


class Threshold(Function):
    """threshold: x where x > threshold, else value."""

    grad_fn_name = "ThresholdBackward0"
    saves = (0,)

    def forward(self, a, threshold=0.0, value=0.0):
        self.threshold = threshold
        return np.where(a > _c(threshold, a), a, _c(value, a))

    def backward(self, grad, inputs, output):
        return (ThresholdBackward.apply(grad, inputs[0], threshold=self.threshold),)


class ThresholdBackward(Function):
    grad_fn_name = "ThresholdBackwardBackward0"
    saves = (1,)

    def forward(self, grad, x, threshold):
        self.threshold = threshold
        return np.where(x > _c(threshold, x), grad, np.zeros((), dtype=grad.dtype))

    def backward(self, gg, inputs, output):
        x = inputs[1]
        grad_grad = ThresholdBackward.apply(gg, x, threshold=self.threshold) if self.needs[0] \
            else None
        return grad_grad, _zeros(x) if self.needs[1] else None


# --- softplus ----------------------------------------------------------------------------------

class Softplus(Function):
    """log(1 + exp(beta x)) / beta; x itself where beta x > threshold."""

    grad_fn_name = "SoftplusBackward0"
    saves = (0,)

    def forward(self, a, beta=1.0, threshold=20.0):
        self.params = (beta, threshold)
        x = float_input(a)
        scaled = x * _c(beta, x)
        soft = rounded_in_float64(np.log1p, _exp(scaled)) / _c(beta, x)
        return np.where(scaled > _c(threshold, x), x, soft)

    def backward(self, grad, inputs, output):
        return (SoftplusBackward.apply(grad, inputs[0], params=self.params),)


class SoftplusBackward(Function):
    grad_fn_name = "SoftplusBackwardBackward0"
    saves = (0, 1)

    def forward(self, grad, x, params):
        self.params = params
        beta, threshold = params
        scaled = x * _c(beta, x)
        z = _exp(scaled)
        return np.where(scaled > _c(threshold, x), grad, grad * z / (z + _c(1, x)))

    def backward(self, gg, inputs, output):
        grad, x = inputs
        beta, threshold = self.params
        grad_grad = SoftplusBackward.apply(gg, x, params=self.params) if self.needs[0] \
            else None
        grad_x = None
        if self.needs[1]:  # softplus_double_backward(gg * grad, x, beta, threshold)
            scaled = scale(x, beta)
            below = _mask(scaled.array < threshold, gg)
            grad_x = scale(SigmoidBackward.apply(gg * grad, Sigmoid.apply(scaled)) * below, beta)
        return grad_grad, grad_x


# --- silu / logsigmoid -------------------------------------------------------------------------

class Silu(Function):
    grad_fn_name = "SiluBackward0"
    saves = (0,)

    def forward(self, a):
        x = float_input(a)
        return x / (_c(1, x) + numerics.exp_negated(x))

    def backward(self, grad, inputs, output):
        x = inputs[0]
        if not grad_mode.is_grad_enabled():  # PyTorch's fused silu_backward kernel
            return (SiluBackward.apply(grad, x),)
        # create_graph: infinitely_differentiable_silu_backward, grad * s * (1 + x * (1 - s))
        sigmoid = Sigmoid.apply(x)
        one = Tensor._wrap(np.ones((), dtype=x.array.dtype))  # a wrapped number: no edge
        return (grad * sigmoid * AddScalar.apply(x * arith.Sub.apply(one, sigmoid), scalar=1.0),)


class Mish(Function):
    """x * tanh(softplus(x)), one node (MishBackward0) as in PyTorch."""

    grad_fn_name = "MishBackward0"
    saves = (0,)

    def forward(self, a):
        x = float_input(a)
        return x * rounded_in_float64(np.tanh, rounded_in_float64(np.log1p, _exp(x)))

    def backward(self, grad, inputs, output):
        # mish_backward: grad * (tanh(sp) + x * sigmoid(x) * (1 - tanh(sp)^2)), sp = softplus(x)
        x = inputs[0]
        softplus = AddScalar.apply(x.exp(), scalar=1.0).log()
        tanh_softplus = Tanh.apply(softplus)
        one = Tensor._wrap(np.ones((), dtype=x.array.dtype))
        return (grad * (tanh_softplus + x * Sigmoid.apply(x)
                        * arith.Sub.apply(one, tanh_softplus * tanh_softplus)),)


class SiluBackward(Function):
    """silu_backward(grad, x) = grad * s * (1 + x * (1 - s)), s = sigmoid(x), as ATen's kernel
    computes it (the inner multiply-add fused by the compiler); backward without a graph."""

    grad_fn_name = "SiluBackwardBackward0"
    differentiable = False

    def forward(self, grad, x):
        one = _c(1, x)
        s = one / (one + numerics.exp_negated(x))
        inner = fma32(x, one - s, one) if x.dtype == np.float32 else fma64(x, one - s, one)
        return grad * s * inner


class LogSigmoid(Function):
    grad_fn_name = "LogSigmoidBackward0"
    saves = (0,)

    def forward(self, a):
        x = float_input(a)
        z = _exp(-np.abs(x))
        return np.minimum(x, _c(0, x)) - rounded_in_float64(np.log1p, z)

    def backward(self, grad, inputs, output):
        return (LogSigmoidBackward.apply(grad, inputs[0]),)


class LogSigmoidBackward(Function):
    grad_fn_name = "LogSigmoidBackwardBackward0"
    saves = (0, 1)

    def forward(self, grad, x):
        one = _c(1, x)
        negative = x < 0
        max_deriv = np.where(negative, one, _c(0, x))
        sign = np.where(negative, one, -one)
        z = _exp(-np.abs(x))
        return grad * (max_deriv - sign * (z / (one + z)))

    def backward(self, gg, inputs, output):
        grad, x = inputs
        grad_grad = LogSigmoidBackward.apply(gg, x) if self.needs[0] else None
        grad_x = None
        if self.needs[1]:  # log_sigmoid_double_backward(gg * grad, x)
            z = Sigmoid.apply(x)
            grad_x = gg * grad * (z - 1) * z
        return grad_grad, grad_x


# --- hardswish / hardsigmoid ------------------------------------------------------------------

class Hardswish(Function):
    """x * min(max(x + 3, 0), 6) / 6."""

    grad_fn_name = "HardswishBackward0"
    saves = (0,)

    def forward(self, a):
        x = float_input(a)
        return x * np.minimum(np.maximum(x + _c(3, x), _c(0, x)), _c(6, x)) / _c(6, x)

    def backward(self, grad, inputs, output):
        return (HardswishBackward.apply(grad, inputs[0]),)


class HardswishBackward(Function):
    """0 at and below -3, grad (x / 3 + 1/2) between, grad at and above 3."""

    grad_fn_name = "HardswishBackwardBackward0"
    saves = (0, 1)

    def forward(self, grad, x):
        inner = grad * (x / _c(3, x) + _c(0.5, x))
        return np.where(x <= _c(-3, x), _c(0, x), np.where(x < _c(3, x), inner, grad))

    def backward(self, gg, inputs, output):
        grad, x = inputs
        grad_grad = HardswishBackward.apply(gg, x) if self.needs[0] else None
        grad_x = None
        if self.needs[1]:  # where(-3 < x < 3, gg * grad / 3, 0)
            inside = _mask((x.array > -3) & (x.array < 3), gg)
            grad_x = scale(gg * grad, 1 / 3) * inside
        return grad_grad, grad_x


class Hardsigmoid(Function):
    """min(max(x + 3, 0), 6) / 6."""

    grad_fn_name = "HardsigmoidBackward0"
    saves = (0,)

    def forward(self, a):
        x = float_input(a)
        return np.minimum(np.maximum(x + _c(3, x), _c(0, x)), _c(6, x)) / _c(6, x)

    def backward(self, grad, inputs, output):
        return (HardsigmoidBackward.apply(grad, inputs[0]),)


class HardsigmoidBackward(Function):
    grad_fn_name = "HardsigmoidBackwardBackward0"
    saves = (1,)

    def forward(self, grad, x):
        inside = (x > _c(-3, x)) & (x < _c(3, x))
        return np.where(inside, grad * _c(1 / 6, x), _c(0, x))

    def backward(self, gg, inputs, output):
        x = inputs[1]
        grad_grad = HardsigmoidBackward.apply(gg, x) if self.needs[0] else None
        return grad_grad, _zeros(x) if self.needs[1] else None


# --- softshrink / hardshrink -------------------------------------------------------------------

class Shrink(Function):
    """softshrink: x -/+ lambd outside [-lambd, lambd], x * 0 inside (-0 for a negative x);
    hardshrink (`soft=False`): x outside, 0 inside."""

    grad_fn_name = "SoftshrinkBackward0"
    saves = (0,)

    def forward(self, a, lambd=0.5, soft=True):
        self.lambd, self.soft = lambd, soft
        if not soft:
            self.grad_fn_name = "HardshrinkBackward0"
        x = float_input(a)
        bound = _c(lambd, x)
        zero = _c(0, x)
        if soft:
            return np.where(x > bound, x - bound, np.where(x < -bound, x + bound, x * zero))
        return np.where((x >= -bound) & (x <= bound), zero, x)

    def backward(self, grad, inputs, output):
        return (ShrinkBackward.apply(grad, inputs[0], lambd=self.lambd, soft=self.soft),)


class ShrinkBackward(Function):
    """softshrink_backward / hardshrink_backward: grad outside [-lambd, lambd], 0 inside."""

    grad_fn_name = "SoftshrinkBackwardBackward0"
    saves = (1,)

    def forward(self, grad, x, lambd, soft):
        self.lambd, self.soft = lambd, soft
        if not soft:
            self.grad_fn_name = "HardshrinkBackwardBackward0"
        bound = _c(lambd, x)
        return np.where((x >= -bound) & (x <= bound), _c(0, x), grad)

    def backward(self, gg, inputs, output):
        x = inputs[1]
        grad_grad = (ShrinkBackward.apply(gg, x, lambd=self.lambd, soft=self.soft)
                     if self.needs[0] else None)
        return grad_grad, _zeros(x) if self.needs[1] else None


# --- prelu -------------------------------------------------------------------------------------

class PreluKernel(Function):
    """x where x > 0, else weight * x (weight broadcast over x; the engine sums its gradient
    back to the weight's shape)."""

    grad_fn_name = "PreluKernelBackward0"
    saves = (0, 1)

    def forward(self, x, weight):
        return np.where(x > 0, x, weight * x)

    def backward(self, grad, inputs, output):
        x, weight = inputs
        positive = _mask(x.array > 0, grad)
        negative = _mask(x.array <= 0, grad)
        grad_x = grad * positive + grad * weight * negative if self.needs[0] else None
        grad_w = x * grad * negative if self.needs[1] else None
        return grad_x, grad_w


# --- padding -----------------------------------------------------------------------------------

class ConstantPad(Function):
    """F.pad(mode='constant'): `pad` pairs from the last dim backwards; negative pads crop."""

    grad_fn_name = "ConstantPadNdBackward0"

    def forward(self, a, pad, value=0.0):
        self.input_shape = a.shape
        ndim = a.ndim
        self.pairs = [(0, 0)] * ndim
        for i in range(len(pad) // 2):
            self.pairs[ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
        shape = tuple(size + lo + hi for size, (lo, hi) in zip(a.shape, self.pairs, strict=True))
        out = np.full(shape, np.asarray(value).astype(a.dtype), dtype=a.dtype)
        src, dst = [], []
        for size, (lo, hi) in zip(a.shape, self.pairs, strict=True):
            src.append(slice(max(0, -lo), size - max(0, -hi)))
            dst.append(slice(max(0, lo), max(0, lo) + size - max(0, -lo) - max(0, -hi)))
        out[tuple(dst)] = a[tuple(src)]
        return out

    def backward(self, grad, inputs, output):
        negated = []
        for lo, hi in reversed(self.pairs):
            negated += [-lo, -hi]
        return (ConstantPad.apply(grad, pad=tuple(negated)),)
