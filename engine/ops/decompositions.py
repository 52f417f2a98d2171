"""Matrix decompositions and what is computed from them: the singular value decomposition
(LinalgSvdBackward0), the determinant (LinalgDetBackward0) and the inverse
(LinalgInvExBackward0), with PyTorch's derivative formulas (FunctionsManual's svd_backward,
linalg_det_backward; derivatives.yaml's linalg_inv_ex). The first two are computed with numpy:
a backward pass with create_graph=True through them is refused (PyTorch would record a
differentiable graph of LU solves and products), never answered with constants; the inverse's
is made of ops, so it is differentiated again."""

from __future__ import annotations

import numpy as np

from engine import budget, grad_mode
from engine.autograd import Function
from engine.ops import mkl
from engine.tensor import Tensor


def _mh(a: np.ndarray) -> np.ndarray:
    return np.swapaxes(a, -1, -2)


def _first_order_only(name: str) -> None:
    if grad_mode.is_grad_enabled():
        raise NotImplementedError(f"the derivative of {name} cannot be differentiated again in "
                                  "agraph (create_graph=True through it)")


class LinalgSvd(Function):
    """A = U diag(S) Vh over the last two dims, S descending (LAPACK's gesdd, as PyTorch
    calls it); `full_matrices` makes U m x m and Vh n x n. The derivative reads U, S and Vh as
    the forward made them (computed with numpy, so it is not differentiated again)."""

    grad_fn_name = "LinalgSvdBackward0"
    multi_output = True

    def forward(self, a, full_matrices=True):
        m, n = a.shape[-2:]
        size = max(m, n) if full_matrices else min(m, n)
        budget.check_shape(a.shape[:-2] + (size, size), a.itemsize)
        u, s, vh = mkl.svd(a, full_matrices) or np.linalg.svd(a, full_matrices=full_matrices)
        self.u, self.s, self.vh = u, s, vh
        return u, s, vh

    def backward(self, grads, inputs, output):
        _first_order_only("torch.linalg.svd")
        g_u, g_s, g_vh = (g.array for g in grads)
        k = self.s.shape[-1]
        u, s, vh = self.u[..., :, :k], self.s, self.vh[..., :k, :]
        g_u, g_vh = g_u[..., :, :k], g_vh[..., :k, :]
        m, n = u.shape[-2], vh.shape[-1]
        u_g = _mh(u) @ g_u
        v_g = vh @ _mh(g_vh)
        s2 = s * s
        e = s2[..., None, :] - s2[..., :, None]
        diagonal = np.arange(k)
        e[..., diagonal, diagonal] = 1
        ga = ((u_g - _mh(u_g)) * s[..., None, :] + s[..., :, None] * (v_g - _mh(v_g))) / e
        ga[..., diagonal, diagonal] += g_s
        if m > n:
            ga = u @ ga
            g_u_s = g_u / s[..., None, :]
            ga = (ga + g_u_s - u @ (_mh(u) @ g_u_s)) @ vh
        elif m < n:
            ga = ga @ vh
            s_g_vh = g_vh / s[..., :, None]
            ga = u @ (ga + s_g_vh - (s_g_vh @ _mh(vh)) @ vh)
        else:
            ga = u @ ga @ vh
        return (Tensor._wrap(np.ascontiguousarray(ga, dtype=self.s.dtype)),)


def lu_det(a: np.ndarray) -> np.ndarray:
    """det(A) as ATen's linalg_det computes it: the LU factors of A (of A^T, which has the same
    determinant, when A is C-contiguous: that is the layout LAPACK reads without a copy), then
    the product of U's diagonal, one factor after another, times the pivots' sign."""
    factored = mkl.lu_factor(np.swapaxes(a, -1, -2) if a.flags.c_contiguous else a)
    if factored is None:
        return np.asarray(np.linalg.det(a), dtype=a.dtype)
    lu, pivots = factored
    n = a.shape[-1]
    product = np.ones(a.shape[:-2], dtype=a.dtype)
    for k in range(n):
        product = product * lu[..., k, k]
    swaps = np.count_nonzero(pivots != np.arange(1, n + 1, dtype=pivots.dtype), axis=-1)
    return np.asarray(np.where(swaps % 2 == 1, -product, product), dtype=a.dtype)


class LinalgDet(Function):
    """det(A) over the last two dims (LU, as LAPACK's getrf). Its derivative is the matrix of
    cofactors, det(A) A^-T, which PyTorch takes through an LU solve that a singular A (det 0)
    turns into zeros."""

    grad_fn_name = "LinalgDetBackward0"

    def forward(self, a):
        self.a = a
        self.det = lu_det(a)
        return self.det

    def backward(self, grad, inputs, output):
        _first_order_only("torch.linalg.det")
        a, det, g = self.a, self.det, grad.array
        singular = (det == 0)[..., None, None]
        safe = np.where(singular, np.eye(a.shape[-1], dtype=a.dtype), a)
        cofactors = np.where(singular, 0, det[..., None, None] * _mh(np.linalg.inv(safe)))
        result = (g[..., None, None] * cofactors).astype(a.dtype)
        result += np.zeros((), a.dtype)  # PyTorch's LU solve gives +0 where this gives -0
        return (Tensor._wrap(np.ascontiguousarray(result)),)


def first_zero_pivot(a: np.ndarray) -> int:
    """LAPACK getrf's `info` for a singular matrix: the (1-based) position of the first zero
    on U's diagonal, with partial pivoting as getrf does it."""
    u = np.array(a, dtype=a.dtype)
    n = u.shape[-1]
    for k in range(n):
        pivot = k + int(np.argmax(np.abs(u[k:, k])))
        if u[pivot, k] == 0:
            return k + 1
        u[[k, pivot]] = u[[pivot, k]]
        u[k + 1:, k:] -= np.outer(u[k + 1:, k] / u[k, k], u[k, k:])
    return n


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError (a RuntimeError), shown as PyTorch names it."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"


def singular_error(name: str, a: np.ndarray) -> LinAlgError:
    """PyTorch's error for the first singular matrix of a batch LAPACK refused."""
    matrices = a.reshape((-1,) + a.shape[-2:])
    index, matrix = next((i, m) for i, m in enumerate(matrices)
                         if np.linalg.matrix_rank(m) < m.shape[-1])
    if name == "linalg.solve":
        return LinAlgError("torch.linalg.solve: The solver failed because the input matrix is "
                           "singular.")
    where = f"(Batch element {index}): " if a.ndim > 2 else ""
    return LinAlgError(f"{name}: {where}The diagonal element {first_zero_pivot(matrix)} is "
                       "zero, the inversion could not be completed because the input matrix is "
                       "singular.")


class LinalgInvEx(Function):
    """A^-1 over the last two dims; the derivative -A^-T grad A^-T, from the saved output."""

    grad_fn_name = "LinalgInvExBackward0"
    saves_output = True

    def forward(self, a):
        eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
        inverse = mkl.lu_solve(a, eye)  # torch's bits: LAPACK's LU solve of A X = I
        if inverse is not None:
            return inverse
        try:
            return np.linalg.inv(a)
        except np.linalg.LinAlgError:
            raise singular_error("linalg.inv", a) from None

    def backward(self, grad, inputs, output):
        inverse_t = output.transpose(-2, -1)
        return (-(inverse_t @ (grad @ inverse_t)),)


class LinalgSolveEx(Function):
    """X with A X = B (B a vector when it has one dim fewer than A's batch of matrices); the
    derivative gB = solve(A^H, grad), gA = -gB X^H."""

    grad_fn_name = "LinalgSolveExBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a, b):
        rows, columns = a.shape[-2:]
        if rows != columns:
            raise RuntimeError("linalg.solve: A must be batches of square matrices, but they are "
                               f"{rows} by {columns} matrices")
        # ATen's linalg_solve_is_vector_rhs: a batch of vectors only when shaped as A's rows
        self.vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
        right = b[..., None] if self.vector else b
        if a.shape[:-2] != right.shape[:-2]:  # batches that broadcast to a far bigger one,
            # A copied to each (numpy's solve)
            budget.check_broadcast((a.shape, right.shape[:-2] + (1, 1)), max(a.itemsize, 8))
        if right.shape[-2] == rows and a.shape[:-2] == right.shape[:-2]:
            solved = mkl.lu_solve(a, right)  # torch's bits: LAPACK's LU solve
            if solved is not None:
                return solved[..., 0] if self.vector else solved
        try:
            solved = np.linalg.solve(a, right)
        except np.linalg.LinAlgError:
            raise singular_error("linalg.solve", a) from None
        return solved[..., 0] if self.vector else solved

    def backward(self, grad, inputs, output):
        a = inputs[0]
        grad_b = LinalgSolveEx.apply(a.transpose(-2, -1), grad)
        grad_a = None
        if self.needs[0]:
            if self.vector:
                grad_a = -(grad_b.unsqueeze(-1) * output.unsqueeze(-2))
            else:
                grad_a = -(grad_b @ output.transpose(-2, -1))
        return grad_a, grad_b if self.needs[1] else None


class LinalgPinv(Function):
    """The pseudo-inverse A+ of a batch of real matrices: the reduced SVD, 1/S where S exceeds
    max(atol, rtol * S.max()), (Vh^T * S+) @ U^T. Its derivative, from A+'s differential
    dA+ = -A+ dA A+ + A+ A+^T dA^T (I - A A+) + (I - A+ A) dA^T A+^T A+, is
    -A+^T G A+^T + (I - A A+) G^T A+ A+^T + A+^T A+ G^T (I - A+ A) for the gradient G of A+."""

    grad_fn_name = "LinalgPinvBackward0"
    saves = (0,)
    saves_output = True

    def forward(self, a, atol=0.0, rtol=0.0):
        u, s, vh = mkl.svd(a, False) or np.linalg.svd(a, full_matrices=False)
        tolerance = np.maximum(s[..., :1] * a.dtype.type(rtol), a.dtype.type(atol))
        inverted = np.where(s > tolerance, 1 / np.where(s == 0, 1, s), 0).astype(a.dtype)
        scaled, u_t = _mh(vh) * inverted[..., None, :], _mh(u)
        product = mkl.gemm(scaled, u_t) if a.ndim == 2 else None  # torch's matmul: MKL's gemm
        return scaled @ u_t if product is None else product

    def backward(self, grad, inputs, output):
        a, plus, g = inputs[0], output, grad
        plus_t, g_t = plus.transpose(-2, -1), g.transpose(-2, -1)
        left = g_t - a @ (plus @ g_t)  # (I - A A+) G^T
        right = g_t - (g_t @ plus) @ a  # G^T (I - A+ A)
        return (-(plus_t @ (g @ plus_t)) + left @ (plus @ plus_t)
                + (plus_t @ plus) @ right,)
