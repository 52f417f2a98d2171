"""Statistics over dims: var, std, logsumexp, cumsum, amax and amin, as PyTorch computes them.

var/std accumulate in float64 (torch's CPU Welford runs in double for float tensors) and round
once; cumsum adds in float64 and rounds each partial sum (torch's cumsum accumulates in double);
amax/amin share the gradient evenly among tied extremes (unlike max(dim), which picks one).
"""

from __future__ import annotations

import numpy as np

from engine.autograd import Function
from engine.ops import shape as shape_ops
from engine.ops.arith import scale
from engine.ops.reduce import _restore
from engine.ops.shape import Flip
from engine.tensor import Tensor


def _count(shape: tuple[int, ...], dims: tuple[int, ...] | None) -> int:
    return int(np.prod(shape)) if dims is None else int(np.prod([shape[d] for d in dims]))


class Var(Function):
    """sum((x - mean)^2) / (N - correction)."""

    grad_fn_name = "VarBackward0"
    saves = (0,)

    def forward(self, a, dims=None, correction=1, keepdim=False):
        self.dims, self.correction, self.keepdim, self.input_shape = dims, correction, keepdim, \
            a.shape
        wide = a.astype(np.float64)
        mean = wide.mean(axis=dims, keepdims=True)
        squares = ((wide - mean) ** 2).sum(axis=dims, keepdims=keepdim)
        divisor = max(0, _count(a.shape, dims) - correction)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(squares / divisor).astype(a.dtype)

    def backward(self, grad, inputs, output):
        # PyTorch's var_backward: (2 / (N - correction)) * grad * (self - mean)
        (a,) = inputs
        dof = _count(self.input_shape, self.dims) - self.correction
        if self.dims is None or a.ndim == 0:
            centered = a - a.mean()
            if dof <= 0:  # 2 / 0: nan where self == mean, infinity elsewhere
                blowup = np.where(centered.array == 0, np.nan, np.inf).astype(a.array.dtype)
                return (grad * Tensor._wrap(blowup),)
        else:
            grad = _restore(grad, self.input_shape, self.dims, self.keepdim)
            centered = a - a.mean(self.dims, keepdim=True)
        factor = 2.0 / dof if dof else float("inf")
        return (scale(grad, factor) * centered,)


class Std(Var):
    """sqrt(var); its gradient is var's scaled by 1 / (2 std)."""

    grad_fn_name = "StdBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a, dims=None, correction=1, keepdim=False):
        return np.sqrt(super().forward(a, dims, correction, keepdim))

    def backward(self, grad, inputs, output):
        # PyTorch: var's derivative of (grad / (2 std)).masked_fill_(std == 0, 0)
        from engine.ops.selection import MaskedFill

        return super().backward(MaskedFill.apply(grad / (output * 2), 0, mask=output.array == 0),
                                inputs, output)


class Logsumexp(Function):
    """log(sum(exp(x))) over dims, shifted by the max so that it does not overflow."""

    grad_fn_name = "LogsumexpBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a, dims, keepdim=False):
        self.dims, self.keepdim, self.input_shape = dims, keepdim, a.shape
        a = a if a.dtype.kind == "f" else a.astype(np.float32)
        top = np.max(a, axis=dims, keepdims=True)
        top = np.where(np.isinf(top), 0, top)
        wide = np.exp((a - top).astype(np.float64)).sum(axis=dims, keepdims=True)
        result = (np.log(wide) + top).astype(a.dtype)
        return result if keepdim else np.squeeze(result, axis=dims)

    def backward(self, grad, inputs, output):
        (a,) = inputs
        grad = _restore(grad, self.input_shape, self.dims, self.keepdim)
        result = _restore(output, self.input_shape, self.dims, self.keepdim)
        return (grad * (a - result).exp(),)


def _cumsum(a: np.ndarray, dim: int) -> np.ndarray:
    if a.dtype.kind in "biu":
        return np.cumsum(a.astype(np.int64), axis=dim)
    if a.dtype == np.float32:
        return np.cumsum(a.astype(np.float64), axis=dim).astype(np.float32)
    return np.cumsum(a, axis=dim)


class Cumsum(Function):
    grad_fn_name = "CumsumBackward0"

    def forward(self, a, dim):
        self.dim = dim
        return _cumsum(a, dim)

    def backward(self, grad, inputs, output):
        # PyTorch: the sum of the gradients at and after each position, grad.flip.cumsum.flip
        if grad.array.size <= 1 or grad.shape_tuple[self.dim] == 1:
            return (grad,)
        dims = (self.dim,)
        return (Flip.apply(Cumsum.apply(Flip.apply(grad, dims=dims), dim=self.dim), dims=dims),)


class Amax(Function):
    """amax over dims; tied extremes share the gradient evenly."""

    grad_fn_name = "AmaxBackward0"
    saves = (0,)
    saves_output = True
    pick = staticmethod(np.max)

    def forward(self, a, dims, keepdim=False):
        if a.size == 0:
            raise IndexError(f"{type(self).__name__.lower()}(): Expected reduction dim "
                             f"{dims[0] if dims else 0} to have non-zero size.")
        self.dims, self.keepdim, self.input_shape = dims, keepdim, a.shape
        return self.pick(a, axis=dims, keepdims=keepdim)

    def backward(self, grad, inputs, output):
        (a,) = inputs
        grad = _restore(grad, self.input_shape, self.dims, self.keepdim)
        result = _restore(output, self.input_shape, self.dims, self.keepdim)
        hits = (a.array == result.array).astype(a.array.dtype)
        counts = hits.sum(axis=self.dims, keepdims=True)
        return (shape_ops.expand_to(grad, self.input_shape) * Tensor._wrap(hits / counts),)


class Amin(Amax):
    grad_fn_name = "AminBackward0"
    pick = staticmethod(np.min)
