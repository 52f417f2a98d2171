"""One LSTM layer over a whole sequence as one node, MkldnnRnnLayerBackward0, as PyTorch's CPU
float LSTM records it: inputs (input, weight_ih, weight_hh, bias_ih, bias_hh, hx, cx), outputs
(output, h_n, c_n). The forward runs the steps in numpy; the backward is backpropagation through
time on the arrays it kept (like PyTorch's, it is not differentiable again). Also
pack_padded_sequence's gather of the running rows, PackPaddedSequenceBackward0.

Gates in PyTorch's order: input, forget, cell, output:
    gates = x W_ih^T + b_ih + h W_hh^T + b_hh
    c' = sigmoid(f) * c + sigmoid(i) * tanh(g);   h' = sigmoid(o) * tanh(c')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.autograd import Function
from engine.ops.index import Index
from engine.ops.shape import Transpose
from engine.tensor import Tensor


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))  # type: ignore[no-any-return]


class LstmLayer(Function):
    """x (T, B, I) -> output (T, B, H), h_n (B, H), c_n (B, H); `reverse` runs it backwards
    in time (the second direction of a bidirectional LSTM)."""

    grad_fn_name = "MkldnnRnnLayerBackward0"
    multi_output = True
    counts_scalars = True  # absent biases are edges (None, 0), as in PyTorch
    saves = (0, 1, 2)
    saves_state = True
    released_state = ("steps",)

    def forward(self, x: np.ndarray, w_ih: np.ndarray, w_hh: np.ndarray, b_ih: Any, b_hh: Any,
                hx: np.ndarray, cx: np.ndarray, reverse: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        dtype = x.dtype
        hidden = w_hh.shape[1]
        bias = np.zeros(4 * hidden, dtype) if b_ih is None else (b_ih + b_hh).astype(dtype)
        projected = x @ w_ih.T + bias  # every step's input projection at once
        order = range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])
        h, c = hx, cx
        output = np.empty((x.shape[0], x.shape[1], hidden), dtype)
        steps = []
        for t in order:
            gates = projected[t] + h @ w_hh.T
            i = _sigmoid(gates[:, :hidden])
            f = _sigmoid(gates[:, hidden:2 * hidden])
            g = np.tanh(gates[:, 2 * hidden:3 * hidden])
            o = _sigmoid(gates[:, 3 * hidden:])
            c_next = (f * c + i * g).astype(dtype)
            tanh_c = np.tanh(c_next)
            h_next = (o * tanh_c).astype(dtype)
            steps.append((t, h, c, i, f, g, o, tanh_c))
            output[t] = h_next
            h, c = h_next, c_next
        self.steps, self.reverse = steps, reverse
        return output, h, c

    def backward(self, grads, inputs, output):
        x, w_ih, w_hh = (inputs[0].array, inputs[1].array, inputs[2].array)
        grad_out, grad_h, grad_c = (g.array.astype(np.float64) for g in grads)
        wide_ih, wide_hh = w_ih.astype(np.float64), w_hh.astype(np.float64)
        grad_x = np.zeros(x.shape, np.float64)
        grad_w_ih = np.zeros(w_ih.shape, np.float64)
        grad_w_hh = np.zeros(w_hh.shape, np.float64)
        grad_bias = np.zeros(w_ih.shape[0], np.float64)
        dh, dc = grad_h, grad_c
        for t, h_prev, c_prev, i, f, g, o, tanh_c in reversed(self.steps):
            dh = dh + grad_out[t]
            dc = dc + dh * o * (1 - tanh_c * tanh_c)
            d_gates = np.concatenate([dc * g * i * (1 - i), dc * c_prev * f * (1 - f),
                                      dc * i * (1 - g * g), dh * tanh_c * o * (1 - o)], axis=1)
            grad_x[t] = d_gates @ wide_ih
            grad_w_ih += d_gates.T @ x[t]
            grad_w_hh += d_gates.T @ h_prev
            grad_bias += d_gates.sum(axis=0)
            dh = d_gates @ wide_hh
            dc = dc * f
        dtype = x.dtype

        def wrap(array: np.ndarray) -> Tensor:
            return Tensor._wrap(array.astype(dtype))

        has_bias = self.input_meta[3] is not None
        return (wrap(grad_x), wrap(grad_w_ih), wrap(grad_w_hh),
                wrap(grad_bias) if has_bias else None, wrap(grad_bias) if has_bias else None,
                wrap(dh), wrap(dc))


class TransposeInPlace(Transpose):
    """`output.transpose_(0, 1)`: how PyTorch's CPU RNN and GRU (and a non-float32 LSTM) hand
    back a batch_first output."""

    grad_fn_name = "TransposeBackward1"


class PackPadded(Index):
    """pack_padded_sequence's data: the rows of the sequences still running at each step, step
    after step (an index copy: its backward scatters the rows back into zeros)."""

    grad_fn_name = "PackPaddedSequenceBackward0"
