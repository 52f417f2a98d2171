"""ATen's vec::reduce_all and vec::map2/map3_reduce_all (cpu/vec/functional_base.h) with `+`, in
their order of roundings, as the group-norm and layer-norm CPU kernels call them.

Along the last axis, in vectors of 8 floats (4 doubles: these kernels are built for AVX2 even
on AVX512 machines): the first vector's terms, then each further vector's added lane by lane;
a partial last vector is added into the first lanes (its product fused into the add where the
compiled kernel fuses it); then the lanes are added by a halving tree (float) or one after
another (double). A row shorter than a vector is summed left to right.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.float_math import fma

VECTOR_BYTES = 32


def lanes(dtype: np.dtype) -> int:
    return VECTOR_BYTES // dtype.itemsize


def across_lanes(acc: np.ndarray) -> np.ndarray:
    """vec_reduce_all(+): AVX2's halving shuffles for float, lane after lane for double."""
    if acc.dtype == np.float32:
        while acc.shape[-1] > 1:
            half = acc.shape[-1] // 2
            acc = acc[..., :half] + acc[..., half:]
        return acc[..., 0]
    total = acc[..., 0]
    for lane in range(1, acc.shape[-1]):
        total = total + acc[..., lane]
    return total


def map_reduce_all(factors: Sequence[np.ndarray], fused_tail: bool) -> np.ndarray:
    """The sum along the last axis of the product of FACTORS (one factor: reduce_all), the
    partial last vector's last multiply fused into its add when FUSED_TAIL."""
    terms = factors[0]
    for factor in factors[1:]:
        terms = terms * factor
    dtype = terms.dtype
    width, size = lanes(dtype), terms.shape[-1]
    if size < width:
        total = terms[..., 0]
        for k in range(1, size):
            total = total + terms[..., k]
        return total
    acc = terms[..., :width]
    full = size - size % width
    for start in range(width, full, width):
        acc = acc + terms[..., start:start + width]
    if size > full:
        rest = size - full
        acc = acc.copy()
        if fused_tail and len(factors) > 1:
            head = factors[0][..., full:]
            for factor in factors[1:-1]:
                head = head * factor[..., full:]
            acc[..., :rest] = fma(head, factors[-1][..., full:], acc[..., :rest], dtype)
        else:
            acc[..., :rest] = acc[..., :rest] + terms[..., full:]
    return across_lanes(acc)
