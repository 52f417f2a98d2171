"""Elementwise functions of one tensor: exp, log, trig, activations, clamp, abs."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.autograd import Function


def _float(a: np.ndarray) -> np.ndarray:
    """Integer inputs to float functions compute in the default float dtype, as in PyTorch."""
    return a if a.dtype.kind == "f" else a.astype(np.float32)


class Exp(Function):
    grad_fn_name = "ExpBackward0"
    saves_output = True

    def forward(self, a):
        return np.exp(_float(a))

    def backward(self, grad, inputs, output):
        return (grad * output,)


class Log(Function):
    grad_fn_name = "LogBackward0"
    saves = (0,)

    def forward(self, a):
        return np.log(_float(a))

    def backward(self, grad, inputs, output):
        return (grad / inputs[0],)


class Sqrt(Function):
    grad_fn_name = "SqrtBackward0"
    saves_output = True

    def forward(self, a):
        return np.sqrt(_float(a))

    def backward(self, grad, inputs, output):
        return (grad / (2 * output),)


class Sin(Function):
    grad_fn_name = "SinBackward0"
    saves = (0,)

    def forward(self, a):
        return np.sin(_float(a))

    def backward(self, grad, inputs, output):
        return (grad * inputs[0].cos(),)


class Cos(Function):
    grad_fn_name = "CosBackward0"
    saves = (0,)

    def forward(self, a):
        return np.cos(_float(a))

    def backward(self, grad, inputs, output):
        return (grad * -inputs[0].sin(),)


class Tanh(Function):
    grad_fn_name = "TanhBackward0"
    saves_output = True

    def forward(self, a):
        return np.tanh(_float(a))

    def backward(self, grad, inputs, output):
        return (grad * (1 - output * output),)


class Sigmoid(Function):
    grad_fn_name = "SigmoidBackward0"
    saves_output = True

    def forward(self, a):
        a = _float(a)
        # written as two branches so that large |a| neither overflows nor loses precision
        return np.where(a >= 0, 1 / (1 + np.exp(-np.abs(a))),
                        np.exp(-np.abs(a)) / (1 + np.exp(-np.abs(a)))).astype(a.dtype)

    def backward(self, grad, inputs, output):
        return (grad * output * (1 - output),)


class Relu(Function):
    grad_fn_name = "ReluBackward0"
    saves_output = True

    def forward(self, a):
        return np.maximum(a, np.zeros((), dtype=a.dtype))

    def backward(self, grad, inputs, output):
        return (grad * (output > 0).to(grad.dtype),)


class Abs(Function):
    grad_fn_name = "AbsBackward0"
    saves = (0,)

    def forward(self, a):
        return np.abs(a)

    def backward(self, grad, inputs, output):
        return (grad * inputs[0].sign(),)


class Sign(Function):
    grad_fn_name = "SignBackward0"

    def forward(self, a):
        return np.sign(a)

    def backward(self, grad, inputs, output):
        return (grad * 0,)


class Clamp(Function):
    """clamp with number bounds; the gradient passes where min <= x <= max (ends included)."""

    grad_fn_name = "ClampBackward1"
    saves = (0,)

    def forward(self, a, low: Any = None, high: Any = None):
        if low is None and high is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        self.low, self.high = low, high
        out = a
        if low is not None:
            out = np.maximum(out, np.asarray(low, dtype=a.dtype))
        if high is not None:
            out = np.minimum(out, np.asarray(high, dtype=a.dtype))
        return out

    def backward(self, grad, inputs, output):
        from engine import functional as F

        (a,) = inputs
        mask = None
        if self.low is not None:
            mask = a >= self.low
        if self.high is not None:
            upper = a <= self.high
            mask = upper if mask is None else F.logical_and(mask, upper)
        return (grad * mask.to(grad.dtype),)


class ClampMin(Clamp):
    grad_fn_name = "ClampMinBackward0"


class ClampMax(Clamp):
    grad_fn_name = "ClampMaxBackward0"
