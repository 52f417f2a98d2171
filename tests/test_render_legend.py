"""The legend is a short key beside or under the graph, and the labels read well: the legend's
share of each seed picture's area (measured on Graphviz's own layout), and golden label text of
the seed SVGs (numbers rounded, never cut; names numbered; notes once; internal names hidden).

After a deliberate change to the labels, regenerate and review:

    AGRAPH_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_render_legend.py
"""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from autograd_cli.graph.rendering import record_program, render
from tests.test_render_golden import GOLDEN, SEEDS, check_golden

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted(p.stem for p in (ROOT / "samples").glob("*.expr"))
MAX_LEGEND_SHARE = 0.15

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")


def drawn(path: Path, fmt: str, **options: object) -> bytes:
    result, recorder = record_program(path.read_text())
    if result.error is not None and recorder.passes == 0 and not recorder.variables:
        pytest.skip(f"{path.name} fails before it builds a graph")
    return render(recorder, fmt=fmt, **options)  # type: ignore[arg-type]


def picture_area(dot_source: bytes) -> float:
    """Width x height of the laid-out picture, from `dot -Tplain` (square inches)."""
    import graphviz

    first = graphviz.pipe("dot", "plain", dot_source).decode("utf-8").split("\n", 1)[0]
    _, _, width, height = first.split()
    return float(width) * float(height)


def legend_share(sample: Path, view: str) -> float:
    """How much of the picture the legend takes: 1 - area without it / area with it."""
    with_legend = picture_area(drawn(sample, "dot", view=view))
    return 1 - picture_area(drawn(sample, "dot", view=view, legend=False)) / with_legend


@needs_dot
@pytest.mark.parametrize("view", ["forward", "backward"])
@pytest.mark.parametrize("sample", SAMPLES)
def test_legend_is_a_small_part_of_each_seed_picture(sample: str, view: str) -> None:
    source = drawn(ROOT / "samples" / f"{sample}.expr", "dot", view=view)
    if b"->" not in source:
        pytest.skip("no graph drawn")
    assert b"<TABLE" in source  # there is a legend
    share = legend_share(ROOT / "samples" / f"{sample}.expr", view)
    assert share <= MAX_LEGEND_SHARE, f"legend takes {share:.0%} of the picture"


def test_no_legend_draws_none() -> None:
    source = drawn(ROOT / "samples" / "computation_graph.expr", "dot", legend=False)
    assert b"<TABLE" not in source


def svg_text_lines(svg: bytes) -> str:
    root = ET.fromstring(svg)
    return "".join(f"{e.text}\n" for e in root.iter() if e.tag.endswith("text") and e.text)


@needs_dot
@pytest.mark.parametrize("view", ["forward", "backward"])
@pytest.mark.parametrize("name", SEEDS)
def test_seed_svg_labels_golden(name: str, view: str) -> None:
    """Every text of the SVG, in order (the layout may differ with another Graphviz)."""
    svg = drawn(GOLDEN / f"{name}.expr", "svg", view=view)
    check_golden(GOLDEN / f"{name}.{view}.svg.txt", svg_text_lines(svg).encode("utf-8"))


@needs_dot
def test_labels_round_numbers_and_number_rebound_names() -> None:
    texts = svg_text_lines(drawn(GOLDEN / "seed_000_dynamic_graph_rnn.expr", "svg"))
    assert "next_h (2)" in texts and "next_h'" not in texts
    assert "…" not in texts and not re.search(r"\d\.\.\.", texts)
    assert "pow_scalar" not in texts
