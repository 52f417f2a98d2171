"""GELU (erf) as oneDNN's AVX512 eltwise kernels compute it: torch hands a contiguous float32
input of more than one element to oneDNN (`use_mkldnn`) for gelu and gelu_backward.

Forward: erf(x / sqrt 2) is a piecewise degree-5 polynomial in |x|, chosen by x's exponent and
top two mantissa bits (24 pieces; past the last bound the piece that gives 1), evaluated with
fused multiply-adds; gelu = x * (1 + erf) * 0.5. Backward: 0.5 + x / sqrt(2 pi) * exp(-x^2/2)
+ 0.5 * erf, with the Abramowitz-Stegun erf and oneDNN's own exp (2 * 2^(n-1) * a degree-5
polynomial). Every step is one float32 operation; fused multiply-adds are `fma32`.
"""

from __future__ import annotations

import numpy as np

from engine.float_math import fma32

f32 = np.float32


def _floats(words: str) -> np.ndarray:
    return np.array([int(w, 16) for w in words.split()], dtype=np.uint32).view(f32)


# the coefficients of degree 0..5 (rows), one column per piece (24 used, padded to 32)
_PIECES = _floats("""
a6f2cb94 32827792 3381cc0c 34523d4a 351ac44d 35f36d88 36ee8229 37b8a3bb 3867a213 3940033b
3a2a5a1d 3ae35863 3b7828f2 3c08b14b 3c515ed3 bb503236 bd8d8e5e be8abcd9 bf0c19a2 beccb328
3e176ced 3f470d99 3f7abb28 3f800000 0 0 0 0 0 0 0 0
3f4c422a 3f4c421f 3f4c4207 3f4c41cb 3f4c413b 3f4c3fad 3f4c3a2f 3f4c2d40 3f4c146a 3f4bc341
3f4ad08c 3f48f8cf 3f45fac7 3f404e07 3f3b980f 3f48dff3 3f78b21b 3fbb0704 40019c32 3fe536d6
3f81331e 3e6c8684 3c98f936 0 3f800000 0 0 0 0 0 0 0
b62173f4 3735e4cf 37f2ff89 388c23be 3917535c 39ab2ab0 3a60fadb 3af9b960 3b6e5491 3c0a4ec5
3ca5aa8c 3d2138d9 3d8737d4 3ddfb660 3e0f27ab 3d94004b be0efdeb bf1d96c3 bf89db58 bf6d9897
bef69fb8 bdc4f8a8 bbde6422 0 0 0 0 0 0 0 0 0
be081a19 be084570 be08639b be089837 be08f409 be09ab95 be0b66d0 be0e400a be124df8 be1bde02
be2f19c9 be4931bf be685fbc be89c95f be96cbca be8044aa be0550f2 3dcfd6a1 3e94c826 3e79345f
3decec91 3ca46568 3aa1e00a 0 0 0 0 0 0 0 0 0
ba3d61db 39f097a3 3a5845dc 3ab1fa35 3b0cefb8 3b653ab6 3bcae527 3c221712 3c6c5840 3cc0a703
3d1dcc19 3d63656d 3d955907 3dbf9910 3dd53f69 3db7dcef 3d639ebe ba6ede48 bd22be69 bd041cf1
bc64f5ab bb097a32 b8ebf380 0 0 0 0 0 0 0 0 0
3cb7d80c 3c9b6050 3c978d11 3c92e850 3c8d058b 3c848454 3c6cd623 3c4c824b 3c2a7935 3be0b390
3b0651ac bb232f53 bbd42fa0 bc2c5366 bc492c9e bc2a7aa6 bbd55d04 ba823a76 3b102aa8 3ae25a7e
3a31f792 38b84375 3689bb5a 0 0 0 0 0 0 0 0 0""").reshape(6, 32)
_INDEX_BIAS = np.uint32(0xC21FFFFF).view(np.int32)
_LAST_BOUND = _floats("40b15cee")[0]
_EXP_POLY = _floats("3f7ffffb 3efffee3 3e2aad40 3d2b9d0d 3c07cfce")
_LOG2E, _LN2, _EXP_MAX, _EXP_MIN = _floats("3fb8aa3b 3f317218 42b17218 c2aeac50")
_ERF_POLY = _floats("3e827906 be91a98e 3fb5f0e3 bfba00e3 3f87dc22")  # Abramowitz-Stegun
_ERF_P, _SQRT_HALF, _INV_SQRT_PI = _floats("3ea7ba05 3f3504f3 3f106eba")


def gelu(x: np.ndarray) -> np.ndarray:
    """gelu_erf forward of a float32 array."""
    with np.errstate(all="ignore"):
        magnitude = np.abs(x)
        piece = np.clip((magnitude.view(np.int32) + _INDEX_BIAS) >> 21, 1, 24)
        piece = np.where(_LAST_BOUND < magnitude, 23, piece)
        erf = _PIECES[5][piece]
        for degree in range(4, -1, -1):
            erf = fma32(erf, magnitude, _PIECES[degree][piece])
        erf = np.where(np.signbit(x), -erf, erf)
        return (x * (erf + f32(1))) * f32(0.5)  # type: ignore[no-any-return]


def _exp(x: np.ndarray) -> np.ndarray:
    """oneDNN's exp: 0 below log(FLT_MIN), inputs clamped to [log FLT_MIN, log FLT_MAX]."""
    underflow = x < _EXP_MIN
    x = np.maximum(np.minimum(x, _EXP_MAX), _EXP_MIN)
    n = np.floor(x * _LOG2E + f32(0.5))
    r = fma32(-n, _LN2, x)
    half_scale = (((n - f32(1)).astype(np.int32) + 127) << 23).view(f32)  # 2^(n-1)
    half_scale = np.where(underflow, f32(0), half_scale)
    p = fma32(_EXP_POLY[4], r, _EXP_POLY[3])
    for coefficient in (_EXP_POLY[2], _EXP_POLY[1], _EXP_POLY[0], f32(1)):
        p = fma32(p, r, coefficient)
    return (p * half_scale) * f32(2)  # type: ignore[no-any-return]


def gelu_backward(grad: np.ndarray, x: np.ndarray) -> np.ndarray:
    """gelu_erf backward: grad * gelu'(x), float32 arrays of one shape."""
    with np.errstate(all="ignore"):
        r = x * _SQRT_HALF
        q = _exp(-(r * r))
        density = (r * _INV_SQRT_PI) * q
        t = f32(1) / fma32(_ERF_P, np.abs(r), f32(1))
        poly = fma32(_ERF_POLY[4], t, _ERF_POLY[3])
        for coefficient in _ERF_POLY[2::-1]:
            poly = fma32(poly, t, coefficient)
        erf = fma32(-q * t, poly, f32(1))
        erf = np.where(np.signbit(r), -erf, erf)
        return grad * fma32(erf, f32(0.5), density + f32(0.5))  # type: ignore[no-any-return]
