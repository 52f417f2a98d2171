"""BatchNorm1d and BatchNorm2d: weight ones, bias zeros, the running statistics as buffers
(running_mean, running_var, num_batches_tracked), updated in training mode as PyTorch does.
GroupNorm: per-channel weight ones and bias zeros over group_norm (engine/ops/norm.py).
RMSNorm: ATen's composite `rms_norm`, op for op."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import budget, dtypes, grad_mode
from engine.nn.module import Module, Parameter, affine_parameters
from engine.ops.norm import batch_norm, group_norm
from engine.tensor import Tensor


class _BatchNorm(Module):
    ranks: tuple[int, ...] = (2, 3)
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {
        "weight", "bias", "running_mean", "running_var", "num_batches_tracked", "num_features",
        "eps", "momentum", "affine", "track_running_stats", "reset_parameters",
        "reset_running_stats"}
    SETTABLE_ATTRS = Module.SETTABLE_ATTRS | frozenset({"weight", "bias", "momentum", "eps"})

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None, bias: bool = True) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        budget.check_shape((num_features,), np_dtype.itemsize)
        affine_parameters(self, num_features, np_dtype, affine, bias)
        if track_running_stats:
            self.register_buffer("running_mean", Tensor._wrap(np.zeros(num_features, np_dtype)))
            self.register_buffer("running_var", Tensor._wrap(np.ones(num_features, np_dtype)))
            self.register_buffer("num_batches_tracked", Tensor._wrap(np.array(0, np.int64)))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.array[...] = 0
            self.running_var.array[...] = 1
            self.num_batches_tracked.array[...] = 0

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        if self.affine:
            with grad_mode.no_grad():
                self.weight.fill_(1)
                if self.bias is not None:
                    self.bias.zero_()

    def _check_input(self, input: Tensor) -> None:  # noqa: A002
        if input.ndim not in self.ranks:
            wanted = " or ".join(f"{r}D" for r in self.ranks)
            raise ValueError(f"expected {wanted} input (got {input.ndim}D input)")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        self._check_input(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.array[...] += 1
            self.num_batches_tracked.bump_version()
            if self.momentum is None:  # a cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked.array)
        use_batch = self.training or not self.track_running_stats
        tracked = not self.training or self.track_running_stats
        return batch_norm(input, self.running_mean if tracked else None,
                          self.running_var if tracked else None, self.weight, self.bias,
                          use_batch, factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    ranks = (4,)


class GroupNorm(Module):
    """Normalizes groups of channels; weight ones and bias zeros per channel (affine)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "bias", "num_groups", "num_channels", "eps",
                                          "affine", "reset_parameters"}
    SETTABLE_ATTRS = Module.SETTABLE_ATTRS | frozenset({"weight", "bias", "eps"})

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups, self.num_channels = num_groups, num_channels
        self.eps, self.affine = eps, affine
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        budget.check_shape((num_channels,), np_dtype.itemsize)
        affine_parameters(self, num_channels, np_dtype, affine, bias)

    def reset_parameters(self) -> None:
        if self.affine:
            with grad_mode.no_grad():
                self.weight.fill_(1)
                if self.bias is not None:
                    self.bias.zero_()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


def rms_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,  # noqa: A002
             eps: float | None = None) -> Tensor:
    """`input * rsqrt(mean(input ** 2) + eps) * weight` over the last dims, the ops ATen's
    rms_norm runs (eps: the dtype's epsilon by default)."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if len(shape) > input.ndim:
        raise ValueError(f"Input tensor must have at least {len(shape)} dimensions, but got "
                         f"{input.ndim}")
    if tuple(input.shape_tuple[input.ndim - len(shape):]) != shape:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*{', '.join(str(s) for s in shape)}], but got input of size"
            f"{list(input.shape_tuple)}")
    epsilon = dtypes.finfo(input.dtype).eps if eps is None else eps
    dims = tuple(range(input.ndim - len(shape), input.ndim))
    scale = input.pow(2).mean(dims, keepdim=True).add_(epsilon).rsqrt()
    result = input.mul(scale)
    return result if weight is None else result.mul(weight)


class RMSNorm(Module):
    """Root-mean-square normalization over the last dims; weight ones (elementwise_affine)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "normalized_shape", "eps",
                                          "elementwise_affine", "reset_parameters"}
    SETTABLE_ATTRS = Module.SETTABLE_ATTRS | frozenset({"weight", "eps"})

    def __init__(self, normalized_shape: Any, eps: float | None = None,
                 elementwise_affine: bool = True, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        shape = ((normalized_shape,) if isinstance(normalized_shape, int)
                 else tuple(int(s) for s in normalized_shape))
        self.normalized_shape, self.eps = shape, eps
        self.elementwise_affine = elementwise_affine
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        budget.check_shape(shape, np_dtype.itemsize)
        self.register_parameter("weight", Parameter(Tensor._wrap(np.ones(shape, np_dtype)))
                                if elementwise_affine else None)

    def reset_parameters(self) -> None:
        if self.weight is not None:
            with grad_mode.no_grad():
                self.weight.fill_(1)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")
