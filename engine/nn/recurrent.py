"""The recurrent layers: RNN, LSTM, GRU, with PyTorch's parameters (names, order, the uniform
initialisation drawn in that order), `print(model)` line, shapes, checks and graph: a float32
LSTM layer is one MkldnnRnnLayerBackward0 node (engine/ops/recurrent.py); the other layers are
PyTorch's CPU cells made of ops (the input projection of all steps at once, then one cell per
step, the outputs stacked). Over a PackedSequence, every layer runs its cells of ops
(engine/nn/utils_rnn.py)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import budget, creation, dtypes
from engine import functional as F
from engine.nn.functional import dropout, linear
from engine.nn.init import uniform_
from engine.nn.module import Module
from engine.nn.utils_rnn import PackedSequence, run
from engine.ops.recurrent import LstmLayer, TransposeInPlace
from engine.tensor import Parameter, Tensor

GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
MAX_NAMED_LAYERS = 16  # parameter names a program may read: weight_ih_l0 ... weight_hh_l15


def _parameter_names(layer: int, suffix: str, bias: bool) -> list[str]:
    names = [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
    return names + ([f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"] if bias else [])


def _uniform_reset(module: Any) -> None:
    """Every weight ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), in parameter order."""
    bound = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for param in list(module.parameters()):
        uniform_(param, -bound, bound)


class _RNNBase(Module):
    mode = "LSTM"
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {
        "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
        "bidirectional", "proj_size", "mode", "reset_parameters", "flatten_parameters",
        "all_weights"} | {name for layer in range(MAX_NAMED_LAYERS) for suffix in ("", "_reverse")
                          for name in _parameter_names(layer, suffix, True)}

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if not isinstance(dropout, (int, float)) or not 0 <= dropout <= 1 or isinstance(
                dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if not isinstance(hidden_size, int) or hidden_size <= 0:
            raise ValueError("hidden_size must be greater than 0")
        if not isinstance(num_layers, int) or num_layers <= 0:
            raise ValueError("num_layers must be greater than 0")
        if num_layers > MAX_NAMED_LAYERS:
            raise NotImplementedError(f"agraph supports at most {MAX_NAMED_LAYERS} layers")
        if proj_size:
            raise NotImplementedError("LSTM with proj_size is not supported by agraph")
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        gate_size = GATES[self.mode] * hidden_size
        directions = 2 if bidirectional else 1
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * directions
            for direction in range(directions):
                suffix = "_reverse" if direction else ""
                shapes: list[tuple[int, ...]] = [(gate_size, layer_input), (gate_size, hidden_size)]
                shapes += [(gate_size,), (gate_size,)] if bias else []
                for name, shape in zip(_parameter_names(layer, suffix, bias), shapes,
                                       strict=True):
                    budget.check_shape(shape, np_dtype.itemsize)
                    setattr(self, name, Parameter(Tensor._wrap(np.empty(shape, np_dtype))))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _uniform_reset(self)

    def flatten_parameters(self) -> None:
        """A no-op on the CPU, as in PyTorch."""

    @property
    def all_weights(self) -> list[list[Parameter]]:
        directions = 2 if self.bidirectional else 1
        return [[getattr(self, name) for name in _parameter_names(
            layer, "_reverse" if direction else "", self.bias)]
            for layer in range(self.num_layers) for direction in range(directions)]

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if self.batch_first is not False:
            text += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            text += f", bidirectional={self.bidirectional}"
        return text

    # --- running ---------------------------------------------------------------------------

    def _prepare(self, input: Tensor, hx: Any, states: int  # noqa: A002
                 ) -> tuple[Tensor, list[Tensor], bool]:
        """The input as (T, B, I), the initial states as (layers * directions, B, H) each,
        and whether the input was a batch: PyTorch's checks and messages."""
        if input.ndim not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got "
                             f"{input.ndim}D instead")
        batched = input.ndim == 3
        given = [] if hx is None else list(hx) if states == 2 else [hx]
        if not batched:
            for tensor in given:
                if tensor.ndim != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got "
                                       f"{tensor.ndim}-D tensor")
            input = F.unsqueeze(input, 1)
            given = [F.unsqueeze(tensor, 1) for tensor in given]
        elif self.batch_first:
            input = F.transpose(input, 0, 1)
        if input.shape_tuple[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape_tuple[-1]}")
        directions = 2 if self.bidirectional else 1
        expected = (self.num_layers * directions, input.shape_tuple[1], self.hidden_size)
        if not given:
            given = [creation.zeros(*expected, dtype=input.dtype) for _ in range(states)]
        for k, tensor in enumerate(given):
            if tensor.shape_tuple != expected:
                name = f"hidden[{k}]" if states == 2 else "hidden"
                raise RuntimeError(f"Expected {name} size {expected}, got "
                                   f"{list(tensor.shape_tuple)}")
        return input, given, batched

    def _run(self, input: Tensor, states: list[Tensor]  # noqa: A002
             ) -> tuple[Tensor, list[list[Tensor]]]:
        """Every layer and direction; the last layer's output and each final state."""
        directions = 2 if self.bidirectional else 1
        finals: list[list[Tensor]] = [[] for _ in states]
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                weights = self.layer_weights(layer, "_reverse" if direction else "")
                out, *last = self._layer(input, weights, [s[index] for s in states],
                                         direction == 1)
                outputs.append(out)
                for store, value in zip(finals, last, strict=True):
                    store.append(value)
            input = outputs[0] if directions == 1 else F.cat(outputs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                input = dropout(input, self.dropout, True)
        return input, finals

    def layer_weights(self, layer: int, suffix: str) -> list[Any]:
        """[weight_ih, weight_hh, bias_ih, bias_hh] of one layer and direction (None biases
        without bias)."""
        names = _parameter_names(layer, suffix, self.bias)
        return [getattr(self, name) for name in names] + [None, None] * (not self.bias)

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, Any]:  # noqa: A002
        """RNN and GRU: (output, h_n); LSTM also returns its cell state."""
        if isinstance(input, PackedSequence):
            return run(self, input, hx, 1)
        input, states, batched = self._prepare(input, hx, 1)
        output, finals = self._run(input, states)
        output, (h_n,) = self._finish(output, finals, batched)
        return output, h_n

    def _layer(self, input: Tensor, weights: list[Any], states: list[Tensor],  # noqa: A002
               reverse: bool) -> list[Tensor]:
        """One layer in one direction, a `_cell` per step: [the outputs stacked, the last h]."""
        projected, order = self._steps(input, weights, reverse)
        h = states[0]
        outputs: list[Any] = [None] * len(order)
        for t in order:
            h = self._cell(h, projected[t], weights)
            outputs[t] = h
        return [F.stack(outputs, 0), h]

    def _cell(self, h: Tensor, projected: Tensor, weights: list[Any]) -> Tensor:
        raise NotImplementedError

    def cell_step(self, states: list[Tensor], projected: Tensor, weights: list[Any]
                  ) -> list[Tensor]:
        """One step from the step's input projection: the new states ([h], or [h, c])."""
        return [self._cell(states[0], projected, weights)]

    def _steps(self, input: Tensor, weights: list[Any], reverse: bool  # noqa: A002
               ) -> tuple[list[Tensor], list[int]]:
        """PyTorch's CPU layer: the input projection of every step at once, unbound."""
        projected = linear(input, weights[0], weights[2])
        order = list(range(input.shape_tuple[0]))
        return list(F.unbind(projected, 0)), order[::-1] if reverse else order

    def _finish(self, output: Tensor, finals: list[list[Tensor]], batched: bool
                ) -> tuple[Tensor, list[Tensor]]:
        states = [F.stack(values, 0) for values in finals]
        if not batched:
            return F.squeeze(output, 1), [F.squeeze(state, 1) for state in states]
        if self.batch_first:
            if self.mode == "LSTM" and output.dtype is dtypes.float32:
                output = F.transpose(output, 0, 1)
            else:
                output = TransposeInPlace.apply(output, dim0=0, dim1=1)
        return output, states


class RNN(_RNNBase):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    PUBLIC_ATTRS = _RNNBase.PUBLIC_ATTRS | {"nonlinearity"}

    def __init__(self, *args: Any, nonlinearity: str = "tanh", **kwargs: Any) -> None:
        if len(args) > 3:  # PyTorch's RNN takes nonlinearity as its fourth argument
            nonlinearity, args = args[3], args[:3] + args[4:]
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(*args, **kwargs)
        self.nonlinearity = nonlinearity

    def _cell(self, h: Tensor, projected: Tensor, weights: list[Any]) -> Tensor:
        activation = F.tanh if self.nonlinearity == "tanh" else F.relu
        return activation(F.add(linear(h, weights[1], weights[3]), projected))


class GRU(_RNNBase):
    """r, z = sigmoid(...); n = tanh(x_n + r * h_n); h' = (h - n) * z + n."""

    mode = "GRU"

    def _cell(self, h: Tensor, projected: Tensor, weights: list[Any]) -> Tensor:
        x_r, x_z, x_n = F.chunk(projected, 3, 1)
        h_r, h_z, h_n = F.chunk(linear(h, weights[1], weights[3]), 3, 1)
        reset = F.sigmoid(F.add(h_r, x_r))
        update = F.sigmoid(F.add(h_z, x_z))
        new = F.tanh(F.add(x_n, F.mul(h_n, reset)))
        return F.add(F.mul(F.sub(h, new), update), new)


class LSTM(_RNNBase):
    """(output, (h_n, c_n)); float32 layers are one MkldnnRnnLayerBackward0 node each."""

    mode = "LSTM"

    def forward(self, input: Tensor, hx: Any = None  # noqa: A002
                ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        if isinstance(input, PackedSequence):
            return run(self, input, hx, 2)  # type: ignore[no-any-return]
        input, states, batched = self._prepare(input, hx, 2)
        output, finals = self._run(input, states)
        output, (h_n, c_n) = self._finish(output, finals, batched)
        return output, (h_n, c_n)

    def _layer(self, input: Tensor, weights: list[Any], states: list[Tensor],  # noqa: A002
               reverse: bool) -> list[Tensor]:
        if input.dtype is dtypes.float32:
            return list(LstmLayer.apply(input, *weights, states[0], states[1], reverse=reverse))
        projected, order = self._steps(input, weights, reverse)
        outputs: list[Any] = [None] * len(order)
        for t in order:
            states = self.cell_step(states, projected[t], weights)
            outputs[t] = states[0]
        return [F.stack(outputs, 0), *states]

    def cell_step(self, states: list[Tensor], projected: Tensor, weights: list[Any]
                  ) -> list[Tensor]:
        h, c = states
        gates = F.add(linear(h, weights[1], weights[3]), projected)
        i, f, g, o = F.chunk(gates, 4, 1)
        c = F.add(F.mul(F.sigmoid(f), c), F.mul(F.sigmoid(i), F.tanh(g)))
        return [F.mul(F.sigmoid(o), F.tanh(c)), c]


class _CellBase(Module):
    """RNNCell, LSTMCell, GRUCell: one step, with PyTorch's parameters (weight_ih, weight_hh,
    bias_ih, bias_hh, drawn from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)) in that order)
    and ATen's CPU cell arithmetic (the hidden projection plus the input projection)."""

    gates = 1
    states = 1
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"input_size", "hidden_size", "bias", "weight_ih",
                                          "weight_hh", "bias_ih", "bias_hh", "reset_parameters"}

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if not isinstance(hidden_size, int) or hidden_size <= 0:
            raise ValueError("hidden_size must be greater than 0")
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        shapes: dict[str, tuple[int, ...]] = {
                  "weight_ih": (self.gates * hidden_size, input_size),
                  "weight_hh": (self.gates * hidden_size, hidden_size)}
        if bias:
            shapes.update(bias_ih=(self.gates * hidden_size,), bias_hh=(self.gates * hidden_size,))
        for name, shape in shapes.items():
            budget.check_shape(shape, np_dtype.itemsize)
            setattr(self, name, Parameter(Tensor._wrap(np.empty(shape, np_dtype))))
        if not bias:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _uniform_reset(self)

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        if nonlinearity != "tanh":
            text += f", nonlinearity={nonlinearity}"
        return text

    def forward(self, input: Tensor, hx: Any = None) -> Any:  # noqa: A002
        if input.ndim not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got "
                             f"{input.ndim}D instead")
        batched = input.ndim == 2
        if hx is not None and self.states == 2:
            given = list(hx)
        else:
            given = [] if hx is None else [hx]
        for tensor in given:
            if tensor.ndim != input.ndim:
                raise RuntimeError(f"{type(self).__name__}: Expected hidden to be "
                                   f"{input.ndim}D, got {tensor.ndim}D instead")
        if not batched:
            input = F.unsqueeze(input, 0)
            given = [F.unsqueeze(tensor, 0) for tensor in given]
        if not given:
            given = [creation.zeros(input.shape_tuple[0], self.hidden_size, dtype=input.dtype)
                     for _ in range(self.states)]
        out = self._step(input, given)
        if not batched:
            out = [F.squeeze(tensor, 0) for tensor in out]
        return out[0] if self.states == 1 else tuple(out)

    def _gates(self, input: Tensor, h: Tensor) -> Tensor:
        return F.add(linear(h, self.weight_hh, self.bias_hh),
                     linear(input, self.weight_ih, self.bias_ih))

    def _step(self, input: Tensor, states: list[Tensor]) -> list[Tensor]:
        raise NotImplementedError


class RNNCell(_CellBase):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    PUBLIC_ATTRS = _CellBase.PUBLIC_ATTRS | {"nonlinearity"}

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity

    def _step(self, input: Tensor, states: list[Tensor]) -> list[Tensor]:
        if self.nonlinearity not in ("tanh", "relu"):  # PyTorch checks it when called
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        activation = F.tanh if self.nonlinearity == "tanh" else F.relu
        return [activation(self._gates(input, states[0]))]


class LSTMCell(_CellBase):
    """(h', c'): i, f, o = sigmoid(...), g = tanh(...); c' = f * c + i * g; h' = o * tanh(c')."""

    gates = 4
    states = 2

    def _step(self, input: Tensor, states: list[Tensor]) -> list[Tensor]:
        h, c = states
        i, f, g, o = F.chunk(self._gates(input, h), 4, 1)
        c = F.add(F.mul(F.sigmoid(f), c), F.mul(F.sigmoid(i), F.tanh(g)))
        return [F.mul(F.sigmoid(o), F.tanh(c)), c]


class GRUCell(_CellBase):
    """r, z = sigmoid(...); n = tanh(x_n + r * h_n); h' = (h - n) * z + n."""

    gates = 3

    def _step(self, input: Tensor, states: list[Tensor]) -> list[Tensor]:
        h = states[0]
        x_r, x_z, x_n = F.chunk(linear(input, self.weight_ih, self.bias_ih), 3, 1)
        h_r, h_z, h_n = F.chunk(linear(h, self.weight_hh, self.bias_hh), 3, 1)
        reset = F.sigmoid(F.add(h_r, x_r))
        update = F.sigmoid(F.add(h_z, x_z))
        new = F.tanh(F.add(x_n, F.mul(h_n, reset)))
        return [F.add(F.mul(F.sub(h, new), update), new)]
