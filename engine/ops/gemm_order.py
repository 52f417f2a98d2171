"""float32 matrix products in the order of roundings of PyTorch's CPU BLAS (MKL sgemm, AVX-512),
for where MKL itself is not installed (engine/ops/mkl.py calls it where it is).

numpy's `a @ b` goes to OpenBLAS, whose kernels add the k products of an entry in another order
than MKL's; the last bits differ, and a training loop that prints `loss.item()` drifts from the
tutorial page within a few steps. What MKL 2024.2 (torch 2.13) does was read off torch with
random matrices of every shape class below and checked to the last bit:

- A result of at least 4 rows and 12 columns goes through the FMA kernel: each entry a chain of
  fused multiply-adds over k. Below 12 rows, the rows beyond the groups of 4 are chains of
  rounded products and sums instead (read off for 1 row left over, or a multiple of 4 columns,
  and k of 30 or more). k is cut into blocks: up to 192 in
  one; up to 385 in two halves of k // 2 (and the odd last product alone); beyond, blocks of
  192 and the rest. Each block's chain starts from 0 and the blocks are added left to right.
- One row, or 2, 3, 4 or 8 columns (or, from 2 or 3 rows, a multiple of 4 columns): each
  entry is a chain of rounded products and sums over all of k, no blocks, when b is stored
  row by row (or both operands are transposed); a transposed b alone goes another way.
- `addmm` (nn.Linear): the bias is added to the first block, then the next blocks; in a chain
  of rounded products, the chain starts from the bias.
The other shapes (one column from several rows: a matrix-vector kernel; 5-7, 9-11 columns;
2 or 3 rows left over below 12 rows with columns not a multiple of 4), float64, batches and
products of more than `LARGEST` multiply-adds (too long in numpy) keep the general path.
"""

from __future__ import annotations

import numpy as np

f32, f64 = np.float32, np.float64
BLOCK = 192
EDGE_ROWS = 12  # from this many rows on, the FMA kernel also takes the rows beyond a group of 4
LEFTOVER_MIN_K = 30  # below, rows left over from the groups of 4 go another way (not pinned down)
LARGEST = 1 << 21  # multiply-adds of the largest product done in MKL's order (~2M)


def k_blocks(k: int) -> list[tuple[int, int]]:
    """MKL's cut of the sum over k into blocks, as (start, stop) pairs."""
    if k <= BLOCK:
        return [(0, k)]
    half = k // 2
    if half <= BLOCK:
        bounds = [0, half, 2 * half] + ([k] if k % 2 else [])
    else:
        bounds = [*range(0, k, BLOCK), k]
    return list(zip(bounds[:-1], bounds[1:], strict=False))


def reproduced(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether `a @ b` (two float32 matrices) has a shape whose order is known (checked against
    torch; the others keep agraph's general path)."""
    if a.dtype != f32 or b.dtype != f32 or a.ndim != 2 or b.ndim != 2:
        return False
    rows, k, columns = a.shape[0], a.shape[1], b.shape[1]
    if rows * columns * k > LARGEST or k == 0:
        return False
    if columns < 12 or rows < 4:  # the small kernels: a transposed b (W.t()) reads otherwise
        if not b.flags.c_contiguous and not (a.flags.f_contiguous and rows > 1):
            return False
        return rows == 1 or columns in (2, 3, 4, 8) or (rows < 4 and columns % 4 == 0)
    if rows >= EDGE_ROWS or rows % 4 == 0:
        return True
    return k >= LEFTOVER_MIN_K and (rows % 4 == 1 or columns % 4 == 0)


def _fused_chain(a64: np.ndarray, b: np.ndarray, start: int, stop: int) -> np.ndarray:
    """sum over k in [start, stop) of a*b, each step one fused multiply-add in float32: the
    float64 product of two floats is exact, the float64 sum is rounded once to float32. The
    chain starts from the first product (a -0. product stays -0., as in MKL)."""
    total = np.multiply(a64[:, start:start + 1], b[start:start + 1, :], dtype=f32)
    product = np.empty(total.shape, dtype=f64)
    for t in range(start + 1, stop):
        np.multiply(a64[:, t:t + 1], b[t:t + 1, :], out=product)
        np.add(product, total, out=total, casting="unsafe")  # float64 sum, rounded once
    return total


def _plain_chain(a: np.ndarray, b: np.ndarray, start: np.ndarray | None = None) -> np.ndarray:
    """start + the sum over k of a*b, each product and each sum rounded to float32, left to
    right; without a start, from the first product (a -0. product stays -0.), but from +0. for
    a single row (MKL's one-row kernel)."""
    first = np.multiply(a[:, 0:1], b[0:1, :], dtype=f32)
    if start is None and a.shape[0] == 1:
        start = np.zeros((), dtype=f32)
    total = first if start is None else np.add(start, first, dtype=f32)
    product = np.empty(total.shape, dtype=f32)
    for t in range(1, a.shape[1]):
        np.multiply(a[:, t:t + 1], b[t:t + 1, :], out=product)
        total += product
    return total


def matmul(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """`a @ b` for two float32 matrices `reproduced` accepts; with `bias`, addmm's
    `bias + a @ b` in its order."""
    rows, columns = a.shape[0], b.shape[1]
    full = None if bias is None else np.broadcast_to(bias, (rows, columns))
    if rows < 4 or columns < 12:
        return _plain_chain(a, b, full)  # the bias is where the chain starts
    fused = rows if rows >= EDGE_ROWS else rows - rows % 4
    a64 = a[:fused].astype(f64)
    result = None
    for start, stop in k_blocks(a.shape[1]):
        block = _fused_chain(a64, b, start, stop)
        if result is None:
            result = block if full is None else np.add(full[:fused], block, out=block)
        else:
            result += block
    assert result is not None
    if fused == rows:
        return result
    rest = _plain_chain(a[fused:], b, None if full is None else full[fused:])
    return np.concatenate([result, rest])
