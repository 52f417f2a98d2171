"""More elementwise functions: tan, atan, asin, acos, sinh, cosh, erf, exp2, log2, log10, frac,
atan2, hypot and lerp, with the derivative formulas of PyTorch's derivatives.yaml (so the nodes
of a derivative graph built with create_graph=True carry PyTorch's names).
"""

from __future__ import annotations

import math

import numpy as np

from engine.autograd import Function
from engine.ops.arith import scale
from engine.ops.pointwise import _float, _rounded


class _Unary:
    """forward for the functions computed in float64 and rounded once (a mixin)."""

    function = staticmethod(np.tan)

    def forward(self, a):
        return _rounded(self.function, a)


class Tan(_Unary, Function):
    grad_fn_name = "TanBackward0"
    saves_output = True

    def backward(self, grad, inputs, output):
        from engine.ops.activation import AddScalar

        return (grad * AddScalar.apply(output ** 2, scalar=1),)


class Atan(_Unary, Function):
    grad_fn_name = "AtanBackward0"
    saves = (0,)
    function = staticmethod(np.arctan)

    def backward(self, grad, inputs, output):
        from engine.ops.activation import AddScalar

        x = inputs[0]
        return (grad / AddScalar.apply(x * x, scalar=1),)


class Asin(_Unary, Function):
    grad_fn_name = "AsinBackward0"
    saves = (0,)
    function = staticmethod(np.arcsin)

    def backward(self, grad, inputs, output):
        from engine.ops.activation import AddScalar

        x = inputs[0]
        return (grad * AddScalar.apply(-x * x, scalar=1).rsqrt(),)


class Acos(_Unary, Function):
    grad_fn_name = "AcosBackward0"
    saves = (0,)
    function = staticmethod(np.arccos)

    def backward(self, grad, inputs, output):
        from engine.ops.activation import AddScalar

        x = inputs[0]
        return (grad * -AddScalar.apply(-x * x, scalar=1).rsqrt(),)


class Sinh(_Unary, Function):
    grad_fn_name = "SinhBackward0"
    saves = (0,)
    function = staticmethod(np.sinh)

    def backward(self, grad, inputs, output):
        return (grad * Cosh.apply(inputs[0]),)


class Cosh(_Unary, Function):
    grad_fn_name = "CoshBackward0"
    saves = (0,)
    function = staticmethod(np.cosh)

    def backward(self, grad, inputs, output):
        return (grad * Sinh.apply(inputs[0]),)


class Erf(Function):
    grad_fn_name = "ErfBackward0"
    saves = (0,)

    def forward(self, a):
        from engine.ops.activation import erf

        return erf(_float(a))

    def backward(self, grad, inputs, output):
        x = inputs[0]
        return (scale((-(x ** 2)).exp(), 2.0 / math.sqrt(math.pi)) * grad,)


class Exp2(_Unary, Function):
    grad_fn_name = "Exp2Backward0"
    saves_output = True
    function = staticmethod(np.exp2)

    def backward(self, grad, inputs, output):
        return (scale(grad * output, math.log(2.0)),)


class Log2(_Unary, Function):
    grad_fn_name = "Log2Backward0"
    saves = (0,)
    function = staticmethod(np.log2)

    def backward(self, grad, inputs, output):
        return (grad / scale(inputs[0], 0.6931471805599453),)


class Log10(_Unary, Function):
    grad_fn_name = "Log10Backward0"
    saves = (0,)
    function = staticmethod(np.log10)

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
        a, b = _float(a), _float(b)
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


def _fused(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """x * y + z rounded once (the lerp kernel's fmadd)."""
    dtype = np.result_type(x, y, z)
    if dtype.itemsize < 8:
        wide = np.float64
        return (x.astype(wide) * y.astype(wide) + z.astype(wide)).astype(dtype)
    return np.asarray(x * y + z, dtype=dtype)


def lerp_values(start: np.ndarray, end: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """torch's lerp kernel: from whichever end is nearer to the weight, fused."""
    diff = end - start
    near_start = _fused(weight, diff, start)
    near_end = _fused(weight - np.ones((), dtype=weight.dtype), diff, end)
    return np.where(np.abs(weight) < 0.5, near_start, near_end)


class Lerp(Function):
    """lerp with a number weight: start + weight * (end - start)."""

    grad_fn_name = "LerpBackward0"
    promotes = True

    def forward(self, start, end, weight):
        self.weight = weight
        return lerp_values(start, end, np.asarray(weight, dtype=start.dtype))

    def backward(self, grad, inputs, output):
        return (scale(grad, 1 - self.weight) if self.needs[0] else None,
                scale(grad, self.weight) if self.needs[1] else None)


class LerpTensor(Function):
    """lerp with a tensor weight (LerpBackward1); the weight gets a gradient too."""

    grad_fn_name = "LerpBackward1"
    promotes = True
    saves = (0, 1, 2)

    def forward(self, start, end, weight):
        return lerp_values(start, end, weight)

    def backward(self, grad, inputs, output):
        start, end, weight = inputs
        return (grad * (1 - weight) if self.needs[0] else None,
                grad * weight if self.needs[1] else None,
                grad * (end - start) if self.needs[2] else None)
