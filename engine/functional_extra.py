"""More torch functions: var/std, logsumexp, cumsum, amax/amin, gather, index_select,
masked_fill, topk, sort, argsort, log1p/expm1 and the roundings.

engine/functional.py re-exports them, so they are torch functions and tensor methods alike;
their math and derivatives live in engine/ops/statistics.py, selection.py and pointwise.py.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from engine import budget
from engine.ops import pointwise, selection, statistics
from engine.ops.reduce import _dims
from engine.tensor import Tensor, normalize_dim


def _var_arguments(a: Tensor, dim: Any, unbiased: Any, correction: Any, name: str
                   ) -> tuple[tuple[int, ...] | None, int]:
    if isinstance(dim, bool):  # torch.var(x, False): the legacy `unbiased` argument
        dim, unbiased = None, dim
    if correction is None:
        correction = 0 if unbiased is False else 1
    dims = None if dim is None or (isinstance(dim, (tuple, list)) and not dim) else _dims(
        dim, a.ndim)
    count = a.numel() if dims is None else int(np.prod([a.shape_tuple[d] for d in dims]))
    if count - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=4)
    return dims, correction


def var(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    if not a.dtype.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    dims, correction = _var_arguments(a, dim, unbiased, correction, "var")
    return statistics.Var.apply(a, dims=dims, correction=correction, keepdim=keepdim)


def std(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    if not a.dtype.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    dims, correction = _var_arguments(a, dim, unbiased, correction, "std")
    return statistics.Std.apply(a, dims=dims, correction=correction, keepdim=keepdim)


def logsumexp(a: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    dims = tuple(range(a.ndim)) if isinstance(dim, (tuple, list)) and not dim else _dims(
        dim, a.ndim)
    return statistics.Logsumexp.apply(a, dims=dims, keepdim=keepdim)


def cumsum(a: Tensor, dim: int, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    return statistics.Cumsum.apply(a, dim=normalize_dim(dim, a.ndim))


def amax(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    dims = tuple(range(a.ndim)) if isinstance(dim, (tuple, list)) and not dim else _dims(
        dim, a.ndim)
    return statistics.Amax.apply(a, dims=dims, keepdim=keepdim)


def amin(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    dims = tuple(range(a.ndim)) if isinstance(dim, (tuple, list)) and not dim else _dims(
        dim, a.ndim)
    return statistics.Amin.apply(a, dims=dims, keepdim=keepdim)


def _index_array(index: Any, name: str) -> np.ndarray:
    if not isinstance(index, Tensor):
        raise TypeError(f"{name}(): argument 'index' must be Tensor, not "
                        f"{type(index).__name__}")
    if index.array.dtype != np.int64:
        raise RuntimeError(f"{name}(): Expected dtype int64 for index")
    return index.array


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


def pointwise_masked_fill(a: Tensor, value: Tensor, mask: np.ndarray) -> Tensor:
    return selection.MaskedFillTensor.apply(a, value.to(a.dtype) if value.dtype is not a.dtype
                                            else value, mask=mask)


def _sorted_result(a: Tensor, dim: int, indices: np.ndarray, kind: str) -> Any:
    from engine.functional import ReturnTypes

    values = selection.values_of(a, dim, indices, topk=kind == "topk")
    result = ReturnTypes((values, Tensor._wrap(indices)))
    result.kind = kind
    return result


def sort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    d = normalize_dim(dim, a.ndim)
    return _sorted_result(a, d, selection.sorted_indices(a.array, d, descending), "sort")


def argsort(a: Tensor, dim: int = -1, descending: bool = False, stable: bool = False
            ) -> Tensor:
    d = normalize_dim(dim, a.ndim)
    return Tensor._wrap(selection.sorted_indices(a.array, d, descending))


def topk(a: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True  # noqa: A002
         ) -> Any:
    d = normalize_dim(dim, a.ndim)
    size = a.shape_tuple[d] if a.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    indices = selection.topk_indices(a.array, d, k, largest, sorted)
    return _sorted_result(a, d, indices, "topk")


def log1p(a: Tensor) -> Tensor:
    return pointwise.Log1p.apply(a)


def expm1(a: Tensor) -> Tensor:
    return pointwise.Expm1.apply(a)


def floor(a: Tensor) -> Tensor:
    return pointwise.Floor.apply(a)


def ceil(a: Tensor) -> Tensor:
    return pointwise.Ceil.apply(a)


def trunc(a: Tensor) -> Tensor:
    return pointwise.Trunc.apply(a)


def round(a: Tensor, decimals: int = 0) -> Tensor:  # noqa: A001 - torch.round
    if decimals:
        return pointwise.RoundDecimals.apply(a, decimals=decimals)
    return pointwise.Round.apply(a)


FUNCTIONS = ("var std logsumexp cumsum amax amin gather index_select masked_fill sort argsort "
             "topk log1p expm1 floor ceil trunc round").split()
