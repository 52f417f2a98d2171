"""Convolution as PyTorch records it: one node, ConvolutionBackward0 (PyTorch's `convolution`
op, plain or transposed), and the pair its derivative is written with: Im2Col (the node of
F.unfold) and Col2Im (of F.fold), each the other's adjoint, so every derivative is made of ops
and is differentiable again.

Shapes: an input is (N, C, *spatial) with one or two spatial dims; `pads` is a (before, after)
pair per spatial dim. The forward runs in numpy over the windows of the padded input (a
strided view), one tensordot per group, accumulated in float64 and rounded once to the
input's dtype.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from engine import budget
from engine.autograd import Function
from engine.ops.reduce import SumDim
from engine.ops.shape import reshape, transpose
from engine.tensor import Tensor

Pads = tuple[tuple[int, int], ...]
ALL2 = (slice(None), slice(None))  # the batch and channel dims, whole


def output_length(size: int, kernel: int, stride: int, pad: tuple[int, int],
                  dilation: int) -> int:
    """How many windows fit along one dim (floor, as PyTorch's convolution counts them)."""
    return (size + pad[0] + pad[1] - dilation * (kernel - 1) - 1) // stride + 1


def windows(x: np.ndarray, kernel: tuple[int, ...], stride: tuple[int, ...],
            dilation: tuple[int, ...], pads: Pads, fill: float = 0.0) -> np.ndarray:
    """(N, C, *S) -> a view (N, C, *L, *K): the (dilated) input patch of each output position,
    the input padded with `fill`."""
    count = len(kernel)
    if any(p != (0, 0) for p in pads):
        budget.check_shape(x.shape[:2] + tuple(n + a + b for n, (a, b) in zip(
            x.shape[2:], pads, strict=True)), x.itemsize)
        padded = np.pad(x, [(0, 0), (0, 0), *pads], constant_values=fill)
    else:
        padded = x
    span = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation, strict=True))
    view = sliding_window_view(padded, span, axis=tuple(range(2, 2 + count)))
    index = ((slice(None), slice(None)) + tuple(slice(None, None, s) for s in stride)
             + tuple(slice(None, None, d) for d in dilation))
    return view[index]


def unfold_array(x: np.ndarray, kernel: tuple[int, ...], stride: tuple[int, ...],
                 dilation: tuple[int, ...], pads: Pads) -> np.ndarray:
    """im2col: (N, C, *S) -> (N, C * prod(K), prod(L)), channel-major then kernel offset."""
    view = windows(x, kernel, stride, dilation, pads)
    count = len(kernel)
    lengths = view.shape[2:2 + count]
    shape = (x.shape[0], x.shape[1] * math.prod(kernel), math.prod(lengths))
    budget.check_shape(shape, x.itemsize)
    order = (0, 1, *range(2 + count, 2 + 2 * count), *range(2, 2 + count))
    return np.ascontiguousarray(view.transpose(order)).reshape(shape)


def fold_array(cols: np.ndarray, size: tuple[int, ...], kernel: tuple[int, ...],
               stride: tuple[int, ...], dilation: tuple[int, ...], pads: Pads) -> np.ndarray:
    """col2im: (N, C * prod(K), prod(L)) -> (N, C, *size), overlapping windows added up."""
    lengths = tuple(output_length(n, k, s, p, d)
                    for n, k, s, p, d in zip(size, kernel, stride, pads, dilation, strict=True))
    channels = cols.shape[1] // math.prod(kernel)
    blocks = cols.reshape(cols.shape[0], channels, *kernel, *lengths)
    padded_size = tuple(n + p[0] + p[1] for n, p in zip(size, pads, strict=True))
    budget.check_shape((cols.shape[0], channels, *padded_size), cols.itemsize)
    out = np.zeros((cols.shape[0], channels, *padded_size), dtype=cols.dtype)
    if math.prod(kernel) > LOOP_STEPS:  # one scatter-add instead of a loop per offset
        grids = np.meshgrid(*(np.arange(k) * d for k, d in zip(kernel, dilation, strict=True)),
                            *(np.arange(n) * s for n, s in zip(lengths, stride, strict=True)),
                            indexing="ij")
        position = np.zeros(grids[0].shape, dtype=np.int64)
        for axis, extent in enumerate(padded_size):
            position = position * extent + grids[axis] + grids[len(kernel) + axis]
        flat = out.reshape(cols.shape[0] * channels, -1)
        rows = np.arange(flat.shape[0])[:, None]
        np.add.at(flat, (rows, position.reshape(1, -1)),
                  blocks.reshape(cols.shape[0] * channels, -1))
    else:
        for offset in np.ndindex(*kernel):
            where = tuple(slice(o * d, o * d + s * (n - 1) + 1, s)
                          for o, d, s, n in zip(offset, dilation, stride, lengths, strict=True))
            out[ALL2 + where] += blocks[ALL2 + offset]
    crop = tuple(slice(p[0], p[0] + n) for n, p in zip(size, pads, strict=True))
    return out[ALL2 + crop]


def _accumulator(dtype: np.dtype) -> np.dtype:
    return np.dtype(np.float64) if dtype.kind == "f" and dtype.itemsize < 8 else dtype


FUSED_WORK = 1 << 25  # multiply-adds up to which float32 sums are made in PyTorch's order
LOOP_STEPS = 1024  # the most steps (kernel offsets, channels) a loop here takes one by one


def uses_mkldnn(x: np.ndarray, w: np.ndarray, groups: int) -> bool:
    """Whether PyTorch's CPU convolution of float32 goes to oneDNN (ConvParams::use_mkldnn,
    on a multi-threaded build): else its native im2col + gemm path."""
    kernel = w.shape[2:]
    return (groups > 1 or (len(kernel) == 2 and min(kernel) > 3) or x.shape[0] > 1
            or x.size > 20480)


def convolve_array(x: np.ndarray, w: np.ndarray, stride: tuple[int, ...], pads: Pads,
                   dilation: tuple[int, ...], groups: int) -> np.ndarray:
    """The plain convolution: x (N, C, *S), w (O, C/groups, *K) -> (N, O, *L).

    float32 adds its products one at a time with a fused multiply-add, as PyTorch's kernels
    do: over (channel, kernel offset) on the native path, over (kernel offset, channel) in
    oneDNN; that gives PyTorch's float32 bits in the cases measured (not for oneDNN with 32
    or more channels, whose blocking is its own). Other dtypes, and large convolutions, are
    summed in float64 (or as integers) and rounded once."""
    kernel = w.shape[2:]
    count = len(kernel)
    view = windows(x, kernel, stride, dilation, pads)
    lengths = view.shape[2:2 + count]
    budget.check_shape((x.shape[0], w.shape[0], *lengths), x.itemsize)
    per_in, per_out = w.shape[1], w.shape[0] // groups
    work = x.shape[0] * math.prod(lengths) * w.shape[0] * per_in * math.prod(kernel)
    if x.dtype == np.float32 and work <= FUSED_WORK and per_in * math.prod(kernel) <= LOOP_STEPS:
        offsets = list(np.ndindex(*kernel))
        mkldnn = uses_mkldnn(x, w, groups)
        if mkldnn and groups == 1:
            order = [(c, k) for k in offsets for c in range(per_in)]
        else:
            order = [(c, k) for c in range(per_in) for k in offsets]
        # the native path's gemm (O x K by K x L): MKL fuses for at least 4 rows, 12 columns
        fused = mkldnn or (per_out >= 4 and math.prod(lengths) >= 12)
        wide = w.astype(np.float64) if fused else w
        parts = []
        for g in range(groups):
            total = np.zeros((x.shape[0], *lengths, per_out), dtype=np.float32)
            for c, k in order:
                column = view[(slice(None), g * per_in + c, Ellipsis) + k][..., None]
                weights = wide[g * per_out:(g + 1) * per_out, c][(slice(None),) + k]
                if fused:  # a float64 product of floats is exact: one rounding, as an FMA
                    total = (column.astype(np.float64) * weights + total).astype(np.float32)
                else:
                    total = total + column * weights
            parts.append(total)
        out = np.concatenate(parts, axis=-1) if groups > 1 else parts[0]
        return np.moveaxis(out, -1, 1)
    acc = _accumulator(x.dtype)
    budget.check_shape((x.shape[0], per_in, *lengths, *kernel), np.dtype(acc).itemsize)
    axes_x = [1, *range(2 + count, 2 + 2 * count)]
    axes_w = [1, *range(2, 2 + count)]
    parts = [np.tensordot(view[:, g * per_in:(g + 1) * per_in].astype(acc),
                          w[g * per_out:(g + 1) * per_out].astype(acc), axes=(axes_x, axes_w))
             for g in range(groups)]
    out = np.concatenate(parts, axis=-1) if groups > 1 else parts[0]
    return np.moveaxis(out, -1, 1).astype(x.dtype)


def transposed_array(x: np.ndarray, w: np.ndarray, size: tuple[int, ...],
                     stride: tuple[int, ...], pads: Pads, dilation: tuple[int, ...],
                     groups: int) -> np.ndarray:
    """The transposed convolution: x (N, Cin, *S), w (Cin, Cout/groups, *K) -> (N, Cout, *size),
    each input value spreading its kernel-weighted window into the output."""
    kernel = w.shape[2:]
    count = len(kernel)
    acc = _accumulator(x.dtype)
    per_in = x.shape[1] // groups
    parts = []
    for g in range(groups):
        xg, wg = x[:, g * per_in:(g + 1) * per_in], w[g * per_in:(g + 1) * per_in]
        cols = np.tensordot(xg.astype(acc), wg.astype(acc), axes=([1], [0]))  # (N,*S,Co,*K)
        order = (0, 1 + count, *range(2 + count, 2 + 2 * count), *range(1, 1 + count))
        cols = cols.transpose(order).reshape(x.shape[0], wg.shape[1] * math.prod(kernel), -1)
        parts.append(fold_array(cols, size, kernel, stride, dilation, pads))
    out = np.concatenate(parts, axis=1) if groups > 1 else parts[0]
    return out.astype(x.dtype)


class Im2Col(Function):
    """`F.unfold`: each window of the padded input as a column."""

    grad_fn_name = "Im2ColBackward0"

    def forward(self, x: np.ndarray, kernel: tuple[int, ...] = (), stride: tuple[int, ...] = (),
                dilation: tuple[int, ...] = (), pads: Pads = ()) -> np.ndarray:
        self.size, self.params = x.shape[2:], (kernel, stride, dilation, pads)
        return unfold_array(x, kernel, stride, dilation, pads)

    def backward(self, grad, inputs, output):
        kernel, stride, dilation, pads = self.params
        return (Col2Im.apply(grad, size=self.size, kernel=kernel, stride=stride,
                             dilation=dilation, pads=pads),)


class Col2Im(Function):
    """`F.fold`: columns added back into an image (overlaps summed)."""

    grad_fn_name = "Col2ImBackward0"

    def forward(self, cols: np.ndarray, size: tuple[int, ...] = (), kernel: tuple[int, ...] = (),
                stride: tuple[int, ...] = (), dilation: tuple[int, ...] = (),
                pads: Pads = ()) -> np.ndarray:
        self.params = (kernel, stride, dilation, pads)
        return fold_array(cols, size, kernel, stride, dilation, pads)

    def backward(self, grad, inputs, output):
        kernel, stride, dilation, pads = self.params
        return (Im2Col.apply(grad, kernel=kernel, stride=stride, dilation=dilation, pads=pads),)


def _grouped(tensor: Tensor, groups: int) -> Tensor:
    """(N, C, ...) -> (N, groups, C / groups, prod(...)): the channels of each group together."""
    shape = tensor.shape_tuple
    return reshape(tensor, (shape[0], groups, shape[1] // groups, -1))


class Convolution(Function):
    """PyTorch's `convolution(input, weight, bias, stride, padding, dilation, transposed,
    output_padding, groups)`: plain, or transposed (the plain one's adjoint)."""

    grad_fn_name = "ConvolutionBackward0"
    saves = (0, 1)
    counts_scalars = True  # an absent bias is an edge (None, 0), as in PyTorch

    def forward(self, x: np.ndarray, w: np.ndarray, bias: Any, stride: tuple[int, ...] = (),
                pads: Pads = (), dilation: tuple[int, ...] = (), transposed: bool = False,
                size: tuple[int, ...] = (), groups: int = 1) -> np.ndarray:
        self.params = (stride, pads, dilation, groups)
        self.transposed, self.size = transposed, x.shape[2:]
        if transposed:
            out = transposed_array(x, w, size, stride, pads, dilation, groups)
        else:
            out = convolve_array(x, w, stride, pads, dilation, groups)
        if bias is not None:
            out += bias.reshape((-1,) + (1,) * (out.ndim - 2)).astype(out.dtype)
        return np.ascontiguousarray(out)  # PyTorch's output is contiguous: `.view` works on it

    def backward(self, grad, inputs, output):
        x, w = inputs[0], inputs[1]
        stride, pads, dilation, groups = self.params
        kernel = w.shape_tuple[2:]
        params = {"stride": stride, "pads": pads, "dilation": dilation, "groups": groups}
        grad_x = grad_w = grad_b = None
        if self.needs[0]:
            grad_x = Convolution.apply(grad, w, None, transposed=not self.transposed,
                                       size=self.size, **params)
        if self.needs[1]:
            # plain: dW = grad x unfold(x); transposed: dW = x x unfold(grad)
            image, spread = (grad, x) if not self.transposed else (x, grad)
            cols = Im2Col.apply(spread, kernel=kernel, stride=stride, dilation=dilation,
                                pads=pads)
            cols = reshape(cols, (cols.shape_tuple[0], groups, -1, cols.shape_tuple[-1]))
            product = _grouped(image, groups) @ transpose(cols, 2, 3)  # (N, g, out, in * K)
            grad_w = reshape(SumDim.apply(product, dims=(0,)), w.shape_tuple)
        if self.needs[2]:
            grad_b = SumDim.apply(grad, dims=(0, *range(2, grad.ndim)))
        return grad_x, grad_w, grad_b
