"""Floating-point arithmetic as PyTorch's compiled CPU kernels do it, in numpy.

PyTorch builds its CPU kernels with fused multiply-add contraction: `x * (to - from) + from`
is one rounding, not two. numpy has no fused multiply-add, so `fma32`/`fma64` compute it exactly
(error-free products and sums) and round once. The vectorised normal fill of float32 tensors
evaluates log, sin and cos with the Cephes polynomials of ATen's avx_mathfun.h, compiled with
those contractions; `log_ps` and `sincos_ps` repeat that evaluation step by step.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import math
from typing import Any

import numpy as np

f32, f64 = np.float32, np.float64
_LOW29 = np.uint64(0x1FFFFFFF)
_HALF29 = np.uint64(0x10000000)


def fma32(a: Any, b: Any, c: Any) -> np.ndarray:
    """float32 a*b + c with one rounding. The float64 product of two float32 values is exact;
    the float64 sum can only mislead the final rounding when it lands on a float32 midpoint
    (it does: about once in a million normals), and then the sum's error decides."""
    total = np.multiply(a, b, dtype=f64)
    total += c
    tie = (total.view(np.uint64) & _LOW29) == _HALF29
    if tie.any():  # rare: redo just those elements with the sum's exact error
        where = np.unravel_index(np.flatnonzero(tie), tie.shape)
        product = np.broadcast_to(np.multiply(a, b, dtype=f64), total.shape)[where]
        addend = np.broadcast_to(np.asarray(c, dtype=f64), total.shape)[where]
        rounded = total[where]
        back = rounded - product
        error = (product - (rounded - back)) + (addend - back)
        total[where] = np.where(error == 0, rounded,
                                np.nextafter(rounded, np.where(error > 0, np.inf, -np.inf)))
    return total.astype(f32)


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scaled = a * 134217729.0  # 2**27 + 1 (Dekker)
    high = scaled - (scaled - a)
    return high, a - high


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    total = a + b
    back = total - a
    return total, (a - (total - back)) + (b - back)


def fma64(a: Any, b: Any, c: Any) -> np.ndarray:
    """float64 a*b + c with one rounding (exact product and sums, ties resolved)."""
    a, b, c = (np.asarray(v, dtype=f64) for v in (a, b, c))
    a, b, c = np.broadcast_arrays(a, b, c)
    product = a * b
    a_high, a_low = _split(a)
    b_high, b_low = _split(b)
    product_low = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    high, low = _two_sum(product, c)
    rest, rest_low = _two_sum(low, product_low)
    result, result_low = _two_sum(high, rest)
    # Only a tie in the last rounding can be decided by the tiny `rest_low`.
    ulp_half = np.abs(np.spacing(result)) / 2
    tie = (np.abs(result_low) == ulp_half) & (rest_low != 0) & (
        np.sign(rest_low) == np.sign(result_low))
    if tie.any():
        result = np.where(tie, result + 2 * result_low, result)
    return result


def fma64_scalar(a: float, b: float, c: float) -> float:
    if b == 1.0 and c == 0.0:
        return a
    return float(fma64(a, b, c))


def glibc_map(function: Any, values: np.ndarray) -> np.ndarray:
    """A libm function over an array through Python's math module (the C library PyTorch calls;
    numpy's own vectorised float64 log differs from it in the last bit)."""
    return np.fromiter(map(function, values.tolist()), dtype=f64, count=values.size)


def log_glibc(values: np.ndarray) -> np.ndarray:
    return glibc_map(math.log, values)


@functools.cache
def _libm_float(name: str) -> Any:
    function = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name + "f")
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return function


def libm(name: str, values: np.ndarray) -> np.ndarray:
    """C's `log`/`log1p`/... element by element, as a scalar ATen kernel calls it (std::log of
    a float is logf, of a double log): numpy's vectorised float32 log differs from logf in the
    last bit for about one value in five. Other dtypes go through float64."""
    if values.dtype == f32:
        return np.fromiter(map(_libm_float(name), values.ravel().tolist()), dtype=f32,
                           count=values.size).reshape(values.shape)
    return glibc_map(getattr(math, name), values.ravel()).reshape(values.shape).astype(
        values.dtype, copy=False)


# --- avx_mathfun.h (Cephes) as compiled into PyTorch's AVX2 kernels ---------------------------

def _c(bits: int) -> np.float32:
    return np.array([bits], dtype=np.uint32).view(f32)[0]


_LOG_POLY = [_c(v) for v in (0x3D9021BB, 0xBDEBD1B8, 0x3DEF251A, 0xBDFE5D4F, 0x3E11E9BF,
                             0xBE2AAE50, 0x3E4CCEAC, 0xBE7FFFFC, 0x3EAAAAAA)]
_LOG_Q1, _LOG_Q2, _SQRT_HALF = _c(0xB95E8083), _c(0x3F318000), _c(0x3F3504F3)
_FOUR_OVER_PI = _c(0x3FA2F983)
_DP1, _DP2, _DP3 = _c(0xBF490000), _c(0xB97DA000), _c(0xB3222169)
_COS_POLY = (_c(0x37CCF5CE), _c(0xBAB6061A), _c(0x3D2AAAA5))
_SIN_POLY = (_c(0xB94CA1F9), _c(0x3C08839E), _c(0xBE2AAAA3))
TWO_PI_F32 = _c(0x40C90FDB)
_SIGN = np.int32(-(2 ** 31))


def _masked(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """AVX's and-with-mask: the value where the mask holds, else +0 (adding +0 turns the -0
    of a negative value times 0 into +0; np.where is several times slower here)."""
    kept = values * mask
    kept += f32(0)
    return kept


def log_ps(value: np.ndarray) -> np.ndarray:
    """log256_ps for positive normal float32 values (its clamp to the smallest normal and its
    NaN for negative input change nothing there)."""
    bits = value.view(np.int32)
    exponent = ((bits >> 23) - 127).astype(f32) + f32(1)
    x = (bits & np.int32(-0x7F800001) | np.int32(0x3F000000)).view(f32)
    below = x < _SQRT_HALF
    kept = _masked(x, below)
    x = x + f32(-1)
    exponent = exponent - below
    x = x + kept
    square = x * x
    y = fma32(_LOG_POLY[0], x, _LOG_POLY[1])
    for coefficient in _LOG_POLY[2:]:
        y = fma32(y, x, coefficient)
    y = fma32(y * x, square, exponent * _LOG_Q1)
    y = y - square * f32(0.5)
    # exponent (an integer of at most 5 bits) times Q2 (9 significant bits) is exact in
    # float32, so this fused multiply-add is one float32 addition
    return exponent * _LOG_Q2 + (x + y)


def sincos_ps(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincos256_ps: (sin, cos) of float32 angles in [0, 2*pi] (the normal fill's)."""
    x = np.abs(theta)
    octant = (x * _FOUR_OVER_PI).astype(np.int32)
    octant = (octant + 1) & ~1
    y = octant.astype(f32)
    swap_sin = (octant & 4) << 29
    first_polynomial = (octant & 2) == 0
    # y is 0, 2, 4, 6 or 8 for angles below 2*pi: its products with DP1 (8 significant bits)
    # and DP2 (11) are exact in float32, so those two fused multiply-adds are plain additions
    x = x + y * _DP1
    x = x + y * _DP2
    x = fma32(y, _DP3, x)
    sign_cos = (~(octant - 2) & 4) << 29
    square = x * x
    half_square = square * f32(0.5)
    cos_poly = fma32(_COS_POLY[0], square, _COS_POLY[1])
    cos_poly = fma32(cos_poly, square, _COS_POLY[2])
    cos_poly = fma32(square, square * cos_poly, -half_square) + f32(1)
    sin_poly = fma32(_SIN_POLY[0], square, _SIN_POLY[1])
    sin_poly = fma32(sin_poly, square, _SIN_POLY[2])
    sin_poly = fma32(x, square * sin_poly, x)
    sin_from_sin = _masked(sin_poly, first_polynomial)
    sin_from_cos = _masked(cos_poly, ~first_polynomial)
    cos_poly = cos_poly - sin_from_cos
    sin_poly = sin_poly - sin_from_sin
    sine = sin_from_cos + sin_from_sin
    cosine = cos_poly + sin_poly
    sign_sin = (theta.view(np.int32) & _SIGN) ^ swap_sin
    return ((sine.view(np.int32) ^ sign_sin).view(f32),
            (cosine.view(np.int32) ^ sign_cos).view(f32))
