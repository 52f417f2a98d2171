"""nn.TransformerEncoderLayer, nn.TransformerEncoder, nn.TransformerDecoderLayer,
nn.TransformerDecoder and nn.Transformer as PyTorch runs them outside their fast path (train
mode, or with grad): each attention through MultiheadAttention without weights (so
scaled_dot_product_attention), dropout, the residual sum and LayerNorm, after (post-norm) or
before (norm_first) each block; the decoder layer attends to tgt, then from tgt to memory,
then runs its feed-forward block."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import creation
from engine.nn.activation import GELU, ReLU
from engine.nn.attention import MultiheadAttention, _canonical_mask
from engine.nn.container import ModuleList
from engine.nn.functional import gelu, relu
from engine.nn.init import xavier_uniform_
from engine.nn.layers import Dropout, LayerNorm, Linear
from engine.nn.module import Module, copied
from engine.storage import C_TYPES
from engine.tensor import Tensor


def _activation(activation: str | Callable[[Tensor], Tensor]) -> Callable[[Tensor], Tensor]:
    """_get_activation_fn: a name becomes F.relu or F.gelu; a callable stays as given."""
    if not isinstance(activation, str):
        return activation
    if activation in ("relu", "gelu"):
        return relu if activation == "relu" else gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


class _TransformerLayer(Module):
    """What the encoder and decoder layers share: their submodules, registered (and so drawn)
    in PyTorch's order (self_attn, [multihead_attn,] linear1, dropout, linear2, the norms,
    the dropouts), the attention block and the feed-forward block. `blocks` is 2 for the
    encoder layer (self-attention, feed-forward), 3 for the decoder layer (cross-attention
    between them)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {
        "self_attn", "linear1", "dropout", "linear2", "norm_first", "norm1", "norm2",
        "dropout1", "dropout2", "activation"}

    def __init__(self, blocks: int, d_model: int, nhead: int, dim_feedforward: int,
                 dropout: float, activation: str | Callable[[Tensor], Tensor],
                 layer_norm_eps: float, batch_first: bool, norm_first: bool, bias: bool,
                 dtype: Any) -> None:
        super().__init__()
        for name in ("self_attn", "multihead_attn")[:blocks - 1]:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                   batch_first=batch_first, dtype=dtype))
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        for number in range(1, blocks + 1):
            setattr(self, f"norm{number}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias,
                                                     dtype=dtype))
        for number in range(1, blocks + 1):
            setattr(self, f"dropout{number}", Dropout(dropout))

    def _attention_block(self, attention: Module, dropout: Module, x: Tensor, memory: Tensor,
                         mask: Tensor | None, padding: Tensor | None, is_causal: bool
                         ) -> Tensor:
        """_sa_block (memory is x) and _mha_block: the attention's output, dropped out."""
        out = attention(x, memory, memory, attn_mask=mask, key_padding_mask=padding,
                        is_causal=is_causal, need_weights=False)[0]
        return dropout(out)  # type: ignore[no-any-return]

    def _feed_forward_block(self, x: Tensor, dropout: Module) -> Tensor:
        """_ff_block: linear2(dropout(activation(linear1(x)))), dropped out."""
        out = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return dropout(out)  # type: ignore[no-any-return]


class TransformerEncoderLayer(_TransformerLayer):
    """Self-attention and a feed-forward block, each with dropout, a residual and LayerNorm."""

    PUBLIC_ATTRS = _TransformerLayer.PUBLIC_ATTRS | {"activation_relu_or_gelu"}

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable[[Tensor], Tensor] = relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(2, d_model, nhead, dim_feedforward, dropout, activation,
                         layer_norm_eps, batch_first, norm_first, bias, dtype)
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
        attention, padding = self.self_attn, src_key_padding_mask
        x = src
        if self.norm_first:
            normed = self.norm1(x)
            x = x + self._attention_block(attention, self.dropout1, normed, normed, src_mask,
                                          padding, is_causal)
            return x + self._feed_forward_block(self.norm2(x), self.dropout2)
        x = self.norm1(x + self._attention_block(attention, self.dropout1, x, x, src_mask,
                                                 padding, is_causal))
        return self.norm2(x + self._feed_forward_block(x, self.dropout2))


class TransformerDecoderLayer(_TransformerLayer):
    """Self-attention over tgt, attention from tgt over memory and a feed-forward block, each
    with dropout, a residual and LayerNorm (after each, or before with norm_first)."""

    PUBLIC_ATTRS = _TransformerLayer.PUBLIC_ATTRS | {"multihead_attn", "norm3", "dropout3"}

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable[[Tensor], Tensor] = relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(3, d_model, nhead, dim_feedforward, dropout, activation,
                         layer_norm_eps, batch_first, norm_first, bias, dtype)
        self.activation = _activation(activation)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False) -> Tensor:
        def attend(x: Tensor) -> Tensor:
            return self._attention_block(self.self_attn, self.dropout1, x, x, tgt_mask,
                                         tgt_key_padding_mask, tgt_is_causal)

        def attend_memory(x: Tensor) -> Tensor:
            return self._attention_block(self.multihead_attn, self.dropout2, x, memory,
                                         memory_mask, memory_key_padding_mask,
                                         memory_is_causal)

        x = tgt
        if self.norm_first:
            x = x + attend(self.norm1(x))
            x = x + attend_memory(self.norm2(x))
            return x + self._feed_forward_block(self.norm3(x), self.dropout3)
        x = self.norm1(x + attend(x))
        x = self.norm2(x + attend_memory(x))
        return self.norm3(x + self._feed_forward_block(x, self.dropout3))


def _why_not_nested(layer: Module) -> str:
    """Why TransformerEncoder cannot use nested tensors (its warning's reason), or ''. Each
    check is read only when those before it passed, as PyTorch's elif chain does (a layer whose
    norms were swapped for Identity has no eps to read)."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attention = layer.self_attn
    checks: tuple[tuple[Callable[[], Any], str], ...] = (
        (lambda: layer.norm_first, f"{name}.norm_first was True"),
        (lambda: not attention.batch_first, f"{name}.self_attn.batch_first was not True(use "
                                            "batch_first for better inference performance)"),
        (lambda: not attention.same_dims, f"{name}.self_attn._qkv_same_embed_dim was not True"),
        (lambda: attention.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
        (lambda: not layer.activation_relu_or_gelu,
         f"{name}.activation_relu_or_gelu was not True"),
        (lambda: layer.norm1.eps != layer.norm2.eps,
         f"{name}.norm1.eps was not equal to {name}.norm2.eps"),
        (lambda: attention.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"))
    return next((reason for failed, reason in checks if failed()), "")


def _square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
    """A causal mask: -inf above the diagonal, 0 elsewhere, in dtype (the default float's)."""
    return creation.full((sz, sz), float("-inf"), dtype=dtype, device=device).triu(1)


def _sequence_length(x: Tensor, batch_first: bool) -> int:
    """_get_seq_len: dim 0 unbatched, else 1 with batch_first, 0 without."""
    return x.shape_tuple[0] if x.ndim == 2 else x.shape_tuple[1 if batch_first else 0]


def _detect_is_causal_mask(mask: Tensor | None, is_causal: bool | None, size: int) -> bool:
    """The hint as given; without one, whether mask equals the causal mask of its own dtype
    (so a bool mask True above the diagonal counts) and of size x size."""
    if is_causal is not None or mask is None:
        return is_causal is True
    kind = mask.array.dtype
    if kind.kind in "iu":  # torch.full of -inf in an integer dtype
        raise RuntimeError(f"value cannot be converted to type {C_TYPES[kind.name]} without "
                           "overflow")
    square = np.triu(np.full((size, size), -np.inf, dtype=kind), 1)
    return mask.shape_tuple == square.shape and bool(np.all(mask.array == square))


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
        length = _sequence_length(src, self.layers[0].self_attn.batch_first)
        causal = _detect_is_causal_mask(mask, is_causal, length)
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=causal,
                           src_key_padding_mask=src_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Module):
    """num_layers copies of decoder_layer (each its own parameters), then an optional norm."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"layers", "num_layers", "norm"}

    def __init__(self, decoder_layer: Module, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = ModuleList([copied(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        length = _sequence_length(tgt, self.layers[0].self_attn.batch_first)
        causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, length)
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """An encoder (num_encoder_layers layers and a LayerNorm) and a decoder (likewise), or the
    custom ones given; every parameter of more than one dim then redrawn by xavier_uniform_,
    in parameters() order."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"encoder", "decoder", "d_model", "nhead",
                                          "batch_first", "generate_square_subsequent_mask"}
    CLASS_ATTRS = frozenset({"generate_square_subsequent_mask"})  # a staticmethod

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable[[Tensor], Tensor] = relu,
                 custom_encoder: Any = None, custom_decoder: Any = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        shared = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                  batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(*shared, dtype=dtype)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(*shared, dtype=dtype)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, dtype=dtype)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        for parameter in self.parameters():
            if parameter.ndim > 1:
                xavier_uniform_(parameter)
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    generate_square_subsequent_mask = staticmethod(_square_subsequent_mask)

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None,
                tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        batch = 0 if self.batch_first else 1
        if src.ndim == 3 and src.shape_tuple[batch] != tgt.shape_tuple[batch]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape_tuple[-1] != self.d_model or tgt.shape_tuple[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask,  # type: ignore[no-any-return]
                            memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
