"""The layers: Linear, Embedding, LayerNorm, Flatten, Unflatten, Identity and Dropout. Their
forward uses the ops torch's kernels choose, so the graph shows torch's grad_fn names (a 2-D
`Linear` is `AddmmBackward0`, a 3-D one `ViewBackward0` over `AddmmBackward0`, ...)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import budget, dtypes, grad_mode
from engine import functional as F
from engine.nn.functional import (
    alpha_dropout,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    feature_alpha_dropout,
    linear,
)
from engine.nn.init import normal_, reset_affine
from engine.nn.module import Module, affine_parameters
from engine.ops.norm import embedding, layer_norm
from engine.tensor import Parameter, Tensor


class Linear(Module):
    """`y = x @ weight.T + bias`, weight [out, in] initialised as torch does (seeded here)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        budget.check_shape((out_features, in_features), np_dtype.itemsize)
        self.weight = Parameter(Tensor._wrap(np.empty((out_features, in_features), np_dtype)))
        if bias:
            self.bias = Parameter(Tensor._wrap(np.empty((out_features,), np_dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "bias", "in_features", "out_features",
                                          "reset_parameters"}
    SETTABLE_ATTRS = Module.SETTABLE_ATTRS | frozenset({"weight", "bias"})

    def reset_parameters(self) -> None:
        """kaiming_uniform_(weight, a=sqrt(5)) and bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
        reset_affine(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class UninitializedParameter(Parameter):
    """A lazy layer's parameter before its first call gives it a shape."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    __str__ = __repr__


class LazyLinear(Linear):
    """A Linear whose in_features is the last dim of its first input: then its parameters are
    made and initialised (the draws happen then) and it becomes an `nn.Linear`."""

    def __init__(self, out_features: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self.dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        self.weight = UninitializedParameter()
        if bias:
            self.bias = UninitializedParameter()
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        if not isinstance(self.weight, UninitializedParameter) and self.in_features:
            super().reset_parameters()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        in_features = input.shape_tuple[-1] if input.ndim else 1
        budget.check_shape((self.out_features, in_features), self.dtype.itemsize)
        with grad_mode.no_grad():
            self.in_features = in_features
            self.weight = Parameter(Tensor._wrap(np.empty((self.out_features, in_features),
                                                          self.dtype)))
            if self.bias is not None:
                self.bias = Parameter(Tensor._wrap(np.empty((self.out_features,), self.dtype)))
            Linear.reset_parameters(self)
        self.__class__ = Linear  # type: ignore[assignment]  # PyTorch's cls_to_become
        return Linear.forward(self, input)


class Embedding(Module):
    """A lookup table: weight ~ N(0, 1) (seeded here), the padding row zeroed."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "num_embeddings", "embedding_dim",
                                          "padding_idx", "max_norm", "norm_type",
                                          "from_pretrained"}
    CLASS_ATTRS = frozenset({"from_pretrained"})  # read from the class itself
    SETTABLE_ATTRS = Module.SETTABLE_ATTRS | frozenset({"weight"})

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: Any = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Any = None, _freeze: bool = False,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            if padding_idx < 0:
                padding_idx += num_embeddings
        self.padding_idx = padding_idx
        self.max_norm, self.norm_type = max_norm, norm_type
        if _weight is not None:  # from_pretrained: the given table itself, not initialised
            if list(_weight.shape_tuple) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and "
                                     "embedding_dim")
            self.weight = Parameter(_weight, requires_grad=not _freeze)
            return
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        budget.check_shape((num_embeddings, embedding_dim), np_dtype.itemsize)
        self.weight = Parameter(Tensor._wrap(np.empty((num_embeddings, embedding_dim),
                                                      np_dtype)))
        normal_(self.weight)
        if padding_idx is not None:
            with grad_mode.no_grad():
                self.weight.array[padding_idx] = 0

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True,
                        padding_idx: int | None = None, max_norm: Any = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                        sparse: bool = False) -> Embedding:
        if embeddings.ndim != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape_tuple
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse,
                   _weight=embeddings, _freeze=freeze)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            text += f", max_norm={self.max_norm}"
        return text if self.norm_type == 2 else f"{text}, norm_type={self.norm_type}"


class LayerNorm(Module):
    """Normalizes over the last dims; weight ones and bias zeros (elementwise_affine)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "bias", "normalized_shape", "eps",
                                          "elementwise_affine"}
    SETTABLE_ATTRS = Module.SETTABLE_ATTRS | frozenset({"weight", "bias"})

    def __init__(self, normalized_shape: Any, eps: float = 1e-5,
                 elementwise_affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        shape = ((normalized_shape,) if isinstance(normalized_shape, int)
                 else tuple(int(s) for s in normalized_shape))
        self.normalized_shape = shape
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
        budget.check_shape(shape, np_dtype.itemsize)
        affine_parameters(self, shape, np_dtype, elementwise_affine, bias)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class Identity(Module):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return input


class Flatten(Module):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"start_dim", "end_dim"}

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"dim", "unflattened_size"}

    def __init__(self, dim: int, unflattened_size: Any) -> None:
        super().__init__()
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.unflatten(input, self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class PixelShuffle(Module):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"upscale_factor"}

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"downscale_factor"}

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class Dropout(Module):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"p", "inplace"}

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout2d(Dropout):
    """Whole channels zeroed (one draw per sample and channel), the rest scaled by 1/(1-p)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return dropout2d(input, self.p, self.training, self.inplace)


class Dropout1d(Dropout):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return dropout1d(input, self.p, self.training, self.inplace)


class Dropout3d(Dropout):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(Dropout):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(Dropout):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return feature_alpha_dropout(input, self.p, self.training)
