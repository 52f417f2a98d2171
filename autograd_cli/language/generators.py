"""Generator functions: `yield`, `yield from`, and the generator objects a call returns.

No thread per generator: the body of a generator function runs as a *host* generator
(`run_body`) that walks the statements the way `Interpreter.execute_block` does and hands each
statement that holds no `yield` to it. The statements that hold one (`yield` as a statement or
as the value of an assignment, inside `for`, `while`, `if`, `with`, `try`; the checker refuses
the other places) have generator versions here, so a `yield` suspends the whole walk in Python's
own frames and `next()` resumes it. `ProgramGenerator.send` switches the interpreter to the
generator's scope while it runs and back when it yields: each resumption counts a step and a
nested call (max_call_depth), and everything it runs counts as any statement does.
"""

from __future__ import annotations

import ast
import functools
import inspect
import threading
import time
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from autograd_cli.language import exceptions
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.scopes import BREAK, CONTINUE
from engine.addresses import address_of

if TYPE_CHECKING:
    from autograd_cli.language.evaluator import Interpreter
    from autograd_cli.language.scopes import Scope

Steps = Generator[Any, Any, Any]


def yields_in(body: list[ast.stmt]) -> frozenset[int]:
    """Ids of the statements of a function body that hold a `yield` of this function."""
    found: set[int] = set()
    for statement in body:
        stack: list[ast.AST] = [statement]
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.Yield, ast.YieldFrom)):
                found.add(id(statement))
                break
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                 ast.ClassDef)):
                continue
            stack.extend(ast.iter_child_nodes(node))
        if isinstance(statement, (ast.For, ast.While, ast.If, ast.With, ast.Try)):
            for part in _blocks_of(statement):
                found |= yields_in(part)
    return frozenset(found)


def _blocks_of(statement: ast.stmt) -> list[list[ast.stmt]]:
    blocks = [getattr(statement, "body", []), getattr(statement, "orelse", [])]
    if isinstance(statement, ast.Try):
        blocks += [statement.finalbody, *(handler.body for handler in statement.handlers)]
    return blocks


@functools.lru_cache(maxsize=1024)  # a nested `def` runs at each call of its outer function
def is_generator_function(node: ast.FunctionDef | ast.Lambda) -> bool:
    if isinstance(node, ast.Lambda):
        return False
    return bool(yields_in(node.body))


class ProgramGenerator:
    """What calling a generator function returns: an iterator over what its body yields."""

    PUBLIC_ATTRS = frozenset({"send", "close"})

    def __init__(self, interpreter: Interpreter, name: str, body: list[ast.stmt],
                 scope: Scope) -> None:
        self.interpreter = interpreter
        self.name = name
        self.scope = scope
        self.yielding = yields_in(body)
        self.steps: Steps = run_body(interpreter, body, self.yielding)
        self.running = False
        self.thread = threading.get_ident()

    def __iter__(self) -> ProgramGenerator:
        return self

    def __next__(self) -> Any:
        return self.send(None)

    def send(self, value: Any) -> Any:
        return self._resume(functools.partial(self.steps.send, value))

    def close(self) -> None:
        """Python's `close()`: the `finally` blocks it is suspended in run, in its own scope."""
        self._resume(self.steps.close)

    def _resume(self, step: Any) -> Any:
        """Runs the body on (`step`) with the generator's scope, counted as a step and a call."""
        if self.running:
            raise ValueError("generator already executing")
        interpreter = self.interpreter
        if interpreter.depth >= interpreter.limits.max_call_depth:
            raise interpreter.located(LimitExceeded(
                "max_call_depth", f"more than {interpreter.limits.max_call_depth} nested calls "
                "(infinite recursion?)"))
        outer_scope, outer_node = interpreter.scope, interpreter.node
        interpreter.scope = self.scope
        interpreter.depth += 1
        self.running = True
        try:
            interpreter.count_step()
            return step()
        except StopIteration as stop:
            value = stop.value
            raise StopIteration(value.value if value is not None else None) from None
        except (ScriptError, RecursionError):
            raise
        except Exception as exc:  # located here, in the generator, before the node goes back
            raise interpreter.located(exc) from None
        finally:
            self.running = False
            interpreter.depth -= 1
            interpreter.scope = outer_scope
            interpreter.node = outer_node

    def __del__(self) -> None:
        """A generator dropped before its end is closed, as Python closes it: its `finally`
        blocks run in its scope under the run's limits, in the run's thread while it runs (else
        never). An error there cannot reach the program: it is shown as Python shows it."""
        try:
            if inspect.getgeneratorstate(self.steps) != inspect.GEN_SUSPENDED:
                return
            if threading.get_ident() != self.thread or time.monotonic() > \
                    self.interpreter.deadline:
                self.steps.throw(_Abandoned())  # ends the host generator, no program code run
                return
            try:
                self.close()
            except ScriptError as error:
                if error.type_name == "LimitError":  # a limit ends the run, not just the close
                    self.interpreter.defer(error)
                    return
                self.interpreter.write_error(
                    f"Exception ignored in: {self!r}\n{error.type_name}: "
                    f"{error.message.partition(chr(10))[0][:200]} (line {error.line})\n")
        except BaseException:  # nothing may escape a finalizer (Python would print it)
            return

    def __repr__(self) -> str:
        return f"<generator object {self.name} at {address_of(self)}>"


ProgramGenerator.__name__ = ProgramGenerator.__qualname__ = "generator"


class _Abandoned(BaseException):
    """Thrown into a dropped generator's body to end it without running its `finally`."""


def run_body(interpreter: Interpreter, body: list[ast.stmt], yielding: frozenset[int]) -> Steps:
    """The statements of `body`; returns the control-flow signal that ended it, if any."""
    for statement in body:
        if id(statement) not in yielding:
            signal = interpreter.execute_block([statement])
        else:
            interpreter.node = statement
            if interpreter.on_statement is not None:
                interpreter.on_statement(statement)
            interpreter.count_step()
            handler = _HANDLERS[statement.__class__]
            signal = yield from handler(interpreter, statement, yielding)
        if signal is not None:
            return signal
    return None


def _expression(interpreter: Interpreter, node: ast.Expr, yielding: frozenset[int]) -> Steps:
    yield from _value(interpreter, node.value)
    return None


def _assign(interpreter: Interpreter, node: ast.Assign, yielding: frozenset[int]) -> Steps:
    value = yield from _value(interpreter, node.value)
    for target in node.targets:
        interpreter.store(target, value)
    return None


def _value(interpreter: Interpreter, node: ast.expr) -> Steps:
    """A `yield x` or `yield from xs` in a statement: what it evaluates to."""
    if isinstance(node, ast.Yield):
        value = None if node.value is None else interpreter.eval(node.value)
        return (yield value)
    assert isinstance(node, ast.YieldFrom)
    iterable = interpreter.eval(node.value)
    interpreter.node = node
    if isinstance(iterable, ProgramGenerator):
        while True:
            try:
                item = next(iterable)
            except StopIteration as stop:
                return stop.value
            yield item
    for item in interpreter.bounded(iterable):
        yield item
    return None


def _for(interpreter: Interpreter, node: ast.For, yielding: frozenset[int]) -> Steps:
    iterable = interpreter.eval(node.iter)
    interpreter.node = node.iter
    for item in interpreter.bounded(iterable):
        interpreter.store(node.target, item)
        signal = yield from run_body(interpreter, node.body, yielding)
        if signal is BREAK:
            return None
        if signal is not None and signal is not CONTINUE:
            return signal
        interpreter.node = node.iter
    return (yield from run_body(interpreter, node.orelse, yielding))


def _while(interpreter: Interpreter, node: ast.While, yielding: frozenset[int]) -> Steps:
    limit = interpreter.limits.max_loop_iterations
    count = 0
    while interpreter.eval(node.test):
        count += 1
        if count > limit:
            interpreter.node = node
            raise LimitExceeded("max_loop_iterations", f"the loop ran more than {limit} "
                                "iterations")
        signal = yield from run_body(interpreter, node.body, yielding)
        if signal is BREAK:
            return None
        if signal is not None and signal is not CONTINUE:
            return signal
    return (yield from run_body(interpreter, node.orelse, yielding))


def _if(interpreter: Interpreter, node: ast.If, yielding: frozenset[int]) -> Steps:
    test = interpreter.eval(node.test)
    interpreter.node = node.test
    return (yield from run_body(interpreter, node.body if test else node.orelse, yielding))


def _with(interpreter: Interpreter, node: ast.With, yielding: frozenset[int]) -> Steps:
    managers = []
    try:
        for item in node.items:
            manager = interpreter.eval(item.context_expr)
            interpreter.node = item.context_expr
            entered = interpreter.enter_context(manager)
            managers.append(manager)
            if item.optional_vars is not None:
                interpreter.store(item.optional_vars, entered)
        signal = yield from run_body(interpreter, node.body, yielding)
    except ScriptError as error:
        while managers:
            if interpreter.exit_context(managers.pop(), error):
                return None
        raise
    while managers:
        interpreter.exit_context(managers.pop(), None)
    return signal


def _try(interpreter: Interpreter, node: ast.Try, yielding: frozenset[int]) -> Steps:
    """`try` as exceptions.execute_try runs it, with yields in any of its blocks; closing the
    generator inside `try` runs `finally`, as in Python."""
    signal: Any = None
    try:
        try:
            signal = yield from _located_errors(interpreter, node.body, yielding)
        except ScriptError as error:
            exception = exceptions.program_exception(error)
            if exception is None:
                raise
            handler = exceptions.matching_handler(interpreter, node.handlers, exception)
            if handler is None:
                raise
            with exceptions.handling(interpreter, handler, exception, error):
                signal = yield from run_body(interpreter, handler.body, yielding)
        else:
            signal = yield from run_body(interpreter, node.orelse, yielding)
    except ScriptError as error:
        if node.finalbody and exceptions.program_exception(error) is not None:
            final = yield from run_body(interpreter, node.finalbody, yielding)
            if final is not None:
                return final
        raise
    except GeneratorExit:
        if node.finalbody:
            yield from run_body(interpreter, node.finalbody, yielding)
        raise
    if node.finalbody:
        final = yield from run_body(interpreter, node.finalbody, yielding)
        if final is not None:
            return final
    return signal


def _located_errors(interpreter: Interpreter, body: list[ast.stmt], yielding: frozenset[int]
                    ) -> Steps:
    """run_body, with an error of a yielding statement located as execute_block locates one."""
    try:
        return (yield from run_body(interpreter, body, yielding))
    except (ScriptError, RecursionError):
        raise
    except Exception as exc:
        raise interpreter.located(exc) from None


_HANDLERS: dict[type[ast.AST], Any] = {
    ast.Expr: _expression, ast.Assign: _assign, ast.For: _for, ast.While: _while, ast.If: _if,
    ast.With: _with, ast.Try: _try,
}
YIELDING_STATEMENTS = frozenset(_HANDLERS)
