"""Every sample is executable documentation: its output must equal what PyTorch 2.13 gives.

tests/golden/samples/NAME.json was made by running real PyTorch 2.13 on samples/NAME.expr
(../shared/oracle/torch_oracle.py); this suite never needs torch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, SAMPLES, assert_matches_pytorch

GOLDEN = ROOT / "tests" / "golden" / "samples"
SAMPLE_NAMES = sorted(p.stem for p in SAMPLES.glob("*.expr"))


def test_every_sample_has_a_golden_and_a_teaching_comment() -> None:
    assert SAMPLE_NAMES, "no samples"
    for name in SAMPLE_NAMES:
        assert (GOLDEN / f"{name}.json").exists(), f"{name}: no PyTorch golden"
        first = (SAMPLES / f"{name}.expr").read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# What it teaches:"), name


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_matches_pytorch(name: str, cli: Any) -> None:
    assert_matches_pytorch(cli, SAMPLES / f"{name}.expr", GOLDEN / f"{name}.json")


def test_samples_dir_is_where_readme_says() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "samples/leaf_nodes.expr" in readme
    assert Path(SAMPLES / "leaf_nodes.expr").exists()
