"""`agraph explain`: every path from OUTPUT back to INPUT, its local derivatives and product,
and their sum checked against INPUT.grad."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autograd_cli.graph import rendering
from autograd_cli.graph.provenance import Provenance
from autograd_cli.language.limits import Limits
from autograd_cli.tools.explain import ExplainObserver, Explanation, highlight_paths
from engine import api
from tests.conftest import SAMPLES

DOUBLING = """\
import torch
x = torch.tensor(1.0, requires_grad=True)
y = x
for i in range(60):
    y = y + y
y.backward()
"""


def explained(text: str, output: str, input_name: str, max_paths: int = 20
              ) -> tuple[Explanation, Any, Any]:
    """The explanation, the run's result and its recorder, through the library."""
    api.reset_state()
    provenance = Provenance()
    observer = ExplainObserver(provenance, output, input_name, max_paths)
    result, recorder = rendering.record_program(text, Limits(),
                                                observers=[provenance, observer])
    assert result.error is None, result.error
    return observer.finish(result.variables), result, recorder


def sample(name: str) -> str:
    return (SAMPLES / f"{name}.expr").read_text(encoding="utf-8")


def test_computation_graph_has_two_paths_that_sum_to_w_grad(cli: Any) -> None:
    result = cli("explain", str(SAMPLES / "computation_graph.expr"), "y", "w")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "2 paths from y back to w:" in out
    assert "path 1: y <- a <- w" in out and "path 2: y <- b <- w" in out
    assert re.search(r"dy/da = 2 +MulBackward0, line 15", out)
    assert re.search(r"da/dw = 1 +AddBackward0, line 12", out)
    assert re.search(r"dy/db = 3 +MulBackward0, line 15", out)
    assert re.search(r"db/dw = 1 +AddBackward0, line 14", out)
    assert "product: 2 x 1 = 2" in out and "product: 3 x 1 = 3" in out
    assert "sum over the 2 paths: 2 + 3 = 5" in out
    assert "check: w.grad = 5, the sum of the paths. OK" in out
    assert result.stderr == ""  # the program's own warnings are not explain's business


def test_the_numbers_are_the_gradients() -> None:
    explanation, result, _ = explained(sample("computation_graph"), "y", "x")
    assert explanation.total_paths == 1
    (path,) = explanation.paths
    assert [step.local for step in path.steps] == [2.0, 1.0]  # dy/da = b = 2, da/dx = 1
    x_grad = result.variables["x"].grad.array
    assert np.allclose(path.product, x_grad)
    explanation, result, _ = explained(sample("computation_graph"), "y", "w")
    total = sum(p.product for p in explanation.paths)
    assert np.allclose(total, result.variables["w"].grad.array)  # 5


def test_tensor_paths_sum_to_the_gradient_of_the_explained_pass() -> None:
    # 800 steps of gradient descent: the last pass from loss is explained; w is [1, 1]
    explanation, _, _ = explained(sample("no_grad_regression"), "loss", "w")
    assert explanation.from_output_pass and explanation.total_paths == 1
    (path,) = explanation.paths
    assert path.steps[0].shapes == ((), (100, 1))  # sum: [] <- [100, 1]
    assert explanation.delivered is not None
    assert np.allclose(path.product, explanation.delivered)
    assert explanation.final_grad is not None and not explanation.final_grad.any()  # zero_()


def test_tensor_output_shows_shapes_and_norms(cli: Any) -> None:
    result = cli("explain", str(SAMPLES / "no_grad_regression.expr"), "loss", "w")
    assert result.exit_code == 0
    assert "Jacobian [] -> [100, 1]; gradient carried so far: [100, 1] norm" in result.stdout
    assert "the program zeroed w.grad after it (zero_())" in result.stdout


def test_a_graph_with_exponentially_many_paths_is_capped_and_still_checked(cli: Any,
                                                                           tmp_path: Path
                                                                           ) -> None:
    program = tmp_path / "doubling.expr"
    program.write_text(DOUBLING, encoding="utf-8")
    result = cli("explain", str(program), "y", "x", "--max-paths", "3")
    assert result.exit_code == 0
    assert f"{2 ** 60} paths from y back to x" in result.stdout
    assert result.stdout.count("\npath ") == 3
    assert f"listed the first 3 of {2 ** 60} paths" in result.stdout
    assert "check: x.grad = 1.15292e+18, the sum of the paths. OK" in result.stdout


def test_without_a_backward_the_graph_at_the_end_is_explained(tmp_path: Path) -> None:
    text = "import torch\nw = torch.tensor(3.0, requires_grad=True)\ny = w * w + w\n"
    explanation, _, _ = explained(text, "y", "w")
    assert not explanation.from_output_pass
    assert explanation.total_paths == 3  # w*w (twice) and + w
    assert sorted(float(p.product) for p in explanation.paths) == [1.0, 3.0, 3.0]
    assert explanation.whole is not None and float(explanation.whole) == 7.0


def test_a_non_leaf_input_and_an_input_that_is_cut_off(cli: Any) -> None:
    explanation, _, _ = explained(sample("computation_graph"), "y", "a")
    assert [float(p.product) for p in explanation.paths] == [2.0]
    assert explanation.final_grad is not None and float(explanation.final_grad) == 2.0
    text = ("import torch\nw = torch.tensor(1.0, requires_grad=True)\n"
            "y = w.detach() * 2 + torch.tensor(1.0, requires_grad=True)\ny.backward()\n")
    explanation, _, _ = explained(text, "y", "w")
    assert explanation.total_paths == 0


def test_unknown_names_are_refused(cli: Any) -> None:
    result = cli("explain", str(SAMPLES / "computation_graph.expr"), "y", "nope")
    assert result.exit_code == 1
    assert "nope is not defined when the program ends" in result.stderr
    assert "(its tensors: a, b, w, x, y)" in result.stderr


def test_svg_model_highlights_both_paths() -> None:
    explanation, _, recorder = explained(sample("computation_graph"), "y", "w")
    graph = highlight_paths(rendering.graph_model(recorder), explanation)
    marked = {n.attrs.get("name") or n.attrs.get("op") for n in graph.nodes if n.role == "path"}
    assert marked == {"y", "a", "b", "w", "mul", "add"}
    assert "x" not in marked
    # mul->y, a->mul, add->a, w->add, and b->mul, add'->b, w->add'
    assert sum(e.kind == "path" for e in graph.edges) == 7


def test_svg_model_starts_at_the_last_tensor_bound_to_the_output_name() -> None:
    text = ("import torch\nw = torch.tensor([2.0], requires_grad=True)\ny = w * 3\n"
            "y = y * w\ny.backward()\n")
    explanation, _, recorder = explained(text, "y", "w")
    graph = highlight_paths(rendering.graph_model(recorder), explanation)
    marked = {n.attrs.get("name") for n in graph.nodes if n.role == "path" and n.kind == "tensor"}
    assert marked == {"y (2)", "y", "w"}  # names numbered by binding: y, then y (2)


@pytest.mark.graphviz
def test_svg_option_writes_the_highlighted_graph(cli: Any, tmp_path: Path) -> None:
    target = tmp_path / "paths.svg"
    result = cli("explain", str(SAMPLES / "computation_graph.expr"), "y", "w", "--svg",
                 str(target))
    assert result.exit_code == 0
    assert "#2b8a3e" in target.read_text(encoding="utf-8")  # the path colour


def test_help_has_an_example(cli: Any) -> None:
    assert "Example: agraph explain samples/computation_graph.expr y w" in cli(
        "explain", "--help").stdout
