"""Reductions (sum, mean, prod, max, min) and the softmax family, with `dim` and `keepdim`."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import budget, float_math
from engine.autograd import Function, plain_arrays
from engine.ops import numerics
from engine.ops import shape as shape_ops
from engine.ops.arith import DivScalar
from engine.ops.numerics import torch_sum
from engine.ops.pointwise import Sgn, float_input, where
from engine.ops.selection import MaskedFill, MaskedFillTensor, Scatter
from engine.ops.strided import broadcast_view
from engine.tensor import Tensor, normalize_dim


def reduced_dims(dim: Any, ndim: int) -> tuple[int, ...]:
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    seen: list[int] = []
    for d in dims:
        d = normalize_dim(d, ndim)
        if d in seen:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        seen.append(d)
    if ndim == 0:  # a 0-dim tensor's dim 0 (or -1) is the tensor itself: nothing to reduce
        return ()
    return tuple(sorted(seen))


def restore_reduced(grad: Tensor, input_shape: tuple[int, ...], dims: tuple[int, ...] | None,
                    keepdim: bool) -> Tensor:
    """Broadcastable form of a reduced gradient: put the reduced dims back as size 1."""
    if dims is None or keepdim or not input_shape:
        return grad
    for d in sorted(dims):  # one unsqueeze per dim, as PyTorch's sum_backward does
        grad = shape_ops.unsqueeze(grad, d)
    return grad


class Sum(Function):
    grad_fn_name = "SumBackward0"

    def forward(self, a, dims=None, keepdim=False, dtype=None):
        self.input_shape, self.dims, self.keepdim = a.shape, dims, keepdim
        if dtype is not None:
            a = a.astype(dtype)
        elif a.dtype.kind in "biu":
            a = a.astype(np.int64)
        return torch_sum(a, dims, keepdim)

    def array_backward(self, grad, inputs, output):
        if self.dims is not None and not self.keepdim and self.input_shape:
            grad = np.expand_dims(grad, tuple(sorted(self.dims)))  # restore_reduced's shape
        return (grad if grad.shape == self.input_shape
                else broadcast_view(grad, self.input_shape),)

    def backward(self, grad, inputs, output):
        grad = restore_reduced(grad, self.input_shape, self.dims, self.keepdim)
        return (shape_ops.expand_to(grad, self.input_shape),)


class SumDim(Sum):
    grad_fn_name = "SumBackward1"


class Mean(Function):
    grad_fn_name = "MeanBackward0"

    def forward(self, a, dims=None, keepdim=False, dtype=None):
        if dtype is not None:
            a = a.astype(dtype)
        if a.dtype.kind != "f":
            raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either "
                               "a floating point or complex dtype. Got: "
                               f"{_type_word(a.dtype)}")
        self.input_shape, self.dims, self.keepdim = a.shape, dims, keepdim
        count = a.size if dims is None else int(np.prod([a.shape[d] for d in dims]))
        self.count = count
        # PyTorch's CPU mean is sum(...).div_(count), in the tensor's dtype
        return torch_sum(a, dims, keepdim) / np.asarray(count, dtype=a.dtype) if count else np.full(
            np.sum(a, axis=dims, keepdims=keepdim).shape, np.nan, dtype=a.dtype)

    def array_backward(self, grad, inputs, output):
        (expanded,) = Sum.array_backward(self, grad, inputs, output)  # type: ignore[arg-type]
        return (expanded / np.asarray(self.count, dtype=expanded.dtype),)  # DivScalar's

    def backward(self, grad, inputs, output):
        restored = restore_reduced(grad, self.input_shape, self.dims, self.keepdim)
        expanded = shape_ops.expand_to(restored, self.input_shape)
        return (DivScalar.apply(expanded, scalar=self.count),)  # PyTorch: tensor / number


class MeanDim(Mean):
    grad_fn_name = "MeanBackward1"


def _type_word(dtype: np.dtype) -> str:
    return {"i": "Long", "b": "Bool", "u": "Byte", "f": "Float"}[dtype.kind]


class Prod(Function):
    grad_fn_name = "ProdBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a, dim=None, keepdim=False):
        self.dim, self.keepdim, self.input_shape = dim, keepdim, a.shape
        if a.dtype.kind in "biu":
            a = a.astype(np.int64)
        return np.prod(a, axis=dim, keepdims=keepdim)

    def backward(self, grad, inputs, output):
        (a,) = inputs
        dims = None if self.dim is None else (self.dim,)
        grad = restore_reduced(grad, self.input_shape, dims, self.keepdim)
        out = restore_reduced(output, self.input_shape, dims, self.keepdim)
        if not (a.array == 0).any():
            return (grad * (out / a),)
        # With zeros, out / a is undefined: use the product of the other elements instead.
        others = _product_of_others(a.array, self.dim)
        return (grad * Tensor._wrap(others),)


class ProdDim(Prod):
    grad_fn_name = "ProdBackward1"


def _product_of_others(a: np.ndarray, dim: int | None) -> np.ndarray:
    """For each element, the product of the other elements along `dim` (all, if None)."""
    flat = a.reshape(-1) if dim is None else np.moveaxis(a, dim, -1)
    left = np.cumprod(np.concatenate([np.ones_like(flat[..., :1]), flat[..., :-1]], -1), -1)
    right = np.flip(np.cumprod(np.concatenate(
        [np.ones_like(flat[..., :1]), np.flip(flat, -1)[..., :-1]], -1), -1), -1)
    result = left * right
    return result.reshape(a.shape) if dim is None else np.moveaxis(result, -1, dim)


class MaxAll(Function):
    """max()/min() over all elements: the gradient is shared evenly among ties (PyTorch's rule)."""

    grad_fn_name = "MaxBackward1"
    saves = (0,)
    saves_output = True
    reduce = staticmethod(np.max)

    def forward(self, a):
        if a.size == 0:
            raise RuntimeError("max(): Expected reduction dim to be specified for input.numel() "
                               "== 0. Specify the reduction dim with the 'dim' argument.")
        return self.reduce(a)

    def backward(self, grad, inputs, output):
        # PyTorch: zeros.masked_fill_(mask, grad / mask.sum()), the ties sharing evenly
        (a,) = inputs
        mask = (a.array == output.array) | (np.isnan(a.array) & np.isnan(output.array))
        share = grad / Tensor._wrap(np.asarray(mask.sum(), dtype=np.int64))
        zeros = Tensor._wrap(np.zeros(a.array.shape, dtype=grad.array.dtype))
        return (MaskedFillTensor.apply(zeros, share, mask=mask),)


class MinAll(MaxAll):
    grad_fn_name = "MinBackward1"
    reduce = staticmethod(np.min)


class MaxDim(Function):
    """max(dim)/min(dim): values; the gradient goes to the index returned (the first extreme)."""

    grad_fn_name = "MaxBackward0"
    arg = staticmethod(np.argmax)
    saves_state = True  # PyTorch saves the indices
    released_state = ("indices",)

    def forward(self, a, dim, keepdim=False):
        self.dim, self.keepdim, self.input_shape = dim, keepdim, a.shape
        if a.ndim == 0:
            self.indices = np.zeros((), dtype=np.int64)
            return a.copy()
        self.indices = self.arg(a, axis=dim, keepdims=True)
        values = np.take_along_axis(a, self.indices, axis=dim)
        if not keepdim:
            values = np.squeeze(values, axis=dim)
        return values

    def backward(self, grad, inputs, output):
        grad = restore_reduced(grad, self.input_shape, (self.dim,), self.keepdim)
        if not self.input_shape:
            return (grad,)
        # PyTorch: zeros.scatter_(dim, indices, grad), each value back where it was read
        zeros = Tensor._wrap(np.zeros(self.input_shape, dtype=grad.array.dtype))
        return (Scatter.apply(zeros, grad, dim=self.dim, index=self.indices),)


class MinDim(MaxDim):
    grad_fn_name = "MinBackward0"
    arg = staticmethod(np.argmin)


class Maximum(Function):
    """Elementwise max(a, b): on ties each side gets half the gradient."""

    grad_fn_name = "MaximumBackward0"
    promotes = True
    saves = (0, 1)
    pick = staticmethod(float_math.maximum)

    def forward(self, a, b):
        return self.pick(a, b)

    def backward(self, grad, inputs, output):
        # PyTorch: where(a == b, grad / 2, grad).masked_fill_(a loses to b, 0), and so for b
        a, b = inputs
        shape = grad.array.shape
        grads = []
        for needed, mine, theirs in ((self.needs[0], a.array, b.array),
                                     (self.needs[1], b.array, a.array)):
            if not needed:
                grads.append(None)
                continue
            shared = where(mine == theirs, DivScalar.apply(grad, scalar=2), grad)
            loses = np.broadcast_to(self.loses(mine, theirs), shape)
            grads.append(MaskedFill.apply(shared, 0, mask=loses))
        return grads

    @staticmethod
    def loses(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        return mine < theirs


class Minimum(Maximum):
    grad_fn_name = "MinimumBackward0"
    pick = staticmethod(float_math.minimum)

    @staticmethod
    def loses(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        return mine > theirs


def _float32_lastdim(a: np.ndarray, dim: int) -> bool:
    """PyTorch's vectorized last-dim softmax kernels apply (emulated bit for bit)."""
    return a.dtype == np.float32 and a.ndim >= 1 and dim in (a.ndim - 1, -1)


def _exp(a: np.ndarray) -> np.ndarray:
    return np.exp(a.astype(np.float64)).astype(a.dtype) if a.dtype == np.float32 else np.exp(a)


class SoftmaxBackwardData(Function):
    """softmax's derivative as its own op: y * (grad - sum(grad * y))."""

    grad_fn_name = "SoftmaxBackwardDataBackward0"
    saves = (0, 1)

    def forward(self, grad, y, dim):
        self.dim = dim
        if _float32_lastdim(grad, dim) and y.dtype == np.float32:
            return (grad - numerics.reduce_all_sum(grad * y)[..., None]) * y  # torch's order
        return y * (grad - (grad * y).sum(axis=dim, keepdims=True))

    def backward(self, gg, inputs, output):
        grad, y = inputs
        dim = self.dim
        grad_grad = y * (gg - (gg * y).sum(dim, keepdim=True))
        grad_y = gg * (grad - (grad * y).sum(dim, keepdim=True)) - grad * (gg * y).sum(
            dim, keepdim=True)
        return grad_grad, grad_y


class Softmax(Function):
    """softmax along `dim` (log_softmax when `log`); each derivative is its own op below."""

    grad_fn_name = "SoftmaxBackward0"
    saves_output = True
    log = False

    def forward(self, a, dim):
        self.dim = dim
        a = float_input(a)
        if _float32_lastdim(a, dim):
            return numerics.softmax_lastdim(a, log=self.log)
        shifted = a - np.max(a, axis=dim, keepdims=True)
        if self.log:
            return shifted - np.log(_exp(shifted).sum(axis=dim, keepdims=True))
        shifted = _exp(shifted)
        return shifted / shifted.sum(axis=dim, keepdims=True)

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, output)
        if arrays is None:
            return None
        derivative = LogSoftmaxBackwardData if self.log else SoftmaxBackwardData
        return (derivative.__new__(derivative).forward(*arrays, dim=self.dim),)  # its op's kernel

    def backward(self, grad, inputs, output):
        derivative = LogSoftmaxBackwardData if self.log else SoftmaxBackwardData
        return (derivative.apply(grad, output, dim=self.dim),)


class LogSoftmax(Softmax):
    grad_fn_name = "LogSoftmaxBackward0"
    log = True


class LogSoftmaxBackwardData(Function):
    """log_softmax's derivative as its own op: grad - exp(y) * sum(grad)."""

    grad_fn_name = "LogSoftmaxBackwardDataBackward0"
    saves = (0, 1)

    def forward(self, grad, y, dim):
        self.dim = dim
        if _float32_lastdim(grad, dim) and y.dtype == np.float32:
            total = numerics.reduce_all_sum(grad)[..., None]  # grad - exp(y) * total, fused
            return (grad.astype(np.float64) - numerics.sleef_expf(y).astype(np.float64) * total
                    ).astype(np.float32)
        return grad - _exp(y) * grad.sum(axis=dim, keepdims=True)

    def backward(self, gg, inputs, output):
        grad, y = inputs
        soft = y.exp()
        grad_grad = gg - (gg * soft).sum(self.dim, keepdim=True)
        grad_y = -(gg * soft * grad.sum(self.dim, keepdim=True))
        return grad_grad, grad_y


def _trailing_axes(ndim: int, dims: Any) -> int | None:
    """How many trailing axes `dims` (None: all) reduces; None if they are not the last ones."""
    if dims is None:
        return ndim
    axes = sorted({d % ndim if ndim else 0 for d in ((dims,) if isinstance(dims, int) else dims)})
    return len(axes) if axes == list(range(ndim - len(axes), ndim)) else None


def _float32_norm2_lastdim(a: np.ndarray, count: int, keepdim: bool) -> np.ndarray:
    """ATen's vectorized 2-norm over a contiguous float32 last dim, bit for bit: squares summed
    into 8 lanes, the lanes folded left, then the rest (fewer than 8) added one by one, the
    compiler's 4-wide part of that loop as rounded squares and the last 1-3 with an FMA."""
    kept = a.shape[:a.ndim - count]
    n = int(np.prod(a.shape[a.ndim - count:], dtype=np.int64))
    rows = np.ascontiguousarray(a).reshape(-1, n)
    body = n - n % 8
    total = np.zeros(len(rows), np.float32)
    if body:
        squares = (rows[:, :body] * rows[:, :body]).reshape(len(rows), -1, 8)
        lanes = np.cumsum(squares, axis=1, dtype=np.float32)[:, -1]
        total = np.cumsum(lanes, axis=1, dtype=np.float32)[:, -1]
    fused = body + (n - body) // 4 * 4
    for column in range(body, n):
        x = rows[:, column]
        if column < fused:
            total = total + x * x
        else:  # x * x + total fused: the float64 product is exact (a rare tie aside)
            total = (x.astype(np.float64) * x + total).astype(np.float32)
    result = np.sqrt(total).reshape(kept)
    return result.reshape(kept + (1,) * count) if keepdim else result


def vector_norm(a: np.ndarray, ord: float, dims: Any = None, keepdim: bool = False
                ) -> np.ndarray:
    """The `ord`-norm of `a` over `dims` (None: all), in a's dtype."""
    absolute = np.abs(a)
    if ord == np.inf:
        return absolute.max(axis=dims, keepdims=keepdim)
    if ord == -np.inf:
        return absolute.min(axis=dims, keepdims=keepdim)
    if ord == 0:
        return (absolute != 0).sum(axis=dims, keepdims=keepdim).astype(a.dtype)
    if ord == 1:
        return absolute.sum(axis=dims, keepdims=keepdim)
    if ord == 2:
        trailing = _trailing_axes(a.ndim, dims)
        if a.dtype == np.float32 and a.size and trailing is not None:
            return _float32_norm2_lastdim(a, trailing, keepdim)
        return np.sqrt((a * a).sum(axis=dims, keepdims=keepdim))
    return ((absolute ** ord).sum(axis=dims, keepdims=keepdim) ** (1 / ord)).astype(a.dtype)


class LinalgVectorNorm(Function):
    """torch.norm / t.norm / linalg.vector_norm for a number `ord` over `dims` (None: all)."""

    grad_fn_name = "LinalgVectorNormBackward0"
    saves: tuple[int, ...] = (0,)
    saves_output = True

    def forward(self, a, ord, dims, keepdim):
        self.ord, self.dims, self.keepdim, self.input_shape = ord, dims, keepdim, a.shape
        return vector_norm(a, ord, dims, keepdim)

    def backward(self, grad, inputs, output):
        (a,) = inputs
        grad = restore_reduced(grad, self.input_shape, self.dims, self.keepdim)
        norm = restore_reduced(output, self.input_shape, self.dims, self.keepdim)
        p = self.ord
        if p == 0:
            return (Tensor._wrap(np.zeros(self.input_shape, dtype=a.array.dtype)),)
        if p == 1:
            return (grad * Sgn.apply(a),)
        if p in (np.inf, -np.inf):
            # the gradient is shared evenly among the elements that reach the norm
            hits = np.abs(a.array) == norm.array
            share = hits / hits.sum(axis=self.dims, keepdims=True)
            return (grad * Sgn.apply(a) * Tensor._wrap(share.astype(a.array.dtype)),)
        zero = norm.array == 0
        # PyTorch's formulas: self * (grad / norm), self |self|^(p-2) (grad / norm^(p-1))
        if p == 2:  # PyTorch: grad * (self / norm).masked_fill_(norm == 0, 0)
            mask = np.broadcast_to(zero, self.input_shape)
            return (grad * MaskedFill.apply(a / norm, 0, mask=mask),)
        return (a * a.abs() ** (p - 2) * where(zero, 0.0, grad / norm ** (p - 1)),)


class Dist(LinalgVectorNorm):
    """torch.dist(a, b, p): the p-norm of a - b (broadcast), one node."""

    grad_fn_name = "DistBackward0"
    saves = (0, 1)
    promotes = True

    def forward(self, a, b, p):
        return super().forward(a - b, p, None, False)

    def backward(self, grad, inputs, output):
        a, b = inputs
        (g,) = super().backward(grad, (a - b,), output)
        return (shape_ops.sum_to(g, a.shape_tuple) if self.needs[0] else None,
                -shape_ops.sum_to(g, b.shape_tuple) if self.needs[1] else None)


class Norm(LinalgVectorNorm):
    """ATen's at::norm(x, p, dim), which C++ composites call (pairwise_distance)."""

    grad_fn_name = "NormBackward1"


class Nansum(Function):
    """sum with NaNs counted as zero; the gradient reaches only the numbers."""

    grad_fn_name = "NansumBackward0"
    saves = (0,)

    def forward(self, a, dims=None, keepdim=False):
        self.input_shape, self.dims, self.keepdim = a.shape, dims, keepdim
        return torch_sum(np.where(np.isnan(a), np.zeros((), a.dtype), a), dims, keepdim)

    def backward(self, grad, inputs, output):
        (a,) = inputs
        grad = shape_ops.expand_to(restore_reduced(grad, self.input_shape, self.dims,
                                                   self.keepdim), self.input_shape)
        return (grad * Tensor._wrap((~np.isnan(a.array)).astype(a.array.dtype)),)


class Cdist(Function):
    """The p-norm distance of every row of x1 to every row of x2 (torch's direct kernel); its
    derivative, like PyTorch's _cdist_backward, is not differentiable again."""

    grad_fn_name = "CdistBackward0"
    saves = (0, 1)
    saves_output = True

    def forward(self, x1, x2, p=2.0):
        self.p = p
        # the float64 differences of every pair of rows, batches broadcast, are made first
        budget.check_broadcast((x1.shape[:-1] + (1, x1.shape[-1]),
                                x2.shape[:-2] + (1,) + x2.shape[-2:]), 8)
        difference = np.abs(x1[..., :, None, :].astype(np.float64)
                            - x2[..., None, :, :].astype(np.float64))
        return vector_norm(difference, p, dims=(-1,)).astype(x1.dtype)

    def backward(self, grad, inputs, output):
        x1, x2 = inputs
        diff = x1.array[..., :, None, :] - x2.array[..., None, :, :]
        dist = output.array[..., None]
        p = self.p
        with np.errstate(divide="ignore", invalid="ignore"):
            if p == 1:
                local = np.sign(diff)
            elif p == 2:
                local = diff / dist
            elif p == np.inf:
                local = np.sign(diff) * (np.abs(diff) == dist)
            else:
                local = np.sign(diff) * np.abs(diff) ** (p - 1) / dist ** (p - 1)
        local = np.where(dist == 0, np.zeros((), diff.dtype), local).astype(diff.dtype)
        pairs = grad.array[..., None] * local
        return (Tensor._wrap(pairs.sum(axis=-2)) if self.needs[0] else None,
                Tensor._wrap(-pairs.sum(axis=-3)) if self.needs[1] else None)
