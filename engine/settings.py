"""PyTorch's global switches that seed-setting boilerplate flips: deterministic algorithms,
the float32 matmul precision, cuDNN's flags; and torch.utils.backcompat's warning flags.

On the CPU none of them changes a result (agraph's kernels are PyTorch's deterministic CPU
ones, and float32 products are always full precision there), so agraph keeps their values,
checks them as PyTorch does, and reports them back. Each run starts from PyTorch's defaults
(`reset`, from engine/api.py's `reset_state`).
"""

from __future__ import annotations

import warnings
from typing import Any

PRECISIONS = ("highest", "high", "medium")
_STATE: dict[str, Any] = {}


def reset() -> None:
    _STATE.update(deterministic=False, warn_only=False, matmul_precision="highest")
    CUDNN.reset()
    for flag in BACKCOMPAT.values():
        flag.enabled = False


def _bool(value: Any, setter: str) -> bool:
    if type(value) is not bool:
        raise RuntimeError(f"{setter} expects a bool, but got {type(value).__name__}")
    return value


def use_deterministic_algorithms(mode: Any, *, warn_only: Any = False) -> None:
    if type(mode) is not bool:
        raise TypeError("_set_deterministic_algorithms(): argument 'mode' (position 1) must be "
                        f"bool, not {type(mode).__name__}")
    _STATE.update(deterministic=mode, warn_only=bool(warn_only))


def are_deterministic_algorithms_enabled() -> bool:
    return bool(_STATE["deterministic"])


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return bool(_STATE["warn_only"])


def set_float32_matmul_precision(precision: Any) -> None:
    if type(precision) is not str:
        raise RuntimeError("set_float32_matmul_precision expects a str, but got "
                           f"{type(precision).__name__}")
    if precision not in PRECISIONS:
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _STATE["matmul_precision"] = precision


def get_float32_matmul_precision() -> str:
    return str(_STATE["matmul_precision"])


class CudnnFlags:
    """`torch.backends.cudnn` of a build without CUDA: flags a program may set (bools)."""

    FLAGS = ("enabled", "benchmark", "deterministic", "allow_tf32")
    DEFAULTS = {"enabled": True, "benchmark": False, "deterministic": False, "allow_tf32": True}
    SETTERS = {"enabled": "set_enabled_cudnn", "benchmark": "set_benchmark_cudnn",
               "deterministic": "set_deterministic_cudnn", "allow_tf32": "set_allow_tf32_cudnn"}
    PUBLIC_ATTRS = frozenset((*FLAGS, "is_available", "version"))
    SETTABLE_ATTRS = frozenset(FLAGS)
    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: dict[str, bool] = dict(self.DEFAULTS)

    def reset(self) -> None:
        self.values = dict(self.DEFAULTS)

    def __getattr__(self, name: str) -> Any:
        if name in CudnnFlags.FLAGS:
            return self.values[name]
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "values":
            object.__setattr__(self, name, value)
        elif name in CudnnFlags.FLAGS:
            self.values[name] = _bool(value, CudnnFlags.SETTERS[name])
        else:
            raise AttributeError(f"cannot set attribute '{name}' of torch.backends.cudnn")

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def version() -> None:
        return None

    def __repr__(self) -> str:
        return "<module 'torch.backends.cudnn'>"


CUDNN = CudnnFlags()


class BackcompatWarning:
    """`torch.utils.backcompat.broadcast_warning` / `keepdim_warning`: a bool PyTorch 2.13
    keeps (off by default) but no longer acts on: setting it warns of nothing."""

    PUBLIC_ATTRS = frozenset({"enabled"})
    SETTABLE_ATTRS = frozenset({"enabled"})
    __slots__ = ("setter", "value")

    def __init__(self, setter: str) -> None:
        self.setter = setter
        self.value = False

    @property
    def enabled(self) -> bool:
        return self.value

    @enabled.setter
    def enabled(self, value: Any) -> None:
        self.value = _bool(value, self.setter)


BACKCOMPAT = {"broadcast_warning": BackcompatWarning("set_backcompat_broadcast_warn"),
              "keepdim_warning": BackcompatWarning("set_backcompat_keepdim_warn")}
SETTINGS: dict[str, Any] = {
    "use_deterministic_algorithms": use_deterministic_algorithms,
    "are_deterministic_algorithms_enabled": are_deterministic_algorithms_enabled,
    "is_deterministic_algorithms_warn_only_enabled": is_deterministic_algorithms_warn_only_enabled,
    "set_float32_matmul_precision": set_float32_matmul_precision,
    "get_float32_matmul_precision": get_float32_matmul_precision,
}
reset()
