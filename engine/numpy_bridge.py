"""What `Tensor.numpy()` hands a program: a read-only stand-in for the numpy array.

A real numpy array would open numpy's whole surface to a program (`tofile`, `save`, ...), so
a program gets an `ndarray` that shows the array exactly as numpy prints it and offers the
harmless part: `shape`, `dtype`, `ndim`, `size`, `tolist()`, `item()`, `len()`, iteration and
indexing (Python numbers for the elements, stand-ins for sub-arrays). It shares the tensor's
memory, as torch's does (changes to the tensor show through). `torch.from_numpy(a)`,
`torch.tensor(a)` and `torch.as_tensor(a)` turn it back into a tensor.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from engine import budget

_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                "integer or boolean arrays are valid indices")


class NumpyDType:
    """`a.dtype`: prints as numpy's (`float32`; `dtype('float32')` as a repr)."""

    PUBLIC_ATTRS = frozenset({"name", "itemsize", "kind"})
    __slots__ = ("_dtype",)

    def __init__(self, dtype: np.dtype) -> None:
        self._dtype = dtype

    @property
    def name(self) -> str:
        return str(self._dtype.name)

    @property
    def itemsize(self) -> int:
        return int(self._dtype.itemsize)

    @property
    def kind(self) -> str:
        return str(self._dtype.kind)

    def __repr__(self) -> str:
        return repr(self._dtype)

    def __str__(self) -> str:
        return str(self._dtype)

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, NumpyDType):
            return bool(self._dtype == other._dtype)
        if isinstance(other, str):
            try:
                return bool(self._dtype == np.dtype(other))
            except TypeError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._dtype)


class NumpyFloat(float):
    """A floating-point element (`a[0]`): a Python float that prints as numpy's scalar does
    (`0.1` for a float32 0.1, `np.float32(0.1)` as a repr) and computes in its precision."""

    PUBLIC_ATTRS = frozenset({"item", "dtype"})
    __slots__ = ("_scalar",)
    _scalar: np.floating[Any]

    def __new__(cls, scalar: np.floating[Any]) -> NumpyFloat:
        value = float.__new__(cls, float(scalar))
        value._scalar = scalar
        return value

    def __repr__(self) -> str:
        return repr(self._scalar)

    def __str__(self) -> str:
        return str(self._scalar)

    def __format__(self, spec: str) -> str:
        return format(self._scalar, spec)

    @property
    def dtype(self) -> NumpyDType:
        return NumpyDType(self._scalar.dtype)

    def item(self) -> float:
        return float(self)

    def _apply(self, operation: Any, other: Any, reflected: bool = False) -> Any:
        if isinstance(other, NumpyFloat):
            other = other._scalar
        elif not isinstance(other, (int, float)) or isinstance(other, np.generic):
            return NotImplemented
        result = operation(other, self._scalar) if reflected else operation(self._scalar, other)
        return scalar(result)

    def __add__(self, other: Any) -> Any:
        return self._apply(np.add, other)

    def __radd__(self, other: Any) -> Any:
        return self._apply(np.add, other, True)

    def __sub__(self, other: Any) -> Any:
        return self._apply(np.subtract, other)

    def __rsub__(self, other: Any) -> Any:
        return self._apply(np.subtract, other, True)

    def __mul__(self, other: Any) -> Any:
        return self._apply(np.multiply, other)

    def __rmul__(self, other: Any) -> Any:
        return self._apply(np.multiply, other, True)

    def __truediv__(self, other: Any) -> Any:
        return self._apply(np.true_divide, other)

    def __rtruediv__(self, other: Any) -> Any:
        return self._apply(np.true_divide, other, True)

    def __neg__(self) -> Any:
        return scalar(-self._scalar)


NumpyFloat.__name__ = NumpyFloat.__qualname__ = "floating"


def scalar(value: Any) -> Any:
    """An element as a program sees it: a NumpyFloat, or a Python int / bool."""
    if isinstance(value, np.floating):
        return NumpyFloat(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


class NumpyArray:
    """The read-only stand-in for `tensor.numpy()` (shown to programs as `ndarray`)."""

    PUBLIC_ATTRS = frozenset({"shape", "dtype", "ndim", "size", "tolist", "item", "T"})
    __slots__ = ("_array",)

    def __init__(self, array: np.ndarray) -> None:
        self._array = array

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(int(n) for n in self._array.shape)

    @property
    def dtype(self) -> NumpyDType:
        return NumpyDType(self._array.dtype)

    @property
    def ndim(self) -> int:
        return int(self._array.ndim)

    @property
    def T(self) -> NumpyArray:  # noqa: N802 - numpy's name
        return NumpyArray(self._array.T)

    @property
    def size(self) -> int:
        return int(self._array.size)

    def tolist(self) -> Any:
        from engine.tensor import python_list_bytes

        array = self._array
        if array.size > 4096 or array.ndim > 1:
            budget.check_bytes(python_list_bytes(array.shape), f"tolist() of an array of shape "
                               f"{list(array.shape)} makes {array.size} Python numbers")
        return array.tolist()

    def item(self, *args: Any) -> Any:
        if args:
            raise TypeError("item() with arguments is not supported by agraph")
        if self._array.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self._array.item()

    def __repr__(self) -> str:
        return repr(self._array)

    def __str__(self) -> str:
        return str(self._array)

    def __len__(self) -> int:
        if self._array.ndim == 0:
            raise TypeError("len() of unsized object")
        return int(self._array.shape[0])

    def __iter__(self) -> Iterator[Any]:
        if self._array.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        for index in range(self._array.shape[0]):
            yield self[index]

    def __getitem__(self, key: Any) -> Any:
        index = _index(key)
        parts = index if isinstance(index, tuple) else (index,)
        picked = [np.size(part) for part in parts if isinstance(part, (list, np.ndarray))
                  and np.asarray(part).dtype.kind != "b"]
        if picked:  # integer-array indexing copies: at most (indices x elements), bounded
            budget.check_shape((int(np.prod(picked)), self._array.size), self._array.itemsize)
        result = self._array[index]
        if isinstance(result, np.ndarray):
            return NumpyArray(result)
        return scalar(result)

    def __bool__(self) -> bool:
        if self._array.size != 1:
            raise ValueError("The truth value of an array with more than one element is "
                             "ambiguous. Use a.any() or a.all()")
        return bool(self._array.reshape(()))

    def __setitem__(self, key: Any, value: Any) -> None:
        raise TypeError("agraph's arrays from Tensor.numpy() are read-only: change the "
                        "tensor instead")


NumpyArray.__name__ = NumpyArray.__qualname__ = "ndarray"
NumpyDType.__name__ = NumpyDType.__qualname__ = "dtype"


def _index(key: Any) -> Any:
    """An index numpy may see: ints, slices, None, Ellipsis, int/bool lists and arrays."""
    if isinstance(key, tuple):
        return tuple(_index_part(part) for part in key)
    return _index_part(key)


def _index_part(part: Any) -> Any:
    if part is None or part is Ellipsis or isinstance(part, (bool, int, slice)):
        if isinstance(part, slice):
            for bound in (part.start, part.stop, part.step):
                if bound is not None and not isinstance(bound, int):
                    raise TypeError("slice indices must be integers or None or have an "
                                    "__index__ method")
        return part
    if isinstance(part, NumpyArray):
        return part._array
    if isinstance(part, list) and all(isinstance(item, (bool, int)) for item in part):
        return part
    from engine.tensor import Tensor

    if isinstance(part, Tensor) and part.array.dtype.kind in "biu":
        return part.array
    raise IndexError(_INDEX_ERROR)


def to_numpy(tensor: Any, force: bool = False) -> NumpyArray:
    """`Tensor.numpy()`: refused for a tensor that requires grad (with grad mode on), as torch
    does."""
    from engine import grad_mode

    if tensor.requires_grad and grad_mode.is_grad_enabled() and not force:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                           "tensor.detach().numpy() instead.")
    return NumpyArray(tensor.array)


def from_numpy(array: Any) -> Any:
    """`torch.from_numpy(a)`: a tensor over the same memory."""
    from engine.tensor import Tensor

    if not isinstance(array, NumpyArray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return Tensor._wrap(array._array)
