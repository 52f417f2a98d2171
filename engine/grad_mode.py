"""Grad mode: whether ops record the graph. One flag, checked once per op in Function.apply."""

from __future__ import annotations

from typing import Any

# read directly by the per-op hot paths (engine/tensor.py, engine/autograd.py): one dict lookup
state = {"enabled": True, "inference": False}


def is_grad_enabled() -> bool:
    return state["enabled"]


def is_inference_mode_enabled() -> bool:
    return state["inference"]


def set_enabled(mode: bool) -> None:
    """Grad mode on or off, with nothing to restore (a run's start, a case's end)."""
    state["enabled"] = bool(mode)


class GradMode:
    """A context manager that sets grad mode on entry and restores the previous mode on exit."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    mode = True

    def __enter__(self) -> None:
        self.previous = is_grad_enabled()
        set_enabled(self.mode)

    def __exit__(self, *exc: Any) -> None:
        set_enabled(self.previous)


class no_grad(GradMode):  # noqa: N801 - PyTorch's name
    mode = False


class enable_grad(GradMode):  # noqa: N801 - PyTorch's name
    mode = True


class set_grad_enabled(GradMode):  # noqa: N801 - PyTorch's name
    """Like PyTorch: takes effect when called (also as a plain function), restored on exit."""

    def __init__(self, mode: bool) -> None:
        self.previous = is_grad_enabled()
        self.mode = bool(mode)
        set_enabled(self.mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: Any) -> None:
        set_enabled(self.previous)


class inference_mode(no_grad):  # noqa: N801 - PyTorch's name
    """no_grad, and the tensors made inside are inference tensors (Tensor._inference)."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = not mode
        self.inference = bool(mode)

    def __enter__(self) -> None:
        super().__enter__()
        self.previous_inference = state["inference"]
        state["inference"] = self.inference

    def __exit__(self, *exc: Any) -> None:
        super().__exit__(*exc)
        state["inference"] = self.previous_inference
