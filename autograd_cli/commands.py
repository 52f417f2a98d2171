"""What each command does, once typer has parsed its options: read, run, report, exit code.

Kept apart from main.py so that the heavy parts (the interpreter, numpy, rich, graphviz) load
only when a command runs, never for `--help` or a usage error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from autograd_cli.errors import ScriptError
from autograd_cli.limits import Limits

OK, PROGRAM_ERROR, TOOL_MISSING = 0, 1, 3

GRAPHVIZ_HELP = (
    "Graphviz's `dot` program is needed for --format svg, png and pdf, and it was not found.\n"
    "Install it:  Debian/Ubuntu: sudo apt-get install graphviz   macOS: brew install graphviz"
    "   conda: conda install -c conda-forge graphviz\n"
    "Without it, `agraph render --format dot|json|mermaid` and `agraph run` still work.\n"
)


def display_name(file: str) -> str:
    return "<stdin>" if file == "-" else file


def _load(file: str, limits: Limits) -> str | None:
    """The program's text, or None after reporting why it cannot be read."""
    from autograd_cli.source import read_source

    try:
        return read_source(file, limits.max_source_bytes)
    except ScriptError as error:
        sys.stderr.write(error.format(display_name(file)))
        return None


def _prepare_engine(limits: Limits) -> None:
    """A clean engine for each run (tests run many programs in one process)."""
    from engine import api, budget

    api.reset_state()
    budget.limits["max_elements"] = limits.max_tensor_elements
    budget.limits["max_bytes"] = limits.max_total_tensor_bytes


def _report_problems(file: str, text: str, result: Any, stream: TextIO) -> None:
    for warning in result.warnings:
        stream.write(warning.format(display_name(file), text))
    if result.error is not None:
        stream.write(result.error.format(display_name(file), text))


def check(file: str, *, limits: Limits) -> int:
    from autograd_cli.checker import check_program

    text = _load(file, limits)
    if text is None:
        return PROGRAM_ERROR
    try:
        check_program(text, limits)
    except ScriptError as error:
        sys.stderr.write(error.format(display_name(file), text))
        return PROGRAM_ERROR
    return OK


def run(file: str, *, limits: Limits, json_output: bool, table: bool | None, svg: Path | None
        ) -> int:
    from autograd_cli import rendering, report

    text = _load(file, limits)
    if text is None:
        if json_output:
            _write_json_failure(file)
        return PROGRAM_ERROR
    _prepare_engine(limits)
    echo = None if json_output else sys.stdout
    result, recorder = rendering.record_program(text, limits, echo=echo)
    if json_output:
        document = {
            "version": 1,
            "file": file,
            "stdout": result.stdout,
            "error": None if result.error is None else result.error.to_json(),
            "tensors": report.tensor_records(result.variables.items()),
            "warnings": [{"category": w.category, "message": w.message, "line": w.line}
                         for w in result.warnings],
            "graph": _graph_or_note(recorder),
        }
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
    else:
        sys.stdout.flush()
    _report_problems(file, text, result, sys.stderr)
    if table is None:
        table = sys.stdout.isatty()  # pipes and files get exactly what the program printed
    if table and not json_output:
        _print_table(result.variables)
    status = OK if result.error is None else PROGRAM_ERROR
    if svg is not None:
        written = _render_to(recorder, "svg", svg, file, {})
        status = status or written
    return status


def _graph_or_note(recorder: Any) -> dict[str, Any]:
    from autograd_cli import rendering

    try:
        return rendering.graph_dict(recorder)
    except rendering.RenderError as error:
        return {"nodes": [], "edges": [], "note": str(error)}


def _write_json_failure(file: str) -> None:
    document = {"version": 1, "file": file, "stdout": "", "error": None, "tensors": [],
                "graph": {"nodes": [], "edges": []}}
    sys.stdout.write(json.dumps(document) + "\n")


def _print_table(variables: dict[str, Any]) -> None:
    from autograd_cli.report import table_rows
    from renderers.table import render_table

    rows = table_rows(variables.items())
    render_table(rows, sys.stdout, color=sys.stdout.isatty())


def render(file: str, *, limits: Limits, fmt: str, output: Path | None, view: str,
           pass_number: int | None, show_saved: bool, values: bool, grads: bool, legend: bool,
           rankdir: str, max_nodes: int, check_file: Path | None) -> int:
    from autograd_cli import rendering

    text = _load(file, limits)
    if text is None:
        return PROGRAM_ERROR
    _prepare_engine(limits)
    result, recorder = rendering.record_program(text, limits, keep_pass=pass_number)
    _report_problems(file, text, result, sys.stderr)
    if result.error is not None:
        return PROGRAM_ERROR
    options = {"view": view, "pass_number": pass_number, "show_saved": show_saved,
               "values": values, "grads": grads, "legend": legend, "rankdir": rankdir,
               "max_nodes": max_nodes}
    if check_file is not None:
        return _check_rendered(recorder, fmt, check_file, options)
    return _render_to(recorder, fmt, output, file, options)


def _render(recorder: Any, fmt: str, options: dict[str, Any]) -> bytes | int:
    """The rendered bytes, or an exit code after reporting why there are none."""
    from autograd_cli import rendering

    try:
        return rendering.render(recorder, fmt=fmt, **options)
    except rendering.GraphvizMissing:
        sys.stderr.write("agraph: error: " + GRAPHVIZ_HELP)
        return TOOL_MISSING
    except (rendering.RenderError, rendering.GraphvizFailed) as error:
        sys.stderr.write(f"agraph: error: {error}\n")
        return PROGRAM_ERROR


def _render_to(recorder: Any, fmt: str, output: Path | None, file: str,
               options: dict[str, Any]) -> int:
    from autograd_cli import rendering

    data = _render(recorder, fmt, options)
    if isinstance(data, int):
        return data
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return OK
    try:
        rendering.write_atomically(output, data, None if file == "-" else file)
    except rendering.OutputError as error:
        sys.stderr.write(f"agraph: error: {error}\n")
        return PROGRAM_ERROR
    return OK


def _check_rendered(recorder: Any, fmt: str, existing: Path, options: dict[str, Any]) -> int:
    data = _render(recorder, fmt, options)
    if isinstance(data, int):
        return data
    try:
        current = existing.read_bytes()
    except OSError as error:
        sys.stderr.write(f"agraph: error: cannot read {existing}: {error.strerror}\n")
        return PROGRAM_ERROR
    if current != data:
        sys.stderr.write(f"{existing}: differs from what `agraph render` makes now; "
                         "render it again\n")
        return PROGRAM_ERROR
    return OK
