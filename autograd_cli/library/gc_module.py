"""`gc`: `collect`, which notebooks call before `torch.cuda.empty_cache()` to free memory.

It runs Python's collector (freeing what the run no longer holds) and returns the number of
unreachable objects it found, as `gc.collect()` does; that number depends on the process, as in
Python. The collector's switches and its object lists (enable/disable, get_objects,
get_referrers, ...) reach the interpreter itself and are not offered.
"""

from __future__ import annotations

import gc
from typing import Any

from autograd_cli.language.objects import Namespace


def collect(generation: int = 2) -> int:
    if not isinstance(generation, int) or isinstance(generation, bool):
        raise TypeError(f"'{type(generation).__name__}' object cannot be interpreted as an "
                        "integer")
    if not 0 <= generation <= 2:
        raise ValueError("invalid generation")
    return gc.collect(generation)


def namespace(runtime: Any, name: str) -> Namespace:
    return Namespace(name, {"collect": collect})
