"""Resizing by interpolation over the last 1, 2 or 3 dims (F.interpolate): nearest,
nearest-exact, (bi/tri)linear and bicubic, as ATen's CPU kernels (native/UpSample.h,
native/cpu/UpSampleKernel.cpp, UpSampleBicubic2d.cpp) compute them, bit for bit.

Each output position reads source indices and weights computed per dim in the kernel's
precision (float for float32, double for float64): the scale is (in - 1) / (out - 1) with
align_corners, else 1 / scale_factor when one was given, else in / out; the source position
scale * (i + 0.5) - 0.5 is one fused multiply-add, as the vectorized build compiles it, and C's
floorf rounds a double position to float before flooring. Each dim blends its taps as
t1 * w1 with t0 * w0 and the others fused in (fma(t0, w0, t1 * w1) for two), nested dim by
dim, except that 2-D bilinear sums its four corners with the products of the two weights
(PyTorch's kernel factors them so); bicubic's weights are Keys' cubic with A = -0.75. The
derivatives add each output's gradient into the inputs it read, in the order of the outputs:
one fused multiply-add each for linear modes, plain sums for nearest and for bicubic (whose
backward is built without fused multiply-adds). They are ops of their own
(`...BackwardBackward0`), whose derivative is the resize again.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import budget
from engine.autograd import Function
from engine.float_math import fma

Taps = tuple[list[np.ndarray], list[np.ndarray]]  # the source indices and weights of each tap


def _opmath(dtype: np.dtype) -> Any:
    return np.float64 if dtype == np.float64 else np.float32


def source_scale(size: int, out: int, align_corners: bool, scale: float | None,
                 kind: Any) -> Any:
    """area_pixel_compute_scale: how far the source moves per output step."""
    if align_corners:
        return kind(size - 1) / kind(out - 1) if out > 1 else kind(0)
    if scale is not None and scale > 0:
        return kind(1.0 / scale)
    return kind(size) / kind(out)


def _source_positions(step: Any, out: int, align_corners: bool, kind: Any) -> np.ndarray:
    """area_pixel_compute_source_index (linear modes), negatives clamped to 0."""
    index = np.arange(out, dtype=kind)
    if align_corners:
        return index * step  # type: ignore[no-any-return]
    position = fma(step, index + kind(0.5), kind(-0.5), np.dtype(kind))
    return np.where(position < 0, kind(0), position)


def _floorf(real: np.ndarray) -> np.ndarray:
    """C's floorf: a double position is rounded to float first (3 - 1e-12 gives 3)."""
    return np.floor(real.astype(np.float32)).astype(np.int64)  # type: ignore[no-any-return]


def linear_taps(size: int, out: int, align_corners: bool, scale: float | None,
                dtype: np.dtype) -> Taps:
    """compute_source_index_and_lambda for every output index of one dim."""
    kind = _opmath(dtype)
    if size == out:
        index = np.arange(out)
        return [index, index], [np.ones(out, dtype), np.zeros(out, dtype)]
    real = _source_positions(source_scale(size, out, align_corners, scale, kind), out,
                             align_corners, kind)
    first, weight1 = _index_and_lambda(real, size, kind)
    second = first + (first < size - 1)
    return [first, second], [(kind(1) - weight1).astype(dtype), weight1.astype(dtype)]


def _index_and_lambda(real: np.ndarray, size: int, kind: Any) -> tuple[np.ndarray, np.ndarray]:
    """guard_index_and_lambda: the tap below (at most the last) and the distance to it, in
    [0, 1]."""
    index = np.minimum(_floorf(real), size - 1)
    return index, np.minimum(np.maximum(real - index.astype(kind), kind(0)), kind(1))


def _cubic_near(x: np.ndarray, fused: bool) -> np.ndarray:
    """cubic_convolution1 (A = -0.75) of a distance below 1: ((A + 2) x - (A + 3)) x x + 1, its
    first step fused in the vectorized build."""
    kind = x.dtype.type
    inner = (fma(kind(1.25), x, kind(-2.25), x.dtype) if fused
             else kind(1.25) * x - kind(2.25))
    return inner * x * x + kind(1)  # type: ignore[no-any-return]


def _cubic_far(x: np.ndarray, fused: bool) -> np.ndarray:
    """cubic_convolution2 (A = -0.75) of a distance in [1, 2]: ((A x - 5A) x + 8A) x - 4A,
    its first two steps fused in the vectorized build."""
    kind = x.dtype.type
    if fused:
        inner = fma(fma(kind(-0.75), x, kind(3.75), x.dtype), x, kind(-6), x.dtype)
    else:
        inner = (kind(-0.75) * x + kind(3.75)) * x - kind(6)
    return inner * x + kind(3)  # type: ignore[no-any-return]


def cubic_taps(size: int, out: int, align_corners: bool, scale: float | None, dtype: np.dtype,
               fused: bool = True) -> Taps:
    """The four taps of bicubic interpolation (Keys, A = -0.75) per output index, indices
    clamped to the edge; `fused` as the forward kernel computes them, else as the backward's
    (built without fused multiply-adds)."""
    kind = _opmath(dtype)
    step = source_scale(size, out, align_corners, scale, kind)
    index = np.arange(out, dtype=kind)
    if align_corners:
        real = index * step
    elif fused:
        real = fma(step, index + kind(0.5), kind(-0.5), np.dtype(kind))
    else:
        real = step * (index + kind(0.5)) - kind(0.5)
    below, t = _index_and_lambda(real, size, kind)
    rest = (1.0 - t.astype(np.float64)).astype(kind)
    weights = [_cubic_far(t + kind(1), fused), _cubic_near(t, fused), _cubic_near(rest, fused),
               _cubic_far(rest + kind(1), fused)]
    indices = [np.clip(below + j - 1, 0, size - 1) for j in range(4)]
    return indices, [w.astype(dtype) for w in weights]


def nearest_taps(size: int, out: int, scale: float | None, exact: bool,
                 dtype: np.dtype) -> np.ndarray:
    """The source index of each output index, as the forward kernel picks it: floor(scale * i)
    (nearest, OpenCV's), or the nearest centre, floor(scale * (i + 0.5) - 0.5 + 0.5)."""
    kind = _opmath(dtype)
    step = source_scale(size, out, False, scale, kind)
    if exact:
        real = _source_positions(step, out, False, kind) + kind(0.5)
    else:
        real = np.arange(out, dtype=kind) * step
    return np.minimum(_floorf(real), size - 1)


def nearest_backward_taps(size: int, out: int, scale: float | None, exact: bool) -> np.ndarray:
    """nearest_idx / nearest_exact_idx (the backward kernels'): a float scale, and for nearest
    the cases out == size (copy) and out == 2 * size (halve) by integer arithmetic."""
    index = np.arange(out)
    if not exact and out == size:
        return index
    if not exact and out == 2 * size:
        return index >> 1
    step = source_scale(size, out, False, scale, np.float32)
    if exact:  # (i + 0.5) in double times the float scale, rounded to float for floorf
        real = ((index + 0.5) * np.float64(step)).astype(np.float32)
    else:
        real = index.astype(np.float32) * step
    return np.minimum(_floorf(real), size - 1)


def _gather(x: np.ndarray, axis: int, index: np.ndarray) -> np.ndarray:
    return np.take(x, index, axis=axis)


def _blend(x: np.ndarray, taps: list[Taps], first_axis: int) -> np.ndarray:
    """Per dim, the last innermost: t1 * w1, then t0 * w0 and the other taps fused in, in
    order (fma(t0, w0, t1 * w1) for two taps)."""
    if not taps:
        return x
    indices, weights = taps[0]
    shape = (-1,) + (1,) * (len(taps) - 1)
    parts = [_blend(_gather(x, first_axis, index), taps[1:], first_axis + 1)
             for index in indices]
    total = parts[1] * weights[1].reshape(shape)
    for k in (0, *range(2, len(parts))):
        total = fma(parts[k], weights[k].reshape(shape), total, x.dtype)
    return total


def _bilinear(x: np.ndarray, taps: list[Taps]) -> np.ndarray:
    """The four corners, each with the product of its two weights: (0,1) first, then (0,0),
    (1,0), (1,1), fused."""
    (row_index, row_weights), (col_index, col_weights) = taps
    rows = {r: (_gather(x, -2, row_index[r]), row_weights[r]) for r in (0, 1)}
    cols = {c: (col_index[c], col_weights[c]) for c in (0, 1)}

    def corner(r: int, c: int) -> tuple[np.ndarray, np.ndarray]:
        plane, row_weight = rows[r]
        index, col_weight = cols[c]
        return _gather(plane, -1, index), row_weight[:, None] * col_weight[None, :]

    values, weights = corner(0, 1)
    total = values * weights
    for r, c in ((0, 0), (1, 0), (1, 1)):
        values, weights = corner(r, c)
        total = fma(values, weights, total, x.dtype)
    return total  # type: ignore[no-any-return]


class Resize:
    """The forward of a resize op (a mixin of each op below, which names PyTorch's grad_fn
    and the mode)."""

    mode = ""
    gradient_op: type[Function]

    def forward(self, x: np.ndarray, sizes: tuple[int, ...] = (), scales: tuple[Any, ...] = (),
                align_corners: bool = False) -> np.ndarray:
        self.input_shape, self.sizes = x.shape, sizes
        self.scales, self.align_corners = scales, align_corners
        dims = len(sizes)
        first_axis = x.ndim - dims
        # the result, and the float64 work of its blend, are the output's size: sized first
        budget.check_shape(x.shape[:first_axis] + tuple(sizes), 8)
        spatial = list(zip(x.shape[first_axis:], sizes, scales, strict=True))
        if self.mode in ("nearest", "nearest-exact"):
            out = x
            for axis, (size, count, scale) in enumerate(spatial):
                index = nearest_taps(size, count, scale, self.mode != "nearest", x.dtype)
                out = _gather(out, first_axis + axis, index)
            return np.ascontiguousarray(out)
        if x.dtype not in (np.float32, np.float64):  # half: the float kernel, rounded back
            return self.forward(x.astype(np.float32), sizes, scales,
                                align_corners).astype(x.dtype)
        taps_of = cubic_taps if self.mode == "bicubic" else linear_taps
        taps = [taps_of(size, count, align_corners, scale, x.dtype)
                for size, count, scale in spatial]
        if self.mode == "bilinear":
            return _bilinear(x, taps)
        return np.ascontiguousarray(_blend(x, taps, first_axis))

    def backward(self, grad, inputs, output):
        return (self.gradient_op.apply(grad, input_shape=self.input_shape, sizes=self.sizes,
                                       scales=self.scales, align_corners=self.align_corners),)


def _ordered_add(cells: int, index: np.ndarray, values: np.ndarray,
                 weights: np.ndarray | None) -> np.ndarray:
    """Adds values[..., k] (times weights[k], fused) into cell index[k], k in order: a
    sequential scatter-add, done a rank at a time (the r-th contribution of every cell)."""
    order = np.argsort(index, kind="stable")
    ordered = index[order]
    starts = np.r_[0, np.flatnonzero(np.diff(ordered)) + 1] if ordered.size else ordered
    counts = np.diff(np.r_[starts, ordered.size])
    rank = np.empty_like(order)
    rank[order] = np.arange(ordered.size) - np.repeat(starts, counts)
    total = np.zeros(values.shape[:-1] + (cells,), values.dtype)
    for level in range(int(counts.max()) if counts.size else 0):
        chosen = np.flatnonzero(rank == level)
        target = index[chosen]
        if weights is None:
            total[..., target] = total[..., target] + values[..., chosen]
        else:
            total[..., target] = fma(weights[chosen], values[..., chosen], total[..., target],
                                     values.dtype)
    return total


def _linear_cells(taps: list[Taps], sizes: tuple[int, ...], dtype: np.dtype
                  ) -> tuple[np.ndarray, np.ndarray]:
    """For every output position (row-major) and corner (lexicographic, first dim outermost),
    the flat input cell it reads and the product of its weights, first dim first."""
    cells = np.zeros((1, 1), np.int64)
    weights = np.ones((1, 1), dtype)
    for k, (indices, tap_weights) in enumerate(taps):
        stride = math.prod(sizes[k + 1:])
        index = np.stack(indices, -1) * stride
        weight = np.stack(tap_weights, -1)
        positions = cells.shape[0] * index.shape[0]
        cells = (cells[:, None, :, None] + index[None, :, None, :]).reshape(positions, -1)
        weights = (weights[:, None, :, None] * weight[None, :, None, :]).reshape(positions, -1)
    return cells, weights


def _bicubic_terms(grad: np.ndarray, spatial: tuple[int, ...], scales: tuple[Any, ...],
                   align_corners: bool) -> tuple[np.ndarray, np.ndarray]:
    """What bicubic's backward kernel adds, in its order: per output (row-major) the 16 taps,
    the column tap outermost, each (grad * row weight) * column weight, edges clamped."""
    width, dtype = spatial[1], grad.dtype
    (rows, row_weights), (cols, col_weights) = (
        cubic_taps(size, count, align_corners, scale, dtype, fused=False)
        for size, count, scale in zip(spatial, grad.shape[-2:], scales, strict=True))
    row_index, col_index = np.stack(rows, -1), np.stack(cols, -1)  # (out, tap)
    cells = row_index[:, None, None, :] * width + col_index[None, :, :, None]
    g = grad[..., :, :, None, None]
    values = (g * np.stack(row_weights, -1)[:, None, None, :]) * np.stack(col_weights, -1)[
        None, :, :, None]
    return cells.reshape(-1), values.reshape(*grad.shape[:-2], -1)


class ResizeGradient:
    """The derivative of a resize as an op: each output gradient added into what it read (a
    mixin of the ops `_gradient_of` makes)."""

    resize_op: type[Function]
    mode = ""

    def forward(self, grad: np.ndarray, input_shape: tuple[int, ...] = (),
                sizes: tuple[int, ...] = (), scales: tuple[Any, ...] = (),
                align_corners: bool = False) -> np.ndarray:
        self.input_shape, self.sizes = input_shape, sizes
        self.scales, self.align_corners = scales, align_corners
        dims = len(sizes)
        spatial = input_shape[len(input_shape) - dims:]
        lead = grad.shape[:grad.ndim - dims]
        flat = grad.reshape(*lead, -1)
        if self.mode in ("nearest", "nearest-exact"):  # plain sums, in the order of the outputs
            cells = np.zeros((1,), np.int64)
            for size, count, scale in zip(spatial, sizes, scales, strict=True):
                index = nearest_backward_taps(size, count, scale, self.mode != "nearest")
                cells = (cells[:, None] * size + index[None, :]).reshape(-1)
            total = _ordered_add(math.prod(spatial), cells, flat, None)
        elif grad.dtype not in (np.float32, np.float64):  # half: the float kernel, rounded back
            return self.forward(grad.astype(np.float32), input_shape, sizes, scales,
                                align_corners).astype(grad.dtype)
        elif self.mode == "bicubic":
            cells, values = _bicubic_terms(grad, spatial, scales, align_corners)
            total = _ordered_add(math.prod(spatial), cells, values, None)
        else:
            taps = [linear_taps(size, count, align_corners, scale, grad.dtype)
                    for size, count, scale in zip(spatial, sizes, scales, strict=True)]
            cells, weights = _linear_cells(taps, spatial, grad.dtype)
            corners = cells.shape[-1]
            values = np.repeat(flat, corners, axis=-1)
            total = _ordered_add(math.prod(spatial), cells.reshape(-1), values,
                                 weights.reshape(-1))
        return total.reshape(input_shape)

    def backward(self, grad, inputs, output):
        return (self.resize_op.apply(grad, sizes=self.sizes, scales=self.scales,
                                     align_corners=self.align_corners),)


# --- the ops, one per PyTorch grad_fn -----------------------------------------------------------

class UpsampleNearest1D(Resize, Function):
    grad_fn_name, mode = "UpsampleNearest1DBackward0", "nearest"


class UpsampleNearest2D(Resize, Function):
    grad_fn_name, mode = "UpsampleNearest2DBackward0", "nearest"


class UpsampleNearest3D(Resize, Function):
    grad_fn_name, mode = "UpsampleNearest3DBackward0", "nearest"


class UpsampleNearestExact1D(Resize, Function):
    grad_fn_name, mode = "UpsampleNearestExact1DBackward0", "nearest-exact"


class UpsampleNearestExact2D(Resize, Function):
    grad_fn_name, mode = "UpsampleNearestExact2DBackward0", "nearest-exact"


class UpsampleNearestExact3D(Resize, Function):
    grad_fn_name, mode = "UpsampleNearestExact3DBackward0", "nearest-exact"


class UpsampleLinear1D(Resize, Function):
    grad_fn_name, mode = "UpsampleLinear1DBackward0", "linear"


class UpsampleBilinear2D(Resize, Function):
    grad_fn_name, mode = "UpsampleBilinear2DBackward0", "bilinear"


class UpsampleTrilinear3D(Resize, Function):
    grad_fn_name, mode = "UpsampleTrilinear3DBackward0", "trilinear"


class UpsampleBicubic2D(Resize, Function):
    grad_fn_name, mode = "UpsampleBicubic2DBackward0", "bicubic"


RESIZES: dict[tuple[str, int], Any] = {
    (op.mode, int(op.__name__[-2])): op for op in (
        UpsampleNearest1D, UpsampleNearest2D, UpsampleNearest3D, UpsampleNearestExact1D,
        UpsampleNearestExact2D, UpsampleNearestExact3D, UpsampleLinear1D, UpsampleBilinear2D,
        UpsampleTrilinear3D, UpsampleBicubic2D)}


def _gradient_of(resize: Any) -> type[Function]:
    """The derivative op of `resize`, named as PyTorch names the node of a double backward
    (its finite-difference checks are the second derivatives of the resize's)."""
    name = resize.__name__ + "Backward"
    return type(name, (ResizeGradient, Function), {
        "grad_fn_name": resize.grad_fn_name.replace("Backward0", "BackwardBackward0"),
        "mode": resize.mode, "resize_op": resize, "__module__": __name__})


for _resize in RESIZES.values():
    _resize.gradient_op = _gradient_of(_resize)
