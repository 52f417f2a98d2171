"""ATen's CPU layer-norm kernels (layer_norm_kernel.cpp) in their order of roundings, on rows
of N normalized values (float32 or float64).

Forward: mean and biased variance by `rowwise_moments`, rstd = 1 / sqrt(var + eps) in the
row's dtype, then y = (x - mean) * rstd * gamma + beta, the last multiply-add fused, beta 0
when absent (without a weight the compiled scalar loop drops the `* 1` and fuses
(x - mean) * rstd + beta).

Backward, per row: ds = sum(dy * x * gamma) and db = sum(dy * gamma) by vec's map-reduce
(engine/ops/vector_reduce.py, the partial last vector's product fused), then
b = (db * mean - ds) * rstd^3 / N and c = -b * mean - db * rstd / N (each first product
fused), and dx = fma(b, x, rstd * dy * gamma) + c. dgamma and dbeta are summed per thread
(each thread its contiguous chunk of rows, dgamma's terms dy * (rstd * x - rstd * mean) fully
fused), then the thread buffers added in thread order, so they depend on the thread count as
in PyTorch (engine/threads.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.float_math import fma, fma_accumulate
from engine.ops.moments import rowwise_moments
from engine.ops.numerics import ordered_sum
from engine.ops.vector_reduce import map_reduce_all
from engine.threads import thread_chunks


def forward(rows: np.ndarray, gamma: Any, beta: Any,
            eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(y, mean, rstd) of native_layer_norm over each row of a 2-D array."""
    dtype = rows.dtype
    if rows.size == 0:
        return np.empty_like(rows), np.zeros(rows.shape[0], dtype), np.zeros(rows.shape[0], dtype)
    mean, var = rowwise_moments(rows)
    rstd = dtype.type(1) / np.sqrt(var + dtype.type(eps))
    centered = rows - mean[:, None]
    shift = dtype.type(0) if beta is None else beta  # added even when absent: -0 becomes +0
    if gamma is None:  # the compiled scalar loop folds `* 1` away and fuses the rest
        return fma(centered, rstd[:, None], shift, dtype), mean, rstd
    return fma(centered * rstd[:, None], gamma, shift, dtype), mean, rstd


def _per_thread(rows: int, chunk_sum: Any, size: int, dtype: np.dtype) -> np.ndarray:
    """A sum over rows: each thread's chunk of rows summed into its own buffer
    (chunk_sum(begin, end)), the buffers then added in thread order."""
    total = np.zeros(size, dtype)
    for begin, end in thread_chunks(rows):
        total = total + chunk_sum(begin, end)
    return total


def backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray, gamma: Any,
             needs: tuple[bool, ...]) -> tuple[Any, Any, Any]:
    """(dx, dgamma, dbeta) of native_layer_norm over rows of 2-D arrays, None where not
    needed (all three, zeros, when there is nothing to sum)."""
    dtype = x.dtype
    rows, size = x.shape
    dx = dgamma = dbeta = None
    if x.size == 0:  # nothing to sum: zeros
        return np.zeros_like(x), np.zeros(size, dtype), np.zeros(size, dtype)
    if needs[0]:
        factors = (dy, x) if gamma is None else (dy, x, np.broadcast_to(gamma, x.shape))
        ds = map_reduce_all(factors, fused_tail=True)
        db = map_reduce_all(factors[:1] + factors[2:], fused_tail=True)
        scale = dtype.type(1) / dtype.type(size)
        b = fma(db, mean, -ds, dtype) * rstd * rstd * rstd * scale
        c = fma(-b, mean, -(db * rstd * scale), dtype)
        first = rstd[:, None] * dy if gamma is None else rstd[:, None] * dy * gamma
        dx = fma(b[:, None], x, first, dtype) + c[:, None]
    if len(needs) > 1 and needs[1]:
        normalized = fma(rstd[:, None], x, (-rstd * mean)[:, None], dtype)
        dgamma = _per_thread(rows, lambda begin, end: fma_accumulate(
            dy[begin:end], normalized[begin:end], dtype), size, dtype)
    if len(needs) > 2 and needs[2]:
        dbeta = _per_thread(rows, lambda begin, end: ordered_sum(dy[begin:end]), size, dtype)
    return dx, dgamma, dbeta
