"""Tensors and numpy arrays: `Tensor.numpy()` and `torch.from_numpy(a)` share memory.

A program holds agraph's `ndarray` (engine/ndarray.py), never numpy's own; `t.numpy()` wraps
the tensor's array and `torch.from_numpy(a)` makes a tensor over the array's memory, so an
in-place change on either side shows on the other, as in PyTorch. `torch.tensor(a)` copies.
"""

from __future__ import annotations

from typing import Any

from engine import grad_mode
from engine.ndarray import NumpyArray, NumpyDType, NumpyFloat, scalar
from engine.tensor import Tensor

__all__ = ["NumpyArray", "NumpyDType", "NumpyFloat", "from_numpy", "scalar", "to_numpy"]
_TORCH_KINDS = "biuf"


def to_numpy(tensor: Any, force: bool = False) -> NumpyArray:
    """`Tensor.numpy()`: refused for a tensor that requires grad (with grad mode on), as torch
    does."""
    if tensor.requires_grad and grad_mode.is_grad_enabled() and not force:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                           "tensor.detach().numpy() instead.")
    return NumpyArray(tensor.array)


def from_numpy(array: Any) -> Any:
    """`torch.from_numpy(a)`: a tensor over the same memory."""
    if not isinstance(array, NumpyArray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    data = array._array
    if data.dtype.kind not in _TORCH_KINDS or data.dtype.byteorder == ">":
        raise TypeError(f"can't convert np.ndarray of type numpy.{data.dtype.type.__name__}. "
                        "The only supported types are: float64, float32, float16, complex64, "
                        "complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, "
                        "and bool.")
    return Tensor._wrap(data)
