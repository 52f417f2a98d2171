"""Size limits the engine checks before it allocates, so a program cannot exhaust memory.

The CLI sets them from its options; the checks run before numpy is asked for the memory.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine import memory
from engine.memory import LimitError, resident_bytes

__all__ = ["LimitError", "resident_bytes"]
# one dict with the memory account's: max_bytes is the run's memory limit (engine/memory.py)
limits = memory.limits
limits.update(max_elements=100_000_000, max_graph_nodes=5_000_000)
LARGE = 1 << 20  # arrays from this size on read the memory in use before they are made


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
    if elements * itemsize >= LARGE:  # small ones are seen by the interpreter's sampling
        memory.check(elements * itemsize, f"a tensor of shape {list(shape)}")


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
    memory.check(nbytes, what)


NUMBER_BYTES = 32  # a float object and the list's pointer to it
LIST_BYTES = 64  # a short list object and its parent's pointer to it


def python_list_bytes(shape: Sequence[int]) -> int:
    """About what the nested lists of `tolist()` cost: a number per element, a list per row."""
    total = math.prod(shape) * NUMBER_BYTES
    lists = 1
    for size in shape[:-1]:
        lists *= size
        total += lists * LIST_BYTES
    return total


def tolist(array: np.ndarray, what: str) -> Any:
    """`array.tolist()` (of WHAT: "a tensor", "an array"), once its Python numbers and lists fit
    max_bytes."""
    if array.size > 4096 or array.ndim > 1:
        check_bytes(python_list_bytes(array.shape), f"tolist() of {what} of shape "
                    f"{list(array.shape)} makes {array.size} Python numbers")
    return array.tolist()


_ITEM_BYTES = 40  # a tuple slot and a small int
_CHUNK = 1 << 16


def bounded_tuple(items: Any, what: str) -> tuple[Any, ...]:
    """`tuple(items)` for `what` (torch.Size(range(10**8))): its memory checked before it is
    built, and an iterator without a length stopped once it has given more than fit."""
    try:
        length = len(items)
    except OverflowError:
        length = sys.maxsize
    except TypeError:  # an iterator: taken in chunks, each checked before it is kept
        taken: list[Any] = []
        chunks = iter(lambda: tuple(itertools.islice(items, _CHUNK)), ())
        for chunk in chunks:
            memory.check(_ITEM_BYTES * len(chunk), f"{what} of more than {len(taken)} items")
            taken.extend(chunk)
        return tuple(taken)
    memory.check(64 + _ITEM_BYTES * length, f"{what} of {length} items")
    return tuple(items)


def check_in_use() -> None:
    """After an op made a large array of a shape already within the limits (an elementwise
    op, a copy, a cast): the memory in use is still within max_bytes. Ops whose result can
    outgrow their inputs check its shape before they run (check_shape)."""
    memory.check_in_use("tensors and the program's other values")
