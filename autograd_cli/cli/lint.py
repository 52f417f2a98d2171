"""`agraph lint`: gradient-flow problems of a program (autograd_cli/tools/lint.py)."""

from __future__ import annotations

import json
import sys

from autograd_cli.cli.common import (
    OK,
    PROGRAM_ERROR,
    display_name,
    json_name,
    load_to_run,
    say,
)
from autograd_cli.graph import rendering
from autograd_cli.language.limits import Limits
from autograd_cli.tools.inspection import Inspection


def lint(file: str, *, limits: Limits, json_output: bool) -> int:
    text = load_to_run(file, limits)
    if isinstance(text, int):
        return text
    inspection = Inspection(sys.stderr, lint=True)
    result, _ = rendering.record_program(text, limits, observers=inspection.observers())
    inspection.finish(result, text)
    if result.error is not None:  # warnings are not repeated: the findings explain them
        say(result.error.format(display_name(file), text))
    findings = inspection.findings
    if json_output:
        document = {"file": json_name(file), "lint": [f.to_json() for f in findings]}
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
    else:
        for finding in findings:
            sys.stdout.write(finding.format(display_name(file)))
    return PROGRAM_ERROR if findings or result.error is not None else OK
