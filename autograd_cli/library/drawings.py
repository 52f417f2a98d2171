"""What a run asked to draw: pyplot figures and torchviz graphs, written after the run.

Each library that draws records a `Drawing` here (a function from a format to the file's bytes,
and the name the program asked for, if any); `take()` hands cli/figures.py the drawings of the
run that just ended, after the libraries' `finishers` have added what was left open (a
notebook shows open figures, and a graph left as the last expression, at its end).

Drawings are drawn after the run, outside its time limit, so a run records at most
MAX_DRAWINGS of them: `savefig` or `render` in a loop of a million stops at its line instead
of drawing for hours and filling the figures directory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.memory import LimitError

MAX_DRAWINGS = 100


@dataclass
class Drawing:
    render: Callable[[str], bytes]  # "svg" / "png" / "pdf" -> the file's bytes
    name: str | None  # what savefig/render asked for; None: figure-N.svg / graph-N.svg
    kind: str = "figure"  # "figure" (matplotlib) or "graph" (torchviz, drawn by agraph)


RECORDED: list[Drawing] = []
finishers: list[Callable[[], None]] = []  # run once when the run's drawings are taken


def start_run() -> None:
    RECORDED.clear()
    finishers.clear()


def record(drawing: Drawing) -> None:
    if len(RECORDED) >= MAX_DRAWINGS:
        raise LimitError(f"the program asked for more than {MAX_DRAWINGS} drawings (savefig, "
                         "render, save, show); each is drawn after the run",
                         "fewer savefig/render calls")
    RECORDED.append(drawing)


def record_at_end(drawing: Drawing) -> None:
    """What the run left open, drawn at its end (not counted: at most one per open figure)."""
    RECORDED.append(drawing)


def take() -> list[Drawing]:
    for finish in list(finishers):
        finish()
    taken = list(RECORDED)
    start_run()
    return taken
