"""What the graph shows of one tensor: a small summary of its value (never the array itself),
and the texts made from it (values, shapes, scalars, op names)."""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from autograd_cli.graph.labels import compact_values
from engine.printing import tensor_repr
from engine.tensor import Tensor

VALUE_LIMIT = 9  # tensors with at most this many elements show their values
LABEL_WIDTH = 60  # characters of a label line before it is shortened with "…"


class Summary(NamedTuple):
    """What a label shows of a tensor: shape, dtype, and a copy of the values only when small.
    (A named tuple, not a dataclass: one is made for every op a program runs.)"""

    shape: tuple[int, ...]
    dtype: str
    small: np.ndarray | None
    finite: bool
    nbytes: int


def summarize(tensor: Tensor | np.ndarray, values: bool = True) -> Summary:
    """Shape, dtype, bytes; with `values`, a copy of small arrays and whether all are finite."""
    array = tensor.array if isinstance(tensor, Tensor) else np.asarray(tensor)
    dtype = dtype_name(array.dtype)
    if not values:
        return Summary(array.shape, dtype, None, True, array.nbytes)
    if array.size > VALUE_LIMIT:
        return Summary(array.shape, dtype, None, all_finite(array), array.nbytes)
    small = array.copy()
    finite = array.dtype.kind != "f" or all(map(math.isfinite, small.ravel().tolist()))
    return Summary(array.shape, dtype, small, finite, array.nbytes)


def all_finite(array: np.ndarray) -> bool:
    """No NaN and no infinity in a float array. Its sum tells at once in the common case: a
    NaN or an infinity makes any sum non-finite; only a non-finite sum (which may also be an
    overflow) needs the elementwise test. (This runs for every op a program runs.)"""
    if array.dtype.kind != "f":
        return True
    return math.isfinite(np.add.reduce(array, axis=None)) or bool(np.isfinite(array).all())


@lru_cache(maxsize=64)
def dtype_name(dtype: np.dtype) -> str:
    return dtype.name


def value_text(summary: Summary) -> str | None:
    """The values as PyTorch prints them by default, without `tensor(...)` and dtype: `[5.]`,
    `3.`; when that is longer than a label line, rounded to two digits and cut between
    numbers: `[0.50, -0.65, 1.6, ... 3 more]` (labels.compact_values). (Default print
    options: a label is agraph's text, never `set_printoptions`' 10**6 digits.)"""
    if summary.small is None:
        return None
    # lazy: startup time (loaded only when used)
    from autograd_cli.graph.report import default_print_options

    with default_print_options():
        text = " ".join(tensor_repr(summary.small).split())
    text = re.sub(r",\s*(dtype|size)=[^,)]*", "", text)
    text = text.removeprefix("tensor(").removesuffix(")")
    return text if len(text) <= LABEL_WIDTH else compact_values(summary.small, LABEL_WIDTH)


def value_changed(before: Summary, after: Summary) -> bool:
    """Do two summaries of one tensor hold different values (both small enough to keep)?"""
    if before.small is None or after.small is None or before.small.shape != after.small.shape:
        return False
    return not np.array_equal(before.small, after.small, equal_nan=before.small.dtype.kind == "f")


def shape_text(summary: Summary) -> str:
    return f"[{', '.join(str(d) for d in summary.shape)}] {summary.dtype}"


def shorten(text: str) -> str:
    return text if len(text) <= LABEL_WIDTH else text[:LABEL_WIDTH - 1] + "…"


def scalar_text(value: Any) -> str:
    if isinstance(value, (bool, int, float)):
        return shorten(repr(value))
    return "…"


# PyTorch's op names that snake_case would spell otherwise (a dimension suffix, im2col)
OP_NAMES = {"MaxPool2DWithIndices": "max_pool2d_with_indices", "AvgPool2D": "avg_pool2d",
            "AdaptiveAvgPool2D": "adaptive_avg_pool2d", "Im2Col": "im2col", "Col2Im": "col2im"}


@lru_cache(maxsize=1024)
def op_display_name(grad_fn_name: str) -> str:
    """`AddBackward0` -> `add`, `MseLossBackward0` -> `mse_loss`, `CopySlices` -> `copy_slices`."""
    base = re.sub(r"Backwards?\d*$", "", grad_fn_name) or grad_fn_name
    return OP_NAMES.get(base) or snake_case(base)


@lru_cache(maxsize=1024)
def snake_case(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
