"""Comparisons and logic: eq/ne/lt/le/gt/ge, logical_*, bitwise_*, isnan/isinf/isfinite, equal,
allclose, isclose, any/all and where."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import budget, dtypes
from engine.ops import pointwise
from engine.registry import public
from engine.tensor import Tensor, normalize_dim

# --- comparisons (not differentiable) ----------------------------------------------------------

def _compare(a: Any, b: Any, op: Any) -> Tensor:
    left = a.array if isinstance(a, Tensor) else _operand(a, b, op)
    right = b.array if isinstance(b, Tensor) else _operand(b, a, op)
    if left.__class__ is np.ndarray and right.__class__ is np.ndarray and (
            left.shape != right.shape):
        budget.check_broadcast((left.shape, right.shape), 1)  # a bool result, maybe far bigger
    return _fresh(np.asarray(op(left, right)))


def _fresh(array: np.ndarray) -> Tensor:
    """A tensor over a new array made here rather than by a Function: after a big one the
    memory in use is measured again, as Function.apply does."""
    if array.nbytes >= budget.LARGE:
        budget.check_in_use()
    return Tensor._wrap(array)


# the comparisons of two operands: torch name -> numpy function; each is torch.NAME, t.NAME(other)
# and t.NAME_(other) (the result written into t, in t's dtype)
COMPARISONS: dict[str, Any] = {
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
    "ge": np.greater_equal, "logical_and": np.logical_and, "logical_or": np.logical_or,
    "logical_xor": np.logical_xor,
}
_COMPARE_NAMES = {op: name for name, op in COMPARISONS.items()}  # for PyTorch's messages


def _operand(value: Any, other: Any, op: Any) -> Any:
    """A comparison's operand that is not a tensor: a python number (torch's Number); torch's
    argument parser refuses anything else (None, a str, a list)."""
    if isinstance(value, (bool, int, float)):
        return value
    got = ", ".join(type(x).__name__ for x in (other, value))
    raise TypeError(f"{_COMPARE_NAMES.get(op, 'eq')}() received an invalid combination of "
                    f"arguments - got ({got}), but expected one of:\n"
                    " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                    " * (Tensor input, Number other, *, Tensor out = None)\n")


@public(method=True, inplace=True)
def logical_not(a: Tensor) -> Tensor:
    return _fresh(np.logical_not(a.array))


# --- bitwise: integer and bool tensors, PyTorch's result dtype ---------------------------------

def _bitwise(name: str, op: Any, a: Any, b: Any) -> Tensor:
    tensors = [x for x in (a, b) if isinstance(x, Tensor)]
    scalars = [x for x in (a, b) if not isinstance(x, Tensor)]
    for x in scalars:
        if not isinstance(x, (bool, int, float)):
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"({', '.join(type(v).__name__ for v in (a, b))}), but expected "
                            "one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
                            " * (Number self, Tensor other)\n"
                            " * (Tensor input, Number other, *, Tensor out = None)\n")
    dtype = dtypes.result_type([(t.dtype, t.ndim) for t in tensors], scalars)
    if dtype.category > 1:
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{dtypes.scalar_name(dtype)}'")
    left, right = (x.array if isinstance(x, Tensor) else x for x in (a, b))
    if len(tensors) == 2 and left.shape != right.shape:  # `a & b.T` may be far bigger
        budget.check_broadcast((left.shape, right.shape), dtype.np.itemsize)
    return _fresh(np.asarray(op(np.asarray(left, dtype.np), np.asarray(right, dtype.np))))


@public(method=True, inplace=True)
def bitwise_and(a: Any, b: Any) -> Tensor:
    return _bitwise("bitwise_and", np.bitwise_and, a, b)


@public(method=True, inplace=True)
def bitwise_or(a: Any, b: Any) -> Tensor:
    return _bitwise("bitwise_or", np.bitwise_or, a, b)


@public(method=True, inplace=True)
def bitwise_xor(a: Any, b: Any) -> Tensor:
    return _bitwise("bitwise_xor", np.bitwise_xor, a, b)


@public(method=True, inplace=True)
def bitwise_not(a: Tensor) -> Tensor:
    if a.dtype.category > 1:
        raise NotImplementedError(f'"bitwise_not_cpu" not implemented for '
                                  f"'{dtypes.scalar_name(a.dtype)}'")
    return _fresh(np.invert(a.array))


@public(method=True)
def signbit(a: Tensor) -> Tensor:
    return _fresh(np.signbit(a.array))


@public
def isin(elements: Any, test_elements: Any, *, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    """Whether each of `elements` is among `test_elements` (either may be a number)."""
    values = elements.array if isinstance(elements, Tensor) else np.asarray(elements)
    tests = test_elements.array if isinstance(test_elements, Tensor) else np.asarray(
        test_elements)
    return _fresh(np.asarray(np.isin(values, tests, invert=invert)))


@public(method=True)
def isnan(a: Tensor) -> Tensor:
    return _fresh(np.isnan(a.array))


@public(method=True)
def isinf(a: Tensor) -> Tensor:
    return _fresh(np.isinf(a.array))


@public(method=True)
def isfinite(a: Tensor) -> Tensor:
    return _fresh(np.isfinite(a.array))


@public(method=True)
def equal(a: Tensor, b: Tensor) -> bool:
    return a.shape_tuple == b.shape_tuple and bool(np.array_equal(a.array, b.array))


@public(method=True)
def allclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    # numpy makes a few arrays of the broadcast shape on the way (|a - b|, a tolerance each)
    itemsize = builtins.max(a.array.itemsize, b.array.itemsize)
    budget.check_broadcast((a.shape_tuple, b.shape_tuple), ALLCLOSE_TEMPORARIES * itemsize)
    return bool(np.allclose(a.array, b.array, rtol=rtol, atol=atol, equal_nan=equal_nan))


ALLCLOSE_TEMPORARIES = 3


def _bool_reduce(reduce_fn: Any, a: Tensor, dim: Any, keepdim: bool) -> Tensor:
    if dim is None or a.ndim == 0:
        if dim is not None:
            for d in dim if isinstance(dim, (tuple, list)) else (dim,):
                normalize_dim(d, 0)
        result = reduce_fn(a.array)
        if keepdim and dim is None:
            result = np.reshape(result, (1,) * a.ndim)
        return Tensor._wrap(np.asarray(result))
    dims = tuple(normalize_dim(d, a.ndim) for d in (dim if isinstance(dim, (tuple, list))
                                                     else (dim,)))
    return Tensor._wrap(np.asarray(reduce_fn(a.array, axis=dims, keepdims=keepdim)))


@public(method=True)
def any(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    return _bool_reduce(np.any, a, dim, keepdim)


@public(method=True)
def all(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    return _bool_reduce(np.all, a, dim, keepdim)


@public(method=True)
def isclose(a: Tensor, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    other = b.array if isinstance(b, Tensor) else np.asarray(b)
    if isinstance(b, Tensor) and a.array.dtype != other.dtype:
        raise RuntimeError(f"{dtypes.of_array(a.array)} did not match "
                           f"{dtypes.of_array(other)}")
    budget.check_broadcast((a.shape_tuple, tuple(other.shape)),
                           ALLCLOSE_TEMPORARIES * a.array.itemsize)
    return Tensor._wrap(np.asarray(np.isclose(a.array, other, rtol=rtol, atol=atol,
                                              equal_nan=equal_nan)))


@public(method=True)
def where(condition: Tensor, a: Any, b: Any) -> Tensor:
    return pointwise.where(condition, a, b)


def _comparison(name: str, op: Any) -> Callable[[Any, Any], Tensor]:
    def function(a: Any, b: Any) -> Tensor:
        return _compare(a, b, op)

    function.__name__ = function.__qualname__ = name
    return function


for _name, _op in COMPARISONS.items():
    public(_comparison(_name, _op), method=True, inplace=True)
