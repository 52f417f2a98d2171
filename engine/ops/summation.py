"""PyTorch's CPU float sum, in its order of additions, so sums and means match it bit for bit.

torch sums floats with a cascade (aten/src/ATen/native/cpu/SumKernel.cpp): TensorIterator puts
the reduced dims first and coalesces; each row is read as 4 interleaved partial sums of 8-lane
vectors (the kernel is built for AVX2 even on AVX512 machines), each partial sum adds chunks of
16 and then chunks of chunks, so only numbers of a similar size meet. numpy's pairwise sum
rounds differently, enough to change a printed `loss.item()` or a `:f` format. Tensors above
torch's parallel grain size (32768 elements) are summed in several threads by torch, which this
single-threaded order does not follow.
"""

from __future__ import annotations

import numpy as np

VECTOR_BYTES = 32  # the sum kernel is built for AVX2 even on AVX512 machines: 8 float lanes
ILP = 4
LEVELS = 4


def _ceil_log2(x: int) -> int:
    return 1 if x <= 2 else (x - 1).bit_length()


def _sequential(start: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """start + rows[0] + rows[1] + ..., one rounding per addition (cumsum is sequential)."""
    if not len(rows):
        return start
    return np.cumsum(np.concatenate([start[None], rows]), axis=0)[-1]


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """Sum over axis 0 in torch's cascade of 4 levels of 2**level_power-row chunks."""
    size = rows.shape[0]
    power = max(4, _ceil_log2(size) // LEVELS)
    step = 1 << power
    mask = step - 1
    zero = np.zeros(rows.shape[1:], dtype=rows.dtype)
    acc = [zero] * LEVELS
    i = 0
    while i + step <= size:
        acc[0] = _sequential(acc[0], rows[i:i + step])
        i += step
        for j in range(1, LEVELS):
            acc[j] = acc[j] + acc[j - 1]
            acc[j - 1] = zero
            if i & (mask << (j * power)):
                break
    acc[0] = _sequential(acc[0], rows[i:])
    for j in range(1, LEVELS):
        acc[0] = acc[0] + acc[j]
    return acc[0]


def _row_sum(rows: np.ndarray) -> np.ndarray:
    """torch's row_sum: rows read as (-1, 4) partial sums, the tail into the first, combined."""
    size = rows.shape[0]
    size_ilp = size // ILP
    partial = _multi_row_sum(rows[:size_ilp * ILP].reshape(size_ilp, ILP, *rows.shape[1:]))
    first = _sequential(partial[0], rows[size_ilp * ILP:])
    for k in range(1, ILP):
        first = first + partial[k]
    return first


def _inner_vectorized(block: np.ndarray, lanes: int) -> np.ndarray:
    """vectorized_inner_sum: block (size0, columns), each column contiguous."""
    size0 = block.shape[0]
    vec_size = size0 // lanes
    vectors = block[:vec_size * lanes].reshape(vec_size, lanes, *block.shape[1:])
    partials = _row_sum(vectors)
    final = _sequential(np.zeros(block.shape[1:], dtype=block.dtype), block[vec_size * lanes:])
    return _sequential(final, partials)


def _outer_vectorized(block: np.ndarray, lanes: int) -> np.ndarray:
    """vectorized_outer_sum: columns in groups of 4*lanes (cascade), of lanes and single ones."""
    columns = block.shape[1]
    result = np.empty(columns, dtype=block.dtype)
    wide = (columns // (ILP * lanes)) * ILP * lanes
    if wide:
        result[:wide] = _multi_row_sum(block[:, :wide])
    narrow = wide + ((columns - wide) // lanes) * lanes
    if narrow > wide:
        result[wide:narrow] = _row_sum(block[:, wide:narrow])
    if columns > narrow:
        result[narrow:] = _row_sum(block[:, narrow:])
    return result


def _outer_scalar(block: np.ndarray) -> np.ndarray:
    columns = block.shape[1]
    result = np.empty(columns, dtype=block.dtype)
    grouped = (columns // ILP) * ILP
    if grouped:
        result[:grouped] = _multi_row_sum(block[:, :grouped])
    if columns > grouped:
        result[grouped:] = _row_sum(block[:, grouped:])
    return result


def _loop2d(block: np.ndarray, out: np.ndarray, out_base: int, in0: int, in1: int, out0: int,
            out1: int, lanes: int) -> None:
    """cascade_sum's loop body on one 2-D block (size0, size1) of the iteration."""
    if out0 != 0 and out1 == 0:  # move the reduction to the first dim
        block, in0, in1, out0, out1 = block.T, in1, in0, out1, out0
    size0, size1 = block.shape
    if out0 != 0 and out1 != 0:  # not a reduction: out += in, elementwise
        positions = out_base + np.arange(size0)[:, None] * out0 + np.arange(size1)[None, :] * out1
        out[positions] = out[positions] + block
        return
    if in0 == 1 and size0 >= lanes:
        sums = _inner_vectorized(block, lanes)
    elif in1 == 1 and size1 >= lanes:
        sums = _outer_vectorized(block, lanes)
    elif in0 < in1:
        sums = _row_sum(block)
    else:
        sums = _outer_scalar(block)
    if out1 == 0:
        out[out_base] = _sequential(out[out_base], sums)
    else:
        targets = out_base + np.arange(size1) * out1
        out[targets] = out[targets] + sums


def _iteration_order(shape: list[int], strides: list[list[int]]) -> list[int]:
    """TensorIterator's reorder_dimensions: fastest dims first, reduced dims to the front."""
    ndim = len(shape)

    def should_swap(d0: int, d1: int) -> int:
        for operand, operand_strides in enumerate(strides):
            s0, s1 = operand_strides[d0], operand_strides[d1]
            if operand == 0 and (s0 == 0) != (s1 == 0):  # the output: reduced dims first
                return 1 if s1 == 0 else -1
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(reversed(range(ndim)))
    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[d0], perm[d1])
            if comparison > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif comparison < 0:
                break
    return perm


def _coalesce(shape: list[int], strides: list[list[int]]) -> tuple[list[int], list[list[int]]]:
    """TensorIterator's coalesce_dimensions on dims already in iteration order."""
    shape = list(shape)
    strides = [list(s) for s in strides]
    prev = 0
    for dim in range(1, len(shape)):
        if shape[prev] == 1 or shape[dim] == 1 or all(
                shape[prev] * s[prev] == s[dim] for s in strides):
            if shape[prev] == 1:
                for s in strides:
                    s[prev] = s[dim]
            shape[prev] *= shape[dim]
        else:
            prev += 1
            if prev != dim:
                for s in strides:
                    s[prev] = s[dim]
                shape[prev] = shape[dim]
    return shape[:prev + 1], [s[:prev + 1] for s in strides]


def cascade_sum(a: np.ndarray, dims: tuple[int, ...] | None, keepdim: bool = False) -> np.ndarray:
    """np.sum(a, dims) in the order of PyTorch's CPU float sum, bit for bit (one thread)."""
    ndim = a.ndim
    reduced = [dims is None or d in dims for d in range(ndim)]
    out_shape = tuple(1 if reduced[d] else a.shape[d] for d in range(ndim))
    out = np.zeros(max(1, int(np.prod(out_shape))), dtype=a.dtype)
    if a.size and ndim == 0:
        out[0] = out[0] + a
    elif a.size:
        lanes = VECTOR_BYTES // a.dtype.itemsize
        in_strides = [s // a.itemsize for s in a.strides]
        out_strides = [0 if reduced[d] else int(np.prod(out_shape[d + 1:])) for d in range(ndim)]
        perm = _iteration_order(list(a.shape), [out_strides, in_strides])
        shape, (outs, ins) = _coalesce(
            [a.shape[d] for d in perm],
            [[out_strides[d] for d in perm], [in_strides[d] for d in perm]])
        while len(shape) < 2:
            shape, outs, ins = shape + [1], outs + [0], ins + [0]
        view = np.lib.stride_tricks.as_strided(
            a, shape=tuple(reversed(shape)), strides=tuple(s * a.itemsize for s in reversed(ins)),
            writeable=False)
        outer = shape[2:]
        for position in np.ndindex(*reversed(outer)):
            out_base = sum(i * s for i, s in zip(reversed(position), outs[2:], strict=True))
            block = view[position].T
            _loop2d(block, out, out_base, ins[0], ins[1], outs[0], outs[1], lanes)
    result = out.reshape(out_shape)
    if keepdim:
        return result
    return result.reshape(tuple(a.shape[d] for d in range(ndim) if not reduced[d]))


def torch_sum(a: np.ndarray, dims: tuple[int, ...] | None = None,
              keepdims: bool = False) -> np.ndarray:
    """`np.sum` with PyTorch's rounding: the cascade order for float32/float64 (integers are
    exact in any order)."""
    if a.dtype == np.float32 or a.dtype == np.float64:
        return cascade_sum(a, dims, keepdims)
    return np.asarray(np.sum(a, axis=dims, keepdims=keepdims))
