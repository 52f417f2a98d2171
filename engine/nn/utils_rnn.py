"""`torch.nn.utils.rnn`: pad_sequence; the packed sequences (PackedSequence,
pack_padded_sequence, pad_packed_sequence, pack_sequence) and an RNN, LSTM or GRU run over one.

A PackedSequence keeps, step after step, the rows of the sequences still running at that step
(`batch_sizes[t]` of them, the longest sequences first). PyTorch runs a recurrent layer over it
as ATen's PackedLayer does: the input projection of all rows at once, then one cell of ops per
step on the running rows, the states of the sequences that ended set aside (`narrow`), the
outputs concatenated (CatBackward0) and the final states stacked over the layers
(StackBackward0); no fused MkldnnRnnLayer node, whatever the dtype.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import creation, dtypes
from engine import functional as F
from engine.nn.functional import dropout, linear
from engine.ops.recurrent import PackPadded
from engine.tensor import Tensor

NOT_SORTED = ("`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
              "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
              "pack_sequence to sidestep this requirement if you do not need ONNX exportability.")


class PackedSequence:
    """`PackedSequence(data, batch_sizes, sorted_indices, unsorted_indices)`: a named tuple."""

    PUBLIC_ATTRS = frozenset({"data", "batch_sizes", "sorted_indices", "unsorted_indices",
                              "is_cuda", "count", "index"})
    FIELDS = ("data", "batch_sizes", "sorted_indices", "unsorted_indices")

    def __init__(self, data: Tensor, batch_sizes: Tensor | None = None,
                 sorted_indices: Tensor | None = None,
                 unsorted_indices: Tensor | None = None) -> None:
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _invert(sorted_indices)
        self.data, self.batch_sizes = data, batch_sizes
        self.sorted_indices, self.unsorted_indices = sorted_indices, unsorted_indices

    is_cuda = False

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __iter__(self) -> Any:
        return iter(self._fields())

    def __len__(self) -> int:
        return len(self.FIELDS)

    def __getitem__(self, index: Any) -> Any:
        return self._fields()[index]

    def count(self, value: Any) -> int:
        return sum(1 for field in self._fields() if field is value)

    def index(self, value: Any) -> int:
        return [field is value for field in self._fields()].index(True)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(
            self.FIELDS, self._fields(), strict=True))
        return f"PackedSequence({fields})"


def _invert(permutation: Any) -> Tensor:
    if not isinstance(permutation, Tensor):
        raise TypeError(f"empty_like(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(permutation).__name__}")
    inverse = np.empty_like(permutation.array)
    inverse[permutation.array] = np.arange(permutation.array.size)
    return Tensor._wrap(inverse)


def pack_padded_sequence(input: Tensor, lengths: Any, batch_first: bool = False,  # noqa: A002
                         enforce_sorted: bool = True) -> PackedSequence:
    lengths = creation.as_tensor(lengths, dtype=dtypes.int64)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = F.sort(lengths, descending=True)
        input = F.index_select(input, 0 if batch_first else 1, sorted_indices)
    batch = input.shape_tuple[0 if batch_first else 1]
    counts = [int(n) for n in lengths.array.reshape(-1)]
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if len(counts) != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{len(counts)} (batch_size={batch})")
    if counts[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element "
                           "in 'lengths' that is <= 0")
    if any(later > earlier for earlier, later in zip(counts, counts[1:], strict=False)):
        raise RuntimeError(NOT_SORTED)
    if counts[0] > input.shape_tuple[1 if batch_first else 0]:  # PyTorch reads past the end
        raise RuntimeError(f"agraph: the longest length, {counts[0]}, is more than the input's "
                           f"{input.shape_tuple[1 if batch_first else 0]} steps")
    batch_sizes = [sum(1 for n in counts if n > t) for t in range(counts[0])]
    steps = np.repeat(np.arange(len(batch_sizes)), batch_sizes)
    rows = np.concatenate([np.arange(size) for size in batch_sizes])
    key = (rows, steps) if batch_first else (steps, rows)
    data = PackPadded.apply(input, key=key)
    return PackedSequence(data, Tensor._wrap(np.array(batch_sizes, dtype=np.int64)),
                          sorted_indices)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0, total_length: Any = None
                        ) -> tuple[Tensor, Tensor]:
    sizes = [int(n) for n in sequence.batch_sizes.array]  # type: ignore[union-attr]
    steps = len(sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError(f"Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {steps}")
        steps = total_length
    data = sequence.data
    out = creation.full((steps, sizes[0]) + data.shape_tuple[1:], padding_value,
                        dtype=data.dtype)
    offset = 0
    for t, size in enumerate(sizes):
        out.select(0, t).narrow(0, 0, size).copy_(F.narrow(data, 0, offset, size))
        offset += size
    lengths = Tensor._wrap(np.array([sum(1 for size in sizes if size > b)
                                     for b in range(sizes[0])], dtype=np.int64))
    if batch_first:
        out = F.transpose(out, 0, 1)
    if sequence.unsorted_indices is not None:
        out = F.index_select(out, 0 if batch_first else 1, sequence.unsorted_indices)
        lengths = F.index_select(lengths, 0, sequence.unsorted_indices)
    return out, lengths


def pad_sequence(sequences: Any, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """ATen's pad_sequence: a tensor full of `padding_value`, each sequence copied into its
    slice (so a sequence that requires grad gives CopySlices)."""
    if isinstance(sequences, Tensor):
        sequences = list(sequences.unbind(0))
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise ValueError("Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    first = sequences[0]
    longest = max(seq.shape_tuple[0] for seq in sequences)
    trailing = first.shape_tuple[1:]
    size = ((len(sequences), longest) if batch_first else (longest, len(sequences))) + trailing
    out = creation.full(size, padding_value, dtype=first.dtype)
    for i, seq in enumerate(sequences):
        length = seq.shape_tuple[0]
        start = longest - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def pack_sequence(sequences: Any, enforce_sorted: bool = True) -> PackedSequence:
    sequences = list(sequences)
    lengths = [seq.shape_tuple[0] for seq in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def run(module: Any, packed: PackedSequence, hx: Any, states: int) -> tuple[Any, Any]:
    """`rnn(packed, hx)`: (the output PackedSequence, h_n, or (h_n, c_n) for an LSTM)."""
    if module.bidirectional:
        raise NotImplementedError("a bidirectional RNN over a PackedSequence is not supported "
                                  "by agraph")
    data = packed.data
    sizes = [int(n) for n in packed.batch_sizes.array]  # type: ignore[union-attr]
    if data.shape_tuple[-1] != module.input_size:
        raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                           f"{module.input_size}, got {data.shape_tuple[-1]}")
    expected = (module.num_layers, sizes[0], module.hidden_size)
    given = [] if hx is None else list(hx) if states == 2 else [hx]
    if not given:
        given = [creation.zeros(*expected, dtype=data.dtype) for _ in range(states)]
    elif packed.sorted_indices is not None:
        given = [F.index_select(h, 1, packed.sorted_indices) for h in given]
    for k, tensor in enumerate(given):
        if tensor.shape_tuple != expected:
            name = f"hidden[{k}]" if states == 2 else "hidden"
            raise RuntimeError(f"Expected {name} size {expected}, got "
                               f"{list(tensor.shape_tuple)}")
    finals: list[list[Tensor]] = [[] for _ in range(states)]
    for layer in range(module.num_layers):
        weights = module.layer_weights(layer, "")
        data, last = _layer(module, data, sizes, weights, [s[layer] for s in given])
        for store, value in zip(finals, last, strict=True):
            store.append(value)
        if module.dropout and module.training and layer < module.num_layers - 1:
            data = dropout(data, module.dropout, True)
    hidden = [F.stack(values, 0) for values in finals]
    if packed.unsorted_indices is not None:
        hidden = [F.index_select(h, 1, packed.unsorted_indices) for h in hidden]
    output = PackedSequence(data, packed.batch_sizes, packed.sorted_indices,
                            packed.unsorted_indices)
    return output, hidden[0] if states == 1 else tuple(hidden)


def _layer(module: Any, data: Tensor, sizes: list[int], weights: list[Any],
           hidden: list[Tensor]) -> tuple[Tensor, list[Tensor]]:
    """ATen's PackedLayer: the states of the sequences that end are set aside as they end."""
    projected = linear(data, weights[0], weights[2])
    outputs, ended = [], []
    offset, running = 0, sizes[0]
    for size in sizes:
        step = F.narrow(projected, 0, offset, size)
        offset += size
        if size < running:
            ended.append([F.narrow(h, 0, size, running - size) for h in hidden])
            hidden = [F.narrow(h, 0, 0, size) for h in hidden]
        running = size
        hidden = module.cell_step(hidden, step, weights)
        outputs.append(hidden[0])
    ended.append(hidden)
    ended.reverse()
    return F.cat(outputs, 0), [F.cat([states[k] for states in ended], 0)
                               for k in range(len(hidden))]


NN_UTILS_RNN: dict[str, Any] = {
    "pad_sequence": pad_sequence, "PackedSequence": PackedSequence,
    "pack_padded_sequence": pack_padded_sequence, "pad_packed_sequence": pad_packed_sequence,
    "pack_sequence": pack_sequence}
