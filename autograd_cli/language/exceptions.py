"""`try`/`except`/`else`/`finally`, `raise` and the exception classes a program sees.

An error inside the program travels as a `ScriptError` (located at the innermost statement)
that keeps the exception object the program can catch (`error.exception`): the engine's
`RuntimeError` with PyTorch's message, a `TypeError` from Python, the program's own class. A
limit hit (`LimitError`), a Python recursion overflow and agraph's own failures have none: no
`except`, `finally` or `__exit__` of the program runs for them.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import LIMIT_ERROR

if TYPE_CHECKING:
    from autograd_cli.language.evaluator import Interpreter


class ProgramExit(Exception):
    """`SystemExit` as a program sees it (argparse raises it on a bad argument or `--help`):
    catchable by the program; uncaught, it ends the run with its code as the error. (The
    host's own SystemExit is never the program's.)"""

    @property
    def code(self) -> Any:
        """Python's: None without arguments, the argument, or the tuple of them."""
        return None if not self.args else self.args[0] if len(self.args) == 1 else self.args


ProgramExit.__name__ = ProgramExit.__qualname__ = "SystemExit"
ProgramExit.__module__ = "builtins"  # shown and named as Python's own

# The exception classes a program can name, catch and raise (Python's own classes: the
# engine raises them with PyTorch's messages).
EXCEPTION_CLASSES: dict[str, type[BaseException]] = {
    kind.__name__: kind for kind in (
        Exception, ArithmeticError, AssertionError, AttributeError, IndexError, KeyError,
        LookupError, NameError, NotImplementedError, OverflowError, RuntimeError,
        StopIteration, TypeError, UnboundLocalError, ValueError, ZeroDivisionError,
        ImportError, ModuleNotFoundError, FloatingPointError, UserWarning, Warning,
        DeprecationWarning, RuntimeWarning, UnicodeError, SyntaxError, OSError,
        FileNotFoundError, ProgramExit)
}
# Errors of the run itself, never the program's to catch.
UNCATCHABLE = frozenset({LIMIT_ERROR, "RecursionError", "MemoryError", "KeyboardInterrupt"})


def program_exception(error: ScriptError) -> BaseException | None:
    """The exception object a program's `except` sees for `error`, or None if it cannot."""
    if error.type_name in UNCATCHABLE or error.message.startswith("internal error in agraph"):
        return None
    if error.exception is not None:
        if isinstance(error.exception, (RecursionError, MemoryError)):
            return None
        return error.exception
    kind = getattr(builtins, error.type_name, None)
    if not (isinstance(kind, type) and issubclass(kind, Exception)):
        kind = RuntimeError
    exception = kind(error.message)
    error.exception = exception
    return exception


def execute_try(interpreter: Interpreter, node: ast.Try) -> Any:
    signal: Any = None
    try:
        try:
            signal = interpreter.execute_block(node.body)
        except ScriptError as error:
            exception = program_exception(error)
            if exception is None:
                raise
            handler = matching_handler(interpreter, node.handlers, exception)
            if handler is None:
                raise
            signal = _handle(interpreter, handler, exception, error)
        else:
            if node.orelse:
                signal = interpreter.execute_block(node.orelse)
    except ScriptError as error:
        if node.finalbody and program_exception(error) is not None:
            final = interpreter.execute_block(node.finalbody)
            if final is not None:  # return/break in finally drops the exception, as in Python
                return final
        raise
    if node.finalbody:
        final = interpreter.execute_block(node.finalbody)
        if final is not None:
            return final
    return signal


def matching_handler(interpreter: Interpreter, handlers: list[ast.ExceptHandler],
                      exception: BaseException) -> ast.ExceptHandler | None:
    for handler in handlers:
        if handler.type is None:
            return handler
        kinds = interpreter.eval(handler.type)
        interpreter.node = handler.type
        for kind in kinds if type(kinds) is tuple else (kinds,):
            if not (isinstance(kind, type) and issubclass(kind, BaseException)):
                raise TypeError("catching classes that do not inherit from BaseException is "
                                "not allowed")
        if isinstance(exception, kinds):
            return handler
    return None


def _handle(interpreter: Interpreter, handler: ast.ExceptHandler, exception: BaseException,
            error: ScriptError) -> Any:
    with handling(interpreter, handler, exception, error):
        return interpreter.execute_block(handler.body)


@contextmanager
def handling(interpreter: Interpreter, handler: ast.ExceptHandler, exception: BaseException,
             error: ScriptError) -> Iterator[None]:
    """While an `except` block runs: its `as` name bound, its error the one a bare `raise`
    re-raises; afterwards the name is deleted, as Python does."""
    names = interpreter.scope.names
    interpreter.handling.append(error)
    try:
        if handler.name is not None:
            interpreter.bind_name(handler.name, exception, handler)
        yield
    finally:
        interpreter.handling.pop()
        if handler.name is not None:
            names.pop(handler.name, None)


def execute_raise(interpreter: Interpreter, node: ast.Raise) -> None:
    if node.exc is None:
        if not interpreter.handling:
            raise RuntimeError("No active exception to reraise")
        raise interpreter.handling[-1]
    exception = _exception_value(interpreter, interpreter.eval(node.exc))
    if node.cause is not None:
        cause = interpreter.eval(node.cause)
        exception.__cause__ = None if cause is None else _exception_value(interpreter, cause)
    interpreter.node = node
    raise exception


def _exception_value(interpreter: Interpreter, value: Any) -> BaseException:
    """`raise X` takes an exception object or a class it instantiates."""
    if isinstance(value, type) and issubclass(value, BaseException):
        value = interpreter.call_value(value, [], {})
    if not isinstance(value, BaseException):
        raise TypeError("exceptions must derive from BaseException")
    return value
