"""torch's random functions (`torch.rand`, `torch.manual_seed`, ...): PyTorch's numbers, bit for
bit. The generator lives in engine/generator.py, the kernels' transformations in
engine/sampling.py; this module turns their arrays into tensors."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import budget, dtypes, sampling
from engine import device as devices
from engine.generator import DEFAULT_SEED, Generator, default_generator, pick
from engine.tensor import Tensor


def manual_seed(seed: Any) -> Generator:
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def reset(seed_value: int = DEFAULT_SEED) -> None:
    """A run's start: the default generator seeded with agraph's fixed seed (or --seed)."""
    default_generator.set_seed(seed_value)


def get_rng_state() -> Tensor:
    return Tensor._wrap(np.frombuffer(default_generator.get_state(), dtype=np.uint8).copy())


def set_rng_state(new_state: Any) -> None:
    if not isinstance(new_state, Tensor) or new_state.dtype is not dtypes.uint8:
        raise TypeError("expected a torch.ByteTensor, but got "
                        f"{type(new_state).__name__}")
    default_generator.set_state(new_state.array.tobytes())


def _shape(size: tuple[Any, ...]) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _floating(dtype: Any, function: str) -> dtypes.DType:
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()
    if not target.is_floating_point:
        raise RuntimeError(f'"{function}" not implemented for \'{_type_name(target)}\'')
    return target


def _type_name(target: dtypes.DType) -> str:
    return {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool", "float16": "Half"}.get(target.name, target.name)


def _tensor(values: np.ndarray, shape: tuple[int, ...], target: dtypes.DType,
            requires_grad: bool) -> Tensor:
    tensor = Tensor._wrap(values.astype(target.np, copy=False).reshape(shape))
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def _count(shape: tuple[int, ...], target: dtypes.DType) -> int:
    budget.check_shape(shape, target.itemsize)
    return int(np.prod(shape, dtype=np.int64))


def rand(*size: Any, generator: Any = None, dtype: Any = None, requires_grad: bool = False,
         device: Any = None, **_layout: Any) -> Tensor:
    devices.check(device)
    shape, target = _shape(size), _floating(dtype, "check_uniform_bounds")
    count = _count(shape, target)
    values = sampling.uniform(pick(generator), count, 0.0, 1.0, target.np)
    return _tensor(values, shape, target, requires_grad)


def randn(*size: Any, generator: Any = None, dtype: Any = None, requires_grad: bool = False,
          device: Any = None, **_layout: Any) -> Tensor:
    devices.check(device)
    shape, target = _shape(size), _floating(dtype, "normal_kernel_cpu")
    count = _count(shape, target)
    values = sampling.normal(pick(generator), count, 0.0, 1.0, target.np)
    return _tensor(values, shape, target, requires_grad)


def randint(*args: Any, size: Any = None, generator: Any = None, dtype: Any = None,
            requires_grad: bool = False, device: Any = None, low: Any = None,
            high: Any = None) -> Tensor:
    devices.check(device)
    positional = list(args)
    if size is None and positional and isinstance(positional[-1], (tuple, list)):
        size = positional.pop()
    if low is not None:
        positional.insert(0, low)
    if high is not None:
        positional.append(high)
    if len(positional) == 1:
        low_value, high_value = 0, int(positional[0])
    elif len(positional) == 2:
        low_value, high_value = int(positional[0]), int(positional[1])
    else:
        raise TypeError("randint() received an invalid combination of arguments")
    if size is None:
        raise TypeError("randint() missing 1 required positional arguments: \"size\"")
    shape = _shape((size,))
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.int64
    return _random_tensor(pick(generator), shape, target, low_value, high_value, requires_grad)


def _random_tensor(generator: Generator, shape: tuple[int, ...], target: dtypes.DType,
                   low: int, high: int, requires_grad: bool = False) -> Tensor:
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    count = _count(shape, target)
    values = sampling.random_from_to(generator, count, low, high, target.np)
    return _tensor(values, shape, target, requires_grad)


def randperm(n: Any, *, generator: Any = None, dtype: Any = None, requires_grad: bool = False,
             device: Any = None, **_layout: Any) -> Tensor:
    devices.check(device)
    count = int(n)
    if count < 0:
        raise RuntimeError(f"n must be non-negative, got{count}")
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.int64
    budget.check_shape((count,), 8)
    values = sampling.randperm(pick(generator), count)
    return _tensor(values, (count,), target, requires_grad)


def _like(t: Tensor, dtype: Any) -> tuple[tuple[int, ...], Any]:
    return t.shape_tuple, dtype if dtype is not None else t.dtype


def rand_like(t: Tensor, *, dtype: Any = None, requires_grad: bool = False, device: Any = None,
              generator: Any = None, **_layout: Any) -> Tensor:
    devices.check(device)
    shape, target = _like(t, dtype)
    return rand(shape, dtype=target, requires_grad=requires_grad, generator=generator)


def randn_like(t: Tensor, *, dtype: Any = None, requires_grad: bool = False,
               device: Any = None, generator: Any = None, **_layout: Any) -> Tensor:
    devices.check(device)
    shape, target = _like(t, dtype)
    return randn(shape, dtype=target, requires_grad=requires_grad, generator=generator)


def randint_like(t: Tensor, low: Any, high: Any = None, *, dtype: Any = None,
                 requires_grad: bool = False, device: Any = None, generator: Any = None,
                 **_layout: Any) -> Tensor:
    devices.check(device)
    if high is None:
        low, high = 0, low
    shape, target = _like(t, dtype)
    return _random_tensor(pick(generator), shape, dtypes.resolve(target), int(low), int(high),
                          requires_grad)


def uniform_values(tensor: Tensor, low: float, high: float, generator: Any = None
                   ) -> np.ndarray:
    """What `tensor.uniform_(low, high)` writes (engine/tensor.py's in-place method)."""
    return sampling.uniform(pick(generator), tensor.numel(), float(low), float(high),
                            tensor.array.dtype).reshape(tensor.shape_tuple)


def normal_values(tensor: Tensor, mean: float, std: float, generator: Any = None
                  ) -> np.ndarray:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    return sampling.normal(pick(generator), tensor.numel(), float(mean), float(std),
                           tensor.array.dtype).reshape(tensor.shape_tuple)


def bernoulli_mask(shape: tuple[int, ...], p: float, generator: Any = None) -> np.ndarray:
    """bernoulli_(p) with a scalar p (dropout's mask): booleans, in memory order."""
    count = int(np.prod(shape, dtype=np.int64))
    return sampling.bernoulli_scalar(pick(generator), count, float(p)).reshape(shape)
