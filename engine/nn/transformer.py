"""nn.TransformerEncoderLayer and nn.TransformerEncoder as PyTorch runs them outside their fast
path (train mode, or with grad): self-attention through MultiheadAttention without weights
(so scaled_dot_product_attention), dropout, the residual sum and LayerNorm, after
(post-norm) or before (norm_first) each block, then the feed-forward block."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.nn.activation import GELU, ReLU
from engine.nn.attention import MultiheadAttention, _canonical_mask
from engine.nn.container import ModuleList
from engine.nn.functional import gelu, relu
from engine.nn.layers import Dropout, LayerNorm, Linear
from engine.nn.module import Module, copied
from engine.tensor import Tensor


def _activation(activation: str | Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
    """_get_activation_fn: a name becomes F.relu or F.gelu; a callable stays as given."""
    if not isinstance(activation, str):
        return activation
    if activation in ("relu", "gelu"):
        return relu if activation == "relu" else gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


class TransformerEncoderLayer(Module):
    """Self-attention and a feed-forward block, each with dropout, a residual and LayerNorm."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {
        "self_attn", "linear1", "dropout", "linear2", "norm_first", "norm1", "norm2",
        "dropout1", "dropout2", "activation", "activation_relu_or_gelu"}

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable[[Tensor], Tensor] = relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, dtype=dtype)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        function = _activation(activation)
        if function is relu or isinstance(function, ReLU):
            self.activation_relu_or_gelu = 1
        elif function is gelu or isinstance(function, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = function

    def forward(self, src: Tensor, src_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        dtype = src.array.dtype
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                               src_mask, "src_mask", dtype)
        src_mask = _canonical_mask(src_mask, "src_mask", None, "", dtype)
        x = src
        if self.norm_first:
            x = x + self._attention_block(self.norm1(x), src_mask, src_key_padding_mask,
                                          is_causal)
            return x + self._feed_forward_block(self.norm2(x))
        x = self.norm1(x + self._attention_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._feed_forward_block(x))

    def _attention_block(self, x: Tensor, mask: Tensor | None, padding: Tensor | None,
                         is_causal: bool) -> Tensor:
        out = self.self_attn(x, x, x, attn_mask=mask, key_padding_mask=padding,
                             need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(out)  # type: ignore[no-any-return]

    def _feed_forward_block(self, x: Tensor) -> Tensor:
        out = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(out)  # type: ignore[no-any-return]


def _why_not_nested(layer: Module) -> str:
    """Why TransformerEncoder cannot use nested tensors (its warning's reason), or ''."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attention = layer.self_attn
    reasons = (
        (layer.norm_first, f"{name}.norm_first was True"),
        (not attention.batch_first, f"{name}.self_attn.batch_first was not True(use "
                                    "batch_first for better inference performance)"),
        (not attention.same_dims, f"{name}.self_attn._qkv_same_embed_dim was not True"),
        (attention.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
        (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
        (layer.norm1.eps != layer.norm2.eps, f"{name}.norm1.eps was not equal to "
                                             f"{name}.norm2.eps"),
        (attention.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"))
    return next((reason for failed, reason in reasons if failed), "")


def _square_subsequent_mask(size: int, dtype: np.dtype) -> np.ndarray:
    """triu(full((size, size), -inf), diagonal=1)."""
    return np.triu(np.full((size, size), -np.inf, dtype=dtype), 1)


class TransformerEncoder(Module):
    """num_layers copies of encoder_layer (each its own parameters), then an optional norm."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"layers", "num_layers", "norm", "enable_nested_tensor",
                                          "use_nested_tensor", "mask_check"}

    def __init__(self, encoder_layer: Module, num_layers: int, norm: Module | None = None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = ModuleList([copied(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        reason = _why_not_nested(encoder_layer)
        if enable_nested_tensor and reason:
            warnings.warn("enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {reason}", UserWarning, stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src: Tensor, mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        dtype = src.array.dtype
        src_key_padding_mask = _canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                               mask, "mask", dtype)
        mask = _canonical_mask(mask, "mask", None, "", dtype)
        first = self.layers[0]
        batch_first = first.self_attn.batch_first
        length = src.shape_tuple[0] if src.ndim == 2 else src.shape_tuple[1 if batch_first
                                                                            else 0]
        causal = is_causal is True
        if is_causal is None and mask is not None:  # _detect_is_causal_mask
            square = _square_subsequent_mask(length, mask.array.dtype)
            causal = mask.shape_tuple == square.shape and bool(np.all(mask.array == square))
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=causal,
                           src_key_padding_mask=src_key_padding_mask)
        return output if self.norm is None else self.norm(output)
