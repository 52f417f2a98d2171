"""Matrix products and matrix-shaped functions: matmul/mm/mv/dot/bmm/addmm, outer, diag,
diagonal, trace, tril/triu, cross, kron, einsum, svd, det, inverse, and the torch.linalg
namespace."""

from __future__ import annotations

import builtins
import warnings
from typing import Any

import numpy as np

from engine import budget, creation, grad_mode
from engine.functional.arith import mul
from engine.functional.reduce import norm
from engine.operands import broadcast_error, expect_tensor
from engine.ops import decompositions, matrix, mkl, scaled_products
from engine.ops import linalg as products
from engine.ops import reduce as reduce_ops
from engine.ops import shape as shape_ops
from engine.ops.shape import (
    UnsafeView,
    expand,
    reshape,
    unsqueeze,
    view_of,
)
from engine.registry import public
from engine.tensor import Tensor, normalize_dim


@public(method=True)
def matmul(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002 - PyTorch's keywords
    """torch.matmul, decomposed into the ops PyTorch itself records (dot, mm, mv, bmm)."""
    a, b = expect_tensor(input, "matmul"), expect_tensor(other, "matmul", "other", 2)
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a.ndim}D and {b.ndim}D")
    if a.ndim <= 2 and b.ndim <= 2:
        if a.ndim == 1 and b.ndim == 1:
            return dot(a, b)
        if a.ndim == 2 and b.ndim == 1:
            return mv(a, b)
        if a.ndim == 1:
            product = mm(unsqueeze(a, 0), b)
            return view_of(product, shape_ops.SqueezeInplaceDim.apply(product, dims=(0,)))
        return mm(a, b)
    if a.ndim >= 3 and b.ndim <= 2:  # fold a's batch dims into the rows of one mm / mv
        rows = reshape(a, -1, a.shape_tuple[-1])
        product = mv(rows, b) if b.ndim == 1 else mm(rows, b)
        shape = a.shape_tuple[:-1] + b.shape_tuple[1:]
        return UnsafeView.apply(product, shape=shape, array=product.array.reshape(shape))
    left = unsqueeze(a, 0) if a.ndim == 1 else a
    right = unsqueeze(b, -1) if b.ndim == 1 else b
    (n, m), (m2, p) = left.shape_tuple[-2:], right.shape_tuple[-2:]
    try:
        batch = np.broadcast_shapes(left.shape_tuple[:-2], right.shape_tuple[:-2])
    except ValueError:
        raise broadcast_error(left.shape_tuple[:-2], right.shape_tuple[:-2]) from None
    left = reshape(expand(left, batch + (n, m)), -1, n, m)
    right = reshape(expand(right, batch + (m2, p)), -1, m2, p)
    product = products.Bmm.apply(left, right)
    shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    return UnsafeView.apply(product, shape=shape, array=product.array.reshape(shape))


@public(method=True)
def mm(a: Any, b: Any = None) -> Tensor:
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        got = ", ".join(type(x).__name__ for x in (a, b) if x is not None)
        raise TypeError(f"mm() received an invalid combination of arguments - got ({got}), but "
                        "expected one of:\n * (Tensor input, Tensor mat2, *, Tensor out = None)")
    return products.Mm.apply(a, b)


@public(method=True)
def mv(a: Tensor, v: Tensor) -> Tensor:
    return products.Mv.apply(expect_tensor(a, "mv"), expect_tensor(v, "mv", "vec", 2))


@public(method=True)
def dot(a: Tensor, b: Tensor) -> Tensor:
    return products.Dot.apply(expect_tensor(a, "dot"), expect_tensor(b, "dot", "tensor", 2))


@public(method=True)
def vdot(a: Tensor, b: Tensor) -> Tensor:
    return products.Vdot.apply(expect_tensor(a, "vdot"), expect_tensor(b, "vdot", "other", 2))


@public(method=True)
def bmm(a: Tensor, b: Tensor) -> Tensor:
    a, b = expect_tensor(a, "bmm"), expect_tensor(b, "bmm", "mat2", 2)
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if a.ndim != 3 else
                           "batch2 must be a 3D tensor")
    return products.Bmm.apply(a, b)


@public(method=True)
def matrix_power(a: Tensor, n: int) -> Tensor:
    """torch.linalg.matrix_power's products: a @ a, (a @ a) @ a, then n's binary decomposition
    (squares of a, each multiplied into the result where n has a 1 bit), as ATen orders them."""
    a = expect_tensor(a, "matrix_power")
    if a.ndim < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 "
                           "dimensions.")
    rows, columns = a.shape_tuple[-2:]
    if rows != columns:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices, but they "
                           f"are {rows} by {columns} matrices")
    if n == -1:  # the inverse itself
        return inverse(a)
    if n < 0:  # the power of the inverse, as ATen computes it
        a, n = inverse(a), -n
    if n == 0:
        identity = np.broadcast_to(np.eye(rows, dtype=a.array.dtype), a.shape_tuple)
        return shape_ops.clone(a).copy_(Tensor._wrap(identity.copy()))
    if n == 1:
        return shape_ops.clone(a)
    if n <= 3:
        square = matmul(a, a)
        return square if n == 2 else matmul(square, a)
    power: Tensor | None = None
    result: Tensor | None = None
    while n > 0:
        bit, n = n % 2, n // 2
        power = a if power is None else matmul(power, power)
        if bit:
            result = power if result is None else matmul(result, power)
    assert result is not None
    return result


@public(method=True, inplace=True)
def addmv(bias: Tensor, a: Tensor, v: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    return scaled_products.Addmv.apply(bias, a, v, beta=beta, alpha=alpha)


@public(method=True, inplace=True)
def addbmm(bias: Tensor, b1: Tensor, b2: Tensor, *, beta: float = 1, alpha: float = 1
           ) -> Tensor:
    return scaled_products.Addbmm.apply(bias, b1, b2, beta=beta, alpha=alpha)


@public(method=True, inplace=True)
def baddbmm(bias: Tensor, b1: Tensor, b2: Tensor, *, beta: float = 1, alpha: float = 1
            ) -> Tensor:
    return scaled_products.Baddbmm.apply(bias, b1, b2, beta=beta, alpha=alpha)


@public(method=True, inplace=True)
def addmm(bias: Tensor, a: Tensor, b: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """beta * bias + alpha * (a @ b), one MKL call as in PyTorch (nn.Linear's node)."""
    if beta == 1 and alpha == 1:
        return products.Addmm.apply(bias, a, b)
    return products.Addmm.apply(bias, a, b, beta=beta, alpha=alpha)


# --- matrices ------------------------------------------------------------------------------------

@public(method=True, inplace=True)
def tril(a: Tensor, diagonal: int = 0) -> Tensor:
    return matrix.Tril.apply(expect_tensor(a, "tril"), diagonal=diagonal)


@public(method=True, inplace=True)
def triu(a: Tensor, diagonal: int = 0) -> Tensor:
    return matrix.Triu.apply(expect_tensor(a, "triu"), diagonal=diagonal)


@public(method=True)
def outer(a: Tensor, b: Tensor) -> Tensor:
    """torch: self.reshape({-1, 1}) * vec2."""

    a, b = expect_tensor(a, "outer"), expect_tensor(b, "outer", "vec2", 2)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"outer: Expected 1-D argument self, but got {a.ndim}-D" if a.ndim
                           != 1 else f"outer: Expected 1-D argument vec2, but got {b.ndim}-D")
    budget.check_shape((a.numel(), b.numel()), max(a.array.itemsize, b.array.itemsize))
    return mul(shape_ops.reshape(a, -1, 1), b)




@public(method=True)
def diag(a: Tensor, diagonal: int = 0) -> Tensor:
    a = expect_tensor(a, "diag")
    if a.ndim == 1:
        size = a.numel() + builtins.abs(diagonal)
        budget.check_shape((size, size), a.array.itemsize)
        return matrix.DiagEmbed.apply(a, offset=diagonal)
    if a.ndim != 2:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " f"{a.ndim}D")
    return matrix.DiagonalCopy.apply(a, offset=diagonal, dim1=0, dim2=1)


@public(method=True)
def diag_embed(a: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    a = expect_tensor(a, "diag_embed")
    d1, d2 = normalize_dim(dim1, a.ndim + 1), normalize_dim(dim2, a.ndim + 1)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    size = (a.shape_tuple[-1] if a.ndim else 1) + builtins.abs(offset)
    budget.check_shape(a.shape_tuple[:-1] + (size, size), a.array.itemsize)
    return matrix.DiagEmbed.apply(a, offset=offset, dim1=d1, dim2=d2)


@public(method=True)
def diagonal(a: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    a = expect_tensor(a, "diagonal")
    d1, d2 = normalize_dim(dim1, a.ndim), normalize_dim(dim2, a.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return shape_ops.view_of(a, matrix.Diagonal.apply(a, offset=offset, dim1=d1, dim2=d2))


@public(method=True)
def trace(a: Tensor) -> Tensor:
    return matrix.Trace.apply(expect_tensor(a, "trace"))


@public(method=True)
def cross(a: Tensor, other: Tensor, dim: Any = None) -> Tensor:
    if a.shape_tuple != other.shape_tuple and a.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\n"
                      "Please either pass the dim explicitly or simply use torch.linalg.cross."
                      "\nThe default value of dim will change to agree with that of "
                      "linalg.cross in a future release.", UserWarning, stacklevel=3)
        dim = next(i for i, n in enumerate(a.shape_tuple) if n == 3)
    d = normalize_dim(dim, a.ndim)
    if a.shape_tuple[d] != 3 or other.shape_tuple[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {d} must have length 3. Got "
                           f"{a.shape_tuple[d]} and {other.shape_tuple[d]}")
    return matrix.LinalgCross.apply(a, other, dim=d)


@public(method=True)
def kron(a: Tensor, b: Tensor) -> Tensor:
    """torch: a and b viewed with interleaved unit dims, multiplied, viewed back."""

    ndim = builtins.max(a.ndim, b.ndim)
    sa = (1,) * (ndim - a.ndim) + a.shape_tuple
    sb = (1,) * (ndim - b.ndim) + b.shape_tuple
    shape = tuple(x * y for x, y in zip(sa, sb, strict=True))
    budget.check_shape(shape, builtins.max(a.array.itemsize, b.array.itemsize))
    left = shape_ops.reshape(a, *[n for x in sa for n in (x, 1)])
    right = shape_ops.reshape(b, *[n for y in sb for n in (1, y)])
    product = mul(left, right)
    return shape_ops.UnsafeView.apply(product, shape=shape, array=product.array.reshape(shape))


# --- einsum --------------------------------------------------------------------------------------

def _sublist_term(sublist: Any) -> str:
    """einsum's sublist format: 0-25 are A-Z, 26-51 a-z, Ellipsis '...'."""
    letters = []
    for n in sublist:
        if n is Ellipsis:
            letters.append("...")
        elif isinstance(n, int) and 0 <= n < 26:
            letters.append(chr(ord("A") + n))
        elif isinstance(n, int) and 26 <= n < 52:
            letters.append(chr(ord("a") + n - 26))
        else:
            raise ValueError("einsum(): subscript in subscript list is not within the valid "
                             "range [0, 52)")
    return "".join(letters)


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
        if term.count("...") > 1:
            raise RuntimeError(f"einsum(): found '.' for operand {index} for which an ellipsis "
                               "was already found")
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


@public
def einsum(equation: Any, *operands: Any) -> Tensor:
    if not isinstance(equation, str):  # einsum(op1, sublist1, op2, sublist2, ..., [output])
        items = (equation, *operands)
        ends = len(items) % 2 == 1
        sublists = items[1:len(items) - ends:2]
        equation = ",".join(_sublist_term(sub) for sub in sublists)
        if ends:
            equation += "->" + _sublist_term(items[-1])
        operands = items[0:len(items) - ends:2]
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    tensors = [expect_tensor(op, "einsum") for op in operands]
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
    return matrix.Einsum.apply(*expanded, inputs=tuple(terms), output=output, name=name)


@public(torch=False)
def solve(a: Tensor, b: Tensor, *, left: bool = True) -> Tensor:
    """linalg.solve: X with A X = B."""
    if not left:
        raise NotImplementedError("linalg.solve with left=False is not supported by agraph")
    a, b = expect_tensor(a, "linalg.solve"), expect_tensor(b, "linalg.solve")
    if not a.dtype.is_floating_point:
        raise RuntimeError("linalg.solve: Expected a floating point or complex tensor as input. "
                           f"Got {a.dtype.legacy_name.removesuffix('Tensor')}")
    return decompositions.LinalgSolveEx.apply(a, b)


@public
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """Row-to-row distances; for p=2 with more than 25 rows (or compute_mode
    'use_mm_for_euclid_dist'), torch's matrix-product form, as _euclidean_dist composes it."""
    if x1.ndim < 2 or x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.ndim}D")
    if x1.shape_tuple[-1] != x2.shape_tuple[-1]:
        raise RuntimeError("X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape_tuple[-1]} X2: {x2.shape_tuple[-1]}")
    if p < 0:
        raise RuntimeError(f"cdist only supports non-negative p values, got {p}")
    rows = max(x1.shape_tuple[-2], x2.shape_tuple[-2])
    euclid = p == 2 and x1.ndim == 2 and x2.ndim == 2 and (
        compute_mode == "use_mm_for_euclid_dist"
        or (compute_mode == "use_mm_for_euclid_dist_if_necessary" and rows > 25))
    if not euclid:
        return reduce_ops.Cdist.apply(x1, x2, p=float(p))
    x1_norm = x1.pow(2).sum(-1, keepdim=True)
    x2_norm = x2.pow(2).sum(-1, keepdim=True)
    x1_ = shape_ops.cat([x1.mul(-2), x1_norm, creation.ones_like(x1_norm)], -1)
    x2_ = shape_ops.cat([x2, creation.ones_like(x2_norm), x2_norm], -1)
    result = matmul(x1_, shape_ops.transpose(x2_, -2, -1)).clamp_min(0).sqrt()
    return shape_ops.view(result, *result.shape_tuple)


# --- torch.linalg --------------------------------------------------------------------------------

@public(torch=False)
def vector_norm(a: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False,  # noqa: A002
                *, dtype: Any = None) -> Tensor:

    return norm(a, p=ord, dim=dim, keepdim=keepdim)


@public(torch=False)
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
    return matrix_norm(a, ord, (-2, -1) if dim is None else dim, keepdim)


@public(torch=False)
def matrix_norm(a: Tensor, ord: Any = "fro", dim: Any = (-2, -1),  # noqa: A002
                keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """ATen's linalg_matrix_norm: 'fro' a vector 2-norm, 'nuc' the singular values summed,
    +-2 their max/min, +-1 (+-inf) the largest/smallest column (row) sum of |a|."""
    a = expect_tensor(a, "linalg.matrix_norm")
    if a.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    dims = [normalize_dim(d, a.ndim) for d in dim]
    if len(dims) != 2 or dims[0] == dims[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, "
                           f"{dim[1]})" if len(dims) == 2 else
                           "linalg.matrix_norm: dim must be a 2-tuple. Got "
                           + " ".join(str(d) for d in dim))
    if ord == "fro":
        return vector_norm(a, 2, tuple(dims), keepdim)
    if isinstance(ord, str) and ord != "nuc":
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if ord == "nuc" or builtins.abs(ord) == 2:
        moved = shape_ops.permute(a, *[d for d in range(a.ndim) if d not in dims], *dims)
        values = svdvals(moved)
        if ord == "nuc":
            result = values.sum(-1)
        else:
            result = values.amax(-1) if ord > 0 else values.amin(-1)
        if keepdim:
            for d in sorted(dims):
                result = unsqueeze(result, d)
        return result
    if builtins.abs(ord) not in (1, float("inf")):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if builtins.abs(ord) == float("inf"):  # the inf norm is the 1 norm of the transpose
        dims.reverse()
    if not keepdim and dims[0] < dims[1]:
        dims[1] -= 1
    sums = norm(a, p=1, dim=dims[0], keepdim=keepdim)
    return sums.amax(dims[1], keepdim) if ord > 0 else sums.amin(dims[1], keepdim)


# --- the singular value decomposition -----------------------------------------------------------

class SvdResult(tuple):  # type: ignore[type-arg]
    """`torch.return_types.svd(U=..., S=..., V=...)`: a named triple."""

    PUBLIC_ATTRS = frozenset({"U", "S", "V"})
    kind, fields = "svd", ("U", "S", "V")

    U = property(lambda self: self[0])
    S = property(lambda self: self[1])
    V = property(lambda self: self[2])

    def __repr__(self) -> str:
        items = ",\n".join(f"{field}={value!r}" for field, value in zip(self.fields, self,
                                                                         strict=True))
        return f"torch.return_types.{self.kind}(\n{items})"


class LinalgSvdResult(SvdResult):
    """`torch.return_types.linalg_svd(U=..., S=..., Vh=...)`."""

    PUBLIC_ATTRS = frozenset({"U", "S", "Vh"})
    kind, fields = "linalg_svd", ("U", "S", "Vh")
    Vh = property(lambda self: self[2])


def _svd_input(a: Any, dims_message: str) -> Tensor:
    a = expect_tensor(a)
    if a.ndim < 2:
        raise RuntimeError(dims_message.format(ndim=a.ndim))
    if a.dtype.category < 2:
        raise RuntimeError("linalg.svd: Expected a floating point or complex tensor as input. "
                           f"Got {a.dtype.legacy_name.removesuffix('Tensor')}")
    return a


def linalg_svd(a: Any, full_matrices: bool = True) -> LinalgSvdResult:
    a = _svd_input(a, "linalg.svd: The input tensor A must have at least 2 dimensions.")
    return LinalgSvdResult(decompositions.LinalgSvd.apply(a, full_matrices=full_matrices))


def svdvals(a: Any) -> Tensor:
    """The singular values: without a gradient to track, LAPACK's values-only gesdd, as ATen
    (its values differ in the last bits from those computed with the vectors)."""
    a = _svd_input(a, "linalg.svd: The input tensor A must have at least 2 dimensions.")
    if not (a.requires_grad and grad_mode.is_grad_enabled()):
        values = mkl.svd(a.array, False, vectors=False)
        if values is not None:
            return Tensor._wrap(values[1])
    return decompositions.LinalgSvd.apply(a, full_matrices=False)[1]


@public(method=True)
def svd(a: Any, some: bool = True, compute_uv: bool = True) -> SvdResult:
    """torch.svd: linalg.svd with V = Vh transposed; without compute_uv, U and V are zeros."""
    a = _svd_input(a, "linalg.svd: input should have at least 2 dimensions, but has {ndim} "
                   "dimensions instead")
    if not compute_uv:
        s = svdvals(a)
        m, n = a.shape_tuple[-2:]
        batch = a.shape_tuple[:-2]
        zeros = [Tensor._wrap(np.zeros(batch + (size, size), a.array.dtype)) for size in (m, n)]
        return SvdResult((zeros[0], s, zeros[1]))
    u, s, vh = decompositions.LinalgSvd.apply(a, full_matrices=not some)
    return SvdResult((u, s, shape_ops.transpose(vh, -2, -1)))


def pinv(a: Any, *, atol: float | None = None, rtol: float | None = None,
         hermitian: bool = False) -> Tensor:
    """torch.linalg.pinv of real matrices (rtol eps * max(m, n) when no tolerance is given);
    hermitian=True takes the same SVD path (the result is the same matrix)."""
    a = expect_tensor(a, "linalg.pinv")
    if a.ndim < 2 or a.dtype.category < 2:
        shape = ", ".join(str(n) for n in a.shape_tuple)
        raise RuntimeError(f"linalg.pinv({a.dtype.legacy_name.removesuffix('Tensor')}{{[{shape}]}})"
                           ": expected a tensor with 2 or more dimensions of float, double, "
                           "cfloat or cdouble types")
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else float(
            np.finfo(a.array.dtype).eps * builtins.max(a.shape_tuple[-2:]))
    return decompositions.LinalgPinv.apply(a, atol=atol or 0.0, rtol=rtol)


@public(method=True)
def pinverse(a: Any, rcond: float = 1e-15) -> Tensor:
    """torch.pinverse: linalg.pinv with rcond as its relative tolerance (atol 0)."""
    return pinv(a, atol=0.0, rtol=rcond)


def _square_matrices(a: Any, name: str) -> Tensor:
    """PyTorch's checks of linalg.det / linalg.inv: batches of square float matrices."""
    a = expect_tensor(a, name)
    if a.ndim < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    m, n = a.shape_tuple[-2:]
    if m != n:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                           f"{m} by {n} matrices")
    if a.dtype.category < 2:
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as "
                           f"input. Got {a.dtype.legacy_name.removesuffix('Tensor')}")
    return a


@public(method=True)
def det(a: Any) -> Tensor:
    return decompositions.LinalgDet.apply(_square_matrices(a, "det"))


@public(method=True)
def inverse(a: Any) -> Tensor:
    return decompositions.LinalgInvEx.apply(_square_matrices(a, "inv"))


_REMOVED = "This function was deprecated since version 1.9 and is now removed. "


@public(method=True)
def eig(a: Any, eigenvectors: bool = False) -> Tensor:
    """torch.eig / t.eig, removed from PyTorch: its error."""
    raise RuntimeError(
        _REMOVED + "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = torch.linalg.eig(A)")


@public(method=True)
def symeig(a: Any, eigenvectors: bool = False, upper: bool = True) -> Tensor:
    """torch.symeig / t.symeig, removed from PyTorch: its error."""
    raise RuntimeError(
        _REMOVED + "The default behavior has changed from using the upper triangular portion of "
        "the matrix by default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, "
        "upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper "
        "else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) should be replaced "
        "with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


@public(method=True)
def lstsq(b: Any, a: Any) -> Tensor:
    """torch.lstsq / t.lstsq, removed from PyTorch: its error."""
    raise RuntimeError(
        _REMOVED + "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
        "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition "
        "in the returned tuple (although it returns other information about the problem).\n\n"
        "To get the QR decomposition consider using `torch.linalg.qr`.\n\nThe returned "
        "solution in `torch.lstsq` stored the residuals of the solution in the last m - n "
        "columns of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are "
        "in the field 'residuals' of the returned named tuple.\n\nThe unpacking of the "
        "solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced "
        "with:\nX = torch.linalg.lstsq(A, B).solution")


@public
def matrix_rank(a: Any, tol: float | None = None, symmetric: bool = False) -> Tensor:
    """torch.matrix_rank, removed from PyTorch: its error."""
    raise RuntimeError(
        _REMOVED.rstrip(" ") + "\nPlease use the `torch.linalg.matrix_rank` function instead. "
        "The parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


class LinalgNamespace:
    """`torch.linalg`: the functions agraph has, reached by attribute."""

    PUBLIC_ATTRS = frozenset({"norm", "vector_norm", "matrix_norm", "cross", "svd", "svdvals",
                              "det", "inv", "matrix_power", "solve", "pinv", "LinAlgError"})
    norm = staticmethod(linalg_norm)
    matrix_norm = staticmethod(matrix_norm)
    vector_norm = staticmethod(vector_norm)
    svd = staticmethod(linalg_svd)
    svdvals = staticmethod(svdvals)
    det = staticmethod(det)
    inv = staticmethod(inverse)
    pinv = staticmethod(pinv)
    matrix_power = staticmethod(matrix_power)
    solve = staticmethod(solve)
    LinAlgError = decompositions.LinAlgError

    @staticmethod
    def cross(a: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:
        return cross(a, other, dim=dim)

    def __repr__(self) -> str:
        return "<module 'torch.linalg'>"


linalg = LinalgNamespace()
