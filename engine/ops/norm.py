"""The normalizations, each one node as PyTorch's native kernels: layer_norm
(NativeLayerNormBackward0), group_norm (NativeGroupNormBackward0), batch_norm
(NativeBatchNormBackward0); and embedding (EmbeddingBackward0)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import creation, dtypes, grad_mode
from engine.autograd import Function
from engine.float_math import fma
from engine.ops import batch_norm_cpu, group_norm_cpu, layer_norm_cpu
from engine.ops.moments import rowwise_moments
from engine.ops.pointwise import Rsqrt
from engine.ops.reduce import MeanDim, SumDim, reduced_dims, vector_norm
from engine.ops.selection import IndexAdd
from engine.ops.shape import reshape
from engine.tensor import Tensor, normalize_dim


class NativeLayerNorm(Function):
    """(x - mean) / sqrt(var + eps) * weight + bias over the last `count` dims (biased var):
    ATen's CPU kernels, forward and backward (engine/ops/layer_norm_cpu.py).

    With create_graph the backward's values are still the kernel's, and its derivative that of
    the same gradients written with tensor ops (recomputing mean and rstd from x)."""

    grad_fn_name = "NativeLayerNormBackward0"
    saves = (0, 1)

    def forward(self, x: np.ndarray, weight: Any, bias: Any, count: int = 1,
                eps: float = 1e-5) -> np.ndarray:
        self.axes, self.eps = tuple(range(x.ndim - count, x.ndim)), eps
        if x.dtype not in (np.float32, np.float64):  # half: the float kernel, rounded back
            weight, bias = (None if a is None else a.astype(np.float32) for a in (weight, bias))
            return self.forward(x.astype(np.float32), weight, bias, count, eps).astype(x.dtype)
        size = int(np.prod(x.shape[x.ndim - count:]))
        self.rows = (int(np.prod(x.shape[:x.ndim - count])), size)
        gamma, beta = (None if a is None else np.asarray(a, x.dtype).reshape(size)
                       for a in (weight, bias))
        out, self.mean, self.rstd = layer_norm_cpu.forward(
            np.ascontiguousarray(x).reshape(self.rows), gamma, beta, eps)
        return out.reshape(x.shape)

    def backward(self, grad, inputs, output):
        x, weight = inputs[0], inputs[1]
        exact = None
        if hasattr(self, "rstd") and x.array.dtype in (np.float32, np.float64):  # ATen's kernel
            arrays = layer_norm_cpu.backward(
                grad.array.reshape(self.rows), x.array.reshape(self.rows), self.mean, self.rstd,
                None if weight is None else weight.array.reshape(-1), self.needs)
            exact = [a.reshape(meta[0]) if a is not None and need else None
                     for a, meta, need in zip(arrays, self.input_meta, self.needs, strict=True)]
            if not grad_mode.is_grad_enabled():
                return tuple(None if a is None else Tensor._wrap(a) for a in exact)
        formula = self._formula_backward(grad, x, weight)
        return formula if exact is None else NativeLayerNormBackward.wrap(formula, exact)

    def _formula_backward(self, grad: Tensor, x: Tensor, weight: Tensor | None) -> Any:
        axes = reduced_dims(list(self.axes), x.ndim)
        mean = MeanDim.apply(x, dims=axes, keepdim=True)
        centered = x - mean
        var = MeanDim.apply(centered * centered, dims=axes, keepdim=True)
        rstd = Rsqrt.apply(var + self.eps)
        xhat = centered * rstd
        lead = list(range(x.ndim - len(axes)))
        grad_x = grad_w = grad_b = None
        if self.needs[0]:
            dxhat = grad * weight if weight is not None else grad
            grad_x = rstd * (dxhat - MeanDim.apply(dxhat, dims=axes, keepdim=True)
                             - xhat * MeanDim.apply(dxhat * xhat, dims=axes, keepdim=True))
        if self.needs[1]:
            grad_w = SumDim.apply(grad * xhat, dims=tuple(lead)) if lead else grad * xhat
        if self.needs[2]:
            grad_b = SumDim.apply(grad, dims=tuple(lead)) if lead else grad
        return grad_x, grad_w, grad_b


class NativeLayerNormBackward(Function):
    """native_layer_norm_backward under create_graph: the kernel's gradients as values, the
    formula's gradients (same function, other roundings) as the graph to differentiate, so
    the derivative passes straight through to them."""

    grad_fn_name = "NativeLayerNormBackwardBackward0"
    multi_output = True

    def forward(self, *formula: np.ndarray, exact: tuple[np.ndarray, ...] = ()) -> Any:
        return exact

    def backward(self, grads, inputs, output):
        return tuple(grads)

    @classmethod
    def wrap(cls, formula: Any, exact: list[Any]) -> tuple[Tensor | None, ...]:
        present = [i for i, a in enumerate(formula) if a is not None]
        values = cls.apply(*(formula[i] for i in present), exact=tuple(exact[i] for i in present))
        result: list[Tensor | None] = [None] * len(formula)
        for i, value in zip(present, values, strict=True):
            result[i] = value
        return tuple(result)


def layer_norm(x: Tensor, normalized_shape: Any, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(x.shape_tuple[x.ndim - len(shape):]) != shape or len(shape) > x.ndim:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in shape)}], but got input of size"
            f"{list(x.shape_tuple)}")
    return NativeLayerNorm.apply(x, weight, bias, count=len(shape), eps=eps)


class NativeGroupNorm(Function):
    """Each group of channels (of each sample) normalized by its own mean and biased variance,
    then scaled and shifted per channel: ATen's CPU kernel, moments by `rowwise_moments`, then
    y = x * scale + shift with scale = rstd * weight and shift = bias - scale * mean, each one
    fused multiply-add ((x - mean) * rstd without weight and bias).

    The backward is ATen's kernel (engine/ops/group_norm_cpu.py); with create_graph it
    recomputes the statistics with ops (as NativeLayerNorm does), so it is differentiable
    again."""

    grad_fn_name = "NativeGroupNormBackward0"
    saves = (0, 1)

    def forward(self, x: np.ndarray, weight: Any, bias: Any, groups: int = 1,
                eps: float = 1e-5) -> np.ndarray:
        self.groups, self.eps = groups, eps
        if x.dtype not in (np.float32, np.float64):  # half: the float kernel, rounded back
            weight, bias = (None if a is None else a.astype(np.float32) for a in (weight, bias))
            return self.forward(x.astype(np.float32), weight, bias, groups, eps).astype(x.dtype)
        batch, channels = x.shape[:2]
        rows = np.ascontiguousarray(x).reshape(batch * groups, -1)
        if rows.size == 0:
            return np.empty_like(x)
        mean, var = rowwise_moments(rows)
        rstd = (1 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(x.dtype)
        self.mean, self.rstd = mean, rstd
        if weight is None and bias is None:
            return ((rows - mean[:, None]) * rstd[:, None]).reshape(x.shape)
        planes = rows.reshape(batch, channels, -1)
        per_channel = (batch, groups, channels // groups)
        scale = np.broadcast_to(rstd.reshape(batch, groups, 1), per_channel)
        if weight is not None:
            scale = scale * weight.reshape(1, groups, -1)
        shift = np.zeros((), x.dtype) if bias is None else bias.reshape(1, groups, -1)
        shift = fma(-scale, mean.reshape(batch, groups, 1), shift, x.dtype)
        out = fma(planes, scale.reshape(batch, channels, 1), shift.reshape(batch, channels, 1),
                  x.dtype)
        return out.reshape(x.shape)

    def backward(self, grad, inputs, output):
        x, weight = inputs[0], inputs[1]
        if self.needs[2] and self.input_meta[1] is None:  # PyTorch 2.13 fails so (a bias
            raise RuntimeError("tensor does not have a device")  # without a weight)
        if (not grad_mode.is_grad_enabled() and hasattr(self, "rstd")
                and x.array.dtype in (np.float32, np.float64)):  # ATen's kernel
            arrays = group_norm_cpu.backward(
                grad.array, x.array, self.mean, self.rstd,
                None if weight is None else weight.array, self.groups, self.needs)
            return tuple(None if a is None else Tensor._wrap(a) for a in arrays)
        batch, channels = x.shape_tuple[:2]
        groups = reshape(x, (batch, self.groups, -1))
        mean = MeanDim.apply(groups, dims=(2,), keepdim=True)
        centered = groups - mean
        rstd = Rsqrt.apply(MeanDim.apply(centered * centered, dims=(2,), keepdim=True)
                           + self.eps)
        xhat = reshape(centered * rstd, (batch, channels, -1))
        grads = reshape(grad, (batch, channels, -1))
        grad_x = grad_w = grad_b = None
        if self.needs[0]:
            scaled = grads * reshape(weight, (1, -1, 1)) if weight is not None else grads
            scaled = reshape(scaled, (batch, self.groups, -1))
            flat_xhat = reshape(xhat, (batch, self.groups, -1))
            inner = (scaled - MeanDim.apply(scaled, dims=(2,), keepdim=True)
                     - flat_xhat * MeanDim.apply(scaled * flat_xhat, dims=(2,), keepdim=True))
            grad_x = reshape(rstd * inner, x.shape_tuple)
        if self.needs[1]:
            grad_w = SumDim.apply(grads * xhat, dims=(0, 2))
        if self.needs[2]:
            grad_b = SumDim.apply(grads, dims=(0, 2))
        return grad_x, grad_w, grad_b


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """F.group_norm: its own checks of the rank and the count per group, then
    torch.group_norm."""
    shape = list(input.shape_tuple)
    if input.ndim < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received "
                           f"{input.ndim}")
    count = shape[0] * shape[1] // num_groups
    for size in shape[2:]:
        count *= size
    if count == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size "
                         f"{[shape[0] * shape[1] // num_groups, num_groups] + shape[2:]}")
    return native_group_norm(input, num_groups, weight, bias, eps)


def native_group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,  # noqa: A002
                      bias: Tensor | None = None, eps: float = 1e-5,
                      cudnn_enabled: bool = True) -> Tensor:
    """ATen's group_norm: its checks of the groups, the weight and the bias, in its order and
    words (torch.group_norm itself is not offered, as torch.layer_norm is not)."""
    shape = list(input.shape_tuple)
    normalize_dim(1, input.ndim)  # the channels
    channels = shape[1]
    if num_groups <= 0:
        raise RuntimeError(f"Expected num groups to be greater than 0, got {num_groups}")
    if channels % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, "
                           f"but got input of shape {shape} and num_groups={num_groups}")
    for name, tensor in (("weight", weight), ("bias", bias)):
        if tensor is not None and (tensor.ndim != 1 or tensor.shape_tuple[0] != channels):
            shown = weight.shape_tuple if weight is not None else (0,)  # ATen prints weight's
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in "
                f"input, but got {name} of shape {list(shown)} and input of shape {shape}")
    kind = dtypes.scalar_name(input.dtype)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"GroupNormKernelImpl" not implemented for \'{kind}\'')
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"mixed dtype (CPU): expect parameter to have scalar type of {kind}")
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {kind} but found "
                           f"{dtypes.scalar_name(bias.dtype)}")
    return NativeGroupNorm.apply(input, weight, bias, groups=num_groups, eps=eps)


class Embedding(Function):
    """weight[indices]: rows of the table; the gradient adds each row's gradients back."""

    grad_fn_name = "EmbeddingBackward0"

    def forward(self, weight: np.ndarray, indices: np.ndarray,
                padding_idx: int | None = None) -> np.ndarray:
        self.indices, self.padding_idx = indices, padding_idx
        self.rows = weight.shape[0]
        return weight[indices]

    def backward(self, grad, inputs, output):
        flat = self.indices.reshape(-1).astype(np.int64)
        rows = reshape(grad, (-1, grad.shape_tuple[-1]))
        if self.padding_idx is not None:
            keep = Tensor._wrap((self.indices.reshape(-1) != self.padding_idx)[:, None])
            rows = rows * keep.to(rows.dtype)
        table = creation.zeros(self.rows, grad.shape_tuple[-1], dtype=grad.dtype)
        return (IndexAdd.apply(table, rows, dim=0, index=flat), None)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,  # noqa: A002
              max_norm: Any = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding with scale_grad_by_freq or sparse is not "
                                  "supported by agraph")
    if input.dtype.is_floating_point or input.dtype.name == "bool":
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{_legacy_name(input.array.dtype)} instead (while "
            "checking arguments for embedding)")
    indices = input.array
    rows = weight.shape_tuple[0]
    if indices.size and (indices.min() < 0 or indices.max() >= rows):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += rows
    if max_norm is not None:
        _renorm_rows(weight, indices, float(max_norm), float(norm_type))
    return Embedding.apply(weight, indices=indices, padding_idx=padding_idx)


def _renorm_rows(weight: Tensor, indices: np.ndarray, max_norm: float, norm_type: float) -> None:
    """ATen's embedding_renorm_: each distinct row looked up whose norm is over max_norm is
    scaled in place (outside the graph) by max_norm / (norm + 1e-7)."""
    table = weight.array
    for row in np.unique(indices):
        norm = float(vector_norm(table[row], norm_type))
        if norm > max_norm:
            table[row] = table[row] * np.asarray(max_norm / (norm + 1e-7), dtype=table.dtype)
    weight.bump_version()


def _legacy_name(dtype: np.dtype) -> str:
    return {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
            "bool": "BoolTensor"}.get(dtype.name, "Tensor")


class NativeBatchNorm(Function):
    """x * alpha + beta per channel (dim 1), alpha = invstd * weight, beta = bias - mean * alpha,
    one fused multiply-add per element as PyTorch's CPU kernel; mean and invstd come from the
    batch (training) or the running statistics.

    The backward recomputes the batch statistics with ops (as NativeLayerNorm does), so it is
    differentiable again."""

    grad_fn_name = "NativeBatchNormBackward0"
    saves = (0, 1)

    def forward(self, x: np.ndarray, weight: Any, bias: Any, mean: Any = None, invstd: Any = None,
                training: bool = True, eps: float = 1e-5) -> np.ndarray:
        self.training, self.mean, self.invstd, self.eps = training, mean, invstd, eps
        return batch_norm_cpu.transform(x, mean, invstd, weight, bias)

    def backward(self, grad, inputs, output):
        x, weight = inputs[0], inputs[1]
        if x.ndim == 2 and not grad_mode.is_grad_enabled():  # ATen's fused kernel
            arrays = batch_norm_cpu.backward_2d(
                grad.array, x.array, None if weight is None else weight.array, self.mean,
                self.invstd, self.training)
            return tuple(Tensor._wrap(a) if needed else None
                         for a, needed in zip(arrays, self.needs, strict=True))
        axes = (0, *range(2, x.ndim))
        shape = (1, -1) + (1,) * (x.ndim - 2)
        if self.training:
            mean = MeanDim.apply(x, dims=axes, keepdim=True)
            centered = x - mean
            rstd = Rsqrt.apply(MeanDim.apply(centered * centered, dims=axes, keepdim=True)
                               + self.eps)
        else:
            rstd = Tensor._wrap(self.invstd.reshape(shape))
            centered = x - Tensor._wrap(self.mean.reshape(shape))
        xhat = centered * rstd
        grad_x = grad_w = grad_b = None
        if self.needs[0]:
            scaled = grad * reshape(weight, shape) if weight is not None else grad
            if self.training:
                grad_x = rstd * (scaled - MeanDim.apply(scaled, dims=axes, keepdim=True)
                                 - xhat * MeanDim.apply(scaled * xhat, dims=axes, keepdim=True))
            else:
                grad_x = scaled * rstd
        if self.needs[1]:
            grad_w = SumDim.apply(grad * xhat, dims=axes)
        if self.needs[2]:
            grad_b = SumDim.apply(grad, dims=axes)
        return grad_x, grad_w, grad_b


def batch_norm(x: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """F.batch_norm: batch statistics when training (the running ones updated in place, the
    variance unbiased), else the running statistics."""
    if x.ndim < 2:
        raise ValueError(f"expected 2D or 3D input (got {x.ndim}D input)")
    channels = x.shape_tuple[1]
    count = x.array.size // channels if channels else 0
    if training and count <= 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size "
                         f"torch.Size({list(x.shape_tuple)})")
    array = x.array
    if training:
        mean, var_sum = batch_norm_cpu.statistics(array)
        invstd = batch_norm_cpu.inverse_std(var_sum, count, eps)
        batch_norm_cpu.update_running(running_mean, running_var, mean, var_sum, count, momentum)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("running_mean and running_var must be defined in evaluation "
                               "mode")
        mean = running_mean.array.astype(array.dtype)
        invstd = (1 / np.sqrt(running_var.array + array.dtype.type(eps))).astype(array.dtype)
    return NativeBatchNorm.apply(x, weight, bias, mean=mean, invstd=invstd, training=training,
                                 eps=eps)
