"""`torch.nn.functional` beyond the losses (engine/nn/loss.py): linear, the activations, softmax
and log_softmax, normalize, cosine_similarity, dropout, one_hot and pad."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from engine import budget, dtypes, random
from engine import functional as F
from engine.operands import expect_tensor
from engine.ops import activation
from engine.tensor import Tensor


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """`F.linear` with the graph torch's kernel builds for each input rank.

    Without a bias it is matmul(x, w.t()). With one: addmm(bias, x, w.t()) for a 2-D input;
    other ranks are viewed as 2-D, go through addmm and are viewed back (ViewBackward0).
    """
    if input.ndim == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are 0D "
                           f"and {weight.ndim}D")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{dtypes.scalar_name(input.dtype)} and "
                           f"{dtypes.scalar_name(weight.dtype)}")
    weight_t = F.t(weight)
    if bias is None:
        return F.matmul(input, weight_t)
    if input.ndim == 2:
        return F.addmm(bias, input, weight_t)
    rows = F.reshape(input, (-1, input.shape_tuple[-1]))
    return F.reshape(F.addmm(bias, rows, weight_t),
                     (*input.shape_tuple[:-1], weight.shape_tuple[0]))


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    return input.relu_() if inplace else F.relu(input)


def _implicit_dim(name: str, ndim: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def _softmax_like(name: str, input: Tensor, dim: int | None, dtype: Any) -> Tensor:  # noqa: A002
    """nn.functional's softmax and log_softmax: the legacy implicit dim, the dtype, then the
    torch function of that name."""
    if dim is None:
        dim = _implicit_dim(name, input.ndim)
    if dtype is not None:
        input = input.to(dtype)
    return getattr(F, name)(input, dim)


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
            dtype: Any = None) -> Tensor:
    return _softmax_like("softmax", input, dim, dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
                dtype: Any = None) -> Tensor:
    return _softmax_like("log_softmax", input, dim, dtype)


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
            dtype: Any = None) -> Tensor:
    """softmax(-input): PyTorch negates, then takes the softmax (SoftmaxBackward0)."""
    if dim is None:
        dim = _implicit_dim("softmin", input.ndim)
    negated = F.neg(input)
    return F.softmax(negated if dtype is None else negated.to(dtype), dim)


SELU_ALPHA = 1.6732632423543772848170429916717


SELU_SCALE = 1.0507009873554804934193349852946


def _maybe_inplace(input: Tensor, result: Tensor, inplace: bool) -> Tensor:  # noqa: A002
    return input.assign_inplace(result) if inplace else result


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    input = expect_tensor(input, "gelu")
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return activation.Gelu.apply(input, approximate=approximate)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    result = activation.Elu.apply(expect_tensor(input, "elu"), alpha=alpha)
    return _maybe_inplace(input, result, inplace)


def selu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    result = activation.Elu.apply(expect_tensor(input, "selu"), alpha=SELU_ALPHA, scale=SELU_SCALE)
    return _maybe_inplace(input, result, inplace)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    result = activation.Celu.apply(expect_tensor(input, "celu"), alpha=alpha,
                                   input_scale=1.0 / alpha)
    return _maybe_inplace(input, result, inplace)


def leaky_relu(input: Tensor, negative_slope: float = 0.01,  # noqa: A002
               inplace: bool = False) -> Tensor:
    result = activation.LeakyRelu.apply(expect_tensor(input, "leaky_relu"),
                                        negative_slope=negative_slope)
    return _maybe_inplace(input, result, inplace)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    return activation.Softplus.apply(expect_tensor(input, "softplus"), beta=beta,
                                     threshold=threshold)


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    result = activation.Silu.apply(expect_tensor(input, "silu"))
    return _maybe_inplace(input, result, inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    result = activation.Hardswish.apply(expect_tensor(input, "hardswish"))
    return _maybe_inplace(input, result, inplace)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    result = activation.Hardsigmoid.apply(expect_tensor(input, "hardsigmoid"))
    return _maybe_inplace(input, result, inplace)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    input = expect_tensor(input, "softshrink")
    if lambd < 0:
        finfo = np.finfo(input.array.dtype)
        raise RuntimeError(f"lambda must be in range [0, {float(finfo.max):g}] for input dtype "
                           f"{dtypes.scalar_name(input.dtype)}, but found {lambd:g}")
    return activation.Shrink.apply(input, lambd=lambd)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    return activation.Shrink.apply(expect_tensor(input, "hardshrink"), lambd=lambd, soft=False)


def mish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    result = activation.Mish.apply(expect_tensor(input, "mish"))
    return _maybe_inplace(input, result, inplace)


def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    """ATen's prelu: a weight of one value per channel (dim 1) viewed to broadcast, then the
    kernel."""
    input = expect_tensor(input, "prelu")
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape_tuple[1] if input.ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError("Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{channels}.")
    if weight.ndim > 1:
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    if input.ndim != weight.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = weight.numel()
        weight = F.reshape(weight, tuple(shape))
    return activation.PreluKernel.apply(input, weight)


def threshold(input: Tensor, threshold: float, value: float,  # noqa: A002
              inplace: bool = False) -> Tensor:
    result = activation.Threshold.apply(expect_tensor(input, "threshold"), threshold=threshold,
                                        value=value)
    return _maybe_inplace(input, result, inplace)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,  # noqa: A002
             inplace: bool = False) -> Tensor:
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    result = activation.Hardtanh.apply(expect_tensor(input, "hardtanh"), min_val=min_val,
                                       max_val=max_val)
    return _maybe_inplace(input, result, inplace)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    return hardtanh(input, 0.0, 6.0, inplace)


def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    return activation.LogSigmoid.apply(expect_tensor(input, "log_sigmoid"))


def softsign(input: Tensor) -> Tensor:  # noqa: A002
    """torch composes it: input / (input.abs() + 1)."""
    return F.div(input, F.add(F.abs(input), 1))


def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    return F.sub(input, F.tanh(input))


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,  # noqa: A002
              out: Any = None) -> Tensor:
    """torch: input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)."""
    denom = F.clamp_min(F.norm(input, p, dim, keepdim=True), eps)
    return F.div(input, F.expand_as(denom, input))


def dropout(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
            inplace: bool = False) -> Tensor:
    return _dropout(input, p, training, inplace, "dropout", features=False)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    if not isinstance(tensor, Tensor) or tensor.array.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    values = tensor.array
    if values.size and values.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not values.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(values.max()) + 1
    elif values.size and values.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    shape = values.shape + (num_classes,)
    budget.check_shape(shape, 8)
    out = np.zeros(shape, dtype=np.int64)
    np.put_along_axis(out, values[..., None], 1, axis=-1)
    return Tensor._wrap(out)


def pad(input: Tensor, pad: Any, mode: str = "constant", value: Any = None) -> Tensor:  # noqa: A002
    input = expect_tensor(input, "pad")
    if mode != "constant":
        raise NotImplementedError(f"F.pad with mode='{mode}' is not supported by agraph "
                                  "(only mode='constant')")
    widths = tuple(int(n) for n in pad)
    if len(widths) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(widths) // 2 > input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(widths)} and input "
                           f"of dimension {input.ndim}")
    shape = list(input.shape_tuple)
    for i in range(len(widths) // 2):
        axis = input.ndim - 1 - i
        shape[axis] += widths[2 * i] + widths[2 * i + 1]
        if shape[axis] < 0:
            raise RuntimeError(f"The input size {input.shape_tuple[axis]}, plus negative "
                               f"padding {widths[2 * i]} and {widths[2 * i + 1]} resulted in a "
                               f"negative output size, which is invalid. Check dimension "
                               f"{axis} of your input.")
    budget.check_shape(shape, input.array.itemsize)
    return activation.ConstantPad.apply(input, pad=widths, value=0.0 if value is None else value)


def feature_dropout(input: Tensor, p: float, training: bool, inplace: bool) -> Tensor:  # noqa: A002
    """Whole channels dropped: one draw per (sample, channel), the noise broadcast over the
    rest (PyTorch's feature_dropout: input * noise)."""
    return _dropout(input, p, training, inplace, "feature_dropout", features=True)


def _dropout(input: Tensor, p: float, training: bool, inplace: bool,  # noqa: A002
             name: str, features: bool, alpha: bool = False) -> Tensor:
    """ATen's _dropout_impl: input * empty_like(input).bernoulli_(1 - p).div_(1 - p); with
    FEATURES the noise has one value per (sample, channel). ALPHA (SELU's dropout) keeps the
    mean and variance instead: noise scaled by a, then b added in place, each scalar rounded
    to the tensor's dtype first as ATen's scalar ops round it."""
    _check_probability(p)
    input = expect_tensor(input, name)
    if not training or p == 0 or input.numel() == 0:
        return input
    kind = input.array.dtype
    offset = None
    if p == 1:
        noise = np.zeros((), dtype=kind)
    else:
        shape = input.shape_tuple
        if features:
            shape = shape[:2] + (1,) * (input.ndim - 2)
        keep = random.bernoulli_mask(shape, 1 - p)
        if not features:  # empty_like(input) keeps a transposed input's strides: memory order
            keep = random.in_memory_order(input, keep)
        keep = keep.astype(kind)
        if alpha:
            a = 1.0 / math.sqrt((SELU_ALPHA_DROPOUT ** 2 * p + 1) * (1 - p))
            offset = (keep - kind.type(1)) * kind.type(SELU_ALPHA_DROPOUT * a) + kind.type(
                SELU_ALPHA_DROPOUT * a * p)
            noise = keep * kind.type(a)
        else:
            noise = keep / np.asarray(1 - p, dtype=kind)
    result = F.mul(input, Tensor._wrap(noise))
    if offset is not None:
        result = result.add_(Tensor._wrap(offset))
    return _maybe_inplace(input, result, inplace)


SELU_ALPHA_DROPOUT = 1.7580993408473766  # ATen's alpha for alpha_dropout (SELU's alpha * scale)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,  # noqa: A002
                  inplace: bool = False) -> Tensor:
    return _dropout(input, p, training, inplace, "alpha_dropout", features=False, alpha=True)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,  # noqa: A002
                          inplace: bool = False) -> Tensor:
    return _dropout(input, p, training, inplace, "feature_alpha_dropout", features=True,
                    alpha=True)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    """Channels of (N, C, L) or (C, L) inputs dropped whole (an unbatched input gets a batch
    dimension for the draw, as PyTorch's dropout1d)."""
    _check_probability(p)
    rank = expect_tensor(input, "dropout1d").ndim
    if rank not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {rank}D input. "
                           "Note that dropout1d exists to provide channel-wise dropout on inputs "
                           "with 1 spatial dimension, a channel dimension, and an optional batch "
                           "dimension (i.e. 2D or 3D inputs).")
    return _unbatched_feature_dropout(input, p, training, inplace, rank == 3)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    _check_probability(p)
    rank = expect_tensor(input, "dropout3d").ndim
    if rank not in (4, 5):
        _warn_rank(3, rank)
    return _unbatched_feature_dropout(input, p, training, inplace, rank == 5)


def _warn_rank(spatial: int, rank: int) -> None:
    """PyTorch's deprecation warning of dropout2d/dropout3d for a rank other than theirs."""
    name = f"dropout{spatial}d"
    warnings.warn(f"{name}: Received a {rank}-D input to {name}, which is deprecated and will "
                  "result in an error in a future release. To retain the behavior and silence "
                  f"this warning, please use dropout instead. Note that {name} exists to "
                  f"provide channel-wise dropout on inputs with {spatial} spatial dimensions, a "
                  "channel dimension, and an optional batch dimension (i.e. "
                  f"{spatial + 1}D or {spatial + 2}D inputs).", UserWarning, stacklevel=3)


def _check_probability(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _unbatched_feature_dropout(input: Tensor, p: float, training: bool,  # noqa: A002
                               inplace: bool, batched: bool) -> Tensor:
    if batched:
        return feature_dropout(input, p, training, inplace)
    if inplace:
        return feature_dropout(input.unsqueeze_(0), p, training, True).squeeze_(0)
    return feature_dropout(input.unsqueeze(0), p, training, False).squeeze(0)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    """PyTorch's dropout2d: any rank goes to feature_dropout, with its warnings for the ranks
    other than 4."""
    rank = expect_tensor(input, "dropout2d").ndim
    if rank not in (3, 4):
        _warn_rank(2, rank)
    if rank == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
                      "1D dropout behavior is desired - input is interpreted as shape (N, C, L), "
                      "where C is the channel dim. This behavior will change in a future release "
                      "to interpret the input as one without a batch dimension, i.e. shape "
                      "(C, H, W). To maintain the 1D channel-wise dropout behavior, please switch "
                      "to using dropout1d instead.", UserWarning, stacklevel=2)
    return feature_dropout(input, p, training, inplace)
