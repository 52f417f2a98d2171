"""Matrix-shaped ops: tril/triu, roll, diag/diagonal, trace, cumprod, einsum, cross, median,
take, masked_select and the scatter/index_add family, with PyTorch's derivative formulas.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.autograd import Function
from engine.ops.selection import Gather, IndexSelect
from engine.tensor import Tensor


class Tril(Function):
    grad_fn_name = "TrilBackward0"
    upper = False

    def forward(self, a, diagonal=0):
        if a.ndim < 2:
            name = "triu" if self.upper else "tril"
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        self.diagonal = diagonal
        return (np.triu if self.upper else np.tril)(a, diagonal)

    def backward(self, grad, inputs, output):
        return (type(self).apply(grad, diagonal=self.diagonal),)


class Triu(Tril):
    grad_fn_name = "TriuBackward0"
    upper = True


class Roll(Function):
    grad_fn_name = "RollBackward0"

    def forward(self, a, shifts, dims):
        self.shifts, self.dims = shifts, dims
        if not dims:  # flattened, rolled, viewed back
            return np.roll(a.reshape(-1), shifts).reshape(a.shape)
        return np.roll(a, shifts, axis=dims)

    def backward(self, grad, inputs, output):
        return (Roll.apply(grad, shifts=tuple(-s for s in self.shifts), dims=self.dims),)


def _diagonal_index(shape: tuple[int, ...], offset: int) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = shape[-2], shape[-1]
    count = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    start_row, start_col = max(0, -offset), max(0, offset)
    steps = np.arange(count)
    return start_row + steps, start_col + steps


class Diagonal(Function):
    """The diagonal of the last two dims (after moving dim1, dim2 there): a view, as torch's
    (writable where the input is, so `w.diagonal().add_(1)` changes `w`)."""

    grad_fn_name = "DiagonalBackward0"

    def forward(self, a, offset=0, dim1=0, dim2=1):
        self.offset, self.dims, self.input_shape = offset, (dim1, dim2), a.shape
        out = np.diagonal(a, offset, dim1, dim2)
        if a.flags.writeable:
            out.flags.writeable = True
        return out

    def backward(self, grad, inputs, output):
        return (DiagonalBackward.apply(grad, shape=self.input_shape, offset=self.offset,
                                       dims=self.dims),)


class DiagonalCopy(Diagonal):
    """torch.diag of a matrix (diagonal_copy)."""

    grad_fn_name = "DiagonalBackward0_copy"

    def forward(self, a, offset=0, dim1=0, dim2=1):
        return super().forward(a, offset, dim1, dim2).copy()


class DiagonalBackward(Function):
    """diagonal_backward: zeros of the input's shape with the gradient on the diagonal."""

    grad_fn_name = "DiagonalBackwardBackward0"

    def forward(self, grad, shape, offset, dims):
        self.offset, self.dims = offset, dims
        out = np.zeros(shape, dtype=grad.dtype)
        moved = np.moveaxis(out, dims, (-2, -1))
        rows, cols = _diagonal_index(moved.shape, offset)
        moved[..., rows, cols] = grad
        return out

    def backward(self, gg, inputs, output):
        return (Diagonal.apply(gg, offset=self.offset, dim1=self.dims[0], dim2=self.dims[1]),)


class DiagEmbed(Function):
    """torch.diag of a vector: a square matrix with the vector on diagonal `offset`."""

    grad_fn_name = "DiagEmbedBackward0"

    def forward(self, v, offset=0):
        self.offset = offset
        return np.diag(v, offset)

    def backward(self, grad, inputs, output):
        return (Diagonal.apply(grad, offset=self.offset, dim1=0, dim2=1),)


class Trace(Function):
    grad_fn_name = "TraceBackward0"

    def forward(self, a):
        if a.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
        self.input_shape = a.shape
        if a.dtype.kind in "biu":
            return np.asarray(np.trace(a), dtype=np.int64)
        return np.asarray(np.trace(a), dtype=a.dtype)

    def backward(self, grad, inputs, output):
        eye = np.eye(*self.input_shape, dtype=grad.array.dtype)
        return (grad * Tensor._wrap(eye),)


def _cumprod(a: np.ndarray, dim: int) -> np.ndarray:
    if a.dtype.kind in "biu":
        return np.cumprod(a.astype(np.int64), axis=dim)
    return np.cumprod(a, axis=dim)  # sequential products, one rounding each: torch's order


class Cumprod(Function):
    grad_fn_name = "CumprodBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a, dim):
        self.dim = dim
        return _cumprod(a, dim)

    def backward(self, grad, inputs, output):
        from engine.ops import shape as shape_ops
        from engine.ops.statistics import Cumsum

        (a,) = inputs
        dim = self.dim
        if a.array.size <= 1 or a.shape_tuple[dim] == 1:
            return (grad,)
        dims = (dim,)
        if (a.array != 0).all():  # the reversed cumsum of grad * result, over the input
            weighted = grad * output
            summed = shape_ops.Flip.apply(
                Cumsum.apply(shape_ops.Flip.apply(weighted, dims=dims), dim=dim), dims=dims)
            return (summed / a,)
        # zeros in the input: for each position k, the products with x_k taken as 1
        from engine import functional as F

        size = a.shape_tuple[dim]
        parts = []
        for k in range(size):
            mask = np.zeros(a.shape_tuple, dtype=bool)
            np.moveaxis(mask, dim, 0)[k] = True
            replaced = F.where(Tensor._wrap(mask), 1.0, a)
            products = Cumprod.apply(replaced, dim=dim)
            later = np.moveaxis(np.zeros(a.shape_tuple, dtype=grad.array.dtype), dim, 0)
            later[k:] = 1
            keep = Tensor._wrap(np.moveaxis(later, 0, dim))
            parts.append(F.sum(grad * products * keep, dim=dim, keepdim=True))
        return (F.cat(parts, dim=dim),)


class Einsum(Function):
    """einsum over numpy; each operand's gradient is an einsum of the gradient and the others.

    PyTorch decomposes einsum into permute/reshape/bmm/mul/sum ops; the node here carries the
    name of the op PyTorch's decomposition ends with (`name`), its inner nodes are not shown.
    """

    grad_fn_name = "EinsumBackward"

    def saved_indices(self, needs):
        return tuple(range(len(needs)))

    def forward(self, *arrays, inputs, output, name):
        self.inputs, self.output, self.grad_fn_name = inputs, output, name
        spec = ",".join(inputs) + "->" + output
        if all(a.dtype == np.float32 for a in arrays):
            wide = [a.astype(np.float64) for a in arrays]
            return np.asarray(np.einsum(spec, *wide, optimize=len(arrays) > 2)).astype(
                np.float32)
        return np.asarray(np.einsum(spec, *arrays, optimize=len(arrays) > 2))

    def backward(self, grad, inputs, output):
        from engine.ops import shape as shape_ops

        grads = []
        for k, term in enumerate(self.inputs):
            if not self.needs[k]:
                grads.append(None)
                continue
            others = [t for i, t in enumerate(inputs) if i != k]
            other_terms = [s for i, s in enumerate(self.inputs) if i != k]
            # letters of the operand that appear nowhere else were summed: broadcast back
            present = set(self.output) | set("".join(other_terms))
            target = "".join(ch for ch in dict.fromkeys(term) if ch in present)
            operand_sizes = dict(zip(term, inputs[k].shape_tuple, strict=True))
            g = Einsum.apply(grad, *others, inputs=(self.output, *other_terms),
                             output=target, name="EinsumBackward")
            if target != term:  # summed-away letters, repeated letters (diagonals)
                g = _expand_letters(g, target, term, operand_sizes, shape_ops)
            grads.append(g)
        return grads


def _expand_letters(g: Tensor, have: str, want: str, sizes: dict[str, int],
                    shape_ops: Any) -> Tensor:
    """The gradient `g` (one axis per letter of `have`) laid out as an operand with letters
    `want`: summed-away letters broadcast back, a repeated letter's gradient on its diagonal."""
    letters = list(dict.fromkeys(want))
    for ch in letters:
        if ch not in have:
            g = shape_ops.unsqueeze(g, len(have))
            have += ch
    g = shape_ops.permute(g, *[have.index(ch) for ch in letters])
    g = shape_ops.expand(g, *[sizes[ch] for ch in letters])
    if len(letters) == len(want):
        return g
    seen: set[str] = set()
    view_shape = []
    for ch in want:
        view_shape.append(1 if ch in seen else sizes[ch])
        seen.add(ch)
    full_shape = [sizes[ch] for ch in want]
    index = np.indices(full_shape)
    mask = np.ones(full_shape, dtype=bool)
    for i, ch in enumerate(want):
        mask &= index[i] == index[want.index(ch)]
    g = shape_ops.expand(shape_ops.reshape(g, *view_shape), *full_shape)
    return g * Tensor._wrap(mask.astype(g.array.dtype))


class LinalgCross(Function):
    grad_fn_name = "LinalgCrossBackward0"
    promotes = True

    def saved_indices(self, needs):
        return (0, 1)

    def forward(self, a, b, dim):
        self.dim = dim
        return np.cross(a, b, axis=dim)

    def backward(self, grad, inputs, output):
        a, b = inputs
        return (LinalgCross.apply(b, grad, dim=self.dim) if self.needs[0] else None,
                LinalgCross.apply(grad, a, dim=self.dim) if self.needs[1] else None)


class Median(Function):
    """median of all elements (the lower of the two middle values); ties share the gradient
    (PyTorch's evenly_distribute_backward)."""

    grad_fn_name = "MedianBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a):
        if a.size == 0:
            return np.asarray(np.nan, dtype=a.dtype)
        flat = np.sort(a.reshape(-1), kind="stable")
        if a.dtype.kind == "f" and np.isnan(flat).any():
            return np.asarray(np.nan, dtype=a.dtype)
        return np.asarray(flat[(flat.size - 1) // 2])

    def backward(self, grad, inputs, output):
        (a,) = inputs
        hits = a.array == output.array
        if np.isnan(output.array):
            hits = np.isnan(a.array)
        share = hits.astype(grad.array.dtype) / max(1, int(hits.sum()))
        return (grad * Tensor._wrap(share),)


class MedianDim(Function):
    """median along a dim: the value at the returned index gets the gradient."""

    grad_fn_name = "MedianBackward1"
    saves_state = True
    released_state = ("indices",)

    def forward(self, a, dim, keepdim, indices):
        self.dim, self.keepdim, self.indices, self.input_shape = dim, keepdim, indices, a.shape
        values = np.take_along_axis(a, indices, axis=dim)
        return values if keepdim else np.squeeze(values, axis=dim)

    def backward(self, grad, inputs, output):
        from engine.ops.selection import ScatterAdd

        if not self.keepdim:
            grad = grad.unsqueeze(self.dim)
        return (ScatterAdd.apply(grad, dim=self.dim, index=self.indices,
                                 shape=self.input_shape),)


def median_indices(a: np.ndarray, dim: int) -> np.ndarray:
    """Index of the lower median along `dim` (keepdims), NaN counting as the largest."""
    order = np.argsort(a, axis=dim, kind="stable")
    size = a.shape[dim]
    middle = np.take(order, [(size - 1) // 2], axis=dim)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        if nan.any():
            first_nan = np.argmax(nan, axis=dim, keepdims=True)
            middle = np.where(nan.any(axis=dim, keepdims=True), first_nan, middle)
    return middle.astype(np.int64)


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
        np.put_along_axis(out, index, np.asarray(value).astype(a.dtype), axis=dim)
        return out

    def backward(self, grad, inputs, output):
        written = np.ones(grad.array.shape, dtype=grad.array.dtype)
        np.put_along_axis(written, self.index, 0, axis=self.dim)
        return (grad * Tensor._wrap(written),)


class ScatterAddOp(Function):
    """`a.scatter_add(dim, index, src)`: self gets grad, src gets grad gathered at index."""

    grad_fn_name = "ScatterAddBackward0"
    promotes = False
    saves_state = True
    released_state = ("index",)

    def forward(self, a, src, dim, index):
        self.dim, self.index = dim, index
        out = a.copy()
        positions = list(np.indices(index.shape, sparse=True))
        positions[dim] = index
        source = src[tuple(slice(0, n) for n in index.shape)]
        np.add.at(out, tuple(positions), source.astype(a.dtype))
        return out

    def backward(self, grad, inputs, output):
        return (grad if self.needs[0] else None,
                Gather.apply(grad, dim=self.dim, index=self.index) if self.needs[1] else None)


class IndexAddOp(Function):
    """`a.index_add(dim, index, source, alpha=)`: self gets grad, source the selected rows."""

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
        from engine.ops.arith import scale

        grad_source = None
        if self.needs[1]:
            grad_source = IndexSelect.apply(grad, dim=self.dim, index=self.index)
            if self.alpha != 1:
                grad_source = scale(grad_source, self.alpha)
        return (grad if self.needs[0] else None, grad_source)
