"""SLEEF's double-word arithmetic: a value kept as an unevaluated sum of two floats of one
dtype (a "double-float" for float32, a "double-double" for float64), each operation in SLEEF's
order, each fused multiply-add exact (`float_math.fma` in the pair's dtype). engine/ops/
sleef_float.py and sleef_double.py build their tanh, expm1 and erf on it."""

from __future__ import annotations

import numpy as np

from engine.float_math import fma

Pair = tuple[np.ndarray, np.ndarray]


def add2(x: Pair, y: np.ndarray | float) -> Pair:
    """dfadd2/ddadd2 of a pair and a value (no order assumed between them)."""
    s = x[0] + y
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y - v)) + x[1]


def add2_pair(x: Pair, y: Pair) -> Pair:
    s = x[0] + y[0]
    v = s - x[0]
    return s, ((x[0] - (s - v)) + (y[0] - v)) + (x[1] + y[1])


def add_pair(x: Pair, y: Pair) -> Pair:
    """dfadd/ddadd of two pairs, |x| >= |y|."""
    s = x[0] + y[0]
    return s, (((x[0] - s) + y[0]) + x[1]) + y[1]


def mul(x: Pair, y: np.ndarray | float) -> Pair:
    s = x[0] * y
    return s, fma(x[1], y, fma(x[0], y, -s, s.dtype), s.dtype)


def mul_pair(x: Pair, y: Pair) -> Pair:
    s = x[0] * y[0]
    return s, fma(x[0], y[1], fma(x[1], y[0], fma(x[0], y[0], -s, s.dtype), s.dtype), s.dtype)


def square(x: Pair) -> Pair:
    s = x[0] * x[0]
    return s, fma(x[0] + x[0], x[1], fma(x[0], x[0], -s, s.dtype), s.dtype)


def ldexp2(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """x * 2**q in two steps (q may exceed one exponent's range)."""
    half = q >> 1
    one = x.dtype.type(1)
    return x * np.ldexp(one, half) * np.ldexp(one, q - half)  # type: ignore[no-any-return]
