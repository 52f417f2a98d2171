"""`ScriptError`: a problem in the user's program, with its position, printed without traceback.

The format is the one design.md fixes for stderr:

    FILE:LINE:COL: ErrorType: message
      source line
      ^^^^^

`ErrorType` is the name PyTorch or Python uses (`RuntimeError`, `NameError`, ...), or
`LimitError` for a resource limit. Lines and columns are 1-based; the column counts characters.
"""

from __future__ import annotations

import unicodedata

# What is echoed of a source line: a 10 MB line must never reach the terminal.
MAX_ECHOED_LINE = 200
# The whole report stays within 20 lines (header + message + source + caret).
MAX_MESSAGE_LINES = 15
MAX_MESSAGE_CHARS = 2000


class ScriptError(Exception):
    """An error in a program: its type name as PyTorch/Python spells it, message and position."""

    def __init__(self, type_name: str, message: str, line: int | None = None,
                 col: int | None = None, end_col: int | None = None) -> None:
        super().__init__(message)
        self.type_name = type_name
        self.message = message
        self.line = line
        self.col = col
        self.end_col = end_col
        # What the program's `except` catches (language/exceptions.py); None for a limit
        self.exception: BaseException | None = None

    def __str__(self) -> str:
        return f"{self.type_name}: {self.message}"

    def location(self, filename: str) -> str:
        """`FILE:LINE:COL`, `FILE:LINE` or `FILE`, whatever is known (never `None`)."""
        filename = visible(filename)
        if self.line is None:
            return filename
        if self.col is None:
            return f"{filename}:{self.line}"
        return f"{filename}:{self.line}:{self.col}"

    def format(self, filename: str, source_text: str | None = None) -> str:
        """The report for stderr, ending with a newline, at most 20 lines and about 4 KiB."""
        lines = [f"{self.location(filename)}: {self.type_name}: {_first_lines(self.message)}"]
        source_line = _source_line(source_text, self.line)
        if source_line is not None:
            lines.extend(_echo_with_caret(source_line, self.col, self.end_col))
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, object]:
        """The `error` object of `agraph run --json`."""
        return {"type": self.type_name, "message": self.message, "line": self.line,
                "col": self.col}


def visible(text: str, keep: str = "\n\t") -> str:
    """`text` safe for a terminal: every character that is not printable (controls such as ESC,
    bidi overrides such as U+202E, line and paragraph separators, other format characters) as
    a Python escape (`\\x1b`, `\\u202e`), except those in `keep`; printable text unchanged."""
    if text.isprintable() or all(c.isprintable() or c in keep for c in text):
        return text
    return "".join(c if c.isprintable() or c in keep else _escape(c) for c in text)


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _cell_width(char: str, shown: str) -> int:
    """Terminal columns of one character of a line as `visible` shows it: an escape its
    length, a wide (East Asian) character two, a combining mark none, others one."""
    if shown != char:
        return len(shown)
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _first_lines(message: str) -> str:
    text = visible(message[:MAX_MESSAGE_CHARS])
    lines = text.split("\n")
    if len(lines) > 1 and not lines[-1]:
        lines.pop()
    if len(lines) > MAX_MESSAGE_LINES or len(message) > MAX_MESSAGE_CHARS:
        lines = lines[:MAX_MESSAGE_LINES] + ["..."]
    return "\n".join(lines)


def _source_line(source_text: str | None, line: int | None) -> str | None:
    """Line `line` of the text (1-based; lines end at "\\n"), or None if there is none."""
    if source_text is None or line is None or line < 1:
        return None
    start = 0
    for _ in range(line - 1):
        start = source_text.find("\n", start) + 1
        if start == 0:
            return None
    end = source_text.find("\n", start)
    return source_text[start:end if end != -1 else len(source_text)].rstrip("\r")


def _echo_with_caret(text: str, col: int | None, end_col: int | None) -> list[str]:
    """The source line (a window of it if long) and a caret line under [col, end_col)."""
    shift = 0  # where character `col` moved to in the echoed text, relative to the line
    if len(text) > MAX_ECHOED_LINE:
        # Show a window that contains the column, marked with "..." where it was cut.
        offset = max(0, (col or 1) - 1 - MAX_ECHOED_LINE // 2)
        prefix = "..." if offset else ""
        suffix = "..." if offset + MAX_ECHOED_LINE < len(text) else ""
        text = prefix + text[offset:offset + MAX_ECHOED_LINE] + suffix
        shift = len(prefix) - offset
    # Each character as it is shown: a control, bidi or separator character as its escape.
    cells = [c if c.isprintable() or c == "\t" else _escape(c) for c in text]
    shown = ["  " + "".join(cells)]
    if col is not None:
        start = min(max(0, col - 1 + shift), len(text))
        width = 1 if end_col is None or end_col <= col else end_col - col
        width = max(1, min(width, len(text) - start))
        # Tabs before the caret keep their width, so the caret lines up in a terminal; every
        # other character counts the columns it takes as shown (an escape, a wide character).
        padding = "".join("\t" if c == "\t" else " " * _cell_width(c, cell)
                          for c, cell in zip(text[:start], cells, strict=False))
        carets = sum(_cell_width(c, cell) for c, cell in zip(text[start:start + width],
                                                             cells[start:start + width],
                                                             strict=True))
        shown.append("  " + padding + "^" * max(1, carets))
    return shown
