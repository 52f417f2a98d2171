"""Golden DOT / JSON / Mermaid of the seed samples, and their SVGs.

The programs and the expected outputs live in tests/golden/render/. After a deliberate change
to the pictures, regenerate the expected files and review the diff:

    AGRAPH_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_render_golden.py
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from autograd_cli.graph.rendering import record_program, render
from tests.conftest import needs_dot

GOLDEN = Path(__file__).parent / "golden" / "render"
UPDATE = os.environ.get("AGRAPH_UPDATE_GOLDEN") == "1"
SEEDS = ["seed_000_leaf_grad_fn", "seed_000_dynamic_graph_rnn", "seed_002_retain_grad",
         "seed_004_autograd_grad_create_graph"]
EXTENSIONS = {"dot": "dot", "json": "json", "mermaid": "mmd"}
# (file suffix, keep_pass, render options)
CASES: list[tuple[str, int | None, dict[str, Any]]] = [
    ("forward", None, {}),
    ("backward", None, {"view": "backward", "show_saved": True}),
]



def check_golden(path: Path, data: bytes) -> None:
    if UPDATE:
        path.write_bytes(data)
    assert path.exists(), f"{path} is missing: run with AGRAPH_UPDATE_GOLDEN=1"
    assert data.decode("utf-8") == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", sorted(EXTENSIONS))
@pytest.mark.parametrize("suffix,keep_pass,options", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("name", SEEDS)
def test_seed_golden(name: str, suffix: str, keep_pass: int | None, options: dict[str, Any],
                     fmt: str) -> None:
    data = rendered_with_pass(name, fmt, keep_pass, options)
    check_golden(GOLDEN / f"{name}.{suffix}.{EXTENSIONS[fmt]}", data)


def rendered_with_pass(name: str, fmt: str, keep_pass: int | None,
                       options: dict[str, Any]) -> bytes:
    result, recorder = record_program((GOLDEN / f"{name}.expr").read_text(),
                                      keep_pass=keep_pass)
    assert result.error is None, result.error
    return render(recorder, fmt=fmt, pass_number=keep_pass, **options)


@pytest.mark.parametrize("number", [1, 2])
def test_create_graph_passes_golden(number: int) -> None:
    name = "seed_004_autograd_grad_create_graph"
    data = rendered_with_pass(name, "dot", number, {})
    check_golden(GOLDEN / f"{name}.pass{number}.dot", data)


def test_json_graph_of_the_first_seed() -> None:
    data = json.loads(rendered_with_pass("seed_000_leaf_grad_fn", "json", None, {}))
    tensors = {n["attrs"]["name"]: n for n in data["nodes"] if n["kind"] == "tensor"}
    assert sorted(tensors) == ["a", "b", "w", "x", "y"]
    assert tensors["w"]["role"] == "leaf" and tensors["w"]["attrs"]["grad"] == "5."
    assert tensors["a"]["role"] == "retained" and tensors["a"]["attrs"]["grad"] == "2."
    assert tensors["y"]["role"] == "root" and tensors["y"]["attrs"]["value"] == "6."
    assert tensors["b"]["attrs"]["grad_fn"] == "AddBackward0"
    ops = [n["label"][1] for n in data["nodes"] if n["kind"] == "op"]
    assert ops == ["AddBackward0", "AddBackward0", "MulBackward0"]


@needs_dot
@pytest.mark.parametrize("name", SEEDS)
def test_seed_svg_is_xml_with_names_values_grads(name: str) -> None:
    svg = rendered_with_pass(name, "svg", None, {})
    assert svg == rendered_with_pass(name, "svg", None, {})  # byte-identical run to run
    root = ET.fromstring(svg)
    texts = {e.text for e in root.iter() if e.tag.endswith("text")}
    expected = {
        "seed_000_leaf_grad_fn": {"w", "x", "a", "b", "y", "= 6.", "grad = 5.", "grad = 2."},
        "seed_000_dynamic_graph_rnn": {"W_h", "W_x", "h2h", "i2h", "next_h", "next_h (2)", "loss",
                                       "grad [20, 20] float32", "TanhBackward0"},
        "seed_002_retain_grad": {"w", "a", "y", "= [6.]", "grad = [5.]", "grad = [2.]"},
        "seed_004_autograd_grad_create_graph": {"x", "y", "grad_1[0]", "= [6.]", "grad_2[0]",
                                                "= [2.]", "grad_output"},
    }[name]
    assert expected <= texts, expected - texts


@needs_dot
def test_hostile_program_strings_stay_text() -> None:
    result, recorder = record_program((GOLDEN / "hostile_svg_script.expr").read_text())
    assert result.error is None
    for view in ("forward", "backward"):
        svg = render(recorder, fmt="svg", view=view, show_saved=True, title="<script>x</script>")
        root = ET.fromstring(svg)
        assert not [e for e in root.iter() if e.tag.endswith("script")]
        assert b"<script" not in svg


def test_same_bytes_in_other_processes() -> None:
    """No hash order, address or time leaks into the output (PYTHONHASHSEED varies)."""
    import subprocess
    import sys

    program = GOLDEN / "seed_000_dynamic_graph_rnn.expr"
    outputs = set()
    for seed in ("1", "2"):
        result = subprocess.run(
            [sys.executable, "-m", "autograd_cli", "render", str(program), "--format", "dot"],
            capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed}, check=True)
        outputs.add(result.stdout)
    assert outputs == {rendered_with_pass("seed_000_dynamic_graph_rnn", "dot", None, {})}
