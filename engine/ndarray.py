"""numpy arrays as a program holds them: `ndarray`, its `dtype` and its scalars.

A real numpy array would open numpy's whole surface to a program (`tofile`, `ctypes`, the
buffer protocol, ...), so a program holds a `NumpyArray` (shown as `ndarray`) over a private
numpy array: it prints exactly as numpy prints, computes with numpy, and offers the methods and
operators in the tables below, nothing else. Every result is wrapped again (`wrap`), every
argument unwrapped (`unwrap`); a result that can outgrow its inputs is sized first against the
engine's budget (engine/budget.py), as tensors are. `Tensor.numpy()` and `torch.from_numpy`
share the array's memory, so an in-place change shows on both sides, as in PyTorch.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterator
from itertools import compress
from typing import Any

import numpy as np

from engine import budget
from engine.refused import Refused
from engine.tensor import Tensor

_INDEX_ERROR = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                "integer or boolean arrays are valid indices")
# Array kinds a program may hold: booleans, integers, floats, complex numbers, text.
_KINDS = "biufcU"


class NumpyDType:
    """`a.dtype`: prints as numpy's (`float32`; `dtype('float32')` as a repr)."""

    PUBLIC_ATTRS = frozenset({"name", "itemsize", "kind", "type"})
    __slots__ = ("_dtype",)

    def __init__(self, dtype: np.dtype) -> None:
        self._dtype = dtype

    @property
    def name(self) -> str:
        return str(self._dtype.name)

    @property
    def itemsize(self) -> int:
        return int(self._dtype.itemsize)

    @property
    def kind(self) -> str:
        return str(self._dtype.kind)

    @property
    def type(self) -> ScalarType:
        return ScalarType(self._dtype.type)

    def __repr__(self) -> str:
        return repr(self._dtype)

    def __str__(self) -> str:
        return str(self._dtype)

    def __eq__(self, other: Any) -> bool:
        try:
            return bool(self._dtype == np.dtype(unwrap(other)))
        except TypeError:
            return False

    def __hash__(self) -> int:
        return hash(self._dtype)


class ScalarType:
    """`np.float32`, `np.int64`, ...: a dtype argument, and callable as numpy's scalar types."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("_type",)

    def __init__(self, scalar_type: type) -> None:
        self._type = scalar_type

    def __call__(self, value: Any = 0) -> Any:
        value = unwrap(value)
        if isinstance(value, np.ndarray):
            budget.check_shape(value.shape, np.dtype(self._type).itemsize)
        return wrap(self._type(value))

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ScalarType) and self._type is other._type

    def __hash__(self) -> int:
        return hash(self._type)

    def __repr__(self) -> str:
        return f"<class 'numpy.{self._type.__name__}'>"


class _NumpyScalar:
    """What a numpy element shows and does whatever its kind: it prints as numpy's scalar
    (`0.1` for a float32 0.1, `np.float32(0.1)` as a repr) and computes in its precision."""

    PUBLIC_ATTRS = frozenset({"item", "dtype"})
    __slots__ = ()
    _scalar: np.generic

    def __repr__(self) -> str:
        return repr(self._scalar)

    def __str__(self) -> str:
        return str(self._scalar)

    def __format__(self, spec: str) -> str:
        return format(self._scalar, spec)

    @property
    def dtype(self) -> NumpyDType:
        return NumpyDType(self._scalar.dtype)

    def __neg__(self) -> Any:
        return wrap(-self._scalar)  # type: ignore[operator]

    def __abs__(self) -> Any:
        return wrap(abs(self._scalar))  # type: ignore[arg-type]


class NumpyFloat(_NumpyScalar, float):
    """A floating-point element (`a[0]`, `a.sum()`): a Python float that is numpy's scalar."""

    __slots__ = ("_scalar",)
    _scalar: np.floating[Any]

    def __new__(cls, value: np.floating[Any]) -> NumpyFloat:
        made = float.__new__(cls, float(value))
        made._scalar = value
        return made

    def item(self) -> float:
        return float(self)

    def __pos__(self) -> Any:
        return self


class NumpyInt(_NumpyScalar, int):
    """An integer element: a Python int that is numpy's scalar (fixed width)."""

    _scalar: np.integer[Any]  # (an int subclass cannot have __slots__ of its own)

    def __new__(cls, value: np.integer[Any]) -> NumpyInt:
        made = int.__new__(cls, int(value))
        made._scalar = value
        return made

    def item(self) -> int:
        return int(self)


NumpyFloat.__name__ = NumpyFloat.__qualname__ = "floating"
NumpyInt.__name__ = NumpyInt.__qualname__ = "signedinteger"
NumpyFloat.__module__ = NumpyInt.__module__ = "numpy"


def _named(base: type, numpy_type: type) -> type:
    """The kind of element `type(a[0])` shows, named as numpy names it (`numpy.float32`)."""
    kind = type(numpy_type.__name__, (base,), {"__slots__": ()} if base is NumpyFloat else {})
    kind.__module__ = "numpy"
    return kind


# numpy's dtype -> the class of its elements here
_KIND_OF: dict[np.dtype, type] = {
    np.dtype(t): _named(NumpyFloat, t) for t in (np.float16, np.float32, np.float64)} | {
    np.dtype(t): _named(NumpyInt, t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8,
                                               np.uint16, np.uint32, np.uint64)}


def _scalar_operator(ufunc: Callable[..., Any], reflected: bool) -> Callable[..., Any]:
    def operator(self: _NumpyScalar, other: Any, modulo: Any = None) -> Any:
        if modulo is not None:  # pow(a, b, m): numpy's scalars have no three-argument pow
            raise TypeError("unsupported operand type(s) for ** or pow(): 'numpy."
                            f"{self._scalar.dtype.name}', '{type(other).__name__}', "
                            f"'{type(modulo).__name__}'")
        if isinstance(other, _NumpyScalar):
            other = other._scalar
        elif not isinstance(other, (int, float)):
            return NotImplemented
        if reflected:
            return wrap(ufunc(other, self._scalar))
        return wrap(ufunc(self._scalar, other))

    return operator


_SCALAR_OPERATORS: dict[str, Any] = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
                                     "truediv": np.true_divide, "floordiv": np.floor_divide,
                                     "mod": np.remainder, "pow": np.power}
# an integer element shifts and masks in its width too: int's own `<<` would make
# `np.int64(7) << 10**9` a Python int of 10**9 bits, past the integer size limit
_INTEGER_OPERATORS: dict[str, Any] = {"lshift": np.left_shift, "rshift": np.right_shift,
                                      "and": np.bitwise_and, "or": np.bitwise_or,
                                      "xor": np.bitwise_xor}
for _kind, _operators in ((NumpyFloat, _SCALAR_OPERATORS),
                          (NumpyInt, _SCALAR_OPERATORS | _INTEGER_OPERATORS)):
    for _name, _ufunc in _operators.items():
        setattr(_kind, f"__{_name}__", _scalar_operator(_ufunc, False))
        setattr(_kind, f"__r{_name}__", _scalar_operator(_ufunc, True))


def scalar(value: Any) -> Any:
    """An element as a program sees it: a NumpyFloat or NumpyInt, or a Python bool / complex /
    str."""
    if isinstance(value, np.floating):
        return _KIND_OF.get(value.dtype, NumpyFloat)(value)
    if isinstance(value, np.integer):
        return _KIND_OF.get(value.dtype, NumpyInt)(value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def wrap(value: Any) -> Any:
    """A numpy result as a program sees it (arrays wrapped, scalars made Python's)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in _KINDS:
            raise TypeError(f"agraph's numpy holds numbers and text, not {value.dtype} arrays")
        return NumpyArray(value)
    if isinstance(value, np.generic):
        return scalar(value)
    if isinstance(value, np.dtype):
        return NumpyDType(value)
    if isinstance(value, tuple):
        return tuple(wrap(item) for item in value)
    if isinstance(value, list):
        return [wrap(item) for item in value]
    return value


def unwrap(value: Any) -> Any:
    """A program's argument as numpy takes it: arrays, dtypes and scalar types unwrapped,
    lists and tuples of them too; a tensor gives its array as `np.asarray(t)` does."""
    kind = type(value)
    if kind is NumpyArray:
        return value._array
    if kind in (int, float, bool, str, slice) or value is None:
        return value
    if isinstance(value, _NumpyScalar):
        return value._scalar
    if kind is NumpyDType:
        return value._dtype
    if kind is ScalarType:
        return value._type
    if kind in (list, tuple) or isinstance(value, deque):
        check_data(value)
        return _unwrap_sequence(list(value) if isinstance(value, deque) else value, {})
    if kind is range:
        return _range_array(value)
    if isinstance(value, Tensor):
        from engine.numpy_bridge import to_numpy  # lazy: engine.numpy_bridge imports this module

        return to_numpy(value)._array
    return value


_SEQUENCES = frozenset({list, tuple})
# what numpy reads as one level of nested data: a range's numbers and a deque's items too
_LEVELS = (list, tuple, range, deque)


def _range_array(value: range) -> np.ndarray:
    """`np.array(range(n))` made as numpy would make it, sized first: numpy turns a range into
    a list of n Python ints in one C call (`np.sum(range(10**9))` held the interpreter lock,
    past the time limit, at 40 bytes a number)."""
    check_result((len(value),), 8)
    if value:
        _check_ints(min(value), max(value))
    return np.arange(value.start, value.stop, value.step, dtype=np.int64)
_PLAIN = frozenset({int, float, bool, str, type(None)})
_IS_STR = frozenset({str}).__contains__
_IS_INT = frozenset({int}).__contains__


def _unwrap_sequence(value: Any, done: dict[int, Any]) -> Any:
    """A list or tuple with the arrays, tensors and numpy scalars in it unwrapped; a list of
    plain numbers and strings as it is (looked at in C), each distinct list once (a list
    that repeats one row is unwrapped row by row only once)."""
    known = done.get(id(value))
    if known is None:
        if set(map(type, value)) <= _PLAIN:
            known = value
        else:
            known = type(value)(_unwrap_sequence(item, done) if type(item) in _SEQUENCES
                                else done.setdefault(id(item), unwrap(item))
                                if type(item) is range else unwrap(item) for item in value)
        done[id(value)] = known
    return known


def check_data(data: list[Any] | tuple[Any, ...]) -> None:
    """The array numpy would make of the nested lists `data` fits the budget, checked before
    numpy (or `unwrap`) walks them: `[row] * 20000` is small in Python and 4e8 numbers to
    numpy. Its shape is read from the first item of each level (an array or a tensor adds its
    own), the size of its items from the longest string in it (`["a" * 10**7] * 60` is 60
    items of 40 MB to numpy)."""
    shape: list[int] = []
    probe: Any = data
    while isinstance(probe, _LEVELS):
        shape.append(len(probe))
        if not probe:
            break
        probe = probe[0]
    if type(probe) is NumpyArray:
        shape.extend(probe._array.shape)
    elif isinstance(probe, Tensor):
        shape.extend(probe.shape)
    check_result(tuple(shape), 16)
    longest, seen, stack = 0, set(), [data]
    while stack:
        items = stack.pop()
        if id(items) in seen:
            continue
        seen.add(id(items))
        kinds = list(map(type, items))
        if str in kinds:
            longest = max(longest, max(map(len, compress(items, map(_IS_STR, kinds)))))
        if NumpyArray in kinds:  # `[text_array] * 60`
            longest = max(longest, max(array._array.itemsize // 4 for array in compress(
                items, map({NumpyArray}.__contains__, kinds))))
        if int in kinds:
            _check_ints(min(compress(items, map(_IS_INT, kinds))),
                        max(compress(items, map(_IS_INT, kinds))))
        stack.extend(compress(items, map(_SEQUENCES.__contains__, kinds)))
    if longest > 4:
        check_result(tuple(shape), 4 * longest)


def _check_ints(low: int, high: int) -> None:
    """Integers numpy holds in 64 bits: with a bigger one (or a negative one beside one over
    2**63) numpy makes an array of Python ints, whose products it computes in C, past the
    integer size limit and the time limit (`np.prod([2**100] * 100000)`)."""
    if low < -2**63 or high >= 2**64 or (high >= 2**63 and low < 0):
        big = low if low < -2**63 or high < 2**63 else high
        raise OverflowError(f"an integer of {big.bit_length()} bits does not fit numpy's 64-bit "
                            "integers (agraph's numpy holds no arrays of Python ints)")


def unwrap_all(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[tuple[Any, ...],
                                                                        dict[str, Any]]:
    dtype = kwargs.get("dtype")
    if dtype is not None:
        kwargs = {**kwargs, "dtype": check_dtype(unwrap(dtype))}
    return tuple(_positional(unwrap(arg)) for arg in args), {key: unwrap(v) for key, v in
                                                              kwargs.items()}


def _positional(arg: Any) -> Any:
    """A dtype given by position is checked as `dtype=` is: `np.prod(a, 0, object)` would
    multiply Python ints in C, past the integer size limit and the time limit."""
    if isinstance(arg, (type, np.dtype)):
        return check_dtype(arg)
    if type(arg) is int:
        _check_ints(arg, arg)
    elif type(arg) is str and len(arg) <= 16:
        try:
            kind = np.dtype(arg).kind
        except (TypeError, ValueError, SyntaxError):
            return arg  # a mode, an order, a method: not a dtype
        if kind not in _KINDS:
            raise TypeError(f"agraph's numpy holds numbers and text, not {np.dtype(arg)} arrays")
    return arg


def check_dtype(dtype: Any) -> np.dtype:
    """A dtype a program may ask for (numbers and text, never Python objects)."""
    if dtype in (float, int, bool, complex, str):
        return np.dtype(dtype)
    if not isinstance(dtype, (str, type, np.dtype)):
        raise TypeError(f"data type {dtype!r} not understood")
    resolved = np.dtype(dtype)
    if resolved.kind not in _KINDS:
        raise TypeError(f"agraph's numpy holds numbers and text, not {resolved} arrays")
    return resolved


def check_result(shape: tuple[int, ...], itemsize: int = 8) -> None:
    """A result of `shape` fits the budget (checked before numpy allocates it)."""
    budget.check_shape([int(n) for n in shape], max(itemsize, 1))


def _shape_of(value: Any) -> tuple[int, ...]:
    return tuple(np.shape(value)) if isinstance(value, (np.ndarray, np.generic)) else ()


def check_broadcast(*operands: Any) -> None:
    shapes = [_shape_of(operand) for operand in operands]
    if any(shapes):  # text arrays have big items: `np.where(mask, text, text)`
        budget.check_broadcast(shapes, max([16, *(operand.itemsize for operand in operands
                                                  if isinstance(operand, np.ndarray))]))


def _attribute(name: str, convert: Callable[[Any], Any]) -> Any:
    """An ndarray attribute: the numpy array's, converted (`int` for a count, an ndarray of
    agraph's for an array)."""
    return property(lambda self: convert(getattr(self._array, name)))


def _refused_attribute(name: str, reason: str, when_read: bool = False) -> Any:
    """An ndarray attribute agraph refuses (Refused says why): when called, or WHEN_READ."""
    def read(self: Any) -> Any:
        if when_read:
            raise Refused(name, reason).error()
        return Refused(name, reason)
    return property(read)


class NumpyArray:
    """The array a program holds (shown as `ndarray`)."""

    PUBLIC_ATTRS = frozenset("""shape dtype ndim size T tolist item nbytes itemsize real imag
        reshape sum mean std var max min argmax argmin prod any all cumsum cumprod astype copy
        flatten ravel transpose squeeze swapaxes clip round conj dot fill sort argsort
        nonzero diagonal trace repeat tofile tobytes dump dumps ctypes data""".split())
    __slots__ = ("_array",)

    def __init__(self, array: np.ndarray) -> None:
        self._array = array

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(int(n) for n in self._array.shape)

    @property
    def dtype(self) -> NumpyDType:
        return NumpyDType(self._array.dtype)

    ndim = _attribute("ndim", int)
    size = _attribute("size", int)
    nbytes = _attribute("nbytes", int)
    itemsize = _attribute("itemsize", int)
    T = _attribute("T", lambda array: NumpyArray(array))
    real = _attribute("real", lambda array: NumpyArray(array))
    imag = _attribute("imag", lambda array: NumpyArray(array))
    # what would write a file, run a pickle or hand out raw memory: refused when called...
    tofile = _refused_attribute("ndarray.tofile()", "files")
    dump = _refused_attribute("ndarray.dump()", "files")
    dumps = _refused_attribute("ndarray.dumps()", "interpreter")
    tobytes = _refused_attribute("ndarray.tobytes()", "memory")
    # ...or, for these two, when read (reading them is using them)
    ctypes = _refused_attribute("ndarray.ctypes", "memory", when_read=True)
    data = _refused_attribute("ndarray.data", "memory", when_read=True)

    def tolist(self) -> Any:
        return budget.tolist(self._array, "an array")

    def item(self, *args: Any) -> Any:
        return self._array.item(*[unwrap(arg) for arg in args])

    def astype(self, dtype: Any, copy: bool = True) -> NumpyArray:
        target = check_dtype(unwrap(dtype))
        check_result(self._array.shape, target.itemsize)
        return NumpyArray(self._array.astype(target, copy=copy))

    def reshape(self, *shape: Any, order: str = "C") -> NumpyArray:
        array: Any = self._array
        return NumpyArray(array.reshape(*unwrap(shape), order=order))

    def repeat(self, repeats: Any, axis: Any = None) -> NumpyArray:
        counts = np.asarray(unwrap(repeats))
        if counts.dtype.kind in "iu":
            total = int(counts.sum()) if counts.ndim else int(counts) * (
                self._array.size if axis is None else self._array.shape[axis])
            check_result((total * (self._array.size // max(self._array.shape[axis], 1))
                          if axis is not None and self._array.ndim else total,),
                         self._array.itemsize)
        return NumpyArray(self._array.repeat(counts, axis))

    def dot(self, other: Any) -> Any:
        return matmul_checked(np.dot, self._array, unwrap(other))

    def fill(self, value: Any) -> None:
        self._array.fill(unwrap(value))

    def sort(self, axis: int = -1, kind: Any = None) -> None:
        self._array.sort(axis=axis, kind=kind)

    def __repr__(self) -> str:
        _check_print(self._array)
        return repr(self._array)

    def __str__(self) -> str:
        _check_print(self._array)
        return str(self._array)

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        return format(self._array, spec)  # numpy: 0-d arrays only, else its TypeError

    def __len__(self) -> int:
        if self._array.ndim == 0:
            raise TypeError("len() of unsized object")
        return int(self._array.shape[0])

    def __iter__(self) -> Iterator[Any]:
        if self._array.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        for index in range(self._array.shape[0]):
            yield self[index]

    def __getitem__(self, key: Any) -> Any:
        index = _index(key)
        parts = index if isinstance(index, tuple) else (index,)
        picked = [np.size(part) for part in parts if isinstance(part, (list, np.ndarray))
                  and np.asarray(part).dtype.kind != "b"]
        if picked:  # integer-array indexing copies: at most (indices x elements), bounded
            budget.check_shape((int(np.prod(picked)), self._array.size), self._array.itemsize)
        return wrap(self._array[index])

    def __setitem__(self, key: Any, value: Any) -> None:
        self._array[_index(key)] = unwrap(value)

    def __bool__(self) -> bool:
        if self._array.size != 1:
            raise ValueError("The truth value of an array with more than one element is "
                             "ambiguous. Use a.any() or a.all()")
        return bool(self._array.reshape(()))

    def __float__(self) -> float:
        return float(self._array)

    def __int__(self) -> int:
        return int(self._array)

    def __index__(self) -> int:
        return self._array.__index__()

    def __neg__(self) -> NumpyArray:
        return NumpyArray(-self._array)

    def __pos__(self) -> NumpyArray:
        return NumpyArray(+self._array)

    def __abs__(self) -> NumpyArray:
        return NumpyArray(np.abs(self._array))

    def __invert__(self) -> NumpyArray:
        return NumpyArray(~self._array)

    __hash__ = None  # type: ignore[assignment]


NumpyArray.__name__ = NumpyArray.__qualname__ = "ndarray"
NumpyDType.__name__ = NumpyDType.__qualname__ = "dtype"
NumpyArray.__module__ = NumpyDType.__module__ = "numpy"  # what type(x) shows: numpy.ndarray


def _check_print(array: np.ndarray) -> None:
    """The text numpy would build for `array`, sized first (print options can ask for all of
    a huge array)."""
    options = np.get_printoptions()
    shown = array.size
    if array.size > options["threshold"]:
        edge = 2 * options["edgeitems"]
        shown = math.prod(min(n, edge) for n in array.shape)
    width = 12 + (options["precision"] if array.dtype.kind in "fc" else 0)
    width = max(width, len(options["nanstr"]), len(options["infstr"]))
    # numpy formats each element shown as its own string in lists before joining them (about
    # 245 bytes an element were measured for a million float64 zeros)
    per_element = width + ELEMENT_STRING_BYTES
    if shown * per_element >= budget.LARGE:
        budget.check_bytes(shown * per_element, f"printing an array of shape "
                           f"{list(array.shape)}")


ELEMENT_STRING_BYTES = 250  # a str object per element, its list slots, numpy's second pass


def matmul_checked(function: Callable[..., Any], left: Any, right: Any) -> Any:
    """`@`, `dot`, `matmul`: the result's shape sized before numpy computes it."""
    left_shape, right_shape = np.shape(left), np.shape(right)
    if len(left_shape) >= 1 and len(right_shape) >= 1:
        rows = math.prod(left_shape[:-1])
        columns = right_shape[-1] if len(right_shape) >= 2 else 1
        batch = math.prod(right_shape[:-2]) if len(right_shape) > 2 else 1
        check_result((rows * columns * batch,), 16)
    else:
        check_broadcast(np.asarray(left), np.asarray(right))
    return wrap(function(left, right))


def _operator(ufunc: Any, reflected: bool = False, in_place: bool = False) -> Any:
    def operator(self: NumpyArray, other: Any) -> Any:
        other = unwrap(other)
        if not isinstance(other, (np.ndarray, np.generic, int, float, bool, complex, list)):
            return NotImplemented
        if ufunc is np.matmul:
            if in_place:
                self._array[...] = unwrap(matmul_checked(np.matmul, self._array, other))
                return self
            left, right = (other, self._array) if reflected else (self._array, other)
            return matmul_checked(np.matmul, left, right)
        check_broadcast(self._array, np.asarray(other) if isinstance(other, list) else other)
        if in_place:
            ufunc(self._array, other, out=self._array)
            return self
        result = ufunc(other, self._array) if reflected else ufunc(self._array, other)
        budget.check_in_use()
        return wrap(result)

    return operator


_OPERATORS: dict[str, Any] = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
    "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power, "matmul": np.matmul,
    "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
    "lshift": np.left_shift, "rshift": np.right_shift}
for _name, _ufunc in _OPERATORS.items():
    setattr(NumpyArray, f"__{_name}__", _operator(_ufunc))
    setattr(NumpyArray, f"__r{_name}__", _operator(_ufunc, reflected=True))
    setattr(NumpyArray, f"__i{_name}__", _operator(_ufunc, in_place=True))
_COMPARISONS: dict[str, Any] = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
                                "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}
for _name, _comparison in _COMPARISONS.items():
    setattr(NumpyArray, f"__{_name}__", _operator(_comparison))


def _method(name: str, sized: bool) -> Any:
    """An ndarray method; `sized`: its result can be as big as the array (a copy)."""

    def method(self: NumpyArray, *args: Any, **kwargs: Any) -> Any:
        args, kwargs = unwrap_all(args, kwargs)
        if sized:
            check_result(self._array.shape, self._array.itemsize)
        return wrap(getattr(self._array, name)(*args, **kwargs))

    method.__name__ = method.__qualname__ = name
    return method


for _name in "sum mean std var max min argmax argmin prod any all trace nonzero".split():
    setattr(NumpyArray, _name, _method(_name, sized=False))
for _name in ("cumsum cumprod copy flatten ravel transpose squeeze swapaxes clip round conj "
              "argsort diagonal").split():
    setattr(NumpyArray, _name, _method(_name, sized=True))


def _index(key: Any) -> Any:
    """An index numpy may see: ints, slices, None, Ellipsis, int/bool lists and arrays."""
    if isinstance(key, tuple):
        return tuple(_index_part(part) for part in key)
    return _index_part(key)


def _index_part(part: Any) -> Any:
    if part is None or part is Ellipsis or isinstance(part, (bool, int, slice)):
        if isinstance(part, slice):
            for bound in (part.start, part.stop, part.step):
                if bound is not None and not isinstance(bound, int):
                    raise TypeError("slice indices must be integers or None or have an "
                                    "__index__ method")
        return part
    if isinstance(part, NumpyArray):
        return part._array
    if isinstance(part, list) and all(isinstance(item, (bool, int)) for item in part):
        return part

    if isinstance(part, Tensor) and part.array.dtype.kind in "biu":
        return part.array
    raise IndexError(_INDEX_ERROR)
