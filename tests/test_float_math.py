"""Fused multiply-adds emulated in numpy (engine/float_math.py) round once, exactly as the
processor's FMA that PyTorch's kernels are compiled to; checked against exact rational
arithmetic, including sums that land on a rounding midpoint only after a first rounding."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from engine.float_math import fma32, fma64


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
