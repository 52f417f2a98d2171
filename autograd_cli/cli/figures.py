"""`agraph run --figures DIR`: the figures a program drew with pyplot, written after the run.

`plt.show()` and figures left open become DIR/figure-1.svg, DIR/figure-2.svg, ...;
`plt.savefig("loss.png")` becomes DIR/loss.png, its name reduced to a plain file name inside
DIR (no directories, no leading dot, letters, digits, `.`, `_` and `-` only) and its format
taken from the extension (svg, png or pdf; anything else is written as PNG). Without
`--figures` nothing is written, and one note on stderr says what was drawn and how to save it;
without matplotlib, the note says how to install it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from autograd_cli.cli.commands import OK, PROGRAM_ERROR, TOOL_MISSING

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
INSTALL_HINT = "install matplotlib to draw them: pip install 'agraph[plots]'"


def file_name(requested: str | None, number: int) -> str:
    """The name a figure is written under, inside the figures directory."""
    if requested is None:
        return f"figure-{number}.svg"
    base = requested.replace("\\", "/").rsplit("/", 1)[-1]
    base = _UNSAFE.sub("_", base).lstrip(".-")[:200]
    if not base:
        return f"figure-{number}.png"
    stem, dot, extension = base.rpartition(".")
    if not dot:
        return f"{base}.png"  # matplotlib's default format
    return base if extension.lower() in ("svg", "png", "pdf") else f"{base}.png"


def write_figures(shown_name: str, directory: Path | None) -> int:
    """Write (or note) the figures of the run that just ended; the exit status it adds."""
    if "autograd_cli.library.pyplot_module" not in sys.modules:
        return OK  # the program never imported matplotlib
    from autograd_cli.library import pyplot_module

    outputs = pyplot_module.take_outputs()
    if not outputs:
        return OK
    names: list[str] = []
    shown = 0
    for output in outputs:
        if output.name is None:
            shown += 1
        names.append(file_name(output.name, shown if output.name is None else len(names) + 1))
    from renderers import figures

    drawn = f"the program drew {len(names)} figure{'s' if len(names) > 1 else ''} " \
            f"({', '.join(names)})"
    if directory is None:
        hint = "write them with --figures DIR" if figures.available() else INSTALL_HINT
        sys.stderr.write(f"{shown_name}: note: {drawn}; {hint}\n")
        return OK
    if not figures.available():
        sys.stderr.write(f"{shown_name}: note: {drawn}; {INSTALL_HINT}\n")
        return TOOL_MISSING
    if not directory.is_dir():
        sys.stderr.write(f"{shown_name}: error: --figures {directory}: not a directory\n")
        return PROGRAM_ERROR
    from autograd_cli.graph.rendering import write_atomically

    for output, name in zip(outputs, names, strict=True):
        data = figures.render_figure(output.figure, name.rsplit(".", 1)[-1].lower(),
                                     output.options)
        write_atomically(directory / name, data)
    return OK
