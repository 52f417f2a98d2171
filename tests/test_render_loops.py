"""`agraph render --unroll [N]` from the command line (a real subprocess): loops are folded by
default, `--unroll` draws every iteration, `--unroll N` the first N; a wrong N is a usage error.
(The folding itself: tests/test_render_recorder.py.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RNN = """import torch
W = torch.ones(2, 2, requires_grad=True)
h = torch.zeros(2, 1)
for step in range(40):
    h = torch.tanh(torch.mm(W, h) + 1)
h.sum().backward()
"""


def render_json(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    program = tmp_path / "rnn.expr"
    program.write_text(RNN, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "autograd_cli", "render", str(program),
                           "--format", "json", *options], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def tanh_nodes(done: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    assert done.returncode == 0, done.stderr
    nodes = json.loads(done.stdout)["nodes"]
    return [n for n in nodes if n["kind"] == "op" and n["attrs"]["op"] == "tanh"]


@pytest.mark.parametrize("options,count", [((), 1), (("--unroll",), 40),
                                           (("--unroll", "3"), 3), (("--unroll=7",), 7)])
def test_unroll_from_the_command_line(tmp_path: Path, options: tuple[str, ...],
                                      count: int) -> None:
    tanh = tanh_nodes(render_json(tmp_path, *options))
    assert len(tanh) == count
    if count == 1:
        assert tanh[0]["label"][0] == "tanh ×40"


def test_a_bare_unroll_before_the_file(tmp_path: Path) -> None:
    program = tmp_path / "rnn.expr"
    program.write_text(RNN, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "autograd_cli", "render", "--unroll",
                           str(program), "--format", "json"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert len(tanh_nodes(done)) == 40


@pytest.mark.parametrize("value", ["0", "x", "-2"])
def test_a_wrong_unroll_is_a_usage_error(tmp_path: Path, value: str) -> None:
    done = render_json(tmp_path, f"--unroll={value}")
    assert done.returncode == 2 and "--unroll" in done.stderr
