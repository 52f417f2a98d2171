"""Seeded random numbers: reproducible across runs (not equal to PyTorch's own stream)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import budget, dtypes
from engine import device as devices
from engine.tensor import Tensor

# The generator is made on first use: numpy.random takes a while to import, and most
# programs never draw a random number (agraph's startup time, README "Performance").
_state: dict[str, Any] = {"seed": 0, "generator": None}


def manual_seed(seed: int) -> None:
    _state["seed"], _state["generator"] = int(seed), None


seed = manual_seed


def _generator() -> Any:
    generator = _state["generator"]
    if generator is None:
        generator = _state["generator"] = np.random.default_rng(_state["seed"])
    return generator


def uniform(shape: tuple[int, ...], low: float, high: float, dtype: Any) -> np.ndarray:
    return _generator().uniform(low, high, shape).astype(dtype)


def normal(shape: tuple[int, ...], mean: float, std: float, dtype: Any) -> np.ndarray:
    return _generator().normal(mean, std, shape).astype(dtype)


def _shape(size: tuple[Any, ...]) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _make(array_fn: Any, size: tuple[Any, ...], dtype: Any, requires_grad: bool) -> Tensor:
    shape = _shape(size)
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.float32
    budget.check_shape(shape, target.itemsize)
    tensor = Tensor._wrap(array_fn(shape).astype(target.np))
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def rand(*size: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
         ) -> Tensor:
    devices.check(device)
    return _make(lambda s: _generator().random(s), size, dtype, requires_grad)


def randn(*size: Any, dtype: Any = None, requires_grad: bool = False, device: Any = None
          ) -> Tensor:
    devices.check(device)
    return _make(lambda s: _generator().standard_normal(s), size, dtype, requires_grad)


def randint(low: int, high: Any = None, size: Any = None, dtype: Any = None,
            device: Any = None) -> Tensor:
    devices.check(device)
    if size is None:
        low, high, size = 0, low, high
    shape = _shape((size,))
    budget.check_shape(shape, 8)
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.int64
    return Tensor._wrap(_generator().integers(low, high, shape).astype(target.np))


def rand_like(t: Tensor, dtype: Any = None, requires_grad: bool = False, device: Any = None
              ) -> Tensor:
    devices.check(device)
    return rand(t.shape_tuple, dtype=dtype or t.dtype, requires_grad=requires_grad)


def randn_like(t: Tensor, dtype: Any = None, requires_grad: bool = False,
               device: Any = None) -> Tensor:
    devices.check(device)
    return randn(t.shape_tuple, dtype=dtype or t.dtype, requires_grad=requires_grad)
