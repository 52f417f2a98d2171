"""Reading a program safely: from a path or `-` (stdin), capped in size, strictly UTF-8.

- only regular files are read (a FIFO, /dev/zero or a directory would block or never end);
- at most `max_bytes` are read, before anything parses them (ast.parse is unbounded in C);
- the bytes are UTF-8, with an optional BOM; PEP 263 coding cookies are never honoured, because
  decoding is done here and the parser only ever sees `str`;
- CRLF and lone CR line ends become LF, as Python's own reading does;
- NUL bytes and invalid UTF-8 are reported with their line and column.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import BinaryIO

from autograd_cli.errors import ScriptError
from autograd_cli.limits import Limits, limit_error

READ_ERROR = "SourceError"


class SourceError(ScriptError):
    """The program file cannot be read or is not UTF-8 text."""

    def __init__(self, message: str, line: int | None = None, col: int | None = None) -> None:
        super().__init__(READ_ERROR, message, line, col)


def read_source(path: str, max_bytes: int = Limits.max_source_bytes) -> str:
    """The program text at `path` (`-` for stdin), decoded and with LF line ends."""
    if path == "-":
        data = _read_capped(sys.stdin.buffer, max_bytes)
    else:
        data = _read_file(path, max_bytes)
    return decode_source(data)


def decode_source(data: bytes) -> str:
    """Bytes to program text: UTF-8 (BOM allowed), no NUL, universal line ends."""
    if not data.strip():
        if not data:
            raise SourceError("the program is empty")
    nul = data.find(b"\0")
    if nul != -1:
        line, col = _position(data, nul)
        raise SourceError("the program contains a NUL byte (binary file?)", line, col)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, col = _position(data, exc.start)
        raise SourceError(f"the program is not UTF-8 text: invalid byte 0x{data[exc.start]:02x}",
                          line, col) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _read_file(path: str, max_bytes: int) -> bytes:
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not hang; the stat below refuses it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SourceError("no such file") from None
    except IsADirectoryError:
        raise SourceError("is a directory, not a program file") from None
    except PermissionError:
        raise SourceError("permission denied: the file cannot be read") from None
    except OSError as exc:
        raise SourceError(f"cannot open the file: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as file:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise SourceError("is a directory, not a program file")
        if not stat.S_ISREG(mode):
            raise SourceError("is not a regular file (a device, pipe or socket)")
        os.set_blocking(fd, True)
        return _read_capped(file, max_bytes)


def _read_capped(stream: BinaryIO, max_bytes: int) -> bytes:
    try:
        data = stream.read(max_bytes + 1)
    except OSError as exc:
        raise SourceError(f"cannot read the program: {exc.strerror}") from None
    if len(data) > max_bytes:
        raise limit_error("max_source_bytes",
                          f"the program is larger than {max_bytes} bytes")
    return data


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and character column of byte `offset`."""
    line_start = max(data.rfind(b"\n", 0, offset), data.rfind(b"\r", 0, offset)) + 1
    line = data.count(b"\n", 0, offset) + 1
    if b"\n" not in data[:offset]:
        line = data.count(b"\r", 0, offset) + 1
    col = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return line, col
