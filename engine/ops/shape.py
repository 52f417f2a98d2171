"""Ops that move, select or copy elements: views, indexing, cat/stack, casts and copies."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import grad_mode
from engine.autograd import Function
from engine.tensor import Tensor, normalize_dim


def _shape_arg(shape: tuple[Any, ...]) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s) for s in shape)


class SumToSize(Function):
    """The engine's reduction of a broadcast gradient back to an input's shape."""

    grad_fn_name = "SumToSizeBackward0"

    def forward(self, a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        self.input_shape = a.shape
        lead = a.ndim - len(shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, size in enumerate(shape) if size == 1 and a.shape[lead + i] != 1)
        out = a.sum(axis=axes, keepdims=True) if axes else a
        return out.reshape(shape)

    def backward(self, grad, inputs, output):
        return (expand(grad, self.input_shape),)


def sum_to(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    return SumToSize.apply(tensor, shape=shape)


class View(Function):
    grad_fn_name = "ViewBackward0"

    def forward(self, a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        self.input_shape = a.shape
        try:
            return a.reshape(shape)
        except ValueError:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {a.size}"
                               ) from None

    def backward(self, grad, inputs, output):
        return (reshape(grad, self.input_shape),)


class UnsafeView(View):
    grad_fn_name = "UnsafeViewBackward0"


def reshape(tensor: Tensor, *shape: Any) -> Tensor:
    return _view_of(tensor, View.apply(tensor, shape=_shape_arg(shape)))


def view(tensor: Tensor, *shape: Any) -> Tensor:
    if len(shape) == 1 and not isinstance(shape[0], (int, tuple, list)):
        return tensor.to(shape[0])
    return reshape(tensor, *shape)


def flatten(tensor: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    shape = tensor.shape_tuple
    if not shape:
        return reshape(tensor, 1)
    start, end = normalize_dim(start_dim, len(shape)), normalize_dim(end_dim, len(shape))
    if start == end:
        return tensor
    new = shape[:start] + (int(np.prod(shape[start:end + 1])),) + shape[end + 1:]
    return reshape(tensor, new)


def _view_of(base: Tensor, out: Tensor) -> Tensor:
    """Views share the version counter (and storage) with their base, as in PyTorch."""
    if np.shares_memory(out.array, base.array):
        out._version = base._version
        out._base = base._base if base._base is not None else base
    return out


class Permute(Function):
    grad_fn_name = "PermuteBackward0"

    def forward(self, a: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        if sorted(dims) != list(range(a.ndim)):
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input "
                               "does not match the length of the desired ordering of dimensions "
                               "i.e. input.dim() = {} is not equal to len(dims) = {}".format(
                                   a.ndim, len(dims)))
        self.dims = dims
        return a.transpose(dims)

    def backward(self, grad, inputs, output):
        return (permute(grad, *np.argsort(self.dims).tolist()),)


class Transpose(Permute):
    grad_fn_name = "TransposeBackward0"


class T(Permute):
    grad_fn_name = "TBackward0"


def permute(tensor: Tensor, *dims: Any) -> Tensor:
    dims_t = tuple(normalize_dim(d, tensor.ndim) for d in _shape_arg(dims))
    return _view_of(tensor, Permute.apply(tensor, dims=dims_t))


def transpose(tensor: Tensor, dim0: int, dim1: int) -> Tensor:
    n = tensor.ndim
    order = list(range(n))
    d0, d1 = normalize_dim(dim0, n), normalize_dim(dim1, n)
    order[d0], order[d1] = order[d1], order[d0]
    return _view_of(tensor, Transpose.apply(tensor, dims=tuple(order)))


def t(tensor: Tensor) -> Tensor:
    if tensor.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{tensor.ndim}D")
    return _view_of(tensor, T.apply(tensor, dims=tuple(reversed(range(tensor.ndim)))))


class Squeeze(Function):
    grad_fn_name = "SqueezeBackward0"

    def forward(self, a: np.ndarray, dims: tuple[int, ...] | None) -> np.ndarray:
        self.input_shape = a.shape
        if dims is None:
            return a.reshape(tuple(s for s in a.shape if s != 1))
        return a.reshape(tuple(s for i, s in enumerate(a.shape) if not (i in dims and s == 1)))

    def backward(self, grad, inputs, output):
        return (reshape(grad, self.input_shape),)


class SqueezeDim(Squeeze):
    grad_fn_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    grad_fn_name = "SqueezeBackward2"


def squeeze(tensor: Tensor, dim: Any = None) -> Tensor:
    if dim is None:
        return _view_of(tensor, Squeeze.apply(tensor, dims=None))
    if isinstance(dim, (tuple, list)):
        dims = tuple(normalize_dim(d, tensor.ndim) for d in dim)
        return _view_of(tensor, SqueezeDims.apply(tensor, dims=dims))
    return _view_of(tensor, SqueezeDim.apply(tensor, dims=(normalize_dim(dim, tensor.ndim),)))


class Unsqueeze(Function):
    grad_fn_name = "UnsqueezeBackward0"

    def forward(self, a: np.ndarray, dim: int) -> np.ndarray:
        self.dim = dim
        return np.expand_dims(a, dim)

    def backward(self, grad, inputs, output):
        return (squeeze(grad, self.dim),)


def unsqueeze(tensor: Tensor, dim: int) -> Tensor:
    return _view_of(tensor, Unsqueeze.apply(tensor, dim=normalize_dim(dim, tensor.ndim + 1)))


class Expand(Function):
    grad_fn_name = "ExpandBackward0"

    def forward(self, a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        self.input_shape = a.shape
        if len(shape) < a.ndim:
            raise RuntimeError(f"expand(torch.FloatTensor{{{list(a.shape)}}}, size={list(shape)})"
                               ": the number of sizes provided ({len(shape)}) must be greater or "
                               f"equal to the number of dimensions in the tensor ({a.ndim})")
        lead = len(shape) - a.ndim
        target = tuple(a.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
        try:
            return np.broadcast_to(a, target)
        except ValueError:
            raise RuntimeError(f"The expanded size of the tensor ({target[-1]}) must match the "
                               f"existing size ({a.shape[-1]}) at non-singleton dimension "
                               f"{len(target) - 1}.  Target sizes: {list(shape)}.  Tensor sizes: "
                               f"{list(a.shape)}") from None

    def backward(self, grad, inputs, output):
        return (sum_to(grad, self.input_shape),)


def expand(tensor: Tensor, *shape: Any) -> Tensor:
    from engine import budget

    target = _shape_arg(shape)
    budget.check_shape([abs(s) for s in target], tensor.array.itemsize)
    return _view_of(tensor, Expand.apply(tensor, shape=target))


def expand_as(tensor: Tensor, other: Tensor) -> Tensor:
    return expand(tensor, other.shape_tuple)


def reshape_as(tensor: Tensor, other: Tensor) -> Tensor:
    return reshape(tensor, other.shape_tuple)


def view_as(tensor: Tensor, other: Tensor) -> Tensor:
    return reshape(tensor, other.shape_tuple)


class Clone(Function):
    grad_fn_name = "CloneBackward0"

    def forward(self, a: np.ndarray) -> np.ndarray:
        return a.copy()

    def backward(self, grad, inputs, output):
        return (grad,)


def clone(tensor: Tensor, memory_format: Any = None) -> Tensor:
    return Clone.apply(tensor)


class ToCopy(Function):
    grad_fn_name = "ToCopyBackward0"

    def forward(self, a: np.ndarray, dtype: np.dtype) -> np.ndarray:
        self.input_dtype = a.dtype
        return a.astype(dtype)

    def backward(self, grad, inputs, output):
        return (grad.to_numpy_dtype(self.input_dtype),)

    @classmethod
    def apply(cls, *args: Any, **params: Any) -> Tensor:
        out = super().apply(*args, **params)
        if not np.dtype(params["dtype"]).kind == "f" and out.grad_fn is not None:
            out.grad_fn, out._requires_grad = None, False  # integer results are constants
        return out


class Fill(Function):
    """`t.fill_(v)` / `t.zero_()`: the result does not depend on the old values."""

    grad_fn_name = "FillBackward0"

    def forward(self, a: np.ndarray, value: Any) -> np.ndarray:
        return np.full(a.shape, value, dtype=a.dtype)

    def backward(self, grad, inputs, output):
        return (grad * 0, None)


class FillTensor(Fill):
    grad_fn_name = "FillBackward1"

    def backward(self, grad, inputs, output):
        return (grad * 0, grad.sum())


class Copy(Function):
    """`t.copy_(src)`: PyTorch names its node CopyBackwards."""

    grad_fn_name = "CopyBackwards"

    def forward(self, a: np.ndarray, src: np.ndarray) -> np.ndarray:
        self.src_dtype = src.dtype
        try:
            return np.broadcast_to(src, a.shape).astype(a.dtype)
        except ValueError:
            raise RuntimeError(f"The size of tensor a ({a.shape[-1] if a.ndim else 1}) must "
                               f"match the size of tensor b ({src.shape[-1] if src.ndim else 1})"
                               f" at non-singleton dimension {max(a.ndim - 1, 0)}") from None

    def backward(self, grad, inputs, output):
        return (grad * 0, grad.to_numpy_dtype(self.src_dtype))


# --- indexing ----------------------------------------------------------------------------------

def _index_key(index: Any, ndim: int) -> Any:
    """A python/tensor index as numpy understands it, refusing what PyTorch refuses."""
    items = index if isinstance(index, tuple) else (index,)
    key = []
    for item in items:
        if isinstance(item, Tensor):
            if item.array.dtype.kind == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool "
                                 "tensors")
            key.append(item.array)
        elif isinstance(item, list):
            key.append(np.asarray(item))
        elif item is None or item is Ellipsis or isinstance(item, (int, slice, bool)):
            if isinstance(item, slice) and item.step is not None and item.step <= 0:
                raise ValueError("step must be greater than zero")
            key.append(item)
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or "
                             "byte Variables are valid indices (got "
                             f"{type(item).__name__})")
    return tuple(key)


def _is_basic(key: tuple[Any, ...]) -> bool:
    return all(item is None or item is Ellipsis or isinstance(item, (int, slice))
               and not isinstance(item, bool) for item in key)


class Index(Function):
    """Basic and advanced indexing: the grad is scattered back (and adds up on repeats)."""

    grad_fn_name = "IndexBackward0"

    def forward(self, a: np.ndarray, key: Any) -> np.ndarray:
        self.key = key
        self.input_shape = a.shape
        self.input_dtype = a.dtype
        try:
            return a[key]
        except IndexError as error:
            raise IndexError(_index_message(str(error), a.shape)) from None

    def backward(self, grad, inputs, output):
        return (IndexScatter.apply(grad, shape=self.input_shape, key=self.key),)


class Select(Index):
    grad_fn_name = "SelectBackward0"


class Slice(Index):
    grad_fn_name = "SliceBackward0"


class IndexScatter(Function):
    """The backward of indexing: zeros of the input's shape with the grad added at `key`."""

    grad_fn_name = "IndexPutBackward0"

    def forward(self, grad: np.ndarray, shape: tuple[int, ...], key: Any) -> np.ndarray:
        self.key = key
        out = np.zeros(shape, dtype=grad.dtype)
        if _is_basic(key):
            out[key] += grad
        else:
            np.add.at(out, key, grad)  # repeated indices add up
        return out

    def backward(self, grad, inputs, output):
        return (grad[self.key] if isinstance(self.key, tuple) else grad[self.key],)


def _index_message(message: str, shape: tuple[int, ...]) -> str:
    # numpy: "index 5 is out of bounds for axis 0 with size 3" -> PyTorch's wording.
    parts = message.split()
    if message.startswith("index ") and "out of bounds for axis" in message:
        return (f"index {parts[1]} is out of bounds for dimension {parts[7]} with size "
                f"{parts[-1]}")
    if "too many indices" in message:
        return f"too many indices for tensor of dimension {len(shape)}"
    return message


def getitem(tensor: Tensor, index: Any) -> Tensor:
    key = _index_key(index, tensor.ndim)
    if _is_basic(key):
        last = next((item for item in reversed(key) if item is not None and item is not
                     Ellipsis), None)
        op: type[Index] = Select if isinstance(last, int) else Slice
        if all(item is None or item is Ellipsis or item == slice(None) for item in key):
            op = Slice if key else Index
        out = _view_of(tensor, op.apply(tensor, key=key))
        return out
    return Index.apply(tensor, key=key)


class CopySlices(Function):
    """`t[key] = value`: the result is t with the selected elements replaced."""

    grad_fn_name = "CopySlices"

    def forward(self, a: np.ndarray, value: np.ndarray, key: Any) -> np.ndarray:
        self.key = key
        self.value_shape = value.shape
        out = a.copy()
        try:
            out[key] = value
        except ValueError:
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(value.shape)} "
                               f"cannot be broadcast to indexing result of shape "
                               f"{list(np.shape(out[key]))}") from None
        return out

    def backward(self, grad, inputs, output):
        keep = np.ones(grad.shape, dtype=grad.array.dtype)
        keep[self.key] = 0
        grad_value = Index.apply(grad, key=self.key)
        return grad * Tensor._wrap(keep), grad_value


def setitem(tensor: Tensor, index: Any, value: Any) -> None:
    key = _index_key(index, tensor.ndim)
    if not isinstance(value, Tensor):
        value = Tensor._wrap(np.asarray(value, dtype=tensor.array.dtype))
    if value.requires_grad or tensor.requires_grad:
        tensor.check_inplace()
        if grad_mode.is_grad_enabled():
            tensor.assign_inplace(CopySlices.apply(tensor, value, key=key))
            return
    tensor.check_inplace()
    try:
        tensor.array[key] = value.array
    except (ValueError, IndexError) as error:
        raise RuntimeError(str(error)) from None
    tensor.bump_version()


# --- joining and splitting ---------------------------------------------------------------------

class Cat(Function):
    grad_fn_name = "CatBackward0"

    def forward(self, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        self.dim = dim
        self.sizes = [a.shape[dim] for a in arrays]
        try:
            return np.concatenate(arrays, axis=dim)
        except ValueError:
            raise RuntimeError("Sizes of tensors must match except in dimension "
                               f"{dim}. Expected size {arrays[0].shape} but got "
                               f"{[a.shape for a in arrays[1:]]}") from None

    def backward(self, grad, inputs, output):
        grads, start = [], 0
        for size in self.sizes:
            key = (slice(None),) * self.dim + (slice(start, start + size),)
            grads.append(Index.apply(grad, key=key))
            start += size
        return grads


class Stack(Function):
    grad_fn_name = "StackBackward0"

    def forward(self, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        self.dim = dim
        try:
            return np.stack(arrays, axis=dim)
        except ValueError:
            raise RuntimeError("stack expects each tensor to be equal size, but got "
                               f"{list(arrays[0].shape)} at entry 0 and "
                               f"{next(list(a.shape) for a in arrays if a.shape != arrays[0].shape)}"
                               " at entry 1") from None

    def backward(self, grad, inputs, output):
        return [select(grad, self.dim, i) for i in range(len(inputs))]


def _tensor_list(tensors: Any, name: str) -> list[Tensor]:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"({type(tensors).__name__}), but expected one of: (tuple of Tensors "
                        "tensors, int dim)")
    if not tensors:
        raise RuntimeError(f"{name}(): expected a non-empty list of Tensors")
    for item in tensors:
        if not isinstance(item, Tensor):
            raise TypeError(f"expected Tensor as element {tensors.index(item)} in argument 0, "
                            f"but got {type(item).__name__}")
    return list(tensors)


def _promoted(tensors: list[Tensor]) -> list[Tensor]:
    from engine import dtypes

    result = tensors[0].dtype
    for item in tensors[1:]:
        result = dtypes.promote(result, item.dtype)
    return [x if x.dtype is result else x.to(result) for x in tensors]


def cat(tensors: Any, dim: int = 0) -> Tensor:
    items = _promoted(_tensor_list(tensors, "cat"))
    ndim = max(x.ndim for x in items)
    return Cat.apply(*items, dim=normalize_dim(dim, ndim))


def stack(tensors: Any, dim: int = 0) -> Tensor:
    items = _promoted(_tensor_list(tensors, "stack"))
    return Stack.apply(*items, dim=normalize_dim(dim, items[0].ndim + 1))


def select(tensor: Tensor, dim: int, index: int) -> Tensor:
    d = normalize_dim(dim, tensor.ndim)
    return getitem(tensor, (slice(None),) * d + (index,))


class Unbind(Function):
    grad_fn_name = "UnbindBackward0"

    def forward(self, a: np.ndarray, dim: int, index: int) -> np.ndarray:
        self.dim, self.input_shape = dim, a.shape
        self.key = (slice(None),) * dim + (index,)
        return a[self.key]

    def backward(self, grad, inputs, output):
        return (IndexScatter.apply(grad, shape=self.input_shape, key=self.key),)


def unbind(tensor: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    d = normalize_dim(dim, tensor.ndim)
    return tuple(_view_of(tensor, Unbind.apply(tensor, dim=d, index=i))
                 for i in range(tensor.shape_tuple[d]))


def split(tensor: Tensor, split_size: Any, dim: int = 0) -> tuple[Tensor, ...]:
    d = normalize_dim(dim, tensor.ndim)
    size = tensor.shape_tuple[d]
    sizes = list(split_size) if isinstance(split_size, (list, tuple)) else [
        min(split_size, size - s) for s in range(0, size, split_size)]
    parts, start = [], 0
    for length in sizes:
        parts.append(getitem(tensor, (slice(None),) * d + (slice(start, start + length),)))
        start += length
    return tuple(parts)


def chunk(tensor: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    size = tensor.shape_tuple[normalize_dim(dim, tensor.ndim)]
    return split(tensor, max(1, -(-size // chunks)), dim)


def repeat(tensor: Tensor, *sizes: Any) -> Tensor:
    reps = _shape_arg(sizes)
    shaped = reshape(tensor, (1,) * (len(reps) - tensor.ndim) + tensor.shape_tuple)
    expanded_shape = []
    view_shape = []
    for r, s in zip(reps, shaped.shape_tuple):
        view_shape += [1, s]
        expanded_shape += [r, s]
    out = expand(reshape(shaped, view_shape), expanded_shape)
    return reshape(clone(out), tuple(r * s for r, s in zip(reps, shaped.shape_tuple)))
