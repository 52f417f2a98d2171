"""docs/rendering.md: its Makefile is the one that makes its pictures, the pictures are
current, and its JSON example is the model's shape."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from autograd_cli.graph.rendering import graph_dict, record_program, render

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "rendering.md").read_text()
IMAGES = ROOT / "docs" / "img"


def options_for(image: str) -> tuple[str, dict[str, Any], int | None]:
    """The sample and options docs/img/Makefile's pattern rules use for an image."""
    stem = image.removesuffix(".svg")
    if stem.endswith("_backward"):
        return stem.removesuffix("_backward"), {"view": "backward", "show_saved": True}, None
    if stem.endswith("_pass2"):
        return stem.removesuffix("_pass2"), {}, 2
    return stem, {}, None


def makefile_images() -> list[str]:
    text = (IMAGES / "Makefile").read_text().replace("\\\n", " ")
    return re.search(r"^IMAGES := (.*)$", text, re.M).group(1).split()  # type: ignore[union-attr]


def svg_texts(svg: bytes) -> list[str]:
    return [e.text or "" for e in ET.fromstring(svg).iter() if e.tag.endswith("text")]


def test_page_makefile_is_the_real_one() -> None:
    snippet = re.search(r"```make\n(.*?)```", PAGE, re.S).group(1)  # type: ignore[union-attr]
    makefile = (IMAGES / "Makefile").read_text()
    for line in snippet.strip().splitlines():
        assert line in makefile.splitlines(), line


def test_every_picture_is_made_by_the_makefile() -> None:
    shown = re.findall(r"\]\(img/([^)]+)\)", PAGE)
    assert shown and set(shown) <= set(makefile_images())
    assert sorted(makefile_images()) == sorted(p.name for p in IMAGES.glob("*.svg"))


@pytest.mark.graphviz
@pytest.mark.parametrize("image", makefile_images())
def test_pictures_are_current(image: str) -> None:
    """Same text in the same order (the layout itself may differ with another Graphviz)."""
    sample, options, keep_pass = options_for(image)
    result, recorder = record_program((ROOT / "samples" / f"{sample}.expr").read_text(),
                                      keep_pass=keep_pass)
    assert result.error is None
    svg = render(recorder, fmt="svg", pass_number=keep_pass, **options)
    assert svg_texts(svg) == svg_texts((IMAGES / image).read_bytes()), (
        f"docs/img/{image} is out of date: make -C docs/img")


def test_json_example_has_the_model_fields() -> None:
    example = json.loads(re.search(r"```json\n(.*?)```", PAGE, re.S).group(1))  # type: ignore
    result, recorder = record_program((ROOT / "samples" / "retain_grad.expr").read_text())
    actual = graph_dict(recorder)
    assert list(example) == list(actual)
    by_kind: dict[str, Any] = {}
    for node in actual["nodes"]:
        by_kind.setdefault(node["kind"], node)
    for node in example["nodes"]:
        assert list(node) == list(by_kind[node["kind"]])
        assert list(node["attrs"]) == list(by_kind[node["kind"]]["attrs"])
    assert example["nodes"][0] == actual["nodes"][0]
    assert list(example["edges"][0]) == list(actual["edges"][0])
