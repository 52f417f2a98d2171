"""The statements of the interpreter that are not on its hot path: `with`, `assert`, `del`.

`with` works on the engine's context managers and on objects of program classes that define
`__enter__` / `__exit__`; a program's `__exit__` may swallow the program's own errors, never
a limit hit (it does not even run for one).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from autograd_cli.language import classes, exceptions
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.objects import display_str, is_engine_object

if TYPE_CHECKING:
    from autograd_cli.language.limits import Limits
    from autograd_cli.language.scopes import Scope


class StatementHandlers:
    """`with`'s entering and exiting (compiled.py runs the statement), `assert`, `del` (a part of
    `Interpreter`)."""

    if TYPE_CHECKING:
        limits: Limits
        node: ast.AST | None
        scope: Scope

        def eval(self, node: ast.AST) -> Any: ...

        def execute_block(self, body: list[ast.stmt]) -> Any: ...

        def _store(self, target: ast.expr, value: Any) -> None: ...

        def container_and_key(self, node: ast.Subscript) -> tuple[Any, Any]: ...

    def enter_context(self, manager: Any) -> Any:
        kind = type(manager)
        if not (is_engine_object(manager) or classes.is_program_instance(manager)) or not (
                hasattr(kind, "__enter__") and hasattr(kind, "__exit__")):
            raise TypeError(f"'{kind.__name__}' object does not support the context "
                            "manager protocol")
        return kind.__enter__(manager)

    def exit_context(self, manager: Any, error: ScriptError | None) -> bool:
        """`__exit__` of a `with`; True if it swallowed `error` (a program's own manager
        may; a limit hit never reaches a program's __exit__)."""
        exception = None
        if error is not None:
            exception = exceptions.program_exception(error)
            if exception is None:  # a limit hit: only the host's managers see it end
                if not classes.is_program_instance(manager):
                    type(manager).__exit__(manager, None, None, None)
                return False
        saved = self.node
        result = type(manager).__exit__(manager, None if exception is None else type(exception),
                                        exception, None)
        self.node = saved
        return exception is not None and bool(result) and classes.is_program_instance(manager)

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
            names = self.scope.names
            if self.scope.declared is not None and target.id in self.scope.declared:
                names = self.scope.declared[target.id]
            if target.id not in names:
                raise NameError(f"name '{target.id}' is not defined")
            del names[target.id]
        elif type(target) is ast.Attribute:
            owner = self.eval(target.value)
            self.node = target
            if not classes.is_program_instance(owner):
                raise AttributeError(f"cannot delete attribute '{target.attr}' of "
                                     f"'{type(owner).__name__}' object")
            classes.delete_attribute(owner, target.attr)
        elif type(target) is ast.Subscript:
            container, key = self.container_and_key(target)
            del container[key]
        elif type(target) in (ast.Tuple, ast.List):
            for item in target.elts:  # type: ignore[attr-defined]
                self._delete_target(item)
        else:
            raise SyntaxError("only names and items can be deleted")
