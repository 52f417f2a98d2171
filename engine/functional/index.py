"""Picking by index or mask: gather, index_select, masked_fill, sort/argsort/topk, unique,
scatter, scatter_add, index_add, index_copy, take, masked_select, nonzero/argwhere."""

from __future__ import annotations

import builtins
import warnings
from typing import Any

import numpy as np

from engine import budget
from engine.functional.reduce import ReturnTypes
from engine.ops import selection
from engine.ops import shape as shape_ops
from engine.ops.index import slice_along
from engine.registry import public
from engine.tensor import Tensor, normalize_dim


def _index_array(index: Any, name: str) -> np.ndarray:
    if not isinstance(index, Tensor):
        raise TypeError(f"{name}(): argument 'index' must be Tensor, not "
                        f"{type(index).__name__}")
    if index.array.dtype != np.int64:
        raise RuntimeError(f"{name}(): Expected dtype int64 for index")
    return index.array


@public(method=True)
def gather(a: Tensor, dim: int, index: Any) -> Tensor:
    d = normalize_dim(dim, a.ndim)
    array = _index_array(index, "gather")
    if array.ndim != a.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    for axis, (size, limit) in enumerate(zip(array.shape, a.shape_tuple, strict=True)):
        if axis != d and size > limit:
            raise RuntimeError(f"Size does not match at dimension {axis} expected index "
                               f"{list(array.shape)} to be smaller than self "
                               f"{list(a.shape_tuple)} apart from dimension {d}")
    bad = array[(array < 0) | (array >= a.shape_tuple[d])]
    if bad.size:
        raise RuntimeError(f"index {int(bad.flat[0])} is out of bounds for dimension {d} with "
                           f"size {a.shape_tuple[d]}")
    return selection.Gather.apply(a, dim=d, index=array)


@public(method=True)
def index_select(a: Tensor, dim: int, index: Any) -> Tensor:
    d = normalize_dim(dim, a.ndim)
    if not isinstance(index, Tensor) or index.array.dtype.kind not in "iu":
        raise RuntimeError("index_select(): Expected dtype int32/int64 for index")
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    array = index.array.reshape(-1).astype(np.int64)
    size = a.shape_tuple[d] if a.ndim else 1
    bad = array[(array < 0) | (array >= size)]
    if bad.size:
        raise IndexError("index out of range in self")
    shape = a.shape_tuple
    if shape and array.size > shape[d]:  # a long index makes a result bigger than `a`
        budget.check_shape(shape[:d] + (array.size,) + shape[d + 1:], a.array.itemsize)
    return selection.IndexSelect.apply(a, dim=d, index=array)


@public(method=True, inplace=True)
def masked_fill(a: Tensor, mask: Any, value: Any) -> Tensor:
    if not isinstance(mask, Tensor) or mask.array.dtype != np.bool_:
        kind = mask.dtype if isinstance(mask, Tensor) else type(mask).__name__
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{str(kind).replace('torch.', '')}")
    try:
        mask_array = np.broadcast_to(mask.array, a.shape_tuple)
    except ValueError:
        raise RuntimeError(f"The size of tensor a ({a.shape_tuple[-1] if a.ndim else 1}) must "
                           f"match the size of tensor b ({mask.shape_tuple[-1]}) at "
                           f"non-singleton dimension {a.ndim - 1}") from None
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value.ndim} dimension(s).")
        return pointwise_masked_fill(a, value, mask_array)
    return selection.MaskedFill.apply(a, value, mask=mask_array)


@public(torch=False)
def pointwise_masked_fill(a: Tensor, value: Tensor, mask: np.ndarray) -> Tensor:
    return selection.MaskedFillTensor.apply(a, value.to(a.dtype) if value.dtype is not a.dtype
                                            else value, mask=mask)


def _sorted_result(a: Tensor, dim: int, indices: np.ndarray, kind: str) -> Any:

    values = selection.values_of(a, dim, indices, topk=kind == "topk")
    result = ReturnTypes((values, Tensor._wrap(indices)))
    result.kind = kind
    return result


@public(method=True)
def sort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    d = normalize_dim(dim, a.ndim)
    return _sorted_result(a, d, selection.sorted_indices(a.array, d, descending), "sort")


@public(method=True)
def msort(a: Tensor) -> Tensor:
    """torch.msort: the values of sort along the first dimension."""
    return sort(a, dim=0)[0]  # type: ignore[no-any-return]


@public
def bucketize(input: Tensor, boundaries: Tensor, *, out_int32: bool = False,  # noqa: A002
              right: bool = False, out: Any = None) -> Tensor:
    """For each value, the index of its bucket in the 1-D sorted `boundaries` (right=False:
    boundaries[i-1] < x <= boundaries[i])."""
    if not isinstance(boundaries, Tensor) or boundaries.ndim != 1:
        raise RuntimeError("boundaries tensor must be 1 dimension, but got dim("
                           f"{getattr(boundaries, 'ndim', 0)})")
    values = input.array if isinstance(input, Tensor) else np.asarray(input)
    found = np.searchsorted(boundaries.array, values, side="right" if right else "left")
    return Tensor._wrap(np.asarray(found, dtype=np.int32 if out_int32 else np.int64))


@public
def searchsorted(sorted_sequence: Tensor, input: Any, *, out_int32: bool = False,  # noqa: A002
                 right: bool = False, side: str | None = None, sorter: Any = None,
                 out: Any = None) -> Tensor:
    """Where each value would go in the innermost dimension of `sorted_sequence` (1-D, or the
    same leading dimensions as the values)."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        right = side == "right"
    values = input.array if isinstance(input, Tensor) else np.asarray(input)
    boundaries = sorted_sequence.array
    if sorter is not None:
        boundaries = np.take_along_axis(boundaries, sorter.array, axis=-1)
    kind: Any = "right" if right else "left"
    if boundaries.ndim == 1:
        found = np.searchsorted(boundaries, values, side=kind)
    else:
        if boundaries.shape[:-1] != values.shape[:-1]:
            raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or "
                               "the first N-1 dimensions of boundaries tensor and input value "
                               "tensor must match, but we got boundaries tensor "
                               f"{list(boundaries.shape)} and input value tensor "
                               f"{list(values.shape)}")
        rows, inner = boundaries.reshape(-1, boundaries.shape[-1]), values.reshape(
            -1, values.shape[-1])
        found = np.stack([np.searchsorted(r, v, side=kind) for r, v in zip(rows, inner,
                                                                            strict=True)])
        found = found.reshape(values.shape)
    return Tensor._wrap(np.asarray(found, dtype=np.int32 if out_int32 else np.int64))


@public(method=True)
def argsort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False
            ) -> Tensor:
    d = normalize_dim(dim, a.ndim)
    return Tensor._wrap(selection.sorted_indices(a.array, d, descending))


@public(method=True)
def topk(a: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True  # noqa: A002
         ) -> Any:
    d = normalize_dim(dim, a.ndim)
    size = a.shape_tuple[d] if a.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    indices = selection.topk_indices(a.array, d, k, largest, sorted)
    return _sorted_result(a, d, indices, "topk")


@public(method=True)
def unique(a: Tensor, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
           return_counts: bool = False, dim: int | None = None) -> Any:
    """The distinct values (or slices along dim), sorted (the CPU kernel sorts either way),
    with the index of each input element's value and how often each value occurs if asked."""
    d = None if dim is None else normalize_dim(dim, a.ndim)
    values = (selection.Unique2.apply(a) if d is None
              else selection.UniqueDim.apply(a, dim=d))
    if not (return_inverse or return_counts):
        return values
    _, inverse, counts = np.unique(a.array, return_inverse=True, return_counts=True, axis=d,
                                   equal_nan=False)
    inverse = inverse.reshape(a.shape_tuple if d is None else (a.shape_tuple[d],))
    extra = ([Tensor._wrap(inverse.astype(np.int64))] if return_inverse else []) + (
        [Tensor._wrap(counts.astype(np.int64))] if return_counts else [])
    return (values, *extra)


@public(method=True)
def bincount(a: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """The count (or summed weight) of each value 0..max of a 1-D non-negative int tensor."""
    values = a.array
    if values.ndim != 1 or values.dtype.kind not in "iu" or (values.size and values.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    length = builtins.max(int(values.max()) + 1 if values.size else 0, minlength)
    budget.check_shape((length,), 8)
    if weights is None:
        return Tensor._wrap(np.bincount(values, minlength=length).astype(np.int64))
    kind = np.float32 if weights.array.dtype == np.float32 else np.float64
    counts = np.bincount(values, weights=weights.array.astype(np.float64), minlength=length)
    return Tensor._wrap(counts.astype(kind))


@public(method=True)
def histc(a: Tensor, bins: int = 100, min: Any = 0, max: Any = 0) -> Tensor:  # noqa: A002
    """Counts in `bins` equal bins between min and max (the data's range when they are equal),
    binned as ATen's linear interpolation, in the input's float dtype; no gradient."""
    values = a.array
    if values.dtype.kind != "f":
        raise NotImplementedError(f'"histogram_cpu" not implemented for '
                                  f"'{a.dtype.legacy_name.removesuffix('Tensor')}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    budget.check_shape((bins,), 8)  # bincount's int64 counts, before numpy makes them
    low, high = float(min), float(max)
    if low == high and values.size:
        low, high = float(np.min(values)), float(np.max(values))
    if low == high:
        low, high = low - 1, high + 1
    if not (np.isfinite(low) and np.isfinite(high)):
        shown = ["-nan" if np.isnan(v) else format(v, "g") for v in (low, high)]
        raise RuntimeError(f"torch.histc: range of [{shown[0]}, {shown[1]}] is not finite")
    if low > high:
        raise RuntimeError("torch.histc: max must be larger than min")
    kind = values.dtype.type
    left, right = kind(low), kind(high)
    flat = values.reshape(-1)
    kept = flat[(flat >= left) & (flat <= right)]
    # ATen: (x - left) * bins / (right - left) in the input's dtype, truncated; the right
    # edge belongs to the last bin
    positions = ((kept - left) * kind(bins) / (right - left)).astype(np.int64)
    positions[positions == bins] = bins - 1
    return Tensor._wrap(np.bincount(positions, minlength=bins).astype(values.dtype))


@public(method=True, torch=False)
def fill_diagonal_(a: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """torch's: the main diagonal, seen as a strided view of the flat tensor, filled in place
    (for a tall matrix with `wrap`, the diagonal starts again below each square block)."""
    if a.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    shape = a.shape_tuple
    if a.ndim > 2 and len(set(shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    step = builtins.sum(int(np.prod(shape[i + 1:])) for i in range(a.ndim))
    count = builtins.min(shape)
    end = a.numel() if wrap and a.ndim == 2 and shape[0] > shape[1] else count * step
    flat = shape_ops.view(a, -1)
    slice_along(flat, 0, slice(0, end, step)).fill_(fill_value)
    return a


# --- indexing ------------------------------------------------------------------------------------

def _check_scatter(a: Tensor, d: int, index: np.ndarray, src: Tensor | None, name: str) -> None:
    if index.ndim != a.ndim and index.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as self "
                           "tensor")
    for axis, size in enumerate(index.shape):
        if axis != d and size > a.shape_tuple[axis]:
            raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self "
                               f"{list(a.shape_tuple)} apart from dimension {d}")
        if src is not None and size > src.shape_tuple[axis]:
            raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than src "
                               f"{list(src.shape_tuple)}")
    bad = index[(index < 0) | (index >= a.shape_tuple[d])]
    if bad.size:
        raise RuntimeError(f"index {int(bad.flat[0])} is out of bounds for dimension {d} with "
                           f"size {a.shape_tuple[d]}")


@public(method=True, inplace=True)
def scatter(a: Tensor, dim: int, index: Any, src: Any = None, value: Any = None,
            reduce: Any = None) -> Tensor:
    d = normalize_dim(dim, a.ndim)
    array = _index_array(index, "scatter")
    if src is None:
        src = value
    if reduce is not None:
        return _scatter_reduce(a, d, array, src, reduce)
    if isinstance(src, Tensor):
        _check_scatter(a, d, array, src, "scatter")
        if src.dtype is not a.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        return selection.Scatter.apply(a, src, dim=d, index=array)
    _check_scatter(a, d, array, None, "scatter")
    return selection.ScatterValue.apply(a, dim=d, index=array, value=src)


def _scatter_reduce(a: Tensor, d: int, index: np.ndarray, src: Any, reduce: Any) -> Tensor:
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    if isinstance(src, Tensor):
        warnings.warn("The reduce argument of torch.scatter with Tensor src is deprecated and "
                      "will be removed in a future PyTorch release. Use torch.scatter_reduce "
                      "instead for more reduction options.", UserWarning, stacklevel=3)
        _check_scatter(a, d, index, src, "scatter")
        if src.dtype is not a.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        return selection.ScatterReduce.apply(a, dim=d, index=index, source=src.array,
                                             reduce=reduce)
    _check_scatter(a, d, index, None, "scatter")
    return selection.ScatterReduce.apply(a, dim=d, index=index, source=src, reduce=reduce)


@public(method=True, inplace=True)
def scatter_add(a: Tensor, dim: int, index: Any, src: Tensor) -> Tensor:
    d = normalize_dim(dim, a.ndim)
    array = _index_array(index, "scatter_add")
    _check_scatter(a, d, array, src, "scatter_add")
    if src.dtype is not a.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    return selection.ScatterAdd.apply(a, src, dim=d, index=array)


@public(method=True, inplace=True)
def index_add(a: Tensor, dim: int, index: Any, source: Tensor, *, alpha: Any = 1) -> Tensor:
    d = normalize_dim(dim, a.ndim)
    if not isinstance(index, Tensor) or index.array.dtype.kind not in "iu":
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index")
    array = index.array.reshape(-1).astype(np.int64)
    size = a.shape_tuple[d] if a.ndim else 1
    if source.ndim and source.shape_tuple[d] != array.size:
        raise RuntimeError("index_add_(): Number of indices (" f"{array.size}) should be equal "
                           f"to source.size(dim) ({source.shape_tuple[d]})")
    bad = array[(array < 0) | (array >= size)]
    if bad.size:
        raise IndexError("index out of range in self")
    if source.dtype is not a.dtype:
        raise RuntimeError(f"index_add_(): self ({a.dtype.legacy_name.removesuffix('Tensor')}) "
                           f"and source ({source.dtype.legacy_name.removesuffix('Tensor')}) "
                           "must have the same scalar type")
    return selection.IndexAdd.apply(a, source, dim=d, index=array, alpha=alpha)


@public(method=True, inplace=True)
def index_copy(a: Tensor, dim: int, index: Any, source: Tensor) -> Tensor:
    d = normalize_dim(dim, a.ndim)
    if not isinstance(index, Tensor):
        raise TypeError("index_copy(): argument 'index' (position 2) must be Tensor, not "
                        f"{type(index).__name__}")
    if index.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
    count = index.numel()
    if source.ndim == 0 and count != 1:
        raise IndexError("index_copy_(): When source is scalar, index should have one element "
                         f"(got {count})")
    if source.ndim != a.ndim and source.ndim and a.ndim:
        raise IndexError("index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({source.ndim}), "
                         f"destination dimensionality ({a.ndim})")
    if index.dtype.legacy_name != "LongTensor":
        raise RuntimeError("index_copy_(): Expected a long tensor for index, but got "
                           f"{index.dtype.legacy_name.removesuffix('Tensor')}")
    if source.dtype is not a.dtype:
        raise RuntimeError("index_copy_(): self and source expected to have the same dtype, but "
                           f"got (self) {a.dtype.legacy_name.removesuffix('Tensor')} and "
                           f"(source) {source.dtype.legacy_name.removesuffix('Tensor')}")
    kept = [n for axis, n in enumerate(a.shape_tuple) if axis != d]
    given = [n for axis, n in enumerate(source.shape_tuple) if axis != d]
    if kept != given:
        raise RuntimeError("index_copy_(): Source/destination tensor must have same slice "
                           f"shapes. Destination slice shape: {' '.join(map(str, kept))} at "
                           f"dimension {d} and source slice shape: {' '.join(map(str, given))} "
                           "at dimension 0.")
    if source.ndim and count != source.shape_tuple[d]:
        raise IndexError(f"index_copy_(): Number of indices ({count}) should be equal to "
                         f"source.size(dim) ({source.shape_tuple[d]})")
    array = index.array.reshape(-1)
    size = a.shape_tuple[d] if a.ndim else 1
    bad = array[(array < 0) | (array >= size)]
    if bad.size:
        raise IndexError(f"index_copy_(): index {int(bad[0])} is out of bounds for dimension "
                         f"{d} with size {size}")
    return selection.IndexCopy.apply(a, source, dim=d, index=array)


@public(method=True)
def take(a: Tensor, index: Any) -> Tensor:
    array = _index_array(index, "take")
    size = a.numel()
    bad = array[(array < -size) | (array >= size)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {int(bad.flat[0])} on a tensor of "
                         f"{size} elements.")
    return selection.Take.apply(a, index=np.where(array < 0, array + size, array))


@public(method=True)
def masked_select(a: Tensor, mask: Any) -> Tensor:
    if not isinstance(mask, Tensor) or mask.array.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    shape = np.broadcast_shapes(a.shape_tuple, mask.shape_tuple)
    if shape != a.shape_tuple:
        a = shape_ops.expand(a, shape)
    return selection.MaskedSelect.apply(a, mask=np.broadcast_to(mask.array, shape))


@public(method=True)
def nonzero(a: Tensor, *, as_tuple: bool = False) -> Any:
    if a.ndim:  # an int64 index per dim of each nonzero element: more bytes than the tensor
        count = int(np.count_nonzero(a.array))
        budget.check_shape((count, a.ndim), 8)
        budget.check_bytes(2 * count * a.ndim * 8, f"nonzero() of a tensor of shape "
                           f"{list(a.shape_tuple)} makes {a.ndim} index arrays of {count} "
                           "elements, then stacks them")
    found = np.nonzero(a.array) if a.ndim else (np.zeros(int(bool(a.array)), np.int64),)
    if as_tuple:
        return tuple(Tensor._wrap(np.asarray(i, dtype=np.int64)) for i in found)
    if a.ndim == 0:
        return Tensor._wrap(np.zeros((int(bool(a.array)), 0), dtype=np.int64))
    if a.ndim == 1:  # a view of the one index array: no copy of a possibly big result
        return Tensor._wrap(found[0].astype(np.int64, copy=False)[:, None])
    return Tensor._wrap(np.stack(found, axis=1).astype(np.int64, copy=False))


@public(method=True)
def argwhere(a: Tensor) -> Tensor:
    return nonzero(a)
