"""`from MODULE import NAME` inside a function, for a module that imports the caller's module
(an import cycle), looked up on first use and then kept: an import statement costs more than
the per-op methods that need one (indexing, backward, a gradient's sum back to its shape)."""

from __future__ import annotations

import importlib
from typing import Any

_FOUND: dict[tuple[str, str], Any] = {}


def late(module: str, name: str) -> Any:
    found = _FOUND.get((module, name))
    if found is None:
        found = _FOUND[(module, name)] = getattr(importlib.import_module(module), name)
    return found
