"""Making tensors: torch.tensor, ones, zeros, arange, linspace, logspace, eye, full, the *_like
forms."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from engine import budget, dtypes, float_math, threads
from engine import device as devices
from engine.numpy_bridge import NumpyArray, from_numpy
from engine.tensor import Tensor

_NUMBER = (bool, int, float)
_SEQUENCE = (list, tuple, range)
# whether this run was warned that a list of numpy arrays makes a tensor slowly (PyTorch warns
# once in a process)
_STATE = {"warned_arrays": False}


def reset() -> None:
    """A fresh run warns again (engine/api.py's reset_state)."""
    _STATE["warned_arrays"] = False


LEAF_BYTES = 24  # a leaf's pointer in the list of leaves, its item in numpy's float64 array,
# and again in the tensor's own dtype
MADE_BYTES = 16  # and a number made by the walk (a range's int; measured: 38 bytes in all)


def _flatten(data: Any, dtype: dtypes.DType | None = None
             ) -> tuple[tuple[int, ...], dtypes.DType, list[Any]]:
    """Shape, PyTorch's inferred dtype and the flat leaves of nested lists (one-element
    tensors become their numbers), refusing ragged lists and non-numbers.

    The shape is read from the first element of each level and checked against the size
    limits before anything else is walked, so a list that repeats one huge row (tiny in
    Python, huge as a tensor) is refused at once.
    """
    shape: list[int] = []
    probe = data
    made = False  # the numbers are made by the walk (a range's), not already there
    while isinstance(probe, _SEQUENCE):
        shape.append(len(probe))
        made = made or isinstance(probe, range)
        if not probe:
            break
        probe = _rows(probe[0])
    if shape and isinstance(probe, str) and probe:  # torch reads 'a'[0][0]... as dimensions
        raise ValueError("too many dimensions 'str'")
    budget.check_shape(shape, 4)
    # the walk lists every leaf (a pointer each, and a number object each when they are made
    # on the way, as a range's are), then numpy copies them: `torch.tensor(range(10**8))`
    # took 4 GB for a 400 MB tensor
    count = math.prod(shape)
    work = count * (LEAF_BYTES + (MADE_BYTES if made else 0))
    if work >= budget.LARGE:
        budget.check_bytes(work, f"a tensor made of {count} numbers from nested data (a list "
                           "of its leaves on the way)")
    level = [data]
    for size in shape:
        nxt: list[Any] = []
        for item in level:
            item = _rows(item)
            if not isinstance(item, _SEQUENCE) or len(item) != size:
                raise _data_error(data, shape, dtype)
            nxt.extend(item)
        level = nxt
    kind = dtypes.bool_
    array_kinds: set[dtypes.DType] = set()
    for index, leaf in enumerate(level):
        if isinstance(leaf, np.generic):  # an element of a numpy array: its dtype counts
            array_kinds.add(dtypes.of_array(leaf))
            continue
        if isinstance(leaf, Tensor):
            if leaf.numel() != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            leaf = level[index] = leaf.item()
        if not isinstance(leaf, _NUMBER):
            raise _data_error(data, shape, dtype)
        if isinstance(leaf, float) and kind is not dtypes.default_float():
            kind = dtypes.default_float()
        elif isinstance(leaf, int) and not isinstance(leaf, bool) and kind is dtypes.bool_:
            kind = dtypes.int64
    if not level and shape:
        kind = dtypes.default_float()
    for array_kind in array_kinds:
        kind = dtypes.promote(kind, array_kind)
    return tuple(shape), kind, level


def _rows(item: Any) -> Any:
    """A numpy array inside nested data as torch reads it: the list of its rows (or elements),
    with the warning PyTorch gives once in a process; anything else as it is."""
    if isinstance(item, NumpyArray):
        item = item._array
    if not isinstance(item, np.ndarray) or not item.ndim:
        return item
    if not _STATE["warned_arrays"]:
        _STATE["warned_arrays"] = True
        warnings.warn("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please "
                      "consider converting the list to a single numpy.ndarray with numpy.array() "
                      "before converting to a tensor.", UserWarning, stacklevel=2)
    return list(item)


def _data_error(data: Any, shape: list[int], dtype: dtypes.DType | None) -> Exception:
    """torch's error for nested data that is not a block of numbers of `shape`: first the
    first leaf it cannot infer a dtype from, then the first misshapen sequence (depth first)."""
    floating = dtype is not None and dtype.is_floating_point
    stack = [data]
    while stack:
        item = _rows(stack.pop())
        if isinstance(item, _SEQUENCE):
            if not len(item) and dtype is None:
                floating = True  # [] is float32 to torch's inference
            stack.extend(reversed(item))
        elif isinstance(item, float) and dtype is None:
            floating = True
        elif isinstance(item, (str, bytes)):
            return TypeError(f"new(): invalid data type '{type(item).__name__}'")
        elif not isinstance(item, (*_NUMBER, Tensor, np.generic)):
            return RuntimeError(f"Could not infer dtype of {type(item).__name__}")
    walk = [(data, 0)]
    while walk:
        item, depth = walk.pop()
        item = _rows(item)
        if depth == len(shape):
            if isinstance(item, _SEQUENCE):
                name = type(item).__name__
                return TypeError(f"must be real number, not {name}" if floating else
                                 f"'{name}' object cannot be interpreted as an integer")
        elif not isinstance(item, _SEQUENCE):
            return TypeError("not a sequence")
        elif len(item) != shape[depth]:
            return ValueError(f"expected sequence of length {shape[depth]} at dim {depth} "
                              f"(got {len(item)})")
        else:
            walk.extend((child, depth + 1) for child in reversed(item))
    return ValueError("expected a regular nested sequence of numbers")


def array_from_data(data: Any, dtype: dtypes.DType | None) -> np.ndarray:
    if isinstance(data, (Tensor, NumpyArray)):
        array = (data.array if isinstance(data, Tensor) else data._array).copy()
        return array if dtype is None else array.astype(dtype.np)
    shape, inferred, leaves = _flatten(data, dtype)
    target = dtype or inferred
    if target.np.kind in "iu":
        info = np.iinfo(target.np)  # type: ignore[type-var]
        for leaf in leaves:
            if isinstance(leaf, int) and not info.min <= leaf <= info.max:
                raise RuntimeError("Overflow when unpacking long")
    try:
        return np.array(leaves, dtype=target.np).reshape(shape)
    except OverflowError:
        raise RuntimeError("Overflow when unpacking long") from None


def _finish(array: np.ndarray, requires_grad: bool) -> Tensor:
    tensor = Tensor._wrap(array)
    if requires_grad:
        if array.dtype.kind != "f":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        tensor._requires_grad = True
    return tensor


def tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    devices.check_factory(device)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    target = None if dtype is None else dtypes.resolve(dtype)
    array = array_from_data(data, target)
    if requires_grad and not dtypes.of_array(array).is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    return _finish(array, requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    devices.check_factory(device)
    if isinstance(data, NumpyArray):
        data = from_numpy(data)  # shares the memory, as torch.as_tensor does
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    return tensor(data, dtype=dtype)


def _size(size: tuple[Any, ...]) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(_size_item(s) for s in size)


def _size_item(s: Any) -> int:
    """An int, a numpy integer or a one-element integer tensor (`x.max()`), as torch takes them."""
    if isinstance(s, Tensor) and s.array.dtype.kind in "iu" and s.array.size == 1:
        return int(s.array.reshape(()))
    if isinstance(s, np.integer):
        return int(s)
    if not isinstance(s, int) or isinstance(s, bool):
        raise TypeError(f"size must be tuple of ints, but got {type(s).__name__}")
    return s


def keyword_size(size: Any) -> tuple[Any, ...]:
    """The sizes of `torch.zeros(size=(2, 3))` as `torch.zeros(2, 3)` would have them."""
    return () if size is None else (size,)


def _filled(size: tuple[Any, ...], value: Any, dtype: Any, requires_grad: bool,
            default: dtypes.DType | None = None, device: Any = None) -> Tensor:
    devices.check_factory(device)
    shape = _size(size)
    target = dtypes.resolve(dtype) if dtype is not None else (default or dtypes.default_float())
    budget.check_shape(shape, target.itemsize)
    if requires_grad and not target.is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    return _finish(np.full(shape, value, dtype=target.np), requires_grad)


def ones(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False,
         device: Any = None) -> Tensor:
    return _filled(sizes or keyword_size(size), 1, dtype, requires_grad, device=device)


def zeros(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False,
          device: Any = None) -> Tensor:
    return _filled(sizes or keyword_size(size), 0, dtype, requires_grad, device=device)


def empty(*sizes: Any, size: Any = None, dtype: Any = None, requires_grad: bool = False,
          device: Any = None) -> Tensor:
    return _filled(sizes or keyword_size(size), 0, dtype, requires_grad, device=device)


def full(size: Any, fill_value: Any, dtype: Any = None, requires_grad: bool = False,
         device: Any = None) -> Tensor:
    default = dtypes.of_python_scalar(fill_value) if dtype is None else None
    return _filled((size,), fill_value, dtype, requires_grad, default, device)


def _like(t: Tensor, value: Any, dtype: Any, requires_grad: bool, device: Any = None
          ) -> Tensor:
    return _filled((t.shape_tuple,), value, dtype if dtype is not None else t.dtype,
                   requires_grad, device=devices.CPU if device is None else device)  # t's device


def ones_like(input: Tensor, dtype: Any = None, requires_grad: bool = False, device: Any = None
              ) -> Tensor:
    return _like(input, 1, dtype, requires_grad, device)


def zeros_like(input: Tensor, dtype: Any = None, requires_grad: bool = False, device: Any = None
               ) -> Tensor:
    return _like(input, 0, dtype, requires_grad, device)


def empty_like(input: Tensor, dtype: Any = None, requires_grad: bool = False, device: Any = None
               ) -> Tensor:
    return _like(input, 0, dtype, requires_grad, device)


def full_like(input: Tensor, fill_value: Any, dtype: Any = None, requires_grad: bool = False,
              device: Any = None) -> Tensor:
    return _like(input, fill_value, dtype, requires_grad, device)


def arange(start: Any, end: Any = None, step: Any = 1, dtype: Any = None,
           requires_grad: bool = False, device: Any = None) -> Tensor:
    devices.check_factory(device)
    if end is None:
        start, end = 0, start
    values = [_number(v) for v in (start, end, step)]
    low, high, step = values
    _check_range(low, high, step)
    count = max(0, _count(math.ceil, (values[1] - values[0]) / values[2]))
    is_float = any(isinstance(v, float) for v in values)
    target = dtypes.resolve(dtype) if dtype is not None else (
        dtypes.default_float() if is_float else dtypes.int64)
    budget.check_shape((count,), target.itemsize)
    if target in (dtypes.float32, dtypes.float64):
        array = _arange_values(float(low), float(step), count, target.np)
    elif is_float or target.is_floating_point:
        array = (values[0] + np.arange(count, dtype=np.float64) * values[2]).astype(target.np)
    else:
        array = np.arange(values[0], values[1], values[2], dtype=target.np)
    return _finish(array, requires_grad)


def _arange_values(start: float, step: float, count: int, ftype: Any) -> np.ndarray:
    """ATen's float arange, value for value. Each thread of its parallel_for (grain 32768) walks
    its range in blocks of two SIMD vectors (8 float32 or 4 float64 lanes each): a vector starts
    at start + step * index (double), rounded to the dtype, and its lane j is that start
    + j * step in double; the elements after the last whole block are start + step * index.
    Every multiply-add is fused (one rounding). Worked in slices, so temporaries stay small."""
    lanes = 8 if ftype == np.float32 else 4
    out = np.empty(count, dtype=ftype)
    for begin, end in threads.thread_chunks(count, 32768):
        whole = (end - begin) - (end - begin) % (2 * lanes)  # elements in whole blocks
        for first in range(0, end - begin, ARANGE_SLICE):
            offset = np.arange(first, min(first + ARANGE_SLICE, end - begin), dtype=np.float64)
            lane = offset % lanes
            vector_start = _fused(step, begin + offset[::lanes], start, ftype)
            vector_start = np.repeat(vector_start.astype(np.float64), lanes)[:len(offset)]
            values = _fused(lane, step, vector_start, ftype)
            tail = offset >= whole
            if tail.any():
                values[tail] = _fused(step, begin + offset[tail], start, ftype)
            out[begin + first:begin + first + len(offset)] = values
    return out


ARANGE_SLICE = 1 << 16  # a multiple of every block size


def _fused(a: Any, b: Any, c: Any, ftype: Any) -> np.ndarray:
    """a * b + c in double with one rounding, then rounded to ftype. For float32 the plain
    double result decides wherever everything within its error rounds alike (nearly always);
    the others, and float64, take float_math's exact fused multiply-add."""
    if ftype != np.float32:
        return float_math.fma64(a, b, c)
    product = np.multiply(a, b)
    plain = product + c
    error = np.spacing(np.abs(product)) + 2 * np.spacing(np.abs(plain))
    result = plain.astype(np.float32)
    unsure = (plain - error).astype(np.float32) != (plain + error).astype(np.float32)
    if unsure.any():
        pick = np.broadcast_to
        exact = float_math.fma64(pick(a, plain.shape)[unsure], pick(b, plain.shape)[unsure],
                                 pick(c, plain.shape)[unsure])
        result[unsure] = exact.astype(np.float32)
    return result


def range_(start: Any, end: Any, step: Any = 1, dtype: Any = None, requires_grad: bool = False,
           device: Any = None) -> Tensor:
    """torch.range, deprecated: end included, and the default float dtype even for integers."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because its "
                  "behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning, stacklevel=2)
    devices.check_factory(device)
    low, high, step = (_number(v) for v in (start, end, step))
    _check_range(low, high, step)
    count = _count(math.floor, (high - low) / step) + 1
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()
    budget.check_shape((count,), target.itemsize)
    return _finish((low + np.arange(count, dtype=np.float64) * step).astype(target.np),
                   requires_grad)


def _check_range(low: float, high: float, step: float) -> None:
    """arange's and range's checks of their bounds, with PyTorch's messages."""
    if not (step > 0 or step < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"unsupported range: {low:g} -> {high:g}")
    if not ((step > 0 and high >= low) or (step < 0 and high <= low)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")


def _count(rounding: Any, quotient: float) -> int:
    """The number of values of a range, (end - start) / step rounded; PyTorch's error for a
    quotient too large to count (1e300 / 1e-300, a NaN end)."""
    if not math.isfinite(quotient):
        raise RuntimeError("invalid size, possible overflow?")
    return int(rounding(quotient))


def _number(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value.item()
    if not isinstance(value, (int, float)):
        raise TypeError(f"arange(): argument must be Number, not {type(value).__name__}")
    return value


def linspace(start: Any, end: Any, steps: int, dtype: Any = None, requires_grad: bool = False,
             device: Any = None) -> Tensor:
    devices.check_factory(device)
    start, end = _number(start), _number(end)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()
    budget.check_shape((steps,), target.itemsize)
    # PyTorch computes each half from its own end, with a fused multiply-add in the output
    # dtype: for float32 that is the float64 result rounded once (bit-exact).
    ftype = target.np if target.is_floating_point else np.dtype(np.float64)
    s, e = ftype.type(start), ftype.type(end)
    st = (e - s) / ftype.type(steps - 1) if steps > 1 else ftype.type(0)
    wide = np.float64 if ftype.itemsize < 8 else ftype.type
    index = np.arange(steps)
    half = steps // 2
    array = np.where(index < half, wide(s) + wide(st) * index,
                     wide(e) - wide(st) * (steps - 1 - index)).astype(ftype)
    if steps == 1:
        array = np.array([s], dtype=ftype)
    array = array.astype(target.np)
    return _finish(array, requires_grad)


def logspace(start: Any, end: Any, steps: int, base: float = 10.0, dtype: Any = None,
             requires_grad: bool = False, device: Any = None) -> Tensor:
    """ATen's: base ** exponent in double (each half of the exponents counted from its own
    end, the step in double), rounded once to the output dtype."""
    devices.check_factory(device)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()
    budget.check_shape((steps,), target.itemsize)
    ftype = target.np.type
    s, e = ftype(_number(start)), ftype(_number(end))
    step = float(e - s) / (steps - 1) if steps > 1 else 0.0
    index = np.arange(steps)
    exponent = np.where(index < steps // 2, float(s) + step * index,
                        float(e) - step * (steps - 1 - index))
    if steps == 1:  # a single point is the start
        exponent = np.full(1, float(s))
    return _finish(np.power(float(ftype(base)), exponent).astype(target.np), requires_grad)


def eye(n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False,
        device: Any = None) -> Tensor:
    devices.check_factory(device)
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()
    budget.check_shape((n, m if m is not None else n), target.itemsize)
    return _finish(np.eye(n, m, dtype=target.np), requires_grad)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None) -> Tensor:
    """The (row, column) indices of the lower triangle of a row x col matrix, row by row."""
    return _triangle_indices(np.tril_indices, row, col, offset, dtype, device)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype: Any = None, device: Any = None,
                 layout: Any = None) -> Tensor:
    return _triangle_indices(np.triu_indices, row, col, offset, dtype, device)


def _triangle_indices(which: Any, row: int, col: int, offset: int, dtype: Any,
                      device: Any) -> Tensor:
    devices.check_factory(device)
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.int64
    budget.check_shape((2, row, col), target.itemsize)
    rows, cols = which(int(row), int(offset), int(col))
    return _finish(np.stack((rows, cols)).astype(target.np), False)


def legacy_constructor(dtype: dtypes.DType) -> Any:
    """torch.FloatTensor / DoubleTensor / LongTensor: from data, or a shape of zeros."""

    def construct(*args: Any) -> Tensor:
        if len(args) == 1 and not isinstance(args[0], int):
            return Tensor._wrap(array_from_data(args[0], dtype))
        return _filled(args, 0, dtype, False)

    construct.__name__ = dtype.legacy_name
    dtypes.LEGACY_TYPES.append((construct, dtype))
    return construct


def variable(data: Tensor, requires_grad: bool = False, volatile: bool = False) -> Tensor:
    """torch.autograd.Variable: since PyTorch 0.4 just the tensor, with requires_grad set."""
    if not isinstance(data, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
    out = Tensor._wrap(data.array)
    if requires_grad:
        out.requires_grad_(True)
    return out
