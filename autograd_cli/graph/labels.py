"""Text of the graph's labels that is not PyTorch's own print: values too long for a label line,
rebound names, the public name of an op.

A label never shows a number cut in the middle (`[-0...`) nor an engine class name
(`pow_scalar`): what it shows is either PyTorch's print or plainly rounded.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from engine.autograd import Function


def compact_values(array: np.ndarray, width: int) -> str:
    """`[0.50, -0.65, 1.6, ... 3 more]`: the elements in order (flattened: the shape is on the
    line above) with two significant digits, as many as fit in `width` characters."""
    flat = array.ravel().tolist()
    if array.ndim == 0:
        return number_text(flat[0] if isinstance(flat, list) else flat)
    shown: list[str] = []
    for index, value in enumerate(flat):
        text = number_text(value)
        rest = len(flat) - index - 1
        tail = f", ... {rest} more]" if rest else "]"
        if shown and len("[" + ", ".join([*shown, text]) + tail) > width:
            return "[" + ", ".join(shown) + f", ... {len(flat) - index} more]"
        shown.append(text)
    return "[" + ", ".join(shown) + "]"


def number_text(value: object) -> str:
    """One element with two significant digits (`0.50`, `-0.65`, `1.6`, `3.1e+02`); integers
    and booleans as they are."""
    if isinstance(value, bool) or isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        if value == 0:
            return "0."
        return f"{value:#.2g}"
    return str(value)


def numbered(name: str, number: int) -> str:
    """The `number`-th tensor bound to `name`: `next_h`, `next_h (2)`, `next_h (3)`."""
    return name if number == 1 else f"{name} ({number})"


@lru_cache(maxsize=1024)
def public_op_name(function_name: str) -> str:
    """The name an op is shown by, from the engine's class name: the class's PyTorch grad_fn
    name without `Backward0` (`PowScalar` -> `pow`, as for a graph-recorded `pow`)."""
    # lazy: autograd_cli.graph.recorder imports this module
    from autograd_cli.graph.recorder import op_display_name

    grad_fn_name = _grad_fn_names().get(function_name)
    return op_display_name(grad_fn_name or function_name)


@lru_cache(maxsize=1)
def _grad_fn_names() -> dict[str, str]:
    """Engine Function class name -> its grad_fn name, over every op class defined."""
    names: dict[str, str] = {}
    stack: list[type] = [Function]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        grad_fn_name = getattr(cls, "grad_fn_name", None)
        if isinstance(grad_fn_name, str) and grad_fn_name:
            names.setdefault(cls.__name__, grad_fn_name)
    return names
