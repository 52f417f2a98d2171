"""The compiled sum (engine/ops/cascade_sum.c) against its numpy reference, bit for bit.

`_contiguous_total` in engine/ops/numerics.py is PyTorch's CPU sum order written with numpy;
the oracle cases check that order against PyTorch. The C twin must give the same bits for
every size (each branch of the order: fewer values than a vector, whole groups of 4 vectors,
leftover vectors and values, the cascade's chunks of 16 and the levels above them) and for
every value (infinities, NaN, signed zeros, subnormals, magnitudes far apart).
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.ops import numerics

pytestmark = pytest.mark.skipif(
    numerics.compiled_total is None,
    reason="engine/ops/cascade_sum.c was not built (no C compiler at install): numpy sums")

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


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_size_gives_the_reference_bits(dtype: type) -> None:
    rng = np.random.default_rng(7)
    differ = []
    for size in SIZES:
        x = _values(rng, size, dtype)
        if _compiled(x).tobytes() != _reference(x).tobytes():
            differ.append(size)
    assert differ == []


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


@pytest.mark.parametrize("values", [
    [np.inf, 1.0, -2.0], [np.inf, -np.inf, 3.0], [np.nan, 1.0], [-0.0] * 40, [-0.0] * 3,
    [1e-45, 1e-45, -1e-45] * 30, [3.4e38, 3.4e38, -3.4e38] * 12, [1.0, 1e-8] * 70,
])
def test_special_values_agree(values: list[float]) -> None:
    for dtype in (np.float32, np.float64):
        x = np.array(values, dtype=dtype)
        assert _compiled(x).tobytes() == _reference(x).tobytes()


def test_the_engine_sums_the_same_with_and_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    arrays = [_values(rng, 100, np.float32).reshape(100, 1), _values(rng, 60, np.float64),
              _values(rng, 24, np.float32).reshape(2, 3, 4)]
    with_it = [numerics.torch_sum(a).tobytes() for a in arrays]
    monkeypatch.setattr(numerics, "compiled_total", None)
    assert [numerics.torch_sum(a).tobytes() for a in arrays] == with_it


@pytest.mark.parametrize("x, out", [
    (np.zeros(4, np.float32), np.zeros((), np.float64)),  # dtypes differ
    (np.zeros(4, np.int32), np.zeros((), np.int32)),  # not a float
    (np.zeros(4, np.float32), np.zeros(2, np.float32)),  # out holds two values
    (np.zeros((4, 4), np.float32)[:, 0], np.zeros((), np.float32)),  # not contiguous
])
def test_what_it_is_not_made_for_is_refused(x: np.ndarray, out: np.ndarray) -> None:
    with pytest.raises((TypeError, ValueError, BufferError)):
        numerics.compiled_total(x, out)


def test_it_never_writes_into_a_read_only_result() -> None:
    out = np.zeros((), np.float32)
    out.flags.writeable = False
    with pytest.raises((TypeError, ValueError, BufferError)):
        numerics.compiled_total(np.ones(5, np.float32), out)
    assert out == 0
