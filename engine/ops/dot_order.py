"""`torch.dot` of two float vectors in the order of roundings of PyTorch's CPU BLAS (MKL, AVX-512),
for where MKL itself is not installed (engine/ops/mkl.py calls it where it is).

numpy's `np.dot` goes to OpenBLAS, which adds the products in another order; the last bit of a
float32 result then differs, enough to change a printed `loss.item()` a few steps later in the
polynomial-fitting tutorials. The order below was read off torch 2.13 (MKL 2024.2) on an AVX-512
machine by probing which products meet first (a product of 2**25 and one of -2**25 cancel or
swallow a 1 depending on the grouping), then checked against torch on random vectors of every
length up to 80 and of chosen lengths up to the limit (float32: 8,191, float64: 4,095). Each
product is rounded before it is added (no FMA).

float32 (lanes = 4 below 8 elements, 8 below 16, else 16):
  - under 4 elements: left to right;
  - else the vector `acc` takes the first `lanes` products and adds each further full block
    lane by lane; what is left goes in as a block of 8 into lanes 0-7, then a block of 4 into
    lanes 0-3, then one by one into lane 0; the groups of 4 lanes are added left to right and
    the 4 lanes end as (l0 + l2) + (l1 + l3).
float64 (2 lanes up to 8 elements, else 8):
  - the vector takes full blocks as above; what is left goes in 2 at a time into lanes 0-1,
    then the last one into lane 0; the pairs of lanes are added left to right, then l0 + l1.
From 32 KiB of each vector on (8,192 floats, 4,096 doubles) MKL splits the work otherwise (not
reproduced): BLAS's own order is used there.
"""

from __future__ import annotations

import numpy as np

SPLIT_BYTES = 1 << 15  # from this size of a vector on, MKL splits the work another way


def _blocks(products: np.ndarray, lanes: int, tails: tuple[int, ...], group: int) -> np.floating:
    n = products.shape[0]
    full = n // lanes * lanes
    acc = np.add.reduce(products[:full].reshape(-1, lanes), axis=0)  # row after row: sequential
    at = full
    for width in tails:
        while width < lanes and n - at >= width:
            acc[:width] += products[at:at + width]
            at += width
    for value in products[at:]:
        acc[0] += value
    total = acc[:group].copy()
    for start in range(group, lanes, group):
        total += acc[start:start + group]
    if group == 4:
        return (total[0] + total[2]) + (total[1] + total[3])  # type: ignore[no-any-return]
    return total[0] + total[1]  # type: ignore[no-any-return]


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The dot product of two 1-D arrays of one dtype, as torch computes it on the CPU."""
    n = a.shape[0]
    if n * a.itemsize >= SPLIT_BYTES:
        return np.dot(a, b)  # type: ignore[no-any-return]
    if a.dtype == np.float32 and n >= 4:
        lanes = 4 if n < 8 else 8 if n < 16 else 16
        return np.asarray(_blocks(a * b, lanes, (8, 4), 4))
    if a.dtype == np.float32 and n < 4:
        total = np.float32(0)
        for value in a * b:
            total += value
        return np.asarray(total)
    if a.dtype == np.float64 and n >= 2:
        lanes = 2 if n <= 8 else 8
        return np.asarray(_blocks(a * b, lanes, (2,), 2))
    return np.dot(a, b)  # type: ignore[no-any-return]
