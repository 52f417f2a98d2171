"""The README is a user's document: every file it cites exists, and the outputs it shows are
what the real `agraph` prints for them."""

from __future__ import annotations

import re

import pytest

from tests.agraph_process import ROOT, agraph

README = (ROOT / "README.md").read_text(encoding="utf-8")


def cited_paths() -> list[str]:
    links = re.findall(r"\]\(([^)#:]+)\)", README) + re.findall(r'src="([^"]+)"', README)
    words = re.findall(r"(?<![\w/.-])((?:samples|docs|benchmarks|tests|autograd_cli|engine|"
                       r"renderers)/[\w./-]*[\w/])", README)
    return sorted(set(links + words))


def test_every_file_the_readme_cites_exists() -> None:
    paths = cited_paths()
    assert "samples/computation_graph.expr" in paths and "docs/docs-builds.md" in paths
    missing = [path for path in paths if not (ROOT / path).exists()]
    assert missing == []


def shown_output(command: str) -> str:
    """The text the README shows under `$ COMMAND` in a console block."""
    block = README.split(f"$ {command}\n", 1)[1]
    return block.split("```", 1)[0]


@pytest.mark.parametrize("command", ["agraph run samples/computation_graph.expr --table",
                                     "agraph explain samples/computation_graph.expr y w"])
def test_the_tour_shows_what_agraph_prints(command: str) -> None:
    shown = shown_output(command)
    printed = agraph(*command.split()[1:]).stdout.decode("utf-8")
    if "\n...\n" in shown:  # the README leaves out the middle of the program's output
        head, tail = shown.split("...\n", 1)
        assert printed.startswith(head) and printed.endswith(tail)
    else:
        assert printed == shown
