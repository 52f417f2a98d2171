"""Tutorial programs that import the libraries (math, random, numpy, matplotlib, torchviz,
torch.utils.data, ...), as published, checked against real PyTorch 2.13.

tests/oracle_library/NAME.json is what ../shared/oracle/torch_oracle.py recorded when real
PyTorch (with numpy, matplotlib and torchviz) ran NAME.expr; line 1 of each program is the URL
it was published at, line 2 what was changed (a seed line where the original draws unseeded
numbers, which differ on every run even in PyTorch). No torch needed here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, assert_matches_pytorch

CASES_DIR = ROOT / "tests" / "oracle_library"
CASES = sorted(p.stem for p in CASES_DIR.glob("*.expr"))
# Cases that fail for a reason outside the libraries, each with that reason.
KNOWN_GAPS: dict[str, str] = {
    "tut_math_polynomial_tensor": "float32 sum of 2000 products: PyTorch's reduction order "
                                  "differs from numpy's in the last digit after 300 steps",
}


def test_every_case_is_a_published_program_with_its_pytorch_result() -> None:
    assert len(CASES) >= 20, "the library corpus went missing"
    for name in CASES:
        first = (CASES_DIR / f"{name}.expr").read_text(encoding="utf-8").split("\n", 1)[0]
        assert first.startswith("# https://"), name
        assert (CASES_DIR / f"{name}.json").exists(), f"{name}: no PyTorch result"


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_GAPS[name], strict=True))
    if name in KNOWN_GAPS else name for name in CASES])
def test_case_matches_pytorch(name: str, cli: Any) -> None:
    assert_matches_pytorch(cli, CASES_DIR / f"{name}.expr", CASES_DIR / f"{name}.json")


def test_known_gaps_are_cases() -> None:
    assert set(KNOWN_GAPS) <= set(CASES)
    assert all(isinstance(reason, str) and reason for reason in KNOWN_GAPS.values())
    assert Path(__file__).name == "test_oracle_library.py"
