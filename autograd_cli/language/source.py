"""Reading a program safely: from a path or `-` (stdin), capped in size, strictly UTF-8.

- only regular files are read (a FIFO, /dev/zero or a directory would block or never end);
- at most `max_bytes` are read, before anything parses them (ast.parse is unbounded in C);
- the bytes are UTF-8, with an optional BOM; PEP 263 coding cookies are never honoured, because
  decoding is done here and the parser only ever sees `str`;
- CRLF and lone CR line ends become LF, as Python's own reading does;
- NUL bytes and invalid UTF-8 are reported with their line and column.
"""

from __future__ import annotations

import io
import os
import stat
import sys
import tokenize
from typing import BinaryIO

from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import Limits, limit_error

BOM = b"\xef\xbb\xbf"


class SourceError(ScriptError):
    """The program file cannot be read or is not UTF-8 text; the type is Python's word for it."""


def read_source(path: str, max_bytes: int = Limits().max_source_bytes) -> str:
    """The program text at `path` (`-` for stdin), decoded and with LF line ends."""
    if path == "-":
        data = _read_capped(sys.stdin.buffer, max_bytes)
    else:
        data = _read_file(path, max_bytes)
    return decode_source(data)


def decode_source(data: bytes) -> str:
    """Bytes to program text: UTF-8 (BOM allowed), no NUL, universal line ends."""
    body = data[len(BOM):] if data.startswith(BOM) else data
    nul = body.find(b"\0")
    if nul != -1:
        line, col = _position(body, nul)
        raise SourceError("SyntaxError", "source code cannot contain null bytes (a binary file?)",
                          line, col)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _position(body, exc.start)
        raise SourceError("SyntaxError", f"the program is not UTF-8 text: invalid byte "
                          f"0x{body[exc.start]:02x}", line, col) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_regular_file(path: str, max_bytes: int) -> bytes | None:
    """Up to `max_bytes + 1` bytes of the regular file at `path` (a file agraph compares with,
    such as `render --check`'s): None if it is longer than `max_bytes`. A device, FIFO or
    directory is refused (SourceError) without reading from it: /dev/zero never ends."""
    try:
        return _read_file(path, max_bytes)
    except ScriptError as error:
        if error.type_name == "LimitError":
            return None
        raise


def _read_file(path: str, max_bytes: int) -> bytes:
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not hang; the stat below refuses it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise SourceError("FileNotFoundError", "no such file") from None
    except IsADirectoryError:
        raise SourceError("IsADirectoryError", "is a directory, not a program file") from None
    except PermissionError:
        raise SourceError("PermissionError", "permission denied: cannot read the file") from None
    except OSError as exc:
        raise SourceError("OSError", f"cannot open the file: {exc.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise SourceError("IsADirectoryError", "is a directory, not a program file")
        if not stat.S_ISREG(mode):
            raise SourceError("OSError", "is not a regular file (a device, FIFO or socket)")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as file:
        return _read_capped(file, max_bytes)


def _read_capped(stream: BinaryIO, max_bytes: int) -> bytes:
    try:
        data = stream.read(max_bytes + 1)
    except OSError as exc:
        raise SourceError("OSError", f"cannot read the program: {exc.strerror}") from None
    if len(data) > max_bytes:
        raise limit_error("max_source_bytes",
                          f"the program is larger than {max_bytes} bytes")
    return data


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and character column of byte `offset` (CRLF, CR and LF end a line)."""
    before = data[:offset]
    line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
    line_start = max(before.rfind(b"\n"), before.rfind(b"\r")) + 1
    col = len(before[line_start:].decode("utf-8", errors="replace")) + 1
    return line, col


# Python 3.11's parser takes time proportional to an f-string's fields times its length (one
# f-string of 100,000 `{x}` took 9 s, a 1 MB one would take minutes), in one C call that no
# time limit interrupts: the f-strings of a program may ask for this much of that work.
FSTRING_WORK = 3 * 10**9


def check_fstrings(text: str) -> None:
    """Refuse, before parsing, f-strings whose fields times characters add up past
    FSTRING_WORK; only a text with many braces is tokenized to find them."""
    if text.count("{") < 10_000:
        return
    work = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type != tokenize.STRING:
                continue
            prefix = token.string[:len(token.string) - len(token.string.lstrip("rRbBuUfF"))]
            if "f" in prefix.lower():
                work += token.string.count("{") * len(token.string)
                if work > FSTRING_WORK:
                    raise ScriptError("SyntaxError", "f-strings with this many fields are too "
                                      "slow for Python's parser: build the text in a loop",
                                      token.start[0], token.start[1] + 1)
    except (tokenize.TokenError, SyntaxError):
        return  # ast.parse reports it, at its place
