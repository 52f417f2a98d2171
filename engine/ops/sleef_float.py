"""SLEEF's tanhf and expm1f (u10), as ATen's AVX512 Vectorized<float>::tanh and ::expm1 call them.

Both build on SLEEF's expk2f, which keeps exp(x) as an unevaluated sum of two floats (a
"double-float"). Here every float operation is a numpy float32 operation in SLEEF's order, and
each fused multiply-add is `float_math.fma32` (exact). For float32 arrays only.
"""

from __future__ import annotations

import numpy as np

from engine.float_math import fma32
from engine.ops.double_word import Pair, add2, add2_pair, add_pair, ldexp2, mul, mul_pair, square

f32 = np.float32
_R_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = f32(0.693145751953125), f32(1.428606765330187045e-06)
_POLY = (f32(0.1980960224e-3), f32(0.1394256484e-2), f32(0.8333456703e-2),
         f32(0.4166637361e-1))
_SIXTH = f32(0.166666659414234244790680580464)
_TANH_SATURATES = f32(8.664339742)
_EXPM1_INF, _EXPM1_MINUS_ONE = f32(88.72283172607421875), f32(-16.635532333438687426013570)















def _expk2(d: np.ndarray) -> Pair:
    """expk2f of a float d (its low part 0): exp(d) as a double-float."""
    q = np.rint(d * _R_LN2).astype(np.int32)
    qf = q.astype(f32)
    s = add2((d, np.zeros_like(d)), qf * -_L2U)
    s = add2(s, qf * -_L2L)
    u = np.full_like(d, _POLY[0])
    for coefficient in _POLY[1:]:
        u = fma32(u, s[0], coefficient)
    t = add2(mul(s, u), _SIXTH)
    t = add2(mul_pair(s, t), f32(0.5))
    t = add2_pair(s, mul_pair(square(s), t))
    head = f32(1) + t[0]
    t = (head, ((f32(1) - head) + t[0]) + t[1])
    tiny = d < f32(-104)
    return (np.where(tiny, f32(0), ldexp2(t[0], q)).astype(f32),
            np.where(tiny, f32(0), ldexp2(t[1], q)).astype(f32))


def tanhf(x: np.ndarray) -> np.ndarray:
    """Sleef_tanhf16_u10: (e - 1/e) / (e + 1/e) in double-floats, e = exp(|x|); 1 past 8.66."""
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _expk2(y)
        inverse = f32(1) / d[0]
        e = (inverse, inverse * fma32(-d[1], inverse, fma32(-d[0], inverse, f32(1))))
        num = add_pair(d, (-e[0], -e[1]))
        den = add_pair(d, e)
        t = f32(1) / den[0]  # dfdiv (num / den), then its two parts summed
        s = num[0] * t
        low = fma32(s, fma32(-den[1], t, fma32(-den[0], t, f32(1))),
                    fma32(num[1], t, fma32(t, num[0], -s)))
        r = s + low
        r = np.where((y > _TANH_SATURATES) | np.isnan(r), f32(1), r)
        return np.where(np.isnan(x), x, np.copysign(r, x)).astype(f32)


def expm1f(a: np.ndarray) -> np.ndarray:
    """Sleef_expm1f16_u10: expk2f(a) - 1 in double-floats, summed."""
    with np.errstate(all="ignore"):
        d = add2(_expk2(a), f32(-1))
        r = d[0] + d[1]
        r = np.where(a > _EXPM1_INF, f32(np.inf), r)
        r = np.where(a < _EXPM1_MINUS_ONE, f32(-1), r)
        return np.where(a == 0, a, r).astype(f32)  # keeps -0
