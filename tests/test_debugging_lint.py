"""Gradient-flow lint: `agraph lint FILE`, and the same notes after `agraph run` (on stderr,
only when there is one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SAMPLES

CUT_AND_UNUSED = """\
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5], requires_grad=True)
u = torch.tensor([3.0], requires_grad=True)
x = torch.tensor([1.0, -1.0])
with torch.no_grad():
    scaled = w * 2
loss = (scaled * x).sum() + (b * 0).sum()
loss.backward()
"""

DETACHED = """\
import torch
w = torch.tensor(2.0, requires_grad=True)
v = torch.tensor(1.0, requires_grad=True)
frozen = w.detach()
loss = frozen * 3 + v
loss.backward()
"""

ACCUMULATING = """\
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
for step in range(3):
    loss = (w * w).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
"""

# filling a gradient element by element is not the accumulation bug
ELEMENT_BY_ELEMENT = """\
import torch
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
for i in range(3):
    out = a[i] * a[i]
    out.backward()
print(a.grad)
"""


def lint(cli: Any, tmp_path: Path, text: str) -> Any:
    path = tmp_path / "p.expr"
    path.write_text(text, encoding="utf-8")
    return cli("lint", str(path), "--json")


def findings(cli: Any, tmp_path: Path, text: str) -> list[tuple[int, str]]:
    result = lint(cli, tmp_path, text)
    return [(f["line"], f["kind"]) for f in json.loads(result.stdout)["lint"]]


def test_cut_by_no_grad_zero_grad_and_unused_input(cli: Any, tmp_path: Path) -> None:
    assert findings(cli, tmp_path, CUT_AND_UNUSED) == [
        (3, "zero-grad"), (4, "unused-input"), (7, "cut-path")]
    path = tmp_path / "p.expr"
    text = cli("lint", str(path)).stdout
    assert (f"{path}:7: lint (cut-path): the value of w reaches the output of the backward at "
            "line 9 only through here, where torch.no_grad() cuts the graph: w gets no "
            "gradient from it\n  fix: compute this without torch.no_grad() if w should learn "
            "from it\n") in text
    assert f"{path}:4: lint (unused-input): u requires grad but does not reach" in text
    assert "  fix: use u in the computation of the loss, or create it without " in text


def test_cut_by_detach_points_at_the_detach(cli: Any, tmp_path: Path) -> None:
    result = lint(cli, tmp_path, DETACHED)
    (finding,) = json.loads(result.stdout)["lint"]
    assert finding["line"] == 4 and finding["kind"] == "cut-path"
    assert "detach() or .data cuts the graph: w gets no gradient" in finding["message"]
    assert result.exit_code == 1


def test_accumulation_across_iterations(cli: Any, tmp_path: Path) -> None:
    result = lint(cli, tmp_path, ACCUMULATING)
    (finding,) = json.loads(result.stdout)["lint"]
    assert (finding["line"], finding["kind"]) == (5, "accumulating-grad")
    assert "w.grad accumulates across iterations" in finding["message"]
    assert finding["fix"] == ("call optimizer.zero_grad() or w.grad.zero_() before each "
                              "backward()")
    assert findings(cli, tmp_path, ELEMENT_BY_ELEMENT) == []


def test_nonleaf_grad_and_second_backward_on_the_samples(cli: Any) -> None:
    leaf_nodes = cli("lint", str(SAMPLES / "leaf_nodes.expr"))
    assert leaf_nodes.exit_code == 1
    assert leaf_nodes.stdout == (
        f"{SAMPLES}/leaf_nodes.expr:16: lint (nonleaf-grad): a.grad, b.grad, y.grad are read "
        "on non-leaf tensors: backward() does not keep them, so they are None\n"
        "  fix: call retain_grad() on a, b, y before backward() to keep their grads, or read "
        "the grads of leaves\n")
    twice = cli("lint", str(SAMPLES / "backward_twice_error.expr"))
    assert twice.stdout == (
        f"{SAMPLES}/backward_twice_error.expr:20: lint (second-backward): this backward walks "
        "a graph that the backward at line 19 already freed\n"
        "  fix: pass retain_graph=True to the backward at line 19, or run the forward again "
        "before this backward\n")
    assert twice.stderr.startswith(f"{SAMPLES}/backward_twice_error.expr:20:1: RuntimeError: "
                                   "Trying to backward through the graph a second time")


def test_retain_grad_is_not_reported(cli: Any) -> None:
    result = cli("lint", str(SAMPLES / "retain_grad.expr"))
    assert "b.grad, y.grad are read" in result.stdout and "a.grad" not in result.stdout


CLEAN = ["create_graph", "dynamic_graph", "grad_fn", "gradient_weights", "inplace_id",
         "linear_backward", "no_grad_regression", "partial_grad_mm", "requires_grad",
         "retain_graph", "rnn_cell", "training_loop"]


@pytest.mark.parametrize("name", CLEAN)
def test_clean_programs_say_nothing(cli: Any, name: str) -> None:
    result = cli("run", str(SAMPLES / f"{name}.expr"), "--lint")
    assert result.stderr == ""
    assert cli("lint", str(SAMPLES / f"{name}.expr")).exit_code == 0


def test_notes_after_run_go_to_stderr_and_json_gets_a_field(cli: Any, tmp_path: Path) -> None:
    piped = cli("run", str(SAMPLES / "leaf_nodes.expr"))
    assert "lint (" not in piped.stderr  # by default notes are only for a terminal's stderr
    unused = tmp_path / "unused.expr"
    unused.write_text("import torch\nw = torch.tensor([1.], requires_grad=True)\n"
                      "u = torch.tensor([1.], requires_grad=True)\ny = (w * 2).sum()\n"
                      "y.backward()\n", encoding="utf-8")
    run = cli("run", str(unused), "--lint")
    assert run.exit_code == 0
    assert "lint (" in run.stderr and "lint" not in run.stdout
    warned = cli("run", str(SAMPLES / "leaf_nodes.expr"), "--lint")  # PyTorch's warning says it
    assert "UserWarning" in warned.stderr and "lint (" not in warned.stderr
    quiet = cli("run", str(SAMPLES / "leaf_nodes.expr"), "--no-lint")
    assert "lint (" not in quiet.stderr
    document = json.loads(cli("run", str(SAMPLES / "leaf_nodes.expr"), "--json",
                              "--lint").stdout)
    assert [f["kind"] for f in document["lint"]] == ["nonleaf-grad"]
    clean = json.loads(cli("run", str(SAMPLES / "grad_fn.expr"), "--json", "--lint").stdout)
    assert clean["lint"] == []


def test_help_has_an_example(cli: Any) -> None:
    assert "Example: agraph lint samples/leaf_nodes.expr" in cli("lint", "--help").stdout
