"""Output files of `agraph render`: the format a file gets, and many programs into a directory.

The format follows `-o`'s extension (`x.png` is PNG, `x.mmd` mermaid); `--format` (or `--svg`)
may say the same, and saying something else is a mistake on the command line (exit 2), never
SVG bytes in a file called x.png. Without `-o`, or with a file name agraph does not know, the
format is `--format`'s, svg by default.

`agraph render A.expr B.expr ... -o DIR/`: many programs drawn in one process. A docs build
pays Python's and numpy's start-up once instead of once per picture. Each program is drawn as
`agraph render FILE -o DIR/NAME.EXT` would draw it (NAME: the program's file name without
`.expr`; EXT: the format's usual extension); one that fails is named, the others are still
written, and the exit code is the worst one (1: a program failed, 3: Graphviz is missing).
What is wrong with the command line itself (no directory, two programs with the same name) is
refused before any program runs (exit 2).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from autograd_cli.cli.common import OK, USAGE_ERROR
from autograd_cli.cli.render import render
from autograd_cli.graph.paths import OutputPath, given_text
from autograd_cli.language.errors import visible
from renderers.formats import FORMATS, FORMATS_BY_SUFFIX

# each format's usual extension: the first that FORMATS_BY_SUFFIX lists for it
EXTENSIONS = {fmt: suffix for suffix, fmt in reversed(FORMATS_BY_SUFFIX.items())}


def output_format(fmt: str | None, svg: bool, output: Path | None,
                  known: tuple[str, ...]) -> str | None:
    """The format to write (one of `known`), or None after saying why the options contradict
    each other: `--svg` with another `--format`, or a format that is not the extension's."""
    if svg:
        if fmt not in (None, "svg"):
            _say(f"agraph: error: --svg and --format {fmt} contradict each other\n")
            return None
        fmt = "svg"
    suffix_of = given_text(output) if output is not None else ""
    suffix = Path(suffix_of).suffix.lower()
    by_suffix = FORMATS_BY_SUFFIX.get(suffix)
    if by_suffix is not None and by_suffix not in known:
        by_suffix = None  # e.g. .html before its renderer exists: --format decides
    if by_suffix is not None and fmt is not None and fmt != by_suffix:
        _say(f"agraph: error: -o {suffix_of}: names a {by_suffix} file but --format "
             f"{'svg (--svg)' if svg else fmt} was given; drop --format or change the file "
             "name\n")
        return None
    return fmt or by_suffix or "svg"


def names_a_directory(output: Path | None) -> bool:
    """`-o DIR/`: a trailing slash asks for DIR/NAME.EXT. `-o DIR` of one program, without the
    slash, is refused as any directory is (an output file may not replace a directory)."""
    if output is None:
        return False
    return given_text(output).endswith(("/", os.sep))


def render_many(files: list[str], *, output: Path | None, fmt: str | None, svg: bool = False,
                **options: Any) -> int:
    """Draw each of `files` into the directory `output`; the worst exit code."""
    chosen = output_format(fmt, svg, None, FORMATS)
    targets = None if chosen is None else _targets(files, output, chosen)
    if targets is None:
        return USAGE_ERROR
    statuses = {file: render(file, output=OutputPath(target), fmt=chosen, **options)
                for file, target in targets.items()}
    failed = [file for file, status in statuses.items() if status != OK]
    if failed:
        _say(f"agraph: {len(failed)} of {len(files)} programs not drawn: "
                     f"{', '.join(failed)}\n")
    return max(statuses.values())


def target_in(directory: Path | None, files: list[str], fmt: str) -> Path | None:
    """-o DIR/ for one program: DIR/NAME.EXT, or None after saying why not."""
    targets = _targets(files, directory, fmt)
    return None if targets is None else OutputPath(targets[files[0]])


def _targets(files: list[str], output: Path | None, fmt: str) -> dict[str, str] | None:
    """Each program's output file, or None after saying why the command line cannot work."""
    if output is None:
        _say("agraph: error: several programs are drawn into a directory: give "
                     "-o DIR/\n")
        return None
    directory = given_text(output)
    if not os.path.isdir(directory):
        why = "Not a directory" if os.path.exists(directory.rstrip("/" + os.sep)) else (
            "No such file or directory")
        _say(f"agraph: error: -o {directory}: {why} (a directory for the pictures is "
             "needed; agraph creates none)\n")
        return None
    if "-" in files:
        _say("agraph: error: a program read from - (stdin) has no name to draw it under in "
             "a directory; give -o FILE\n")
        return None
    targets: dict[str, str] = {}
    for file in files:
        target = os.path.join(directory, Path(file).stem + EXTENSIONS[fmt])
        for other, taken in targets.items():
            if taken == target:
                _say(f"agraph: error: {other} and {file} would both be written to "
                             f"{target}\n")
                return None
        targets[file] = target
    return targets


def _say(text: str) -> None:
    sys.stderr.write(visible(text))
