"""Where an error is: the program position CPython's traceback would show for a node, and the
name of an exception as the user knows it."""

from __future__ import annotations

import ast


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


def exception_name(exc: BaseException) -> str:
    """Python's or the engine's name for an exception; a library's private class gets the
    nearest builtin one (numpy's AxisError is a ValueError to the user)."""
    kind = type(exc)
    if kind.__module__ in ("builtins", "__main__") or kind.__module__.startswith("engine"):
        return kind.__name__
    for base in kind.__mro__:
        if base.__module__ == "builtins":
            return base.__name__
    return "RuntimeError"
