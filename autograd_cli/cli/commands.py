"""What each command does, once typer has parsed its options: read, run, report, exit code.

Kept apart from main.py so that the heavy parts (the interpreter, numpy, rich, graphviz) load
only when a command runs, never for `--help` or a usage error.

The work after a run (the --json document, the table, the graph, explain's analysis) is bounded
by the run's limits (autograd_cli/language/bounds.py); a limit it hits is reported as a LimitError
without a position, `FILE: LimitError: ...`, after the program's own error if any (exit 1).
What agraph writes to stderr shows unprintable characters escaped (errors.visible).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TextIO, TypeVar

from autograd_cli.language.bounds import Bound
from autograd_cli.language.errors import ScriptError, visible
from autograd_cli.language.limits import LimitExceeded, Limits, limit_error

T = TypeVar("T")

OK, PROGRAM_ERROR, USAGE_ERROR, TOOL_MISSING = 0, 1, 2, 3

GRAPHVIZ_HELP = (
    "Graphviz's `dot` program is needed for --format svg, png, pdf and html, and it was not "
    "found.\n"
    "Install it:  Debian/Ubuntu: sudo apt-get install graphviz   macOS: brew install graphviz"
    "   conda: conda install -c conda-forge graphviz\n"
    "Without it, `agraph render --format dot|json|mermaid` and `agraph run` still work.\n"
)


def display_name(file: str) -> str:
    return "<stdin>" if file == "-" else file


def _say(text: str) -> None:
    """Write agraph's own message to stderr, unprintable characters escaped."""
    sys.stderr.write(visible(text))


def _bounded(work: Callable[[], T], fallback: T, bound: Bound,
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


def _load(file: str, limits: Limits, json_output: bool = False) -> str | None:
    """The program's text, or None after reporting why it cannot be read (with `json_output`
    also as the `error` of a JSON document on stdout)."""
    from autograd_cli.language.source import read_source

    try:
        return read_source(file, limits.max_source_bytes)
    except ScriptError as error:
        _say(error.format(display_name(file)))
        if json_output:
            _write_json_failure(file, error)
        return None


def _prepare_engine(limits: Limits, seed: int | None = None) -> None:
    """A clean engine for each run (tests run many programs in one process); the default
    random generator starts from agraph's fixed seed, or from `--seed`."""
    from engine import api, budget, random

    api.reset_state()
    if seed is not None:
        random.reset(seed)
    budget.limits["max_elements"] = limits.max_tensor_elements
    budget.limits["max_bytes"] = limits.max_total_tensor_bytes


def _report_problems(file: str, text: str, result: Any, stream: TextIO,
                     after: Sequence[ScriptError] = ()) -> None:
    """The program's warnings and error, then the limits the work after it hit."""
    for warning in result.warnings:
        stream.write(visible(warning.format(display_name(file), text)))
    if result.error is not None:
        stream.write(result.error.format(display_name(file), text))
    for problem in after:
        stream.write(problem.format(display_name(file)))


def check(file: str, *, limits: Limits) -> int:
    from autograd_cli.language.checker import check_program

    text = _load(file, limits)
    if text is None:
        return PROGRAM_ERROR
    try:
        check_program(text, limits)
    except ScriptError as error:
        _say(error.format(display_name(file), text))
        return PROGRAM_ERROR
    return OK


def run(file: str, *, limits: Limits, json_output: bool, table: bool | None, svg: Path | None,
        trace: bool = False, detect_anomaly: bool = False, break_line: int | None = None,
        watch: str | None = None, lint: bool | None = None, seed: int | None = None,
        figures: Path | None = None) -> int:
    from autograd_cli.cli.figures import start_run as start_figures
    from autograd_cli.cli.figures import write_figures
    from autograd_cli.tools.inspection import Inspection

    if lint is None:
        lint = sys.stderr.isatty()  # notes are for people; pipes and docs builds stay quiet

    text = _load(file, limits, json_output)
    if text is None:
        return PROGRAM_ERROR
    _prepare_engine(limits, seed)
    start_figures()
    echo = None if json_output else sys.stdout
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
        from autograd_cli.graph import rendering

        result, recorder = rendering.record_program(
            text, limits, echo=echo, observers=observers,
            recorder=stopper.recorder if stopper else None)
    else:  # nothing will draw the graph: no recorder (a training loop runs a fifth faster)
        from autograd_cli.language.interpreter import run_observed

        result = run_observed(text, limits, observers=observers, echo=echo)
    stopped = stopper is not None and stopper.quitted
    if stopped:
        result.error = None  # stopped at the breakpoint on purpose
    inspection.finish(result, text, lint=not stopped)
    after = Bound.after_run(started, limits, "")
    problems: list[ScriptError] = []  # limits that the work after the run hit
    if json_output:
        sys.stdout.write(_json_document(file, result, recorder, inspection, limits, after,
                                        problems) + "\n")
    else:
        sys.stdout.flush()
    if table is None:
        table = sys.stdout.isatty()  # pipes and files get exactly what the program printed
    rows = None
    if table and not json_output and stopper is None:
        bound = after.doing("drawing the table")
        rows = _bounded(lambda: _table_rows(result.variables, bound), None, bound, problems)
    _report_problems(file, text, result, sys.stderr, problems)
    inspection.report(display_name(file), text, sys.stderr)
    if stopper is not None:
        if not stopped:
            _say(f"{display_name(file)}:{break_line}: note: --break: the program never "
                 "reached this line\n")
        if result.error is not None or (stopper.failures and not stopper.tool_missing):
            return PROGRAM_ERROR
        return TOOL_MISSING if stopper.tool_missing else OK
    if rows is not None:
        _print_table(rows)
    status = OK if result.error is None and not problems else PROGRAM_ERROR
    status = status or write_figures(display_name(file), figures, text, result.variables)
    if svg is not None:
        written = _render_to(recorder, "svg", svg, file, {},
                             bound=after.doing("drawing the graph"))
        status = status or written
    return status


def _json_document(file: str, result: Any, recorder: Any, inspection: Any, limits: Limits,
                   after: Bound, problems: list[ScriptError]) -> str:
    """design.md's object for `run --json` as text (docs/architecture.md lists what agraph
    adds). Its `tensors` are written within --max-output-bytes, the whole within the time and
    memory left: past a limit, `tensors` is empty or `graph` has no nodes (with a note), the
    LimitError is added to `problems`, and is the document's `error` if the program had none."""
    from autograd_cli.graph import report

    bound = after.doing("writing the tensors of the --json document")
    tensors = _bounded(lambda: report.tensors_json(result.variables.items(),
                                                   limits.max_output_bytes, bound),
                       "[]", bound, problems)
    graph = _graph_or_note(recorder, after.doing("drawing the graph of the --json document"),
                           problems)
    error = result.error if result.error is not None else (problems[0] if problems else None)

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    return report.json_object([
        ("version", "1"),
        ("file", dumps(file)),
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
    from autograd_cli.graph.recorder import GraphRecorder
    from autograd_cli.tools.debugger import Debugger

    script = ["table"] + ([f"graph {svg}"] if svg is not None else []) + ["quit"]
    stopper = Debugger(text, display_name(file), GraphRecorder(), iter(script), sys.stdout,
                       limits=limits, echo_commands=False, breakpoints={line},
                       stops="breakpoints")
    if line not in stopper.statement_lines:
        _say(f"agraph: error: --break {line}: no statement starts at line {line} of "
             f"{display_name(file)}\n")
        return None
    return stopper


def explain(file: str, output: str, input_name: str, *, limits: Limits, svg: Path | None,
            max_paths: int) -> int:
    from autograd_cli.graph import rendering
    from autograd_cli.graph.provenance import Provenance
    from autograd_cli.tools import explain as chain_rule

    text = _load(file, limits)
    if text is None:
        return PROGRAM_ERROR
    _prepare_engine(limits)
    provenance = Provenance()
    observer = chain_rule.ExplainObserver(provenance, output, input_name, max_paths)
    started = time.monotonic()
    result, recorder = rendering.record_program(text, limits, observers=[provenance, observer])
    status = OK
    if result.error is not None:  # still explained if the pass from OUTPUT ran before it
        _say(result.error.format(display_name(file), text))
        status = PROGRAM_ERROR
    after = Bound.after_run(started, limits, f"explaining d{output}/d{input_name}")
    problems: list[ScriptError] = []
    try:
        explanation = _bounded(lambda: observer.finish(result.variables, after), None, after,
                               problems)
    except chain_rule.ExplainError as error:
        _say(f"agraph: explain: {error}\n")
        return PROGRAM_ERROR
    if explanation is not None:
        sys.stdout.write(chain_rule.format_explanation(explanation))
        sys.stdout.flush()
        if explanation.limit is not None:
            problems.append(limit_error(explanation.limit.field, explanation.limit.what))
    for problem in problems:
        _say(problem.format(display_name(file)))
    if problems or explanation is None:
        return PROGRAM_ERROR
    if svg is not None:
        status = _render_to(recorder, "svg", svg, file, {},
                            lambda graph: chain_rule.highlight_paths(graph, explanation),
                            bound=after.doing("drawing the graph")) or status
    return status


def debug(file: str, *, limits: Limits) -> int:
    from autograd_cli.graph import rendering
    from autograd_cli.graph.recorder import GraphRecorder
    from autograd_cli.language.checker import check_program
    from autograd_cli.tools.debugger import Debugger

    if file == "-":
        _say("agraph: error: debug reads its commands from stdin: give the program as a "
             "file\n")
        return USAGE_ERROR
    text = _load(file, limits)
    if text is None:
        return PROGRAM_ERROR
    try:
        check_program(text, limits)  # refuse a wrong program before any prompt
    except ScriptError as error:
        _say(error.format(display_name(file), text))
        return PROGRAM_ERROR
    _prepare_engine(limits)
    terminal = sys.stdin.isatty()
    debugger = Debugger(text, display_name(file), GraphRecorder(),
                        iter(sys.stdin.readline, ""), sys.stdout, limits=limits,
                        prompt=terminal)
    result, _ = rendering.record_program(text, limits, echo=sys.stdout, observers=[debugger],
                                         recorder=debugger.recorder)
    sys.stdout.flush()
    if debugger.quitted:
        return OK
    _report_problems(file, text, result, sys.stderr)
    sys.stdout.write("the program ended\n" if result.error is None else
                     "the program stopped with an error\n")
    return OK if result.error is None else PROGRAM_ERROR


def lint(file: str, *, limits: Limits, json_output: bool) -> int:
    from autograd_cli.graph import rendering
    from autograd_cli.tools.inspection import Inspection

    text = _load(file, limits)
    if text is None:
        return PROGRAM_ERROR
    _prepare_engine(limits)
    inspection = Inspection(sys.stderr, lint=True)
    result, _ = rendering.record_program(text, limits, observers=inspection.observers())
    inspection.finish(result, text)
    if result.error is not None:  # warnings are not repeated: the findings explain them
        _say(result.error.format(display_name(file), text))
    findings = inspection.findings
    if json_output:
        sys.stdout.write(json.dumps({"file": file, "lint": [f.to_json() for f in findings]},
                                    ensure_ascii=False) + "\n")
    else:
        for finding in findings:
            sys.stdout.write(finding.format(display_name(file)))
    return PROGRAM_ERROR if findings or result.error is not None else OK


def _graph_or_note(recorder: Any, bound: Bound, problems: list[ScriptError]) -> dict[str, Any]:
    """The `graph` field of `run --json`: the model, or no nodes and a note saying why."""
    from autograd_cli.graph import rendering

    before = len(problems)
    try:
        graph = _bounded(lambda: rendering.graph_dict(recorder, bound=bound), None, bound,
                         problems)
    except rendering.RenderError as error:
        return {"nodes": [], "edges": [], "note": str(error)}
    if graph is None:
        return {"nodes": [], "edges": [], "note": f"not drawn: {problems[before].message}"}
    return graph


def _write_json_failure(file: str, error: ScriptError) -> None:
    document = {"version": 1, "file": file, "stdout": "", "error": error.to_json(),
                "tensors": [], "graph": {"nodes": [], "edges": []}}
    sys.stdout.write(json.dumps(document) + "\n")


def _table_rows(variables: dict[str, Any], bound: Bound) -> list[dict[str, Any]]:
    from autograd_cli.graph.report import table_rows

    return table_rows(variables.items(), bound)


def _print_table(rows: list[dict[str, Any]]) -> None:
    from renderers.table import render_table

    render_table(rows, sys.stdout, color=sys.stdout.isatty())


def render(file: str, *, limits: Limits, fmt: str, output: Path | None, view: str,
           pass_number: int | None, show_saved: bool, values: bool, grads: bool, legend: bool,
           rankdir: str, max_nodes: int, check_file: Path | None,
           detect_anomaly: bool = False, svg: bool = False, seed: int | None = None,
           unroll: int | None = None) -> int:
    from autograd_cli.graph import rendering
    from autograd_cli.tools.inspection import Inspection

    if svg:  # --svg is short for --format svg
        fmt = "svg"
    text = _load(file, limits)
    if text is None:
        return PROGRAM_ERROR
    _prepare_engine(limits, seed)
    inspection = Inspection(sys.stderr, detect_anomaly=detect_anomaly)
    started = time.monotonic()
    result, recorder = rendering.record_program(text, limits, keep_pass=pass_number,
                                                observers=inspection.observers())
    inspection.finish(result, text)
    _report_problems(file, text, result, sys.stderr)
    inspection.report(display_name(file), text, sys.stderr)
    anomaly = inspection.anomaly
    if result.error is not None and anomaly is None:
        return PROGRAM_ERROR
    options = {"view": view, "pass_number": pass_number, "show_saved": show_saved,
               "values": values, "grads": grads, "legend": legend, "rankdir": rankdir,
               "max_nodes": max_nodes, "unroll": unroll}
    mark = None
    if anomaly is not None:  # draw the graph as it was when the NaN appeared, that op in red
        from autograd_cli.tools.anomaly import mark_anomaly

        if anomaly.output is not None:
            recorder.set_variables({**result.variables, "(anomaly)": anomaly.output})
        mark = partial(mark_anomaly, anomaly=anomaly)
    bound = Bound.after_run(started, limits, "drawing the graph")
    if check_file is not None:
        status = _check_rendered(recorder, fmt, check_file, file, options, bound)
    else:
        status = _render_to(recorder, fmt, output, file, options, mark, bound=bound)
    return PROGRAM_ERROR if anomaly is not None else status


def _render(recorder: Any, fmt: str, file: str, options: dict[str, Any],
            transform: Callable[[Any], Any] | None = None,
            bound: Bound | None = None) -> bytes | int:
    """The rendered bytes, or an exit code after reporting why there are none; `transform`
    marks up the model first (explain's paths, an anomaly); `bound`: the limits of the work
    after the run (a LimitError past them)."""
    from autograd_cli.graph import rendering

    bound = bound or Bound.unbounded()
    problems: list[ScriptError] = []

    def draw() -> bytes:
        if fmt == "html":  # both views in one page
            return rendering.render_page(recorder, **options, file_name=display_name(file),
                                         transform=transform, bound=bound)
        graph = rendering.graph_model(recorder, **options, bound=bound)
        return rendering.render_model(transform(graph) if transform else graph, fmt)

    try:
        data = _bounded(draw, None, bound, problems)
    except rendering.GraphvizMissing:
        _say("agraph: error: " + GRAPHVIZ_HELP)
        return TOOL_MISSING
    except (rendering.RenderError, rendering.GraphvizFailed) as error:
        _say(f"agraph: error: {error}\n")
        return PROGRAM_ERROR
    if data is None:
        _say("".join(problem.format(display_name(file)) for problem in problems))
        return PROGRAM_ERROR
    return data


def _render_to(recorder: Any, fmt: str, output: Path | None, file: str,
               options: dict[str, Any], transform: Callable[[Any], Any] | None = None,
               bound: Bound | None = None) -> int:
    from autograd_cli.graph import rendering

    data = _render(recorder, fmt, file, options, transform, bound)
    if isinstance(data, int):
        return data
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return OK
    try:
        rendering.write_atomically(output, data, None if file == "-" else file)
    except rendering.OutputError as error:
        _say(f"agraph: error: {error}\n")
        return PROGRAM_ERROR
    return OK


def _check_rendered(recorder: Any, fmt: str, existing: Path, file: str,
                    options: dict[str, Any], bound: Bound | None = None) -> int:
    data = _render(recorder, fmt, file, options, bound=bound)
    if isinstance(data, int):
        return data
    from autograd_cli.language.source import SourceError, read_regular_file

    try:  # no more than the new rendering and a byte: a longer file differs anyway
        current = read_regular_file(str(existing), len(data))
    except SourceError as error:
        _say(f"agraph: error: cannot read {existing}: {error.message}\n")
        return PROGRAM_ERROR
    if current != data:
        _say(f"{existing}: differs from what `agraph render` makes now; render it again\n")
        return PROGRAM_ERROR
    return OK
