"""`torch.nn.init`: the initialisation functions (`nn.init.kaiming_uniform_(w)`, ...), drawing from
engine/random.py."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from engine import grad_mode, random
from engine.ops import mkl
from engine.tensor import Tensor


def _fans(tensor: Tensor) -> tuple[int, int]:
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = int(np.prod(tensor.shape_tuple[2:], dtype=np.int64))
    return tensor.shape_tuple[1] * receptive, tensor.shape_tuple[0] * receptive


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def constant_(tensor: Tensor, val: Any) -> Tensor:
    with grad_mode.no_grad():
        return tensor.fill_(val)


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    with grad_mode.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None
            ) -> Tensor:
    with grad_mode.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float | None:
    """He et al.'s standard deviation, gain / sqrt(fan); None (with PyTorch's warning) for a
    tensor with no elements, which is left as it is."""
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _fans(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    if fan == 0:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
        return None
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    return tensor if std is None else normal_(tensor, 0.0, std, generator)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _fans(tensor)
    bound = math.sqrt(3.0) * (gain * math.sqrt(2.0 / float(fan_in + fan_out)))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def zeros_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 0)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1)


def eye_(tensor: Tensor) -> Tensor:
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with grad_mode.no_grad():
        return tensor.copy_(Tensor._wrap(np.eye(*tensor.shape_tuple, dtype=tensor.array.dtype)))


def orthogonal_(tensor: Tensor, gain: float = 1, generator: Any = None) -> Tensor:
    """PyTorch's: a (rows, numel / rows) matrix of normal draws (transposed when wide), its QR
    factorisation's Q (MKL's LAPACK, as torch.linalg.qr; numpy's without MKL) with the signs
    of R's diagonal, times gain."""
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape_tuple[0]
    cols = tensor.numel() // rows
    with grad_mode.no_grad():
        drawn = Tensor._wrap(np.empty((rows, cols), dtype=tensor.array.dtype))
        drawn.normal_(0, 1, generator=generator)
        flattened = drawn.array.T if rows < cols else drawn.array
        q, r = mkl.qr(flattened) or np.linalg.qr(flattened)
        q = q * np.sign(np.diagonal(r))
        if rows < cols:
            q = q.T
        tensor.copy_(Tensor._wrap(np.ascontiguousarray(q).reshape(tensor.shape_tuple)))
        return tensor.mul_(gain)


def reset_affine(weight: Tensor, bias: Tensor | None) -> None:
    """The default initialisation of Linear and the convolutions, in PyTorch's order of draws:
    kaiming_uniform_(weight, a=sqrt(5)), then bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in, _ = _fans(weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        uniform_(bias, -bound, bound)


def _deprecated(function: Any) -> Any:
    """The old name without the trailing underscore (`nn.init.xavier_normal`), which PyTorch
    keeps: a FutureWarning, then the function itself."""
    new_name = function.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
                      FutureWarning, stacklevel=2)
        return function(*args, **kwargs)

    deprecated_init.__name__ = old_name
    return staticmethod(deprecated_init)


class InitFunctions:
    """`nn.init`: its functions, reached by attribute (`nn.init.zeros_(w)`), and the deprecated
    names without the underscore."""

    PUBLIC_ATTRS = frozenset("""
        zeros_ ones_ constant_ uniform_ normal_ kaiming_uniform_ kaiming_normal_
        xavier_uniform_ xavier_normal_ calculate_gain trunc_normal_ eye_ orthogonal_
        constant uniform normal kaiming_uniform kaiming_normal xavier_uniform xavier_normal eye
        orthogonal
        """.split())

    zeros_ = staticmethod(zeros_)
    ones_ = staticmethod(ones_)
    constant_ = staticmethod(constant_)
    uniform_ = staticmethod(uniform_)
    normal_ = staticmethod(normal_)
    kaiming_uniform_ = staticmethod(kaiming_uniform_)
    kaiming_normal_ = staticmethod(kaiming_normal_)
    xavier_uniform_ = staticmethod(xavier_uniform_)
    xavier_normal_ = staticmethod(xavier_normal_)
    calculate_gain = staticmethod(calculate_gain)
    trunc_normal_ = staticmethod(random.trunc_normal_)
    eye_ = staticmethod(eye_)
    orthogonal_ = staticmethod(orthogonal_)
    constant, uniform, normal = (_deprecated(f) for f in (constant_, uniform_, normal_))
    kaiming_uniform, kaiming_normal = _deprecated(kaiming_uniform_), _deprecated(kaiming_normal_)
    xavier_uniform, xavier_normal = _deprecated(xavier_uniform_), _deprecated(xavier_normal_)
    eye, orthogonal = _deprecated(eye_), _deprecated(orthogonal_)

    def __repr__(self) -> str:
        return "<module 'torch.nn.init'>"


init = InitFunctions()
