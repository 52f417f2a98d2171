"""`OutputPath`: an output path (`-o`, `--svg`) that remembers the text the user gave.

`pathlib.Path("newdir/")` is `newdir`: the trailing "/", which says "a directory", is gone, and
`-o newdir/` would write a file named newdir. Typer (with `parser=output_path`) and main.py hand
the commands an OutputPath, equal to the plain Path, whose `given` keeps the text as typed.
Kept tiny: main.py and cli.py import it before any command runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

if sys.platform == "win32":  # pragma: no cover - a concrete Path class is subclassed
    from pathlib import WindowsPath as _ConcretePath
else:
    from pathlib import PosixPath as _ConcretePath


class OutputPath(_ConcretePath):
    """A Path that also keeps `given`, the path exactly as the user typed it."""

    given: str

    def __new__(cls, text: str) -> OutputPath:
        self = super().__new__(cls, text)
        self.given = text
        return self


def output_path(text: str | Path) -> Path:
    """Typer's parser for output options: the value as an OutputPath."""
    return OutputPath(os.fspath(text))


def given_text(path: str | os.PathLike[str]) -> str:
    """The path as the user typed it (a trailing "/" included), for an OutputPath; else the
    path's own text."""
    given = getattr(path, "given", None)
    return given if isinstance(given, str) and given else os.fspath(path)
