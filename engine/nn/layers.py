"""The layers: Linear, Embedding, LayerNorm, Flatten, Identity and Dropout. Their forward uses the
ops torch's kernels choose, so the graph shows torch's grad_fn names (a 2-D `Linear` is
`AddmmBackward0`, a 3-D one `ViewBackward0` over `AddmmBackward0`, ...)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine import budget, dtypes, grad_mode
from engine import functional as F
from engine.nn.functional import dropout, linear
from engine.nn.init import init, normal_
from engine.nn.module import Module
from engine.ops.norm import embedding, layer_norm
from engine.tensor import Parameter, Tensor


class Linear(Module):
    """`y = x @ weight.T + bias`, weight [out, in] initialised as torch does (seeded here)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.float32).np
        budget.check_shape((out_features, in_features), np_dtype.itemsize)
        self.weight = Parameter(Tensor._wrap(np.empty((out_features, in_features), np_dtype)))
        if bias:
            self.bias = Parameter(Tensor._wrap(np.empty((out_features,), np_dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "bias", "in_features", "out_features",
                                          "reset_parameters"}
    SETTABLE_ATTRS = frozenset({"weight", "bias"})

    def reset_parameters(self) -> None:
        """kaiming_uniform_(weight, a=sqrt(5)) and bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Embedding(Module):
    """A lookup table: weight ~ N(0, 1) (seeded here), the padding row zeroed."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "num_embeddings", "embedding_dim",
                                          "padding_idx"}
    SETTABLE_ATTRS = frozenset({"weight"})

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
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.float32).np
        budget.check_shape((num_embeddings, embedding_dim), np_dtype.itemsize)
        self.weight = Parameter(Tensor._wrap(np.empty((num_embeddings, embedding_dim),
                                                      np_dtype)))
        normal_(self.weight)
        if padding_idx is not None:
            with grad_mode.no_grad():
                self.weight.array[padding_idx] = 0

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return embedding(input, self.weight, self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        return text if self.padding_idx is None else f"{text}, padding_idx={self.padding_idx}"


class LayerNorm(Module):
    """Normalizes over the last dims; weight ones and bias zeros (elementwise_affine)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "bias", "normalized_shape", "eps",
                                          "elementwise_affine"}
    SETTABLE_ATTRS = frozenset({"weight", "bias"})

    def __init__(self, normalized_shape: Any, eps: float = 1e-5,
                 elementwise_affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        shape = ((normalized_shape,) if isinstance(normalized_shape, int)
                 else tuple(int(s) for s in normalized_shape))
        self.normalized_shape = shape
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.float32).np
        budget.check_shape(shape, np_dtype.itemsize)
        if elementwise_affine:
            self.weight = Parameter(Tensor._wrap(np.ones(shape, np_dtype)))
            if bias:
                self.bias = Parameter(Tensor._wrap(np.zeros(shape, np_dtype)))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

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
