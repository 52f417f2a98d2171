"""Fused multiply-adds emulated in numpy (engine/float_math.py) round once, exactly as the
processor's FMA that PyTorch's kernels are compiled to; checked against exact rational
arithmetic, including sums that land on a rounding midpoint only after a first rounding."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from engine.float_math import fma32, fma64, fma_accumulate


def _nearest_float32(value: Fraction) -> np.float32:
    """The float32 nearest to `value`, ties to even (checked among three neighbours)."""
    guess = np.float32(float(value))
    candidates = [np.nextafter(guess, np.float32(-np.inf)), guess,
                  np.nextafter(guess, np.float32(np.inf))]

    def distance(c: np.float32) -> tuple[Fraction, int]:
        return abs(Fraction(float(c)) - value), int(np.array([c]).view(np.uint32)[0] & 1)

    return min(candidates, key=distance)


def test_fma32_rounds_once_where_two_roundings_go_wrong() -> None:
    one_ulp = 2.0 ** -23
    a = np.float32(1 + one_ulp)
    b = np.float32(2.0 ** -24 * (1 - one_ulp))
    c = np.float32(1 + one_ulp)  # odd last bit: a naive midpoint would round up to even
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    naive = np.float32(float(a) * float(b) + float(c))
    assert naive != _nearest_float32(exact)  # the case the emulation exists for
    assert fma32(np.array([a]), b, c)[0] == _nearest_float32(exact) == c


def test_fma32_matches_exact_arithmetic() -> None:
    rng = np.random.default_rng(7)
    a = rng.standard_normal(2000).astype(np.float32)
    b = (rng.standard_normal(2000) * 10.0 ** rng.integers(-8, 8, 2000)).astype(np.float32)
    c = np.where(rng.random(2000) < 0.5, -(a * b), rng.standard_normal(2000)).astype(np.float32)
    got = fma32(a, b, c)
    for x, y, z, r in zip(a.tolist(), b.tolist(), c.tolist(), got.tolist(), strict=True):
        assert r == float(_nearest_float32(Fraction(x) * Fraction(y) + Fraction(z)))


def test_fma64_matches_exact_arithmetic() -> None:
    rng = np.random.default_rng(8)
    a = rng.standard_normal(2000)
    b = rng.standard_normal(2000) * 10.0 ** rng.integers(-20, 20, 2000)
    c = np.where(rng.random(2000) < 0.5, -(a * b), rng.standard_normal(2000))
    got = fma64(a, b, c)
    for x, y, z, r in zip(a.tolist(), b.tolist(), c.tolist(), got.tolist(), strict=True):
        assert r == float(Fraction(x) * Fraction(y) + Fraction(z))


def _fused_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    total = np.zeros(a.shape[1:], np.float32)
    for i in range(len(a)):
        total = fma32(a[i], b[i], total)
    return total


def test_fma_accumulate_is_fma32_row_by_row_also_across_midpoints() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((300, 7)).astype(np.float32)
    b = (rng.standard_normal((300, 7)) * 10.0 ** rng.integers(-12, 12, (300, 7))).astype(
        np.float32)
    assert fma_accumulate(a, b, np.dtype(np.float32)).tobytes() == _fused_rows(a, b).tobytes()
    # exact sums on a float32 midpoint (the optimistic pass must keep them) and a product
    # whose float64 sum lands on one only after rounding (the rows are redone one by one)
    one_ulp = 2.0 ** -23
    midpoint_rows = np.array([[1.0], [1 + one_ulp], [2.0 ** -24]], dtype=np.float32)
    ones = np.ones_like(midpoint_rows)
    assert fma_accumulate(ones, midpoint_rows, np.dtype(np.float32)).tobytes() == _fused_rows(
        ones, midpoint_rows).tobytes()
    a2 = np.array([[1.0], [1 + one_ulp]], dtype=np.float32)
    b2 = np.array([[1 + one_ulp], [2.0 ** -24 * (1 - one_ulp)]], dtype=np.float32)
    assert fma_accumulate(a2, b2, np.dtype(np.float32)).tobytes() == _fused_rows(
        a2, b2).tobytes()
