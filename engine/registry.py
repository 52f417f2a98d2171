"""Each public function declared once, where it is defined, with `@public`: its name, whether it
is a `torch.NAME` function, a Tensor method (`t.NAME(...)`), and has an in-place method
(`t.NAME_(...)`: the result written into t). From this registry engine/functional/ builds its
namespace, engine/api.py the `torch` functions and engine/functional/methods.py the Tensor
methods and Tensor.PUBLIC_ATTRS; no other list of them is kept.

    @public(method=True, inplace=True)
    def add(a, b, alpha=1): ...            # torch.add, t.add(b), t.add_(b)

    clip = public(clamp, name="clip", method=True)   # an alias: torch.clip, t.clip
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
