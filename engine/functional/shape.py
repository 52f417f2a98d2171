"""Reshaping and joining beyond engine/ops/shape.py's views: roll, tile, repeat_interleave,
narrow, movedim/swapaxes, hstack/vstack/column_stack, broadcast_to, meshgrid, ravel, unflatten,
the views in place (unsqueeze_, squeeze_, t_, transpose_), fliplr/flipud, rot90,
tensor_split/hsplit/vsplit."""

from __future__ import annotations

import builtins
import warnings
from typing import Any

import numpy as np

from engine import budget, creation, dtypes
from engine.operands import expect_tensor
from engine.ops import matrix, selection
from engine.ops import shape as shape_ops
from engine.ops.index import slice_along
from engine.registry import public
from engine.tensor import Tensor, normalize_dim


@public(method=True)
def roll(a: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    shift_list = tuple(shifts) if isinstance(shifts, (tuple, list)) else (int(shifts),)
    if dims is None:
        if len(shift_list) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shift_list)}, "
                               "dims:0")
        return shape_ops.Roll.apply(a, shifts=shift_list, dims=())
    dim_list = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if len(dim_list) != len(shift_list):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shift_list)}, "
                           f"dims:{len(dim_list)}")
    normalized = tuple(normalize_dim(d, a.ndim) for d in dim_list)
    return shape_ops.Roll.apply(a, shifts=shift_list, dims=normalized)


@public(method=True)
def tile(a: Tensor, dims: Any, *more: Any) -> Tensor:
    reps = (dims, *more) if more else tuple(dims) if isinstance(dims, (tuple, list)) else (
        dims,)
    reps = (1,) * builtins.max(0, a.ndim - len(reps)) + tuple(int(r) for r in reps)
    return shape_ops.repeat(a, *reps)


@public(method=True)
def repeat_interleave(a: Tensor, repeats: Any = None, dim: Any = None, *,
                      output_size: Any = None) -> Tensor:
    """Integer repeats: torch unsqueezes, expands, clones and flattens (ViewBackward0); a
    tensor of repeats picks rows with index_select (IndexSelectBackward0); with no repeats,
    `a` is the repeats and the result the index each position repeats."""
    if repeats is None:
        return Tensor._wrap(_repeated_positions(a, output_size))
    if isinstance(repeats, Tensor):
        source = shape_ops.flatten(a) if dim is None else a
        d = 0 if dim is None else normalize_dim(dim, a.ndim)
        size = source.shape_tuple[d] if source.ndim else 1
        if repeats.ndim == 0 or repeats.shape_tuple == (1,):
            counts = np.broadcast_to(repeats.array.reshape(1), (size,))
        elif repeats.ndim == 1:
            if repeats.shape_tuple[0] != size:
                raise RuntimeError("repeats must have the same size as input along dim, but got "
                                   f"repeats.size(0) = {repeats.shape_tuple[0]} and "
                                   f"input.size({d}) = {size}")
            counts = repeats.array
        else:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        index = _repeated_positions(Tensor._wrap(counts), output_size, dtype=repeats.array.dtype)
        return selection.IndexSelect.apply(source, dim=d, index=index.astype(np.int64))
    if repeats < 0:
        raise RuntimeError("repeats can not be negative")
    if dim is None:
        a = shape_ops.flatten(a)
        d = 0
    else:
        d = normalize_dim(dim, a.ndim)
    shape = list(a.shape_tuple)
    if a.ndim == 0:
        a = shape_ops.reshape(a, 1)
        shape = [1]
    shape.insert(d + 1, repeats)
    budget.check_shape(shape, a.array.itemsize)
    expanded = shape_ops.expand(shape_ops.unsqueeze(a, d + 1), *shape)
    return shape_ops.flatten(shape_ops.clone(expanded), d, d + 1)


def _repeated_positions(repeats: Tensor, output_size: Any, dtype: Any = None) -> np.ndarray:
    """torch.repeat_interleave(repeats): each position i, repeats[i] times."""
    counts = repeats.array
    if counts.dtype not in (np.int64, np.int32):
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for '
                                  f"'{dtypes.scalar_name(repeats.dtype)}'")
    if counts.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if counts.size and counts.min() < 0:
        raise RuntimeError("repeats can not be negative")
    total = int(counts.sum())
    if output_size is not None and output_size != total:
        raise RuntimeError("allocated size does not match required size")
    budget.check_shape((total,), 8)
    return np.repeat(np.arange(counts.size, dtype=dtype or counts.dtype), counts)


@public(method=True)
def narrow(a: Tensor, dim: int, start: Any, length: int) -> Tensor:
    a = expect_tensor(a, "narrow")
    if a.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = normalize_dim(dim, a.ndim)
    start = int(start.item()) if isinstance(start, Tensor) else int(start)
    size = a.shape_tuple[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if start < 0:
        start += size
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return slice_along(a, d, slice(start, start + length))


@public(method=True)
def movedim(a: Tensor, source: Any, destination: Any) -> Tensor:
    src = tuple(source) if isinstance(source, (tuple, list)) else (source,)
    dst = tuple(destination) if isinstance(destination, (tuple, list)) else (destination,)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} "
                           f"dims) should contain the same number of dims as destination "
                           f"({list(dst)} dims)")
    src = tuple(normalize_dim(d, a.ndim) for d in src)
    dst = tuple(normalize_dim(d, a.ndim) for d in dst)
    order = [d for d in range(a.ndim) if d not in src]
    perm = [-1] * a.ndim
    for s, d in zip(src, dst, strict=True):
        perm[d] = s
    rest = iter(order)
    perm = [p if p != -1 else next(rest) for p in perm]
    return shape_ops.permute(a, *perm)




@public(method=True)
def swapaxes(a: Tensor, axis0: int, axis1: int) -> Tensor:
    return shape_ops.transpose(a, axis0, axis1)




def _atleast(tensors: Any, ndim: int, name: str) -> list[Tensor]:
    items = list(tensors)
    if not items:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return [_at_least(t, ndim) for t in items]


def _at_least(t: Tensor, ndim: int) -> Tensor:
    """ATen's atleast_Nd: a 0-dim tensor reshaped, a vector or matrix unsqueezed."""
    if t.ndim >= ndim:
        return t
    if t.ndim == 0:
        return shape_ops.reshape(t, *(1,) * ndim)
    if t.ndim == 1:
        t = shape_ops.unsqueeze(t, 0) if ndim >= 2 else t
        return shape_ops.unsqueeze(t, -1) if ndim == 3 else t
    return shape_ops.unsqueeze(t, -1)


def _at_least_each(ndim: int, tensors: tuple[Any, ...]) -> Any:
    """atleast_Nd(t) is a tensor; of several tensors, or of one list or tuple, a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return _at_least(tensors[0], ndim)
    items = tensors[0] if len(tensors) == 1 else tensors
    return tuple(_at_least(expect_tensor(t, f"atleast_{ndim}d"), ndim) for t in items)


@public
def atleast_1d(*tensors: Any) -> Any:
    return _at_least_each(1, tensors)


@public
def atleast_2d(*tensors: Any) -> Any:
    return _at_least_each(2, tensors)


@public
def atleast_3d(*tensors: Any) -> Any:
    return _at_least_each(3, tensors)


@public
def dstack(tensors: Any) -> Tensor:
    return shape_ops.cat(_atleast(tensors, 3, "dstack"), 2)


@public
def hstack(tensors: Any) -> Tensor:
    items = _atleast(tensors, 1, "hstack")
    return shape_ops.cat(items, 0 if items[0].ndim == 1 else 1)


@public
def vstack(tensors: Any) -> Tensor:
    return shape_ops.cat(_atleast(tensors, 2, "vstack"), 0)




@public
def column_stack(tensors: Any) -> Tensor:
    items = list(tensors)
    if not items:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    columns = [shape_ops.reshape(t, t.numel(), 1) if t.ndim <= 1 else t for t in items]
    return shape_ops.cat(columns, 1)


@public(method=True)
def broadcast_to(a: Tensor, size: Any) -> Tensor:
    return shape_ops.expand(a, tuple(size))


@public
def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the "
                      "indexing argument.", UserWarning, stacklevel=3)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but '
                           f"received: {indexing}")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {t}")
    items = [shape_ops.reshape(t, -1) if t.ndim == 0 else t for t in tensors]
    swap = indexing == "xy" and len(items) >= 2
    if swap:
        items[0], items[1] = items[1], items[0]
    shape = tuple(t.numel() for t in items)
    grids = []
    for i, t in enumerate(items):
        view_shape = [1] * len(items)
        view_shape[i] = -1
        grids.append(shape_ops.expand(shape_ops.view(t, *view_shape), *shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@public
def cartesian_prod(*tensors: Any) -> Tensor:
    """Every combination of the vectors' elements, one per row (ATen: the 'ij' meshgrid's
    grids flattened and stacked as columns)."""
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape_tuple)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return shape_ops.stack([shape_ops.flatten(grid) for grid in grids], 1)


@public(method=True)
def ravel(a: Tensor) -> Tensor:
    return shape_ops.reshape(expect_tensor(a, "ravel"), -1)


@public(method=True)
def unflatten(a: Tensor, dim: int, sizes: Any) -> Tensor:
    """Dim `dim` split into `sizes` (one of them may be -1): a view."""
    d = normalize_dim(dim, a.ndim)
    shape = a.shape_tuple
    return shape_ops.view(a, *shape[:d], *sizes, *shape[d + 1:])


# --- views in place: the tensor itself takes the view's shape and history ---------------------

def _restride(tensor: Tensor, op: Any, **params: Any) -> Tensor:
    """`tensor` becomes its view by OP (same memory; its grad_fn the op's node, PyTorch's
    in-place name for it), version + 1."""
    tensor.check_inplace()
    view = op.apply(tensor, **params)
    tensor.array = view.array
    if view.grad_fn is not None:
        tensor._grad_fn, tensor.output_nr = view.grad_fn, 0
    tensor.bump_version()
    return tensor


@public(method=True, torch=False)
def unsqueeze_(tensor: Tensor, dim: int) -> Tensor:
    return _restride(tensor, shape_ops.UnsqueezeInplace,
                     dim=normalize_dim(dim, tensor.ndim + 1))


@public(method=True, torch=False)
def squeeze_(tensor: Tensor, dim: Any = None) -> Tensor:
    if dim is None:
        return _restride(tensor, shape_ops.SqueezeInplace, dims=None)
    if isinstance(dim, (tuple, list)):
        dims = tuple(normalize_dim(d, tensor.ndim) for d in dim)
        return _restride(tensor, shape_ops.SqueezeInplaceDims, dims=dims)
    return _restride(tensor, shape_ops.SqueezeInplaceDim,
                     dims=(normalize_dim(dim, tensor.ndim),))


@public(method=True, torch=False)
def transpose_(tensor: Tensor, dim0: int, dim1: int) -> Tensor:
    return _restride(tensor, shape_ops.TransposeInplace, dim0=normalize_dim(dim0, tensor.ndim),
                     dim1=normalize_dim(dim1, tensor.ndim))


@public(method=True, torch=False)
def t_(tensor: Tensor) -> Tensor:
    if tensor.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                           f"{tensor.ndim}D")
    return _restride(tensor, shape_ops.TInplace, dims=tuple(reversed(range(tensor.ndim))))


@public(method=True)
def fliplr(a: Tensor) -> Tensor:
    if a.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return shape_ops.flip(a, 1)


@public(method=True)
def flipud(a: Tensor) -> Tensor:
    if a.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return shape_ops.flip(a, 0)


@public(method=True)
def rot90(a: Tensor, k: int = 1, dims: Any = (0, 1)) -> Tensor:
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if a.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {a.ndim}")
    first, second = normalize_dim(dims[0], a.ndim), normalize_dim(dims[1], a.ndim)
    if first == second:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {first} and "
                           f"dim1 = {second}")
    return matrix.Rot90.apply(a, k=k % 4, dims=(first, second))


@public(method=True)
def tensor_split(a: Tensor, indices_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    """Views (SliceBackward0) between the given indices, or `n` nearly equal sections (the
    first size % n one longer)."""
    d = normalize_dim(dim, a.ndim)
    size = a.shape_tuple[d]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        shape_ops.check_pieces(a, sections, "tensor_split()")  # a view per section, as split
        base, extra = divmod(size, sections)
        bounds, start = [], 0
        for index in range(sections):
            start += base + (1 if index < extra else 0)
            bounds.append(start)
        bounds = bounds[:-1]
    else:
        bounds = [int(i) for i in indices_or_sections]
        shape_ops.check_pieces(a, len(bounds) + 1, "tensor_split()")
    edges = [0, *bounds, size]
    return tuple(slice_along(a, d, slice(builtins.min(max(start, 0), size),
                                         builtins.min(max(stop, start, 0), size)))
                 for start, stop in zip(edges, edges[1:], strict=False))


def _even_split(a: Tensor, sections: Any, dim: int, name: str) -> tuple[Tensor, ...]:
    if isinstance(sections, int) and sections != 0 and a.shape_tuple[dim] % sections:
        raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size "
                           f"of the dimension {a.shape_tuple[dim]} is not divisible by the "
                           f"split_size {sections}!")
    return tensor_split(a, sections, dim)


@public(name="split", method=False)
def split_function(tensor: Tensor, split_size_or_sections: Any,
                   dim: int = 0) -> tuple[Tensor, ...]:
    """torch.split: Tensor.split with the size argument named as torch.split names it."""
    return shape_ops.split(tensor, split_size_or_sections, dim)


@public(method=True)
def hsplit(a: Tensor, sections: Any) -> tuple[Tensor, ...]:
    if a.ndim < 1:
        raise RuntimeError("torch.hsplit requires a tensor with at least 1 dimension, but got a "
                           "tensor with 0 dimensions!")
    return _even_split(a, sections, 1 if a.ndim > 1 else 0, "hsplit")


@public(method=True)
def vsplit(a: Tensor, sections: Any) -> tuple[Tensor, ...]:
    if a.ndim < 2:
        raise RuntimeError("torch.vsplit requires a tensor with at least 2 dimension, but got a "
                           f"tensor with {a.ndim} dimensions!")
    return _even_split(a, sections, 0, "vsplit")


@public(torch=False, method=True)
def resize_(self: Tensor, *sizes: Any, memory_format: Any = None) -> Tensor:
    """t.resize_(shape): t takes the new shape over its elements in memory order; the first
    ones are kept, and those it gains are new (zeros here; PyTorch leaves them unset)."""
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    shape = tuple(int(s) for s in (sizes[0] if len(sizes) == 1 and isinstance(
        sizes[0], (tuple, list)) else sizes))
    budget.check_shape(shape, self.array.itemsize)
    count = int(np.prod(shape, dtype=np.int64))
    flat = np.ascontiguousarray(self.array).reshape(-1)
    if count > flat.size:
        flat = np.concatenate((flat, np.zeros(count - flat.size, dtype=flat.dtype)))
    self.array = np.array(flat[:count]).reshape(shape)
    self.bump_version()
    return self


@public(torch=False, method=True)
def new(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """The legacy t.new(...): a tensor of t's dtype, from sizes (zeros here; PyTorch leaves
    them unset) or from data."""
    dtype = kwargs.pop("dtype", self.dtype)
    if len(args) == 1 and not isinstance(args[0], (int, Tensor)) and not (
            isinstance(args[0], tuple) and all(isinstance(s, int) for s in args[0])):
        return creation.tensor(args[0], dtype=dtype, **kwargs)
    if len(args) == 1 and isinstance(args[0], Tensor):
        return args[0].detach().to(dtype)
    return creation.zeros(*(args or (0,)), dtype=dtype, **kwargs)
