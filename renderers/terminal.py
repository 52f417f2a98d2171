"""What agraph's own output may assume of the terminal it goes to: colour and width.

- colour: `NO_COLOR` (any non-empty value, no-color.org) turns it off, `FORCE_COLOR` (any
  non-empty value, force-color.org) turns it on in a pipe; otherwise only a terminal gets it.
  NO_COLOR wins when both are set: the reader asked for plain text.
- width: `COLUMNS` when it is a positive number (in a pipe too, so a docs build can choose);
  else the terminal's width; else None, "as wide as the content", never padded to a guess.
"""

from __future__ import annotations

import os
from typing import IO, Any


def use_color(stream: IO[Any]) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return is_terminal(stream)


def width(stream: IO[Any]) -> int | None:
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return min(int(columns), 10_000)
    if is_terminal(stream):
        try:
            return os.get_terminal_size(stream.fileno()).columns or None
        except (OSError, ValueError, AttributeError):
            return None
    return None


def is_terminal(stream: IO[Any]) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except (OSError, ValueError):
        return False
