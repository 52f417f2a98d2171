"""agraph's compiled files against what they replace, bit for bit.

engine/ops/cascade_sum.c is the twin of `_contiguous_total` in engine/ops/numerics.py,
PyTorch's CPU sum order written with numpy (the oracle cases check that order against
PyTorch): it must give the same bits for every size (each branch of the order: fewer values
than a vector, whole groups of 4 vectors, leftover vectors and values, the cascade's chunks
of 16 and the levels above them) and for every value (infinities, NaN, signed zeros,
subnormals, magnitudes far apart).

engine/ops/mkl_gemm.c makes engine/ops/mkl.py's MKL gemm call without ctypes: the same
function with the same arguments, so the same bits, and a call whose sizes or leading
dimensions do not fit its arrays is refused before MKL sees it.

engine/ops/sleef_math.c is the twin of numerics.py's `_sleef_expf` and `_sleef_logf`, SLEEF's
float32 exp and log step by step: the same bits for every float32 exponent, subnormals and
special values. engine/ops/nll_cascade.c is the twin of loss.py's `_python_nll_cascade`,
nll_loss's sum over a batch: the same bits for every batch size and each level of its order.
engine/libm.c calls the C library's functions that float_math.libm calls through ctypes: the
same bits. engine/ops/vector_sum.c is the twin of numerics.py's `_reduce_all_sum`.
(engine/backward_walk.c has its own file, tests/test_engine_backward_walk.py.)
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import pytest

from engine import float_math
from engine.ops import loss, mkl, numerics

sums = pytest.mark.skipif(
    numerics.compiled_total is None,
    reason="engine/ops/cascade_sum.c was not built (no C compiler at install): numpy sums")
gemms = pytest.mark.skipif(
    mkl.compiled_gemm is None or mkl.library() is None,
    reason="engine/ops/mkl_gemm.c was not built (no C compiler at install) or no MKL")

SIZES = [*range(1, 700), 1023, 1024, 1025, 4096 + 37, 8191, 8192, 8192 + 5, 8192 * 16 + 3,
         33 * 1024 + 17, 131072, 131072 * 2 + 9]


def _reference(x: np.ndarray) -> np.ndarray:
    return numerics._contiguous_total(x, numerics.VECTOR_BYTES // x.itemsize)


def _compiled(x: np.ndarray) -> np.ndarray:
    out = np.empty((), dtype=x.dtype)
    numerics.compiled_total(x, out)
    return out


def _values(rng: np.random.Generator, size: int, dtype: type) -> np.ndarray:
    """Values of many magnitudes and both signs, so that every change of order shows."""
    exponents = rng.integers(-30, 30, size)
    return (rng.standard_normal(size) * np.exp2(exponents)).astype(dtype)


@sums
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_size_gives_the_reference_bits(dtype: type) -> None:
    rng = np.random.default_rng(7)
    differ = []
    for size in SIZES:
        x = _values(rng, size, dtype)
        if _compiled(x).tobytes() != _reference(x).tobytes():
            differ.append(size)
    assert differ == []


@sums
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sums_that_cancel_and_round_agree(dtype: type) -> None:
    """Values of one magnitude, where a different order changes the last bits."""
    rng = np.random.default_rng(11)
    other_orders = 0
    for size in (100, 257, 1000, 5000, 20000):
        x = rng.random(size).astype(dtype) * 3 - 1
        assert _compiled(x).tobytes() == _reference(x).tobytes()
        other_orders += np.cumsum(x)[-1] != _compiled(x)  # one after another: other bits
    assert other_orders >= 3  # these inputs tell orders apart


@sums
@pytest.mark.parametrize("values", [
    [np.inf, 1.0, -2.0], [np.inf, -np.inf, 3.0], [np.nan, 1.0], [-0.0] * 40, [-0.0] * 3,
    [1e-45, 1e-45, -1e-45] * 30, [3.4e38, 3.4e38, -3.4e38] * 12, [1.0, 1e-8] * 70,
])
def test_special_values_agree(values: list[float]) -> None:
    for dtype in (np.float32, np.float64):
        x = np.array(values, dtype=dtype)
        assert _compiled(x).tobytes() == _reference(x).tobytes()


@sums
def test_the_engine_sums_the_same_with_and_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    arrays = [_values(rng, 100, np.float32).reshape(100, 1), _values(rng, 60, np.float64),
              _values(rng, 24, np.float32).reshape(2, 3, 4)]
    with_it = [numerics.torch_sum(a).tobytes() for a in arrays]
    monkeypatch.setattr(numerics, "compiled_total", None)
    assert [numerics.torch_sum(a).tobytes() for a in arrays] == with_it


@sums
@pytest.mark.parametrize("x, out", [
    (np.zeros(4, np.float32), np.zeros((), np.float64)),  # dtypes differ
    (np.zeros(4, np.int32), np.zeros((), np.int32)),  # not a float
    (np.zeros(4, np.float32), np.zeros(2, np.float32)),  # out holds two values
    (np.zeros((4, 4), np.float32)[:, 0], np.zeros((), np.float32)),  # not contiguous
])
def test_what_it_is_not_made_for_is_refused(x: np.ndarray, out: np.ndarray) -> None:
    with pytest.raises((TypeError, ValueError, BufferError)):
        numerics.compiled_total(x, out)


@sums
def test_it_never_writes_into_a_read_only_result() -> None:
    out = np.zeros((), np.float32)
    out.flags.writeable = False
    with pytest.raises((TypeError, ValueError, BufferError)):
        numerics.compiled_total(np.ones(5, np.float32), out)
    assert out == 0


def _products(rng: np.random.Generator, dtype: type) -> list[tuple[np.ndarray, np.ndarray]]:
    """Operand pairs in every layout mkl.gemm passes on: row- and column-major, transposed
    views, a strided slice (copied first), one-column and one-row results."""
    def matrix(rows: int, cols: int) -> np.ndarray:
        return rng.standard_normal((rows, cols)).astype(dtype)

    wide = matrix(16, 40)
    return [(matrix(32, 4), matrix(4, 16)), (matrix(32, 16), matrix(16, 1)),
            (matrix(1, 32), matrix(32, 16)), (matrix(16, 32).T, matrix(32, 4)),
            (matrix(5, 7), matrix(9, 7).T), (wide[:, ::2], matrix(20, 3)),
            (np.asfortranarray(matrix(33, 65)), matrix(65, 17)), (matrix(3, 300), matrix(300, 2))]


@gemms
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gemm_gives_the_ctypes_bits(dtype: type, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(5)
    cases = _products(rng, dtype)
    biases = [rng.standard_normal(b.shape[1]).astype(dtype) for _, b in cases]
    compiled = [mkl.gemm(a, b).tobytes() + mkl.gemm(a, b, bias, 0.5, 2.0).tobytes()
                for (a, b), bias in zip(cases, biases, strict=True)]
    monkeypatch.setattr(mkl, "compiled_gemm", None)
    through_ctypes = [mkl.gemm(a, b).tobytes() + mkl.gemm(a, b, bias, 0.5, 2.0).tobytes()
                      for (a, b), bias in zip(cases, biases, strict=True)]
    assert compiled == through_ctypes
    a, b = cases[0]
    assert np.allclose(mkl.gemm(a, b), a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


def _call(a: np.ndarray, b: np.ndarray, c: np.ndarray, rows: int, cols: int, depth: int,
          lda: int, ldb: int, ldc: int, address: int | None = None) -> None:
    """C = A B for column-major A (rows x depth), B (depth x cols), C (rows x cols)."""
    assert mkl.compiled_gemm is not None
    where = mkl._GEMM_ADDRESS[np.dtype(np.float32)] if address is None else address
    mkl.compiled_gemm(where, mkl.NO_TRANSPOSE, mkl.NO_TRANSPOSE, rows, cols, depth, 1.0, a, lda,
                      b, ldb, 0.0, c, ldc)


@gemms
def test_gemm_call_that_fits_its_arrays_runs() -> None:
    a, b = np.ones((4, 3), np.float32, order="F"), np.ones((3, 2), np.float32, order="F")
    c = np.zeros((4, 2), np.float32, order="F")
    _call(a, b, c, 4, 2, 3, 4, 3, 4)
    assert (c == 3).all()


@gemms
@pytest.mark.parametrize("change", [
    {"rows": 5}, {"cols": 3}, {"depth": 4}, {"lda": 3}, {"ldb": 2}, {"ldc": 3}, {"ldc": 5},
    {"address": 0}, {"c": np.zeros((4, 2), np.float64, order="F")},
    {"c": np.zeros((4, 2), np.float32)[::-1]}, {"c": np.zeros((4, 2), np.float32)[:0]},
])
def test_gemm_call_that_does_not_fit_is_refused(change: dict) -> None:
    arguments = {"a": np.ones((4, 3), np.float32, order="F"),
                 "b": np.ones((3, 2), np.float32, order="F"),
                 "c": np.zeros((4, 2), np.float32, order="F"),
                 "rows": 4, "cols": 2, "depth": 3, "lda": 4, "ldb": 3, "ldc": 4} | change
    before = arguments["c"].copy()
    with pytest.raises((ValueError, TypeError, BufferError)):
        _call(**arguments)
    assert (arguments["c"] == before).all()


@gemms
def test_gemm_never_writes_into_a_read_only_result() -> None:
    a, b = np.ones((4, 3), np.float32, order="F"), np.ones((3, 2), np.float32, order="F")
    c = np.zeros((4, 2), np.float32, order="F")
    c.flags.writeable = False
    with pytest.raises((ValueError, TypeError, BufferError)):
        _call(a, b, c, 4, 2, 3, 4, 3, 4)
    assert (c == 0).all()


sleefs = pytest.mark.skipif(
    numerics.compiled_sleef is None,
    reason="engine/ops/sleef_math.c was not built (no C compiler at install): numpy computes")
SLEEF_FUNCTIONS = [("expf", numerics._sleef_expf), ("logf", numerics._sleef_logf)]


def _same_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two float arrays of one dtype hold the same bits (any NaN equals any NaN: the
    sign and payload of a NaN never print)."""
    words = np.uint32 if a.dtype == np.float32 else np.uint64
    return (a.view(words) == b.view(words)) | (np.isnan(a) & np.isnan(b))


@sleefs
@pytest.mark.parametrize("name, reference", SLEEF_FUNCTIONS)
def test_sleef_twins_give_the_reference_bits_for_every_exponent(name: str,
                                                                 reference: Any) -> None:
    """Random bit patterns (every exponent, subnormals, both signs, infinities and NaNs), the
    edges of each function's range, and values of the sizes a softmax sees."""
    rng = np.random.default_rng(5)
    x = np.concatenate([
        rng.integers(0, 2**32, 400_000, dtype=np.uint64).astype(np.uint32).view(np.float32),
        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -104.0, -104.00001, -103.99999, 100.0,
                  100.00001, 88.72, -87.34, 1e-45, -1e-45, 1.0, 0.75, 0.74999994, 1.5,
                  3.4e38], np.float32),
        (rng.standard_normal(200_000) * 30).astype(np.float32),
        (rng.random(200_000) * 60).astype(np.float32)])
    out = np.empty_like(x)
    getattr(numerics.compiled_sleef, name)(x, out)
    assert _same_bits(out, reference(x)).all()


@sleefs
def test_sleef_twins_keep_shape_and_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """0-d, 2-d, transposed and strided inputs; the engine's softmax, log_softmax and sigmoid
    give the same bits with and without the compiled file."""
    rng = np.random.default_rng(8)
    y = (rng.standard_normal((6, 29)) * 5).astype(np.float32)
    inputs = [np.float32(2.5), y, y.T, y[:, ::3], np.abs(y)]
    with_it = [(numerics.sleef_expf(v), numerics.sleef_logf(v)) for v in inputs]
    softmaxes = [numerics.softmax_lastdim(y, True), numerics.softmax_lastdim(y, False),
                 numerics.sigmoid(y)]
    monkeypatch.setattr(numerics, "compiled_sleef", None)
    without = [(numerics.sleef_expf(v), numerics.sleef_logf(v)) for v in inputs]
    for (a, b), (c, d) in zip(with_it, without, strict=True):
        assert a.shape == c.shape and a.dtype == c.dtype == np.float32
        assert _same_bits(a, c).all() and _same_bits(b, d).all()
    again = [numerics.softmax_lastdim(y, True), numerics.softmax_lastdim(y, False),
             numerics.sigmoid(y)]
    assert all(a.tobytes() == b.tobytes() for a, b in zip(softmaxes, again, strict=True))


@sleefs
@pytest.mark.parametrize("x, out", [
    (np.zeros(4, np.float64), np.zeros(4, np.float32)),  # not float32
    (np.zeros(4, np.float32), np.zeros(3, np.float32)),  # sizes differ
    (np.zeros((4, 4), np.float32)[:, 0], np.zeros(4, np.float32)),  # not contiguous
])
def test_sleef_twins_refuse_what_they_are_not_made_for(x: np.ndarray, out: np.ndarray) -> None:
    for name, _ in SLEEF_FUNCTIONS:
        with pytest.raises((TypeError, ValueError, BufferError)):
            getattr(numerics.compiled_sleef, name)(x, out)
    read_only = np.zeros(4, np.float32)
    read_only.flags.writeable = False
    with pytest.raises((TypeError, ValueError, BufferError)):
        numerics.compiled_sleef.expf(np.ones(4, np.float32), read_only)
    assert not read_only.any()


nll_sums = pytest.mark.skipif(
    loss.compiled_nll_cascade is None,
    reason="engine/ops/nll_cascade.c was not built (no C compiler at install): Python sums")


@nll_sums
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_cascade_gives_the_reference_bits(dtype: type, weighted: bool) -> None:
    """Every batch size up to 300 and sizes where the cascade's chunks grow (each level of the
    order), values of several magnitudes with signed zeros, ignored targets."""
    rng = np.random.default_rng(4)
    for size in [*range(1, 300), 511, 512, 513, 4096, 4097, 70000]:
        picked = (rng.standard_normal(size) * rng.choice([1e-3, 1.0, 1e3])).astype(dtype)
        picked[rng.random(size) < 0.05] = 0.0
        picked[rng.random(size) < 0.05] = -0.0
        weights = (rng.random(size) * 2).astype(dtype) if weighted else None
        valid = rng.random(size) > 0.1
        compiled = loss._nll_cascade(picked, weights, valid)
        reference = loss._python_nll_cascade(picked, weights, valid)
        assert [np.asarray(v).tobytes() for v in compiled] == [
            np.asarray(v).tobytes() for v in reference], size
        assert [type(v) for v in compiled] == [type(v) for v in reference]


@nll_sums
@pytest.mark.parametrize("args", [
    (np.zeros(4, np.float16), None, np.ones(4, bool), np.zeros(2, np.float16)),  # float16
    (np.zeros(4, np.float32), None, np.ones(3, bool), np.zeros(2, np.float32)),  # lengths
    (np.zeros(4, np.float32), np.zeros(4, np.float64), np.ones(4, bool), np.zeros(2, np.float32)),
    (np.zeros(4, np.float32), None, np.ones(4, np.int8), np.zeros(2, np.float32)),  # not bools
    (np.zeros(4, np.float32), None, np.ones(4, bool), np.zeros(3, np.float32)),  # out: 3
])
def test_nll_cascade_refuses_what_it_is_not_made_for(args: tuple[Any, ...]) -> None:
    with pytest.raises((TypeError, ValueError, BufferError)):
        loss.compiled_nll_cascade(*args)


libms = pytest.mark.skipif(
    not float_math.COMPILED_LIBM,
    reason="engine/libm.c was not built (no C compiler at install): ctypes calls")


@libms
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(float_math.COMPILED_LIBM) or ["none"])
def test_libm_from_c_is_what_ctypes_calls(name: str, dtype: type) -> None:
    """The same C library function over every exponent and the special values (a strided
    view too); where Python's math module has it, its value for every value it accepts."""
    rng = np.random.default_rng(6)
    words = np.uint32 if dtype == np.float32 else np.uint64
    x = np.concatenate([
        rng.integers(0, 2**63, 100_000, dtype=np.uint64).astype(words).view(dtype),
        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 88.7, 89.0, 710.0, -104.0,
                  1e-45], dtype),
        (rng.standard_normal(50_000) * 5).astype(dtype)])[:150_000].reshape(-1, 3)[:, ::2]
    through_ctypes = float_math.in_blocks(functools.partial(
        float_math._python_map, float_math._libm_function(name, dtype), dtype), x)
    from_c = float_math.libm(name, x)
    assert from_c.shape == x.shape and from_c.dtype == dtype
    assert _same_bits(from_c, through_ctypes).all()
    if dtype == np.float64:
        for value, result in zip(x.ravel().tolist()[:20_000], from_c.ravel().tolist()[:20_000],
                                 strict=True):
            try:
                expected = getattr(math, name)(value)
            except (ValueError, OverflowError):  # where C gives -inf, inf or nan
                continue
            assert result == expected or (math.isnan(result) and math.isnan(expected))


@libms
def test_libm_from_c_refuses_what_it_is_not_made_for() -> None:
    apply = float_math._compiled_libm.apply
    with pytest.raises(ValueError):
        apply("sqrt", np.ones(2, np.float32), np.ones(2, np.float32))
    with pytest.raises((TypeError, ValueError, BufferError)):
        apply("log", np.ones(2, np.float64), np.ones(2, np.float32))
    with pytest.raises((TypeError, ValueError, BufferError)):
        apply("log", np.ones(3, np.float32), np.ones(2, np.float32))
    with pytest.raises((TypeError, ValueError, BufferError)):
        apply("log", np.ones(2, np.float16), np.ones(2, np.float16))


vector_sums = pytest.mark.skipif(
    numerics.compiled_reduce_all is None,
    reason="engine/ops/vector_sum.c was not built (no C compiler at install): numpy sums")


@vector_sums
def test_reduce_all_gives_the_reference_bits() -> None:
    """Rows shorter than a vector, whole and partial vectors, one row and batches of them,
    transposed and reversed views, values of many magnitudes: the same bits and the same type
    (a row gives what the numpy version gives)."""
    rng = np.random.default_rng(9)
    for size in [*range(1, 200), 255, 256, 257, 1000, 4099]:
        for shape in [(size,), (3, size), (2, 4, size)]:
            x = _values(rng, int(np.prod(shape)), np.float32).reshape(shape)
            for view in (x, x[..., ::-1], np.swapaxes(x, -1, 0)):
                compiled, reference = numerics.reduce_all_sum(view), numerics._reduce_all_sum(view)
                assert type(compiled) is type(reference)
                assert np.shape(compiled) == np.shape(reference)
                assert np.asarray(compiled).tobytes() == np.asarray(reference).tobytes(), shape


@vector_sums
@pytest.mark.parametrize("rows, out", [
    (np.zeros(6, np.float64), np.zeros(2, np.float32)),  # not float32
    (np.zeros(7, np.float32), np.zeros(2, np.float32)),  # not whole rows
    (np.zeros(6, np.float32), np.zeros(0, np.float32)),  # no rows
    (np.zeros((4, 4), np.float32)[:, 0], np.zeros(2, np.float32)),  # not contiguous
])
def test_reduce_all_refuses_what_it_is_not_made_for(rows: np.ndarray, out: np.ndarray) -> None:
    with pytest.raises((TypeError, ValueError, BufferError)):
        numerics.compiled_reduce_all(rows, out)
