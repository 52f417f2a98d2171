"""`torchviz.make_dot`: the backward graph torchviz would draw, drawn by agraph's renderer and
written only into `--figures DIR`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import program_error, run_agraph

PROGRAM = """\
import torch
from torch import nn
from torchviz import make_dot
torch.manual_seed(0)
model = nn.Sequential()
model.add_module('W0', nn.Linear(8, 16))
model.add_module('tanh', nn.Tanh())
model.add_module('W1', nn.Linear(16, 1))
y = model(torch.randn(1, 8))
dot = make_dot(y.mean(), params=dict(model.named_parameters()), show_saved=True)
print(dot.render("../net", format="svg"))
print("MeanBackward0" in dot.source, "W0.weight" in dot.source, "AccumulateGrad" in dot.source)
make_dot(y.mean())
"""


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot is not installed")
def test_graphs_are_written_into_the_directory_byte_identical(tmp_path: Path) -> None:
    program = tmp_path / "net.expr"
    program.write_text(PROGRAM)
    runs = []
    for name in ("first", "second"):
        directory = tmp_path / name
        directory.mkdir()
        result = run_agraph("run", str(program), "--figures", str(directory), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout.decode() == "../net.svg\nTrue True True\n"
        runs.append({p.name: p.read_bytes() for p in directory.iterdir()})
    assert sorted(runs[0]) == ["graph-1.svg", "net.svg"]  # the last expression is drawn too
    assert runs[0] == runs[1]
    assert b"TanhBackward0" in runs[0]["net.svg"] and b"W1.bias" in runs[0]["net.svg"]
    assert not (tmp_path / "net.svg").exists()


def test_without_figures_a_note_only(tmp_path: Path) -> None:
    program = tmp_path / "net.expr"
    program.write_text(PROGRAM)
    result = run_agraph("run", str(program), cwd=tmp_path)
    assert result.returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.expr"]
    assert b"(net.svg, graph-1.svg); write them with --figures DIR" in result.stderr


@pytest.mark.parametrize("source, kind", [
    ("make_dot([1, 2])", "TypeError"),
    ("make_dot(torch.ones(1)).render('x', format='ps')", "ValueError"),
    ("make_dot(torch.ones(1)).source.__class__", "AttributeError"),
])
def test_what_make_dot_refuses(source: str, kind: str) -> None:
    assert program_error(f"import torch\nfrom torchviz import make_dot\n{source}\n") == (kind, 3)
