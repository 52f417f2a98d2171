"""The engine against what PyTorch 2.13 showed for the same small programs.

Each case of golden/engine_snippets.py runs here on agraph's engine (through the same dicts
that bind `torch` in a program) and must record what real torch recorded in
golden/engine_cases.json: values, dtypes, flags, gradients, grad_fn chains, printed text,
warnings, and the error type and message. golden/make_engine_cases.py regenerates the JSON;
this test never imports torch.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from engine import api
from engine.tensor import Tensor

GOLDEN_DIR = Path(__file__).parent / "golden"
sys.path.insert(0, str(GOLDEN_DIR))
from engine_snippets import CASES, Side, run_case  # noqa: E402

EXPECTED = json.loads((GOLDEN_DIR / "engine_cases.json").read_text())["cases"]
SIDE = Side(Tensor, version=lambda t: t.version, node_name=lambda n: n.grad_fn_name)


def torch_namespace() -> SimpleNamespace:
    """What `import torch` binds in a program, as a plain namespace for the cases."""
    torch = SimpleNamespace(**api.TORCH)
    torch.autograd = SimpleNamespace(**api.AUTOGRAD)
    torch.nn = SimpleNamespace(**api.NN, functional=SimpleNamespace(**api.FUNCTIONAL))
    return torch


TORCH = torch_namespace()


def recorded(name: str) -> dict[str, Any]:
    """A case run on the engine, with tuples made lists as the golden file holds them."""
    return json.loads(json.dumps(run_case(CASES[name], TORCH, SIDE)))  # type: ignore[no-any-return]


def differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where two recordings differ; floats within float32 tolerance count as equal."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = [f"{path}.{key}: missing" for key in expected if key not in actual]
        found += [f"{path}.{key}: unexpected" for key in actual if key not in expected]
        for key in expected:
            if key in actual:
                found += differences(expected[key], actual[key], f"{path}.{key}")
        return found
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [d for i, (e, a) in enumerate(zip(expected, actual, strict=True))
                for d in differences(e, a, f"{path}[{i}]")]
    if type(expected) is float and type(actual) is float:
        if math.isclose(expected, actual, rel_tol=1e-5, abs_tol=1e-6):
            return []
    elif type(expected) is type(actual) and expected == actual:
        return []
    return [f"{path}: torch {expected!r}, engine {actual!r}"]


def test_golden_file_matches_the_snippets() -> None:
    assert set(EXPECTED) == set(CASES), "rerun golden/make_engine_cases.py"
    assert len(EXPECTED) >= 300


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine_matches_torch(name: str) -> None:
    found = differences(EXPECTED[name], recorded(name))
    assert not found, "\n".join(found[:12])


def test_recorded_reprs_hide_addresses() -> None:
    """Node reprs in the golden file are normalised; the engine's must normalise the same way."""
    node = (Tensor._wrap(__import__("numpy").ones(1)).requires_grad_() * 2).grad_fn
    assert re.sub(r" at 0x[0-9a-fA-F]+", " at 0x?", repr(node)) == "<MulBackward0 object at 0x?>"


def test_a_second_derivative_through_det_or_svd_is_refused_not_constant() -> None:
    a = api.TORCH["tensor"]([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
    for result in (api.TORCH["det"](a), api.TORCH["svd"](a).S.sum()):
        with pytest.raises(NotImplementedError, match="cannot be differentiated again"):
            api.AUTOGRAD["grad"](result, a, create_graph=True)
