"""Matrix products: mm, mv, dot, matmul (with batch broadcasting) and addmm."""

from __future__ import annotations

import math

import numpy as np

from engine import budget, dtypes
from engine.autograd import Function, other_operands, plain_arrays
from engine.ops import dot_order, gemm_order, mkl


def _check_dtypes(a: np.ndarray, b: np.ndarray) -> None:
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{_c_name(dtypes.of_array(a).name)} != "
                           f"{_c_name(dtypes.of_array(b).name)}")


SMALL_PRODUCT = 1 << 15  # multiply-adds up to which products are summed in PyTorch's order
NAIVE_BMM = 400  # bmm below this many multiply-adds per matrix: ATen's own loop, not BLAS


def _matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a @ b` (2-D or batched) as PyTorch's CPU gemm computes it: MKL itself where it is
    installed (engine/ops/mkl.py). Without it, each entry summed over k from left to right as
    MKL does for small float matrices: with a fused multiply-add when the result has at least
    12 columns and 4 rows (MKL's FMA kernel), else rounding each product and each sum; this
    agrees with torch bit for bit far more often than a BLAS call here does. Large products
    then go to numpy's BLAS."""
    k = a.shape[-1]
    rows, columns = a.shape[-2], b.shape[-1]
    batch = () if a.ndim == b.ndim == 2 else np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    outputs = math.prod(batch) * rows * columns
    if outputs > SMALL_PRODUCT:  # a result can be far bigger than its inputs (outer products)
        budget.check_shape((*batch, rows, columns), max(a.itemsize, b.itemsize))
    work = outputs * k
    if a.dtype in mkl.FLOATS and mkl.library() is not None:
        if a.ndim == 2:
            return mkl.gemm(a, b)  # type: ignore[return-value]  # not None: checked above
        if rows * columns * k >= NAIVE_BMM:
            product = mkl.gemm_batch(a, b)
            if product is None:  # matrices neither row- nor column-major: one gemm each
                product = np.empty((len(a), rows, columns), dtype=a.dtype)
                for i in range(len(a)):
                    product[i] = mkl.gemm(a[i], b[i])
            return product
        return _rounded_chain(a, b)
    if gemm_order.reproduced(a, b):  # MKL's order, shapes read off torch
        return gemm_order.matmul(a, b)
    if k == 1 and b.ndim == 2 and rows >= 2 and columns >= 2 and a.dtype.kind == "f":
        return a * b  # type: ignore[no-any-return]  # MKL's k == 1 gemm: -0. products stay
    if a.dtype.kind != "f" or work > SMALL_PRODUCT or k == 0 or k > 256:
        return a @ b  # type: ignore[no-any-return]
    fused = a.dtype == np.float32 and columns >= 12 and rows >= 4
    if fused:  # the float64 product of two floats is exact: one rounding per step, as an FMA
        products = _products(a.astype(np.float64), b)
        total = np.zeros(products.shape[1:], dtype=np.float32)  # +0, not -0
        wide = np.zeros(products.shape[1:])  # total, as float64
        for product in products:
            np.add(product, wide, out=wide)
            total[...] = wide  # rounded to float32
            wide[...] = total
        return total
    return _rounded_chain(a, b)


def _rounded_chain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each product rounded, then added from the first on (ATen's loop for small bmm, and
    MKL's for some small shapes); a sum of -0 products is -0 that way and +0 in MKL's order
    (which starts from +0), so `+ 0` ends it; nothing else differs."""
    products = _products(a, b)
    if math.prod(products.shape[1:]) < 2:  # a lone output: reduce would add pairwise
        return np.add.accumulate(products, 0)[-1] + 0  # type: ignore[no-any-return]
    return np.add.reduce(products, 0) + 0  # type: ignore[no-any-return]  # in order over k


def _products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Every product of `a @ b`, k first: (k, *batch, rows, columns), C-contiguous (so a
    reduction over k adds them one after another)."""
    ndim = max(a.ndim, b.ndim)
    if a.ndim < ndim:
        a = a.reshape((1,) * (ndim - a.ndim) + a.shape)
    if b.ndim < ndim:
        b = b.reshape((1,) * (ndim - b.ndim) + b.shape)
    batch = tuple(range(ndim - 2))
    a_k = a.transpose((ndim - 1, *batch, ndim - 2))[..., None]  # (k, *batch, rows, 1)
    b_k = b.transpose((ndim - 2, *batch, ndim - 1))[..., None, :]  # (k, *batch, 1, columns)
    return np.multiply(a_k, b_k, order="C")  # type: ignore[no-any-return]


def _column_major(x: np.ndarray) -> bool:
    """Whether a matrix is laid out column by column (a transposed contiguous one, as `w.t()`
    in nn.Linear): PyTorch then computes its gradient transposed, in another BLAS call."""
    return x.strides[0] == x.itemsize and x.strides[1] == x.shape[0] * x.itemsize


def _matrix_array_grads(node: Function, grad, a, b):  # type: ignore[no-untyped-def]
    """`_matrix_grads` on arrays: the same products of the same array views (or None)."""
    arrays = plain_arrays(grad, a, b)
    if arrays is None:
        return None
    a_columns, b_columns = node.column_major  # type: ignore[attr-defined]
    g, x, y = arrays
    return ((_matmul(y, g.T).T if a_columns else _matmul(g, y.T)) if node.needs[-2] else None,
            (_matmul(g.T, x).T if b_columns else _matmul(x.T, g)) if node.needs[-1] else None)


def _matrix_grads(node: Function, grad, a, b):  # type: ignore[no-untyped-def]
    """The gradients of a @ b as PyTorch's mm_mat1_backward / mm_mat2_backward compute them."""
    a_columns, b_columns = node.column_major  # type: ignore[attr-defined]
    grad_a = grad_b = None
    if node.needs[-2]:
        grad_a = b.mm(grad.t()).t() if a_columns else grad.mm(b.t())
    if node.needs[-1]:
        grad_b = grad.t().mm(a).t() if b_columns else a.t().mm(grad)
    return grad_a, grad_b


def _c_name(name: str) -> str:
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
            "bool": "bool"}.get(name, name)


class Mm(Function):
    grad_fn_name = "MmBackward0"
    saves_other_first = True

    def saved_indices(self, needs):
        return other_operands(needs)

    def forward(self, a, b):
        if a.ndim != 2:
            raise RuntimeError("self must be a matrix")
        if b.ndim != 2:
            raise RuntimeError("mat2 must be a matrix")
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                               f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
        _check_dtypes(a, b)
        self.column_major = (_column_major(a), _column_major(b))
        return _matmul(a, b)

    def array_backward(self, grad, inputs, output):
        return _matrix_array_grads(self, grad, *inputs)

    def backward(self, grad, inputs, output):
        return _matrix_grads(self, grad, *inputs)


class Mv(Function):
    grad_fn_name = "MvBackward0"
    saves_other_first = True

    def saved_indices(self, needs):
        return other_operands(needs)

    def forward(self, a, v):
        if a.ndim != 2 or v.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
        if a.shape[1] != v.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x"
                               f"{a.shape[1]}), vec ({v.shape[0]})")
        _check_dtypes(a, v)
        product = mkl.gemv(a, v) if a.dtype.kind == "f" else None
        return _matmul(a, v[:, None])[:, 0] if product is None else product

    def backward(self, grad, inputs, output):
        a, v = inputs
        return (grad.unsqueeze(1) * v.unsqueeze(0) if self.needs[0] else None,
                a.t().mv(grad) if self.needs[1] else None)


class Dot(Function):
    grad_fn_name = "DotBackward0"
    saves_other_first = True

    def saved_indices(self, needs):
        return other_operands(needs)

    def forward(self, a, b):
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        if a.shape[0] != b.shape[0]:
            n, m = a.shape[0], b.shape[0]
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] "
                               f"to have the same number of elements, but got {n} and {m} "
                               "elements respectively")
        _check_dtypes(a, b)
        product = mkl.dot(a, b) if a.dtype.kind == "f" else None
        return dot_order.dot(a, b) if product is None else product

    def backward(self, grad, inputs, output):
        a, b = inputs
        return (grad * b if self.needs[0] else None, grad * a if self.needs[1] else None)


class Vdot(Dot):
    """torch.vdot of real vectors: dot's product and derivatives (the conjugate is itself)."""
    grad_fn_name = "VdotBackward0"


class Bmm(Function):
    """Batched matrix product of two 3-D tensors (what matmul with batch dims comes down to)."""

    grad_fn_name = "BmmBackward0"
    saves_other_first = True

    def saved_indices(self, needs):
        return other_operands(needs)

    def forward(self, a, b):
        if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                               f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, "
                               f"{b.shape[1]}].")
        _check_dtypes(a, b)
        return _matmul(a, b)

    def backward(self, grad, inputs, output):
        a, b = inputs
        return (grad.bmm(b.transpose(1, 2)) if self.needs[0] else None,
                a.transpose(1, 2).bmm(grad) if self.needs[1] else None)


class Addmm(Function):
    """bias + a @ b, the node nn.Linear makes for a 2-D input."""

    grad_fn_name = "AddmmBackward0"
    saves_other_first = True

    def saved_indices(self, needs):
        return tuple(i + 1 for i in other_operands(needs[1:]))

    def forward(self, bias, a, b, beta=1, alpha=1):
        for name, matrix in (("mat1", a), ("mat2", b)):
            if matrix.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix, got {matrix.ndim}-D tensor")
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x"
                               f"{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
        _check_dtypes(a, b)
        self.column_major = (_column_major(a), _column_major(b))
        self.beta, self.alpha = beta, alpha
        target = (a.shape[0], b.shape[1])
        fits = bias.shape == target or bias.shape == target[1:]  # nn.Linear's: no checks
        if not fits:  # a bias that may broadcast the product further
            budget.check_broadcast((bias.shape, target), a.itemsize)
            fits = np.broadcast_shapes(bias.shape, target) == target
        if bias.dtype == a.dtype and fits:
            product = mkl.gemm(a, b, bias, alpha, beta)  # MKL starts from the bias
            if product is not None:
                return product
            if gemm_order.reproduced(a, b) and beta == 1 and alpha == 1:
                return gemm_order.matmul(a, b, bias)
        if beta == 1 and alpha == 1:
            return bias + _matmul(a, b)
        kind = a.dtype.type
        scaled = _matmul(a, b) * kind(alpha)
        return scaled if beta == 0 else bias * kind(beta) + scaled

    def array_backward(self, grad, inputs, output):
        if self.alpha != 1 or self.beta != 1:
            return None
        products = _matrix_array_grads(self, grad, *inputs[1:])
        return None if products is None else (grad, *products)

    def backward(self, grad, inputs, output):
        # PyTorch's maybe_multiply: scaled only when the factor is not 1
        grad_a, grad_b = _matrix_grads(self, grad, *inputs[1:])
        if self.alpha != 1:
            grad_a = None if grad_a is None else grad_a * self.alpha
            grad_b = None if grad_b is None else grad_b * self.alpha
        return (grad if self.beta == 1 else grad * self.beta, grad_a, grad_b)
