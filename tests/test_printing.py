"""engine.printing against what PyTorch 2.13 printed for the same tensors.

The expected texts in golden/printing_cases.json come from real torch
(golden/make_printing_cases.py regenerates them; this test never imports torch).
"""

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.printing import (
    format_scalar_tensor,
    get_printoptions,
    set_printoptions,
    tensor_repr,
)

GOLDEN = json.loads((Path(__file__).parent / "golden" / "printing_cases.json").read_text())
REPR_CASES = [case for case in GOLDEN["cases"] if case["kind"] == "repr"]
FORMAT_CASES = [case for case in GOLDEN["cases"] if case["kind"] == "format"]


def _decode(value: Any) -> Any:
    """The JSON stores nan and infinities as the strings "nan", "inf", "-inf"."""
    if isinstance(value, list):
        return [_decode(item) for item in value]
    return float(value) if isinstance(value, str) else value


def _array(case: dict[str, Any]) -> np.ndarray:
    return np.array(_decode(case["data"]), dtype=case["dtype"]).reshape(case["shape"])


@pytest.fixture(autouse=True)
def default_printoptions() -> Iterator[None]:
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


def test_golden_file_covers_both_functions() -> None:
    assert len(REPR_CASES) >= 300
    assert len(FORMAT_CASES) >= 50


@pytest.mark.parametrize("case", REPR_CASES, ids=[case["name"] for case in REPR_CASES])
def test_tensor_repr_matches_torch(case: dict[str, Any]) -> None:
    if case["options"]:
        set_printoptions(**case["options"])
    text = tensor_repr(
        _array(case),
        requires_grad=case["requires_grad"],
        grad_fn_name=case["grad_fn_name"],
        is_parameter=case["is_parameter"],
    )
    assert text == case["expected"]


@pytest.mark.parametrize("case", FORMAT_CASES, ids=[case["name"] for case in FORMAT_CASES])
def test_format_scalar_tensor_matches_torch(case: dict[str, Any]) -> None:
    array = _array(case)
    if case["error"] is None:
        assert format_scalar_tensor(array, case["spec"]) == case["expected"]
    else:
        error_type, message = case["error"].split(": ", 1)
        with pytest.raises({"TypeError": TypeError, "ValueError": ValueError}[error_type],
                           match=re.escape(message)):
            format_scalar_tensor(array, case["spec"])


def test_every_set_printoptions_call_resets_sci_mode() -> None:
    values = np.array([1e-6, 0.5], dtype=np.float32)
    set_printoptions(sci_mode=False)
    assert tensor_repr(values) == "tensor([0.0000, 0.5000])"
    set_printoptions(precision=4)  # like torch: sci_mode back to automatic
    assert tensor_repr(values) == "tensor([1.0000e-06, 5.0000e-01])"


def test_get_printoptions_round_trips() -> None:
    set_printoptions(precision=2, linewidth=60, sci_mode=True)
    saved = get_printoptions()
    set_printoptions(profile="default")
    set_printoptions(**saved)
    assert get_printoptions() == saved == {
        "precision": 2, "threshold": 1000, "edgeitems": 3, "linewidth": 60, "sci_mode": True,
    }


def test_unknown_profile_is_ignored_like_torch() -> None:
    set_printoptions(profile="nonsense")
    assert get_printoptions()["precision"] == 4
