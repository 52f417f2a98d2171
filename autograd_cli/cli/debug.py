"""`agraph debug`: step through a program, commands from stdin (autograd_cli/tools/debugger.py)."""

from __future__ import annotations

import sys

from autograd_cli.cli.common import (
    OK,
    PROGRAM_ERROR,
    USAGE_ERROR,
    display_name,
    load,
    prepare_engine,
    report_problems,
    say,
)
from autograd_cli.graph import rendering
from autograd_cli.graph.recorder import GraphRecorder
from autograd_cli.language.checker import check_program
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import Limits
from autograd_cli.tools.debugger import Debugger


def debug(file: str, *, limits: Limits, quiet: bool = False) -> int:
    if file == "-":
        say("agraph: error: debug reads its commands from stdin: give the program as a "
             "file\n")
        return USAGE_ERROR
    text = load(file, limits)
    if isinstance(text, int):
        return text
    try:
        check_program(text, limits)  # refuse a wrong program before any prompt
    except ScriptError as error:
        say(error.format(display_name(file), text))
        return PROGRAM_ERROR
    prepare_engine(limits)
    terminal = sys.stdin.isatty()
    debugger = Debugger(text, display_name(file), GraphRecorder(),
                        iter(sys.stdin.readline, ""), sys.stdout, limits=limits,
                        prompt=terminal)
    result, _ = rendering.record_program(text, limits, echo=sys.stdout, observers=[debugger],
                                         recorder=debugger.recorder)
    sys.stdout.flush()
    if debugger.quitted:
        return OK
    report_problems(file, text, result, sys.stderr, quiet=quiet)
    sys.stdout.write("the program ended\n" if result.error is None else
                     "the program stopped with an error\n")
    return OK if result.error is None else PROGRAM_ERROR
