"""`torch.device` and `torch.cuda` as a CPU-only PyTorch build shows them.

Every tensor lives on the CPU. A program may name other devices (`torch.device("cuda")` is
an ordinary object, also a context manager that makes it the factories' default, as is
`torch.set_default_device`), but making a tensor there or moving one fails as it does on a
build without CUDA: `AssertionError: Torch not compiled with CUDA enabled`.
"""

from __future__ import annotations

import re
from types import FunctionType
from typing import Any

DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                "privateuseone")
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9]\d*|0))?")
NO_CUDA = "Torch not compiled with CUDA enabled"
NO_ACCELERATOR = "Cannot access accelerator device when none is available."


class Device:
    """`torch.device("cpu")`, `torch.device("cuda", 0)`: a type and an optional index."""

    PUBLIC_ATTRS = frozenset({"type", "index"})
    __slots__ = ("type", "index")
    type: str
    index: int | None

    def __init__(self, type: Any = None, index: Any = None) -> None:  # noqa: A002 - torch's
        if isinstance(type, Device):
            device_type, device_index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            raise RuntimeError(NO_ACCELERATOR)  # torch.device(0): an accelerator's index
        elif isinstance(type, str):
            device_type, device_index = _parse(type)
        else:
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({'' if type is None else builtin_type(type).__name__}), but "
                            "expected one of:\n * (torch.device device)\n"
                            " * (str type, int index = -1)\n")
        if index is not None:
            if isinstance(index, bool) or not isinstance(index, int):
                raise TypeError(f"device(): argument 'index' (position 2) must be int, not "
                                f"{builtin_type(index).__name__}")
            if device_index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            if index < 0:
                raise RuntimeError("Device index must not be negative")
            device_index = index
        object.__setattr__(self, "type", device_type)
        object.__setattr__(self, "index", device_index)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __format__(self, spec: str) -> str:
        if spec:
            raise TypeError("unsupported format string passed to torch.device.__format__")
        return str(self)

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __enter__(self) -> Device:
        """`with torch.device("cpu"):` makes it the factories' default until the block ends."""
        _ENTERED.append(DEFAULT[0])
        DEFAULT[0] = self
        return self

    def __exit__(self, *exc_info: Any) -> None:
        DEFAULT[0] = _ENTERED.pop() if _ENTERED else None


builtin_type = type
Device.__name__ = Device.__qualname__ = "device"  # torch's name, in messages and reprs


def _parse(text: str) -> tuple[str, int | None]:
    match = _DEVICE_STRING.fullmatch(text)
    if match is None:
        raise RuntimeError(f"Invalid device string: '{text}'")
    if match.group(1) not in DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of "
                           f"device string: {text}")
    return match.group(1), None if match.group(2) is None else int(match.group(2))


CPU = Device("cpu")


# The device a factory (torch.zeros, torch.randn, nn.Linear's parameters, ...) uses when none is
# given: torch.set_default_device, or `with torch.device(...)` (engine/api.py resets it per run).
DEFAULT: list[Device | None] = [None]
_ENTERED: list[Device | None] = []  # what each `with torch.device(...)` replaced


def set_default(device: Any) -> None:
    """torch.set_default_device: a device string or torch.device (checked when used), None
    for the CPU again."""
    DEFAULT[0] = None if device is None else Device(device)


def get_default() -> Device:
    """torch.get_default_device: PyTorch makes an empty tensor there to find out."""
    check_factory(None)
    return CPU


def reset_default() -> None:
    DEFAULT[0] = None
    _ENTERED.clear()


def check_factory(device: Any) -> None:
    """The `device=` argument of a factory: the default device when it is None."""
    check(DEFAULT[0] if device is None else device)


def check(device: Any) -> None:
    """A `device=` argument: the CPU (a string, a torch.device or None) or torch's error."""
    if device is None or device is CPU:
        return
    target = Device(device)
    if target.type == "cpu":
        return
    if target.type == "cuda":
        raise AssertionError(NO_CUDA)
    if target.type == "meta":
        raise NotImplementedError("tensors on the 'meta' device are not supported by agraph")
    raise RuntimeError(f"PyTorch is not linked with support for {target.type} devices")


def is_device(value: Any) -> bool:
    """An argument of `Tensor.to` / `Module.to` that names a device."""
    return isinstance(value, (str, Device)) or (
        isinstance(value, int) and not isinstance(value, bool))


def _cuda_unavailable(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError(NO_CUDA)


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def submodule(name: str, members: dict[str, Any]) -> Any:
    """`torch.cuda` and the like: an engine object whose public attributes are `members`."""
    attributes = {key: staticmethod(value) if isinstance(value, FunctionType) else value
                  for key, value in members.items()}
    kind = builtin_type(name.rpartition(".")[2], (), {
        "PUBLIC_ATTRS": frozenset(members), "__slots__": (),
        "__repr__": lambda self: f"<module '{name}'>", **attributes})
    return kind()


# `torch.cuda`, `torch.accelerator`, `torch.backends.mps` of a build without any accelerator
CUDA: dict[str, Any] = {
    "is_available": lambda: False,
    "device_count": lambda: 0,
    "is_initialized": lambda: False,
    "manual_seed": _nothing,
    "manual_seed_all": _nothing,
    "seed": _nothing,
    "empty_cache": _nothing,
    "current_device": _cuda_unavailable,
    "get_device_name": _cuda_unavailable,
    "synchronize": _cuda_unavailable,
}
ACCELERATOR: dict[str, Any] = {
    "is_available": lambda: False,
    "current_accelerator": _nothing,
    "device_count": lambda: 0,
}
MPS: dict[str, Any] = {"is_available": lambda: False, "is_built": lambda: False}
# torch.backends.mkl / mkldnn / openmp: the CPU libraries the recorded PyTorch build has
CPU_LIBRARY: dict[str, Any] = {"is_available": lambda: True}
# torch.version (CPU build); its __version__ is torch.__version__, the PyTorch whose behaviour
# agraph reproduces
VERSION: dict[str, Any] = {"__version__": "2.13.0+cpu", "cuda": None, "hip": None,
                           "debug": False}
for _table in (CUDA, ACCELERATOR, MPS, CPU_LIBRARY):
    for _name, _function in _table.items():
        if _function.__name__ == "<lambda>":
            _function.__name__ = _function.__qualname__ = _name
