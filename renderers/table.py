"""The node table of `agraph run`: one row per tensor variable, rendered with rich.

Works on plain rows (dicts of strings and bools), never on engine objects. rich is imported
here only, and only when a table is drawn, because it costs startup time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Any

COLUMNS = ("name", "shape", "dtype", "value", "requires_grad", "is_leaf", "grad", "grad_fn",
           "retains_grad")


def render_table(rows: Sequence[dict[str, Any]], stream: IO[str], *, color: bool,
                 width: int | None = None) -> None:
    """Print the rows as a table; values are passed as Text so `[1. 2.]` is never markup."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=stream, force_terminal=color, no_color=not color,
                      width=width or (None if color else 120), highlight=False, soft_wrap=False)
    table = Table(title="tensors", title_justify="left", show_lines=False)
    for column in COLUMNS:
        table.add_column(column, overflow="fold", no_wrap=column in ("name", "dtype"))
    for row in rows:
        cells = []
        for column in COLUMNS:
            value = row.get(column)
            text = "-" if value is None else str(value)
            style = ""
            if isinstance(value, bool):
                style = "green" if value else "dim"
            cells.append(Text(text, style=style if color else ""))
        table.add_row(*cells)
    if not rows:
        console.print(Text("(no tensor variables)"))
        return
    console.print(table)
