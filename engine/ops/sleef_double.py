"""SLEEF's exp, expm1, tanh and erf (u10) for doubles, as ATen's AVX512 Vectorized<double>
calls them (Sleef_expd8_u10, ...).

Same scheme as engine/ops/sleef_float.py one precision up: exp is a polynomial (Estrin's
scheme) after a Cody-Waite reduction; expm1 and tanh go through expk2, which keeps exp(x) as a
double-double; erf is 1 - (1 + x P(x))^-16 up to 2.5 and 1 - exp(Q(x)) past it. Every step is
one float64 operation in SLEEF's order; fused multiply-adds are `float_math.fma64` (exact).
"""

from __future__ import annotations

import numpy as np

from engine.float_math import fma64
from engine.ops.double_word import Pair, add2, add2_pair, add_pair, ldexp2, mul, mul_pair, square

_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U = .69314718055966295651160180568695068359375
_L2L = .28235290563031577122588448175013436025525412068e-12
_EXP_POLY = (0.2081276378237164457e-8, 0.2511210703042288022e-7, 0.2755762628169491192e-6,
             0.2755723402025388239e-5, 0.2480158687479686264e-4, 0.1984126989855865850e-3,
             0.1388888888914497797e-2, 0.8333333333314938210e-2, 0.4166666666666602598e-1,
             0.1666666666666669072e+0)
_EXPK2_POLY = (0.1602472219709932072e-9, 0.2092255183563157007e-8, 0.2505230023782644465e-7,
               0.2755724800902135303e-6, 0.2755731892386044373e-5, 0.2480158735605815065e-4,
               0.1984126984148071858e-3, 0.1388888888886763255e-2, 0.8333333333333347095e-2,
               0.4166666666666669905e-1)


def _estrin10(x: np.ndarray, x2: np.ndarray, x4: np.ndarray, x8: np.ndarray,
              c: tuple[float, ...]) -> np.ndarray:
    """SLEEF's POLY10: c[0] x^9 + ... + c[9], by Estrin's scheme with fused multiply-adds."""
    def poly2(a: float, b: float) -> np.ndarray:
        return fma64(x, a, b)

    def poly4(a: float, b: float, d: float, e: float) -> np.ndarray:
        return fma64(x2, poly2(a, b), poly2(d, e))

    poly8 = fma64(x4, poly4(*c[2:6]), poly4(*c[6:10]))
    return fma64(x8, poly2(c[0], c[1]), poly8)




def _reduce(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """q = rint(d / ln 2) and the reduced s = d - q ln 2 (two fused steps)."""
    u = np.rint(d * _R_LN2)
    s = fma64(u, -_L2U, d)
    return u, fma64(u, -_L2L, s)


def exp(d: np.ndarray) -> np.ndarray:
    """Sleef_expd8_u10."""
    with np.errstate(all="ignore"):
        u, s = _reduce(d)
        q = np.nan_to_num(u, nan=0.0, posinf=0.0, neginf=0.0).astype(np.int64)
        s2 = s * s
        s4 = s2 * s2
        p = _estrin10(s, s2, s4, s4 * s4, _EXP_POLY)
        p = fma64(fma64(fma64(p, s, 0.5), s, 1.0), s, 1.0)
        p = ldexp2(p, np.clip(q, -2100, 2100))
        p = np.where(d > 709.78271114955742909217217426, np.inf, p)
        return np.where(d < -1000, 0.0, p)  # type: ignore[no-any-return]






def _add_scalar_pair(x: float, y: Pair) -> Pair:
    """ddadd of a double and a double-double, |x| >= |y|."""
    s = x + y[0]
    return s, ((x - s) + y[0]) + y[1]










def _expk2(d: np.ndarray) -> Pair:
    """expk2 of a double d (low part 0): exp(d) as a double-double."""
    u, _ = _reduce(d)
    q = np.nan_to_num(u, nan=0.0, posinf=0.0, neginf=0.0).astype(np.int64)
    s = add2((d, np.zeros_like(d)), u * -_L2U)
    s = add2(s, u * -_L2L)
    s2 = square(s)
    s4 = square(s2)
    p = _estrin10(s[0], s2[0], s4[0], s4[0] * s4[0], _EXPK2_POLY)
    t = _add_scalar_pair(0.5, mul(s, 0.1666666666666666574e+0))
    t = _add_scalar_pair(1.0, mul_pair(t, s))
    t = _add_scalar_pair(1.0, mul_pair(t, s))
    t = add_pair(t, mul(s4, p))
    q = np.clip(q, -2100, 2100)
    tiny = d < -1000
    return (np.where(tiny, 0.0, ldexp2(t[0], q)), np.where(tiny, 0.0, ldexp2(t[1], q)))


def expm1(a: np.ndarray) -> np.ndarray:
    """Sleef_expm1d8_u10."""
    with np.errstate(all="ignore"):
        d = add2(_expk2(a), -1.0)
        r = d[0] + d[1]
        r = np.where(a > 709.782712893383996732223, np.inf, r)
        r = np.where(a < -36.736800569677101399113302437, -1.0, r)
        return np.where(a == 0, a, r)  # type: ignore[no-any-return]


def tanh(x: np.ndarray) -> np.ndarray:
    """Sleef_tanhd8_u10."""
    with np.errstate(all="ignore"):
        y = np.abs(x)
        d = _expk2(y)
        inverse = 1.0 / d[0]
        e = (inverse, inverse * fma64(-d[1], inverse, fma64(-d[0], inverse, 1.0)))
        num = add2_pair(d, (-e[0], -e[1]))
        den = add2_pair(d, e)
        t = 1.0 / den[0]
        s = num[0] * t
        low = fma64(s, fma64(-den[1], t, fma64(-den[0], t, 1.0)),
                    fma64(num[1], t, fma64(t, num[0], -s)))
        r = s + low
        r = np.where((y > 18.714973875) | np.isnan(r), 1.0, r)
        return np.where(np.isnan(x), x, np.copysign(r, x))  # type: ignore[no-any-return]


_ERF_NEAR = (-0.2083271002525222097e-14, +0.7151909970790897009e-13, -0.1162238220110999364e-11,
             +0.1186474230821585259e-10, -0.8499973178354613440e-10, +0.4507647462598841629e-9,
             -0.1808044474288848915e-8, +0.5435081826716212389e-8, -0.1143939895758628484e-7,
             +0.1215442362680889243e-7, +0.1669878756181250355e-7, -0.9808074602255194288e-7,
             +0.1389000557865837204e-6, +0.2945514529987331866e-6, -0.1842918273003998283e-5,
             +0.3417987836115362136e-5, +0.3860236356493129101e-5, -0.3309403072749947546e-4,
             +0.1060862922597579532e-3, +0.2323253155213076174e-3, +0.1490149719145544729e-3)
_ERF_FAR = (-0.4024015130752621932e-18, +0.3847193332817048172e-16, -0.1749316241455644088e-14,
            +0.5029618322872872715e-13, -0.1025221466851463164e-11, +0.1573695559331945583e-10,
            -0.1884658558040203709e-9, +0.1798167853032159309e-8, -0.1380745342355033142e-7,
            +0.8525705726469103499e-7, -0.4160448058101303405e-6, +0.1517272660008588485e-5,
            -0.3341634127317201697e-5, -0.2515023395879724513e-5, +0.6539731269664907554e-4,
            -0.3551065097428388658e-3, +0.1210736097958368864e-2, -0.2605566912579998680e-2,
            +0.1252823202436093193e-2, +0.1820191395263313222e-1, -0.1021557155453465954e+0)
_ERF_NEAR_DD = ((0.0092877958392275604405, 7.9287559463961107493e-19),
                (0.042275531758784692937, 1.3785226620501016138e-19),
                (0.07052369794346953491, 9.5846628070792092842e-19))
_ERF_FAR_DD = ((-0.63691044383641748361, -2.4249477526539431839e-17),
               (-1.1282926061803961737, -6.2970338860410996505e-17),
               (-1.2261313785184804967e-05, -5.5329707514490107044e-22))
_EXPK_POLY = (2.51069683420950419527139e-08, 2.76286166770270649116855e-07,
              2.75572496725023574143864e-06, 2.48014973989819794114153e-05,
              0.000198412698809069797676111, 0.0013888888939977128960529,
              0.00833333333332371417601081, 0.0416666666665409524128449,
              0.166666666666666740681535, 0.500000000000000999200722)


def _estrin(powers: list[np.ndarray], c: list[np.ndarray]) -> np.ndarray:
    """SLEEF's POLYn for n a power of two (powers = x, x^2, x^4, ...): highest degree first."""
    if len(c) == 2:
        return fma64(powers[0], c[0], c[1])
    half = len(c) // 2
    level = half.bit_length() - 1
    return fma64(powers[level], _estrin(powers, c[:half]), _estrin(powers, c[half:]))


def _mla_dd(x: np.ndarray, y: Pair, z: Pair) -> Pair:
    return add_pair(z, mul(y, x))


def _expk(d: Pair) -> np.ndarray:
    """expk: exp of a double-double, rounded to a double."""
    u = np.rint((d[0] + d[1]) * _R_LN2)
    q = np.clip(np.nan_to_num(u, nan=0.0, posinf=0.0, neginf=0.0), -2100, 2100).astype(np.int64)
    s = add2(add2(d, u * -_L2U), u * -_L2L)
    head = s[0] + s[1]
    s = (head, (s[0] - head) + s[1])
    s2 = s[0] * s[0]
    s4 = s2 * s2
    p = _estrin10(s[0], s2, s4, s4 * s4, _EXPK_POLY)
    t = add_pair(_add_scalar_pair(1.0, s), mul(square(s), p))
    r = ldexp2(t[0] + t[1], q)
    return np.where(d[0] < -1000, 0.0, r)  # type: ignore[no-any-return]


def erf(a: np.ndarray) -> np.ndarray:
    """Sleef_erfd8_u10 (xerf_u1)."""
    with np.errstate(all="ignore"):
        x = np.abs(a)
        near = x <= 2.5
        x2 = x * x
        x4 = x2 * x2
        x8 = x4 * x4
        c = [np.where(near, n, f) for n, f in zip(_ERF_NEAR, _ERF_FAR, strict=True)]
        # POLY21: x^16 * POLY5(c[0..4]) + POLY16(c[5..20]); POLY5 = x^4 c[0] + POLY4(c[1..4])
        poly5 = fma64(x4, c[0], _estrin([x, x2], c[1:5]))
        t = fma64(x8 * x8, poly5, _estrin([x, x2, x4, x8], c[5:]))
        dd = [(np.where(near, n[0], f[0]), np.where(near, n[1], f[1]))
              for n, f in zip(_ERF_NEAR_DD, _ERF_FAR_DD, strict=True)]
        zero = np.zeros_like(x)
        t2 = _mla_dd(x2, _mla_dd(x, (t, zero), dd[0]), _mla_dd(x, dd[1], dd[2]))
        s2 = _add_scalar_pair(1.0, mul(t2, x))
        for _ in range(4):
            s2 = square(s2)
        inverse = 1.0 / s2[0]
        s2 = (inverse, inverse * fma64(-s2[1], inverse, fma64(-s2[0], inverse, 1.0)))
        far = _expk(t2)
        t2 = add2((np.where(near, s2[0], far), np.where(near, s2[1], 0.0)), -1.0)
        z = -(t2[0] + t2[1])
        z = np.where(x < 1e-8, x * 1.12837916709551262756245475959, z)
        z = np.where((x >= 6) | np.isinf(a), 1.0, z)
        z = np.where(a == 0, 0.0, z)
        return np.where(np.isnan(a), a, np.copysign(z, a))  # type: ignore[no-any-return]
