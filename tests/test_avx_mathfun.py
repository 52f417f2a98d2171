"""The normal fill's log, sin and cos (engine/avx_mathfun.py) against a step-by-step
transcription of ATen's avx_mathfun.h with exact fused multiply-adds, for every input the fill
can give: 1 - u and 2*pi*u for each of the 2**24 float32 uniforms u = k / 2**24. The fast
version rounds each multiply-add from float64 and works in place; this shows that it never
differs, so it is PyTorch's result on its whole domain (the fill itself is checked against
PyTorch in tests/test_generator.py and the rng oracle cases)."""

from __future__ import annotations

import numpy as np
import pytest

from engine import avx_mathfun as avx
from engine.float_math import fma32

f32 = np.float32
UNIFORM_STEP = f32(2.0 ** -24)


def _masked(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """AVX's and-with-mask: the value where the mask holds, else +0."""
    kept = values * mask
    kept += f32(0)
    return kept


def reference_log(value: np.ndarray) -> np.ndarray:
    """log256_ps line by line."""
    bits = value.view(np.int32)
    exponent = ((bits >> 23) - 127).astype(f32) + f32(1)
    x = (bits & np.int32(-0x7F800001) | np.int32(0x3F000000)).view(f32)
    below = x < avx.SQRT_HALF
    kept = _masked(x, below)
    x = x + f32(-1)
    exponent = exponent - below
    x = x + kept
    square = x * x
    y = fma32(avx.LOG_POLY[0], x, avx.LOG_POLY[1])
    for coefficient in avx.LOG_POLY[2:]:
        y = fma32(y, x, coefficient)
    y = fma32(y * x, square, exponent * avx.LOG_Q1)
    y = y - square * f32(0.5)
    return fma32(exponent, avx.LOG_Q2, x + y)


def reference_sincos(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincos256_ps line by line."""
    x = np.abs(theta)
    octant = (x * avx.FOUR_OVER_PI).astype(np.int32)
    octant = (octant + 1) & ~1
    y = octant.astype(f32)
    swap_sin = (octant & 4) << 29
    first_polynomial = (octant & 2) == 0
    x = fma32(y, avx.DP1, x)
    x = fma32(y, avx.DP2, x)
    x = fma32(y, avx.DP3, x)
    sign_cos = (~(octant - 2) & 4) << 29
    square = x * x
    half_square = square * f32(0.5)
    cos_poly = fma32(avx.COS_POLY[0], square, avx.COS_POLY[1])
    cos_poly = fma32(cos_poly, square, avx.COS_POLY[2])
    cos_poly = fma32(square, square * cos_poly, -half_square) + f32(1)
    sin_poly = fma32(avx.SIN_POLY[0], square, avx.SIN_POLY[1])
    sin_poly = fma32(sin_poly, square, avx.SIN_POLY[2])
    sin_poly = fma32(x, square * sin_poly, x)
    sin_from_sin = _masked(sin_poly, first_polynomial)
    sin_from_cos = _masked(cos_poly, ~first_polynomial)
    cos_poly = cos_poly - sin_from_cos
    sin_poly = sin_poly - sin_from_sin
    sine = sin_from_cos + sin_from_sin
    cosine = cos_poly + sin_poly
    sign_sin = (theta.view(np.int32) & np.int32(-(2 ** 31))) ^ swap_sin
    return ((sine.view(np.int32) ^ sign_sin).view(f32),
            (cosine.view(np.int32) ^ sign_cos).view(f32))


def _same_bits(a: np.ndarray, b: np.ndarray) -> int:
    return int(np.count_nonzero(a.view(np.int32) != b.view(np.int32)))


@pytest.mark.parametrize("part", range(16))
def test_every_uniform_gives_the_reference_bits(part: int) -> None:
    """One sixteenth of the 2**24 uniforms per case."""
    size = 1 << 20
    uniforms = np.arange(part * size, (part + 1) * size, dtype=np.uint32).astype(f32)
    uniforms *= UNIFORM_STEP
    assert _same_bits(avx.log_ps(f32(1) - uniforms), reference_log(f32(1) - uniforms)) == 0
    theta = avx.TWO_PI * uniforms
    sine, cosine = avx.sincos_ps(theta)
    reference_sine, reference_cosine = reference_sincos(theta)
    assert _same_bits(sine, reference_sine) == 0
    assert _same_bits(cosine, reference_cosine) == 0


def test_the_unfused_shortcut_would_be_wrong_elsewhere() -> None:
    """The check above can fail: a multiply-add rounded twice (float32 product, then sum)
    differs from the fused one on the fill's own inputs."""
    uniforms = np.arange(1 << 16, dtype=np.uint32).astype(f32) * UNIFORM_STEP * f32(256)
    x = f32(1) - uniforms
    twice = avx.LOG_POLY[0] * x + avx.LOG_POLY[1]
    assert _same_bits(twice, fma32(avx.LOG_POLY[0], x, avx.LOG_POLY[1])) > 0
