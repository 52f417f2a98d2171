"""`agraph explain OUTPUT INPUT`: the chain rule along every path
(autograd_cli/tools/explain.py)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from autograd_cli.cli.common import (
    OK,
    PROGRAM_ERROR,
    USAGE_ERROR,
    bounded,
    display_name,
    load_to_run,
    outputs_refused,
    say,
)
from autograd_cli.cli.render import graph_format, render_to
from autograd_cli.graph import rendering
from autograd_cli.graph.provenance import Provenance
from autograd_cli.language.bounds import Bound
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import Limits, limit_error
from autograd_cli.tools import explain as chain_rule


def explain(file: str, output: str, input_name: str, *, limits: Limits, svg: Path | None,
            max_paths: int, quiet: bool = False) -> int:
    if outputs_refused(file, svg):
        return USAGE_ERROR
    text = load_to_run(file, limits)
    if isinstance(text, int):
        return text
    provenance = Provenance()
    observer = chain_rule.ExplainObserver(provenance, output, input_name, max_paths)
    started = time.monotonic()
    result, recorder = rendering.record_program(text, limits, observers=[provenance, observer])
    status = OK
    if result.error is not None:  # still explained if the pass from OUTPUT ran before it
        say(result.error.format(display_name(file), text))
        status = PROGRAM_ERROR
    after = Bound.after_run(started, limits, f"explaining d{output}/d{input_name}")
    problems: list[ScriptError] = []
    try:
        explanation = bounded(lambda: observer.finish(result.variables, after), None, after,
                               problems)
    except chain_rule.ExplainError as error:
        say(f"agraph: explain: {error}\n")
        return PROGRAM_ERROR
    if explanation is not None:
        sys.stdout.write(chain_rule.format_explanation(explanation))
        sys.stdout.flush()
        if explanation.limit is not None:
            problems.append(limit_error(explanation.limit.field, explanation.limit.what))
    for problem in problems:
        say(problem.format(display_name(file)))
    if problems or explanation is None:
        return PROGRAM_ERROR
    if svg is not None:
        status = render_to(recorder, graph_format(svg), svg, file, {},
                            lambda graph: chain_rule.highlight_paths(graph, explanation),
                            bound=after.doing("drawing the graph")) or status
    return status
