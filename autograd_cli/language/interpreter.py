"""Running a program: `run_program(text, limits)` checks it and runs it in a worker thread.

The worker has a big stack and a raised recursion limit, so deep (but allowed) programs run;
the caller waits at most until the run's deadline plus a grace period, so even a program stuck
inside one C call returns an error in time. Nothing a program does makes this raise: the
result holds the final globals, the printed text, the warnings and the error (or None).
"""

from __future__ import annotations

import ast
import sys
import threading
import time
import warnings
from collections.abc import Sequence
from typing import Any, Protocol, TextIO

from autograd_cli.language.checker import check_program
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.evaluator import Interpreter
from autograd_cli.language.limits import Limits, limit_error
from autograd_cli.language.output import OutputSink, WarningRecord
from autograd_cli.language.positions import node_position
from autograd_cli.language.torch_modules import torch_namespaces
from engine import allocator, memory, recording

__all__ = ["Interpreter", "Observer", "OutputSink", "RunResult", "WarningRecord",
           "run_observed", "run_program", "torch_namespaces"]

# The worker thread's stack and Python's recursion limit while a program runs: deep enough for
# max_call_depth calls in max_nesting_depth expressions, small enough for C frames to fit.
STACK_BYTES = 512 << 20
RECURSION_LIMIT = 60_000
# How long past max_seconds the caller waits for a program stuck inside one C call.
GRACE_SECONDS = 2.0
# How often the caller looks at the run's clock and memory while it waits.
WATCH_SECONDS = 0.01


class Observer(Protocol):
    """What a debugger or tracer gets told (every method optional): the interpreter that
    runs the program, before its first statement; each statement as it starts; each binding."""

    def on_start(self, interpreter: Interpreter) -> None: ...

    def on_bind(self, name: str, value: Any, line: int) -> None: ...

    def on_statement(self, node: ast.stmt) -> None: ...


class RunResult:
    """What a run left: its globals (in binding order), output, warnings and error."""

    def __init__(self, variables: dict[str, Any] | None = None, stdout: str = "",
                 warnings: list[WarningRecord] | None = None,
                 error: ScriptError | None = None) -> None:
        self.variables: dict[str, Any] = {} if variables is None else variables
        self.stdout = stdout
        self.warnings: list[WarningRecord] = [] if warnings is None else warnings
        self.error = error

    def __repr__(self) -> str:
        return (f"RunResult(variables={self.variables!r}, stdout={self.stdout!r}, "
                f"warnings={self.warnings!r}, error={self.error!r})")


def run_program(text: str, limits: Limits | None = None, *, observer: Any = None,
                echo: TextIO | None = None, tree: ast.Module | None = None) -> RunResult:
    """Check and run a program; never raises for anything the program does.

    `echo` receives printed text as it is printed (the CLI's stdout); `tree` is a tree that
    `check_program` already returned for `text`.
    """
    allocator.resume_collector()  # paused by the agraph command while it imported
    limits = limits or Limits()
    output = OutputSink(limits.max_output_bytes, echo)
    box: dict[str, Any] = {}
    worker = threading.Thread(target=_run_in_worker, name="agraph-program", daemon=True,
                              args=(text, limits, output, observer, tree, box))
    previous_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous_limit, RECURSION_LIMIT))
    try:
        _start_with_big_stack(worker)
        stopped = _wait(worker, box, limits)
    finally:
        sys.setrecursionlimit(previous_limit)
    if stopped is None:
        return box["result"]  # type: ignore[no-any-return]
    # Stopped inside one operation: report it; the daemon thread ends with the process.
    interpreter: Interpreter | None = box.get("interpreter")
    variables = dict(interpreter.globals) if interpreter else {}
    return RunResult(variables, output.text(), [], stopped)


ENGINE_EVENTS = ("on_op", "on_backward_node")


def run_observed(text: str, limits: Limits | None = None, *, observers: Sequence[Any] = (),
                 echo: TextIO | None = None) -> RunResult:
    """`run_program` with observers installed for its time: each sees the program's events
    (`Observer`) and the engine's (engine/recording.py), in the order given. The engine calls
    both of its events on the observer it has, so an observer handles both or neither."""
    observer: Any = None
    if len(observers) == 1:
        observer = observers[0]
    elif observers:
        observer = recording.Fanout(*observers)
    handled = [hasattr(observer, event) for event in ENGINE_EVENTS]
    if any(handled) and not all(handled):
        raise TypeError(f"an observer of the engine handles all of {ENGINE_EVENTS}")
    previous = recording.set_observer(observer if all(handled) else None)
    try:
        return run_program(text, limits, observer=observer, echo=echo)
    finally:
        recording.set_observer(previous)


def _start_with_big_stack(worker: threading.Thread) -> None:
    try:
        previous = threading.stack_size(STACK_BYTES)
    except (ValueError, RuntimeError):  # a platform that cannot: the default stack it is
        worker.start()
        return
    try:
        worker.start()
    finally:
        threading.stack_size(previous)


def _wait(worker: threading.Thread, box: dict[str, Any], limits: Limits) -> ScriptError | None:
    """Wait for the run; the error that stops it if it is still inside one operation well past
    its deadline, or if the memory in use went past what --max-memory allows (1/16 of it kept
    free, as the run's own checks keep it) while an operation runs: the temporaries of one op,
    which no check before the op sized, are seen only from here. The worker stops at its
    next statement; its result is not waited for."""
    while worker.is_alive():
        interpreter: Interpreter | None = box.get("interpreter")
        if interpreter is not None:
            if time.monotonic() > interpreter.deadline + GRACE_SECONDS:
                return limit_error("max_seconds", "the program ran for more than "
                                   f"{limits.max_seconds:g} seconds",
                                   *node_position(interpreter.node))
            message = memory.over_limit("tensors and the program's other values")
            if message is not None:
                error = limit_error("max_total_tensor_bytes", message,
                                    *node_position(interpreter.node))
                interpreter.defer(error)
                return error
        worker.join(WATCH_SECONDS)
    return None


def _run_in_worker(text: str, limits: Limits, output: OutputSink, observer: Any,
                   tree: ast.Module | None, box: dict[str, Any]) -> None:
    result = RunResult()
    try:
        if tree is None:
            tree = check_program(text, limits)
        interpreter = Interpreter(limits, output, observer)
        box["interpreter"] = interpreter
        if hasattr(observer, "on_start"):  # a debugger evaluates expressions in its scopes
            observer.on_start(interpreter)
        result.variables = interpreter.globals
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning,
                             ResourceWarning):
                warnings.simplefilter("ignore", category)
            # numpy's floating-point warnings are the engine's business, never PyTorch's output.
            warnings.filterwarnings("ignore", r".* encountered in ", RuntimeWarning)
            warnings.showwarning = interpreter.record_warning  # type: ignore[assignment]
            result.error = interpreter.run(tree)
        result.warnings = interpreter.warnings
    except ScriptError as error:
        result.error = error
    except Exception as exc:  # a bug in agraph: still no traceback for the user
        node = box["interpreter"].node if "interpreter" in box else None
        result.error = ScriptError(type(exc).__name__, f"internal error in agraph: {exc}",
                                   *node_position(node))
    result.stdout = output.text()
    box["result"] = result
