"""Convolution and pooling as torch functions (`torch.conv2d`, `F.max_pool2d`, ...): PyTorch's
argument checks and messages, the unbatched forms (a batch of one, then SqueezeBackward1, as
PyTorch records them), `padding='same'`; the math and derivatives are in engine/ops/
(convolution.py, pooling.py)."""

from __future__ import annotations

import warnings
from typing import Any

from engine import dtypes
from engine.operands import expect_tensor
from engine.ops import pixel_shuffle as pixels
from engine.ops import pooling
from engine.ops.activation import ConstantPad
from engine.ops.convolution import Col2Im, Convolution, Im2Col, output_length
from engine.ops.reduce import MeanDim
from engine.ops.shape import squeeze, unsqueeze
from engine.registry import public
from engine.tensor import Tensor


def ntuple(value: Any, count: int) -> tuple[int, ...]:
    """`3` -> (3, 3); a sequence as it is (PyTorch's _pair, _single)."""
    if isinstance(value, (list, tuple)):
        return tuple(int(v) for v in value)
    return (int(value),) * count


def _sizes(value: Any, count: int, what: str) -> tuple[int, ...]:
    sizes = ntuple(value, count)
    if len(sizes) == 1 and count > 1:
        sizes = sizes * count
    if len(sizes) != count:
        raise RuntimeError(f"expected {what} to be a single integer value or a list of {count} "
                           f"values to match the convolution dimensions, but got "
                           f"{what}={list(sizes)}")
    return sizes


def _batched(input: Tensor, count: int, name: str) -> tuple[Tensor, bool]:  # noqa: A002
    """(input as a batch, whether it was one): PyTorch's unbatched convolution."""
    if input.ndim not in (count + 1, count + 2):
        raise RuntimeError(f"Expected {count + 1}D (unbatched) or {count + 2}D (batched) input to "
                           f"{name}, but got input of size: {list(input.shape_tuple)}")
    if input.ndim == count + 1:
        return unsqueeze(input, 0), False
    return input, True


def _check_types(input: Tensor, weight: Tensor, bias: Tensor | None) -> None:  # noqa: A002
    """PyTorch compares the bias's type first, then the weight's."""
    if bias is not None and bias.dtype is not input.dtype:
        raise RuntimeError(f"Input type ({_c_type(input)}) and bias type ({_c_type(bias)}) "
                           "should be the same")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"expected scalar type {dtypes.scalar_name(input.dtype)} but found "
                           f"{dtypes.scalar_name(weight.dtype)}")


def _c_type(tensor: Tensor) -> str:
    """The C type name PyTorch's messages use: float, double, long, ..."""
    return dtypes.scalar_name(tensor.dtype).lower()


def _same_pads(kernel: tuple[int, ...], dilation: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """padding='same': the total d * (k - 1) per dim, the odd one on the right."""
    totals = [d * (k - 1) for k, d in zip(kernel, dilation, strict=True)]
    return tuple((t // 2, t - t // 2) for t in totals)


def convolution(input: Tensor, weight: Tensor, bias: Tensor | None, stride: Any,  # noqa: A002
                padding: Any, dilation: Any, groups: int, count: int, name: str) -> Tensor:
    """conv1d/conv2d: checks in PyTorch's order, then one ConvolutionBackward0 node."""
    input, weight = expect_tensor(input, name), expect_tensor(weight, name)
    batch, batched = _batched(input, count, name)
    if weight.ndim != count + 2:
        raise RuntimeError(f"Expected {count + 2}-dimensional input for {count + 2}-dimensional "
                           f"weight {list(weight.shape_tuple)}, but got {weight.ndim}-dimensional "
                           f"input of size {list(batch.shape_tuple)} instead")
    stride = _sizes(stride, count, "stride")
    dilation = _sizes(dilation, count, "dilation")
    kernel = weight.shape_tuple[2:]
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same" and any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        pads = _same_pads(kernel, dilation) if padding == "same" else ((0, 0),) * count
    else:
        pads = tuple((p, p) for p in _sizes(padding, count, "padding"))
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for pair in pads for p in pair):
        raise RuntimeError("negative padding is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    _check_types(batch, weight, bias)
    shape = list(weight.shape_tuple)
    if weight.shape_tuple[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size {shape} instead")
    if batch.shape_tuple[1] != weight.shape_tuple[1] * groups:
        expected = weight.shape_tuple[1] * groups
        raise RuntimeError(f"Given groups={groups}, weight of size {shape}, expected "
                           f"input{list(batch.shape_tuple)} to have {expected} channels, but got "
                           f"{batch.shape_tuple[1]} channels instead")
    if bias is not None and (bias.ndim != 1 or bias.shape_tuple[0] != shape[0]):
        raise RuntimeError(f"Given weight of size {shape}, expected bias to be 1-dimensional "
                           f"with {shape[0]} elements, but got bias of size "
                           f"{list(bias.shape_tuple)} instead")
    padded = [n + a + b for n, (a, b) in zip(batch.shape_tuple[2:], pads, strict=True)]
    spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilation, strict=True)]
    if any(s > n for s, n in zip(spans, padded, strict=True)):
        raise RuntimeError(f"Calculated padded input size per channel: "
                           f"({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, spans))}). Kernel size can't be greater than "
                           "actual input size")
    if any(a != b for a, b in pads):  # PyTorch pads the odd one out first, then convolves
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require "
                      "a zero-padded copy of the input be created", UserWarning, stacklevel=3)
        widths: list[int] = []
        for a, b in reversed(pads):
            widths += [0, b - a]
        batch = ConstantPad.apply(batch, pad=tuple(widths), value=0.0)
        pads = tuple((a, a) for a, _ in pads)
    out = Convolution.apply(batch, weight, bias, stride=stride, pads=pads, dilation=dilation,
                            groups=groups)
    return out if batched else squeeze(out, 0)


@public
def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,  # noqa: A002
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    return convolution(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


@public
def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,  # noqa: A002
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    return convolution(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def transposed_convolution(input: Tensor, weight: Tensor, bias: Tensor | None,  # noqa: A002
                           stride: Any, padding: Any, output_padding: Any, groups: int,
                           dilation: Any, count: int, name: str) -> Tensor:
    input, weight = expect_tensor(input, name), expect_tensor(weight, name)
    batch, batched = _batched(input, count, name)
    stride, dilation = _sizes(stride, count, "stride"), _sizes(dilation, count, "dilation")
    padding = _sizes(padding, count, "padding")
    extra = _sizes(output_padding, count, "output_padding")
    _check_types(batch, weight, bias)
    shape = list(weight.shape_tuple)
    if batch.shape_tuple[1] != weight.shape_tuple[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {shape}, expected "
                           f"input{list(batch.shape_tuple)} to have {shape[0]} channels, but got "
                           f"{batch.shape_tuple[1]} channels instead")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(e < 0 for e in extra):
        raise RuntimeError("negative output_padding is not supported")
    if any(e >= s and e >= d for e, s, d in zip(extra, stride, dilation, strict=True)):
        names = ("height", "width")[-count:] if count <= 2 else ()
        parts = [f"output_padding_{n}: {e}" for n, e in zip(names, extra, strict=True)]
        parts += [f"stride_{n}: {s}" for n, s in zip(names, stride, strict=True)]
        parts += [f"dilation_{n}: {d}" for n, d in zip(names, dilation, strict=True)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           f"got {' '.join(parts)}")
    kernel = weight.shape_tuple[2:]
    size = tuple((n - 1) * s - 2 * p + d * (k - 1) + e + 1
                 for n, s, p, d, k, e in zip(batch.shape_tuple[2:], stride, padding, dilation,
                                             kernel, extra, strict=True))
    if any(n <= 0 for n in size):
        raise RuntimeError(f"Given input size per channel: "
                           f"({' x '.join(map(str, batch.shape_tuple[2:]))}). Calculated output "
                           f"size per channel: ({' x '.join(map(str, size))}). Output size is "
                           "too small")
    out = Convolution.apply(batch, weight, bias, stride=stride,
                            pads=tuple((p, p) for p in padding), dilation=dilation,
                            transposed=True, size=size, groups=groups)
    return out if batched else squeeze(out, 0)


@public
def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0,
                     groups: int = 1, dilation: Any = 1) -> Tensor:
    return transposed_convolution(input, weight, bias, stride, padding, output_padding, groups,
                                  dilation, 1, "conv_transpose1d")


@public
def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
                     stride: Any = 1, padding: Any = 0, output_padding: Any = 0,
                     groups: int = 1, dilation: Any = 1) -> Tensor:
    return transposed_convolution(input, weight, bias, stride, padding, output_padding, groups,
                                  dilation, 2, "conv_transpose2d")


@public(torch=False)
def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0,  # noqa: A002
           stride: Any = 1) -> Tensor:
    input = expect_tensor(input, "unfold")
    if input.ndim not in (3, 4):
        raise RuntimeError("Input Error: Only 3D or 4D input Tensors are supported (got "
                           f"{input.ndim}D)")
    batch = input if input.ndim == 4 else unsqueeze(input, 0)
    kernel, dilation, padding, stride = (_sizes(v, 2, name) for v, name in (
        (kernel_size, "kernel_size"), (dilation, "dilation"), (padding, "padding"),
        (stride, "stride")))
    pads = tuple((p, p) for p in padding)
    size = batch.shape_tuple[2:]
    blocks = tuple(output_length(n, k, s, p, d) for n, k, s, p, d in zip(
        size, kernel, stride, pads, dilation, strict=True))
    if any(b < 1 for b in blocks):
        raise RuntimeError(f"Given input with spatial size {size}, kernel_size={kernel}, "
                           f"dilation={dilation}, padding={padding}, calculated shape of the "
                           f"array of sliding blocks as {blocks}, but its components must be at "
                           "least one.")
    out = Im2Col.apply(batch, kernel=kernel, stride=stride, dilation=dilation, pads=pads)
    return out if input.ndim == 4 else squeeze(out, 0)


@public(torch=False)
def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1,  # noqa: A002
         padding: Any = 0, stride: Any = 1) -> Tensor:
    input = expect_tensor(input, "fold")
    if input.ndim not in (2, 3):
        raise RuntimeError("Input Error: Only unbatched (2D) or batched (3D) input Tensors are "
                           f"supported (got {input.ndim}D)")
    batch = input if input.ndim == 3 else unsqueeze(input, 0)
    size, kernel, dilation, padding, stride = (_sizes(v, 2, name) for v, name in (
        (output_size, "output_size"), (kernel_size, "kernel_size"), (dilation, "dilation"),
        (padding, "padding"), (stride, "stride")))
    pads = tuple((p, p) for p in padding)
    if batch.shape_tuple[1] % (kernel[0] * kernel[1]):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product "
                           f"of kernel_size, but got input.size(1)={batch.shape_tuple[1]} and "
                           f"kernel_size={kernel}.")
    blocks = [output_length(n, k, s, p, d) for n, k, s, p, d in zip(
        size, kernel, stride, pads, dilation, strict=True)]
    if blocks[0] * blocks[1] != batch.shape_tuple[2]:
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}"
                           f", padding={padding}, stride={stride}, expected size of input's "
                           f"dimension 2 to match the calculated number of sliding blocks "
                           f"{blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
                           f"input.size(2)={batch.shape_tuple[2]}.")
    out = Col2Im.apply(batch, size=size, kernel=kernel, stride=stride, dilation=dilation,
                       pads=pads)
    return out if input.ndim == 3 else squeeze(out, 0)


# --- pooling ---------------------------------------------------------------------------------


def _pool_geometry(input: Tensor, count: int, kernel_size: Any, stride: Any,  # noqa: A002
                   padding: Any, dilation: Any, ceil_mode: bool, name: str
                   ) -> tuple[tuple[int, ...], ...]:
    """Kernel, stride, padding, dilation and output lengths, checked as PyTorch checks them."""
    if kernel_size is None:
        raise TypeError(f"{name}(): argument 'kernel_size' (position 2) must be tuple of ints, "
                        "not NoneType")
    kernel = _sizes(kernel_size, count, "kernel_size")
    stride = kernel if stride is None or stride == [] or stride == () else _sizes(
        stride, count, "stride")
    padding, dilation = _sizes(padding, count, "padding"), _sizes(dilation, count, "dilation")
    if any(k <= 0 for k in kernel):
        raise RuntimeError("kernel size should be greater than zero, but got "
                           + ", ".join(f"k{'HW'[i] if count == 2 else 'W'}: {k}"
                                       for i, k in enumerate(kernel)))
    if any(s <= 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    if input.ndim not in (count + 1, count + 2) or input.numel() == 0:
        raise RuntimeError(f"non-empty {count + 1}D or {count + 2}D (batch mode) tensor expected "
                           "for input")
    for p, k, d in zip(padding, kernel, dilation, strict=True):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")
    size = input.shape_tuple[input.ndim - count:]
    lengths = tuple(pooling.pooled_length(n, k, s, p, d, ceil_mode)
                    for n, k, s, p, d in zip(size, kernel, stride, padding, dilation, strict=True))
    if any(n <= 0 for n in lengths):
        planes = input.shape_tuple[-count - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, (planes, *size)))}). "
                           f"Calculated output size: "
                           f"({'x'.join(map(str, (planes, *lengths)))}). Output size is too small")
    return kernel, stride, padding, dilation, lengths


def _max_pool(input: Tensor, count: int, kernel_size: Any, stride: Any, padding: Any,  # noqa: A002
              dilation: Any, ceil_mode: bool, return_indices: bool, name: str) -> Any:
    input = expect_tensor(input, name)
    kernel, stride, padding, dilation, lengths = _pool_geometry(
        input, count, kernel_size, stride, padding, dilation, ceil_mode, name)
    out = pooling.MaxPool.apply(input, kernel=kernel, stride=stride, padding=padding,
                                dilation=dilation, lengths=lengths)
    if not return_indices:
        return out
    node = out.grad_fn
    indices = node.indices if isinstance(node, pooling.MaxPool) else None
    if indices is None:  # no node was recorded: recompute the positions without one
        probe = pooling.MaxPool.__new__(pooling.MaxPool)
        probe.forward(input.array, kernel=kernel, stride=stride, padding=padding,
                      dilation=dilation, lengths=lengths)
        indices = probe.indices
    return out, Tensor._wrap(indices)


@public
def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    return _max_pool(input, 2, kernel_size, stride, padding, dilation, ceil_mode,
                     return_indices, "max_pool2d")


@public
def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """PyTorch pools one dim as two (a height of one), then squeezes it: SqueezeBackward1."""
    input = expect_tensor(input, "max_pool1d")
    if input.ndim not in (2, 3) or input.numel() == 0:
        raise RuntimeError("max_pool1d() Expected 2D or 3D input tensor, but got "
                           f"{list(input.shape_tuple)}")
    stride = ntuple(kernel_size if stride is None else stride, 1)
    result = _max_pool(unsqueeze(input, -2), 2, (1, *ntuple(kernel_size, 1)), (1, *stride),
                       (0, *ntuple(padding, 1)), (1, *ntuple(dilation, 1)), ceil_mode,
                       return_indices, "max_pool1d")
    if return_indices:
        return squeeze(result[0], -2), squeeze(result[1], -2)
    return squeeze(result, -2)


@public(torch=False)
def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    input = expect_tensor(input, "avg_pool2d")
    kernel, stride, padding, _, lengths = _pool_geometry(
        input, 2, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    divisor = pooling.avg_divisors(input.shape_tuple[-2:], lengths, kernel, stride, padding,
                                   count_include_pad, divisor_override)
    return pooling.AvgPool.apply(input, kernel=kernel, stride=stride, padding=padding,
                                 lengths=lengths, divisor=divisor)


@public(torch=False)
def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """A 1x1 output is PyTorch's mean over the last two dims (MeanBackward1)."""
    input = expect_tensor(input, "adaptive_avg_pool2d")
    if input.ndim not in (3, 4):
        raise RuntimeError("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got "
                           f"{list(input.shape_tuple)}")
    sizes = tuple(output_size) if isinstance(output_size, (list, tuple)) else (output_size,) * 2
    lengths = tuple(input.shape_tuple[-2 + i] if s is None else int(s)
                    for i, s in enumerate(sizes))
    if lengths == (1, 1):
        return MeanDim.apply(input, dims=(input.ndim - 2, input.ndim - 1), keepdim=True)
    return pooling.AdaptiveAvgPool.apply(input, lengths=lengths)


# --- pixel shuffle -------------------------------------------------------------------------------

def _check_pixels(a: Tensor, factor: int, name: str, what: str) -> None:
    if a.ndim < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {a.ndim} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


@public
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002
    a = expect_tensor(input, "pixel_shuffle")
    _check_pixels(a, upscale_factor, "pixel_shuffle", "upscale_factor")
    channels = a.shape_tuple[-3]
    if channels % upscale_factor ** 2:
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be "
                           "divisible by the square of upscale_factor, but input.size(-3)="
                           f"{channels} is not divisible by {upscale_factor ** 2}")
    return pixels.PixelShuffle.apply(a, factor=upscale_factor)


@public
def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    a = expect_tensor(input, "pixel_unshuffle")
    _check_pixels(a, downscale_factor, "pixel_unshuffle", "downscale_factor")
    for name, dim in (("height", -2), ("width", -1)):
        if a.shape_tuple[dim] % downscale_factor:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by "
                               f"downscale_factor, but input.size({dim})={a.shape_tuple[dim]} "
                               f"is not divisible by {downscale_factor}")
    return pixels.PixelUnshuffle.apply(a, factor=downscale_factor)
