"""Picking elements by index or mask: gather, index_select, index_copy, masked_fill, topk, sort and
unique.

Each scatters its gradient back to the positions it read (adding where one position was read
more than once); masked_fill passes no gradient to the filled positions; unique has no
derivative in PyTorch (backward through it fails).
"""

from __future__ import annotations

import numpy as np

from engine.autograd import Function
from engine.ops.arith import scale
from engine.ops.introselect import row_list, topk_order
from engine.ops.pointwise import where
from engine.tensor import Tensor


class Gather(Function):
    """out[i][j] = a[index[i][j]][j] (dim 0) and so on."""

    grad_fn_name = "GatherBackward0"
    saves_state = True
    released_state = ("index",)

    def forward(self, a, dim, index):
        self.dim, self.index, self.input_shape = dim, index, a.shape
        if index.shape != a.shape:  # an index smaller than `a` reads the block it covers
            a = a[tuple(slice(None) if axis == dim else slice(0, size)
                        for axis, size in enumerate(index.shape))]
        return np.take_along_axis(a, index, axis=dim)

    def backward(self, grad, inputs, output):
        return (ScatterAdd.apply(zeros(self.input_shape, grad), grad, dim=self.dim,
                                 index=self.index),)


class IndexSelect(Function):
    """The slices of `a` along `dim` at the positions in a 1-D index."""

    grad_fn_name = "IndexSelectBackward0"
    saves_state = True
    released_state = ("index",)

    def forward(self, a, dim, index):
        self.dim, self.index, self.input_shape = dim, index, a.shape
        return np.take(a, index, axis=dim)

    def backward(self, grad, inputs, output):
        return (IndexAdd.apply(zeros(self.input_shape, grad), grad, dim=self.dim,
                               index=self.index),)


class MaskedFill(Function):
    """`value` where the mask is set; the gradient flows only where it is not."""

    grad_fn_name = "MaskedFillBackward0"

    def forward(self, a, value, mask):
        self.mask = mask
        fill = value if isinstance(value, np.ndarray) else np.asarray(value)
        if fill.dtype.kind == "f" and a.dtype.kind in "biu":
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        return np.where(mask, fill.astype(a.dtype), a)

    def backward(self, grad, inputs, output):
        keep = where(self.mask, 0.0, grad) if self.needs[0] else None
        filled = None
        if len(self.needs) > 1 and self.needs[1]:
            filled = where(self.mask, grad, 0.0).sum()
        return keep, filled


class MaskedFillTensor(MaskedFill):
    """masked_fill with a 0-dim tensor value (PyTorch's masked_fill.Tensor)."""

    grad_fn_name = "MaskedFillBackward1"


def scatter_positions(index: np.ndarray, dim: int) -> tuple[np.ndarray, ...]:
    """Where `index` writes: its own positions, with `dim` replaced by its values (an index
    smaller than the target covers only the block at its start, as in PyTorch)."""
    positions: list[np.ndarray] = list(np.indices(index.shape, sparse=True))
    positions[dim] = index
    return tuple(positions)


def _unwritten(grad: Tensor, index: np.ndarray, dim: int) -> Tensor:
    written = np.ones(grad.array.shape, dtype=grad.array.dtype)
    written[scatter_positions(index, dim)] = 0
    return grad * Tensor._wrap(written)


class Scatter(Function):
    """`a.scatter(dim, index, src)`: a copy of `a` with src's values written at `index`."""

    grad_fn_name = "ScatterBackward0"
    saves_state = True
    released_state = ("index",)

    def forward(self, a, src, dim, index):
        self.dim, self.index, self.src_shape = dim, index, src.shape
        out = a.copy()
        out[scatter_positions(index, dim)] = src[tuple(slice(0, n) for n in index.shape)]
        return out

    def backward(self, grad, inputs, output):
        kept = _unwritten(grad, self.index, self.dim) if self.needs[0] else None
        if not self.needs[1]:
            return kept, None
        _check_source_gradient(self, self.index.shape, self.src_shape)
        return kept, Gather.apply(grad, dim=self.dim, index=self.index)


def _check_source_gradient(node: Function, index_shape: tuple[int, ...],
                           src_shape: tuple[int, ...]) -> None:
    """src's gradient is grad gathered at index: index's shape, which PyTorch's engine refuses
    when index is smaller than src."""
    if index_shape != src_shape:
        raise RuntimeError(f"Function {node.grad_fn_name} returned an invalid gradient at index "
                           f"1 - got {list(index_shape)} but expected shape compatible with "
                           f"{list(src_shape)}")


class ScatterReduce(Function):
    """`a.scatter(dim, index, src or value, reduce='add'|'multiply')`: recorded, as in
    PyTorch, as a NotImplemented node: backward through it fails."""

    grad_fn_name = "NotImplemented"
    no_derivative = True

    def forward(self, a, dim, index, source, reduce):
        out = a.copy()
        positions = scatter_positions(index, dim)
        if isinstance(source, np.ndarray) and source.ndim:
            source = source[tuple(slice(0, n) for n in index.shape)]
        combine = np.add if reduce == "add" else np.multiply
        combine.at(out, positions, np.asarray(source).astype(a.dtype))
        return out

    def backward(self, grad, inputs, output):
        raise RuntimeError("derivative for aten::scatter is not implemented")


class SortValues(Function):
    """The values of sort/topk: a[indices] along `dim`; the gradient goes back to `indices`."""

    grad_fn_name = "SortBackward0"
    saves_state = True
    released_state = ("indices",)

    def forward(self, a, dim, indices):
        self.dim, self.indices, self.input_shape = dim, indices, a.shape
        if a.ndim == 0:
            return a.copy()
        return np.take_along_axis(a, indices, axis=dim)

    def backward(self, grad, inputs, output):
        if not self.input_shape:
            return (grad,)
        # PyTorch's value_selecting_reduction_backward: zeros.scatter(dim, indices, grad)
        return (Scatter.apply(zeros(self.input_shape, grad), grad, dim=self.dim,
                              index=self.indices),)


class TopkValues(SortValues):
    grad_fn_name = "TopkBackward0"


def sorted_indices(a: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """Stable order along `dim` (ties keep their order, as torch's stable sort does); NaN is
    the largest value, as in torch."""
    if a.ndim == 0:
        return np.zeros((), dtype=np.int64)
    if descending:
        # a stable descending order: sort the reversed array ascending by -a, then map back
        keys = np.where(np.isnan(a), -np.inf, -a) if a.dtype.kind == "f" else -a.astype(
            np.int64) if a.dtype.kind in "biu" else ~a
        return np.argsort(keys, axis=dim, kind="stable").astype(np.int64)
    return np.argsort(a, axis=dim, kind="stable").astype(np.int64)


def topk_indices(a: np.ndarray, dim: int, k: int, largest: bool, sorted_: bool) -> np.ndarray:
    """torch.topk's indices along `dim`: the stable order where ties cannot matter, and
    libstdc++'s selection (introselect.topk_order) on the rows where they do."""
    order = sorted_indices(a, dim, descending=largest)
    if a.ndim == 0:
        return order
    n = a.shape[dim]
    rows = np.moveaxis(order, dim, -1).reshape(-1, n)
    out = rows[:, :k].copy()
    values = np.moveaxis(a, dim, -1).reshape(-1, n)
    if k == 0 or not values.size:
        pass
    elif sorted_ or k * 64 <= n:  # sorted output: only ties among the first k + 1 matter
        head = np.take_along_axis(values, rows[:, :k + 1], axis=1)
        tied = head[:, 1:] == head[:, :-1]
        if a.dtype.kind == "f":
            tied |= np.isnan(head[:, 1:]) & np.isnan(head[:, :-1])
        for r in np.flatnonzero(tied.any(axis=1)):
            out[r] = topk_order(row_list(values[r], "topk"), k, largest, sorted_)
    else:  # nth_element leaves the first k - 1 in its own order
        for row in range(values.shape[0]):
            out[row] = topk_order(row_list(values[row], "topk"), k, largest, sorted_)
    shape = tuple(np.moveaxis(order, dim, -1).shape[:-1]) + (k,)
    return np.ascontiguousarray(np.moveaxis(out.reshape(shape), -1, dim))


def values_of(tensor: Tensor, dim: int, indices: np.ndarray, topk: bool) -> Tensor:
    return (TopkValues if topk else SortValues).apply(tensor, dim=dim, indices=indices)


class Take(Function):
    grad_fn_name = "TakeBackward0"
    saves_state = True
    released_state = ("index",)

    def forward(self, a, index):
        self.index, self.input_shape = index, a.shape
        return a.reshape(-1)[index]

    def backward(self, grad, inputs, output):
        return (PutAccumulate.apply(grad, index=self.index, shape=self.input_shape),)


class PutAccumulate(Function):
    """take's derivative: zeros.put_(index, grad, accumulate=True)."""

    grad_fn_name = "PutBackward0"
    saves_state = True
    released_state = ("index",)

    def forward(self, grad, index, shape):
        self.index = index
        out = np.zeros(int(np.prod(shape)), dtype=grad.dtype)
        np.add.at(out, index.reshape(-1), grad.reshape(-1))
        return out.reshape(shape)

    def backward(self, gg, inputs, output):
        return (Take.apply(gg, index=self.index),)


class MaskedSelect(Function):
    grad_fn_name = "MaskedSelectBackward0"
    saves_state = True
    released_state = ("mask",)

    def forward(self, a, mask):
        self.mask, self.input_shape = mask, a.shape
        return np.broadcast_to(a, mask.shape)[mask]

    def backward(self, grad, inputs, output):
        return (MaskedScatter.apply(grad, mask=self.mask),)


class MaskedScatter(Function):
    """masked_select's derivative: the values put back at the mask's positions."""

    grad_fn_name = "MaskedScatterBackward0"
    saves_state = True
    released_state = ("mask",)

    def forward(self, grad, mask):
        self.mask = mask
        out = np.zeros(mask.shape, dtype=grad.dtype)
        out[mask] = grad
        return out

    def backward(self, gg, inputs, output):
        return (MaskedSelect.apply(gg, mask=self.mask),)


class ScatterValue(Function):
    """`a.scatter(dim, index, value)`: no gradient where the value was written."""

    grad_fn_name = "ScatterBackward1"
    saves_state = True
    released_state = ("index",)

    def forward(self, a, dim, index, value):
        self.dim, self.index = dim, index
        out = a.copy()
        out[scatter_positions(index, dim)] = np.asarray(value).astype(a.dtype)
        return out

    def backward(self, grad, inputs, output):
        return (_unwritten(grad, self.index, self.dim),)


class ScatterAdd(Function):
    """`a.scatter_add(dim, index, src)`: self gets grad, src gets grad gathered at index. Also
    Gather's derivative (src added into zeros), as PyTorch's gather_backward."""

    grad_fn_name = "ScatterAddBackward0"
    promotes = False
    saves_state = True
    released_state = ("index",)

    def forward(self, a, src, dim, index):
        self.dim, self.index, self.src_shape = dim, index, src.shape
        out = a.copy()
        source = src[tuple(slice(0, n) for n in index.shape)]
        np.add.at(out, scatter_positions(index, dim), source.astype(a.dtype))
        return out

    def backward(self, grad, inputs, output):
        if not self.needs[1]:
            return grad if self.needs[0] else None, None
        _check_source_gradient(self, self.index.shape, self.src_shape)
        return (grad if self.needs[0] else None,
                Gather.apply(grad, dim=self.dim, index=self.index))


class IndexAdd(Function):
    """`a.index_add(dim, index, source, alpha=)`: self gets grad, source the selected rows. Also
    IndexSelect's derivative (source added into zeros), as PyTorch's index_select_backward."""

    grad_fn_name = "IndexAddBackward0"
    saves_state = True
    released_state = ("index",)

    def forward(self, a, source, dim, index, alpha=1):
        self.dim, self.index, self.alpha = dim, index, alpha
        out = a.copy()
        values = source if alpha == 1 else source * np.asarray(alpha, dtype=source.dtype)
        if a.ndim == 0:
            np.add.at(out.reshape(1), index, values.reshape(-1).astype(a.dtype))
            return out
        np.add.at(np.moveaxis(out, dim, 0), index,
                  np.moveaxis(values.astype(a.dtype), dim, 0) if values.ndim else values)
        return out

    def backward(self, grad, inputs, output):
        grad_source = None
        if self.needs[1]:
            grad_source = IndexSelect.apply(grad, dim=self.dim, index=self.index)
            if self.alpha != 1:
                grad_source = scale(grad_source, self.alpha)
        return (grad if self.needs[0] else None, grad_source)


class IndexCopy(Function):
    """`a.index_copy(dim, index, source)`: the slices of `a` at `index` replaced by `source`'s.
    Self's gradient is zero at the replaced slices; source's is the gradient there."""

    grad_fn_name = "IndexCopyBackward0"
    saves_state = True
    released_state = ("index",)

    def forward(self, a, source, dim, index):
        self.dim, self.index, self.source_shape = dim, index, source.shape
        out = a.copy()
        target = np.moveaxis(out.reshape(-1) if a.ndim == 0 else out, dim, 0)
        target[index] = (np.moveaxis(source, dim, 0) if source.ndim and a.ndim
                         else source.reshape(-1))
        return out

    def backward(self, grad, inputs, output):
        grad_self = grad_source = None
        if self.needs[0]:
            replaced = np.zeros(grad.shape_tuple, dtype=bool)
            np.moveaxis(replaced.reshape(-1) if grad.ndim == 0 else replaced, self.dim,
                        0)[self.index] = True
            grad_self = where(replaced, 0.0, grad)
        if self.needs[1]:
            picked = grad.reshape(1) if grad.ndim == 0 else grad
            grad_source = IndexSelect.apply(picked, dim=self.dim, index=self.index)
            if grad_source.shape_tuple != self.source_shape:
                grad_source = grad_source.reshape(self.source_shape)
        return grad_self, grad_source


def zeros(shape: tuple[int, ...], like: Tensor) -> Tensor:
    """A tensor of zeros of `like`'s dtype, into which a derivative adds (`grad.new_zeros`)."""
    return Tensor._wrap(np.zeros(shape, dtype=like.array.dtype))


class Unique2(Function):
    """The sorted distinct values of a tensor (torch.unique without dim); PyTorch records the
    node but defines no derivative for it."""

    grad_fn_name = "Unique2Backward0"
    op_name = "_unique2"
    no_derivative = True  # recorded, as in PyTorch, but backward through it fails

    def forward(self, a, dim=None):
        return (np.unique(a, equal_nan=False) if dim is None  # each NaN its own value
                else np.unique(a, axis=dim, equal_nan=False))

    def backward(self, grad, inputs, output):
        raise NotImplementedError(f"the derivative for '{self.op_name}' is not implemented.")


class UniqueDim(Unique2):
    """torch.unique(..., dim=d): the distinct slices along d, sorted."""

    grad_fn_name = "UniqueDimBackward0"
    op_name = "unique_dim"
