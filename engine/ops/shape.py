"""Ops that reshape, reorder, join or copy elements: views, cat/stack/split, casts, copies.

A view op's output shares its input's memory and version counter (`view_of`), as in PyTorch,
so an in-place change through one is seen, and checked, through the other.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from engine import budget, dtypes, grad_mode
from engine.autograd import Function, arrays_suffice
from engine.late_imports import late
from engine.operands import broadcast_error
from engine.ops.numerics import torch_sum
from engine.ops.strided import broadcast_view
from engine.registry import public
from engine.tensor import Tensor, normalize_dim


def shape_arg(shape: tuple[Any, ...]) -> tuple[int, ...]:
    """`f(2, 3)`, `f((2, 3))` and `f([2, 3])` all mean the shape (2, 3)."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s) for s in shape)


def view_of(base: Tensor, out: Tensor) -> Tensor:
    """Mark `out` as a view of `base`: shared version counter, `_base` the root base."""
    out._version = base._version
    out._view_version = base._version[0]
    out._base = base._base if base._base is not None else base
    out._inference = base._inference  # a view of a normal tensor is one, also in inference mode
    if base._requires_grad and not out._requires_grad and not grad_mode.state["enabled"]:
        # PyTorch: requires_grad, no grad_fn, and gradients sent to it go nowhere
        out._requires_grad = out._nograd_view = True
    return out


@functools.lru_cache(maxsize=4096)
def _sum_to_dims(have: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
    """The dims of a gradient of shape `have` that sum_to sums to get `shape`."""
    lead = len(have) - len(shape)
    return tuple(range(lead)) + tuple(
        lead + i for i, size in enumerate(shape) if size == 1 and have[lead + i] != 1)


def sum_to_array(array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """`sum_to` on an array, for a derivative computed without a graph: the same sum."""
    dims = _sum_to_dims(array.shape, shape)
    return (torch_sum(array, dims, True) if dims else array).reshape(shape)


def sum_to(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Sum a broadcast gradient back to `shape`, as PyTorch's sum_to (sum, then view)."""
    if arrays_suffice():  # no graph, nobody watching: the same sum, without a node
        return Tensor._wrap(sum_to_array(tensor.array, shape))
    have = tensor.array.shape
    dims = _sum_to_dims(have, shape)
    if dims:
        tensor = late("engine.ops.reduce", "SumDim").apply(tensor, dims=dims, keepdim=True)
    return view(tensor, shape) if len(have) != len(shape) else tensor


# --- reshaping -----------------------------------------------------------------------------------

def _infer_shape(shape: tuple[int, ...], size: int) -> tuple[int, ...]:
    """Resolve one -1 in `shape` for `size` elements, with PyTorch's errors."""
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known == 0 or size % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")
        return tuple(size // known if s == -1 else s for s in shape)
    if known != size:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")
    return shape


def _view_array(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """`a` reshaped without a copy, or None when its strides do not allow it."""
    try:
        return np.reshape(a, shape, copy=False)
    except ValueError:
        return None


class View(Function):
    grad_fn_name = "ViewBackward0"

    def forward(self, a: np.ndarray, shape: tuple[int, ...], array: np.ndarray) -> np.ndarray:
        self.input_shape = a.shape
        return array

    def array_backward(self, grad, inputs, output):
        return (grad.reshape(self.input_shape),)

    def backward(self, grad, inputs, output):
        return (reshape(grad, self.input_shape),)


class ReshapeAlias(View):
    """reshape of a non-contiguous tensor whose strides still allow a view."""

    grad_fn_name = "ReshapeAliasBackward0"


class UnsafeView(View):
    """reshape that had to copy first (after a CloneBackward0), and matmul's final reshape."""

    grad_fn_name = "UnsafeViewBackward0"


@public(method=True)
def reshape(tensor: Tensor, *shape: Any) -> Tensor:
    target = _infer_shape(shape_arg(shape), tensor.array.size)
    array = _view_array(tensor.array, target)
    if array is None:
        copied = clone(tensor)
        return UnsafeView.apply(copied, shape=target, array=copied.array.reshape(target))
    op = View if tensor.array.flags.c_contiguous else ReshapeAlias
    return view_of(tensor, op.apply(tensor, shape=target, array=array))


@public(torch=False, method=True)
def view(tensor: Tensor, *shape: Any) -> Tensor:
    if len(shape) == 1 and not isinstance(shape[0], (int, tuple, list)):
        return tensor.to(shape[0])  # t.view(dtype)
    target = _infer_shape(shape_arg(shape), tensor.array.size)
    array = _view_array(tensor.array, target)
    if array is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.")
    return view_of(tensor, View.apply(tensor, shape=target, array=array))


@public(method=True)
def flatten(tensor: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    shape = tensor.shape_tuple
    if not shape:
        return reshape(tensor, 1)
    start, end = normalize_dim(start_dim, len(shape)), normalize_dim(end_dim, len(shape))
    if start == end:
        return tensor
    return reshape(tensor, shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:])


@public(torch=False, method=True)
def reshape_as(tensor: Tensor, other: Tensor) -> Tensor:
    return reshape(tensor, other.shape_tuple)


@public(torch=False, method=True)
def view_as(tensor: Tensor, other: Tensor) -> Tensor:
    return view(tensor, other.shape_tuple)


def contiguous(tensor: Tensor, memory_format: Any = None) -> Tensor:
    return tensor if tensor.array.flags.c_contiguous else clone(tensor)


# --- reordering ----------------------------------------------------------------------------------

class Permute(Function):
    grad_fn_name = "PermuteBackward0"

    def forward(self, a: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        self.dims = dims
        return a.transpose(dims)

    def backward(self, grad, inputs, output):
        return (permute(grad, *np.argsort(self.dims).tolist()),)


class Transpose(Function):
    grad_fn_name = "TransposeBackward0"

    def forward(self, a: np.ndarray, dim0: int, dim1: int) -> np.ndarray:
        self.dims = (dim0, dim1)
        return np.swapaxes(a, dim0, dim1) if a.ndim else a.view()  # a 0-dim tensor: itself

    def array_backward(self, grad, inputs, output):
        return (np.swapaxes(grad, *self.dims) if grad.ndim else grad,)

    def backward(self, grad, inputs, output):
        return (transpose(grad, *self.dims),)


class TransposeInplace(Transpose):
    grad_fn_name = "TransposeBackward1"


class T(Permute):
    grad_fn_name = "TBackward0"

    def array_backward(self, grad, inputs, output):
        return (grad.transpose(_REVERSED[grad.ndim]),)

    def backward(self, grad, inputs, output):
        return (t(grad),)


class TInplace(T):
    grad_fn_name = "TBackward1"


@public(method=True)
def permute(tensor: Tensor, *dims: Any) -> Tensor:
    order = shape_arg(dims)
    if len(order) != tensor.ndim:
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does "
                           "not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {tensor.ndim} is not equal to len(dims) = {len(order)}")
    normalized = tuple(normalize_dim(d, tensor.ndim) for d in order)
    if len(set(normalized)) != len(normalized):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return view_of(tensor, Permute.apply(tensor, dims=normalized))


@public(method=True)
def transpose(tensor: Tensor, dim0: int, dim1: int) -> Tensor:
    d0, d1 = normalize_dim(dim0, tensor.ndim), normalize_dim(dim1, tensor.ndim)
    return view_of(tensor, Transpose.apply(tensor, dim0=d0, dim1=d1))


@public(method=True)
def t(tensor: Tensor) -> Tensor:
    ndim = tensor.array.ndim
    if ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {ndim}D")
    return view_of(tensor, T.apply(tensor, dims=_REVERSED[ndim]))


_REVERSED = ((), (0,), (1, 0))  # the dims of t() by rank


class Squeeze(Function):
    """squeeze(): every size-1 dim; the variants differ only in PyTorch's grad_fn name."""

    grad_fn_name = "SqueezeBackward0"

    def forward(self, a: np.ndarray, dims: tuple[int, ...] | None) -> np.ndarray:
        self.input_shape = a.shape
        keep = tuple(s for i, s in enumerate(a.shape)
                     if s != 1 or (dims is not None and i not in dims))
        return a.reshape(keep)

    array_backward, backward = View.array_backward, View.backward  # back to input_shape


class SqueezeDim(Squeeze):
    grad_fn_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    grad_fn_name = "SqueezeBackward2"


class SqueezeInplace(Squeeze):
    """`squeeze_()`; the in-place forms of the views (squeeze_, unsqueeze_, t_, transpose_)
    differ from theirs only in PyTorch's grad_fn name."""

    grad_fn_name = "SqueezeBackward3"


class SqueezeInplaceDim(Squeeze):
    """`squeeze_(dim)`, which matmul of a vector and a matrix uses on its result."""

    grad_fn_name = "SqueezeBackward4"


class SqueezeInplaceDims(Squeeze):
    grad_fn_name = "SqueezeBackward5"


@public(method=True)
def squeeze(tensor: Tensor, dim: Any = None) -> Tensor:
    if dim is None:
        return view_of(tensor, Squeeze.apply(tensor, dims=None))
    if isinstance(dim, (tuple, list)):
        dims = tuple(normalize_dim(d, tensor.ndim) for d in dim)
        return view_of(tensor, SqueezeDims.apply(tensor, dims=dims))
    return view_of(tensor, SqueezeDim.apply(tensor, dims=(normalize_dim(dim, tensor.ndim),)))


class Unsqueeze(Function):
    grad_fn_name = "UnsqueezeBackward0"

    def forward(self, a: np.ndarray, dim: int) -> np.ndarray:
        self.dim = dim
        return np.expand_dims(a, dim)

    def backward(self, grad, inputs, output):
        return (squeeze(grad, self.dim),)


class UnsqueezeInplace(Unsqueeze):
    grad_fn_name = "UnsqueezeBackward1"


@public(method=True)
def unsqueeze(tensor: Tensor, dim: int) -> Tensor:
    return view_of(tensor, Unsqueeze.apply(tensor, dim=normalize_dim(dim, tensor.ndim + 1)))


class Expand(Function):
    grad_fn_name = "ExpandBackward0"

    def forward(self, a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        self.input_shape = a.shape
        return broadcast_view(a, shape)

    def backward(self, grad, inputs, output):
        return (sum_to(grad, self.input_shape),)


def expand_to(tensor: Tensor, shape: tuple[int, ...]) -> Tensor:
    """expand for shapes known to be valid (the backward of reductions): no checks."""
    if tensor.array.shape == shape:
        return tensor
    return view_of(tensor, Expand.apply(tensor, shape=shape))


@public(torch=False, method=True)
def expand(tensor: Tensor, *sizes: Any) -> Tensor:
    shape = shape_arg(sizes)
    current = tensor.shape_tuple
    if len(shape) < len(current):
        raise RuntimeError(f"expand(torch.{tensor.dtype.legacy_name}{{{list(current)}}}, "
                           f"size={list(shape)}): the number of sizes provided ({len(shape)}) "
                           "must be greater or equal to the number of dimensions in the tensor "
                           f"({len(current)})")
    lead = len(shape) - len(current)
    target = []
    for i, size in enumerate(shape):
        if i < lead:
            if size < 0:
                raise RuntimeError(f"The expanded size of the tensor ({size}) isn't allowed in "
                                   f"a leading, non-existing dimension {i}")
            target.append(size)
            continue
        old = current[i - lead]
        if size == -1:
            size = old
        elif old != 1 and size != old:
            raise RuntimeError(f"The expanded size of the tensor ({size}) must match the "
                               f"existing size ({old}) at non-singleton dimension {i}.  Target "
                               f"sizes: {list(shape)}.  Tensor sizes: {list(current)}")
        target.append(size)
    budget.check_shape(target, tensor.array.itemsize)
    return view_of(tensor, Expand.apply(tensor, shape=tuple(target)))


@public(torch=False, method=True)
def expand_as(tensor: Tensor, other: Tensor) -> Tensor:
    return expand(tensor, other.shape_tuple)


class Repeat(Function):
    grad_fn_name = "RepeatBackward0"

    def forward(self, a: np.ndarray, repeats: tuple[int, ...]) -> np.ndarray:
        if len(repeats) < a.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than "
                               "number of dimensions of tensor")
        self.shape = (1,) * (len(repeats) - a.ndim) + a.shape
        self.repeats = repeats
        return np.tile(a.reshape(self.shape), repeats)

    def backward(self, grad, inputs, output):
        # view the result as (r0, s0, r1, s1, ...) and sum the repeat axes away
        split = [n for pair in zip(self.repeats, self.shape, strict=True) for n in pair]
        summed = reshape(grad, split).sum(tuple(range(0, len(split), 2)))
        return (summed,)


@public(torch=False, method=True)
def repeat(tensor: Tensor, *sizes: Any) -> Tensor:
    repeats = shape_arg(sizes)
    shape = (1,) * max(0, len(repeats) - tensor.ndim) + tensor.shape_tuple
    budget.check_shape([r * s for r, s in zip(repeats, shape, strict=False)], tensor.array.itemsize)
    return Repeat.apply(tensor, repeats=repeats)


# --- joining and splitting -----------------------------------------------------------------------

class Cat(Function):
    grad_fn_name = "CatBackward0"

    def forward(self, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        self.dim = dim
        self.sizes = [a.shape[dim] for a in arrays]
        return np.concatenate(arrays, axis=dim)

    def backward(self, grad, inputs, output):
        # PyTorch narrows the gradient once per input (a SliceBackward0 each, with create_graph)
        from engine.ops.index import slice_along  # lazy: engine.ops.index imports this module

        grads, start = [], 0
        for size, needed in zip(self.sizes, self.needs, strict=True):
            grads.append(slice_along(grad, self.dim, slice(start, start + size)) if needed
                         else None)
            start += size
        return grads


class Unfold(Function):
    """Tensor.unfold: the windows of `size` along `dim`, `step` apart, as a new last dim (a
    view); the gradient adds each window back where it was read (windows may overlap)."""

    grad_fn_name = "UnfoldBackward0"

    def forward(self, a: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
        self.dim, self.size, self.step, self.input_shape = dim, size, step, a.shape
        if a.ndim == 0:
            return a.reshape(1)
        windows = np.lib.stride_tricks.sliding_window_view(a, size, axis=dim)
        return windows[(slice(None),) * dim + (slice(None, None, step),)]

    def backward(self, grad, inputs, output):
        return (UnfoldGrad.apply(grad, dim=self.dim, size=self.size, step=self.step,
                                 input_shape=self.input_shape),)


class UnfoldGrad(Function):
    """unfold's derivative: window element k of every window added at its input position."""

    grad_fn_name = "UnfoldBackwardBackward0"

    def forward(self, grad: np.ndarray, dim: int, size: int, step: int,
                input_shape: tuple[int, ...]) -> np.ndarray:
        self.dim, self.size, self.step = dim, size, step
        out = np.zeros(input_shape, dtype=grad.dtype)
        if not input_shape:
            return grad.reshape(())
        count = grad.shape[dim]
        for k in range(size):
            at = (slice(None),) * dim + (slice(k, k + (count - 1) * step + 1, step),)
            out[at] += grad[..., k]
        return out

    def backward(self, gg, inputs, output):
        return (Unfold.apply(gg, dim=self.dim, size=self.size, step=self.step),)


@public(method=True, torch=False)
def unfold(tensor: Tensor, dimension: int, size: int, step: int) -> Tensor:
    d = normalize_dim(dimension, max(tensor.ndim, 1))
    length = tensor.shape_tuple[d] if tensor.ndim else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {length} but size is "
                           f"{size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    # a view, yet of up to size times the elements: every op on it (clone, r * 1, its
    # gradient) makes that many, so it is held to the element and memory limits as made
    shape = list(tensor.shape_tuple) or [1]
    shape[d] = (length - size) // step + 1
    budget.check_shape((*shape, size) if tensor.ndim else (shape[0], size),
                       tensor.dtype.itemsize)
    return view_of(tensor, Unfold.apply(tensor, dim=d, size=size, step=step))


class Flip(Function):
    grad_fn_name = "FlipBackward0"

    def forward(self, a: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
        self.dims = dims if a.ndim else ()  # a 0-dim tensor flips to itself
        return np.flip(a, axis=self.dims).copy()

    def backward(self, grad, inputs, output):
        return (Flip.apply(grad, dims=self.dims),)


@public(method=True)
def flip(tensor: Tensor, *dims: Any, **named: Any) -> Tensor:
    if "dims" in named and not dims:  # torch.flip(x, dims=[0]), x.flip(dims=(0, 1))
        dims = (named.pop("dims"),)
    if not dims:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    if named:
        raise TypeError(f"flip() got an unexpected keyword argument '{next(iter(named))}'")
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    normalized = tuple(normalize_dim(d, tensor.ndim) for d in dims)
    if len(set(normalized)) != len(normalized):
        raise RuntimeError("dims has duplicates")
    return Flip.apply(tensor, dims=normalized)


class Stack(Function):
    grad_fn_name = "StackBackward0"

    def forward(self, *arrays: np.ndarray, dim: int = 0) -> np.ndarray:
        self.dim = dim
        return np.stack(arrays, axis=dim)

    def backward(self, grad, inputs, output):
        # PyTorch selects the gradient once per input (a SelectBackward0 each)
        from engine.ops.index import select_along  # lazy: engine.ops.index imports this module

        return [select_along(grad, self.dim, i) if needed else None
                for i, needed in enumerate(self.needs)]


def _tensor_list(tensors: Any, name: str) -> list[Tensor]:
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"({type(tensors).__name__}), but expected one of: (tuple of Tensors "
                        "tensors, int dim)")
    if not tensors:
        if name == "stack":
            raise RuntimeError("stack expects a non-empty TensorList")
        raise ValueError(f"torch.{name}(): expected a non-empty list of Tensors")
    for index, item in enumerate(tensors):
        if not isinstance(item, Tensor):
            raise TypeError(f"expected Tensor as element {index} in argument 0, but got "
                            f"{type(item).__name__}")
    return list(tensors)


def _promoted(tensors: list[Tensor], shape: tuple[int, ...] | None = None) -> list[Tensor]:
    """The tensors in their common dtype; `shape`, the joined result's, is checked against the
    limits first: the result of joining many tensors (one of them many times) can be far
    bigger than each, and so can the dtype conversions on the way."""
    result = tensors[0].dtype
    for item in tensors[1:]:
        result = dtypes.promote(result, item.dtype)
    if shape is not None:
        budget.check_shape(shape, result.itemsize)
    return [x if x.dtype is result else x.to(result) for x in tensors]


def _joined_shape(tensors: list[Tensor], dim: int, stack: bool) -> tuple[int, ...] | None:
    """The shape of cat (or stack) along `dim`, or None where the op refuses its inputs."""
    first = tensors[0].shape_tuple
    if not isinstance(dim, int):
        return None
    if stack:
        d = dim + len(first) + 1 if dim < 0 else dim
        return first[:d] + (len(tensors),) + first[d:] if 0 <= d <= len(first) else None
    ndim = len(first)
    if not ndim or not -ndim <= dim < ndim:
        return None
    d = dim % ndim
    return first[:d] + (sum(t.shape_tuple[d] if t.ndim > d else 0 for t in tensors),) + first[
        d + 1:]


@public
def cat(tensors: Any, dim: int = 0) -> Tensor:
    listed = _tensor_list(tensors, "cat")
    items = _promoted(listed, _joined_shape(listed, dim, stack=False))
    for position, item in enumerate(items):
        if item.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {position}) cannot be "
                               "concatenated")
    first = items[0]
    d = normalize_dim(dim, first.ndim)
    for number, item in enumerate(items[1:], 1):
        if item.ndim != first.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {first.ndim} "
                               f"and {item.ndim}")
        for axis, (want, got) in enumerate(zip(first.shape_tuple, item.shape_tuple, strict=True)):
            if axis != d and want != got:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. "
                                   f"Expected size {want} but got size {got} for tensor number "
                                   f"{number} in the list.")
    return Cat.apply(*items, dim=d)


@public
def stack(tensors: Any, dim: int = 0) -> Tensor:
    listed = _tensor_list(tensors, "stack")
    items = _promoted(listed, _joined_shape(listed, dim, stack=True))
    for number, item in enumerate(items[1:], 1):
        if item.shape_tuple != items[0].shape_tuple:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(items[0].shape_tuple)} at entry 0 and "
                               f"{list(item.shape_tuple)} at entry {number}")
    return Stack.apply(*items, dim=normalize_dim(dim, items[0].ndim + 1))


class Unbind(Function):
    """unbind / iteration: one node with an output per slice, as PyTorch shows it."""

    grad_fn_name = "UnbindBackward0"
    multi_output = True

    def forward(self, a: np.ndarray, dim: int) -> tuple[np.ndarray, ...]:
        self.dim = dim
        lead = (slice(None),) * dim
        return tuple(a[lead + (i, Ellipsis)] for i in range(a.shape[dim]))

    def backward(self, grads, inputs, output):
        return (stack(grads, self.dim),)


PIECE_BYTES = 512  # what one tensor of unbind/split costs: a Tensor, its numpy view, graph


def check_pieces(tensor: Tensor, count: int, what: str) -> None:
    """unbind, split, chunk and iteration make one tensor per piece: many pieces of a legal
    tensor (each element on its own) can cost far more memory than its data."""
    if count > 4096:
        budget.check_bytes(count * PIECE_BYTES, f"{what} of a tensor of shape "
                           f"{list(tensor.shape_tuple)} makes {count} tensors")


@public(method=True)
def unbind(tensor: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    if tensor.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = normalize_dim(dim, tensor.ndim)
    check_pieces(tensor, tensor.shape_tuple[d], "unbind()")
    outs = Unbind.apply(tensor, dim=d)
    return tuple(view_of(tensor, out) for out in outs)


class Split(Function):
    """split into equal sizes (and chunk); SplitWithSizes for a list of sizes."""

    grad_fn_name = "SplitBackward0"
    multi_output = True

    def forward(self, a: np.ndarray, sizes: list[int], dim: int) -> tuple[np.ndarray, ...]:
        self.dim = dim
        lead = (slice(None),) * dim
        starts = np.cumsum([0] + sizes[:-1]).tolist()
        return tuple(a[lead + (slice(s, s + n),)] for s, n in zip(starts, sizes, strict=True))

    def backward(self, grads, inputs, output):
        return (cat(grads, self.dim),)


class SplitWithSizes(Split):
    grad_fn_name = "SplitWithSizesBackward0"


@public(method=True, torch=False)
def split(tensor: Tensor, split_size: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Tensor.split; torch.split names its size argument apart (engine/functional/shape.py)."""
    d = normalize_dim(dim, tensor.ndim)
    size = tensor.shape_tuple[d]
    op: type[Split]
    if isinstance(split_size, (list, tuple)):
        check_pieces(tensor, len(split_size), "split()")
        sizes, op = [int(s) for s in split_size], SplitWithSizes
        if sum(sizes) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} "
                               f"(input tensor's size at dimension {d}), but got "
                               f"split_sizes={sizes}")
    else:
        if split_size == 0 and size != 0:
            raise RuntimeError("split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {size}")
        if isinstance(split_size, int) and split_size > 0:
            check_pieces(tensor, -(-size // split_size), "split()")
        sizes = [min(split_size, size - s) for s in range(0, size, split_size)] or [0]
        op = Split
    return tuple(view_of(tensor, out) for out in op.apply(tensor, sizes=sizes, dim=d))


@public(method=True)
def chunk(tensor: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = tensor.shape_tuple[normalize_dim(dim, tensor.ndim)]
    split_size = max(1, -(-size // chunks))
    check_pieces(tensor, -(-size // split_size), "chunk()")
    return split(tensor, split_size, dim)


# --- copies --------------------------------------------------------------------------------------

class Clone(Function):
    grad_fn_name = "CloneBackward0"

    def forward(self, a: np.ndarray) -> np.ndarray:
        return a.copy()

    def backward(self, grad, inputs, output):
        return (grad,)


@public(method=True)
def clone(tensor: Tensor, memory_format: Any = None) -> Tensor:
    return Clone.apply(tensor)


class Alias(Function):
    """`t[...]` and `t[:, :]`: the same elements, a new view."""

    grad_fn_name = "AliasBackward0"

    def forward(self, a: np.ndarray) -> np.ndarray:
        return a.view()

    def backward(self, grad, inputs, output):
        return (grad,)


class ToCopy(Function):
    grad_fn_name = "ToCopyBackward0"

    def forward(self, a: np.ndarray, dtype: np.dtype) -> np.ndarray:
        self.input_dtype = a.dtype
        return a.astype(dtype)

    def backward(self, grad, inputs, output):
        return (grad.to_numpy_dtype(self.input_dtype),)

    @classmethod
    def apply(cls, *args: Any, **params: Any) -> Tensor:
        array, dtype = args[0].array, np.dtype(params["dtype"])
        if dtype.itemsize > array.itemsize:  # a cast to a wider dtype needs more bytes
            budget.check_shape(array.shape, dtype.itemsize)
        if dtype.kind != "f":  # integer results are constants in PyTorch
            return Tensor._wrap(array.astype(dtype))
        return super().apply(*args, **params)


class Fill(Function):
    """`t.fill_(number)`: the result does not depend on the old values."""

    grad_fn_name = "FillBackward2"

    def forward(self, a: np.ndarray, value: Any) -> np.ndarray:
        return np.full(a.shape, value, dtype=a.dtype)

    def backward(self, grad, inputs, output):
        return (_zeros_like(grad),)


def _zeros_like(tensor: Tensor) -> Tensor:
    """A constant zero gradient (not grad * 0, which would turn an inf into nan)."""
    return Tensor._wrap(np.zeros(tensor.array.shape, dtype=tensor.array.dtype))


class Zero(Fill):
    grad_fn_name = "ZeroBackward0"

    def forward(self, a: np.ndarray, value: Any) -> np.ndarray:
        return np.zeros(a.shape, dtype=a.dtype)  # np.zeros is cheaper than np.full


class FillTensor(Function):
    """`t.fill_(tensor)` (and `t[...] = number`): the 0-dim value's gradient is the sum."""

    grad_fn_name = "FillBackward3"

    def forward(self, a: np.ndarray, value: np.ndarray) -> np.ndarray:
        if value.ndim:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.ndim} dimensions.")
        return np.full(a.shape, value, dtype=a.dtype)

    def backward(self, grad, inputs, output):
        return (_zeros_like(grad), grad.sum())


class Copy(Function):
    """`t.copy_(src)`: PyTorch names its node CopyBackwards."""

    grad_fn_name = "CopyBackwards"

    def forward(self, a: np.ndarray, src: np.ndarray) -> np.ndarray:
        self.src_meta = (src.shape, src.dtype)
        try:
            return np.broadcast_to(src, a.shape).astype(a.dtype)
        except ValueError:
            try:
                shape = np.broadcast_shapes(a.shape, src.shape)
            except ValueError:
                raise broadcast_error(a.shape, src.shape) from None
            raise RuntimeError(f"output with shape {list(a.shape)} doesn't match the broadcast "
                               f"shape {list(shape)}") from None

    def backward(self, grad, inputs, output):
        return (_zeros_like(grad), grad)


class Roll(Function):
    grad_fn_name = "RollBackward0"

    def forward(self, a, shifts, dims):
        self.shifts, self.dims = shifts, dims
        if not dims:  # flattened, rolled, viewed back
            return np.roll(a.reshape(-1), shifts).reshape(a.shape)
        return np.roll(a, shifts, axis=dims)

    def backward(self, grad, inputs, output):
        return (Roll.apply(grad, shifts=tuple(-s for s in self.shifts), dims=self.dims),)
