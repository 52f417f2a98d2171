"""Pooling over the last one or two dims: max (MaxPool2DWithIndicesBackward0), average
(AvgPool2DBackward0) and adaptive average (AdaptiveAvgPool2DBackward0), as PyTorch's CPU kernels
compute them. Every leading dim is a plane of its own. The derivatives are ops (IndexAdd,
Col2Im, matmul), so they are differentiable again.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import budget
from engine.autograd import Function
from engine.ops.convolution import LOOP_STEPS, Col2Im, Pads, windows
from engine.ops.selection import IndexAdd
from engine.ops.shape import expand_to, reshape
from engine.tensor import Tensor


def pooled_length(size: int, kernel: int, stride: int, pad: int, dilation: int,
                  ceil_mode: bool) -> int:
    """PyTorch's pooling_output_shape: with ceil_mode the last window may start in the right
    padding, but not past it."""
    span = size + 2 * pad - dilation * (kernel - 1) - 1
    length = (span + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (length - 1) * stride >= size + pad:
        length -= 1
    return length


def _pads(size: tuple[int, ...], lengths: tuple[int, ...], kernel: tuple[int, ...],
          stride: tuple[int, ...], padding: tuple[int, ...], dilation: tuple[int, ...]) -> Pads:
    """(before, after) per dim: after as far as the last window reaches (ceil_mode)."""
    return tuple((p, max(p, (n - 1) * s + d * (k - 1) + 1 - size_ - p))
                 for size_, n, k, s, p, d in zip(size, lengths, kernel, stride, padding,
                                                 dilation, strict=True))


def _planes(x: np.ndarray, count: int) -> np.ndarray:
    """(..., *S) -> (P, 1, *S): each leading index a plane of one channel."""
    return x.reshape(-1, 1, *x.shape[x.ndim - count:])


class MaxPool(Function):
    """The largest value of each window (NaN wins, the first of equals), and where it was."""

    grad_fn_name = "MaxPool2DWithIndicesBackward0"
    saves_state = True
    released_state = ("flat",)

    def forward(self, x: np.ndarray, kernel: tuple[int, ...] = (), stride: tuple[int, ...] = (),
                padding: tuple[int, ...] = (), dilation: tuple[int, ...] = (),
                lengths: tuple[int, ...] = ()) -> np.ndarray:
        count = len(kernel)
        size = x.shape[x.ndim - count:]
        pads = _pads(size, lengths, kernel, stride, padding, dilation)
        fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
        view = windows(_planes(x, count), kernel, stride, dilation, pads, fill)
        view = view[(slice(None), 0) + tuple(slice(0, n) for n in lengths)]
        budget.check_shape(view.shape, x.itemsize)
        flat_windows = view.reshape(*view.shape[:1 + count], -1)
        best = np.argmax(flat_windows, axis=-1)  # argmax takes the first NaN, as PyTorch does
        out = np.take_along_axis(flat_windows, best[..., None], axis=-1)[..., 0]
        # the input position of each maximum, counted within its plane (PyTorch's indices)
        offsets = np.unravel_index(best, kernel)
        position = np.zeros(best.shape, dtype=np.int64)
        for axis in range(count):
            grid = np.arange(lengths[axis]).reshape((-1,) + (1,) * (count - 1 - axis))
            coordinate = grid * stride[axis] - padding[axis] + offsets[axis] * dilation[axis]
            position = position * size[axis] + coordinate
        self.indices = position.reshape(x.shape[:x.ndim - count] + tuple(lengths))
        plane = np.arange(best.shape[0], dtype=np.int64).reshape((-1,) + (1,) * count)
        self.flat = (position + plane * math.prod(size)).reshape(-1)
        self.shape = x.shape
        return out.reshape(self.indices.shape).astype(x.dtype)

    def backward(self, grad, inputs, output):
        zeros = Tensor._wrap(np.zeros(math.prod(self.shape), dtype=grad.array.dtype))
        summed = IndexAdd.apply(zeros, reshape(grad, (-1,)), dim=0, index=self.flat)
        return (reshape(summed, self.shape),)


def avg_divisors(size: tuple[int, ...], lengths: tuple[int, ...], kernel: tuple[int, ...],
                 stride: tuple[int, ...], padding: tuple[int, ...], count_include_pad: bool,
                 divisor_override: int | None) -> np.ndarray:
    """What each window's sum is divided by, PyTorch's way: the window clipped to the padded
    input (count_include_pad) or to the input itself."""
    if divisor_override is not None:
        return np.full(lengths, divisor_override, dtype=np.int64)
    divisor = np.ones(lengths, dtype=np.int64)
    for axis, (n, k, s, p, length) in enumerate(zip(size, kernel, stride, padding, lengths,
                                                    strict=True)):
        start = np.arange(length) * s - p
        end = np.minimum(start + k, n + p)
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, n)
        shape = [1] * len(lengths)
        shape[axis] = length
        divisor = divisor * (end - start).reshape(shape)
    return divisor


class AvgPool(Function):
    """The mean of each window: its values added in row-major order, then divided."""

    grad_fn_name = "AvgPool2DBackward0"

    def forward(self, x: np.ndarray, kernel: tuple[int, ...] = (), stride: tuple[int, ...] = (),
                padding: tuple[int, ...] = (), lengths: tuple[int, ...] = (),
                divisor: Any = None) -> np.ndarray:
        count = len(kernel)
        size = x.shape[x.ndim - count:]
        ones = (1,) * count
        self.pads = _pads(size, lengths, kernel, stride, padding, ones)
        self.params = (kernel, stride, size, divisor, x.shape)
        view = windows(_planes(x, count), kernel, stride, ones, self.pads)
        view = view[(slice(None), 0) + tuple(slice(0, n) for n in lengths)]
        if math.prod(kernel) > LOOP_STEPS:  # summed at once, in float64
            axes = tuple(range(1 + count, 1 + 2 * count))
            total = view.sum(axis=axes, dtype=np.float64).astype(x.dtype)
        else:  # in PyTorch's order: the window's values one by one, in row-major order
            total = np.zeros(view.shape[:1 + count], dtype=x.dtype)
            for offset in np.ndindex(*kernel):
                total = total + view[(Ellipsis,) + offset]
        out = total / divisor.astype(x.dtype)
        return out.reshape(x.shape[:x.ndim - count] + tuple(lengths)).astype(x.dtype)

    def backward(self, grad, inputs, output):
        kernel, stride, size, divisor, shape = self.params
        count = len(kernel)
        lengths = grad.shape_tuple[grad.ndim - count:]
        share = reshape(grad, (-1, 1, 1, math.prod(lengths))) / Tensor._wrap(
            divisor.reshape(1, 1, 1, -1).astype(grad.array.dtype))
        planes, cells = share.shape_tuple[0], math.prod(kernel)
        share = expand_to(share, (planes, 1, cells, share.shape_tuple[-1]))
        cols = reshape(share, (planes, cells, -1))
        image = Col2Im.apply(cols, size=size, kernel=kernel, stride=stride, dilation=(1,) * count,
                             pads=self.pads)
        return (reshape(image, shape),)


def adaptive_bounds(size: int, length: int) -> list[tuple[int, int]]:
    """PyTorch's adaptive windows: [floor(i * size / length), ceil((i + 1) * size / length))."""
    return [((i * size) // length, -((-(i + 1) * size) // length)) for i in range(length)]


def _membership(size: int, length: int) -> np.ndarray:
    """(length, size): 1 where input position j is in output window i."""
    table = np.zeros((length, size))
    for i, (start, end) in enumerate(adaptive_bounds(size, length)):
        table[i, start:end] = 1
    return table


class AdaptiveAvgPool(Function):
    """The mean of each adaptive window of the last two dims."""

    grad_fn_name = "AdaptiveAvgPool2DBackward0"

    def forward(self, x: np.ndarray, lengths: tuple[int, int] = (1, 1)) -> np.ndarray:
        # the float64 result, the product on its way and the two window tables, sized first
        budget.check_shape(x.shape[:-2] + tuple(lengths), 8)
        budget.check_shape(x.shape[:-2] + (lengths[0], x.shape[-1]), 8)
        budget.check_bytes(8 * sum(n * length for n, length in zip(x.shape[-2:], lengths,
                                                                    strict=True)),
                           f"the windows of an adaptive pool to {list(lengths)}")
        rows, cols = (_membership(n, length)
                      for n, length in zip(x.shape[-2:], lengths, strict=True))
        counts = rows.sum(axis=1)[:, None] * cols.sum(axis=1)[None, :]
        self.tables = (rows, cols, counts)
        acc = np.float64 if x.dtype.kind == "f" else x.dtype
        total = rows @ x.astype(acc) @ cols.T
        return (total / counts).astype(x.dtype)

    def backward(self, grad, inputs, output):
        rows, cols, counts = self.tables
        dtype = grad.array.dtype
        share = grad / Tensor._wrap(counts.astype(dtype))
        return (Tensor._wrap(rows.T.astype(dtype)) @ share @ Tensor._wrap(cols.astype(dtype)),)
