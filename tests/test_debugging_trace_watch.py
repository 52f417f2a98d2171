"""`run --trace` (a line per op and per backward node, on stderr) and `run --watch NAME`."""

from __future__ import annotations

import json
from typing import Any

from autograd_cli.tools.watch import sparkline
from tests.conftest import SAMPLES

GRAPH = str(SAMPLES / "computation_graph.expr")


def test_trace_of_the_computation_graph(cli: Any) -> None:
    result = cli("run", GRAPH, "--trace", "--no-lint")
    assert result.exit_code == 0
    trace = [line for line in result.stderr.splitlines() if line.startswith("trace: ")]
    assert trace == [
        "trace: line 12: add(w [], x []) -> a: [] float64  requires_grad=True  "
        "grad_fn=AddBackward0",
        "trace: line 14: add(w [], 1) -> b: [] float64  requires_grad=True  "
        "grad_fn=AddBackward0",
        "trace: line 15: mul(a [], b []) -> y: [] float64  requires_grad=True  "
        "grad_fn=MulBackward0",
        "trace: line 17: backward MulBackward0 of y (line 15): grad [] norm 1 -> [] norm 2, "
        "[] norm 3",
        "trace: line 17: backward AddBackward0 of b (line 14): grad [] norm 3 -> [] norm 3, "
        "None",
        "trace: line 17: backward AddBackward0 of a (line 12): grad [] norm 2 -> [] norm 2, "
        "[] norm 2",
        "trace: line 17: backward AccumulateGrad of w: grad [] norm 5",
        "trace: line 17: backward AccumulateGrad of x: grad [] norm 2",
    ]
    assert result.stdout.startswith("tensor(5., dtype=torch.float64)\n")  # stdout untouched


def test_unnamed_results_get_numbers_and_tensors_their_shapes(cli: Any) -> None:
    program = ("import torch\nw = torch.ones(2, 3, requires_grad=True)\n"
               "y = ((w * 2).sum(dim=0) + 1).mean()\ny.backward()\n")
    result = cli("run", "-", "--trace", input=program)
    lines = [line for line in result.stderr.splitlines() if line.startswith("trace: line 3")]
    assert lines == [
        "trace: line 3: mul(w [2, 3], 2) -> %1: [2, 3] float32  requires_grad=True  "
        "grad_fn=MulBackward0",
        "trace: line 3: sum(%1 [2, 3]) -> %2: [3] float32  requires_grad=True  "
        "grad_fn=SumBackward1",
        "trace: line 3: add(%2 [3], 1) -> %3: [3] float32  requires_grad=True  "
        "grad_fn=AddBackward0",
        "trace: line 3: mean(%3 [3]) -> y: [] float32  requires_grad=True  "
        "grad_fn=MeanBackward0",
    ]
    assert ("trace: line 4: backward SumBackward1 of (sum, line 3): grad [3] norm 0.57735 -> "
            "[2, 3] norm 0.816497") in result.stderr


def test_trace_keeps_json_pure(cli: Any) -> None:
    result = cli("run", GRAPH, "--trace", "--json")
    document = json.loads(result.stdout)
    assert document["error"] is None and document["stdout"].startswith("tensor(5.")
    assert "trace: line 12: add(w [], x [])" in result.stderr


def test_trace_stops_at_the_output_limit(cli: Any) -> None:
    result = cli("run", str(SAMPLES / "no_grad_regression.expr"), "--trace",
                 "--max-output-bytes", "2000", "--no-lint")
    assert result.exit_code == 0
    assert result.stderr.endswith("trace: stopped after 2000 bytes (limit max_output_bytes)\n")
    assert len(result.stderr) < 2300


def test_watch_shows_the_loss_falling(cli: Any) -> None:
    result = cli("run", str(SAMPLES / "no_grad_regression.expr"), "--watch", "loss")
    assert result.exit_code == 0
    assert result.stdout.endswith("tensor([[3.0052]], requires_grad=True)\n"
                                  "tensor([[2.0989]], requires_grad=True)\n")
    first, spark, second, spark2 = result.stderr.splitlines()
    # line 27 binds the [100, 1] squared errors (watched by norm), line 28 their sum
    assert first.startswith("watch norm of loss (line 27, 800 bindings): 85.8818, 53.1833, ")
    assert second.startswith("watch loss (line 28, 800 bindings): 787.561, 476.329, 289.382, "
                             "177.05, ..., 0.499972")
    bars = spark2.split()[0]
    assert len(bars) == 40 and bars[0] == "█" and bars[-1] == "▁"
    assert list(bars) == sorted(bars, reverse=True)  # falling all the way
    assert spark2.endswith("max 787.561 (#1)")


def test_watch_on_the_training_loop_and_a_name_never_bound(cli: Any) -> None:
    result = cli("run", str(SAMPLES / "training_loop.expr"), "--watch", "loss")
    assert result.stderr.startswith("watch loss (line 27, 6 bindings): 1.385, 0.08885, ")
    missing = cli("run", str(SAMPLES / "training_loop.expr"), "--watch", "nope")
    assert missing.stderr == "watch nope: never bound\n"


def test_sparkline() -> None:
    assert sparkline([1, 2, 3, 4, 5, 6, 7, 8]) == "▁▂▃▄▅▆▇█"
    assert sparkline([1.0, float("nan"), 3.0]) == "▁!█"
    assert sparkline([2.0, 2.0]) == "▅▅"
    rising = sparkline([float(v) for v in range(1000)], width=10)  # buckets of 100 values
    assert len(rising) == 10 and list(rising) == sorted(rising)
    assert sparkline([1000.0, 100.0, 10.0, 1.0]) == "█▆▃▁"  # log scale
    assert sparkline([1, 2, 3], unicode=False) == "_+@"
