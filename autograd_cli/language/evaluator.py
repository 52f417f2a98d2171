"""The tree walker: one handler per AST node type, in two dicts (statements, expressions).

Statement handlers return a control-flow signal (break, continue, a return value) or None;
expression handlers return their value; there is no other way for a program to act. Limits are
checked where they can be exceeded: statements, calls and loop iterations count steps (the wall
clock and the memory are looked at every few steps), operators check integer, string and list
sizes from their operands before Python builds the result in C (operators.py), and
`==`, `<`, `in` and hashing of nested lists and tuples first count the items that one C call
would walk (`objects.nested_size`, max_nested_items).

Where an error happens: every handler that calls host code first sets `self.node`, and each
statement starts by setting it to itself; a Python exception from the engine or from an
operator becomes a `ScriptError` at that node (the innermost program position, also inside a
function body or a hook).

Each statement runs as a closure that compiled.py makes on its first run: assignments to a
name, expression statements, `x op= y` and `if` as closures of their own, the others as their
handler here. Names, constants, operators, attributes and calls are compiled.py's alone,
wherever they are evaluated.

The handlers live by what they are: this file holds the running, the calls of what a program
called, name lookup, assignment and loops (the hot path); attributes.py, expressions.py and
statements.py the rest of the node types, as parts of `Interpreter`; definitions.py (def,
class, decorators, global/nonlocal, super), classes.py (the program's classes), exceptions.py
(try/raise) and generators.py (yield) the constructs of the language around them.
"""

from __future__ import annotations

import ast
import itertools
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from types import FunctionType, MethodType
from typing import Any

try:
    import resource
except ImportError:  # not on Windows: the memory check is then left out
    resource = None  # type: ignore[assignment]

from autograd_cli import library
from autograd_cli.language import classes, definitions, exceptions, string_eval
from autograd_cli.language.attributes import AttributeAccess
from autograd_cli.language.builtins import (
    check_int_call,
    make_builtins,
)
from autograd_cli.language.compiled import expression as compiled_expression
from autograd_cli.language.compiled import statement as compiled_statement
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.expressions import ExpressionHandlers
from autograd_cli.language.formatting import TextFormatter
from autograd_cli.language.generators import ProgramGenerator
from autograd_cli.language.limits import LimitExceeded, Limits, limit_error
from autograd_cli.language.memory import charge_result, check_container, check_copy, check_range
from autograd_cli.language.objects import (
    BoundMethod,
    Namespace,
    UserFunction,
    bind_arguments,
    display_repr,
    display_str,
)
from autograd_cli.language.operators import CheckedOperators
from autograd_cli.language.output import OutputSink, WarningRecord
from autograd_cli.language.positions import exception_name, node_position, python_position
from autograd_cli.language.scopes import (
    BREAK,
    CONTINUE,
    MATERIALIZED,
    SUPER,
    Return,
    Scope,
    Signal,
    assigned_names,
    module_imports,
)
from autograd_cli.language.statements import StatementHandlers
from autograd_cli.language.torch_modules import (
    configure_budget,
    configure_engine,
    engine_module,
    torch_namespaces,
)
from engine import memory

# How many steps run between looks at the clock and the memory.
CHECK_INTERVAL = 32
MEMORY_CHECK_EVERY = 8  # budget checks per reading of the process's memory (a system call)


# the plain methods of str, list, dict, ... a program calls
_HOST_METHOD = type("".upper)


WARNING_LINE_BYTES = 300  # a warning's file, line and echoed source line


class Interpreter(AttributeAccess, StatementHandlers, ExpressionHandlers):
    """Runs one checked program; `run(tree)` returns the error that stopped it, or None."""

    def __init__(self, limits: Limits, output: OutputSink, observer: Any = None) -> None:
        self.limits = limits
        self.output = output
        self.on_bind: Callable[[str, Any, int], None] | None = getattr(observer, "on_bind", None)
        self.on_statement: Callable[[ast.stmt], None] | None = getattr(
            observer, "on_statement", None)
        self.globals: dict[str, Any] = {}
        self.scope = Scope(self.globals, None, ())
        self.node: ast.AST | None = None
        self.imported_names: frozenset[str] = frozenset()
        self.steps = 0
        self.next_check = 0
        self.deferred: ScriptError | None = None  # a limit hit where it could not be raised
        self.deadline = time.monotonic() + limits.max_seconds
        self.depth = 0
        self.budget_checks = 0
        self.warnings: list[WarningRecord] = []
        self.seen_warnings: set[tuple[str, str, int | None]] = set()
        self.formatter = TextFormatter(limits, self.get_attribute)
        self.operators = CheckedOperators(limits, self.formatter, self.bounded_list)
        self.builtins = make_builtins(self)
        self.builtins.update(exceptions.EXCEPTION_CLASSES)
        self.builtins.update({"type": self._type, "getattr": self._getattr,
                              "hasattr": self._hasattr, "setattr": self._setattr})
        self.builtins.update({"super": SUPER, "eval": string_eval.EVAL, "object": object,
                              "staticmethod": classes.StaticMember,
                              "classmethod": classes.ClassMember,
                              "property": classes.PropertyMember})
        self.recording: Any = engine_module("recording")
        self.allowed_attributes: dict[type, frozenset[str]] = {}
        self.plain_attributes: dict[type, frozenset[str]] = {}  # allowed, no size check needed
        self.function_locals: dict[int, frozenset[str]] = {}
        self.engine_configured = False
        self.modules: dict[str, Namespace] = {}
        self.handling: list[ScriptError] = []  # the exceptions being handled (bare `raise`)
        self.compiled: dict[ast.AST, Callable[[], Any]] = {}  # compiled.py's, made on first run
        self.keep_compiled = True  # False while an eval() text runs
        # the handlers; `x`, `if` and `with` statements are compiled.py's closures only
        self.statements: dict[type[ast.AST], Callable[[Any], Any]] = {
            ast.Assign: self._assign,
            ast.AugAssign: self._augmented_assign, ast.AnnAssign: self._annotated_assign,
            ast.For: self._for, ast.While: self._while,
            ast.FunctionDef: self._function_def, ast.Return: self._return,
            ast.Pass: self._pass, ast.Break: self._break, ast.Continue: self._continue,
            ast.Assert: self._assert, ast.Delete: self._delete, ast.Import: self._import,
            ast.ImportFrom: self._import_from,
            ast.ClassDef: lambda node: definitions.class_def(self, node),
            ast.Try: lambda node: exceptions.execute_try(self, node),
            ast.Raise: lambda node: exceptions.execute_raise(self, node),
            ast.Global: lambda node: definitions.declare(self, node),
            ast.Nonlocal: lambda node: definitions.declare(self, node),
        }
        self.expressions: dict[type[ast.AST], Callable[[Any], Any]] = {
            ast.Constant: self._compiled_expression, ast.Name: self._compiled_expression,
            ast.Attribute: self._compiled_expression, ast.BinOp: self._compiled_expression,
            ast.Call: self._compiled_expression,
            ast.Subscript: self._subscript, ast.Slice: self._slice,
            ast.UnaryOp: self._unary_op, ast.BoolOp: self._bool_op, ast.Compare: self._compare,
            ast.IfExp: self._if_expression, ast.List: self._list,
            ast.Tuple: self._tuple, ast.Set: self._set, ast.Dict: self._dict,
            ast.ListComp: self._list_comprehension, ast.SetComp: self._set_comprehension,
            ast.DictComp: self._dict_comprehension, ast.GeneratorExp: self._generator,
            ast.JoinedStr: self._joined_str, ast.FormattedValue: self._formatted_value,
            ast.Lambda: self._lambda, ast.Starred: self._starred,
            ast.NamedExpr: self._named_expression,
        }

    # --- running ---------------------------------------------------------------------------------

    def run(self, tree: ast.Module) -> ScriptError | None:
        self.deadline = time.monotonic() + self.limits.max_seconds
        memory.start_run(self.limits.max_total_tensor_bytes)
        self.imported_names = module_imports(tree)
        try:
            self.execute_block(tree.body)
        except ScriptError as error:
            # SystemExit(0) or SystemExit() left uncaught (argparse's --help, `raise SystemExit`)
            # ends the program normally, as in Python; any other code is the program's error
            exit_request = error.exception
            if isinstance(exit_request, exceptions.ProgramExit) and exit_request.code in (0,
                                                                                       None):
                return None
            return error
        except RecursionError:
            return ScriptError("RecursionError", "maximum recursion depth exceeded: the "
                               "program's calls and expressions nest too deeply",
                               *node_position(self.node))
        except Exception as exc:  # raised outside any statement, e.g. by a host-called hook
            return self._located(exc)
        return self.deferred  # a limit a finalizer hit after the last statement

    def execute_block(self, body: list[ast.stmt]) -> Any:
        """Run statements; a break/continue/return signal ends the block and is returned."""
        compiled = self.compiled
        for statement in body:
            self.node = statement
            if self.on_statement is not None:
                self.on_statement(statement)
            try:
                self.steps += 1
                if self.steps >= self.next_check:
                    self._check_budget()
                run = compiled.get(statement)
                if run is None:
                    run = compiled[statement] = compiled_statement(self, statement)
                signal = run()
            except (ScriptError, RecursionError):
                raise
            except Exception as exc:
                raise self._located(exc) from None
            if signal is not None:
                return signal
        return None

    def eval(self, node: ast.AST) -> Any:
        return self.expressions[node.__class__](node)

    def defer(self, error: ScriptError) -> None:
        """A limit hit where nothing can raise it (a dropped generator's `finally`, run by
        its finalizer): the next statement's budget check ends the run with it."""
        if self.deferred is None:
            self.deferred = error
        self.next_check = 0

    def _check_budget(self) -> None:
        if self.deferred is not None:
            error, self.deferred = self.deferred, None
            raise error
        limits = self.limits
        if self.steps > limits.max_steps:
            raise LimitExceeded("max_steps", f"the program ran more than {limits.max_steps} "
                                "steps (statements, calls and loop iterations)")
        if time.monotonic() > self.deadline:
            raise LimitExceeded("max_seconds", f"the program ran for more than "
                                f"{limits.max_seconds:g} seconds")
        self.budget_checks += 1
        if self.budget_checks % MEMORY_CHECK_EVERY == 1:
            if _resident_bytes() > limits.max_resident_bytes:
                raise LimitExceeded("max_resident_bytes", f"the process used more than "
                                    f"{limits.max_resident_bytes} bytes of memory")
            memory.check_in_use()  # small values made one by one (the others are charged)
        self.next_check = min(self.steps + CHECK_INTERVAL, limits.max_steps + 1)

    def count_step(self) -> None:
        self.steps += 1
        if self.steps >= self.next_check:
            self._check_budget()

    def _located(self, exc: BaseException) -> ScriptError:
        """A Python exception raised while evaluating `self.node`, as the program's error."""
        position = python_position(self.node, self.imported_names)
        if isinstance(exc, LimitExceeded):
            return limit_error(exc.field, exc.what, *position)
        try:
            message = self._message(exc)
        except LimitExceeded as limit:  # the program's __str__ of its exception hit a limit
            return limit_error(limit.field, limit.what, *position)
        except ScriptError as inner:
            if inner.type_name == "LimitError":
                return inner
            message = "<exception str() failed>"
        except RecursionError:
            message = "<exception str() failed>"
        if isinstance(exc, MemoryError) and not message:
            message = "out of memory"
        error = ScriptError(exception_name(exc), message, *position)
        error.exception = exc
        return error

    located = _located

    def _message(self, exc: BaseException) -> str:
        """The exception's message; a KeyError shows its key as the program's repr does (not
        a host repr such as `<function linear at 0x...>`)."""
        if type(exc) is KeyError and len(exc.args) == 1:
            try:
                return display_repr(exc.args[0], self.limits.max_str_len)
            except (LimitExceeded, RecursionError):
                return f"<a key of type {type(exc.args[0]).__name__}>"
        return display_str(exc, self.limits.max_str_len)

    def record_warning(self, message: Warning | str, category: type[Warning], filename: str,
                       lineno: int, file: Any = None, line: str | None = None) -> None:
        """`warnings.showwarning` during a run: keep it once per (line, message)."""
        program_line = node_position(self.node)[0]
        key = (category.__name__, str(message), program_line)
        if key not in self.seen_warnings:
            # shown on stderr after the run (with its source line): under the output cap now
            self.output.reserve(len(key[0]) + len(key[1]) + WARNING_LINE_BYTES)
            self.seen_warnings.add(key)
            self.warnings.append(WarningRecord(category.__name__, str(message), program_line))

    # --- the runtime the builtins use ------------------------------------------------------------

    def write(self, text: str) -> None:
        self.output.write(text)

    def write_error(self, text: str) -> None:
        """What the program's libraries write to standard error, under the output cap."""
        self.output.write_error(text)

    def check_output(self, length: int) -> None:
        """Refuse a text of `length` characters that could not be written (before building
        it): over the output cap, or longer than a string may be."""
        self.output.check_room(length)
        self.formatter.check_length(length)

    def add(self, left: Any, right: Any) -> Any:
        return self.operators.binary(ast.Add, left, right)

    def power(self, left: Any, right: Any) -> Any:
        return self.operators.binary(ast.Pow, left, right)

    def multiply(self, left: Any, right: Any) -> Any:
        return self.operators.binary(ast.Mult, left, right)

    def bounded(self, iterable: Iterable[Any]) -> Iterator[Any]:
        """Iterate, counting items against max_loop_iterations (and steps)."""
        if type(iterable) in MATERIALIZED:
            return iter(iterable)
        return self._counted(iter(iterable))

    def _counted(self, iterator: Iterator[Any]) -> Iterator[Any]:
        limit = self.limits.max_loop_iterations
        for count, item in enumerate(iterator, 1):
            if count > limit:
                raise LimitExceeded("max_loop_iterations", f"more than {limit} items taken "
                                    "from one iterable")
            self.count_step()
            yield item

    def bounded_list(self, iterable: Iterable[Any]) -> list[Any]:
        kind = type(iterable)
        if kind is range:
            size = _range_length(iterable)  # type: ignore[arg-type]
            self.operators.check_list_length(size)
            check_range(size)
        elif kind not in MATERIALIZED:
            return list(self.bounded(iterable))
        else:
            check_container(list, len(iterable))  # type: ignore[arg-type]
        return list(iterable)

    def call_from_host(self, function: UserFunction, args: tuple[Any, ...],
                       kwargs: dict[str, Any]) -> Any:
        """A user function called by the engine or a builtin (a hook, a sort key, a
        `__len__`): an error the host raises after it returned is at the caller's node."""
        saved = self.node
        try:
            result = self._call_user(function, args, kwargs)
            self.node = saved
            return result
        except (ScriptError, RecursionError):
            raise
        except Exception as exc:
            raise self._located(exc) from None

    # --- statements ------------------------------------------------------------------------------

    def _assign(self, node: ast.Assign) -> None:
        value = self.expressions[node.value.__class__](node.value)
        for target in node.targets:
            if (target.__class__ is ast.Name and self.on_bind is None
                    and self.scope.declared is None):
                self.scope.names[target.id] = value  # the common case, without a call
            else:
                self._store(target, value)

    def _annotated_assign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._store(node.target, self.eval(node.value))

    def _store(self, target: ast.expr, value: Any) -> None:
        kind = type(target)
        if kind is ast.Name:
            self._bind(target.id, value, target)  # type: ignore[attr-defined]
        elif kind is ast.Tuple or kind is ast.List:
            self._unpack(target, value)  # type: ignore[arg-type]
        elif kind is ast.Subscript:
            container, key = self.container_and_key(target)  # type: ignore[arg-type]
            if type(container) is list and type(key) is slice:
                value = self.bounded_list(value)
                self.operators.check_list_length(len(container) + len(value))
            container[key] = value
        elif kind is ast.Attribute:
            owner = self.eval(target.value)  # type: ignore[attr-defined]
            self.node = target
            self.set_attribute(owner, target.attr, value)  # type: ignore[attr-defined]
            if self.on_bind is not None and type(target.value) is ast.Name:  # type: ignore[attr-defined]
                # `self.a = ...`: the tools see the binding as "self.a" (--watch, names)
                self.on_bind(f"{target.value.id}.{target.attr}", value,  # type: ignore[attr-defined]
                             target.lineno)
        else:
            self.node = target
            raise SyntaxError("starred assignment target must be in a list or tuple")

    def store(self, target: ast.expr, value: Any) -> None:
        self._store(target, value)

    def bind_name(self, name: str, value: Any, node: ast.AST) -> None:
        self._bind(name, value, node)

    def _bind(self, name: str, value: Any, node: ast.AST) -> None:
        declared = self.scope.declared
        if declared is not None and name in declared:
            declared[name][name] = value
        else:
            self.scope.names[name] = value
        if self.on_bind is not None:
            self.on_bind(name, value, node.lineno)  # type: ignore[attr-defined]

    def _unpack(self, target: ast.Tuple | ast.List, value: Any) -> None:
        targets = target.elts
        self.node = target
        starred = [index for index, item in enumerate(targets) if type(item) is ast.Starred]
        if starred:
            items = self.bounded_list(value)
            before, after = starred[0], len(targets) - starred[0] - 1
            if len(items) < before + after:
                raise ValueError(f"not enough values to unpack (expected at least "
                                 f"{before + after}, got {len(items)})")
            rest = items[before:len(items) - after]
            items = items[:before] + [rest] + items[len(items) - after:]
            targets = [*targets[:before], targets[before].value, *targets[before + 1:]]  # type: ignore[attr-defined]
        elif type(value) is not tuple or len(value) != len(targets):
            items = list(itertools.islice(iter(value), len(targets) + 1))
            if len(items) < len(targets):
                raise ValueError(f"not enough values to unpack (expected {len(targets)}, got "
                                 f"{len(items)})")
            if len(items) > len(targets):
                raise ValueError(f"too many values to unpack (expected {len(targets)})")
        else:
            items = list(value)
        for item_target, item in zip(targets, items, strict=True):
            self._store(item_target, item)

    def _augmented_assign(self, node: ast.AugAssign) -> None:
        target, operation = node.target, type(node.op)  # `name op= value`: compiled.py's
        if type(target) is ast.Subscript:
            container, key = self.container_and_key(target)
            current = container[key]
            right = self.eval(node.value)
            self.node = node
            result = self.operators.inplace(operation, current, right)
            self.node = target
            container[key] = result
        else:
            assert type(target) is ast.Attribute
            owner = self.eval(target.value)
            self.node = target
            current = self.get_attribute(owner, target.attr)
            right = self.eval(node.value)
            self.node = node
            result = self.operators.inplace(operation, current, right)
            if result is not current:  # in place already; Python's setattr would be a no-op
                self.node = target
                self.set_attribute(owner, target.attr, result)

    def _for(self, node: ast.For) -> Any:
        iterable = self.eval(node.iter)
        self.node = node.iter
        limit = self.limits.max_loop_iterations
        target, body = node.target, node.body
        simple_target = target.id if type(target) is ast.Name else None
        count = 0
        for item in iter(iterable):
            count += 1
            if count > limit:
                self.node = node
                raise LimitExceeded("max_loop_iterations", f"the loop ran more than {limit} "
                                    "iterations")
            if simple_target is not None and self.on_bind is None and self.scope.declared is None:
                self.scope.names[simple_target] = item
            else:
                self._store(target, item)
            signal = self.execute_block(body)
            if signal is not None:
                if signal is BREAK:
                    break
                if signal is not CONTINUE:
                    return signal
            self.node = node.iter
        else:
            if node.orelse:
                return self.execute_block(node.orelse)
        return None

    def _while(self, node: ast.While) -> Any:
        limit = self.limits.max_loop_iterations
        count = 0
        while True:
            test = self.eval(node.test)
            self.node = node.test
            if not test:
                break
            count += 1
            if count > limit:
                self.node = node
                raise LimitExceeded("max_loop_iterations", f"the loop ran more than {limit} "
                                    "iterations")
            signal = self.execute_block(node.body)
            if signal is not None:
                if signal is BREAK:
                    return None
                if signal is not CONTINUE:
                    return signal
        if node.orelse:
            return self.execute_block(node.orelse)
        return None

    def _function_def(self, node: ast.FunctionDef) -> None:
        definitions.function_def(self, node)

    def _lambda(self, node: ast.Lambda) -> UserFunction:
        return definitions.make_function(self, node, "<lambda>")

    def inner_enclosing(self) -> tuple[dict[str, Any], ...]:
        """The enclosing variables of a function or comprehension defined here (a class body
        is not one of them, as in Python)."""
        scope = self.scope
        if scope.names is self.globals:
            return ()
        if scope.class_name is not None:
            return scope.enclosing
        return (scope.names, *scope.enclosing)


    def local_names(self, node: ast.FunctionDef | ast.Lambda) -> frozenset[str]:
        names = self.function_locals.get(id(node))
        if names is None:
            names = assigned_names(node)
            self.function_locals[id(node)] = names
        return names

    def _return(self, node: ast.Return) -> Return:
        return Return(None if node.value is None else self.eval(node.value))

    def _pass(self, node: ast.Pass) -> None:
        return None

    def _break(self, node: ast.Break) -> Signal:
        return BREAK

    def _continue(self, node: ast.Continue) -> Signal:
        return CONTINUE

    def _module(self, name: str) -> Namespace:
        """The namespace `import name` binds: torch's (the first import sets the engine up for
        this run) or a library module's, built on its first import in this run."""
        module = self.modules.get(name)
        if module is None:
            if library.missing_module(name):  # not installed where PyTorch ran either
                raise ModuleNotFoundError(f"No module named '{name.partition('.')[0]}'")
            if name.partition(".")[0] == "torch":
                if not self.engine_configured:
                    self.engine_configured = True
                    configure_engine(self.limits)
                module = torch_namespaces()[name]
            elif "." in name:  # a library's submodule is a member of its package
                package, _, member = name.rpartition(".")
                module = self._module(package).members[member]
            else:
                if name in library.ALLOCATING_MODULES:
                    configure_budget(self.limits)
                module = library.load(name, self)
            self.modules[name] = module
        return module

    def _import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname is not None:
                self._bind(alias.asname, self._module(alias.name), node)
            else:  # `import os.path` binds `os`, which has `path`
                top = alias.name.partition(".")[0]
                self._module(alias.name)
                self._bind(top, self._module(top), node)

    def _import_from(self, node: ast.ImportFrom) -> None:
        if node.module == "__future__":  # the checker let only known features through
            return
        module = self._module(node.module or "")
        for alias in node.names:
            if alias.name not in module.members:
                raise ImportError(f"cannot import name '{alias.name}' from '{module.name}' "
                                  f"({module.name}.{alias.name} is not supported by agraph)")
            self._bind(alias.asname or alias.name, module.members[alias.name], node)

    # --- expressions -----------------------------------------------------------------------------

    def _load(self, name: str, node: ast.AST) -> Any:
        scope = self.scope
        if name in scope.names:
            return scope.names[name]
        self.node = node
        if scope.declared is not None and name in scope.declared:
            if name in scope.declared[name]:
                return scope.declared[name][name]
            raise NameError(f"name '{name}' is not defined")
        if scope.local_names is not None and name in scope.local_names:
            raise UnboundLocalError(f"cannot access local variable '{name}' where it is not "
                                    "associated with a value")
        for names in scope.enclosing:
            if name in names:
                return names[name]
        if name in self.globals:
            return self.globals[name]
        if name in self.builtins:
            return self.builtins[name]
        if name == "__name__":
            return "__main__"
        raise NameError(f"name '{name}' is not defined")

    load = _load

    def _compiled_expression(self, node: ast.expr) -> Any:
        """A name, constant, operator, attribute or call: compiled.py's closure for the node,
        made on its first evaluation (and kept, but for the text of an eval())."""
        run = self.compiled.get(node)
        if run is None:
            run = compiled_expression(self, node)
            if self.keep_compiled:
                self.compiled[node] = run
        return run()

    def _evaluate_text(self, tree: ast.expr) -> Any:
        """eval(text): parsed anew at every call, so its closures are not kept (in a loop they
        would pile up)."""
        keep, self.keep_compiled = self.keep_compiled, False
        try:
            return self.eval(tree)
        finally:
            self.keep_compiled = keep

    def call_value(self, function: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """Call what the program called: its functions run here, the rest are host calls."""
        kind = type(function)
        if kind is MethodType or kind is FunctionType:  # a host function (torch's, a tensor's)
            result = function(*args, **kwargs)
            charge_result(result)
            return result
        if kind is UserFunction:
            return self._call_user(function, args, kwargs)
        if kind is BoundMethod and type(function.function) is UserFunction:
            return self._call_user(function.function, [function.owner, *args], kwargs)
        if kind is type and classes.is_program_class(function):
            return classes.instantiate(function, args, kwargs, self.call_member)
        if function is SUPER:
            return definitions.make_super(self, args)
        if function is string_eval.EVAL:
            return self._evaluate_text(string_eval.parse(args, kwargs, self.node, self.limits))
        if kind is classes.UnboundInit:  # Base.__init__(self, ...)
            if not args:
                raise TypeError("descriptor '__init__' needs an argument")
            init, _ = classes.find_member(function.klass, "__init__")
            if init is not classes.MISSING:
                return self.call_value(init, args, kwargs)
            classes.base_init(function.klass, args[0], list(args[1:]), kwargs)
            return None
        if function is int and (len(args) > 1 or kwargs):  # int(text, base)
            return check_int_call(args, kwargs, self.limits.max_int_bits)
        if function.__class__ is _HOST_METHOD:  # str.upper, list.copy, ...: about its size
            check_copy(function.__self__)  # type: ignore[attr-defined]
        result = function(*args, **kwargs)
        charge_result(result)
        return result

    def call_member(self, function: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        return self.call_value(function, args, kwargs)

    def _arguments(self, nodes: list[ast.expr]) -> list[Any]:
        values = []
        for argument in nodes:
            if type(argument) is ast.Starred:
                iterable = self.eval(argument.value)
                self.node = argument
                values.extend(self.bounded_list(iterable))
            else:
                values.append(self.eval(argument))
        return values

    arguments = _arguments

    def _keywords(self, nodes: list[ast.keyword]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for keyword in nodes:
            if keyword.arg is not None:
                if keyword.arg in values:
                    raise SyntaxError(f"keyword argument repeated: {keyword.arg}")
                values[keyword.arg] = self.eval(keyword.value)
                continue
            mapping = self.eval(keyword.value)
            self.node = keyword.value
            if type(mapping) is not dict:
                raise TypeError(f"argument after ** must be a dict, not "
                                f"{type(mapping).__name__}")
            for key, value in mapping.items():
                if type(key) is not str or key.startswith("_"):
                    raise TypeError(f"keywords must be strings not starting with '_', not "
                                    f"{key!r}")
                if key in values:
                    raise TypeError(f"got multiple values for keyword argument '{key}'")
                values[key] = value
        return values

    keywords = _keywords

    def _call_user(self, function: UserFunction, args: tuple[Any, ...] | list[Any],
                   kwargs: dict[str, Any]) -> Any:
        if self.depth >= self.limits.max_call_depth:
            raise LimitExceeded("max_call_depth", f"more than {self.limits.max_call_depth} "
                                "nested calls (infinite recursion?)")
        names = bind_arguments(function, args, kwargs)
        node = function.node
        if self.on_bind is not None:
            for name, value in names.items():
                self.on_bind(name, value, node.lineno)
        outer = self.scope
        if function.is_generator:
            assert isinstance(node, ast.FunctionDef)
            return ProgramGenerator(self, function.name.rpartition(".")[2], node.body,
                                    Scope(names, function.local_names, function.enclosing,
                                          function))
        self.scope = Scope(names, function.local_names, function.enclosing, function)
        self.depth += 1
        try:
            self.count_step()
            if isinstance(node, ast.Lambda):
                return self.eval(node.body)
            signal = self.execute_block(node.body)
            return signal.value if type(signal) is Return else None
        finally:
            self.depth -= 1
            self.scope = outer

def _range_length(values: range) -> int:
    try:
        return len(values)
    except OverflowError:
        return sys.maxsize


def _resident_bytes() -> int:
    """Peak resident memory of the process (0 where the platform cannot tell)."""
    if resource is None:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024
