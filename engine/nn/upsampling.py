"""Upsample, UpsamplingNearest2d, UpsamplingBilinear2d and the functions behind them:
F.interpolate (nearest, nearest-exact, linear, bilinear, bicubic, trilinear; 2-D area as an
adaptive average pool), with PyTorch's argument checks, messages and output sizes, and its
deprecated spellings F.upsample, F.upsample_nearest, F.upsample_bilinear (each with its
UserWarning).
The resize itself, and its derivative, is engine/ops/upsample.py."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from engine import dtypes
from engine.functional.convolution import adaptive_avg_pool2d
from engine.nn.module import Module
from engine.ops.upsample import RESIZES
from engine.tensor import Tensor

MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
_NEEDS = {"linear": 3, "bilinear": 4, "trilinear": 5}
# ATen's dispatch names, in its "not implemented for 'Long'" message
_KERNELS = {("nearest", 1): "compute_indices_weights_nearest",
            ("nearest-exact", 1): "compute_indices_weights_nearest",
            ("nearest", 2): "upsample_nearest2d_channels_last",
            ("nearest-exact", 2): "upsample_nearest2d_channels_last",
            ("nearest", 3): "compute_indices_weights_nearest",
            ("nearest-exact", 3): "compute_indices_weights_nearest",
            ("linear", 1): "compute_indices_weights_linear",
            ("bilinear", 2): "upsample_bilinear2d_channels_last",
            ("trilinear", 3): "compute_indices_weights_linear",
            ("bicubic", 2): "compute_indices_weights_cubic"}


def _is_integer(value: Any) -> bool:
    if isinstance(value, Tensor):
        return not value.dtype.is_floating_point
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _output_sizes(input: Tensor, size: Any, scale_factor: Any,  # noqa: A002
                  recompute_scale_factor: bool | None, mode: str
                  ) -> tuple[list[int], list[Any]]:
    """(output sizes, scales handed to the kernel) as F.interpolate works them out."""
    dims = input.ndim - 2
    spatial = list(input.shape_tuple[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    scales: list[Any] = [None] * dims
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dims:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {spatial} and output size of {size!r}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output "
                    "size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(s) for s in size):
                kinds = ", ".join(f"<class '{type(s).__name__}'>" for s in size)
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] "
                                f"or Tuple[int, int, int], but got size with types [{kinds}]")
            sizes = [int(s) for s in size]
        else:
            sizes = [int(size)] * dims
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        return sizes, scales
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != dims:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {spatial} and scale_factor of shape "
                f"{scale_factor!r}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                "and scale_factor in (s1, s2, ...,sK) format.")
        factors = [float(f) for f in scale_factor]
    else:
        factors = [float(scale_factor)] * dims
    sizes = [math.floor(n * f) for n, f in zip(spatial, factors, strict=True)]
    if recompute_scale_factor or mode == "area":
        return sizes, scales
    return sizes, factors


def _check_sizes(spatial: list[int], sizes: list[int]) -> None:
    """ATen's upsample shape check (its 1-D form says "and output")."""
    if all(n > 0 for n in spatial) and all(n > 0 for n in sizes):
        return
    names = "DHW"[3 - len(sizes):]
    given = ", ".join(f"{name}: {n}" for name, n in zip(names, spatial, strict=True))
    wanted = ", ".join(f"{name}: {n}" for name, n in zip(names, sizes, strict=True))
    joint = " and output" if len(sizes) == 1 else " output"
    raise RuntimeError("Input and output sizes should be greater than 0, but got input "
                       f"({given}){joint} ({wanted})")


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None,  # noqa: A002
                mode: str = "nearest", align_corners: bool | None = None,
                recompute_scale_factor: bool | None = None, antialias: bool = False) -> Tensor:
    """Resizes the last 1, 2 or 3 dims of an (N, C, ...) input to `size`, or by
    `scale_factor`."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    sizes, scales = _output_sizes(input, size, scale_factor, recompute_scale_factor, mode)
    dims = input.ndim - 2
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    if mode == "area" and dims in (1, 2, 3):
        if dims != 2:
            raise NotImplementedError(f"F.interpolate(mode='area') of a {input.ndim}-D input is "
                                      "not supported by agraph")
        return adaptive_avg_pool2d(input, sizes)
    needed = _NEEDS.get(mode)
    if needed is not None and dims in (1, 2, 3) and input.ndim != needed:
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs {needed}D "
                                  "input")
    op = RESIZES.get((mode, dims))
    if op is None or antialias:
        if mode == "lanczos" and dims == 2 or antialias:
            raise NotImplementedError(f"F.interpolate(mode={mode!r}, antialias={antialias}) is "
                                      "not supported by agraph")
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for "
            f"the modes: {MODES} (got {mode})")
    _check_sizes(list(input.shape_tuple[2:]), sizes)
    if input.dtype is dtypes.uint8 and mode in ("bilinear", "bicubic"):
        raise NotImplementedError(f"F.interpolate(mode={mode!r}) of uint8 images (PyTorch's "
                                  "integer-weight kernels) is not supported by agraph")
    if not input.dtype.is_floating_point and not (mode.startswith("nearest")
                                                  and input.dtype is dtypes.uint8):
        raise NotImplementedError(f'"{_KERNELS[(mode, dims)]}" not implemented for '
                                  f"'{dtypes.scalar_name(input.dtype)}'")
    return op.apply(input, sizes=tuple(sizes), scales=tuple(scales),  # type: ignore[no-any-return]
                    align_corners=bool(align_corners))


def upsample(input: Tensor, size: Any = None, scale_factor: Any = None,  # noqa: A002
             mode: str = "nearest", align_corners: bool | None = None) -> Tensor:
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:  # noqa: A002
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:  # noqa: A002
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", UserWarning, stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


class Upsample(Module):
    """F.interpolate as a layer; its repr shows the scale factor as a float."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"size", "scale_factor", "mode", "align_corners",
                                          "recompute_scale_factor", "name"}
    SETTABLE_ATTRS = Module.SETTABLE_ATTRS | frozenset({
        "size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"})

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor: Any = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode, self.align_corners = mode, align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                           recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return f"{info}, mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
