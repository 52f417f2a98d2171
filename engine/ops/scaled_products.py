"""The products that add a scaled input, `beta * input + alpha * product`, as ATen computes them:
addmv (one MKL gemv from a copy of the input), addbmm (the batch's products added one by one
into a copy of the input, each an MKL gemm, the first scaling the input by beta) and baddbmm
(ATen's own loop for small matrices, accumulating each entry in the dtype and then
`r * beta + alpha * acc`; one gemm per batch entry otherwise, as engine/ops/linalg.py's
bmm). Their derivatives are
derivatives.yaml's, each term multiplied by beta or alpha only when that is not 1
(maybe_multiply). addmm itself is engine/ops/linalg.py's Addmm (nn.Linear's node)."""

from __future__ import annotations

import numpy as np

from engine.autograd import Function
from engine.ops import mkl
from engine.ops.linalg import NAIVE_BMM, _check_dtypes, _matmul, _rounded_chain


def _scaled(tensor, factor):  # type: ignore[no-untyped-def]
    """PyTorch's maybe_multiply: the tensor itself when the factor is 1."""
    return tensor if tensor is None or factor == 1 else tensor * factor


def _start(bias: np.ndarray, shape: tuple[int, ...], beta: float) -> np.ndarray:
    """The result before the products: a copy of the input, broadcast (zeros for beta 0)."""
    if beta == 0:
        return np.zeros(shape, dtype=bias.dtype)
    return np.array(np.broadcast_to(bias, shape), order="C")


class Addmv(Function):
    grad_fn_name = "AddmvBackward0"
    saves = (1, 2)
    saves_other_first = True

    def forward(self, bias, a, v, beta=1, alpha=1):
        if a.ndim != 2 or v.ndim != 1 or bias.ndim > 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got {bias.ndim}, {a.ndim}, "
                               f"{v.ndim}")
        if a.shape[1] != v.shape[0] or (bias.ndim == 1 and bias.shape[0] not in (1,
                                                                                  a.shape[0])):
            size = bias.shape[0] if bias.ndim else 1
            raise RuntimeError(f"size mismatch, got input ({size}), mat ({a.shape[0]}x"
                               f"{a.shape[1]}), vec ({v.shape[0]})")
        _check_dtypes(a, v)
        self.beta, self.alpha = beta, alpha
        out = _start(bias.astype(a.dtype, copy=False), (a.shape[0],), beta)
        product = mkl.gemv(a, v, out, alpha, beta) if a.dtype.kind == "f" else None
        if product is not None:
            return product
        kind = a.dtype.type
        return out * kind(beta) + _matmul(a, v[:, None])[:, 0] * kind(alpha)

    def backward(self, grad, inputs, output):
        a, v = inputs[1], inputs[2]
        return (_scaled(grad, self.beta),
                _scaled(grad.unsqueeze(1) * v.unsqueeze(0), self.alpha) if self.needs[1]
                else None,
                _scaled(a.t().mv(grad), self.alpha) if self.needs[2] else None)


def _check_batches(b1: np.ndarray, b2: np.ndarray, name: str) -> None:
    if b1.ndim != 3 or b2.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if b1.ndim != 3 else
                           "batch2 must be a 3D tensor")
    if b1.shape[0] != b2.shape[0] or b1.shape[2] != b2.shape[1]:
        if name == "addbmm":
            raise RuntimeError(f"Incompatible matrix sizes for bmm ({b1.shape[1]}x{b1.shape[2]} "
                               f"and {b2.shape[1]}x{b2.shape[2]})")
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b1.shape[0]}, {b1.shape[2]}] but got: [{b2.shape[0]}, "
                           f"{b2.shape[1]}].")
    _check_dtypes(b1, b2)


class Baddbmm(Function):
    """baddbmm; its backward (derivatives.yaml's) takes the gradient of every batch entry's
    product from `batch_grads`, which addbmm overrides."""

    grad_fn_name = "BaddbmmBackward0"
    saves = (1, 2)
    saves_other_first = True

    def forward(self, bias, b1, b2, beta=1, alpha=1):
        _check_batches(b1, b2, "baddbmm")
        self.beta, self.alpha = beta, alpha
        shape = (b1.shape[0], b1.shape[1], b2.shape[2])
        out = _start(bias.astype(b1.dtype, copy=False), shape, beta)
        kind = b1.dtype.type
        if b1.shape[2] * b1.shape[1] * b2.shape[2] < NAIVE_BMM or mkl.library() is None:
            accumulated = _rounded_chain(b1, b2)  # ATen's loop: each entry summed in order
            scaled = accumulated * kind(alpha)
            return scaled if beta == 0 else out * kind(beta) + scaled
        for index in range(shape[0]):  # result[b].addmm_(batch1[b], batch2[b], beta, alpha)
            out[index] = mkl.gemm(b1[index], b2[index], out[index], alpha, beta)
        return out

    def batch_grads(self, grad, b1):  # type: ignore[no-untyped-def]
        return grad

    def backward(self, grad, inputs, output):
        b1, b2 = inputs[1], inputs[2]
        batches = self.batch_grads(grad, b1)
        return (_scaled(grad, self.beta),
                _scaled(batches.bmm(b2.transpose(1, 2)), self.alpha) if self.needs[1] else None,
                _scaled(b1.transpose(1, 2).bmm(batches), self.alpha) if self.needs[2] else None)


class Addbmm(Baddbmm):
    grad_fn_name = "AddbmmBackward0"

    def forward(self, bias, b1, b2, beta=1, alpha=1):
        _check_batches(b1, b2, "addbmm")
        self.beta, self.alpha = beta, alpha
        out = _start(bias.astype(b1.dtype, copy=False), (b1.shape[1], b2.shape[2]), beta)
        kind = b1.dtype.type
        if len(b1) == 0:
            return out * kind(beta)
        scale = beta
        for index in range(len(b1)):  # result.addmm_(batch1[b], batch2[b], beta, alpha)
            product = mkl.gemm(b1[index], b2[index], out, alpha, scale)
            if product is None:
                product = out * kind(scale) + _matmul(b1[index], b2[index]) * kind(alpha)
            out, scale = product, 1
        return out

    def batch_grads(self, grad, b1):  # type: ignore[no-untyped-def]
        """The sum's gradient reaches every batch entry alike."""
        return grad.unsqueeze(0).expand(b1.shape_tuple[0], *grad.shape_tuple)
