"""Statistics over dims: var, std (and var_mean/std_mean), logsumexp, cumsum, amax and amin, as
PyTorch computes them.

var/std accumulate in float64 (torch's CPU Welford runs in double for float tensors) and round
once; cumsum adds in float64 and rounds each partial sum (torch's cumsum accumulates in double);
amax/amin share the gradient evenly among tied extremes (unlike max(dim), which picks one).
"""

from __future__ import annotations

import numpy as np

from engine.autograd import Function
from engine.ops import shape as shape_ops
from engine.ops.arith import DivScalar, scale
from engine.ops.numerics import torch_sum
from engine.ops.pointwise import vector_math, where
from engine.ops.reduce import SumDim, restore_reduced
from engine.ops.selection import MaskedFill, Scatter, zeros
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
            grad = restore_reduced(grad, self.input_shape, self.dims, self.keepdim)
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
        return super().backward(MaskedFill.apply(grad / (output * 2), 0, mask=output.array == 0),
                                inputs, output)


class VarMean(Function):
    """var_mean: (var, mean) from one node (VarMeanBackward0); StdMean returns the std."""

    grad_fn_name = "VarMeanBackward0"
    multi_output = True
    saves = (0,)
    spread: type[Var] = Var

    def forward(self, a, dims=None, correction=1, keepdim=False):
        self.dims, self.correction, self.keepdim, self.input_shape = dims, correction, keepdim, \
            a.shape
        spread = self.spread.forward(self.spread.__new__(self.spread), a, dims, correction,
                                     keepdim)
        mean = a.astype(np.float64).mean(axis=dims, keepdims=keepdim)
        return spread, np.asarray(mean).astype(a.dtype)

    def backward(self, grads, inputs, output):
        # the spread's derivative plus mean's (grad expanded, divided by the count); an output
        # no gradient reached (zeros here, undefined in PyTorch) adds nothing
        grad_spread, grad_mean = grads
        (a,) = inputs
        parts = []
        if grad_spread.array.any():
            spread = self.spread.__new__(self.spread)
            spread.dims, spread.correction = self.dims, self.correction
            spread.keepdim, spread.input_shape = self.keepdim, self.input_shape
            value = self.spread.apply(a, dims=self.dims, correction=self.correction,
                                      keepdim=self.keepdim)  # differentiable: create_graph
            parts.append(spread.backward(grad_spread, inputs, value)[0])
        if grad_mean.array.any() or not parts:
            expanded = shape_ops.expand_to(restore_reduced(
                grad_mean, self.input_shape, self.dims, self.keepdim), self.input_shape)
            parts.append(DivScalar.apply(expanded, scalar=_count(self.input_shape, self.dims)))
        return (parts[0] if len(parts) == 1 else parts[0] + parts[1],)


class StdMean(VarMean):
    grad_fn_name = "StdMeanBackward0"
    spread = Std


class Logsumexp(Function):
    """log(sum(exp(x))) over dims, shifted by the max so that it does not overflow, as ATen
    computes it in the tensor's dtype: exp_ and log_ (MKL's), the sum in its cascade order."""

    grad_fn_name = "LogsumexpBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a, dims, keepdim=False):
        self.dims, self.keepdim, self.input_shape = dims, keepdim, a.shape
        a = a if a.dtype.kind == "f" else a.astype(np.float32)
        top = np.max(a, axis=dims, keepdims=True)
        top = np.where(np.isinf(top), a.dtype.type(0), top).astype(a.dtype)
        total = torch_sum(vector_math("exp", np.exp, a - top), dims, True)
        result = (vector_math("log", np.log, total) + top).astype(a.dtype)
        return result if keepdim else np.squeeze(result, axis=dims)

    def backward(self, grad, inputs, output):
        (a,) = inputs
        grad = restore_reduced(grad, self.input_shape, self.dims, self.keepdim)
        result = restore_reduced(output, self.input_shape, self.dims, self.keepdim)
        return (grad * (a - result).exp(),)


def _cumsum(a: np.ndarray, dim: int) -> np.ndarray:
    if a.ndim == 0:  # the running sum of one value
        return a.astype(np.int64) if a.dtype.kind in "biu" else a.copy()
    if a.dtype.kind in "biu":
        return np.cumsum(a.astype(np.int64), axis=dim)
    # PyTorch's kernel starts each running sum from +0 (in double for float): a leading -0
    # gives +0, as `+ 0.0` does here
    if a.dtype == np.float32:
        return (np.cumsum(a.astype(np.float64), axis=dim) + 0.0).astype(np.float32)
    return np.cumsum(a, axis=dim) + np.zeros((), dtype=a.dtype)


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
        grad = restore_reduced(grad, self.input_shape, self.dims, self.keepdim)
        result = restore_reduced(output, self.input_shape, self.dims, self.keepdim)
        hits = (a.array == result.array).astype(a.array.dtype)
        counts = hits.sum(axis=self.dims, keepdims=True)
        return (shape_ops.expand_to(grad, self.input_shape) * Tensor._wrap(hits / counts),)


class Amin(Amax):
    grad_fn_name = "AminBackward0"
    pick = staticmethod(np.min)


def _cumprod(a: np.ndarray, dim: int) -> np.ndarray:
    if a.ndim == 0:  # the running product of one value
        return a.astype(np.int64) if a.dtype.kind in "biu" else a.copy()
    if a.dtype.kind in "biu":
        return np.cumprod(a.astype(np.int64), axis=dim)
    return np.cumprod(a, axis=dim)  # sequential products, one rounding each: torch's order



class Cumprod(Function):
    grad_fn_name = "CumprodBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a, dim):
        self.dim = dim
        return _cumprod(a, dim)

    def backward(self, grad, inputs, output):
        (a,) = inputs
        dim = self.dim
        if a.array.size <= 1 or a.shape_tuple[dim] == 1:
            return (grad,)
        dims = (dim,)
        if (a.array != 0).all():  # the reversed cumsum of grad * result, over the input
            weighted = grad * output
            summed = shape_ops.Flip.apply(
                Cumsum.apply(shape_ops.Flip.apply(weighted, dims=dims), dim=dim), dims=dims)
            return (summed / a,)
        # zeros in the input: for each position k, the products with x_k taken as 1
        size = a.shape_tuple[dim]
        parts = []
        for k in range(size):
            mask = np.zeros(a.shape_tuple, dtype=bool)
            np.moveaxis(mask, dim, 0)[k] = True
            replaced = where(mask, 1.0, a)
            products = Cumprod.apply(replaced, dim=dim)
            later = np.moveaxis(np.zeros(a.shape_tuple, dtype=grad.array.dtype), dim, 0)
            later[k:] = 1
            keep = Tensor._wrap(np.moveaxis(later, 0, dim))
            parts.append(SumDim.apply(grad * products * keep, dims=(dim,), keepdim=True))
        return (shape_ops.cat(parts, dim=dim),)



class Median(Function):
    """median of all elements (the lower of the two middle values); ties share the gradient
    (PyTorch's evenly_distribute_backward)."""

    grad_fn_name = "MedianBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a):
        if a.size == 0:
            return np.asarray(np.nan, dtype=a.dtype)
        flat = np.sort(a.reshape(-1), kind="stable")
        if a.dtype.kind == "f" and np.isnan(flat).any():
            return np.asarray(np.nan, dtype=a.dtype)
        return np.asarray(flat[(flat.size - 1) // 2])

    def backward(self, grad, inputs, output):
        (a,) = inputs
        hits = a.array == output.array
        if np.isnan(output.array):
            hits = np.isnan(a.array)
        share = hits.astype(grad.array.dtype) / max(1, int(hits.sum()))
        return (grad * Tensor._wrap(share),)



class MedianDim(Function):
    """median along a dim: the value at the returned index gets the gradient."""

    grad_fn_name = "MedianBackward1"
    saves_state = True
    released_state = ("indices",)

    def forward(self, a, dim, keepdim, indices):
        self.dim, self.keepdim, self.indices, self.input_shape = dim, keepdim, indices, a.shape
        values = np.take_along_axis(a, indices, axis=dim)
        return values if keepdim else np.squeeze(values, axis=dim)

    def backward(self, grad, inputs, output):
        if not self.keepdim:
            grad = grad.unsqueeze(self.dim)
        # PyTorch's value_selecting_reduction_backward: zeros.scatter(dim, indices, grad)
        return (Scatter.apply(zeros(self.input_shape, grad), grad, dim=self.dim,
                              index=self.indices),)



class KthvalueDim(MedianDim):
    """kthvalue along a dim: the value at the returned index gets the gradient."""

    grad_fn_name = "KthvalueBackward0"


def median_indices(a: np.ndarray, dim: int) -> np.ndarray:
    """Index of the lower median along `dim` (keepdims), NaN counting as the largest."""
    order = np.argsort(a, axis=dim, kind="stable")
    size = a.shape[dim]
    middle = np.take(order, [(size - 1) // 2], axis=dim)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        if nan.any():
            first_nan = np.argmax(nan, axis=dim, keepdims=True)
            middle = np.where(nan.any(axis=dim, keepdims=True), first_nan, middle)
    return middle.astype(np.int64)
