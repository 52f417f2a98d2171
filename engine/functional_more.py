"""Still more torch functions: trigonometry and friends, tril/triu/roll/diag/trace/cumprod,
tile/repeat_interleave/einsum, scatter/index_add/take/masked_select, stacking helpers,
meshgrid, cross, median, diff, nonzero and torch.linalg's norms.

engine/functional.py re-exports FUNCTIONS, so they are torch functions and tensor methods
alike; the math and derivatives live in engine/ops/pointwise_extra.py and linalg_extra.py.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from engine import budget
from engine.functional_extra import _index_array
from engine.ops import linalg_extra as ops
from engine.ops import pointwise, pointwise_extra
from engine.ops import shape as shape_ops
from engine.ops.index import _slice
from engine.tensor import Tensor, normalize_dim


def _t(value: Any, name: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(value).__name__}")
    return value


# --- elementwise -------------------------------------------------------------------------------

def tan(a: Tensor) -> Tensor:
    return pointwise_extra.Tan.apply(_t(a, "tan"))


def atan(a: Tensor) -> Tensor:
    return pointwise_extra.Atan.apply(_t(a, "atan"))


def asin(a: Tensor) -> Tensor:
    return pointwise_extra.Asin.apply(_t(a, "asin"))


def acos(a: Tensor) -> Tensor:
    return pointwise_extra.Acos.apply(_t(a, "acos"))


def sinh(a: Tensor) -> Tensor:
    return pointwise_extra.Sinh.apply(_t(a, "sinh"))


def cosh(a: Tensor) -> Tensor:
    return pointwise_extra.Cosh.apply(_t(a, "cosh"))


def erf(a: Tensor) -> Tensor:
    return pointwise_extra.Erf.apply(_t(a, "erf"))


def exp2(a: Tensor) -> Tensor:
    return pointwise_extra.Exp2.apply(_t(a, "exp2"))


def log2(a: Tensor) -> Tensor:
    return pointwise_extra.Log2.apply(_t(a, "log2"))


def log10(a: Tensor) -> Tensor:
    return pointwise_extra.Log10.apply(_t(a, "log10"))


def frac(a: Tensor) -> Tensor:
    return pointwise_extra.Frac.apply(_t(a, "frac"))


def sgn(a: Tensor) -> Tensor:
    return pointwise.Sgn.apply(_t(a, "sgn"))


def atan2(a: Tensor, other: Any) -> Tensor:
    return pointwise_extra.Atan2.apply(_t(a, "atan2"), _t(other, "atan2"))


arctan2 = atan2


def hypot(a: Tensor, other: Any) -> Tensor:
    return pointwise_extra.Hypot.apply(_t(a, "hypot"), _t(other, "hypot"))


def lerp(a: Tensor, end: Tensor, weight: Any) -> Tensor:
    if isinstance(weight, Tensor):
        return pointwise_extra.LerpTensor.apply(a, end, weight)
    return pointwise_extra.Lerp.apply(a, end, weight=weight)


# --- matrices ------------------------------------------------------------------------------------

def tril(a: Tensor, diagonal: int = 0) -> Tensor:
    return ops.Tril.apply(_t(a, "tril"), diagonal=diagonal)


def triu(a: Tensor, diagonal: int = 0) -> Tensor:
    return ops.Triu.apply(_t(a, "triu"), diagonal=diagonal)


def roll(a: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    shift_list = tuple(shifts) if isinstance(shifts, (tuple, list)) else (int(shifts),)
    if dims is None:
        if len(shift_list) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shift_list)}, "
                               "dims:0")
        return ops.Roll.apply(a, shifts=shift_list, dims=())
    dim_list = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
    if len(dim_list) != len(shift_list):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shift_list)}, "
                           f"dims:{len(dim_list)}")
    normalized = tuple(normalize_dim(d, a.ndim) for d in dim_list)
    return ops.Roll.apply(a, shifts=shift_list, dims=normalized)


def outer(a: Tensor, b: Tensor) -> Tensor:
    """torch: self.reshape({-1, 1}) * vec2."""
    from engine import functional as F

    a, b = _t(a, "outer"), _t(b, "outer")
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {a.ndim}-D" if a.ndim
                           != 1 else f"outer: Expected 1-D argument vec2, but got {b.ndim}-D")
    budget.check_shape((a.numel(), b.numel()), max(a.array.itemsize, b.array.itemsize))
    return F.mul(shape_ops.reshape(a, -1, 1), b)


ger = outer


def diag(a: Tensor, diagonal: int = 0) -> Tensor:
    a = _t(a, "diag")
    if a.ndim == 1:
        size = a.numel() + builtins.abs(diagonal)
        budget.check_shape((size, size), a.array.itemsize)
        return ops.DiagEmbed.apply(a, offset=diagonal)
    if a.ndim != 2:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " f"{a.ndim}D")
    return ops.DiagonalCopy.apply(a, offset=diagonal, dim1=0, dim2=1)


def diagonal(a: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    a = _t(a, "diagonal")
    d1, d2 = normalize_dim(dim1, a.ndim), normalize_dim(dim2, a.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return shape_ops.view_of(a, ops.Diagonal.apply(a, offset=offset, dim1=d1, dim2=d2))


def trace(a: Tensor) -> Tensor:
    return ops.Trace.apply(_t(a, "trace"))


def cumprod(a: Tensor, dim: int, dtype: Any = None) -> Tensor:
    if dtype is not None:
        a = a.to(dtype)
    return ops.Cumprod.apply(a, dim=normalize_dim(dim, a.ndim))


def tile(a: Tensor, dims: Any, *more: Any) -> Tensor:
    reps = (dims, *more) if more else tuple(dims) if isinstance(dims, (tuple, list)) else (
        dims,)
    reps = (1,) * builtins.max(0, a.ndim - len(reps)) + tuple(int(r) for r in reps)
    return shape_ops.repeat(a, *reps)


def repeat_interleave(a: Tensor, repeats: Any, dim: Any = None, *,
                      output_size: Any = None) -> Tensor:
    """Integer repeats: torch unsqueezes, expands, clones and flattens (ViewBackward0)."""
    if isinstance(repeats, Tensor):
        if repeats.numel() != 1:
            raise NotImplementedError("repeat_interleave with a tensor of repeats is not "
                                      "supported by agraph (use an int)")
        repeats = int(repeats.item())
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


def narrow(a: Tensor, dim: int, start: Any, length: int) -> Tensor:
    a = _t(a, "narrow")
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
    return _slice(a, d, slice(start, start + length))


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


moveaxis = movedim


def swapaxes(a: Tensor, axis0: int, axis1: int) -> Tensor:
    return shape_ops.transpose(a, axis0, axis1)


swapdims = swapaxes


def _atleast(tensors: Any, ndim: int, name: str) -> list[Tensor]:
    items = list(tensors)
    if not items:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    out = []
    for t in items:
        if ndim == 1 and t.ndim == 0:
            t = shape_ops.reshape(t, 1)
        elif ndim == 2 and t.ndim < 2:
            t = shape_ops.reshape(t, 1, -1) if t.ndim == 1 else shape_ops.reshape(t, 1, 1)
        out.append(t)
    return out


def hstack(tensors: Any) -> Tensor:
    items = _atleast(tensors, 1, "hstack")
    return shape_ops.cat(items, 0 if items[0].ndim == 1 else 1)


def vstack(tensors: Any) -> Tensor:
    return shape_ops.cat(_atleast(tensors, 2, "vstack"), 0)


row_stack = vstack


def column_stack(tensors: Any) -> Tensor:
    items = list(tensors)
    if not items:
        raise RuntimeError("column_stack expects a non-empty TensorList")
    columns = [shape_ops.reshape(t, t.numel(), 1) if t.ndim <= 1 else t for t in items]
    return shape_ops.cat(columns, 1)


def broadcast_to(a: Tensor, size: Any) -> Tensor:
    return shape_ops.expand(a, tuple(size))


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple[Tensor, ...]:
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    if indexing is None:
        import warnings

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


def cross(a: Tensor, other: Tensor, dim: Any = None) -> Tensor:
    if a.shape_tuple != other.shape_tuple and a.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if dim is None:
        import warnings

        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\n"
                      "Please either pass the dim explicitly or simply use torch.linalg.cross."
                      "\nThe default value of dim will change to agree with that of "
                      "linalg.cross in a future release.", UserWarning, stacklevel=3)
        dim = next(i for i, n in enumerate(a.shape_tuple) if n == 3)
    d = normalize_dim(dim, a.ndim)
    if a.shape_tuple[d] != 3 or other.shape_tuple[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {d} must have length 3. Got "
                           f"{a.shape_tuple[d]} and {other.shape_tuple[d]}")
    return ops.LinalgCross.apply(a, other, dim=d)


def kron(a: Tensor, b: Tensor) -> Tensor:
    """torch: a and b viewed with interleaved unit dims, multiplied, viewed back."""
    from engine import functional as F

    ndim = builtins.max(a.ndim, b.ndim)
    sa = (1,) * (ndim - a.ndim) + a.shape_tuple
    sb = (1,) * (ndim - b.ndim) + b.shape_tuple
    shape = tuple(x * y for x, y in zip(sa, sb, strict=True))
    budget.check_shape(shape, builtins.max(a.array.itemsize, b.array.itemsize))
    left = shape_ops.reshape(a, *[n for x in sa for n in (x, 1)])
    right = shape_ops.reshape(b, *[n for y in sb for n in (1, y)])
    product = F.mul(left, right)
    return shape_ops.UnsafeView.apply(product, shape=shape, array=product.array.reshape(shape))


# --- einsum --------------------------------------------------------------------------------------

def _einsum_terms(equation: str, operands: list[Tensor]) -> tuple[list[str], str]:
    equation = equation.replace(" ", "")
    left, arrow, right = equation.partition("->")
    terms = left.split(",")
    if len(terms) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation" if len(operands) > len(terms) else
                           "einsum(): fewer operands were provided than specified in the "
                           "equation")
    used = set(equation) - set(".,->")
    spare = iter(ch for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in used)
    ellipsis_letters = ""
    width = builtins.max((op.ndim - len(term.replace("...", "")) for term, op in
                          zip(terms, operands, strict=True) if "..." in term), default=0)
    if width:
        ellipsis_letters = "".join(next(spare) for _ in range(width))
    resolved = []
    for index, (term, op) in enumerate(zip(terms, operands, strict=True)):
        for ch in term.replace("...", ""):
            if not ch.isalpha():
                raise RuntimeError(f"einsum(): invalid subscript given at index "
                                   f"{equation.index(ch)} in the equation string, subscripts "
                                   "must be in [a-zA-Z]")
        if "..." in term:
            count = op.ndim - len(term.replace("...", ""))
            term = term.replace("...", ellipsis_letters[width - count:] if count else "")
        elif len(term) != op.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(term)}) does not match the number of dimensions "
                               f"({op.ndim}) for operand {index} and no ellipsis was given")
        resolved.append(term)
    if arrow:
        output = right.replace("...", ellipsis_letters)
        for ch in output:
            if ch not in "".join(resolved):
                raise RuntimeError(f"einsum(): output subscript {ch} does not appear in the "
                                   "equation for any input operand")
    else:
        counts: dict[str, int] = {}
        for term in resolved:
            for ch in term:
                counts[ch] = counts.get(ch, 0) + 1
        output = ellipsis_letters + "".join(sorted(ch for ch, n in counts.items()
                                                   if n == 1 and ch not in ellipsis_letters))
    return resolved, output


def einsum(equation: str, *operands: Any) -> Tensor:
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    tensors = [_t(op, "einsum") for op in operands]
    terms, output = _einsum_terms(equation, tensors)
    sizes: dict[str, int] = {}
    for index, (term, t) in enumerate(zip(terms, tensors, strict=True)):
        for ch, size in zip(term, t.shape_tuple, strict=True):
            seen = sizes.get(ch)
            if seen is not None and seen != size and 1 not in (seen, size):
                raise RuntimeError(f"einsum(): subscript {ch} has size {size} for operand "
                                   f"{index} which does not broadcast with previously seen "
                                   f"size {seen}")
            sizes[ch] = size if seen is None or seen == 1 else seen
    expanded = []
    for term, t in zip(terms, tensors, strict=True):
        target = tuple(sizes[ch] for ch in term)
        expanded.append(t if t.shape_tuple == target else shape_ops.expand(t, target))
    budget.check_shape([sizes[ch] for ch in output], 8)
    summed = set("".join(terms)) - set(output)
    if len(tensors) == 1:
        name = "SumBackward1" if summed else "PermuteBackward0"
    else:
        name = "ViewBackward0" if summed else "MulBackward0"
    return ops.Einsum.apply(*expanded, inputs=tuple(terms), output=output, name=name)


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


def scatter(a: Tensor, dim: int, index: Any, src: Any = None, value: Any = None,
            reduce: Any = None) -> Tensor:
    from engine.ops import selection

    if reduce is not None:
        raise NotImplementedError("scatter with reduce= is not supported by agraph")
    d = normalize_dim(dim, a.ndim)
    array = _index_array(index, "scatter")
    if src is None:
        src = value
    if isinstance(src, Tensor):
        _check_scatter(a, d, array, src, "scatter")
        block = src.array[tuple(slice(0, n) for n in array.shape)]
        if block.shape != src.shape_tuple:
            src = _slice_block(src, array.shape)
        if src.dtype is not a.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        return selection.Scatter.apply(a, src, dim=d, index=array)
    _check_scatter(a, d, array, None, "scatter")
    return ops.ScatterValue.apply(a, dim=d, index=array, value=src)


def _slice_block(src: Tensor, shape: tuple[int, ...]) -> Tensor:
    for axis, size in enumerate(shape):
        if size != src.shape_tuple[axis]:
            src = _slice(src, axis, slice(0, size))
    return src


def scatter_add(a: Tensor, dim: int, index: Any, src: Tensor) -> Tensor:
    d = normalize_dim(dim, a.ndim)
    array = _index_array(index, "scatter_add")
    _check_scatter(a, d, array, src, "scatter_add")
    if src.dtype is not a.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    return ops.ScatterAddOp.apply(a, src, dim=d, index=array)


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
    return ops.IndexAddOp.apply(a, source, dim=d, index=array, alpha=alpha)


def take(a: Tensor, index: Any) -> Tensor:
    array = _index_array(index, "take")
    size = a.numel()
    bad = array[(array < -size) | (array >= size)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {int(bad.flat[0])} on a tensor of "
                         f"{size} elements.")
    return ops.Take.apply(a, index=np.where(array < 0, array + size, array))


def masked_select(a: Tensor, mask: Any) -> Tensor:
    if not isinstance(mask, Tensor) or mask.array.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    shape = np.broadcast_shapes(a.shape_tuple, mask.shape_tuple)
    if shape != a.shape_tuple:
        a = shape_ops.expand(a, shape)
    return ops.MaskedSelect.apply(a, mask=np.broadcast_to(mask.array, shape))


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


def argwhere(a: Tensor) -> Tensor:
    return nonzero(a)


def count_nonzero(a: Tensor, dim: Any = None) -> Tensor:
    if dim is None:
        return Tensor._wrap(np.asarray(np.count_nonzero(a.array), dtype=np.int64))
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    axes = tuple(normalize_dim(d, a.ndim) for d in dims)
    return Tensor._wrap(np.asarray(np.count_nonzero(a.array, axis=axes), dtype=np.int64))


def median(a: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    from engine.functional import ReturnTypes

    a = _t(a, "median")
    if dim is None:
        return ops.Median.apply(a)
    d = normalize_dim(dim, a.ndim)
    if a.ndim == 0:
        indices = np.zeros((), dtype=np.int64)
        values = ops.MedianDim.apply(shape_ops.reshape(a, 1), dim=0, keepdim=False,
                                     indices=np.zeros(1, dtype=np.int64))
        result = ReturnTypes((values, Tensor._wrap(indices)))
    else:
        if a.shape_tuple[d] == 0:
            raise IndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
        picked = ops.median_indices(a.array, d)
        values = ops.MedianDim.apply(a, dim=d, keepdim=keepdim, indices=picked)
        indices = picked if keepdim else np.squeeze(picked, axis=d)
        result = ReturnTypes((values, Tensor._wrap(indices)))
    result.kind = "median"
    return result


def diff(a: Tensor, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None
         ) -> Tensor:
    from engine import functional as F

    a = _t(a, "diff")
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
        a = F.sub(_slice(a, d, slice(1, size)), _slice(a, d, slice(0, size - 1)))
    return a


# --- torch.linalg --------------------------------------------------------------------------------

def vector_norm(a: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False,  # noqa: A002
                *, dtype: Any = None) -> Tensor:
    from engine import functional as F

    return F.norm(a, p=ord, dim=dim, keepdim=keepdim)


def linalg_norm(a: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False,  # noqa: A002
                *, dtype: Any = None) -> Tensor:
    if ord is None or (isinstance(dim, int) or (isinstance(dim, (tuple, list)) and len(dim) == 1)
                       or (dim is None and a.ndim == 1 and ord is not None
                           and not isinstance(ord, str))):
        if dim is None and ord is not None and a.ndim != 1:
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input "
                               f"must be 1D or 2D. Got {a.ndim}D.")
        return vector_norm(a, 2 if ord is None else ord, dim, keepdim)
    if ord == "fro" and (dim is None or len(dim) == 2):
        return vector_norm(a, 2, dim, keepdim)
    raise NotImplementedError(f"torch.linalg.norm with ord={ord!r} (a matrix norm) is not "
                              "supported by agraph")


class LinalgNamespace:
    """`torch.linalg`: the functions agraph has, reached by attribute."""

    PUBLIC_ATTRS = frozenset({"norm", "vector_norm", "cross"})
    norm = staticmethod(linalg_norm)
    vector_norm = staticmethod(vector_norm)

    @staticmethod
    def cross(a: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
        return cross(a, other, dim=dim)

    def __repr__(self) -> str:
        return "<module 'torch.linalg'>"


linalg = LinalgNamespace()


FUNCTIONS = """
    tan atan asin acos sinh cosh erf exp2 log2 log10 frac sgn atan2 arctan2 hypot lerp
    tril triu roll outer ger diag diagonal trace cumprod tile repeat_interleave narrow movedim
    moveaxis swapaxes swapdims hstack vstack row_stack column_stack broadcast_to meshgrid cross
    kron einsum scatter scatter_add index_add take masked_select nonzero argwhere
    count_nonzero median diff
""".split()

METHODS = """
    tan atan asin acos sinh cosh erf exp2 log2 log10 frac sgn atan2 arctan2 hypot lerp
    tril triu roll outer ger diag diagonal trace cumprod tile repeat_interleave narrow movedim
    moveaxis swapaxes swapdims broadcast_to cross kron scatter scatter_add index_add take
    masked_select nonzero argwhere count_nonzero median diff
    tril_ triu_ scatter_ scatter_add_ index_add_ lerp_ tan_ atan_ sinh_ cosh_ erf_ frac_
""".split()
