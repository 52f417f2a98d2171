"""How ops take their operands: tensors and python numbers promoted to PyTorch's result dtype,
shapes checked to broadcast (PyTorch's message for those that do not), and the check that an
argument is a Tensor.

engine/autograd.py reads `prepare_operands` as a module global (every op passes through it):
this module binds it there with Tensor when it is first imported (engine/ops/__init__.py
imports it, so no op runs before).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import autograd, budget, dtypes
from engine.tensor import Tensor


def expect_tensor(value: Any, function: str = "input", argument: str = "input",
                  position: int = 1) -> Tensor:
    """`value`, when it is a Tensor; else PyTorch's TypeError for `function`'s argument."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{function}(): argument '{argument}' (position {position}) must be "
                        f"Tensor, not {type(value).__name__}")
    return value


_CATEGORY = {"b": 0, "i": 1, "u": 1, "f": 2}


def prepare_operands(args: tuple[Any, ...]) -> list[Any]:
    """Cast tensors and python numbers to PyTorch's result dtype; check the broadcast.

    None stays None (an absent operand, like a missing clamp bound). The common case (one
    tensor dtype, numbers of no higher category, equal shapes) returns the arrays and numbers
    unchanged, quickly: every elementwise op passes through here.
    """
    if len(args) == 2:  # the common case first: a tensor with a tensor or a python number
        a, b = args
        if isinstance(a, Tensor):
            x = a.array
            if isinstance(b, Tensor):
                y = b.array
                if x.dtype is y.dtype or x.dtype == y.dtype:
                    if x.shape != y.shape:
                        _check_pair(x.shape, y.shape, x.dtype)
                    return [x, y]
            elif b.__class__ is float:
                if x.dtype.kind == "f":
                    return [x, b]
            elif b.__class__ is int and x.dtype.kind in "fiu":
                return [x, b]
    arrays: list[Any] = []
    dtype = None
    mixed = False
    scalar_category = -1
    for a in args:
        if isinstance(a, Tensor):
            array = a.array
            if dtype is None:
                dtype = array.dtype
            elif array.dtype != dtype:
                mixed = True
            arrays.append(array)
        elif a.__class__ is float:
            scalar_category = 2
            arrays.append(a)
        elif a is None:
            arrays.append(None)
        elif isinstance(a, (bool, int, float)):
            category = 0 if isinstance(a, bool) else 1 if isinstance(a, int) else 2
            scalar_category = max(scalar_category, category)
            arrays.append(a if category < 2 else float(a))  # a numpy_bridge float: a number
        else:
            raise TypeError(f"unsupported operand type(s): 'Tensor' and '{type(a).__name__}'")
    if mixed or dtype is None or scalar_category > _CATEGORY[dtype.kind]:
        operands = [(a.dtype, a.array.ndim) for a in args if isinstance(a, Tensor)]
        scalars = [a for a in args if a is not None and not isinstance(a, Tensor)]
        result = dtypes.result_type(operands, scalars).np
        arrays = [x if x is None else np.asarray(x, dtype=result) if not isinstance(
            x, np.ndarray) else x if x.dtype == result else x.astype(result) for x in arrays]
        dtype = result
    shape = None
    for x in arrays:
        if x.__class__ is np.ndarray:
            if shape is None:
                shape = x.shape
            elif x.shape != shape:
                _check_broadcast([x.shape for x in arrays if isinstance(x, np.ndarray)], dtype)
                break
    return arrays


_BROADCAST_SHAPES: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}


def _check_pair(x: tuple[int, ...], y: tuple[int, ...], dtype: np.dtype) -> None:
    """_check_broadcast for two shapes; pairs seen before (a training loop) are looked up."""
    shape = _BROADCAST_SHAPES.get((x, y))
    if shape is None:
        _check_broadcast([x, y], dtype)
        if len(_BROADCAST_SHAPES) < 4096:
            _BROADCAST_SHAPES[(x, y)] = np.broadcast_shapes(x, y)
    elif shape != x and shape != y:  # a result bigger than both inputs: within the limits?
        budget.check_shape(shape, dtype.itemsize)


def _check_broadcast(shapes: list[tuple[int, ...]], dtype: np.dtype) -> None:
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise first_broadcast_error(shapes) from None
    budget.check_shape(shape, dtype.itemsize)


def first_broadcast_error(shapes: list[tuple[int, ...]]) -> RuntimeError:
    shape = shapes[0]
    for other in shapes[1:]:
        try:
            shape = np.broadcast_shapes(shape, other)
        except ValueError:
            return broadcast_error(shape, other)
    return RuntimeError("shapes cannot be broadcast")


def broadcast_error(a: tuple[int, ...], b: tuple[int, ...]) -> RuntimeError:
    """PyTorch's message for two shapes that do not broadcast (first mismatch from the right)."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    for i in reversed(range(n)):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            return RuntimeError(f"The size of tensor a ({a[i]}) must match the size of tensor b "
                                f"({b[i]}) at non-singleton dimension {i}")
    return RuntimeError("shapes cannot be broadcast")



autograd.bind_tensor_type(Tensor, prepare_operands)
