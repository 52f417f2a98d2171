"""Control-flow signals and scopes: what a block returns (`Return`, `BREAK`, `CONTINUE`), the
variables of running code (`Scope`), and which names a function body binds."""

from __future__ import annotations

import ast
from typing import Any

from autograd_cli.language.objects import UserFunction


class Return:
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class Signal:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


BREAK = Signal("break")
CONTINUE = Signal("continue")


class _Super:
    """The `super` builtin: the interpreter makes the proxy (it knows the running method)."""

    def __repr__(self) -> str:
        return "<class 'super'>"


SUPER = _Super()


class Scope:
    """The variables of the running code: module globals, a call's locals or a comprehension's.

    `local_names` are the names a function assigns (reading one before assignment is an
    UnboundLocalError); `enclosing` are the variables of the functions around it (closures).
    """

    __slots__ = ("names", "local_names", "enclosing", "function", "class_name", "declared")

    def __init__(self, names: dict[str, Any], local_names: frozenset[str] | None,
                 enclosing: tuple[dict[str, Any], ...], function: UserFunction | None = None
                 ) -> None:
        self.names = names
        self.local_names = local_names
        self.enclosing = enclosing
        self.function = function  # the call this scope belongs to (for super())
        self.class_name: str | None = None  # a class body's qualified name
        self.declared: dict[str, dict[str, Any]] | None = None  # global/nonlocal names


MISSING: Any = object()
# Containers that hold their items already: iterating them cannot run away.
MATERIALIZED = frozenset({list, tuple, str, dict, set, frozenset})
# Containers `container[key]` hashes the key of (a tuple's hash walks all of it).
HASHED_BY_KEY = dict  # and its kinds: OrderedDict, defaultdict, Counter
# Comparisons that do not look into their operands.
IDENTITY = frozenset({ast.Is, ast.IsNot})


def assigned_names(function: ast.FunctionDef | ast.Lambda) -> frozenset[str]:
    """The names a function body binds (its locals), not looking into nested scopes."""
    names = {arg.arg for arg in ast.walk(function.args) if isinstance(arg, ast.arg)}
    if isinstance(function, ast.Lambda):
        return frozenset(names)
    declared: set[str] = set()
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
            continue
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return frozenset(names - declared)


def module_imports(tree: ast.Module) -> frozenset[str]:
    """Names an import binds in the module's own scope (not inside a function)."""
    names: set[str] = set()
    stack: list[ast.stmt] = list(tree.body)
    while stack:  # statements only: an import is one, and no expression holds a statement
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(alias.asname or alias.name.partition(".")[0] for alias in node.names)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for field in _BLOCKS:
                stack.extend(getattr(node, field, ()))
            for handler in getattr(node, "handlers", ()):  # try's except blocks
                stack.extend(handler.body)
            for case in getattr(node, "cases", ()):  # match's cases
                stack.extend(case.body)
    return frozenset(names)


_BLOCKS = ("body", "orelse", "finalbody")  # the statement lists of a compound statement
