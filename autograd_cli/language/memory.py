"""What a program's plain values cost in memory, and the size arguments that make them.

The account itself is engine/memory.py (one for tensors and everything else, `--max-memory`).
Here is the interpreter's side of it:

- `size_argument(value)`: a width, count or repetition as the int it stands for. A program may
  pass an int, a bool, an integer tensor or a numpy integer (`"a".ljust(torch.tensor(10**9))`);
  it is turned into an int once, before any limit looks at it, and that int is what the
  operation then gets (an `__index__` is not asked twice).
- `check_*`: before something of a known size is built (`[x] * n`, `s.ljust(n)`,
  `list(range(n))`, a copy of a list): refused if it would not fit beside the memory in use.
- `charge_result(value)`: after a call or a subscript made a string, list, tuple, dict, set
  or integer: its size goes into the running estimate, which reads the process's memory again
  once it has grown by a megabyte, so a loop of results each within their own limits cannot
  pile up past `--max-memory`.
"""

from __future__ import annotations

import operator
import sys
from typing import Any

from engine import memory

POINTER = 8  # bytes a list, tuple or set slot takes per item
INT_BYTES = 32  # a small int object, made when a range is materialised
STR_OBJECT = 56  # a short string object besides its characters
DICT_ITEM_BYTES = 100  # about a dict entry with its share of the table (a set: half)
_CHARGED = frozenset({str, bytes, list, tuple, dict, set, frozenset, int})


def size_argument(value: Any) -> Any:
    """`value` as the int it stands for if it is one (an int, a bool, anything with
    `__index__`: an integer tensor, a numpy integer); anything else unchanged, for the
    operation to refuse with Python's own TypeError."""
    kind = type(value)
    if kind is int:
        return value
    if kind is bool or hasattr(kind, "__index__"):
        return operator.index(value)
    return value


def text_bytes(length: int, *parts: str) -> int:
    """About the bytes of a new string of `length` characters made of `parts` (1 a character
    if they are all ASCII, else 4)."""
    wide = any(not part.isascii() for part in parts)
    return 64 + length * (4 if wide else 1)


def sequence_bytes(kind: type, length: int, sample: Any = "") -> int:
    """About the bytes of a new str/bytes/list/tuple of `length` items."""
    if kind is str:
        return text_bytes(length, sample)
    if kind is bytes:
        return 64 + length
    return 64 + POINTER * length


def check_text(length: int, *parts: str) -> None:
    """Before a string of `length` characters made of `parts` is built."""
    memory.check(text_bytes(length, *parts), f"a string of {length} characters")


def check_container(kind: type, length: int, what: str = "") -> None:
    """Before a container of `kind` with `length` items is built (its slots, not its items)."""
    per_item = DICT_ITEM_BYTES if kind is dict else DICT_ITEM_BYTES // 2 if kind in (
        set, frozenset) else POINTER
    memory.check(64 + per_item * length, what or f"a {kind.__name__} of {length} items")


def check_range(length: int) -> None:
    """Before a range of `length` numbers is turned into a list: its slots and its ints."""
    memory.check(64 + (POINTER + INT_BYTES) * length, f"a list of {length} numbers")


def check_copy(value: Any) -> None:
    """Before an operation that may make something as big as `value` (a slice, `s.upper()`,
    `d.copy()`): that much fits beside the memory in use."""
    if value.__class__ in _CHARGED:
        memory.check(sys.getsizeof(value), f"a copy of a {type(value).__name__}")


def charge_result(value: Any) -> None:
    """After a call or subscript made `value`: its own size joins the running estimate."""
    if value.__class__ in _CHARGED:
        memory.charge(sys.getsizeof(value))
