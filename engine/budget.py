"""Size limits the engine checks before it allocates, so a program cannot exhaust memory.

The CLI sets them from its options; the checks run before numpy is asked for the memory.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

limits = {"max_elements": 100_000_000, "max_bytes": 1 << 30}


class LimitError(RuntimeError):
    """A resource limit was hit; `option` names the command-line option that raises it."""

    def __init__(self, message: str, option: str) -> None:
        super().__init__(f"{message} (limit: raise it with {option})")
        self.option = option


def check_shape(shape: Sequence[int], itemsize: int) -> None:
    for size in shape:
        if size < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {size}: "
                               f"{list(shape)}")
    elements = math.prod(shape)
    if elements > limits["max_elements"]:
        raise LimitError(f"tensor of shape {list(shape)} has {elements} elements, more than the "
                         f"limit of {limits['max_elements']} elements", "--max-elements")
    if elements * itemsize > limits["max_bytes"]:
        raise LimitError(f"tensor of shape {list(shape)} needs {elements * itemsize} bytes, more "
                         f"than the limit of {limits['max_bytes']} bytes", "--max-memory")
