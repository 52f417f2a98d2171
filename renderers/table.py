"""The node table of `agraph run` (and the debugger's `table`): one row per tensor variable.

Works on plain rows (dicts of strings and bools), never on engine objects. rich is imported
here only, and only when a table is drawn, because it costs startup time.

Layout, for a `width` (None: as wide as the content):
- the table at its natural width when it fits;
- else the table with cells wrapped between words, each column at least as wide as its longest
  word (a value is never cut inside a token, `Tru`/`e`);
- else, when even that does not fit, one block per tensor (`name` then `field  value` lines),
  its values wrapped between words.
No line ends in spaces; values are passed as Text so `[1. 2.]` is never read as markup.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import IO, Any

COLUMNS = ("name", "shape", "dtype", "value", "requires_grad", "is_leaf", "grad", "grad_fn",
           "retains_grad")
WIDEST = 10_000  # the console's width when the output's width is not known (a pipe)
_BORDER = 3  # "│ " before a cell and " " after it; one more "│" closes a row
# a run of spaces is tried from its first space only: from every space of it, the run of a
# cell padded to thousands of columns took quadratic time (seconds for a long name)
_TRAILING_SPACES = re.compile(r"(?<![ \t])[ \t]+((?:\x1b\[[0-9;]*m)*)$", re.MULTILINE)


def render_table(rows: Sequence[dict[str, Any]], stream: IO[str], *, color: bool,
                 width: int | None = None) -> None:
    """Print the rows as a table that fits in `width` columns (see the module's docstring)."""
    from rich.console import Console
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=color, no_color=not color,
                      color_system="standard" if color else None,
                      width=width or WIDEST, highlight=False, soft_wrap=False,
                      legacy_windows=False)
    if not rows:
        console.print(Text("(no tensor variables)"))
    else:
        cells = [[_cell_text(row.get(column)) for column in COLUMNS] for row in rows]
        widths = _column_widths(cells, width)
        if width is None and widths is not None and sum(widths) > WIDEST:
            widths = None  # wider than the console (a 40,000-character name): rich would
            # squeeze the other columns to nothing
        if widths is None:
            _print_stacked(console, rows, cells, color)
        else:
            _print_table(console, rows, cells, widths, color)
    stream.write(_TRAILING_SPACES.sub(r"\1", buffer.getvalue()))


def _cell_text(value: Any) -> str:
    return "-" if value is None else str(value)


def _style(value: Any, color: bool) -> str:
    if not color or not isinstance(value, bool):
        return ""
    return "green" if value else "dim"


def _column_widths(cells: list[list[str]], width: int | None) -> list[int] | None:
    """Each column's width, or None when the table cannot fit without cutting a word."""
    longest = [max([len(column)] + [len(row[i]) for row in cells])
               for i, column in enumerate(COLUMNS)]
    if width is None:
        return longest
    frame = _BORDER * len(COLUMNS) + 1
    if sum(longest) + frame <= width:
        return longest
    words = [max([len(column)] + [len(word) for row in cells for word in row[i].split()])
             for i, column in enumerate(COLUMNS)]
    spare = width - frame - sum(words)
    if spare < 0:
        return None
    wanted = [full - least for full, least in zip(longest, words, strict=True)]
    total = sum(wanted)
    given = [spare * want // total for want in wanted] if total else [0] * len(wanted)
    return [least + extra for least, extra in zip(words, given, strict=True)]


def _print_table(console: Any, rows: Sequence[dict[str, Any]], cells: list[list[str]],
                 widths: list[int], color: bool) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="tensors", title_justify="left", show_lines=False)
    for column, column_width in zip(COLUMNS, widths, strict=True):
        table.add_column(column, width=column_width, overflow="fold")
    for row, texts in zip(rows, cells, strict=True):
        table.add_row(*(Text(text, style=_style(row.get(column), color))
                        for column, text in zip(COLUMNS, texts, strict=True)))
    console.print(table)


def _print_stacked(console: Any, rows: Sequence[dict[str, Any]], cells: list[list[str]],
                   color: bool) -> None:
    from rich.table import Table
    from rich.text import Text

    console.print(Text("tensors"))
    for row, texts in zip(rows, cells, strict=True):
        console.print(Text(texts[0], style="bold" if color else ""))
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column(overflow="fold")
        for column, text in zip(COLUMNS[1:], texts[1:], strict=True):
            grid.add_row(Text("  " + column), Text(text, style=_style(row.get(column), color)))
        console.print(grid)
