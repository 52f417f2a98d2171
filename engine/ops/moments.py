"""ATen's RowwiseMoments (native/cpu/moments_utils.h) in its order of roundings: the mean and
the biased variance of each row, as group_norm's CPU kernel computes them.

Each row is read as vectors of 8 floats (4 doubles: the kernels that call it are built for
AVX2 even on AVX512 machines). Chunks of 16 vectors are folded by Welford's update, lane by
lane, with fused multiply-adds; the chunk moments are merged pairwise up a small stack
(a cascade, like a pairwise sum), then the lanes and the scalar tail are merged one after
another. numpy's mean and var round differently, enough to change the last bit of a
normalized value.
"""

from __future__ import annotations

import numpy as np

from engine.float_math import fma

CHUNK = 16  # kChunkSize
VECTOR_BYTES = 32

Moments = tuple[int, np.ndarray, np.ndarray]  # (count, mean, sum of squared deviations)


def _merge_vectors(into: Moments, add: Moments) -> Moments:
    """AddMomentsVec: the stack entry `into` absorbs `add` (the form 2.13 writes out, with
    one explicit fused multiply-add for the sum of squares)."""
    count, mean, m2 = into
    add_count, add_mean, add_m2 = add
    total = count + add_count
    kind = mean.dtype.type
    c = kind(add_count) / kind(total) if total else kind(0)
    delta = add_mean - mean
    c_delta = c * delta
    return total, mean + c_delta, fma(delta * kind(count), c_delta, m2 + add_m2, mean.dtype)


def _merge_scalars(into: Moments, add: Moments) -> Moments:
    """AddMoments on one value per row: compiled with contraction, so `m1 += c * delta` and
    `m2_add + delta * delta * c * m0` are fused."""
    count, mean, m2 = into
    add_count, add_mean, add_m2 = add
    total = count + add_count
    kind = mean.dtype.type
    c = kind(add_count) / kind(total) if total else kind(0)
    delta = add_mean - mean
    mean = fma(c, delta, mean, mean.dtype)
    m2 = m2 + fma(delta * delta * c, kind(count), add_m2, mean.dtype)
    return total, mean, m2


def _ceil_log2(m: int) -> int:
    return 1 if m <= 2 else (m - 1).bit_length()


def rowwise_moments(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, biased variance) of each row of a 2-D float32 or float64 array."""
    dtype = rows.dtype
    kind = dtype.type
    count, size = rows.shape
    lanes = VECTOR_BYTES // dtype.itemsize
    vectors = size // lanes
    chunks = -(-vectors // CHUNK)
    zero = np.zeros((count, lanes), dtype)
    stack: list[Moments] = [(0, zero, zero)] * _ceil_log2(chunks)
    steps = [kind(1) / kind(j + 1) for j in range(CHUNK)]
    blocks = rows[:, :vectors * lanes].reshape(count, vectors, lanes)
    for i in range(chunks):
        mean, m2 = zero, zero
        width = min(CHUNK, vectors - i * CHUNK)
        for j in range(width):
            x = blocks[:, i * CHUNK + j]
            delta = x - mean
            mean = fma(steps[j], delta, mean, dtype)
            m2 = fma(delta, x - mean, m2, dtype)
        stack[0] = _merge_vectors(stack[0], (width, mean, m2))
        mask, level = i + 1, 1
        while level < len(stack) and mask & 1 == 0:
            stack[level] = _merge_vectors(stack[level], stack[level - 1])
            stack[level - 1] = (0, zero, zero)
            mask >>= 1
            level += 1
    for level in range(1, len(stack)):
        stack[0] = _merge_vectors(stack[0], stack[level])
    tail: Moments = (0, np.zeros(count, dtype), np.zeros(count, dtype))
    for k in range(vectors * lanes, size):  # the scalar tail, Welford one value at a time
        n, mean, m2 = tail
        x = rows[:, k]
        delta = x - mean
        mean = mean + delta / kind(n + 1)
        tail = (n + 1, mean, m2 + delta * (x - mean))
    _, lane_means, lane_m2 = stack[0]
    for lane in range(lanes):
        tail = _merge_scalars(tail, (vectors, lane_means[:, lane], lane_m2[:, lane]))
    _, mean, m2 = tail
    return mean, m2 / kind(size)
