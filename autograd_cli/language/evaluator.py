"""The tree walker: one handler per AST node type, in two dicts (statements, expressions).

Statement handlers return a control-flow signal (break, continue, a return value) or None;
expression handlers return their value; there is no other way for a program to act. Limits are
checked where they can be exceeded: statements, calls and loop iterations count steps (the wall
clock and the memory are looked at every few steps), operators check integer, string and list
sizes from their operands before Python builds the result in C (script_operators.py), and
`==`, `<`, `in` and hashing of nested lists and tuples first count the items that one C call
would walk (`script_objects.nested_size`, max_nested_items).

Where an error happens: every handler that calls host code first sets `self.node`, and each
statement starts by setting it to itself; a Python exception from the engine or from an
operator becomes a `ScriptError` at that node (the innermost program position, also inside a
function body or a hook).
"""

from __future__ import annotations

import ast
import importlib
import itertools
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any, TextIO

try:
    import resource
except ImportError:  # not on Windows: the memory check is then left out
    resource = None  # type: ignore[assignment]

from autograd_cli import library
from autograd_cli.language.builtins import (
    PLAIN_METHODS,
    check_int_call,
    checked_method,
    checked_method_names,
    make_builtins,
)
from autograd_cli.language.checker import SAVED_TENSOR_ATTRIBUTES
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.formatting import TextFormatter, convert
from autograd_cli.language.limits import LimitExceeded, Limits, limit_error
from autograd_cli.language.memory import charge_result, check_container, check_copy, check_range
from autograd_cli.language.objects import (
    NESTED_TYPES,
    Namespace,
    Signature,
    UserFunction,
    bind_arguments,
    check_compare,
    check_contains,
    check_hash,
    check_hashes,
    display_repr,
    display_str,
    is_engine_object,
)
from autograd_cli.language.operators import COMPARISONS, UNARY_OPERATORS, CheckedOperators
from engine import memory
from engine.refused import Refused

# How many steps run between looks at the clock and the memory.
CHECK_INTERVAL = 32
MEMORY_CHECK_EVERY = 8  # budget checks per reading of the process's memory (a system call)


@dataclass(frozen=True)
class WarningRecord:
    """A warning the engine raised while the program ran, at the program's line."""

    category: str
    message: str
    line: int | None

    def format(self, filename: str, source_text: str | None = None) -> str:
        """Python's rendering: `FILE:LINE: Category: message` and the source line."""
        text = f"{filename}:{self.line}: {self.category}: {self.message}\n"
        if source_text is not None and self.line is not None:
            lines = source_text.split("\n", self.line)
            if self.line <= len(lines):
                text += f"  {lines[self.line - 1].strip()[:200]}\n"
        return text


class OutputSink:
    """Where `print` writes: kept for `--json`, echoed live if asked, capped in bytes."""

    def __init__(self, max_bytes: int, echo: TextIO | None = None) -> None:
        self.max_bytes = max_bytes
        self.echo = echo
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> None:
        if text.isascii():
            size = len(text)
        else:
            try:
                size = len(text.encode("utf-8"))
            except UnicodeEncodeError:  # lone surrogates cannot be written to a UTF-8 stream
                text = text.encode("utf-8", "backslashreplace").decode("utf-8")
                size = len(text.encode("utf-8"))
        self.check_room(size)
        self.size += size
        self.parts.append(text)
        if self.echo is not None:
            try:
                self.echo.write(text)
            except BrokenPipeError:  # `agraph run x | head -1`: the reader has what it wanted
                self.echo = None

    def check_room(self, size: int) -> None:
        """Refuse to write `size` more bytes past the cap (a text of `size` characters has at
        least as many bytes: checked before it is joined)."""
        if self.size + size > self.max_bytes:
            raise LimitExceeded("max_output_bytes",
                                f"the program printed more than {self.max_bytes} bytes")

    def text(self) -> str:
        return "".join(self.parts)


# --- the torch namespaces ------------------------------------------------------------------------

@lru_cache(maxsize=1)
def torch_namespaces() -> dict[str, Namespace]:
    """`torch` and its importable submodules, from engine/api.py (built once, read-only)."""
    from engine import api

    functional = Namespace("torch.nn.functional", api.FUNCTIONAL)
    utils = Namespace("torch.nn.utils", getattr(api, "NN_UTILS", {}))
    nn = Namespace("torch.nn", {**api.NN, "functional": functional, "utils": utils})
    optim = Namespace("torch.optim", api.OPTIM)
    autograd_functional = Namespace("torch.autograd.functional", api.AUTOGRAD_FUNCTIONAL)
    autograd_graph = Namespace("torch.autograd.graph", getattr(api, "AUTOGRAD_GRAPH", {}))
    autograd = Namespace("torch.autograd", {**api.AUTOGRAD, "functional": autograd_functional,
                                            "graph": autograd_graph})
    data = Namespace("torch.utils.data", getattr(api, "DATA", {}))
    torch_utils = Namespace("torch.utils", {"data": data})
    torch = Namespace("torch", {**api.TORCH, "nn": nn, "optim": optim, "autograd": autograd,
                                "utils": torch_utils})
    return {"torch": torch, "torch.nn": nn, "torch.nn.functional": functional,
            "torch.nn.utils": utils,
            "torch.optim": optim, "torch.autograd": autograd,
            "torch.autograd.functional": autograd_functional,
            "torch.optim.lr_scheduler": Namespace("torch.optim.lr_scheduler",
                                                  getattr(api, "LR_SCHEDULER", {})),
            "torch.linalg": Namespace("torch.linalg", getattr(api, "LINALG", {})),
            "torch.utils": torch_utils, "torch.utils.data": data,
            "torch.autograd.graph": autograd_graph}


def _engine_module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"engine.{name}")
    except ImportError:
        return None


def _configure_engine(limits: Limits) -> None:
    """Start from PyTorch's defaults (one process may run many programs: tests, a docs build)
    and hand the engine's limits to engine/budget.py."""
    torch = torch_namespaces()["torch"].members
    if "set_grad_enabled" in torch:
        torch["set_grad_enabled"](True)
    if "set_printoptions" in torch:
        torch["set_printoptions"](profile="default")
    _configure_budget(limits)


def _configure_budget(limits: Limits) -> None:
    """Hand the engine's limits to engine/budget.py (the keys it knows): tensors and the
    arrays of library modules (numpy) are counted against them."""
    budget = _engine_module("budget")
    if budget is None:
        return
    values = {"max_elements": limits.max_tensor_elements,
              "max_bytes": limits.max_total_tensor_bytes,
              "max_total_bytes": limits.max_total_tensor_bytes,
              "max_graph_nodes": limits.max_graph_nodes}
    for key, value in values.items():
        if key in budget.limits:
            budget.limits[key] = value


# --- control flow and scopes ---------------------------------------------------------------------

class Return:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class _Signal:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


BREAK = _Signal("break")
CONTINUE = _Signal("continue")


class Scope:
    """The variables of the running code: module globals, a call's locals or a comprehension's.

    `local_names` are the names a function assigns (reading one before assignment is an
    UnboundLocalError); `enclosing` are the variables of the functions around it (closures).
    """

    __slots__ = ("names", "local_names", "enclosing")

    def __init__(self, names: dict[str, Any], local_names: frozenset[str] | None,
                 enclosing: tuple[dict[str, Any], ...]) -> None:
        self.names = names
        self.local_names = local_names
        self.enclosing = enclosing


_MISSING: Any = object()
# Containers that hold their items already: iterating them cannot run away.
_MATERIALIZED = frozenset({list, tuple, str, dict, set, frozenset})
_HOST_METHOD = type("".upper)  # the plain methods of str, list, dict, ... a program calls
# Containers `container[key]` hashes the key of (a tuple's hash walks all of it).
_HASHED_BY_KEY = frozenset({dict, OrderedDict})
# Comparisons that do not look into their operands.
_IDENTITY = frozenset({ast.Is, ast.IsNot})


class Interpreter:
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
        self.deadline = time.monotonic() + limits.max_seconds
        self.depth = 0
        self.budget_checks = 0
        self.warnings: list[WarningRecord] = []
        self.seen_warnings: set[tuple[str, str, int | None]] = set()
        self.formatter = TextFormatter(limits, self.get_attribute)
        self.operators = CheckedOperators(limits, self.formatter, self.bounded_list)
        self.builtins = make_builtins(self)
        self.recording: Any = _engine_module("recording")
        self.allowed_attributes: dict[type, frozenset[str]] = {}
        self.plain_attributes: dict[type, frozenset[str]] = {}  # allowed, no size check needed
        self.function_locals: dict[int, frozenset[str]] = {}
        self.engine_configured = False
        self.modules: dict[str, Namespace] = {}
        self.statements: dict[type[ast.AST], Callable[[Any], Any]] = {
            ast.Expr: self._expression_statement, ast.Assign: self._assign,
            ast.AugAssign: self._augmented_assign, ast.AnnAssign: self._annotated_assign,
            ast.For: self._for, ast.While: self._while, ast.If: self._if, ast.With: self._with,
            ast.FunctionDef: self._function_def, ast.Return: self._return,
            ast.Pass: self._pass, ast.Break: self._break, ast.Continue: self._continue,
            ast.Assert: self._assert, ast.Delete: self._delete, ast.Import: self._import,
            ast.ImportFrom: self._import_from,
        }
        self.expressions: dict[type[ast.AST], Callable[[Any], Any]] = {
            ast.Constant: self._constant, ast.Name: self._name, ast.Attribute: self._attribute,
            ast.Subscript: self._subscript, ast.Slice: self._slice, ast.BinOp: self._binary_op,
            ast.UnaryOp: self._unary_op, ast.BoolOp: self._bool_op, ast.Compare: self._compare,
            ast.IfExp: self._if_expression, ast.Call: self._call, ast.List: self._list,
            ast.Tuple: self._tuple, ast.Set: self._set, ast.Dict: self._dict,
            ast.ListComp: self._list_comprehension, ast.SetComp: self._set_comprehension,
            ast.DictComp: self._dict_comprehension, ast.GeneratorExp: self._generator,
            ast.JoinedStr: self._joined_str, ast.FormattedValue: self._formatted_value,
            ast.Lambda: self._lambda, ast.Starred: self._starred,
        }

    # --- running ---------------------------------------------------------------------------------

    def run(self, tree: ast.Module) -> ScriptError | None:
        self.deadline = time.monotonic() + self.limits.max_seconds
        memory.start_run(self.limits.max_total_tensor_bytes)
        self.imported_names = module_imports(tree)
        try:
            self.execute_block(tree.body)
        except ScriptError as error:
            return error
        except RecursionError:
            return ScriptError("RecursionError", "maximum recursion depth exceeded: the "
                               "program's calls and expressions nest too deeply",
                               *node_position(self.node))
        except Exception as exc:  # raised outside any statement, e.g. by a host-called hook
            return self._located(exc)
        return None

    def execute_block(self, body: list[ast.stmt]) -> Any:
        """Run statements; a break/continue/return signal ends the block and is returned."""
        statements = self.statements
        for statement in body:
            self.node = statement
            if self.on_statement is not None:
                self.on_statement(statement)
            try:
                self.steps += 1
                if self.steps >= self.next_check:
                    self._check_budget()
                signal = statements[statement.__class__](statement)
            except (ScriptError, RecursionError):
                raise
            except Exception as exc:
                raise self._located(exc) from None
            if signal is not None:
                return signal
        return None

    def eval(self, node: ast.AST) -> Any:
        return self.expressions[node.__class__](node)

    def _check_budget(self) -> None:
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
        message = self._message(exc)
        if isinstance(exc, MemoryError) and not message:
            message = "out of memory"
        return ScriptError(_exception_name(exc), message, *position)

    def _message(self, exc: BaseException) -> str:
        """The exception's message; a KeyError shows its key as the program's repr does (not
        a host repr such as `<function linear at 0x...>`)."""
        if type(exc) is KeyError and len(exc.args) == 1:
            try:
                return display_repr(exc.args[0], self.limits.max_str_len)
            except (LimitExceeded, RecursionError):
                return f"<a key of type {type(exc.args[0]).__name__}>"
        return str(exc)

    def record_warning(self, message: Warning | str, category: type[Warning], filename: str,
                       lineno: int, file: Any = None, line: str | None = None) -> None:
        """`warnings.showwarning` during a run: keep it once per (line, message)."""
        program_line = node_position(self.node)[0]
        key = (category.__name__, str(message), program_line)
        if key not in self.seen_warnings:
            self.seen_warnings.add(key)
            self.warnings.append(WarningRecord(category.__name__, str(message), program_line))

    # --- the runtime the builtins use ------------------------------------------------------------

    def write(self, text: str) -> None:
        self.output.write(text)

    def check_output(self, length: int) -> None:
        """Refuse a text of `length` characters that could not be written (before building
        it): over the output cap, or longer than a string may be."""
        self.output.check_room(length)
        self.formatter.check_length(length)

    def add(self, left: Any, right: Any) -> Any:
        return self.operators.binary(ast.Add, left, right)

    def multiply(self, left: Any, right: Any) -> Any:
        return self.operators.binary(ast.Mult, left, right)

    def bounded(self, iterable: Iterable[Any]) -> Iterator[Any]:
        """Iterate, counting items against max_loop_iterations (and steps)."""
        if type(iterable) in _MATERIALIZED:
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
        elif kind not in _MATERIALIZED:
            return list(self.bounded(iterable))
        else:
            check_container(list, len(iterable))  # type: ignore[arg-type]
        return list(iterable)

    def call_from_host(self, function: UserFunction, args: tuple[Any, ...],
                       kwargs: dict[str, Any]) -> Any:
        """A user function called by the engine or a builtin (a hook, a sort key)."""
        try:
            return self._call_user(function, args, kwargs)
        except (ScriptError, RecursionError):
            raise
        except Exception as exc:
            raise self._located(exc) from None

    # --- attributes ------------------------------------------------------------------------------

    def get_attribute(self, value: Any, name: str) -> Any:
        """`value.name`, for the names agraph exposes and nothing else."""
        plain = self.plain_attributes.get(type(value))
        if plain is not None and name in plain:  # seen before: a public, unchecked name
            return getattr(value, name)
        if name.startswith("_"):
            if name in SAVED_TENSOR_ATTRIBUTES and hasattr(type(value), "saved_attribute"):
                return value.saved_attribute(name)  # grad_fn._saved_self: PyTorch's public name
            raise AttributeError(f"attribute '{name}' is not allowed: names starting with '_' "
                                 "are private to agraph")
        kind = type(value)
        if kind is Namespace:
            try:
                return value.members[name]
            except KeyError:
                raise AttributeError(f"module '{value.name}' has no attribute '{name}' "
                                     f"({value.name}.{name} is not supported by agraph)") from None
        method = checked_method(self, value, name)
        if method is not None:
            return method
        if name in self._allowed_attributes(kind):
            return getattr(value, name)
        if kind is Refused:
            raise value.error()
        raise AttributeError(f"'{kind.__name__}' object has no attribute '{name}' (or agraph "
                             "does not support it)")

    def _allowed_attributes(self, kind: type) -> frozenset[str]:
        allowed = self.allowed_attributes.get(kind)
        if allowed is None:
            public = getattr(kind, "PUBLIC_ATTRS", None)
            allowed = public if isinstance(public, frozenset) else PLAIN_METHODS.get(
                kind, frozenset())
            self.allowed_attributes[kind] = allowed
            if kind is not Namespace:
                checked = checked_method_names(kind)
                self.plain_attributes[kind] = frozenset(
                    name for name in allowed if not name.startswith("_") and name not in checked)
        return allowed

    def set_attribute(self, value: Any, name: str, new_value: Any) -> None:
        settable = getattr(type(value), "SETTABLE_ATTRS", None) if is_engine_object(value) else None
        if isinstance(settable, frozenset) and name in settable and not name.startswith("_"):
            setattr(value, name, new_value)
            return
        raise AttributeError(f"cannot set attribute '{name}' of '{type(value).__name__}' object")

    # --- statements ------------------------------------------------------------------------------

    def _expression_statement(self, node: ast.Expr) -> None:
        value = node.value
        self.expressions[value.__class__](value)

    def _assign(self, node: ast.Assign) -> None:
        value = self.expressions[node.value.__class__](node.value)
        for target in node.targets:
            if target.__class__ is ast.Name and self.on_bind is None:
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
            container = self.eval(target.value)  # type: ignore[attr-defined]
            key = self.eval(target.slice)  # type: ignore[attr-defined]
            self.node = target
            if key.__class__ is tuple and container.__class__ in _HASHED_BY_KEY:
                check_hash(key, self.limits.max_nested_items)
            if type(container) is list and type(key) is slice:
                value = self.bounded_list(value)
                self.operators.check_list_length(len(container) + len(value))
            container[key] = value
        elif kind is ast.Attribute:
            owner = self.eval(target.value)  # type: ignore[attr-defined]
            self.node = target
            self.set_attribute(owner, target.attr, value)  # type: ignore[attr-defined]
        else:
            self.node = target
            raise SyntaxError("starred assignment target must be in a list or tuple")

    def _bind(self, name: str, value: Any, node: ast.AST) -> None:
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
        target, operation = node.target, type(node.op)
        if type(target) is ast.Name:
            current = self._load(target.id, target)
            right = self.eval(node.value)
            self.node = node
            self._bind(target.id, self.operators.inplace(operation, current, right), target)
        elif type(target) is ast.Subscript:
            container = self.eval(target.value)
            key = self.eval(target.slice)
            self.node = target
            if key.__class__ is tuple and container.__class__ in _HASHED_BY_KEY:
                check_hash(key, self.limits.max_nested_items)
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
            if simple_target is not None and self.on_bind is None:
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

    def _if(self, node: ast.If) -> Any:
        test = self.expressions[node.test.__class__](node.test)
        self.node = node.test
        if test:
            return self.execute_block(node.body)
        if node.orelse:
            return self.execute_block(node.orelse)
        return None

    def _with(self, node: ast.With, index: int = 0) -> Any:
        item = node.items[index]
        manager = self.eval(item.context_expr)
        self.node = item.context_expr
        if not is_engine_object(manager) or not hasattr(type(manager), "__enter__"):
            raise TypeError(f"'{type(manager).__name__}' object does not support the context "
                            "manager protocol")
        entered = type(manager).__enter__(manager)
        if item.optional_vars is not None:
            self._store(item.optional_vars, entered)
        try:
            if index + 1 < len(node.items):
                signal = self._with(node, index + 1)
            else:
                signal = self.execute_block(node.body)
        except Exception as exc:
            # The error still propagates: no engine context manager swallows errors.
            type(manager).__exit__(manager, type(exc), exc, None)
            raise
        type(manager).__exit__(manager, None, None, None)
        return signal

    def _function_def(self, node: ast.FunctionDef) -> None:
        self._bind(node.name, self._make_function(node, node.name), node)

    def _lambda(self, node: ast.Lambda) -> UserFunction:
        return self._make_function(node, "<lambda>")

    def _make_function(self, node: ast.FunctionDef | ast.Lambda, name: str) -> UserFunction:
        arguments = node.args
        positional = [arg.arg for arg in arguments.posonlyargs + arguments.args]
        defaults = {}
        for arg, default in zip(positional[len(positional) - len(arguments.defaults):],
                                arguments.defaults, strict=True):
            defaults[arg] = self.eval(default)
        for arg_node, keyword_default in zip(arguments.kwonlyargs, arguments.kw_defaults,
                                             strict=True):
            if keyword_default is not None:
                defaults[arg_node.arg] = self.eval(keyword_default)
        signature = Signature(
            tuple(positional), len(arguments.posonlyargs), defaults,
            arguments.vararg.arg if arguments.vararg else None,
            tuple(arg.arg for arg in arguments.kwonlyargs),
            arguments.kwarg.arg if arguments.kwarg else None)
        return UserFunction(name, node, signature, self._inner_enclosing(), self,
                            self._local_names(node))

    def _inner_enclosing(self) -> tuple[dict[str, Any], ...]:
        """The enclosing variables of a function or comprehension defined here."""
        scope = self.scope
        if scope.names is self.globals:
            return ()
        return (scope.names, *scope.enclosing)

    def _local_names(self, node: ast.FunctionDef | ast.Lambda) -> frozenset[str]:
        names = self.function_locals.get(id(node))
        if names is None:
            names = _assigned_names(node)
            self.function_locals[id(node)] = names
        return names

    def _return(self, node: ast.Return) -> Return:
        return Return(None if node.value is None else self.eval(node.value))

    def _pass(self, node: ast.Pass) -> None:
        return None

    def _break(self, node: ast.Break) -> _Signal:
        return BREAK

    def _continue(self, node: ast.Continue) -> _Signal:
        return CONTINUE

    def _assert(self, node: ast.Assert) -> None:
        test = self.eval(node.test)
        self.node = node.test
        if not test:
            message = "" if node.msg is None else display_str(self.eval(node.msg),
                                                              self.limits.max_str_len)
            raise AssertionError(message)

    def _delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._delete_target(target)

    def _delete_target(self, target: ast.expr) -> None:
        self.node = target
        if type(target) is ast.Name:
            if target.id not in self.scope.names:
                raise NameError(f"name '{target.id}' is not defined")
            del self.scope.names[target.id]
        elif type(target) is ast.Subscript:
            container = self.eval(target.value)
            key = self.eval(target.slice)
            self.node = target
            if key.__class__ is tuple and container.__class__ in _HASHED_BY_KEY:
                check_hash(key, self.limits.max_nested_items)
            del container[key]
        elif type(target) in (ast.Tuple, ast.List):
            for item in target.elts:  # type: ignore[attr-defined]
                self._delete_target(item)
        else:
            raise SyntaxError("only names and items can be deleted")

    def _module(self, name: str) -> Namespace:
        """The namespace `import name` binds: torch's (the first import sets the engine up for
        this run) or a library module's, built on its first import in this run."""
        module = self.modules.get(name)
        if module is None:
            if name.partition(".")[0] == "torch":
                if not self.engine_configured:
                    self.engine_configured = True
                    _configure_engine(self.limits)
                module = torch_namespaces()[name]
            elif "." in name:  # a library's submodule is a member of its package
                package, _, member = name.rpartition(".")
                module = self._module(package).members[member]
            else:
                if name in library.ALLOCATING_MODULES:
                    _configure_budget(self.limits)
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
        module = self._module(node.module or "")
        for alias in node.names:
            if alias.name not in module.members:
                raise ImportError(f"cannot import name '{alias.name}' from '{module.name}' "
                                  f"({module.name}.{alias.name} is not supported by agraph)")
            self._bind(alias.asname or alias.name, module.members[alias.name], node)

    # --- expressions -----------------------------------------------------------------------------

    def _constant(self, node: ast.Constant) -> Any:
        return node.value

    def _name(self, node: ast.Name) -> Any:
        value = self.scope.names.get(node.id, _MISSING)
        return self._load(node.id, node) if value is _MISSING else value

    def _load(self, name: str, node: ast.AST) -> Any:
        scope = self.scope
        if name in scope.names:
            return scope.names[name]
        self.node = node
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
        raise NameError(f"name '{name}' is not defined")

    def _attribute(self, node: ast.Attribute) -> Any:
        value = self.expressions[node.value.__class__](node.value)
        self.node = node
        plain = self.plain_attributes.get(type(value))
        if plain is not None and node.attr in plain:  # get_attribute's first step, inline
            return getattr(value, node.attr)
        return self.get_attribute(value, node.attr)

    def _subscript(self, node: ast.Subscript) -> Any:
        value = self.eval(node.value)
        key = self.eval(node.slice)
        self.node = node
        if key.__class__ is tuple and value.__class__ in _HASHED_BY_KEY:
            check_hash(key, self.limits.max_nested_items)
        if key.__class__ is slice:
            check_copy(value)
        result = value[key]
        charge_result(result)
        return result

    def _slice(self, node: ast.Slice) -> slice:
        return slice(None if node.lower is None else self.eval(node.lower),
                     None if node.upper is None else self.eval(node.upper),
                     None if node.step is None else self.eval(node.step))

    def _binary_op(self, node: ast.BinOp) -> Any:
        expressions = self.expressions
        if node.left.__class__ is not ast.BinOp:
            left = expressions[node.left.__class__](node.left)
            right = expressions[node.right.__class__](node.right)
            self.node = node
            return self.operators.binary(node.op.__class__, left, right)
        # A chain a + b + c + ...: walk the left spine in a loop, not by recursion.
        chain = []
        spine: ast.expr = node
        while type(spine) is ast.BinOp:
            chain.append(spine)
            spine = spine.left  # type: ignore[attr-defined]
        value = expressions[spine.__class__](spine)
        for link in reversed(chain):
            right = expressions[link.right.__class__](link.right)
            self.node = link
            value = self.operators.binary(link.op.__class__, value, right)
        return value

    def _unary_op(self, node: ast.UnaryOp) -> Any:
        operand = self.eval(node.operand)
        self.node = node
        return UNARY_OPERATORS[type(node.op)](operand)

    def _bool_op(self, node: ast.BoolOp) -> Any:
        is_and = type(node.op) is ast.And
        value = None
        for operand in node.values:
            value = self.eval(operand)
            self.node = operand
            if (not value) if is_and else value:
                return value
        return value

    def _compare(self, node: ast.Compare) -> Any:
        expressions = self.expressions
        left = expressions[node.left.__class__](node.left)
        result: Any = True
        for operation, comparator in zip(node.ops, node.comparators, strict=True):
            right = expressions[comparator.__class__](comparator)
            self.node = node
            compare = COMPARISONS.get(operation.__class__)
            if compare is not None:
                if (left.__class__ in NESTED_TYPES and right.__class__ in NESTED_TYPES
                        and operation.__class__ not in _IDENTITY):
                    # one C call walks both: shared lists can make that 10**12 items
                    check_compare(left, right, self.limits.max_nested_items)
                result = compare(left, right)
            else:
                result = self._membership(operation.__class__, left, right)
            if len(node.ops) > 1 and not result:
                return result
            left = right
        return result

    def _membership(self, operation: type[ast.cmpop], item: Any, container: Any) -> bool:
        found = self._contains(container, item)
        return found if operation is ast.In else not found

    def _contains(self, container: Any, item: Any) -> bool:
        if item.__class__ in NESTED_TYPES:
            check_contains(container, item, self.limits.max_nested_items)
        kind = type(container)
        if kind in _MATERIALIZED or is_engine_object(container) or (
                kind is range and type(item) in (int, bool)):
            return item in container
        # `x in range(...)` for a float, or `x in zip(...)`, is a C loop: count it.
        return any(element is item or element == item for element in self.bounded(container))

    def _if_expression(self, node: ast.IfExp) -> Any:
        test = self.eval(node.test)
        self.node = node.test
        return self.eval(node.body if test else node.orelse)

    def _call(self, node: ast.Call) -> Any:
        expressions = self.expressions
        function = expressions[node.func.__class__](node.func)
        nodes = node.args
        if not nodes:
            args: list[Any] = []
        elif len(nodes) == 1 and nodes[0].__class__ is not ast.Starred:  # f(x), inline
            args = [expressions[nodes[0].__class__](nodes[0])]
        else:
            args = self._arguments(nodes)
        kwargs = self._keywords(node.keywords) if node.keywords else {}
        self.node = node
        if self.recording.observer is not None:  # where the op is, for what observes it
            self.recording.location = (node.lineno, node.col_offset + 1)
        if type(function) is UserFunction:
            return self._call_user(function, args, kwargs)
        if function is int and (len(args) > 1 or kwargs):  # int(text, base)
            return check_int_call(args, kwargs, self.limits.max_int_bits)
        if function.__class__ is _HOST_METHOD:  # str.upper, list.copy, ...: about its size
            check_copy(function.__self__)  # type: ignore[attr-defined]
        result = function(*args, **kwargs)
        charge_result(result)
        return result

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
        self.scope = Scope(names, function.local_names, function.enclosing)
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

    def _list(self, node: ast.List) -> list[Any]:
        return self._elements(node.elts)

    def _tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return tuple(self._elements(node.elts))

    def _set(self, node: ast.Set) -> set[Any]:
        values = self._elements(node.elts)
        self.node = node
        check_hashes(values, self.limits.max_nested_items)
        return set(values)

    def _elements(self, nodes: list[ast.expr]) -> list[Any]:
        values = self._arguments(nodes)
        if len(values) > len(nodes):  # a *starred item grew it
            self.operators.check_list_length(len(values))
        return values

    def _dict(self, node: ast.Dict) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        for key_node, value_node in zip(node.keys, node.values, strict=True):
            if key_node is None:
                mapping = self.eval(value_node)
                self.node = value_node
                if type(mapping) is not dict:
                    raise TypeError(f"'{type(mapping).__name__}' object is not a mapping")
                check_container(dict, len(result) + len(mapping))
                result.update(mapping)
            else:
                key = self.eval(key_node)
                value = self.eval(value_node)
                self.node = key_node
                if key.__class__ is tuple:
                    check_hash(key, self.limits.max_nested_items)
                result[key] = value
        return result

    def _list_comprehension(self, node: ast.ListComp) -> list[Any]:
        return list(self._comprehension(node, lambda: self.eval(node.elt)))

    def _set_comprehension(self, node: ast.SetComp) -> set[Any]:
        return set(self._comprehension(node, lambda: self._hashable(node.elt)))

    def _dict_comprehension(self, node: ast.DictComp) -> dict[Any, Any]:
        return dict(self._comprehension(
            node, lambda: (self._hashable(node.key), self.eval(node.value))))

    def _hashable(self, node: ast.expr) -> Any:
        """An element of a set or a key of a dict being built: hashed at once, in C."""
        value = self.eval(node)
        if value.__class__ is tuple:
            self.node = node
            check_hash(value, self.limits.max_nested_items)
        return value

    def _generator(self, node: ast.GeneratorExp) -> Iterator[Any]:
        """Lazy, like Python's; only ever an argument of a call (the checker sees to it)."""
        return self._comprehension(node, lambda: self.eval(node.elt))

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp,
                       element: Callable[[], Any]) -> Iterator[Any]:
        # The first iterable is evaluated where the comprehension is, as Python does.
        first = self.eval(node.generators[0].iter)
        self.node = node.generators[0].iter
        scope = Scope({}, None, self._inner_enclosing())
        return self._comprehension_level(node, 0, iter(first), scope, element)

    def _comprehension_level(self, node: ast.ListComp | ast.SetComp | ast.DictComp |
                             ast.GeneratorExp, level: int, iterator: Iterator[Any],
                             scope: Scope, element: Callable[[], Any]) -> Iterator[Any]:
        generator = node.generators[level]
        innermost = level + 1 == len(node.generators)
        limit = self.limits.max_loop_iterations
        for count, item in enumerate(iterator, 1):
            if count > limit:
                raise LimitExceeded("max_loop_iterations", f"the comprehension ran more than "
                                    f"{limit} iterations")
            self.count_step()
            outer, self.scope = self.scope, scope
            try:
                self._store(generator.target, item)
                if not all(self._test(condition) for condition in generator.ifs):
                    continue
                if innermost:
                    value = element()
                else:
                    inner = iter(self.eval(node.generators[level + 1].iter))
            finally:
                self.scope = outer
            if innermost:
                yield value
            else:
                yield from self._comprehension_level(node, level + 1, inner, scope, element)

    def _test(self, node: ast.expr) -> bool:
        value = self.eval(node)
        self.node = node
        return bool(value)

    def _joined_str(self, node: ast.JoinedStr) -> str:
        pieces: list[str] = []
        length = 0
        for part in node.values:
            # f-string literal parts are str constants; the fields are FormattedValue nodes
            piece = str(part.value) if isinstance(part, ast.Constant) else self.eval(part)
            length += len(piece)
            self.formatter.check_length(length)
            pieces.append(piece)
        return "".join(pieces)

    def _formatted_value(self, node: ast.FormattedValue) -> str:
        value = self.eval(node.value)
        spec = "" if node.format_spec is None else self.eval(node.format_spec)
        self.node = node
        if node.conversion != -1:
            value = convert(value, chr(node.conversion), self.limits.max_str_len)
        return self.formatter.format_value(value, spec)

    def _starred(self, node: ast.Starred) -> Any:
        self.node = node
        raise SyntaxError("can't use starred expression here")


def _assigned_names(function: ast.FunctionDef | ast.Lambda) -> frozenset[str]:
    """The names a function body binds (its locals), not looking into nested scopes."""
    names = {arg.arg for arg in ast.walk(function.args) if isinstance(arg, ast.arg)}
    if isinstance(function, ast.Lambda):
        return frozenset(names)
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
            continue
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return frozenset(names)


def module_imports(tree: ast.Module) -> frozenset[str]:
    """Names an import binds in the module's own scope (not inside a function)."""
    names: set[str] = set()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(alias.asname or alias.name.partition(".")[0] for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return frozenset(names)


def python_position(node: ast.AST | None, imported: frozenset[str] = frozenset()
                    ) -> tuple[int | None, int | None, int | None]:
    """Where CPython 3.11's traceback puts an error raised by `node`.

    It is the node's start, except that an attribute read, and a call of a method
    (`x.view(4)`, not a call of a module function such as `torch.mm(...)`, whose object is an
    imported name), belong to the line of the attribute's name: in a chain split over lines
    the failing `.view(4)` is reported on its own line.
    """
    attribute = None
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
        attribute = node
    elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
          and not (isinstance(node.func.value, ast.Name) and node.func.value.id in imported)
          and not any(isinstance(arg, ast.Starred) for arg in node.args)
          and all(keyword.arg is not None for keyword in node.keywords)):
        attribute = node.func
    position = node_position(node)
    if attribute is None or attribute.end_lineno in (None, position[0]):
        return position
    end_col = attribute.end_col_offset
    start = None if end_col is None else end_col - len(attribute.attr) + 1
    return (attribute.end_lineno, start, None if end_col is None else end_col + 1)


def node_position(node: ast.AST | None) -> tuple[int | None, int | None, int | None]:
    """(line, col, end_col), 1-based; the checker made col_offset count characters."""
    line = getattr(node, "lineno", None)
    if line is None:
        return (None, None, None)
    col = node.col_offset + 1  # type: ignore[union-attr]
    end_col = None
    if getattr(node, "end_lineno", None) == line and node.end_col_offset is not None:  # type: ignore[union-attr]
        end_col = node.end_col_offset + 1  # type: ignore[union-attr]
    return (line, col, end_col)


def _exception_name(exc: BaseException) -> str:
    """Python's or the engine's name for an exception; a library's private class gets the
    nearest builtin one (numpy's AxisError is a ValueError to the user)."""
    kind = type(exc)
    if kind.__module__ in ("builtins", "__main__") or kind.__module__.startswith("engine"):
        return kind.__name__
    for base in kind.__mro__:
        if base.__module__ == "builtins":
            return base.__name__
    return "RuntimeError"


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
