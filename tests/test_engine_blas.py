"""Float products and vector functions bit for bit as PyTorch 2.13's CPU build computes them.

torch sends matmul/addmm/mv/dot/bmm of float tensors to MKL and sin, exp, sqrt, ... to MKL's
vector math; agraph calls the same MKL (engine/ops/mkl.py). Each case of
golden/blas_snippets.py runs on agraph's engine, and the SHA-256 of every tensor's bytes must
equal what real torch gave (golden/blas_cases.json, from golden/make_blas_cases.py): equal,
not close. Layouts matter (torch picks BLAS's transpose flags from them), so the cases
include transposed operands and nn.Linear's backward.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import threads
from engine.ops import mkl
from tests.test_engine import TORCH

GOLDEN_DIR = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN_DIR))
from blas_snippets import CASES, THREADS  # noqa: E402

EXPECTED = json.loads((GOLDEN_DIR / "blas_cases.json").read_text())["cases"]
pytestmark = pytest.mark.skipif(mkl.library() is None,
                                reason="MKL (the `mkl` wheel, x86-64 Linux) is not installed")


@pytest.fixture(autouse=True)
def torch_threads() -> Iterator[None]:
    mkl.set_threads(THREADS)
    yield
    mkl.set_threads(threads.torch_threads())


def digest(tensor: Any) -> str:
    return hashlib.sha256(np.ascontiguousarray(tensor.array).tobytes()).hexdigest()


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_torch_bit_for_bit(name: str) -> None:
    got = [digest(t) for t in CASES[name](TORCH)]
    wrong = [i for i, (g, e) in enumerate(zip(got, EXPECTED[name], strict=True)) if g != e]
    assert wrong == [], f"{name}: tensors {wrong} differ from torch's"


def test_every_case_has_a_torch_result() -> None:
    assert sorted(EXPECTED) == sorted(CASES)


def test_without_mkl_the_numpy_emulation_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the library every entry point declines, and the engine still multiplies."""
    monkeypatch.setattr(mkl, "library", lambda: None)
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert mkl.gemm(a, a.T) is None and mkl.vml("sin", a) is None
    product = TORCH.tensor(a.tolist()) @ TORCH.tensor(a.T.tolist())
    assert product.array.tolist() == (a @ a.T).tolist()  # small integers: exact either way
