"""Each public function declared once, where it is defined, with `@public`: its name, whether it
is a `torch.NAME` function, a Tensor method (`t.NAME(...)`), and has an in-place method
(`t.NAME_(...)`: the result written into t). From this registry engine/functional/ builds its
namespace, engine/api.py the `torch` functions and engine/functional/methods.py the Tensor
methods and Tensor.PUBLIC_ATTRS; no other list of them is kept.

    @public(method=True, inplace=True)
    def add(a, b, alpha=1): ...            # torch.add, t.add(b), t.add_(b)

    @public(torch=False, method=True)
    def random_(self, *args): ...           # t.random_() only

PyTorch's other names for a function (`multiply` for `mul`) are ALIASES below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

Function = TypeVar("Function", bound=Callable[..., Any])

FUNCTIONS: dict[str, Callable[..., Any]] = {}  # every registered name (engine.functional.NAME)
TORCH: dict[str, Callable[..., Any]] = {}  # torch.NAME
METHODS: dict[str, Callable[..., Any]] = {}  # Tensor.NAME: the function with self first
INPLACE: dict[str, Callable[..., Any]] = {}  # Tensor.NAME_: the function's result into self


def public(function: Any = None, /, *, name: str | None = None, torch: bool = True,
           method: bool = False, inplace: bool = False) -> Any:
    """Register `function` under `name` (its own by default); usable as `@public`,
    `@public(method=True)` or `public(function, name=...)` for an alias."""

    def register(function: Function) -> Function:
        key = name or function.__name__
        FUNCTIONS[key] = function
        if torch:
            TORCH[key] = function
        if method:
            METHODS[key] = function
        if inplace:
            INPLACE[key + "_"] = function
        return function

    return register if function is None else register(function)


# PyTorch's alternative names (NumPy's spellings): each is whatever its original is here
# (torch.NAME, t.NAME, t.NAME_), the same function, so the same op and grad_fn.
ALIASES = {
    "absolute": "abs", "arccos": "acos", "arccosh": "acosh", "arcsin": "asin",
    "arcsinh": "asinh", "arctan": "atan", "arctanh": "atanh", "arctan2": "atan2",
    "clip": "clamp", "divide": "div", "true_divide": "div", "multiply": "mul",
    "subtract": "sub", "negative": "neg", "fix": "trunc", "greater": "gt",
    "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne",
    "swapdims": "swapaxes", "moveaxis": "movedim", "concat": "cat", "concatenate": "cat",
    "row_stack": "vstack", "ger": "outer",
}


def add_aliases() -> None:
    """Register every alias whose original is registered, as the original is."""
    for alias, original in ALIASES.items():
        if original in FUNCTIONS:
            FUNCTIONS[alias] = FUNCTIONS[original]
        if original in TORCH:
            TORCH[alias] = TORCH[original]
        if original in METHODS:
            METHODS[alias] = METHODS[original]
        if original + "_" in INPLACE:
            INPLACE[alias + "_"] = INPLACE[original + "_"]
