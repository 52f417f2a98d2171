"""`agraph run` (what the program prints, then the table; --json, --svg, --break) and
`agraph check`."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from autograd_cli.cli.common import (
    OK,
    PROGRAM_ERROR,
    TOOL_MISSING,
    USAGE_ERROR,
    bounded,
    display_name,
    json_name,
    load,
    load_to_run,
    outputs_refused,
    report_problems,
    say,
)
from autograd_cli.cli.render import check_bytes, graph_format, render_to, write_output
from autograd_cli.language.bounds import Bound
from autograd_cli.language.checker import check_program
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import Limits


def check(file: str, *, limits: Limits) -> int:
    text = load(file, limits)
    if isinstance(text, int):
        return text
    try:
        check_program(text, limits)
    except ScriptError as error:
        say(error.format(display_name(file), text))
        return PROGRAM_ERROR
    return OK



def run(file: str, *, limits: Limits, json_output: bool, table: bool | None, svg: Path | None,
        trace: bool = False, detect_anomaly: bool = False, break_line: int | None = None,
        watch: str | None = None, lint: bool | None = None, seed: int | None = None,
        figures: Path | None = None, quiet: bool = False, output: Path | None = None,
        check_file: Path | None = None) -> int:
    """`agraph run`; with `output` (-o) what it would print is written there atomically, and
    only when the program ran to its end; with `check_file` (--check) it is compared."""
    # lazy: startup time (loaded only when used)
    from autograd_cli.tools.inspection import Inspection

    if lint is None:
        lint = sys.stderr.isatty()  # notes are for people; pipes and docs builds stay quiet
    if break_line is not None and (output is not None or check_file is not None):
        say("agraph: error: --break shows a table and stops; it cannot be combined with -o "
            "or --check\n")
        return USAGE_ERROR
    if outputs_refused(file, svg, output):
        return USAGE_ERROR
    out: TextIO = sys.stdout if output is None and check_file is None else io.StringIO()

    text = load_to_run(file, limits, seed, json_output)
    if isinstance(text, int):
        return text
    if drew_in_this_process():  # forget what an earlier run in this process drew
        # lazy: startup time (loaded only when a program drew)
        from autograd_cli.library import drawings

        drawings.start_run()
    echo = None if json_output else out
    inspection = Inspection(sys.stderr, trace=trace, detect_anomaly=detect_anomaly, watch=watch,
                            lint=lint, max_trace_bytes=limits.max_output_bytes)
    observers = inspection.observers()
    stopper = None
    if break_line is not None:
        stopper = _breakpoint_stop(file, text, limits, break_line, svg)
        if stopper is None:
            return USAGE_ERROR
        observers.append(stopper)
    recorder: Any = None
    started = time.monotonic()
    if json_output or svg is not None or stopper is not None:
        from autograd_cli.graph import rendering  # lazy: startup time (loaded only when used)

        result, recorder = rendering.record_program(
            text, limits, echo=echo, observers=observers,
            recorder=stopper.recorder if stopper else None)
    else:  # nothing will draw the graph: no recorder (a training loop runs a fifth faster)
        # lazy: startup time (loaded only when used)
        from autograd_cli.language.interpreter import run_observed

        result = run_observed(text, limits, observers=observers, echo=echo)
    stopped = stopper is not None and stopper.quitted
    if stopped:
        result.error = None  # stopped at the breakpoint on purpose
    inspection.finish(result, text, lint=not stopped)
    after = Bound.after_run(started, limits, "")
    problems: list[ScriptError] = []  # limits that the work after the run hit
    if json_output:
        out.write(_json_document(file, result, recorder, inspection, limits, after,
                                 problems) + "\n")
    else:
        out.flush()
    if table is None:
        table = out.isatty()  # pipes and files get exactly what the program printed
    rows = None
    if table and not json_output and stopper is None:
        bound = after.doing("drawing the table")
        rows = bounded(lambda: _table_rows(result.variables, bound), None, bound, problems)
    report_problems(file, text, result, sys.stderr, problems, quiet)
    inspection.report(display_name(file), text, sys.stderr, quiet=quiet,
                      warnings_shown=result.warnings)
    if stopper is not None:
        if not stopped and not quiet:
            say(f"{display_name(file)}:{break_line}: note: --break: the program never "
                 "reached this line\n")
        if result.error is not None or (stopper.failures and not stopper.tool_missing):
            return PROGRAM_ERROR
        return TOOL_MISSING if stopper.tool_missing else OK
    if rows is not None:
        _print_table(rows, out)
    status = OK if result.error is None and not problems else PROGRAM_ERROR
    if drew_in_this_process():
        # lazy: startup time (loaded only when a program drew)
        from autograd_cli.cli.figures import write_figures

        status = status or write_figures(display_name(file), figures, text, result.variables,
                                         limits.max_seconds, file)
    if svg is not None:
        written = render_to(recorder, graph_format(svg), svg, file, {},
                            bound=after.doing("drawing the graph"))
        status = status or written
    if out is not sys.stdout and status == OK:  # a failed run leaves the file as it was
        data = out.getvalue().encode("utf-8")  # type: ignore[attr-defined]
        if check_file is not None:
            return check_bytes(data, check_file, "agraph run")
        return write_output(data, output, file)
    return status



def _json_document(file: str, result: Any, recorder: Any, inspection: Any, limits: Limits,
                   after: Bound, problems: list[ScriptError]) -> str:
    """design.md's object for `run --json` as text (docs/architecture.md lists what agraph
    adds). Its `tensors` are written within --max-output-bytes, the whole within the time and
    memory left: past a limit, `tensors` is empty or `graph` has no nodes (with a note), the
    LimitError is added to `problems`, and is the document's `error` if the program had none."""
    import json  # lazy: startup time (loaded only when used)

    from autograd_cli.graph import report  # lazy: startup time (loaded only when used)

    bound = after.doing("writing the tensors of the --json document")
    tensors = bounded(lambda: report.tensors_json(result.variables.items(),
                                                   limits.max_output_bytes, bound),
                       "[]", bound, problems)
    graph = _graph_or_note(recorder, after.doing("drawing the graph of the --json document"),
                           problems)
    error = result.error if result.error is not None else (problems[0] if problems else None)

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    return report.json_object([
        ("version", "1"),
        ("file", dumps(json_name(file))),
        ("stdout", dumps(result.stdout)),
        ("error", dumps(None if error is None else error.to_json())),
        ("tensors", tensors),
        ("warnings", dumps([{"category": w.category, "message": w.message, "line": w.line}
                            for w in result.warnings])),
        ("graph", dumps(graph)),
        ("lint", dumps([finding.to_json() for finding in inspection.findings])),
    ])



def _breakpoint_stop(file: str, text: str, limits: Limits, line: int, svg: Path | None
                     ) -> Any:
    """`run --break LINE`: a debugger with a fixed script (the table, the graph, quit), or
    None after saying that no statement starts at LINE."""
    # lazy: startup time (loaded only when used)
    from autograd_cli.graph.recorder import GraphRecorder
    from autograd_cli.tools.debugger import Debugger

    script = ["table"] + ([f"graph {svg}"] if svg is not None else []) + ["quit"]
    stopper = Debugger(text, display_name(file), GraphRecorder(), iter(script), sys.stdout,
                       limits=limits, echo_commands=False, breakpoints={line},
                       stops="breakpoints")
    if line not in stopper.statement_lines:
        say(f"agraph: error: --break {line}: no statement starts at line {line} of "
             f"{display_name(file)}\n")
        return None
    return stopper



def _graph_or_note(recorder: Any, bound: Bound, problems: list[ScriptError]) -> dict[str, Any]:
    """The `graph` field of `run --json`: the model, or no nodes and a note saying why."""
    from autograd_cli.graph import rendering  # lazy: startup time (loaded only when used)

    before = len(problems)
    try:
        graph = bounded(lambda: rendering.graph_dict(recorder, bound=bound), None, bound,
                         problems)
    except rendering.RenderError as error:
        return {"nodes": [], "edges": [], "note": str(error)}
    if graph is None:
        return {"nodes": [], "edges": [], "note": f"not drawn: {problems[before].message}"}
    return graph



def _table_rows(variables: dict[str, Any], bound: Bound) -> list[dict[str, Any]]:
    from autograd_cli.graph.report import table_rows  # lazy: startup time (loaded only when used)

    return table_rows(variables.items(), bound)



def _print_table(rows: list[dict[str, Any]], out: TextIO) -> None:
    """The table on stdout (colour and width as the terminal allows) or into -o's file."""
    # lazy: startup time (loaded only when used)
    from renderers import terminal
    from renderers.table import render_table

    if out is sys.stdout:
        render_table(rows, out, color=terminal.use_color(out), width=terminal.width(out))
    else:
        render_table(rows, out, color=False, width=terminal.width(out))


def drew_in_this_process() -> bool:
    """Whether a program in this process imported matplotlib or torchviz (agraph's drawing
    library): only then is there a figure to write or to forget (autograd_cli/cli/figures.py)."""
    return "autograd_cli.library.drawings" in sys.modules
