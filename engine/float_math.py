"""Floating-point arithmetic as PyTorch's compiled CPU kernels do it, in numpy.

PyTorch builds its CPU kernels with fused multiply-add contraction: `x * (to - from) + from`
is one rounding, not two. numpy has no fused multiply-add, so `fma32`/`fma64` compute it exactly
(error-free products and sums) and round once.

Each function here is elementwise and its work makes several arrays of its result's size (an
exact product and sum is a dozen float64 temporaries; a C library call per element goes
through a Python list): over a large array it runs block by block (`blockwise`), so what it
holds at once stays small whatever the array (an op's result is within the limits; its
temporaries would not be).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

f32, f64 = np.float32, np.float64
# a float64's bits below float32 precision, and their value on a float32 rounding midpoint
LOW29 = np.uint64(0x1FFFFFFF)
HALF29 = np.uint64(0x10000000)
# +0 of each float dtype, as a numpy scalar (kernels compare and select against it)
ZEROS = {np.dtype(kind): np.dtype(kind).type(0) for kind in ("float16", "float32", "float64")}
BLOCK = 1 << 17  # elements an elementwise helper works on at once
try:  # `libm` from C (engine/libm.c), the same functions; optional
    import engine._libm as _compiled_libm
except ImportError:  # pragma: no cover - ctypes calls them one value at a time
    _compiled_libm = None
# the functions `libm` calls from C (none without the compiled file)
COMPILED_LIBM = frozenset(_compiled_libm.names if _compiled_libm is not None else ())


def block_slices(shape: tuple[int, ...]) -> Any:
    """Indices that cover an array of SHAPE in blocks of at most BLOCK elements (whole rows of
    the leading axis where a row fits, else one row split along the next axis)."""
    if math.prod(shape) <= BLOCK:
        yield (Ellipsis,)
        return
    row = math.prod(shape[1:])
    if row <= BLOCK:
        step = BLOCK // max(row, 1)
        for start in range(0, shape[0], step):
            yield (slice(start, start + step),)
        return
    for index in range(shape[0]):
        for rest in block_slices(shape[1:]):
            yield (slice(index, index + 1), *rest)


def blockwise(function: Any) -> Any:
    """An elementwise FUNCTION of arrays (numbers broadcast) run over bounded blocks of their
    broadcast shape: the same values, its temporaries at most BLOCK elements each."""
    @functools.wraps(function)
    def run(*args: Any) -> Any:
        return in_blocks(function, *args)
    return run


def in_blocks(function: Any, *args: Any) -> Any:
    """`blockwise(function)(*args)` without making the wrapper (for a function made per call)."""
    shape = np.broadcast_shapes(*(np.shape(arg) for arg in args))
    if math.prod(shape) <= BLOCK:
        return function(*args)
    arrays = np.broadcast_arrays(*(np.asarray(arg) for arg in args))
    out: np.ndarray | None = None
    for index in block_slices(shape):
        part = function(*(array[index] for array in arrays))
        if out is None:
            out = np.empty(shape, part.dtype)
        out[index] = part
    return out


@blockwise
def fma32(a: Any, b: Any, c: Any) -> np.ndarray:
    """float32 a*b + c with one rounding. The float64 product of two float32 values is exact;
    the float64 sum can only mislead the final rounding when it lands on a float32 midpoint
    (it does: about once in a million normals), and then the sum's error decides."""
    total = np.multiply(a, b, dtype=f64)
    total += c
    tie = (total.view(np.uint64) & LOW29) == HALF29
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


@blockwise
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
    if not np.isfinite(result).all():  # infinities: the splits above give nan
        result = np.where(np.isfinite(result), result, product + c)
    return result


def fma(a: Any, b: Any, c: Any, dtype: np.dtype) -> np.ndarray:
    """a*b + c rounded once in DTYPE (float32 or float64), as a compiled kernel's fused
    multiply-add gives it."""
    return fma32(a, b, c) if dtype == f32 else fma64(a, b, c)


def fma_accumulate(a: np.ndarray, b: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Over the rows of a and b: total = fma(a[i], b[i], total) from zeros, one rounding per
    row, as a compiled loop that accumulates fused multiply-adds gives it."""
    if dtype == f32:
        total = _float32_rows(a, b)
        if total is not None:
            return total
    total = np.zeros(a.shape[1:], dtype)
    for i in range(len(a)):
        total = fma(a[i], b[i], total, dtype)
    return total


def _float32_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """fma_accumulate of float32 rows from float64 sums, two numpy calls a row, checked at
    once; None if a sum lies on a float32 midpoint and is not exact (rare): then row by row."""
    products = np.multiply(a, b, dtype=f64)  # exact: two float32 values
    sums = np.empty_like(products)
    total = np.zeros(a.shape[1:], f32)
    for i in range(len(a)):
        np.add(products[i], total, out=sums[i])
        total = sums[i].astype(f32)
    tie = (sums.view(np.uint64) & LOW29) == HALF29
    if not tie.any():
        return total
    before = np.concatenate((np.zeros((1, *a.shape[1:])), sums[:-1].astype(f32)))
    back = sums - before  # the sums' exact errors (TwoSum), each with the total it was added to
    error = (products - back) + (before - (sums - back))
    return None if (tie & (error != 0)).any() else total


def fma64_scalar(a: float, b: float, c: float) -> float:
    if b == 1.0 and c == 0.0:
        return a
    return float(fma64(a, b, c))


def glibc_map(function: Any, values: np.ndarray) -> np.ndarray:
    """A libm function over an array through Python's math module (the C library PyTorch calls;
    numpy's own vectorised float64 log differs from it in the last bit)."""
    mapped: np.ndarray = in_blocks(functools.partial(_python_map, function, f64), values)
    return mapped


def _python_map(function: Any, dtype: Any, values: np.ndarray) -> np.ndarray:
    return np.fromiter(map(function, values.ravel().tolist()), dtype=dtype,
                       count=values.size).reshape(values.shape)


def log_glibc(values: np.ndarray) -> np.ndarray:
    return glibc_map(math.log, values)


@functools.cache
def _libm_function(name: str, dtype: Any) -> Any:
    """The C library's `name` for float32 (logf, ...) or float64 (log, ...), through ctypes."""
    import ctypes.util  # lazy: it brings subprocess, shutil and tempfile into every start

    kind = ctypes.c_float if dtype == f32 else ctypes.c_double
    function = getattr(ctypes.CDLL(ctypes.util.find_library("m")),
                       name + "f" if dtype == f32 else name)
    function.restype, function.argtypes = kind, [kind]
    return function


def libm(name: str, values: np.ndarray) -> np.ndarray:
    """C's `log`/`log1p`/... element by element, as a scalar ATen kernel calls it (std::log of
    a float is logf, of a double log): numpy's vectorised float32 log differs from logf in the
    last bit for about one value in five. Other dtypes go through float64. C's results where
    Python's math module would raise: log(0) is -inf, exp(1000) inf."""
    dtype = f32 if values.dtype == f32 else f64
    source = values if values.dtype == dtype else values.astype(f64)
    if name in COMPILED_LIBM:  # the C functions, called from C (engine/libm.c)
        result = from_c(functools.partial(_compiled_libm.apply, name), source, dtype)
    else:  # the same C functions through ctypes, one value at a time
        result = in_blocks(functools.partial(_python_map, _libm_function(name, dtype), dtype),
                           source)
    return result if values.dtype == dtype else result.astype(values.dtype, copy=False)


def from_c(function: Any, values: np.ndarray, dtype: Any) -> np.ndarray:
    """A compiled file's elementwise `function(source, out)` over `values` of any layout: a
    new array of `dtype` and values' shape."""
    source = np.ascontiguousarray(values)
    out = np.empty(source.shape, dtype)
    function(source, out)
    return out.reshape(values.shape)


def maximum(a: Any, b: Any) -> np.ndarray:
    """ATen's max of two floats: NaN wins, and on a tie the first operand (-0 against 0 stays
    -0: relu(-0.) is -0.); numpy's maximum takes the second."""
    return _first_on_ties(np.maximum(a, b), a, b)


def minimum(a: Any, b: Any) -> np.ndarray:
    """ATen's min of two floats: NaN wins, and on a tie the first operand."""
    return _first_on_ties(np.minimum(a, b), a, b)


def _first_on_ties(result: np.ndarray, a: Any, b: Any) -> np.ndarray:
    if result.dtype.kind != "f":
        return result
    return np.where(a == b, a, result)
