"""ATen's CPU batch-norm kernels (batch_norm_kernel.cpp) in their order of roundings.

The statistics of a 2-D input (N, C), BatchNorm1d's usual case, take the "channels last" path:
each thread sums its contiguous chunk of rows into a buffer of the input's dtype (the squared
deviations with a fused multiply-add), the thread buffers are added in double, and the
result rounded; so the values depend on the thread count, as in PyTorch (engine/threads.py).
Higher-dimensional inputs sum each channel in double, one element after another. The output is
x * alpha + beta with alpha = invstd * weight and beta = bias - mean * alpha, each a fused
multiply-add; the running statistics are updated in the parameters' dtype (the variance's term
fused). The backward of a 2-D input without create_graph is ATen's kernel too: per-thread sums
of dy and (x - mean) * dy, then dx = (dy - sum / N - (x - mean) * k) * invstd * w, the inner
multiply-add fused over whole vectors of 16 channels (the rest of the channels computed plainly).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.float_math import fma
from engine.threads import thread_chunks

VECTOR_LANES = 16  # Vectorized<float> in the AVX512 build


def _per_thread(rows: np.ndarray, step: Any) -> np.ndarray:
    """The per-thread buffers of a channels-last reduction over the rows, added in double."""
    total = np.zeros(rows.shape[1], dtype=np.float64)
    for begin, end in thread_chunks(rows.shape[0]):
        buffer = np.zeros(rows.shape[1], dtype=rows.dtype)
        for row in range(begin, end):
            buffer = step(buffer, row)
        total = total + buffer
    return total


def statistics(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, sum of squared deviations) per channel (dim 1), in x's dtype."""
    count = x.size // x.shape[1] if x.shape[1] else 0
    if x.ndim == 2:
        sums = np.zeros(x.shape[1], dtype=np.float64)
        for begin, end in thread_chunks(x.shape[0]):
            sums = sums + np.add.reduce(x[begin:end], 0) + x.dtype.type(0)
        mean = (sums / max(count, 1)).astype(x.dtype)
        deviation = x - mean
        var_sum = _per_thread(deviation, lambda buffer, row: fma(
            deviation[row], deviation[row], buffer, x.dtype))
        return mean, var_sum.astype(x.dtype)
    channels = np.moveaxis(x, 1, 0).reshape(x.shape[1], -1)
    mean = (_sequential_sum(channels) / max(count, 1)).astype(x.dtype)
    deviation = channels - mean[:, None]
    return mean, _sequential_sum(deviation * deviation).astype(x.dtype)


def _sequential_sum(rows: np.ndarray) -> np.ndarray:
    """Each row summed in double one element after another (numpy's sum is pairwise)."""
    if rows.shape[1] == 0:
        return np.zeros(rows.shape[0])
    return np.cumsum(rows, axis=1, dtype=np.float64)[:, -1]  # type: ignore[no-any-return]


def inverse_std(var_sum: np.ndarray, count: int, eps: float) -> np.ndarray:
    """1 / sqrt(var_sum / N + eps): the division in the dtype, the rest in double."""
    var = (var_sum / var_sum.dtype.type(count)).astype(np.float64)
    return (1 / np.sqrt(var + eps)).astype(var_sum.dtype)  # type: ignore[no-any-return]


def update_running(running_mean: Any, running_var: Any, mean: np.ndarray,
                   var_sum: np.ndarray, count: int, momentum: float) -> None:
    """The running statistics, in place (their version counters bumped)."""
    for running, value in ((running_mean, mean), (running_var, None)):
        if running is None:
            continue
        array = running.array
        kind = array.dtype.type
        if value is not None:  # mean: momentum * mean + (1 - momentum) * running
            array[...] = kind(momentum) * value + kind(1 - momentum) * array
        else:  # variance (unbiased): its term fused
            unbiased = var_sum / var_sum.dtype.type(count - 1)
            array[...] = fma(kind(momentum), unbiased.astype(array.dtype),
                              kind(1 - momentum) * array, array.dtype)
        running.bump_version()


def transform(x: np.ndarray, mean: np.ndarray, invstd: np.ndarray, weight: Any,
              bias: Any) -> np.ndarray:
    """x * alpha + beta per channel, alpha = invstd * weight, beta = bias - mean * alpha."""
    shape = (1, -1) + (1,) * (x.ndim - 2)
    alpha = invstd if weight is None else (invstd * weight).astype(invstd.dtype)
    beta = (-(mean * alpha) if bias is None
            else fma(-mean, alpha, bias, alpha.dtype)).astype(alpha.dtype)
    return fma(x, alpha.reshape(shape), beta.reshape(shape), x.dtype)


def backward_2d(grad: np.ndarray, x: np.ndarray, weight: Any, mean: np.ndarray,
                invstd: np.ndarray, training: bool) -> tuple[np.ndarray, ...]:
    """(dx, dweight, dbias) of a 2-D input as ATen's channels-last backward kernel."""
    count, channels = x.shape
    kind = x.dtype.type
    w = np.ones(channels, dtype=x.dtype) if weight is None else weight
    centered = x - mean
    sums = _per_thread(grad, lambda buffer, row: buffer + grad[row]).astype(x.dtype)
    dotp = _per_thread(grad, lambda buffer, row: fma(
        centered[row], grad[row], buffer, x.dtype)).astype(x.dtype)
    if training:
        k = dotp * invstd * invstd / kind(count)
        grad_mean = sums / kind(count)
        inner = grad - grad_mean - centered * k
        vector = channels - channels % VECTOR_LANES
        if vector:
            inner[:, :vector] = fma(-centered[:, :vector], k[:vector],
                                     (grad - grad_mean)[:, :vector], x.dtype)
        dx = inner * invstd * w
    else:
        dx = grad * invstd * w
    return dx, dotp * invstd, sums
