"""`agraph run --figures DIR`: the figures a program drew with pyplot, written after the run.

`plt.show()` and figures left open become DIR/figure-1.svg, DIR/figure-2.svg, ...;
`plt.savefig("loss.png")` becomes DIR/loss.png, torchviz graphs DIR/graph-N.svg (or the name
`.render(NAME, format=...)` gives); its name reduced to a plain file name inside
DIR (no directories, no leading dot, letters, digits, `.`, `_` and `-` only) and its format
taken from the extension (svg, png or pdf; anything else is written as PNG). Without
`--figures` nothing is written, and one note on stderr says what was drawn and how to save it;
without matplotlib, the note says how to install it.

Drawing happens after the run, so it has a time limit of its own: `--max-seconds` from the
moment drawing starts, for all the drawings together (matplotlib lays out a 100,000-character
mathtext title for a minute). It is held by an alarm in the main thread, which stops
matplotlib's Python code (its parser, its layout) wherever it is.
"""

from __future__ import annotations

import ast
import re
import signal
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from autograd_cli.cli.common import OK, PROGRAM_ERROR, TOOL_MISSING
from autograd_cli.language.errors import visible
from autograd_cli.library import drawings

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
INSTALL_HINT = "install matplotlib to draw them: pip install 'agraph[plots]'"


def file_name(requested: str | None, number: int, kind: str = "figure") -> str:
    """The name a drawing is written under, inside the figures directory."""
    if requested is None:
        return f"{kind}-{number}.svg"
    base = requested.replace("\\", "/").rsplit("/", 1)[-1]
    base = _UNSAFE.sub("_", base).lstrip(".-")[:200]
    if not base:
        return f"{kind}-{number}.png"
    stem, dot, extension = base.rpartition(".")
    if not dot:
        return f"{base}.png"  # matplotlib's default format
    return base if extension.lower() in ("svg", "png", "pdf", "dot") else f"{base}.png"


def _last_expression_graph(text: str, variables: dict[str, Any]) -> None:
    """A `make_dot(...)` (or a name bound to its graph) left as the last statement is shown,
    as a notebook shows the value of its last expression."""
    if "autograd_cli.library.torchviz_module" not in sys.modules:
        return
    # lazy: startup time (loaded only when used)
    from autograd_cli.library import torchviz_module

    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    last = body[-1] if body else None
    if not isinstance(last, ast.Expr):
        return
    value, graph = last.value, None
    if isinstance(value, ast.Name):
        graph = variables.get(value.id)
    elif isinstance(value, ast.Call) and torchviz_module.LAST and (
            getattr(value.func, "attr", None) == "make_dot"
            or getattr(value.func, "id", None) == "make_dot"):
        graph = torchviz_module.LAST[-1]
    if isinstance(graph, torchviz_module.Digraph):
        drawings.record_at_end(graph.drawing(None))


class _OutOfTime(Exception):
    pass


def _raise_out_of_time(signum: int, frame: Any) -> None:
    raise _OutOfTime


def _within(seconds: float, work: Callable[[], bytes]) -> bytes:
    """`work()`, stopped by an alarm after `seconds` (in the main thread; elsewhere as is)."""
    if threading.current_thread() is not threading.main_thread():
        return work()
    if seconds <= 0:
        raise _OutOfTime
    previous = signal.signal(signal.SIGALRM, _raise_out_of_time)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return work()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def write_figures(shown_name: str, directory: Path | None, text: str = "",
                  variables: dict[str, Any] | None = None, max_seconds: float = 10.0,
                  input_file: str = "-") -> int:
    """Write (or note) the drawings of the run that just ended; the exit status it adds. A
    name the program chose is refused where it is the input program (`input_file`) or cannot
    be written (a directory of that name in DIR). Called only when a program drew
    (run.py's `drew_in_this_process`), as is this module loaded."""
    _last_expression_graph(text, variables or {})

    outputs = drawings.take()
    if not outputs:
        return OK
    names: list[str] = []
    counts = {"figure": 0, "graph": 0}
    for output in outputs:
        if output.name is None:
            counts[output.kind] += 1
        names.append(file_name(output.name, counts[output.kind] if output.name is None
                               else len(names) + 1, output.kind))
    from renderers import figures  # lazy: startup time (loaded only when used)

    needs_matplotlib = any(output.kind == "figure" for output in outputs)
    missing = needs_matplotlib and not figures.available()
    drawn = f"the program drew {len(names)} figure{'s' if len(names) > 1 else ''} " \
            f"({', '.join(names)})"
    if directory is None:
        hint = INSTALL_HINT if missing else "write them with --figures DIR"
        sys.stderr.write(f"{shown_name}: note: {drawn}; {hint}\n")
        return OK
    if missing:
        sys.stderr.write(f"{shown_name}: note: {drawn}; {INSTALL_HINT}\n")
        return TOOL_MISSING
    if not directory.is_dir():
        sys.stderr.write(f"{shown_name}: error: --figures {directory}: not a directory\n")
        return PROGRAM_ERROR
    # lazy: startup time (loaded only when used)
    from autograd_cli.graph.rendering import OutputError, write_atomically
    from renderers.figures import FigureTooLarge
    from renderers.svg import GraphvizFailed, GraphvizMissing

    deadline = time.monotonic() + max_seconds
    for output, name in zip(outputs, names, strict=True):
        fmt = name.rsplit(".", 1)[-1].lower()
        try:
            data = _within(deadline - time.monotonic(), partial(output.render, fmt))
        except _OutOfTime:
            sys.stderr.write(f"{shown_name}: LimitError: {name}: drawing the figures took more "
                             f"than {max_seconds:g} seconds (limit max_seconds; raise it with "
                             "--max-seconds)\n")
            return PROGRAM_ERROR
        except FigureTooLarge as error:
            sys.stderr.write(f"{shown_name}: LimitError: {name}: {error}\n")
            return PROGRAM_ERROR
        except GraphvizMissing as error:  # a graphviz or torchviz graph needs `dot`
            sys.stderr.write(f"{shown_name}: note: {name}: {error}")
            return TOOL_MISSING
        except GraphvizFailed as error:  # what the program gave graphviz (a bad record label)
            message = visible(str(error).strip().split("\n")[0])[:300]
            sys.stderr.write(f"{shown_name}: error: {name}: {message}\n")
            return PROGRAM_ERROR
        except (ValueError, TypeError, RecursionError, OverflowError) as error:
            # what the program gave matplotlib (a size of inf, a bad format string, mathtext
            # it cannot parse) fails only now that the figure is drawn
            message = visible(str(error).strip().split("\n")[0])[:300]
            sys.stderr.write(f"{shown_name}: {type(error).__name__}: {name}: matplotlib could "
                             f"not draw this figure: {message}\n")
            return PROGRAM_ERROR
        try:
            write_atomically(directory / name, data, None if input_file == "-" else input_file)
        except OutputError as error:
            sys.stderr.write(f"{shown_name}: error: --figures: {visible(str(error))}\n")
            return PROGRAM_ERROR
    return OK
