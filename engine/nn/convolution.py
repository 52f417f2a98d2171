"""The convolution layers: Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d and their lazy forms
(LazyConv1d, LazyConv2d), with PyTorch's attributes, `print(model)` line and default
initialisation (engine/nn/init.py reset_affine, the draws in PyTorch's order); Unfold and Fold,
the modules of F.unfold / F.fold."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import budget, dtypes, grad_mode
from engine import functional as F
from engine.functional.convolution import ntuple
from engine.nn.functional import pad
from engine.nn.init import reset_affine
from engine.nn.layers import UninitializedParameter
from engine.nn.module import Module
from engine.tensor import Parameter, Tensor

PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    """What the convolutions share: checks, parameters, repr. Subclasses set `count` (spatial
    dims) and `transposed`."""

    count = 2
    transposed = False
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {
        "weight", "bias", "in_channels", "out_channels", "kernel_size", "stride", "padding",
        "dilation", "groups", "padding_mode", "output_padding", "transposed",
        "reset_parameters"}
    SETTABLE_ATTRS = Module.SETTABLE_ATTRS | frozenset({"weight", "bias"})

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None,
                 output_padding: Any = 0) -> None:
        super().__init__()
        count = self.count
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        self.kernel_size, self.stride = ntuple(kernel_size, count), ntuple(stride, count)
        self.dilation = ntuple(dilation, count)
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 "{'valid', 'same'}")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            self.padding: Any = padding
        else:
            self.padding = ntuple(padding, count)
        if padding_mode not in PADDING_MODES:
            raise ValueError("padding_mode must be one of {'replicate', 'circular', 'zeros', "
                             f"'reflect'}}, but got padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.groups, self.padding_mode = groups, padding_mode
        self.output_padding = ntuple(output_padding, count)
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        shape = ((in_channels, out_channels // groups) if self.transposed
                 else (out_channels, in_channels // groups)) + self.kernel_size
        budget.check_shape(shape, np_dtype.itemsize)
        self.weight = Parameter(Tensor._wrap(np.empty(shape, np_dtype)))
        if bias:
            self.bias = Parameter(Tensor._wrap(np.empty((out_channels,), np_dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        reset_affine(self.weight, self.bias)

    def _padded(self, input: Tensor) -> tuple[Tensor, Any]:  # noqa: A002
        """The input and the padding to convolve it with: padding modes other than zeros pad
        first (F.pad), as PyTorch does."""
        if self.padding_mode == "zeros":
            return input, self.padding
        sizes = self.padding if not isinstance(self.padding, str) else (0,) * self.count
        widths = [w for p in reversed(sizes) for w in (p, p)]
        return pad(input, widths, mode=self.padding_mode), 0

    def extra_repr(self) -> str:
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0,) * self.count:
            text += f", padding={self.padding}"
        if self.dilation != (1,) * self.count:
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * self.count:
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class Conv1d(_ConvNd):
    count = 1

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        input, padding = self._padded(input)
        return F.conv1d(input, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)


class Conv2d(_ConvNd):
    count = 2

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        input, padding = self._padded(input)
        return F.conv2d(input, self.weight, self.bias, self.stride, padding, self.dilation,
                        self.groups)


class _ConvTransposeNd(_ConvNd):
    transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", device: Any = None,
                 dtype: Any = None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f"{type(self).__name__}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, device, dtype, output_padding)

    def output_padding_for(self, input: Tensor, output_size: Any) -> Any:  # noqa: A002
        """forward(input, output_size=...): the output padding that gives that size, which
        must lie between the smallest output and stride - 1 more, as in PyTorch."""
        if output_size is None:
            return self.output_padding
        count = self.count
        leading = 2 if input.ndim == count + 2 else 1
        if len(output_size) == leading + count:
            output_size = output_size[leading:]
        if len(output_size) != count:
            raise ValueError(f"ConvTranspose{count}D: for {input.ndim}D input, output_size must "
                             f"have {count} or {leading + count} elements (got "
                             f"{len(output_size)})")
        smallest = [(input.shape_tuple[leading + d] - 1) * self.stride[d] - 2 * self.padding[d]
                    + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(count)]
        largest = [size + self.stride[d] - 1 for d, size in enumerate(smallest)]
        for d in range(count):
            if not smallest[d] <= output_size[d] <= largest[d]:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes "
                                 f"range from {smallest} to {largest} (for an input of "
                                 f"{input.size()[2:]})")
        return tuple(output_size[d] - smallest[d] for d in range(count))


class ConvTranspose1d(_ConvTransposeNd):
    count = 1

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding_for(input, output_size), self.groups,
                                  self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    count = 2

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:  # noqa: A002
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding_for(input, output_size), self.groups,
                                  self.dilation)


class _LazyConvNd(_ConvNd):
    """A convolution whose in_channels is read from its first input (dim 1, or dim 0 when
    unbatched): then its parameters are made and initialised (the draws happen then) and it
    becomes the convolution `becomes`, as PyTorch's `cls_to_become`."""

    becomes: type[_ConvNd] = Conv2d

    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", device: Any = None, dtype: Any = None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode, device, dtype)
        self.dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.float32).np
        self.weight = UninitializedParameter()
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter()

    def reset_parameters(self) -> None:
        if not isinstance(self.weight, UninitializedParameter) and self.in_channels != 0:
            super().reset_parameters()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if input.ndim not in (self.count + 1, self.count + 2):
            raise RuntimeError(
                f"Expected {self.count + 1}D (unbatched) or {self.count + 2}D (batched) input "
                f"to {type(self).__name__}, but got input of size: {input.shape}")
        self.in_channels = input.shape_tuple[1 if input.ndim == self.count + 2 else 0]
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        shape = (self.out_channels, self.in_channels // self.groups) + self.kernel_size
        budget.check_shape(shape, self.dtype.itemsize)
        with grad_mode.no_grad():
            self.weight = Parameter(Tensor._wrap(np.empty(shape, self.dtype)))
            if self.bias is not None:
                self.bias = Parameter(Tensor._wrap(np.empty((self.out_channels,), self.dtype)))
            _ConvNd.reset_parameters(self)
        self.__class__ = self.becomes  # type: ignore[assignment]  # PyTorch's cls_to_become
        return self.forward(input)


class LazyConv1d(_LazyConvNd):
    count = 1
    becomes = Conv1d


class LazyConv2d(_LazyConvNd):
    count = 2
    becomes = Conv2d


class Unfold(Module):
    """Sliding local blocks of a batched image as columns (F.unfold: Im2ColBackward0)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"kernel_size", "dilation", "padding", "stride"}

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Module):
    """Columns of sliding blocks summed back into an image (F.fold: Col2ImBackward0)."""

    PUBLIC_ATTRS = Unfold.PUBLIC_ATTRS | {"output_size"}

    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")
