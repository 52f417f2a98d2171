"""What the commands share, once typer (or main.py) has read the command line: reading the
program, a clean engine, reporting problems on stderr, the exit codes.

Each command lives in a module of its family (run.py: run and check; render.py, explain.py,
debug.py, lint.py), kept apart from main.py so that the heavy parts (the interpreter, numpy,
rich, graphviz) load only when a command runs, never for `--help` or a usage error.

The work after a run (the --json document, the table, the graph, explain's analysis) is bounded
by the run's limits (autograd_cli/language/bounds.py); a limit it hits is reported as a LimitError
without a position, `FILE: LimitError: ...`, after the program's own error if any (exit 1).
What agraph writes to stderr shows unprintable characters escaped (errors.visible).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO, TypeVar

from autograd_cli.language.bounds import Bound
from autograd_cli.language.errors import ScriptError, visible
from autograd_cli.language.limits import LimitExceeded, Limits, limit_error
from autograd_cli.language.source import read_source

T = TypeVar("T")

OK, PROGRAM_ERROR, USAGE_ERROR, TOOL_MISSING = 0, 1, 2, 3


def display_name(file: str) -> str:
    """The program's name in messages: a newline or tab in a file name is escaped too, so the
    first line of an error is always one `FILE:LINE:COL: ...` line."""
    return "<stdin>" if file == "-" else visible(file, keep="")


def json_name(file: str) -> str:
    """The program's name as JSON text: a file name that is not UTF-8 (its bytes kept by
    Python as lone surrogates) with U+FFFD for each such byte, so the document stays UTF-8."""
    return os.fsencode(file).decode("utf-8", "replace") if file != "-" else file


def say(text: str) -> None:
    """Write agraph's own message to stderr, unprintable characters escaped."""
    sys.stderr.write(visible(text))


def bounded(work: Callable[[], T], fallback: T, bound: Bound,
             problems: list[ScriptError]) -> T:
    """`work()`, or `fallback` after adding the limit it hit (time, memory, output size) to
    `problems`: a MemoryError too is a LimitError, never an internal error."""
    try:
        return work()
    except LimitExceeded as limit:
        problems.append(limit_error(limit.field, limit.what))
    except MemoryError:
        problems.append(bound.out_of_memory())
    return fallback


# A FILE that names no readable file is a mistake on the command line (exit 2); a file that
# is read but is not a program (not UTF-8, too big) is the program's problem (exit 1).
_NOT_A_FILE = frozenset({"FileNotFoundError", "IsADirectoryError", "PermissionError"})


def load(file: str, limits: Limits, json_output: bool = False) -> str | int:
    """The program's text, or the exit code after reporting why it cannot be read (with
    `json_output` also as the `error` of a JSON document on stdout)."""
    try:
        return read_source(file, limits.max_source_bytes)
    except ScriptError as error:
        say(error.format(display_name(file)))
        if json_output:
            write_json_failure(file, error)
        return USAGE_ERROR if error.type_name in _NOT_A_FILE else PROGRAM_ERROR


def load_to_run(file: str, limits: Limits, seed: int | None = None,
                json_output: bool = False) -> str | int:
    """`load`, then a clean engine for the program (`prepare_engine`): its text, or the exit
    code after reporting why it cannot be read."""
    text = load(file, limits, json_output)
    if not isinstance(text, int):
        prepare_engine(limits, seed)
    return text


def outputs_refused(file: str, *paths: Path | None) -> bool:
    """Check the output paths before the program runs (a mistake in `-o` costs nothing);
    True after reporting the first one that cannot be written (exit 2)."""
    if all(path is None for path in paths):
        return False  # nothing to check: the rendering module (and torch.nn) stays unloaded
    # lazy: startup time (loaded only when used)
    from autograd_cli.graph.rendering import OutputError, check_output_path

    for path in paths:
        if path is None:
            continue
        try:
            check_output_path(path, None if file == "-" else file)
        except OutputError as error:
            say(f"agraph: error: {error}\n")
            return True
    return False


def prepare_engine(limits: Limits, seed: int | None = None) -> None:
    """A clean engine for each run (tests run many programs in one process); the default
    random generator starts from agraph's fixed seed, or from `--seed`."""
    from engine import api, budget, random  # lazy: startup time (loaded only when used)

    api.reset_state()
    if seed is not None:
        random.reset(seed)
    budget.limits["max_elements"] = limits.max_tensor_elements
    budget.limits["max_bytes"] = limits.max_total_tensor_bytes


def report_problems(file: str, text: str, result: Any, stream: TextIO,
                     after: Sequence[ScriptError] = (), quiet: bool = False) -> None:
    """The program's warnings (not under `quiet`) and error, then the limits the work after
    it hit."""
    for warning in () if quiet else result.warnings:
        stream.write(visible(warning.format(display_name(file), text)))
    if result.error is not None:
        stream.write(result.error.format(display_name(file), text))
    for problem in after:
        stream.write(problem.format(display_name(file)))


def write_json_failure(file: str, error: ScriptError) -> None:
    import json  # lazy: startup time (loaded only when used)

    document = {"version": 1, "file": json_name(file), "stdout": "", "error": error.to_json(),
                "tensors": [], "graph": {"nodes": [], "edges": []}}
    sys.stdout.write(json.dumps(document) + "\n")
