"""The special functions: erf, erfinv, lgamma, digamma and polygamma (digamma's derivatives),
with PyTorch's derivative formulas. erf and erfinv are MKL's (as torch calls them), the others
the C library's or series in float64, rounded once for float32."""

from __future__ import annotations

import math

import numpy as np

from engine.autograd import Function
from engine.ops import mkl
from engine.ops.arith import scale
from engine.ops.pointwise import Unary, float_input, rounded_in_float64
from engine.tensor import Tensor


def _erfinv64(values: np.ndarray) -> np.ndarray:
    """erfinv in float64 without MKL: the normal distribution's quantile (Python's statistics),
    erfinv(y) = Q((y + 1) / 2) / sqrt(2); +-inf at +-1 and nan outside [-1, 1]."""
    from statistics import NormalDist  # lazy: rarely used

    quantile = NormalDist().inv_cdf

    def one(y: float) -> float:
        if not -1 <= y <= 1:
            return math.nan
        if abs(y) == 1:
            return math.copysign(math.inf, y)
        return quantile((y + 1) / 2) / math.sqrt(2)

    return np.fromiter(map(one, values.ravel().tolist()), dtype=np.float64,
                       count=values.size).reshape(values.shape)


class Erfinv(Unary, Function):
    grad_fn_name = "ErfinvBackward0"
    saves = (0,)
    function = staticmethod(_erfinv64)
    vml = "erfinv"

    def backward(self, grad, inputs, output):
        # 0.5 * sqrt(pi) * exp(erfinv(x)^2) * grad
        return (scale((Erfinv.apply(inputs[0]) ** 2).exp(), 0.5 * math.sqrt(math.pi)) * grad,)


def _lgamma64(values: np.ndarray) -> np.ndarray:
    """log|Gamma(x)| in float64 (the C library's lgamma, +inf at the poles)."""
    def one(x: float) -> float:
        try:
            return math.lgamma(x)
        except ValueError:  # a pole: 0, -1, -2, ...
            return math.inf
    return np.fromiter(map(one, values.ravel().tolist()), dtype=np.float64,
                       count=values.size).reshape(values.shape)


_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)  # B2, B4, ... B14


def _polygamma64(order: int, values: np.ndarray) -> np.ndarray:
    """The polygamma function of `order` (0: digamma) in float64: the recurrence up to x >= 16,
    then the asymptotic series; for digamma, the reflection formula below 0 (-inf at 0, nan at
    the negative integers, as PyTorch's kernel gives)."""
    x = values.astype(np.float64)
    negative = x < 0
    reflected = np.zeros_like(x)
    if order == 0 and negative.any():  # psi(x) = psi(1 - x) - pi / tan(pi x)
        reflected[negative] = (_polygamma64(0, 1 - x[negative])
                               - math.pi / np.tan(math.pi * x[negative]))
    shifted = np.where(negative, 16.0, x)
    accumulated = np.zeros_like(x)  # sum over k of 1 / (x + k)^(order + 1)
    while True:
        small = shifted < 16
        if not small.any():
            break
        accumulated[small] += 1 / shifted[small] ** (order + 1)
        shifted = np.where(small, shifted + 1, shifted)
    if order == 0:
        inverse_square = 1 / (shifted * shifted)
        series = np.log(shifted) - 0.5 / shifted
        power = np.ones_like(x)
        for k, bernoulli in enumerate(_BERNOULLI, start=1):
            power = power * inverse_square
            series = series - bernoulli / (2 * k) * power
        value = series - accumulated
        value = np.where(negative, reflected, value)
        return np.where((x < 0) & (x == np.floor(x)), np.nan, np.where(x == 0, -np.inf, value))
    # (-1)^(n+1) [(n-1)!/x^n + n!/(2 x^(n+1)) + sum B2k (2k+n-1)!/((2k)! x^(2k+n))]
    n = order
    series = math.factorial(n - 1) / shifted ** n + math.factorial(n) / (2 * shifted ** (n + 1))
    for k, bernoulli in enumerate(_BERNOULLI, start=1):
        series = series + (bernoulli * math.factorial(2 * k + n - 1) / math.factorial(2 * k)
                           / shifted ** (2 * k + n))
    sign = 1 if n % 2 else -1
    return sign * (series + math.factorial(n) * accumulated)  # type: ignore[no-any-return]


class Lgamma(Unary, Function):
    grad_fn_name = "LgammaBackward0"
    saves = (0,)
    function = staticmethod(_lgamma64)

    def backward(self, grad, inputs, output):
        return (grad * Digamma.apply(inputs[0]),)


class Digamma(Unary, Function):
    grad_fn_name = "DigammaBackward0"
    saves = (0,)
    function = staticmethod(lambda x: _polygamma64(0, x))

    def backward(self, grad, inputs, output):
        return (grad * Polygamma.apply(inputs[0], order=1),)


class Polygamma(Function):
    """torch.polygamma(n, x), the n-th derivative of digamma; its derivative is order n + 1."""

    grad_fn_name = "PolygammaBackward0"
    saves = (0,)

    def forward(self, a, order):
        self.order = order
        return rounded_in_float64(lambda x: _polygamma64(order, x), float_input(a))

    def backward(self, grad, inputs, output):
        return (grad * Polygamma.apply(inputs[0], order=self.order + 1),)


def polygamma(n: int, input: Tensor) -> Tensor:  # noqa: A002 - PyTorch's keywords
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return Digamma.apply(input) if n == 0 else Polygamma.apply(input, order=n)


class Erf(Function):
    grad_fn_name = "ErfBackward0"
    saves = (0,)

    def forward(self, a):
        from engine.ops.activation import erf  # lazy: engine.ops.activation imports this module

        out = mkl.vml("erf", float_input(a))
        return erf(float_input(a)) if out is None else out

    def backward(self, grad, inputs, output):
        x = inputs[0]
        return (scale((-(x ** 2)).exp(), 2.0 / math.sqrt(math.pi)) * grad,)
