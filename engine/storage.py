"""`t.storage()` and `t.storage_offset()`: the memory under a tensor and where the tensor starts.

A tensor's numpy array is a view of one array that owns the memory (its storage); views of the
same tensor (`t[1]`, `t.t()`) share it. `TypedStorage` is PyTorch's deprecated typed view of
that memory: indexing reads and writes single elements as Python numbers (a write changes every
tensor over the storage, without a version bump, as in PyTorch), and it prints as PyTorch prints
it. The first `storage()` of a run warns as PyTorch warns once in a process.
"""

from __future__ import annotations

import math
import warnings
import weakref
from typing import Any

import numpy as np

from engine import budget
from engine.device import CPU
from engine.registry import public
from engine.tensor import Tensor

DEPRECATION = ("TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
               "will be the only storage class. This should only matter to you if you are using "
               "storages directly.  To access UntypedStorage directly, use "
               "tensor.untyped_storage() instead of tensor.storage()")
_STATE = {"warned": False, "blocks numbered": 0}
# `t.data_ptr()`: a run numbers the memory blocks it is asked about in that order and places
# each 4 GiB after the one before (more than a run may hold), so two tensors give the same
# pointer exactly when they start at the same element of the same memory, as in PyTorch.
# A block is held weakly: once freed, a new block that gets its id gets a new number.
_POINTER_BASE = 0x7F1000000000
_POINTER_STEP = 1 << 32
_blocks: dict[int, tuple[weakref.ref[np.ndarray], int]] = {}  # id(owner) -> (owner, number)
# The C++ types PyTorch's overflow message names (float16 and float64 values never overflow).
C_TYPES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int",
           "int64": "int64_t", "float32": "float"}


def reset() -> None:
    """A fresh run warns again (engine/api.py's reset_state)."""
    _STATE["warned"] = False
    _STATE["blocks numbered"] = 0
    _blocks.clear()


def _owner(array: np.ndarray) -> np.ndarray:
    """The array that owns the memory `array` views (the last ndarray of its `base` chain)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _address(array: np.ndarray) -> int:
    return int(array.__array_interface__["data"][0])


class TypedStorage:
    """`torch.storage.TypedStorage`: the elements of a tensor's memory, in memory order."""

    PUBLIC_ATTRS = frozenset({"size", "tolist", "dtype", "device", "element_size", "nbytes"})

    def __init__(self, tensor: Tensor) -> None:
        owner = _owner(tensor.array)
        flat = owner.ravel(order="K")
        if flat.dtype != tensor.array.dtype:
            flat = flat.view(tensor.array.dtype)
        self._flat = flat
        self.dtype = tensor.dtype
        self.device = CPU

    def __len__(self) -> int:
        return int(self._flat.size)

    def size(self) -> int:
        return len(self)

    def element_size(self) -> int:
        return int(self._flat.itemsize)

    def nbytes(self) -> int:
        return int(self._flat.nbytes)

    def _position(self, index: Any) -> int:
        if isinstance(index, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if isinstance(index, bool) or not isinstance(index, int):
            raise RuntimeError(f"can't index a <class 'torch.storage.TypedStorage'> with "
                               f"{type(index)}")
        size = len(self)
        if not -size <= index < size:
            raise IndexError(f"index {index} out of range for storage of size {size}")
        return index % size

    def __getitem__(self, index: Any) -> Any:
        return self._flat[self._position(index)].item()

    def __setitem__(self, index: Any, value: Any) -> None:
        position = self._position(index)
        if isinstance(value, Tensor):
            value = value.item()
        if not isinstance(value, (bool, int, float)):
            raise TypeError(f"can't assign a {type(value).__name__} to a "
                            f"torch.{self.dtype.legacy_name}")
        self._flat[position] = self._checked(value)

    def _checked(self, value: bool | int | float) -> bool | int | float:
        """The value as c10's checked conversion lets it into this dtype (unsigned ints wrap
        from -max), or PyTorch's overflow errors."""
        if isinstance(value, int) and not isinstance(value, bool) and not (
                -2**63 <= value < 2**63):
            raise ValueError("Overflow when unpacking long long")
        kind = self._flat.dtype
        c_type = C_TYPES.get(kind.name)
        if c_type is None or isinstance(value, bool):
            return value
        if kind.kind in "iu":
            info = np.iinfo(kind)
            low = -int(info.max) if kind.kind == "u" else int(info.min)
            if not math.isfinite(value) or not low <= value <= int(info.max):
                raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
            return value % (int(info.max) + 1) if isinstance(value, int) and value < 0 \
                and kind.kind == "u" else value
        if math.isfinite(value) and abs(value) > float(np.finfo(kind).max):
            raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
        return value

    def __iter__(self) -> Any:
        return iter(self.tolist())

    def tolist(self) -> list[Any]:
        return budget.tolist(self._flat, "a storage")  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        kind = f"torch.storage.TypedStorage(dtype={self.dtype}, device={self.device})"
        return " " + "\n ".join(str(v) for v in self.tolist()) + f"\n[{kind} of size {len(self)}]"


@public(torch=False, method=True)
def storage(input: Tensor) -> TypedStorage:  # noqa: A002
    if not _STATE["warned"]:
        _STATE["warned"] = True
        warnings.warn(DEPRECATION, UserWarning, stacklevel=2)
    return TypedStorage(input)


@public(torch=False, method=True)
def storage_offset(input: Tensor) -> int:  # noqa: A002
    """Elements between the start of the storage and the tensor's first element."""
    array = input.array
    return (_address(array) - _address(_owner(array))) // max(array.itemsize, 1)



@public(torch=False, method=True)
def data_ptr(input: Tensor) -> int:  # noqa: A002
    """The address of the tensor's first element (0 for a tensor without elements)."""
    array = input.array
    if array.size == 0:
        return 0
    owner = _owner(array)
    known = _blocks.get(id(owner))
    if known is None or known[0]() is not owner:
        known = _blocks[id(owner)] = (weakref.ref(owner), _STATE["blocks numbered"])
        _STATE["blocks numbered"] += 1
    return _POINTER_BASE + known[1] * _POINTER_STEP + _address(array) - _address(owner)
