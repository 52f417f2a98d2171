"""Matrix decompositions: the singular value decomposition (LinalgSvdBackward0), with PyTorch's
derivative formula (FunctionsManual's svd_backward)."""

from __future__ import annotations

import numpy as np

from engine import budget
from engine.autograd import Function
from engine.tensor import Tensor


def _mh(a: np.ndarray) -> np.ndarray:
    return np.swapaxes(a, -1, -2)


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
        u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
        self.u, self.s, self.vh = u, s, vh
        return u, s, vh

    def backward(self, grads, inputs, output):
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
