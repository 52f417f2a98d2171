"""PyTorch's CPU float kernels in their order of roundings, so results match it bit for bit.

Sums (aten/src/ATen/native/cpu/SumKernel.cpp): TensorIterator puts the reduced dims first and
coalesces; each row is read as 4 interleaved partial sums of 8-lane vectors (the sum kernel is
built for AVX2 even on AVX512 machines), each partial sum adds chunks of 16 and then chunks of
chunks. numpy's pairwise sum rounds differently, enough to change a printed `loss.item()` or a
`:f` format. Tensors above torch's parallel grain size (32768 elements) are summed in several
threads by torch, which this single-threaded order does not follow.

softmax / log_softmax over the last dim and sigmoid (SoftMaxKernel.cpp, UnaryOpsKernel.cpp) use
SLEEF's vectorized expf (`sleef_expf`, bit-exact here), `vec::reduce_all` sums (16 lanes on
AVX512, then a halving tree) and a multiply by 1/sum. torch.exp itself is MKL's vector exp,
called as torch calls it (engine/ops/mkl.py).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from engine import float_math
from engine.float_math import fma32
from engine.ops.strided import strided_view

try:  # the same order compiled (engine/ops/cascade_sum.c); optional, built when a compiler is there
    from engine.ops._cascade_sum import total as compiled_total
except ImportError:  # pragma: no cover - the numpy version below does the same
    compiled_total = None
try:  # SLEEF's exp and log compiled (engine/ops/sleef_math.c), the same bits; optional too
    import engine.ops._sleef_math as _sleef_math
except ImportError:  # pragma: no cover - the numpy versions below do the same
    _sleef_math = None
compiled_sleef: Any = _sleef_math
try:  # vec::reduce_all compiled (engine/ops/vector_sum.c), the same bits; optional too
    from engine.ops._vector_sum import reduce_all as compiled_reduce_all
except ImportError:  # pragma: no cover - the numpy version below does the same
    compiled_reduce_all = None

VECTOR_BYTES = 32  # the sum kernel is built for AVX2 even on AVX512 machines: 8 float lanes
ILP = 4
LEVELS = 4


def _ceil_log2(x: int) -> int:
    return 1 if x <= 2 else (x - 1).bit_length()


def _sequential(start: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """start + rows[0] + rows[1] + ..., one rounding per addition (cumsum is sequential)."""
    if len(rows) <= 16:
        total = start
        for row in rows:
            total = total + row
        return total
    return np.cumsum(np.concatenate([start[None], rows]), axis=0)[-1]


def ordered_sum(rows: np.ndarray, axis: int = 0) -> np.ndarray:
    """rows[0] + rows[1] + ... along `axis` (+0 for no rows), one rounding per addition.

    np.add.reduce adds one row after another unless `axis` is the fast one in memory (numpy
    sums pairwise only along that axis); elsewhere a loop adds the rows into one result (no
    temporary as big as `rows`). Torch starts each sum at +0, reduce at the first row: a sum of
    -0s is -0 there and +0 in torch, and nothing else differs, also after further additions,
    so the last addition of a sum into +0 settles it.
    """
    if rows.flags.c_contiguous and math.prod(rows.shape[axis + 1:]) >= 2:
        return np.add.reduce(rows, axis)  # type: ignore[no-any-return]
    total = np.zeros(rows.shape[:axis] + rows.shape[axis + 1:], dtype=rows.dtype)
    before = (slice(None),) * axis
    for i in range(rows.shape[axis]):
        np.add(total, rows[before + (i,)], out=total)
    return total


def _multi_row_sum(rows: np.ndarray) -> np.ndarray:
    """Sum over axis 0 in torch's cascade of 4 levels of 2**level_power-row chunks: level 0
    sums each chunk of `step` rows, levels 1 and 2 add `step` sums of the level below and
    pass theirs up, level 3 adds all it gets; at the end the rows left over and the levels'
    open sums are added, level 0 first. Each level is computed for all its groups at once;
    a level that holds nothing adds +0, which changes nothing (`ordered_sum`)."""
    size, rest = rows.shape[0], rows.shape[1:]
    power = max(4, _ceil_log2(size) // LEVELS)
    step = 1 << power
    full = size // step
    # C-contiguous rows of 2 or more values: np.add.reduce adds in order, and so it does on
    # every slice, group and sum made below (the usual case, decided once); else the loop
    add: Any = (np.add.reduce if rows.flags.c_contiguous and math.prod(rest) >= 2
                else ordered_sum)
    total = add(rows[full * step:], 0)
    if not full:
        return total  # type: ignore[no-any-return]
    sums = add(rows[:full * step].reshape(full, step, *rest), 1)
    for _ in range(LEVELS - 2):  # levels 1 and 2 pass a sum up for every `step` they add
        if len(sums) < step:  # nothing passes up
            break
        passed = (len(sums) // step) * step
        total = total + add(sums[passed:], 0)
        sums = add(sums[:passed].reshape(passed // step, step, *rest), 1)
    return total + add(sums, 0)  # type: ignore[no-any-return]


def _row_sum(rows: np.ndarray) -> np.ndarray:
    """torch's row_sum: rows read as (-1, 4) partial sums, the tail into the first, combined."""
    size = rows.shape[0]
    size_ilp = size // ILP
    partial = _multi_row_sum(rows[:size_ilp * ILP].reshape(size_ilp, ILP, *rows.shape[1:]))
    if size == size_ilp * ILP and partial.flags.c_contiguous and partial[0].size >= 2:
        return np.add.reduce(partial, 0)  # type: ignore[no-any-return]  # in order (ordered_sum)
    first = _sequential(partial[0], rows[size_ilp * ILP:])
    for k in range(1, ILP):
        first = first + partial[k]
    return first


_ZEROS: dict[np.dtype, np.ndarray] = {}


def _contiguous_total(x: np.ndarray, lanes: int) -> np.ndarray:
    """The sum of a contiguous 1-D array as a 1-element array, in the same order as `_loop2d`,
    in a handful of numpy calls (a training loop sums tensors many times): `_row_sum` of its
    vectors with the 4 partial sums side by side in one row of 4 * lanes, then the elements
    after the last vector, then the lanes. The sum starts from +0, which settles the sign of a
    zero (`ordered_sum`)."""
    size = x.shape[0]
    zero = _ZEROS.get(x.dtype)
    if zero is None:
        zero = _ZEROS[x.dtype] = np.zeros(1, dtype=x.dtype)
    vectors = size // lanes
    if vectors == 0:  # scalar row_sum: 4 partial sums, the tail into the first
        order = x if size < ILP else x[[0, *range(ILP, size), *range(1, ILP)]]
        return np.add.accumulate(np.concatenate((zero, order)))[-1:]  # type: ignore[no-any-return]
    size_ilp = vectors // ILP
    end = vectors * lanes
    grouped = size_ilp * ILP * lanes
    if size_ilp:
        rows = (x if grouped == size else x[:grouped]).reshape(size_ilp, ILP * lanes)
        partials = (np.add.reduce(rows, 0) if size_ilp < 16 else  # one chunk: in order
                    _multi_row_sum(rows)).reshape(ILP, lanes)
        if end > grouped:  # the leftover vectors go into the first partial sum
            rows = np.concatenate((partials[:1], x[grouped:end].reshape(-1, lanes), partials[1:]))
        else:
            rows = partials
    else:
        rows = x[:end].reshape(vectors, lanes)
    first = np.add.reduce(rows, 0)  # rows of `lanes` >= 4 values: added in order
    order = np.concatenate((zero, x[end:], first)) if end < size else np.concatenate((zero, first))
    return np.add.accumulate(order)[-1:]  # type: ignore[no-any-return]


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
    wide = (columns // (ILP * lanes)) * ILP * lanes
    narrow = wide + ((columns - wide) // lanes) * lanes
    if wide == 0 and narrow == columns:  # one group of whole vectors (a small layer's bias)
        return _row_sum(block)
    result = np.empty(block.shape[1:], dtype=block.dtype)
    if wide:
        result[:wide] = _multi_row_sum(block[:, :wide])
    if narrow > wide:
        result[wide:narrow] = _row_sum(block[:, wide:narrow])
    if columns > narrow:
        result[narrow:] = _row_sum(block[:, narrow:])
    return result


def _outer_scalar(block: np.ndarray) -> np.ndarray:
    columns = block.shape[1]
    result = np.empty(block.shape[1:], dtype=block.dtype)
    grouped = (columns // ILP) * ILP
    if grouped:
        result[:grouped] = _multi_row_sum(block[:, :grouped])
    if columns > grouped:
        result[grouped:] = _row_sum(block[:, grouped:])
    return result


def _loop2d(block: np.ndarray, out: np.ndarray, out_base: Any, in0: int, in1: int, out0: int,
            out1: int, lanes: int) -> None:
    """cascade_sum's loop body on a 2-D block (size0, size1) of the iteration; trailing axes
    of `block` (and of `out_base`) are further outer positions, each with outputs of its own."""
    if out0 != 0 and out1 == 0:  # move the reduction to the first dim
        block, in0, in1, out0, out1 = np.swapaxes(block, 0, 1), in1, in0, out1, out0
    size0, size1 = block.shape[:2]
    extra = (1,) * (block.ndim - 2)
    if out0 != 0 and out1 != 0:  # not a reduction: out += in, elementwise
        positions = (out_base + np.arange(size0).reshape(-1, 1, *extra) * out0
                     + np.arange(size1).reshape(1, -1, *extra) * out1)
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
    elif out1 == 1 and out_base.__class__ is int:  # outputs side by side: a slice
        out[out_base:out_base + size1] = out[out_base:out_base + size1] + sums
    else:
        targets = out_base + np.arange(size1).reshape(-1, *extra) * out1
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


_TOTAL_SHAPES: dict[tuple[Any, ...], tuple[int, ...] | None] = {}
_UNSEEN: Any = object()


def _total_shape(shape: tuple[int, ...], dims: tuple[int, ...] | None, keepdim: bool
                 ) -> tuple[int, ...] | None:
    """The result's shape when summing `dims` of `shape` leaves one value, else None."""
    if dims is not None and not all(size == 1 or d in dims for d, size in enumerate(shape)):
        return None
    if keepdim:
        return (1,) * len(shape)
    return () if dims is None else tuple(size for d, size in enumerate(shape) if d not in dims)


def cascade_sum(a: np.ndarray, dims: tuple[int, ...] | None, keepdim: bool = False) -> np.ndarray:
    """np.sum(a, dims) in the order of PyTorch's CPU float sum, bit for bit (one thread)."""
    ndim = a.ndim
    if a.size and a.flags.c_contiguous:
        key = (a.shape, dims, keepdim)
        result_shape = _TOTAL_SHAPES.get(key, _UNSEEN)
        if result_shape is _UNSEEN:
            result_shape = _total_shape(a.shape, dims, keepdim)
            if len(_TOTAL_SHAPES) < 4096:
                _TOTAL_SHAPES[key] = result_shape
        if result_shape is not None:  # everything is summed into one value (the common case)
            if compiled_total is not None:
                out = np.empty(result_shape, dtype=a.dtype)
                compiled_total(a, out)
                return out
            total = _contiguous_total(a.reshape(-1), VECTOR_BYTES // a.dtype.itemsize)
            return total.reshape(result_shape)
        if ndim == 2 and dims == (0,) and a.shape[1] >= VECTOR_BYTES // a.dtype.itemsize:
            # the rows of a matrix into one row (a Linear bias's gradient): the loop below
            # walks it as one block of whole columns, vectorized over them, then adds it to +0
            lanes = VECTOR_BYTES // a.dtype.itemsize
            total = _outer_vectorized(a, lanes) + float_math.ZEROS[a.dtype]
            return total.reshape(1, -1) if keepdim else total  # type: ignore[no-any-return]
    out_shape, kept, shape, outs, ins, view_shape, view_strides = _plan(
        a.shape, a.strides, a.itemsize, dims)
    out = np.zeros(max(1, math.prod(out_shape)), dtype=a.dtype)
    if a.size and ndim == 0:
        out[0] = out[0] + a
    elif a.size:
        lanes = VECTOR_BYTES // a.dtype.itemsize
        view = strided_view(a, view_shape, view_strides)
        outer = shape[2:]
        if not outer:  # a 2-D walk (the usual case): its outputs start at 0
            _loop2d(view.T, out, 0, ins[0], ins[1], outs[0], outs[1], lanes)
        elif all(outs[2:]):  # every outer position has outputs of its own: all at once
            bases = np.zeros(tuple(outer), dtype=np.int64)
            for axis, (size, stride) in enumerate(zip(outer, outs[2:], strict=True)):
                bases = bases + (np.arange(size) * stride).reshape(
                    (1,) * axis + (size,) + (1,) * (len(outer) - axis - 1))
            _loop2d(view.T, out, bases, ins[0], ins[1], outs[0], outs[1], lanes)
        else:
            for position in np.ndindex(*reversed(outer)):
                out_base = sum(i * s for i, s in zip(reversed(position), outs[2:], strict=True))
                _loop2d(view[position].T, out, out_base, ins[0], ins[1], outs[0], outs[1],
                        lanes)
    result = out.reshape(out_shape)
    if keepdim:
        return result
    return result.reshape(kept)


@functools.lru_cache(maxsize=1024)
def _plan(shape: tuple[int, ...], byte_strides: tuple[int, ...], itemsize: int,
          dims: tuple[int, ...] | None) -> tuple[tuple[int, ...], ...]:
    """How TensorIterator walks a sum of `dims` of a tensor: the result's shape with and
    without the summed dims, the loop's coalesced sizes and the output's and input's strides
    (in elements), fastest first (at least two of each), and the shape and byte strides of
    the input seen in that loop order, slowest first."""
    strides = tuple(s // itemsize for s in byte_strides)
    ndim = len(shape)
    reduced = [dims is None or d in dims for d in range(ndim)]
    out_shape = tuple(1 if reduced[d] else shape[d] for d in range(ndim))
    out_strides = [0 if reduced[d] else math.prod(out_shape[d + 1:]) for d in range(ndim)]
    perm = _iteration_order(list(shape), [out_strides, list(strides)])
    loop, (outs, ins) = _coalesce([shape[d] for d in perm],
                                  [[out_strides[d] for d in perm], [strides[d] for d in perm]])
    while len(loop) < 2:
        loop, outs, ins = loop + [1], outs + [0], ins + [0]
    kept = tuple(shape[d] for d in range(ndim) if not reduced[d])
    return (out_shape, kept, tuple(loop), tuple(outs), tuple(ins), tuple(reversed(loop)),
            tuple(s * itemsize for s in reversed(ins)))


def torch_sum(a: np.ndarray, dims: tuple[int, ...] | None = None,
              keepdims: bool = False) -> np.ndarray:
    """`np.sum` with PyTorch's rounding: the cascade order for float32/float64 (integers are
    exact in any order)."""
    if a.dtype == np.float32 or a.dtype == np.float64:
        return cascade_sum(a, dims, keepdims)
    return np.asarray(np.sum(a, axis=dims, keepdims=keepdims))


# --- SLEEF expf, vec::reduce_all, softmax, sigmoid -----------------------------------------------

_R_LN2 = np.float32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U = np.float32(0.693145751953125)
_L2L = np.float32(1.428606765330187045e-06)
_EXP_POLY = (0.00139304355252534151077271, 0.00833336077630519866943359,
             0.0416664853692054748535156, 0.166666671633720397949219, 0.5)
_LN2_HIGH, _LN2_LOW = np.float32(0.69314718246459960938), np.float32(-1.904654323148236017e-09)
_LOG_POLY = (np.float32(0.3027294874), np.float32(0.3996108174), np.float32(0.6666694880))
REDUCE_LANES = 16  # Vectorized<float> in the AVX512 build of the softmax kernel
SIGMOID_CHUNK = 32  # cpu_kernel_vec: 2 vectors of 16 per step; the rest goes the scalar way


def _fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """float32 a * b + c with one rounding (the float64 product of two floats is exact)."""
    return (a.astype(np.float64) * b + c).astype(np.float32)  # type: ignore[no-any-return]


def sleef_expf(d: np.ndarray) -> np.ndarray:
    """SLEEF's xexpf (u10) with FMA, as ATen's Vectorized<float>::exp computes it."""
    d = np.asarray(d, dtype=np.float32)
    if compiled_sleef is not None:  # its twin in engine/ops/sleef_math.c
        return float_math.from_c(compiled_sleef.expf, d, np.float32)
    return _sleef_expf(d)


def _sleef_expf(d: np.ndarray) -> np.ndarray:
    """sleef_expf in numpy, step by step: the description, the reference of its compiled twin
    (engine/ops/sleef_math.c) and its fallback."""
    q = np.rint(d * _R_LN2).astype(np.int32)
    qf = q.astype(np.float32)
    s = _fma(qf, np.float32(-_L2U), d)
    s = _fma(qf, np.float32(-_L2L), s)
    u = np.full(d.shape, np.float32(0.000198527617612853646278381))
    for coefficient in _EXP_POLY:
        u = _fma(u, s, np.float32(coefficient))
    u = np.float32(1) + _fma(s * s, u, s)
    half = q >> 1
    u = u * np.ldexp(np.float32(1), half).astype(np.float32) * np.ldexp(
        np.float32(1), q - half).astype(np.float32)
    u = np.where(d < np.float32(-104), np.float32(0), u)
    return np.where(np.float32(100) < d, np.float32(np.inf), u).astype(np.float32)


def _two_sum(x: np.ndarray, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """SLEEF's dfadd2 of two floats: the rounded sum and its exact error."""
    total = x + y
    back = total - x
    return total, (x - (total - back)) + (y - back)


def sleef_logf(d: np.ndarray) -> np.ndarray:
    """SLEEF's xlogf_u1 (u10) as its AVX512 build computes it (getexp/getmant, double-float
    arithmetic with fused multiply-adds): ATen's Vectorized<float>::log, which
    log_softmax applies to its row sums. For positive normal floats; 0 gives -inf, a
    negative value nan and +inf +inf."""
    d = np.asarray(d, dtype=np.float32)
    if compiled_sleef is not None:  # its twin in engine/ops/sleef_math.c
        return float_math.from_c(compiled_sleef.logf, d, np.float32)
    return _sleef_logf(d)


def _sleef_logf(d: np.ndarray) -> np.ndarray:
    """sleef_logf in numpy, step by step: the description, the reference of its compiled twin
    (engine/ops/sleef_math.c) and its fallback."""
    f32 = np.float32
    safe = np.where((d > 0) & np.isfinite(d), d, f32(1))
    mantissa, exponent = np.frexp(safe)  # safe = mantissa * 2**exponent, mantissa in [0.5, 1)
    low = mantissa < f32(0.75)  # getmant's interval is [0.75, 1.5)
    m = np.where(low, mantissa * f32(2), mantissa).astype(f32)
    e = np.where(low, exponent - 1, exponent).astype(f32)
    # s = (ln2_high, ln2_low) * e, a double-float product
    s_x = _LN2_HIGH * e
    s_y = fma32(_LN2_LOW, e, fma32(_LN2_HIGH, e, -s_x))
    # x = (m - 1) / (m + 1) as a double-float quotient
    n_x, n_y = _two_sum(f32(-1), m)
    q_x, q_y = _two_sum(f32(1), m)
    t = f32(1) / q_x
    x_x = n_x * t
    u = fma32(t, n_x, -x_x)
    v = fma32(-q_y, t, fma32(-q_x, t, f32(1)))
    x_y = fma32(x_x, v, fma32(n_y, t, u))
    x2 = x_x * x_x
    poly = fma32(fma32(_LOG_POLY[0], x2, _LOG_POLY[1]), x2, _LOG_POLY[2])
    # s += 2x (double-float), then s += x^3 * poly (a float)
    total = s_x + x_x * f32(2)
    s_y = (((s_x - total) + x_x * f32(2)) + s_y) + x_y * f32(2)
    s_x = total
    tail = (x2 * x_x) * poly
    total = s_x + tail
    s_y = ((s_x - total) + tail) + s_y
    result = total + s_y
    result = np.where(d == np.inf, f32(np.inf), result)
    result = np.where(d == 0, f32(-np.inf), result)
    return np.where((d < 0) | np.isnan(d), f32(np.nan), result).astype(f32)


def reduce_all_sum(rows: np.ndarray) -> np.ndarray:
    """vec::reduce_all(+) along the last axis: lane-wise vector sums, then a halving tree;
    rows shorter than a vector are summed left to right."""
    if (compiled_reduce_all is not None and rows.dtype == np.float32 and rows.shape[-1]
            and rows.size):
        source = np.ascontiguousarray(rows)
        out = np.empty(rows.shape[:-1], np.float32)
        compiled_reduce_all(source, out)
        # one row gives what the numpy version gives: a scalar where it adds two 0-d arrays
        return out[()] if rows.ndim == 1 and 1 < rows.shape[-1] < REDUCE_LANES else out
    return _reduce_all_sum(rows)


def _reduce_all_sum(rows: np.ndarray) -> np.ndarray:
    """reduce_all_sum in numpy: the description, the reference of its compiled twin
    (engine/ops/vector_sum.c) and its fallback."""
    size = rows.shape[-1]
    lanes = REDUCE_LANES
    if size < lanes:
        total = rows[..., 0]
        for k in range(1, size):
            total = total + rows[..., k]
        return total
    acc = rows[..., :lanes].copy()
    full = size - size % lanes
    for start in range(lanes, full, lanes):
        acc = acc + rows[..., start:start + lanes]
    if size > full:
        acc[..., :size - full] = acc[..., :size - full] + rows[..., full:]
    while acc.shape[-1] > 1:
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc[..., 0]


def softmax_lastdim(a: np.ndarray, log: bool) -> np.ndarray:
    """_vec_softmax_lastdim / _vec_log_softmax_lastdim for float32 rows."""
    top = a.max(axis=-1, keepdims=True)
    shifted = a - top
    total = reduce_all_sum(sleef_expf(shifted))[..., None]
    if log:  # Vectorized<float>::log of each row's sum: SLEEF's logf
        return shifted - sleef_logf(total)  # type: ignore[no-any-return]
    return sleef_expf(shifted) * (np.float32(1) / total)  # type: ignore[no-any-return]


def exp_negated(a: np.ndarray) -> np.ndarray:
    """exp(-x) as ATen's elementwise float kernels compute it: full chunks of 32 elements (C
    order; torch walks a transposed tensor in memory order) with SLEEF's exp, the rest with the
    C library's expf (a float64 exp rounded once differs from it about once in 1600 values)."""
    if a.dtype != np.float32:
        return np.exp(-a)  # type: ignore[no-any-return]
    flat = a.reshape(-1)
    vector = (flat.size // SIGMOID_CHUNK) * SIGMOID_CHUNK
    out = np.empty_like(flat)
    out[:vector] = sleef_expf(np.float32(0) - flat[:vector])
    out[vector:] = float_math.libm("exp", -flat[vector:])
    return out.reshape(a.shape)


def sigmoid(a: np.ndarray) -> np.ndarray:
    """ATen's sigmoid: 1 / (1 + exp(-x)), exp(-x) as `exp_negated`."""
    one = a.dtype.type(1)
    return one / (one + exp_negated(a))  # type: ignore[no-any-return]


_FLOAT32 = np.dtype(np.float32)


def fmadd(x: np.ndarray, y: np.ndarray, z: np.ndarray, out: np.ndarray | None = None
          ) -> np.ndarray:
    """x * y + z rounded once (torch's vectorized fmadd, as in the lerp kernel and the
    optimizers); exact for float32 through float64. With `out`, the result is written there
    (`out[...] = fmadd(x, y, z)`, an optimizer's parameter) and `out` returned."""
    if (out is None and x.ndim == y.ndim == z.ndim == 0 and x.dtype is _FLOAT32
            and y.dtype is _FLOAT32 and z.dtype is _FLOAT32):  # a scalar parameter: floats
        return np.float32(float(x) * float(y) + float(z))  # type: ignore[return-value]
    dtype = x.dtype if x.dtype is y.dtype is z.dtype else np.result_type(x, y, z)
    if dtype.itemsize < 8:  # (z joins the float64 product as float64)
        wide = np.asarray(x, dtype=np.float64) * y + z
        if out is not None and out.dtype == dtype:
            out[...] = wide  # rounded once, as astype: no float32 array in between
            return out
        result = wide.astype(dtype)
    else:
        result = np.asarray(x * y + z, dtype=dtype)
    if out is None:
        return result  # type: ignore[no-any-return]
    out[...] = result
    return out



def lerp_values(start: np.ndarray, end: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """torch's lerp kernel: from whichever end is nearer to the weight, fused."""
    diff = end - start
    near_start = fmadd(weight, diff, start)
    near_end = fmadd(weight - np.ones((), dtype=weight.dtype), diff, end)
    return np.where(np.abs(weight) < 0.5, near_start, near_end)
