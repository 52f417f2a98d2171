"""`agraph render`: the graph a program built, in a format, to stdout or a file (also `run --svg`
and `explain --svg`); `--check` compares it with a file."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from autograd_cli.cli import common
from autograd_cli.language.bounds import Bound
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import Limits
from autograd_cli.language.source import SourceError, read_regular_file
from renderers.formats import FORMATS


def render(file: str, *, limits: Limits, fmt: str | None, output: Path | None, view: str,
           pass_number: int | None, show_saved: bool, values: bool, grads: bool, legend: bool,
           rankdir: str, max_nodes: int, check_file: Path | None,
           detect_anomaly: bool = False, svg: bool = False, seed: int | None = None,
           unroll: int | None = None, quiet: bool = False) -> int:
    from autograd_cli.cli import outputs  # lazy: autograd_cli.cli.outputs imports this module

    # lazy: startup time (loaded only when used)
    from autograd_cli.graph import rendering
    from autograd_cli.tools.inspection import Inspection

    chosen = outputs.output_format(fmt, svg, output, rendering.FORMATS)  # --svg: --format svg
    if chosen is None:
        return common.USAGE_ERROR
    fmt = chosen
    if outputs.names_a_directory(output):  # -o DIR/: DIR/NAME.EXT
        output = outputs.target_in(output, [file], fmt)
        if output is None:
            return common.USAGE_ERROR
    if common.outputs_refused(file, output):
        return common.USAGE_ERROR
    text = common.load_to_run(file, limits, seed)
    if isinstance(text, int):
        return text
    inspection = Inspection(sys.stderr, detect_anomaly=detect_anomaly)
    started = time.monotonic()
    result, recorder = rendering.record_program(text, limits, keep_pass=pass_number,
                                                observers=inspection.observers())
    inspection.finish(result, text)
    common.report_problems(file, text, result, sys.stderr, quiet=quiet)
    inspection.report(common.display_name(file), text, sys.stderr, quiet=quiet)
    anomaly = inspection.anomaly
    if result.error is not None and anomaly is None:
        return common.PROGRAM_ERROR
    options = {"view": view, "pass_number": pass_number, "show_saved": show_saved,
               "values": values, "grads": grads, "legend": legend, "rankdir": rankdir,
               "max_nodes": max_nodes, "unroll": unroll}
    mark = None
    if anomaly is not None:  # draw the graph as it was when the NaN appeared, that op in red
        # lazy: startup time (loaded only when used)
        from autograd_cli.tools.anomaly import mark_anomaly

        if anomaly.output is not None:
            recorder.set_variables({**result.variables, "(anomaly)": anomaly.output})
        mark = partial(mark_anomaly, anomaly=anomaly)
    bound = Bound.after_run(started, limits, "drawing the graph")
    if quiet:
        options["quiet"] = True
    if check_file is not None:
        status = _check_rendered(recorder, fmt, check_file, file, options, bound)
    else:
        status = render_to(recorder, fmt, output, file, options, mark, bound=bound)
    return common.PROGRAM_ERROR if anomaly is not None else status



def _render(recorder: Any, fmt: str, file: str, options: dict[str, Any],
            transform: Callable[[Any], Any] | None = None,
            bound: Bound | None = None) -> bytes | int:
    """The rendered bytes, or an exit code after reporting why there are none; `transform`
    marks up the model first (explain's paths, an anomaly); `bound`: the limits of the work
    after the run (a LimitError past them)."""
    from autograd_cli.graph import rendering  # lazy: startup time (loaded only when used)

    bound = bound or Bound.unbounded()
    problems: list[ScriptError] = []
    options = dict(options)
    quiet = options.pop("quiet", False)

    def draw() -> bytes:
        if fmt == "html":  # both views in one page
            return rendering.render_page(recorder, **options,
                                         file_name=common.display_name(file),
                                         transform=transform, bound=bound)
        graph = rendering.graph_model(recorder, **options, bound=bound)
        rendering.check_something_to_draw(graph)
        if not graph.nodes and not quiet:
            common.say(f"{common.display_name(file)}: note: the program made no tensors; the "
                       "graph is empty\n")
        return rendering.render_model(transform(graph) if transform else graph, fmt)

    try:
        data = common.bounded(draw, None, bound, problems)
    except rendering.GraphvizMissing as error:
        common.say(f"agraph: error: {error}")
        return common.TOOL_MISSING
    except (rendering.RenderError, rendering.GraphvizFailed) as error:
        common.say(f"agraph: error: {error}\n")
        return common.PROGRAM_ERROR
    if data is None:
        common.say("".join(problem.format(common.display_name(file)) for problem in problems))
        return common.PROGRAM_ERROR
    return data



def render_to(recorder: Any, fmt: str, output: Path | None, file: str,
               options: dict[str, Any], transform: Callable[[Any], Any] | None = None,
               bound: Bound | None = None) -> int:
    data = _render(recorder, fmt, file, options, transform, bound)
    if isinstance(data, int):
        return data
    return write_output(data, output, file)


def graph_format(path: Path) -> str:
    """The format of a `--graph FILE` (run, explain): its extension's, else svg."""
    # lazy: autograd_cli.cli.outputs imports this module
    from autograd_cli.cli.outputs import output_format

    return output_format(None, False, path, FORMATS) or "svg"


def write_output(data: bytes, output: Path | None, file: str) -> int:
    """`data` to stdout, or written atomically to `output` (never over the input `file`)."""
    from autograd_cli.graph import rendering  # lazy: startup time (loaded only when used)

    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return common.OK
    try:
        rendering.write_atomically(output, data, None if file == "-" else file)
    except rendering.OutputError as error:
        common.say(f"agraph: error: {error}\n")
        return common.PROGRAM_ERROR
    return common.OK



def _check_rendered(recorder: Any, fmt: str, existing: Path, file: str,
                    options: dict[str, Any], bound: Bound | None = None) -> int:
    data = _render(recorder, fmt, file, options, bound=bound)
    if isinstance(data, int):
        return data
    return check_bytes(data, existing, "agraph render")


def check_bytes(data: bytes, existing: Path, command: str) -> int:
    """--check: OK when `existing` holds exactly `data`, else 1 with a message."""
    try:  # no more than the new output and a byte: a longer file differs anyway
        current = read_regular_file(str(existing), len(data))
    except SourceError as error:
        common.say(f"agraph: error: cannot read {existing}: {error.message}\n")
        return common.PROGRAM_ERROR
    if current != data:
        common.say(f"{existing}: differs from what `{command}` makes now; make it again\n")
        return common.PROGRAM_ERROR
    return common.OK
