"""Indexing: `t[i]`, `t[a:b]`, `t[None]`, `t[...]`, `t[list | tensor | mask]`, and `t[key] = v`.

PyTorch applies an index one item at a time: an integer selects (SelectBackward0), a slice
narrows (SliceBackward0), None unsqueezes; the lists, tensors and masks left over form one
advanced index (IndexBackward0) on the result. Assignment takes the same view and writes into
it in place (copy_, fill_ or index_put_), so the indexed tensor records CopySlices.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import budget, grad_mode
from engine.autograd import Function
from engine.ops.shape import Alias, unsqueeze, view_of
from engine.registry import public
from engine.tensor import Tensor, normalize_dim

BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
             "are valid indices (got {})")


class Scatter(Function):
    """Zeros of the indexed tensor's shape with `grad` added at `key`: indexing's backward."""

    grad_fn_name = "IndexPutImplBackward0"

    def forward(self, grad: np.ndarray, shape: tuple[int, ...], key: Any) -> np.ndarray:
        self.key = key
        out = np.zeros(shape, dtype=grad.dtype)
        np.add.at(out, key, grad)  # repeated indices add up
        return out

    def backward(self, grad, inputs, output):
        return (Index.apply(grad, key=self.key),)


class SelectScatter(Scatter):
    grad_fn_name = "SelectBackwardBackward0"

    def forward(self, grad: np.ndarray, shape: tuple[int, ...], key: Any) -> np.ndarray:
        self.key = key
        out = np.zeros(shape, dtype=grad.dtype)
        out[key] = grad
        return out

    def backward(self, grad, inputs, output):
        return (Select.apply(grad, key=self.key),)


class SliceScatter(SelectScatter):
    grad_fn_name = "SliceBackwardBackward0"


class Select(Function):
    """`t[i]` along one dim: a view."""

    grad_fn_name = "SelectBackward0"
    scatter = SelectScatter

    def forward(self, a: np.ndarray, key: tuple[Any, ...]) -> np.ndarray:
        self.key, self.input_shape = key, a.shape
        return a[key]

    def array_backward(self, grad, inputs, output):
        scatter = self.scatter  # its op's kernel, on the array
        return (scatter.__new__(scatter).forward(grad, shape=self.input_shape, key=self.key),)

    def backward(self, grad, inputs, output):
        return (self.scatter.apply(grad, shape=self.input_shape, key=self.key),)


class Slice(Select):
    """`t[a:b:c]` along one dim: a view."""

    grad_fn_name = "SliceBackward0"
    scatter = SliceScatter


class Index(Function):
    """Advanced indexing with integer arrays and masks: a copy; repeats add up in backward."""

    grad_fn_name = "IndexBackward0"
    saves_state = True  # PyTorch saves the index tensors
    released_state = ("key",)

    def forward(self, a: np.ndarray, key: tuple[Any, ...]) -> np.ndarray:
        self.key, self.input_shape = key, a.shape
        return a[key]

    def array_backward(self, grad, inputs, output):  # Scatter's kernel, on the array
        return (Scatter.__new__(Scatter).forward(grad, shape=self.input_shape, key=self.key),)

    def backward(self, grad, inputs, output):
        return (Scatter.apply(grad, shape=self.input_shape, key=self.key),)


@public(method=True)
def select(tensor: Tensor, dim: int, index: int) -> Tensor:
    d = normalize_dim(dim, tensor.ndim)
    size = tensor.shape_tuple[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(tensor.shape_tuple)} at dimension {d}")
    return select_along(tensor, d, index)


def select_along(tensor: Tensor, dim: int, index: int) -> Tensor:
    if tensor.ndim == 0:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    size = tensor.shape_tuple[dim]
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    key = (slice(None),) * dim + (index, Ellipsis)  # Ellipsis: a 0-d view, not a scalar
    return view_of(tensor, Select.apply(tensor, key=key))


def slice_along(tensor: Tensor, dim: int, item: slice) -> Tensor:
    if item.step is not None and item.step <= 0:
        raise ValueError("step must be greater than zero")
    key = (slice(None),) * dim + (item,)
    return view_of(tensor, Slice.apply(tensor, key=key))


def _index_array(item: Any) -> np.ndarray | None:
    """A list or tensor index as a numpy array (None for anything that is not one)."""
    if isinstance(item, Tensor):
        array = item.array
    elif isinstance(item, range):  # torch reads a range like the list of its items
        budget.check_shape((len(item),), 8)
        array = np.arange(item.start, item.stop, item.step, dtype=np.int64)
    elif isinstance(item, (list, tuple)):
        try:
            array = np.asarray([x.item() if isinstance(x, Tensor) else x for x in item])
        except (TypeError, ValueError):
            return None
        if array.dtype.kind not in "biu":
            if array.size:
                return None
            array = array.astype(np.int64)
    else:
        return None
    if array.dtype.kind not in "biu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return array


def _is_integer(item: Any) -> bool:
    return (isinstance(item, int) and not isinstance(item, bool)) or (
        isinstance(item, Tensor) and item.ndim == 0 and item.array.dtype.kind in "iu")


def _check_zero_dim_index(index: Any) -> None:
    """A lone integer or slice on a 0-dim tensor: PyTorch's select and slice errors."""
    if isinstance(index, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(index, (int, np.integer)) and not isinstance(index, bool):
        if index == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                             "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"index {index} is out of bounds for dimension 0 with size 0")


def basic_index(tensor: Tensor, index: Any, skip_full_slices: bool
                ) -> tuple[Tensor, list[tuple[int, np.ndarray]]]:
    """Apply the integers, slices, None and Ellipsis of `index`, item by item.

    Returns the view so far and the advanced items left: (dim in that view, index array).
    """
    if tensor.ndim == 0 and not isinstance(index, tuple):
        _check_zero_dim_index(index)
    items = index if isinstance(index, tuple) else (index,)
    arrays: list[np.ndarray | None] = [None] * len(items)
    consumed = 0
    for i, item in enumerate(items):
        if item is None or item is Ellipsis or isinstance(item, bool):
            continue
        if _is_integer(item) or isinstance(item, slice):
            consumed += 1
            continue
        array = _index_array(item)
        if array is None:
            raise IndexError(BAD_INDEX.format(type(item).__name__))
        arrays[i] = array
        consumed += array.ndim if array.dtype == np.bool_ else 1
    if consumed > tensor.ndim:
        raise IndexError(f"too many indices for tensor of dimension {tensor.ndim}")
    result, dim = tensor, 0
    advanced: list[tuple[int, np.ndarray]] = []
    for item, array in zip(items, arrays, strict=True):
        if item is None:
            result, dim = unsqueeze(result, dim), dim + 1
        elif item is Ellipsis:
            dim += tensor.ndim - consumed
        elif isinstance(item, bool):
            result = unsqueeze(result, dim)
            advanced.append((dim, np.array([item])))
            dim += 1
        elif _is_integer(item):
            result = select_along(result, dim, int(item))
        elif isinstance(item, slice):
            full = item.start in (None, 0) and item.stop is None and item.step in (None, 1)
            if not (full and skip_full_slices):
                result = slice_along(result, dim, item)
            dim += 1
        else:
            assert array is not None
            advanced.append((dim, array))
            dim += array.ndim if array.dtype == np.bool_ else 1
    return result, advanced


def _advanced_key(tensor: Tensor, advanced: list[tuple[int, np.ndarray]]) -> tuple[Any, ...]:
    """The numpy key for the advanced items, with PyTorch's bounds and mask-shape errors."""
    key: list[Any] = []
    dim = 0
    for start, array in advanced:
        key.extend([slice(None)] * (start - dim))
        if array.dtype == np.bool_:
            shape = tensor.shape_tuple[start:start + array.ndim]
            if array.shape != shape:
                mismatch = next(i for i, (a, b) in enumerate(zip(array.shape, shape, strict=True))
                                if a != b)
                raise IndexError(f"The shape of the mask {list(array.shape)} at index {mismatch} "
                                 "does not match the shape of the indexed tensor "
                                 f"{list(tensor.shape_tuple)} at index {start + mismatch}")
            dim = start + array.ndim
        else:
            size = tensor.shape_tuple[start]
            bad = array[(array >= size) | (array < -size)]
            if bad.size:
                raise IndexError(f"index {bad.flat[0]} is out of bounds for dimension {start} "
                                 f"with size {size}")
            dim = start + 1
        key.append(array)
    return tuple(key)


def getitem(tensor: Tensor, index: Any) -> Tensor:
    if isinstance(index, list) and any(isinstance(x, (list, slice, type(None), type(...)))
                                       for x in index):
        index = tuple(index)  # PyTorch's (deprecated) reading of a list of index items
    view, advanced = basic_index(tensor, index, skip_full_slices=isinstance(index, tuple))
    if advanced:
        key = _advanced_key(view, advanced)
        budget.check_shape(advanced_shape(view.shape_tuple, key), 8)
        return Index.apply(view, key=key)
    if view is tensor:
        return view_of(tensor, Alias.apply(tensor))
    return view


def advanced_shape(shape: tuple[int, ...], key: tuple[Any, ...]) -> tuple[int, ...]:
    """The shape of `array[key]` for an array of `shape`, computed from the shapes alone (the
    result of indexing with broadcast index arrays can be far bigger than the array).

    `key` is what _advanced_key makes: full slices and index arrays (integer, or boolean masks
    that stand for one integer array per dim they cover). numpy's rule: the index arrays
    broadcast together; their shape takes their place when they are adjacent in the key, else
    it comes first.
    """
    index_shapes: list[tuple[int, ...]] = []
    kept: list[int] = []  # the sizes of the dims that full slices keep, in order
    first = last = -1  # the positions in the key of the first and last index array
    dim = 0
    for position, item in enumerate(key):
        if isinstance(item, slice):
            kept.append(shape[dim])
            dim += 1
            continue
        if first < 0:
            first = position
        last = position
        if item.dtype == np.bool_:
            index_shapes.append((int(np.count_nonzero(item)),))
            dim += item.ndim
        else:
            index_shapes.append(item.shape)
            dim += 1
    try:
        broadcast = np.broadcast_shapes(*index_shapes)
    except ValueError:  # numpy's own IndexError, from a view that costs no memory
        _ = np.broadcast_to(np.empty((), dtype=np.bool_), shape)[key]
        raise
    rest = tuple(shape[dim:])
    if first < 0:
        return tuple(kept) + rest
    if any(isinstance(item, slice) for item in key[first:last + 1]):  # not adjacent
        return broadcast + tuple(kept) + rest
    before = sum(1 for item in key[:first] if isinstance(item, slice))
    return tuple(kept[:before]) + broadcast + tuple(kept[before:]) + rest


# --- assignment ----------------------------------------------------------------------------------

class IndexPut(Function):
    """`t[index] = values` with an advanced index (index_put_)."""

    grad_fn_name = "IndexPutBackward0"
    saves_state = True
    released_state = ("key",)

    def forward(self, a: np.ndarray, values: np.ndarray, key: tuple[Any, ...]) -> np.ndarray:
        self.key = key
        out = a.copy()
        try:
            out[key] = values
        except ValueError:
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.shape)} "
                               "cannot be broadcast to indexing result of shape "
                               f"{list(advanced_shape(out.shape, key))}") from None
        return out

    def backward(self, grad, inputs, output):
        keep = np.ones(grad.shape_tuple, dtype=grad.array.dtype)
        keep[self.key] = 0
        return grad * Tensor._wrap(keep), Index.apply(grad, key=self.key)


def setitem(tensor: Tensor, index: Any, value: Any) -> None:
    """`tensor[index] = value`: write into the indexed view in place, as PyTorch does."""
    if isinstance(index, list) and any(isinstance(x, (list, slice, type(None), type(...)))
                                       for x in index):
        index = tuple(index)
    view, advanced = basic_index(tensor, index, skip_full_slices=True)
    if not isinstance(value, Tensor):
        if not isinstance(value, (bool, int, float)):
            raise TypeError(f"can't assign a {type(value).__name__} to a "
                            f"{tensor.dtype.legacy_name}")
        value = Tensor._wrap(np.asarray(value, dtype=tensor.array.dtype))
    if value.ndim > view.ndim:
        value = _without_leading_ones(value)
    if advanced:
        key = _advanced_key(view, advanced)
        budget.check_shape(advanced_shape(view.shape_tuple, key), 8)  # the places written
        view.assign_inplace(IndexPut.apply(view, value, key=key) if _records(view, value)
                            else _put_plain(view, value, key))
    elif value.shape_tuple != view.shape_tuple and value.ndim == 0:
        view.fill_(value)  # PyTorch's copy_to: a 0-dim value fills
    else:
        if value.shape_tuple != view.shape_tuple:
            with grad_mode.no_grad():  # PyTorch's copy_to expands the value: expand's errors
                value.expand(view.shape_tuple)
        view.copy_(value)


def _without_leading_ones(value: Tensor) -> Tensor:
    """PyTorch views a value with more dims than its slot without its leading 1s before it
    copies (`w[0] = torch.tensor([[-5.]])` into a 1-element row); more dims stay an error."""
    shape = value.shape_tuple
    start = next((i for i, size in enumerate(shape) if size != 1), len(shape))
    return value.view(shape[start:]) if start else value


def _records(view: Tensor, value: Tensor) -> bool:
    return grad_mode.is_grad_enabled() and (view.requires_grad or value.requires_grad)


def _put_plain(view: Tensor, value: Tensor, key: tuple[Any, ...]) -> Tensor:
    return Tensor._wrap(IndexPut().forward(view.array, value.array, key))


# --- the flat positions of a view, for in-place ops through views --------------------------------

def view_positions(view: np.ndarray, base: np.ndarray) -> np.ndarray:
    """For each element of `view` (which lies in `base`'s memory), its flat index in `base`."""
    if view.size + base.size > 65536:  # a few int64 tables of both sizes (a view may be expanded)
        budget.check_bytes(24 * (view.size + base.size), "the positions in its base of shape "
                           f"{list(base.shape)} of a view of shape {list(view.shape)}")

    def byte_offsets(array: np.ndarray) -> np.ndarray:
        offsets = np.zeros(array.shape, dtype=np.int64)
        for axis, (size, stride) in enumerate(zip(array.shape, array.strides, strict=True)):
            shape = [1] * array.ndim
            shape[axis] = size
            offsets = offsets + np.arange(size, dtype=np.int64).reshape(shape) * stride
        return offsets

    start = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0])
    wanted = byte_offsets(view) + start
    base_offsets = byte_offsets(base).ravel()
    order = np.argsort(base_offsets, kind="stable")
    return order[np.searchsorted(base_offsets[order], wanted)]


class AsStrided(Function):
    """A view seen from its base after an in-place change (PyTorch's AsStridedBackward0)."""

    grad_fn_name = "AsStridedBackward0"

    def forward(self, base: np.ndarray, positions: np.ndarray) -> np.ndarray:
        self.positions, self.base_shape = positions, base.shape
        return base.reshape(-1)[positions]

    def backward(self, grad, inputs, output):
        size = int(np.prod(self.base_shape, dtype=np.int64))
        flat = Scatter.apply(grad, shape=(size,), key=(self.positions,))
        return (flat.reshape(self.base_shape),)

    @classmethod
    def attach(cls, base: Tensor, view: Tensor) -> None:
        """Give `view` the history of its base's elements (its data is already there)."""
        node = cls()
        node.positions = view_positions(view.array, base.array)
        node.base_shape = base.array.shape
        node.connect((base,), view)
        view._view_version = view._version[0]


class PutFlat(Function):
    """`base` with the elements at `positions` replaced by `values`."""

    grad_fn_name = "AsStridedScatterBackward0"

    def forward(self, base: np.ndarray, values: np.ndarray, positions: np.ndarray
                ) -> np.ndarray:
        self.positions = positions
        out = base.copy().reshape(-1)
        out[positions.ravel()] = np.broadcast_to(values, positions.shape).ravel()
        return out.reshape(base.shape)

    def backward(self, grad, inputs, output):
        zeros = Tensor._wrap(np.zeros(self.positions.shape, dtype=grad.array.dtype))
        return put_flat(grad, self.positions, zeros), take_flat(grad, self.positions)


def take_flat(tensor: Tensor, positions: np.ndarray) -> Tensor:
    return AsStrided.apply(tensor, positions=positions)


def put_flat(base: Tensor, positions: np.ndarray, values: Tensor) -> Tensor:
    return PutFlat.apply(base, values, positions=positions)
