"""Where a run's printed text and warnings go: `OutputSink` (capped in bytes) and
`WarningRecord` (a warning at the program's line)."""

from __future__ import annotations

import sys
from typing import NamedTuple, TextIO

from autograd_cli.language.limits import LimitExceeded


class WarningRecord(NamedTuple):
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
    """Where `print` writes: kept for `--json`, echoed live if asked, capped in bytes. What the
    program writes to standard error (logging's records, argparse's usage and errors) counts
    against the same cap, and so do its warnings: a program that loops on `parse_args` or
    `warnings.warn` must not flood agraph's stderr."""

    def __init__(self, max_bytes: int, echo: TextIO | None = None) -> None:
        self.max_bytes = max_bytes
        self.echo = echo
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> None:
        text = self._counted(text)
        self.parts.append(text)
        if self.echo is not None:
            try:
                self.echo.write(text)
            except BrokenPipeError:  # `agraph run x | head -1`: the reader has what it wanted
                self.echo = None

    def write_error(self, text: str) -> None:
        """Write `text` to agraph's stderr, counted against the cap."""
        sys.stderr.write(self._counted(text))

    def _counted(self, text: str) -> str:
        """`text` as it can be written (lone surrogates escaped), its bytes counted."""
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
        return text

    def reserve(self, size: int) -> None:
        """Count `size` bytes that will be written later (a warning, shown after the run)."""
        self.check_room(size)
        self.size += size

    def check_room(self, size: int) -> None:
        """Refuse to write `size` more bytes past the cap (a text of `size` characters has at
        least as many bytes: checked before it is joined)."""
        if self.size + size > self.max_bytes:
            raise LimitExceeded("max_output_bytes",
                                f"the program printed more than {self.max_bytes} bytes")

    def text(self) -> str:
        return "".join(self.parts)
