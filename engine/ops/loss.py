"""Loss functions that PyTorch shows as their own grad_fn."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import budget, float_math
from engine.autograd import Function, plain_arrays
from engine.ops.numerics import torch_sum
from engine.ops.pointwise import vector_math, where
from engine.tensor import Tensor

try:  # nll_loss's cascade compiled (engine/ops/nll_cascade.c), the same bits; optional
    from engine.ops._nll_cascade import total as compiled_nll_cascade
except ImportError:  # pragma: no cover - `_python_nll_cascade` does the same
    compiled_nll_cascade = None


def _float_target(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """An integer or bool target is taken in the input's float dtype (torch's promotion)."""
    if a.dtype.kind == "f" and b.dtype.kind in "iub":
        return b.astype(a.dtype)
    return b


class MseLoss(Function):
    grad_fn_name = "MseLossBackward0"
    saves = (0, 1)

    def forward(self, a, b, reduction="mean"):
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        self.reduction = reduction
        diff = (a - _float_target(a, b)) ** 2
        self.count = diff.size
        if reduction == "mean":
            return _reduce(diff, reduction) if diff.size else np.asarray(np.nan, dtype=diff.dtype)
        return torch_sum(diff) if reduction == "sum" else diff

    def array_backward(self, grad, inputs, output):
        arrays = plain_arrays(grad, *inputs)  # mse_loss_backward's values directly
        if arrays is None:
            return None
        g, x, y = arrays
        return (_mse_backward(g, x, y, self.reduction) if self.needs[0] else None,
                _mse_backward(g, y, x, self.reduction) if self.needs[1] else None)

    def backward(self, grad, inputs, output):
        a, b = inputs
        return (MseLossBackward.apply(grad, a, b, reduction=self.reduction)
                if self.needs[0] else None,
                MseLossBackward.apply(grad, b, a, reduction=self.reduction)
                if self.needs[1] else None)


def _mse_backward(grad: np.ndarray, a: np.ndarray, b: np.ndarray, reduction: str) -> np.ndarray:
    """2 * (a - b) * grad, divided by the count for a mean (mse_loss_backward)."""
    norm = 2.0 / a.size if reduction == "mean" else 2.0
    return norm * (a - b) * grad  # type: ignore[no-any-return]


class MseLossBackward(Function):
    """mse_loss's derivative as an op of its own (PyTorch's mse_loss_backward), so that a
    second derivative goes through MseLossBackwardBackward0: 2 * (a - b) * grad [/ numel]."""

    grad_fn_name = "MseLossBackwardBackward0"
    saves = (0, 1, 2)

    def forward(self, grad, a, b, reduction="mean"):
        self.reduction = reduction
        self.count = a.size
        return _mse_backward(grad, a, b, reduction)

    def backward(self, gg, inputs, output):
        grad, a, b = inputs
        if self.needs[0]:
            if self.reduction == "none":
                d_grad = MseLossBackward.apply(gg, a, b, reduction="none")
            else:
                ones = Tensor._wrap(np.ones(grad.shape_tuple, dtype=grad.array.dtype))
                d_grad = (MseLossBackward.apply(ones, a, b, reduction=self.reduction) * gg).sum()
        else:
            d_grad = None
        d_input = None
        if self.needs[1] or self.needs[2]:
            d_input = (gg * grad) * 2
            if self.reduction == "mean":
                d_input = d_input / self.count
        return (d_grad, d_input if self.needs[1] else None,
                -d_input if self.needs[2] and d_input is not None else None)


def _reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "none":
        return loss
    total = torch_sum(loss)
    if reduction == "mean" and loss.size:
        return total / np.asarray(loss.size, dtype=loss.dtype)  # type: ignore[no-any-return]
    return total


def _weighted_reduce(op: Function, loss: np.ndarray, weight: np.ndarray | None,
                     reduction: str) -> np.ndarray:
    """The loss times its weight, reduced; `op.count` keeps how many elements a mean took."""
    if weight is not None:
        loss = loss * weight
    op.count = loss.size  # type: ignore[attr-defined]
    return np.asarray(_reduce(loss, reduction), dtype=loss.dtype)


def _constant(array: np.ndarray) -> Any:
    return Tensor._wrap(array)


def _scaled(local, grad, reduction: str, count: int):
    """The upstream gradient of a reduced elementwise loss, spread back over its elements."""
    return local * grad / count if reduction == "mean" else local * grad


class BinaryCrossEntropyWithLogits(Function):
    """-[pw t log s(x) + (1 - t) log(1 - s(x))]: torch's form (1 - t) x - lw log_sigmoid(x)."""

    grad_fn_name = "BinaryCrossEntropyWithLogitsBackward0"
    saves = (0, 1)

    def forward(self, x, t, weight=None, pos_weight=None, reduction="mean"):
        self.weight, self.pos_weight, self.reduction = weight, pos_weight, reduction
        log_sigmoid = np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))
        if pos_weight is not None:
            log_sigmoid = log_sigmoid * ((pos_weight - 1) * t + 1)
        loss = (1 - t) * x - log_sigmoid
        return _weighted_reduce(self, loss, weight, reduction)

    def backward(self, grad, inputs, output):
        x, t = inputs
        if self.pos_weight is None:
            local_x = x.sigmoid() - t
            local_t = -x
        else:
            pos_weight = _constant(self.pos_weight)
            pos_t = t * pos_weight
            local_x = (pos_t + 1 - t) * x.sigmoid() - pos_t
            local_t = -x - x.sigmoid().log() * (pos_weight - 1)
        if self.weight is not None:
            weight = _constant(self.weight)
            local_x, local_t = local_x * weight, local_t * weight
        return (_scaled(local_x, grad, self.reduction, self.count) if self.needs[0] else None,
                _scaled(local_t, grad, self.reduction, self.count) if self.needs[1] else None)


class BinaryCrossEntropy(Function):
    """-w [t log p + (1 - t) log(1 - p)], each log clamped at -100 as in PyTorch."""

    grad_fn_name = "BinaryCrossEntropyBackward0"
    saves = (0, 1)

    def forward(self, p, t, weight=None, reduction="mean"):
        if np.any((p < 0) | (p > 1)):
            raise RuntimeError("all elements of input should be between 0 and 1")
        self.weight, self.reduction = weight, reduction
        log_p = np.maximum(float_math.libm("log", p), -100)  # ATen's scalar kernel: C's logf
        log_q = np.maximum(float_math.libm("log1p", -p), -100)
        loss = (t - 1) * log_q - t * log_p
        return _weighted_reduce(self, loss, weight, reduction)

    def array_backward(self, grad, inputs, output):
        """`backward` on arrays for the common case (the input's gradient only, no weight):
        the numpy operations its ops compute (sub, mul, rsub, mul, clamp_min, div, div)."""
        arrays = plain_arrays(grad, *inputs)
        if arrays is None or self.needs[1] or self.weight is not None:
            return None
        g, p, t = arrays
        denominator = float_math.maximum((1 - p) * p, np.asarray(1e-12, dtype=p.dtype))
        grad_p = g * (p - t) / denominator
        return (grad_p / self.count if self.reduction == "mean" else grad_p, None)

    def backward(self, grad, inputs, output):
        p, t = inputs
        grad_p = local_t = None
        if self.needs[0]:  # ATen's order: grad * (p - t) / max((1 - p) p, eps), * w, / numel
            grad_p = grad * (p - t) / ((1 - p) * p).clamp_min(1e-12)
            if self.weight is not None:
                grad_p = grad_p * _constant(self.weight)
            if self.reduction == "mean":
                grad_p = grad_p / self.count
        if self.needs[1]:
            local_t = (1 - p).log().clamp_min(-100) - p.log().clamp_min(-100)
            if self.weight is not None:
                local_t = local_t * _constant(self.weight)
            local_t = _scaled(local_t, grad, self.reduction, self.count)
        return grad_p, local_t


class NllLoss(Function):
    """-w[t] x[t] picked along the class dim (1, or 0 for one sample); mean divides by sum w."""

    grad_fn_name = "NllLossBackward0"

    def forward(self, x, target=None, weight=None, ignore_index=-100, reduction="mean"):
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        axis = 0 if x.ndim == 1 else 1
        classes = x.shape[axis]
        valid = target != ignore_index
        picked_class = np.where(valid, target, 0)
        bad = picked_class[(picked_class < 0) | (picked_class >= classes)]
        if bad.size:
            raise IndexError(f"Target {int(bad.flat[0])} is out of bounds.")
        weights = np.ones(target.shape, dtype=x.dtype) if weight is None else weight[picked_class]
        weights = np.where(valid, weights, 0).astype(x.dtype)
        index = np.expand_dims(picked_class, axis)
        picked = np.take_along_axis(x, index, axis=axis).squeeze(axis)
        self.reduction, self.axis, self.index, self.shape = reduction, axis, index, x.shape
        self.weights = weights
        if reduction == "none":
            return -picked * weights
        if x.ndim >= 2 and x.dtype.kind == "f":  # nll_loss2d sums its map in the same cascade
            total_loss, self.total = _nll_cascade(
                picked.reshape(-1), None if weight is None else weights.reshape(-1),
                valid.reshape(-1))
        else:
            total_loss, self.total = torch_sum(-picked * weights), torch_sum(weights)
        if reduction == "sum":
            return np.asarray(total_loss, dtype=x.dtype)
        return np.asarray(total_loss / self.total, dtype=x.dtype)

    def array_backward(self, grad, inputs, output):
        """`backward` on arrays: the same numpy operations as its ops (div by a number, neg,
        mul) compute, when the gradient has the weights' float dtype."""
        if grad.dtype != self.weights.dtype or grad.dtype.kind != "f":
            return None
        if self.reduction == "none":
            grad = np.expand_dims(grad, self.axis)
        else:
            grad = -(grad / float(self.total)) if self.reduction == "mean" else -grad
        return (grad * self._spread(),)

    def backward(self, grad, inputs, output):
        """PyTorch's nll_loss_backward: w * -(grad / total) at each target (mean), w * -grad
        (sum), -w * grad per sample (none); zero where a target is ignored."""
        if self.reduction == "none":
            grad = grad.unsqueeze(self.axis)
        else:
            grad = -(grad / float(self.total)) if self.reduction == "mean" else -grad
        return (grad * _constant(self._spread()),)

    def _spread(self) -> np.ndarray:
        """The weights at each target's place, zeros elsewhere (negated per sample for
        reduction 'none': +0, not -0, where a target is ignored)."""
        coefficients = 0 - self.weights if self.reduction == "none" else self.weights
        spread = np.zeros(self.shape, dtype=self.weights.dtype)
        np.put_along_axis(spread, self.index, np.expand_dims(coefficients, self.axis),
                          axis=self.axis)
        return spread


class NllLoss2d(NllLoss):
    """nll_loss of an (N, C, H, W) input (ATen's nll_loss2d; 3-D and 5-D+ inputs are viewed
    as (N, C, 1, -1) first)."""

    grad_fn_name = "NllLoss2DBackward0"


def _nll_cascade(picked: np.ndarray, weights: np.ndarray | None, valid: np.ndarray
                 ) -> tuple[Any, Any]:
    """nll_loss's own cascade sum over a batch: (total loss, total weight), by the compiled
    twin of `_python_nll_cascade` (engine/ops/nll_cascade.c) for float32 and float64."""
    if compiled_nll_cascade is not None and picked.dtype in _CASCADE_DTYPES:
        out = np.empty(2, picked.dtype)
        compiled_nll_cascade(np.ascontiguousarray(picked), None if weights is None
                             else np.ascontiguousarray(weights), np.ascontiguousarray(valid), out)
        return out[0], out[1]
    return _python_nll_cascade(picked, weights, valid)


_CASCADE_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _python_nll_cascade(picked: np.ndarray, weights: np.ndarray | None, valid: np.ndarray
                        ) -> tuple[Any, Any]:
    """nll_loss's own cascade sum over a batch (LossNLL.cpp): -x*w into 8 levels of partial
    sums, a level flushed upwards whenever the batch index is a multiple of its chunk; the
    total weight is the count of targets kept, or the weights summed the same way. (The
    description, the reference of its compiled twin and its fallback.)"""
    dtype = picked.dtype.type
    size, levels = picked.shape[0], 8
    power = max(4, (1 if size <= 2 else (size - 1).bit_length()) // levels)
    mask = (1 << power) - 1
    loss = [dtype(0)] * levels
    weight_sums = [dtype(0)] * levels
    ignored = 0
    for b in range(size):
        if not valid[b]:
            ignored += 1
            continue
        if weights is None:
            loss[0] = dtype(loss[0] - picked[b])
        else:
            loss[0] = dtype(loss[0] - dtype(picked[b] * weights[b]))
            weight_sums[0] = dtype(weight_sums[0] + weights[b])
        for j in range(levels - 1):
            if b & (mask << (j * power)):
                break
            loss[j + 1] = dtype(loss[j + 1] + loss[j])
            weight_sums[j + 1] = dtype(weight_sums[j + 1] + weight_sums[j])
            loss[j], weight_sums[j] = dtype(0), dtype(0)
    total_loss = dtype(0)
    for part in loss:
        total_loss = dtype(total_loss + part)
    if weights is None:
        return total_loss, dtype(size - ignored)
    total_weight = dtype(0)
    for part in weight_sums:
        total_weight = dtype(total_weight + part)
    return total_loss, total_weight


class SmoothL1Loss(Function):
    """0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta, for d = input - target."""

    grad_fn_name = "SmoothL1LossBackward0"
    saves = (0, 1)

    def forward(self, a, b, reduction="mean", beta=1.0):
        self.reduction, self.beta = reduction, beta
        diff = a - _float_target(a, b)
        loss = self._loss(diff, np.abs(diff))
        self.count = loss.size
        return np.asarray(_reduce(loss, reduction), dtype=loss.dtype)

    def _loss(self, diff, size):
        if self.beta == 0:
            return size
        return np.where(size < self.beta, 0.5 * diff * diff / self.beta, size - 0.5 * self.beta)

    def _local(self, diff):
        """d loss / d diff, written on tensors so that second derivatives follow."""
        if self.beta == 0:
            return _constant(np.sign(diff.array))
        inside = np.abs(diff.array) < self.beta
        return where(inside, diff / self.beta, _constant(np.sign(diff.array)))

    def backward(self, grad, inputs, output):
        a, b = inputs
        local = self._local(a - b)
        if self.reduction == "mean":  # ATen's kernel: norm * local * grad, norm = 1 / n rounded
            norm = np.asarray(1.0 / self.count, dtype=local.array.dtype)
            result = local * _constant(norm) * grad
        else:
            result = local * grad
        return (result if self.needs[0] else None, -result if self.needs[1] else None)


class HuberLoss(SmoothL1Loss):
    """0.5 d^2 where |d| <= delta, else delta (|d| - 0.5 delta): beta * smooth_l1 with beta."""

    grad_fn_name = "HuberLossBackward0"

    def _loss(self, diff, size):
        delta = self.beta
        return np.where(size <= delta, 0.5 * diff * diff, delta * (size - 0.5 * delta))

    def _local(self, diff):
        delta = self.beta
        inside = np.abs(diff.array) <= delta
        return where(inside, diff, _constant(np.sign(diff.array) * delta))


class SoftMarginLoss(Function):
    """log(1 + exp(-y x)), then the reduction (ATen's in-place neg, mul, exp, log1p)."""

    grad_fn_name = "SoftMarginLossBackward0"
    saves = (0, 1)

    def forward(self, x, y, reduction="mean"):
        if reduction not in ("mean", "sum", "none"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        if x.shape != y.shape:  # the broadcast loss may be far bigger than both
            budget.check_broadcast((x.shape, y.shape), max(x.itemsize, 8))
        self.reduction, self.count = reduction, x.size
        loss = vector_math("log1p", np.log1p, vector_math("exp", np.exp, -x * y))
        return _reduce(loss, reduction)

    def backward(self, grad, inputs, output):
        # soft_margin_loss_backward: y z * -norm / (z + 1) * grad, z = exp(-y x)
        x, y = inputs
        norm = 1.0 / self.count if self.reduction == "mean" else 1.0
        z = (-y * x).exp()
        return (y * z * -norm / (z + 1) * grad, None)
