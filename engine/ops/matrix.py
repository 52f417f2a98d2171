"""Matrix-shaped ops: tril/triu, diag/diagonal, trace, einsum and cross, with PyTorch's
derivative formulas."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.autograd import Function
from engine.ops import shape as shape_ops
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
    """torch.diag_embed (and torch.diag of a vector): the last dim of `v` on diagonal `offset`
    of new square matrices spanning output dims dim1 and dim2."""

    grad_fn_name = "DiagEmbedBackward0"

    def forward(self, v, offset=0, dim1=0, dim2=1):
        self.offset, self.dim1, self.dim2 = offset, dim1, dim2
        length = v.shape[-1] if v.ndim else 1
        size = length + abs(offset)
        out = np.zeros(v.shape[:-1] + (size, size), dtype=v.dtype)
        steps = np.arange(length)
        rows, columns = (steps, steps + offset) if offset >= 0 else (steps - offset, steps)
        out[..., rows, columns] = v
        return np.ascontiguousarray(np.moveaxis(out, (-2, -1), (dim1, dim2)))

    def backward(self, grad, inputs, output):
        return (Diagonal.apply(grad, offset=self.offset, dim1=self.dim1, dim2=self.dim2),)


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


class Rot90(Function):
    """rot90: k quarter turns from dims[0] towards dims[1] (a copy, as ATen's flip +
    transpose); its gradient turns back."""

    grad_fn_name = "Rot90Backward0"

    def forward(self, a, k, dims):
        self.k, self.dims = k, dims
        return np.ascontiguousarray(np.rot90(a, k, axes=dims))

    def backward(self, grad, inputs, output):
        return (Rot90.apply(grad, k=-self.k, dims=self.dims),)
