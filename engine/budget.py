"""Size limits the engine checks before it allocates, so a program cannot exhaust memory.

The CLI sets them from its options; the checks run before numpy is asked for the memory.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

limits = {"max_elements": 100_000_000, "max_bytes": 1 << 30, "max_graph_nodes": 5_000_000}
LARGE = _LARGE = 1 << 20  # allocations from this size on are checked against the total budget
_baseline: list[int] = []


class LimitError(RuntimeError):
    """A resource limit was hit; `option` names the command-line option that raises it."""

    def __init__(self, message: str, option: str) -> None:
        super().__init__(f"{message} (limit: raise it with {option})")
        self.option = option


def check_graph_nodes(count: int) -> None:
    """A backward pass walks at most max_graph_nodes nodes (checked before it runs any)."""
    if count > limits["max_graph_nodes"]:
        raise LimitError(f"the graph to backpropagate through has {count} nodes, more than the "
                         f"limit of {limits['max_graph_nodes']} nodes", "--max-graph-nodes")


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
    if elements * itemsize >= _LARGE:
        _check_total(elements * itemsize)


def check_broadcast(shapes: Sequence[Sequence[int]], itemsize: int) -> tuple[int, ...] | None:
    """The shape `shapes` broadcast to, within the limits; checked before an op computes it.

    Shapes that do not broadcast are the op's to refuse with its own message: None.
    """
    try:
        shape: tuple[int, ...] = np.broadcast_shapes(*shapes)
    except ValueError:
        return None
    check_shape(shape, itemsize)
    return shape


def check_bytes(nbytes: int, what: str) -> None:
    """Work that is not a tensor (Python objects, text, index tables) within max_bytes: `what`
    says what would be built, e.g. "tolist() of a tensor of shape [10] makes 10 numbers"."""
    if nbytes > limits["max_bytes"]:
        raise LimitError(f"{what}, about {nbytes} bytes, more than the limit of "
                         f"{limits['max_bytes']} bytes", "--max-memory")
    if nbytes >= _LARGE:
        _check_total(nbytes, what)


def check_in_use() -> None:
    """After an op made a large array of a shape already within the limits (an elementwise
    op, a copy, a cast): all live tensors together are still within max_bytes. Ops whose
    result can outgrow their inputs check its shape before they run (check_shape)."""
    _check_total(0)


def resident_bytes() -> int:
    """This process's resident memory (Linux), or 0 where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * 4096
    except (OSError, ValueError, IndexError):
        return 0


def _check_total(new_bytes: int, what: str | None = None) -> None:
    """All live tensors together stay within max_bytes: measured as growth of resident memory
    since the first large allocation, which counts every array numpy holds, freed ones not."""
    resident = resident_bytes()
    if not _baseline:
        _baseline.append(resident)
    in_use = resident - _baseline[0]
    if in_use + new_bytes > limits["max_bytes"]:
        total = in_use + new_bytes
        message = (f"tensors {'use' if not new_bytes else 'would use'} {total} bytes in total"
                   if what is None else
                   f"{what}, about {new_bytes} bytes: {total} bytes with the memory in use")
        raise LimitError(f"{message}, more than the limit of {limits['max_bytes']} bytes",
                         "--max-memory")
