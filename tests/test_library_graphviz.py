"""`graphviz.Digraph` built by hand (Karpathy's micrograd `draw_dot`): the DOT text the graphviz
package makes, attributes on an allow-list, files only into `--figures DIR`."""

from __future__ import annotations

import shutil
from pathlib import Path

import graphviz
import pytest

from autograd_cli.language.interpreter import run_program
from autograd_cli.language.limits import Limits
from tests.conftest import run_agraph

# micrograd's draw_dot, over two hand-made nodes
PROGRAM = """\
from graphviz import Digraph
dot = Digraph(format='svg', graph_attr={'rankdir': 'LR'})
for uid, data, grad, op in (('1', 2.0, 1.0, '*'), ('2', -3.0, 0.5, '')):
    dot.node(name=uid, label="{ %s | data %.4f | grad %.4f }" % ('a', data, grad), shape='record')
    if op:
        dot.node(name=uid + op, label=op)
        dot.edge(uid + op, uid)
dot.edge('2', '1*')
print(dot.source)
print(dot.render('gout'))
"""


def expected_source() -> str:
    """What the graphviz package itself makes for PROGRAM's graph."""
    dot = graphviz.Digraph(format="svg", graph_attr={"rankdir": "LR"})
    dot.node(name="1", label="{ a | data 2.0000 | grad 1.0000 }", shape="record")
    dot.node(name="1*", label="*")
    dot.edge("1*", "1")
    dot.node(name="2", label="{ a | data -3.0000 | grad 0.5000 }", shape="record")
    dot.edge("2", "1*")
    return str(dot.source)


def test_the_source_is_graphvizs() -> None:
    result = run_program(PROGRAM, Limits())
    assert result.error is None
    assert result.stdout == expected_source() + "\ngout.svg\n"


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot is not installed")
def test_render_writes_only_into_the_figures_directory(tmp_path: Path) -> None:
    program = tmp_path / "draw.expr"
    program.write_text(PROGRAM)
    figures = tmp_path / "figures"
    figures.mkdir()
    result = run_agraph("run", str(program), "--figures", str(figures), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert [p.name for p in figures.iterdir()] == ["gout.svg"]
    assert b"grad 0.5000" in (figures / "gout.svg").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["draw.expr", "figures"]



@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot is not installed")
def test_a_graph_dot_cannot_lay_out_is_an_error_at_the_program(tmp_path: Path) -> None:
    program = tmp_path / "bad.expr"
    program.write_text("from graphviz import Digraph\nd = Digraph()\n"
                       "d.node('a', label='{<x', shape='record')\nd.render('g', format='svg')\n")
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 1 and b"internal error" not in result.stderr
    assert f"{program}: error: g.svg: Graphviz dot failed: Error: bad label format".encode() \
        in result.stderr


def test_figures_without_dot_exit_3_with_the_install_hint(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    program = tmp_path / "draw.expr"
    program.write_text(PROGRAM)
    monkeypatch.setenv("PATH", str(tmp_path / "no-such-bin"))
    result = run_agraph("run", str(program), "--figures", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 3 and b"internal error" not in result.stderr
    assert b"gout.svg: Graphviz's `dot` program is needed" in result.stderr

def test_an_html_like_label_stays_a_quoted_string() -> None:
    source = ("from graphviz import Digraph\nd = Digraph()\n"
              "d.node('n', label='<<IMG SRC=\"/etc/passwd\"/>>')\nprint(d.source)\n")
    result = run_program(source, Limits())
    assert result.error is None
    assert 'n [label="<<IMG SRC=\\"/etc/passwd\\"/>>"]' in result.stdout


@pytest.mark.parametrize("call, kind", [
    ("d.node('n', image='/etc/passwd')", "ValueError"),
    ("d.node('n', URL='http://x')", "ValueError"),
    ("d.attr('graph', fontsize=10000)", "ValueError"),
    ("d.node(1)", "TypeError"),
    ("d.render('x', format='ps')", "ValueError"),
    ("Digraph(engine='neato')", "ValueError"),
])
def test_what_is_refused(call: str, kind: str) -> None:
    result = run_program(f"from graphviz import Digraph\nd = Digraph()\n{call}\n", Limits())
    assert result.error is not None and (result.error.type_name, result.error.line) == (kind, 3)
