"""log, sin and cos as PyTorch's vectorised normal fill computes them for float32 tensors.

`normal_fill_16_AVX2` turns uniforms into normals with the Cephes polynomials of ATen's
avx_mathfun.h (`log256_ps`, `sincos256_ps`), compiled with fused multiply-add contraction. Here
each fused multiply-add is a float64 multiply-add rounded once to float32. That equals the
fused result whenever the float64 sum is exact or does not land on a float32 midpoint; for the
inputs the fill can give (1 - u and 2*pi*u, u one of the 2**24 float32 uniforms) it equals it
for every input, which `tests/test_avx_mathfun.py` checks against a step-by-step transcription
with exact fused multiply-adds. The steps run in place on preallocated arrays: these functions
are most of the time of `torch.randn` (issue 13's bar is 3x PyTorch's time for 10**6 normals).
"""

from __future__ import annotations

import numpy as np

f32, f64, i32 = np.float32, np.float64, np.int32


def _c(bits: int) -> np.float32:
    return np.array([bits], dtype=np.uint32).view(f32)[0]


LOG_POLY = tuple(_c(v) for v in (0x3D9021BB, 0xBDEBD1B8, 0x3DEF251A, 0xBDFE5D4F, 0x3E11E9BF,
                                 0xBE2AAE50, 0x3E4CCEAC, 0xBE7FFFFC, 0x3EAAAAAA))
LOG_Q1, LOG_Q2, SQRT_HALF = _c(0xB95E8083), _c(0x3F318000), _c(0x3F3504F3)
FOUR_OVER_PI = _c(0x3FA2F983)
DP1, DP2, DP3 = _c(0xBF490000), _c(0xB97DA000), _c(0xB3222169)
COS_POLY = (_c(0x37CCF5CE), _c(0xBAB6061A), _c(0x3D2AAAA5))
SIN_POLY = (_c(0xB94CA1F9), _c(0x3C08839E), _c(0xBE2AAAA3))
TWO_PI = _c(0x40C90FDB)
_MANTISSA_AND_SIGN = i32(-0x7F800001)  # ~inv_mant_mask: clears the exponent bits
_HALF_EXPONENT = i32(0x3F000000)  # the exponent of 0.5
_SQRT_HALF_BITS = SQRT_HALF.view(i32)  # positive floats compare as their bits do


class _Horner:
    """Fused multiply-adds y*x + c of float32 arrays by a fixed x, through a float64 sum."""

    def __init__(self, x: np.ndarray) -> None:
        self.x64 = x.astype(f64)
        self.sum = np.empty_like(self.x64)

    def start(self, a: np.float32, c: np.float32) -> np.ndarray:
        """fma(a, x, c) for a constant a: a new float32 array."""
        np.multiply(self.x64, float(a), out=self.sum)
        self.sum += float(c)
        return self.sum.astype(f32)

    def step(self, y: np.ndarray, c: np.float32 | np.ndarray) -> np.ndarray:
        """y = fma(y, x, c), in place on the float32 array y."""
        np.multiply(y, self.x64, out=self.sum)  # exact: 24 bits times 24 bits
        np.add(self.sum, c if isinstance(c, np.ndarray) else float(c), out=self.sum)
        np.copyto(y, self.sum, casting="unsafe")  # the one rounding
        return y


def log_ps(value: np.ndarray) -> np.ndarray:
    """log256_ps of positive normal float32 values (its clamp to the smallest normal and its NaN
    for negative input change nothing there): a new array."""
    bits = value.view(i32)
    x_bits = bits & _MANTISSA_AND_SIGN
    x_bits |= _HALF_EXPONENT  # the mantissa, scaled into [0.5, 1)
    below = x_bits - _SQRT_HALF_BITS
    below >>= 31  # all ones where the mantissa is below sqrt(1/2), else 0
    exponent_bits = bits >> 23
    exponent_bits -= 126  # the exponent of x's scale, plus one
    exponent_bits += below
    exponent = exponent_bits.astype(f32)
    kept = (x_bits & below).view(f32)  # x where below, else +0
    x = x_bits.view(f32)
    x -= f32(1)
    x += kept
    horner = _Horner(x)
    y = horner.start(LOG_POLY[0], LOG_POLY[1])
    for coefficient in LOG_POLY[2:]:
        y = horner.step(y, coefficient)
    y *= x
    square = x * x
    horner.x64[...] = square  # from here the multiplier is x squared
    y = horner.step(y, exponent * LOG_Q1)
    square *= f32(0.5)
    y -= square
    x += y
    # exponent (an integer of at most 5 bits) times Q2 (9 significant bits) is exact in
    # float32, so this fused multiply-add is one float32 addition
    exponent *= LOG_Q2
    exponent += x
    return exponent


def sincos_ps(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincos256_ps of float32 angles in [0, 2*pi] (the fill's): new arrays (sin, cos)."""
    octant = (theta * FOUR_OVER_PI).astype(i32)
    octant += 1
    octant &= ~1
    y = octant.astype(f32)
    # y is 0, 2, 4, 6 or 8 for angles below 2*pi: its products with DP1 (8 significant bits)
    # and DP2 (11) are exact in float32, so those two fused multiply-adds are plain additions
    x = y * DP1
    x += theta
    x += y * DP2
    reduced = np.multiply(y, float(DP3), dtype=f64)  # exact: y has at most 4 bits
    reduced += x
    np.copyto(x, reduced, casting="unsafe")  # fma(y, DP3, x)
    swap_sin = octant & 4
    swap_sin <<= 29
    pick_sin = octant & 2  # 0 where the sine polynomial gives the sine: mask all ones there
    pick_sin >>= 1
    pick_sin -= 1
    octant -= 2
    np.invert(octant, out=octant)
    octant &= 4
    octant <<= 29
    sign_cos = octant
    square = x * x
    horner = _Horner(square)
    cos_poly = horner.step(horner.start(COS_POLY[0], COS_POLY[1]), COS_POLY[2])
    cos_poly *= square
    cos_poly = horner.step(cos_poly, square * f32(-0.5))
    cos_poly += f32(1)
    sin_poly = horner.step(horner.start(SIN_POLY[0], SIN_POLY[1]), SIN_POLY[2])
    sin_poly *= square
    horner.x64[...] = sin_poly  # fma(x, square * sin_poly, x)
    sin_poly[...] = x
    sin_poly = horner.step(sin_poly, x)
    # choose per lane by the octant, with bits: (where pick, else) = (s, c) or (c, s)
    sin_bits, cos_bits = sin_poly.view(i32), cos_poly.view(i32)
    differ = sin_bits ^ cos_bits
    differ &= pick_sin
    sine = cos_bits ^ differ
    sine ^= swap_sin
    cosine = sin_bits ^ differ
    cosine ^= sign_cos
    return sine.view(f32), cosine.view(f32)
