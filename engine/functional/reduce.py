"""Reductions and statistics over dims: sum/mean/prod, max/min and their arg forms,
softmax/log_softmax, norm, var/std, logsumexp, cumsum/cumprod, amax/amin, median,
count_nonzero, diff; mse_loss."""

from __future__ import annotations

import builtins
import warnings
from typing import Any

import numpy as np

from engine import dtypes
from engine.functional.arith import div, mul, sub
from engine.operands import expect_tensor
from engine.ops import loss, reduce, statistics
from engine.ops import shape as shape_ops
from engine.ops.index import slice_along
from engine.ops.introselect import kth_position, row_list
from engine.ops.reduce import reduced_dims
from engine.registry import public
from engine.tensor import Tensor, normalize_dim

# --- reductions ---------------------------------------------------------------------------------

def _dim_arg(dim: Any, axis: Any) -> Any:
    return axis if dim is None else dim


def _over_dims(name: str, whole: Any, along: Any, a: Tensor, dim: Any, keepdim: bool,
               dtype: Any) -> Tensor:
    """sum/mean: `whole` (SumBackward0) without a dim, else `along` the dims (SumBackward1)."""
    np_dtype = None if dtype is None else dtypes.resolve(dtype).np
    if dim is None:
        return whole.apply(expect_tensor(a, name), dtype=np_dtype)
    dims = reduce.reduced_dims(dim, a.ndim)
    return along.apply(a, dims=dims, keepdim=keepdim, dtype=np_dtype)


@public(method=True)
def sum(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None,  # noqa: A001
        axis: Any = None) -> Tensor:
    if a.__class__ is Tensor and dim is None and axis is None and dtype is None:
        return reduce.Sum.apply(a)  # `loss.sum()`: the whole tensor
    return _over_dims("sum", reduce.Sum, reduce.SumDim, a, _dim_arg(dim, axis), keepdim, dtype)


@public(method=True)
def mean(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None,
         axis: Any = None) -> Tensor:
    return _over_dims("mean", reduce.Mean, reduce.MeanDim, a, _dim_arg(dim, axis), keepdim,
                      dtype)


@public(method=True)
def prod(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        return reduce.Prod.apply(expect_tensor(a, "prod"))
    return reduce.ProdDim.apply(a, dim=normalize_dim(dim, a.ndim), keepdim=keepdim)


class ReturnTypes(tuple):  # type: ignore[type-arg]
    """`torch.return_types.max(values=..., indices=...)`: a named pair."""

    PUBLIC_ATTRS = frozenset({"values", "indices"})
    kind = "max"

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        return (f"torch.return_types.{self.kind}(\nvalues={self[0]!r},\nindices={self[1]!r})")


def _extreme(a: Tensor, dim: Any, keepdim: bool, other: Any, is_max: bool) -> Any:
    if isinstance(dim, Tensor) and other is None:
        other, dim = dim, None
    if other is not None:
        return maximum(a, other) if is_max else minimum(a, other)
    if dim is None:
        return (reduce.MaxAll if is_max else reduce.MinAll).apply(expect_tensor(a))
    d = normalize_dim(dim, a.ndim)
    values = (reduce.MaxDim if is_max else reduce.MinDim).apply(a, dim=d, keepdim=keepdim)
    fn = values.grad_fn
    indices_array = (fn.indices if fn is not None and hasattr(fn, "indices") else
                     (np.argmax if is_max else np.argmin)(a.array, axis=d, keepdims=True)
                     if a.ndim else np.zeros((), dtype=np.int64))
    if a.ndim and not keepdim:
        indices_array = np.squeeze(indices_array, axis=d)
    result = ReturnTypes((values, Tensor._wrap(np.asarray(indices_array, dtype=np.int64))))
    result.kind = "max" if is_max else "min"
    return result


@public(method=True)
def max(a: Tensor, dim: Any = None, keepdim: bool = False, other: Any = None) -> Any:  # noqa: A001
    return _extreme(a, dim, keepdim, other, True)


@public(method=True)
def min(a: Tensor, dim: Any = None, keepdim: bool = False, other: Any = None) -> Any:  # noqa: A001
    return _extreme(a, dim, keepdim, other, False)


@public(method=True)
def maximum(a: Tensor, b: Tensor) -> Tensor:
    return reduce.Maximum.apply(expect_tensor(a, "maximum"),
                                expect_tensor(b, "maximum", "other", 2))


@public(method=True)
def minimum(a: Tensor, b: Tensor) -> Tensor:
    return reduce.Minimum.apply(expect_tensor(a, "minimum"),
                                expect_tensor(b, "minimum", "other", 2))


@public(method=True)
def argmax(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        return Tensor._wrap(np.asarray(np.argmax(a.array), dtype=np.int64))
    return Tensor._wrap(np.argmax(a.array, axis=normalize_dim(dim, a.ndim), keepdims=keepdim))


@public(method=True)
def argmin(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        return Tensor._wrap(np.asarray(np.argmin(a.array), dtype=np.int64))
    return Tensor._wrap(np.argmin(a.array, axis=normalize_dim(dim, a.ndim), keepdims=keepdim))


def _softmax_input(a: Tensor, dim: Any, dtype: Any, name: str) -> tuple[Tensor, int]:
    """The input cast to `dtype` if given (as torch does first); integers have no kernel."""
    if dim is _NO_DIM:  # only torch.nn.functional's softmax has an implicit dim
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if dim is None:
        raise TypeError(f"{name}(): argument 'dim' must be int, not NoneType")
    dim = normalize_dim(dim, a.ndim)
    if dtype is not None:
        a = a.to(dtype)
    elif not a.dtype.is_floating_point:
        kernel = f"{name}_lastdim_kernel_impl" if dim == builtins.max(a.ndim - 1, 0) else (
            f"{name}_kernel_impl")
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{a.dtype.legacy_name.removesuffix('Tensor')}'")
    return a, dim


_NO_DIM: Any = object()


@public(method=True)
def softmax(a: Tensor, dim: Any = _NO_DIM, dtype: Any = None) -> Tensor:
    a, dim = _softmax_input(a, dim, dtype, "softmax")
    return reduce.Softmax.apply(a, dim=dim)


@public(method=True)
def log_softmax(a: Tensor, dim: Any = _NO_DIM, dtype: Any = None) -> Tensor:
    a, dim = _softmax_input(a, dim, dtype, "log_softmax")
    return reduce.LogSoftmax.apply(a, dim=dim)


@public(method=True)
def norm(a: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         dtype: Any = None) -> Tensor:
    a = expect_tensor(a, "norm")
    if not a.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {a.dtype.legacy_name.removesuffix('Tensor')}")
    if isinstance(p, str) and p != "fro":
        if p == "nuc":
            raise NotImplementedError("norm with p='nuc' (the nuclear norm) is not supported by "
                                      "agraph")
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    order = 2 if p in ("fro", None) else float(p)
    dims = None if dim is None else reduce.reduced_dims(dim, a.ndim)
    return reduce.LinalgVectorNorm.apply(a, ord=order, dims=dims, keepdim=keepdim)


@public(method=True)
def dist(a: Tensor, b: Tensor, p: float = 2) -> Tensor:
    a, b = expect_tensor(a, "dist"), expect_tensor(b, "dist")
    for x in (a, b):
        if not x.dtype.is_floating_point:
            raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                               f"Got {x.dtype.legacy_name.removesuffix('Tensor')} instead.")
    return reduce.Dist.apply(a, b, p=float(p))


@public(torch=False)
def mse_loss(a: Tensor, b: Tensor, reduction: str = "mean") -> Tensor:
    return loss.MseLoss.apply(a, b, reduction=reduction)


def _var_arguments(a: Tensor, dim: Any, unbiased: Any, correction: Any, name: str
                   ) -> tuple[tuple[int, ...] | None, int]:
    """var/std's dims and correction, after PyTorch's checks (the legacy `unbiased`)."""
    if not a.dtype.is_floating_point:
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if isinstance(dim, bool):  # torch.var(x, False): the legacy `unbiased` argument
        dim, unbiased = None, dim
    if correction is None:
        correction = 0 if unbiased is False else 1
    dims = None if dim is None or (isinstance(dim, (tuple, list)) and not dim) else reduced_dims(
        dim, a.ndim)
    count = a.numel() if dims is None else int(np.prod([a.shape_tuple[d] for d in dims]))
    if count - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                      "less than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=4)
    return dims, correction


@public(method=True)
def var(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    dims, correction = _var_arguments(a, dim, unbiased, correction, "var")
    return statistics.Var.apply(a, dims=dims, correction=correction, keepdim=keepdim)


@public(method=True)
def std(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    dims, correction = _var_arguments(a, dim, unbiased, correction, "std")
    return statistics.Std.apply(a, dims=dims, correction=correction, keepdim=keepdim)


@public
def var_mean(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
             correction: Any = None) -> tuple[Tensor, Tensor]:
    dims, correction = _var_arguments(a, dim, unbiased, correction, "var_mean")
    return tuple(statistics.VarMean.apply(a, dims=dims, correction=correction,
                                          keepdim=keepdim))


@public
def std_mean(a: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
             correction: Any = None) -> tuple[Tensor, Tensor]:
    dims, correction = _var_arguments(a, dim, unbiased, correction, "std_mean")
    return tuple(statistics.StdMean.apply(a, dims=dims, correction=correction,
                                          keepdim=keepdim))


@public(method=True)
def nansum(a: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    dims = None if dim is None else reduced_dims(dim, a.ndim)
    return reduce.Nansum.apply(a, dims=dims, keepdim=keepdim)


@public(method=True)
def nanmean(a: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """torch's: nansum / the count of numbers."""
    if not a.dtype.is_floating_point:
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {a.dtype.legacy_name.removesuffix('Tensor')}")
    dims = None if dim is None else reduced_dims(dim, a.ndim)
    counted = Tensor._wrap(np.asarray(np.sum(~np.isnan(a.array), axis=dims, keepdims=keepdim),
                                      dtype=np.int64))
    return div(nansum(a, dim, keepdim, dtype=dtype), counted)


@public(method=True)
def logsumexp(a: Tensor, dim: Any, keepdim: bool = False) -> Tensor:
    dims = tuple(range(a.ndim)) if isinstance(dim, (tuple, list)) and not dim else reduced_dims(
        dim, a.ndim)
    return statistics.Logsumexp.apply(a, dims=dims, keepdim=keepdim)


@public(method=True, inplace=True)
def cumsum(a: Tensor, dim: int, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    return statistics.Cumsum.apply(a, dim=normalize_dim(dim, a.ndim))


@public(method=True)
def amax(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    dims = tuple(range(a.ndim)) if isinstance(dim, (tuple, list)) and not dim else reduced_dims(
        dim, a.ndim)
    return statistics.Amax.apply(a, dims=dims, keepdim=keepdim)


@public(method=True)
def amin(a: Tensor, dim: Any = (), keepdim: bool = False) -> Tensor:
    dims = tuple(range(a.ndim)) if isinstance(dim, (tuple, list)) and not dim else reduced_dims(
        dim, a.ndim)
    return statistics.Amin.apply(a, dims=dims, keepdim=keepdim)


@public(method=True)
def cumprod(a: Tensor, dim: int, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    return statistics.Cumprod.apply(a, dim=normalize_dim(dim, a.ndim))


@public(method=True)
def count_nonzero(a: Tensor, dim: Any = None) -> Tensor:
    if dim is None:
        return Tensor._wrap(np.asarray(np.count_nonzero(a.array), dtype=np.int64))
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    axes = tuple(normalize_dim(d, a.ndim) for d in dims)
    return Tensor._wrap(np.asarray(np.count_nonzero(a.array, axis=axes), dtype=np.int64))


@public(method=True)
def median(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:

    a = expect_tensor(a, "median")
    if dim is None:
        return statistics.Median.apply(a)
    d = normalize_dim(dim, a.ndim)
    if a.ndim == 0:
        indices = np.zeros((), dtype=np.int64)
        values = statistics.MedianDim.apply(shape_ops.reshape(a, 1), dim=0, keepdim=False,
                                     indices=np.zeros(1, dtype=np.int64))
        result = ReturnTypes((values, Tensor._wrap(indices)))
    else:
        if a.shape_tuple[d] == 0:
            raise IndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
        picked = statistics.median_indices(a.array, d)
        values = statistics.MedianDim.apply(a, dim=d, keepdim=keepdim, indices=picked)
        indices = picked if keepdim else np.squeeze(picked, axis=d)
        result = ReturnTypes((values, Tensor._wrap(indices)))
    result.kind = "median"
    return result


@public(method=True)
def kthvalue(a: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> Any:
    """The k-th smallest value along `dim` and its index, the index ATen's quickselect leaves
    at k - 1 (which of several equal values: engine/ops/introselect.py kth_position)."""
    a = expect_tensor(a, "kthvalue")
    d = normalize_dim(dim, a.ndim)
    row = a.array.reshape(1) if a.ndim == 0 else np.moveaxis(a.array, d, -1)
    if not 1 <= k <= row.shape[-1]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    flat = row.reshape(-1, row.shape[-1])
    picked = np.array([kth_position(row_list(r, "kthvalue"), k - 1) for r in flat],
                      dtype=np.int64)
    if a.ndim == 0:
        values = statistics.KthvalueDim.apply(shape_ops.reshape(a, 1), dim=0, keepdim=False,
                                              indices=np.zeros(1, dtype=np.int64))
        result = ReturnTypes((values, Tensor._wrap(np.zeros((), dtype=np.int64))))
    else:
        indices = np.expand_dims(picked.reshape(row.shape[:-1]), d)
        values = statistics.KthvalueDim.apply(a, dim=d, keepdim=keepdim, indices=indices)
        result = ReturnTypes((values, Tensor._wrap(indices if keepdim
                                                   else np.squeeze(indices, axis=d))))
    result.kind = "kthvalue"
    return result


@public(method=True)
def diff(a: Tensor, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None
         ) -> Tensor:

    a = expect_tensor(a, "diff")
    if a.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    d = normalize_dim(dim, a.ndim)
    if prepend is not None or append is not None:
        parts = [p for p in (prepend, a, append) if p is not None]
        a = shape_ops.cat(parts, d)
    for _ in range(n):
        size = a.shape_tuple[d]
        if size == 0:
            break
        a = sub(slice_along(a, d, slice(1, size)), slice_along(a, d, slice(0, size - 1)))
    return a


@public
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """torch's composite: each input over its (eps-clamped) norm, product, sum over dim."""
    common = np.broadcast_shapes(x1.shape_tuple, x2.shape_tuple)
    if x1.shape_tuple != common:
        x1 = shape_ops.expand(x1, common)
    if x2.shape_tuple != common:
        x2 = shape_ops.expand(x2, common)
    norms = []
    for x in (x1, x2):
        length = norm(x, 2, dim, keepdim=True)
        # torch clamps it in place under no_grad: same storage, the node keeps the values
        np.maximum(length.array, np.asarray(eps, dtype=length.array.dtype), out=length.array)
        norms.append(length)
    return sum(mul(div(x1, norms[0]), div(x2, norms[1])), dim=dim)
