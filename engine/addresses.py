"""Deterministic object addresses for printed reprs (`<AddBackward0 object at 0x7f0000001040>`).

PyTorch prints real memory addresses, which change on every run; agraph numbers objects in
the order a run first prints them, so the same program prints the same bytes everywhere.
Every repr that shows an address (grad_fn nodes, the program's own objects, iterators, ...)
takes it from `address_of`.
"""

from __future__ import annotations

from typing import Any

_BASE = 0x7F0000001000
_STEP = 0x40
# id -> (object, number); the object is kept so that its id is not reused by another object
_numbers: dict[int, tuple[Any, int]] = {}


def address_of(obj: Any) -> str:
    """The address `obj` shows in this run, as `0x...` (stable across runs and machines)."""
    entry = _numbers.get(id(obj))
    if entry is None:
        entry = (obj, len(_numbers))
        _numbers[id(obj)] = entry
    return hex(_BASE + entry[1] * _STEP)


def reset() -> None:
    """Forget every number (a new run starts from the first address)."""
    _numbers.clear()
