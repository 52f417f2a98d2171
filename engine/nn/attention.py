"""Attention: `F.scaled_dot_product_attention`, `F.multi_head_attention_forward` and
`nn.MultiheadAttention`, with the graphs PyTorch records on the CPU.

scaled_dot_product_attention takes ATen's CPU flash kernel (one node,
ScaledDotProductFlashAttentionForCpuBackward0, engine/ops/attention.py) where its backend
selection does: 4-D query, key and value of one batch size, head count and head size, no
dropout, a mask of a shape the kernel broadcasts. Otherwise it takes the math path, whose
recording is its decomposition: q and k.T each scaled by sqrt(scale) (MulBackward1), matmul,
the mask added in place, _safe_softmax, dropout, matmul. MultiheadAttention (train mode, the
slow path) is F.multi_head_attention_forward: the packed in-projection, then with
need_weights bmm/baddbmm + softmax + bmm, without it scaled_dot_product_attention.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from engine import budget, creation, dtypes
from engine import functional as F
from engine.nn.functional import dropout, linear
from engine.nn.init import constant_, xavier_normal_, xavier_uniform_
from engine.nn.layers import Linear
from engine.nn.module import Module
from engine.ops.arith import scale as scale_by
from engine.ops.attention import SafeSoftmax, ScaledDotProductFlashAttentionForCpu
from engine.tensor import Parameter, Tensor, _c_type


def _check_inputs(query: Tensor, key: Tensor, value: Tensor, mask: Tensor | None) -> None:
    """validate_sdpa_input's checks, in its order."""
    kinds = [t.array.dtype for t in (query, key, value)]
    if kinds[0] != kinds[1] or kinds[0] != kinds[2]:
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {_c_type(kinds[0])} key.dtype: {_c_type(kinds[1])} "
                           f"and value.dtype: {_c_type(kinds[2])} instead.")
    if min(query.ndim, key.ndim, value.ndim) < 2:
        raise RuntimeError("Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {query.ndim} key.dim: {key.ndim} and "
                           f"value.dim: {value.ndim} instead.")
    if mask is not None and mask.array.dtype not in (np.bool_, np.float32, kinds[0]):
        raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {_c_type(mask.array.dtype)} and  "
                           f"query.dtype: {_c_type(kinds[0])} instead.")


def _flash_mask_fits(mask: Tensor, query: Tensor, key: Tensor) -> bool:
    """sdp_utils' check_attn_mask_shape: (L or 1, S or 1), or 4-D with (B or 1, H or 1)."""
    shape = mask.shape_tuple
    if mask.requires_grad or shape[-2] not in (query.shape_tuple[2], 1) or shape[-1] not in (
            key.shape_tuple[2], 1):
        return False
    return mask.ndim == 2 or (mask.ndim == 4 and shape[0] in (1, query.shape_tuple[0])
                              and shape[1] in (1, query.shape_tuple[1]))


def _uses_flash(query: Tensor, key: Tensor, value: Tensor, mask: Tensor | None,
                dropout_p: float, enable_gqa: bool) -> bool:
    """use_flash_attention_cpp: the conditions under which CPU SDPA takes the flash kernel."""
    shapes = [t.shape_tuple for t in (query, key, value)]
    if any(len(s) != 4 for s in shapes) or dropout_p > 0.0:
        return False
    if query.array.dtype not in (np.float32, np.float64):
        return False
    heads = shapes[0][1]
    grouped = enable_gqa and shapes[1][1] == shapes[2][1] and heads % shapes[1][1] == 0
    if len({s[0] for s in shapes}) > 1 or (len({s[1] for s in shapes}) > 1 and not grouped):
        return False
    if len({s[3] for s in shapes}) > 1 or shapes[0][2] == 0 or shapes[1][2] == 0:
        return False
    if any(t.array.strides[-1] != t.array.itemsize and t.shape_tuple[-1] > 1
           for t in (query, key, value)):
        return False
    return mask is None or _flash_mask_fits(mask, query, key)


def _float_mask(mask: Tensor, dtype: np.dtype) -> Tensor:
    """convert_boolean_attn_mask: a bool mask becomes 0 where True and -inf where False."""
    if mask.array.dtype != np.bool_:
        return mask
    return Tensor._wrap(np.where(mask.array, dtype.type(0), dtype.type(-np.inf)))


def _scale_of(query: Tensor, scale: float | None) -> float:
    """sdp::calculate_scale: the given scale, or 1 / sqrt(head size), in double."""
    return scale if scale is not None else 1.0 / math.sqrt(query.shape_tuple[-1])


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    _check_inputs(query, key, value, attn_mask)
    mask = None if attn_mask is None else _float_mask(attn_mask, query.array.dtype)
    if _uses_flash(query, key, value, mask, dropout_p, enable_gqa):
        array = None
        if mask is not None:
            batches, heads, length, _ = query.shape_tuple
            shape = mask.shape_tuple
            lead = shape[:2] if mask.ndim == 4 else (1, 1)
            array = np.broadcast_to(mask.array.reshape(lead + shape[-2:]),
                                    lead + (length, key.shape_tuple[2]))
        return ScaledDotProductFlashAttentionForCpu.apply(
            query, key, value, mask=array, causal=is_causal, scale=_scale_of(query, scale))
    if enable_gqa:
        key, value = _grouped(query, key, value)
    return _math_attention(query, key, value, mask, dropout_p, is_causal, scale)


def _grouped(query: Tensor, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor]:
    """pre_process_group_query_attention_input: unless all head counts (dim -3) agree, key and
    value repeat_interleave'd to the query's."""
    heads = [t.shape_tuple[-3] for t in (query, key, value)]
    if heads[0] % heads[1] or heads[0] % heads[2]:
        raise RuntimeError("Number of heads in key and value must divide the number of heads "
                           "in ")
    if heads[0] == heads[1] == heads[2]:
        return key, value
    return _repeated(key, heads[0] // heads[1]), _repeated(value, heads[0] // heads[2])


def _repeated(other: Tensor, repeats: int) -> Tensor:
    """repeat_interleave(repeats, dim=-3) as ATen records it: unsqueeze, expand, a contiguous
    copy, view."""
    dim = other.ndim - 3
    shape = other.shape_tuple
    expanded = other.unsqueeze(dim + 1).expand(*shape[:dim + 1], repeats, *shape[dim + 1:])
    return expanded.contiguous().view(*shape[:dim], shape[dim] * repeats, *shape[dim + 1:])


def _math_attention(query: Tensor, key: Tensor, value: Tensor, mask: Tensor | None,
                    dropout_p: float, is_causal: bool, scale: float | None) -> Tensor:
    """_scaled_dot_product_attention_math, op for op."""
    negative = scale is not None and scale < 0
    factor = math.sqrt(_scale_of(query, abs(scale) if negative and scale is not None
                                 else scale))
    scaled_query = scale_by(query, 0.0 - factor if negative else factor)
    if is_causal:
        if mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not "
                               "be set when is_causal=True")
        rows, columns = query.shape_tuple[-2], key.shape_tuple[-2]
        causal = np.tril(np.ones((rows, columns), dtype=np.bool_))
        mask = _float_mask(Tensor._wrap(causal), query.array.dtype)
    attn = F.matmul(scaled_query, scale_by(F.transpose(key, -2, -1), factor))
    if mask is not None:
        attn = attn.add_(mask)
    attn = SafeSoftmax.apply(attn, dim=attn.ndim - 1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    return F.matmul(attn, value)


def _shape_check(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None,
                 attn_mask: Tensor | None, num_heads: int) -> bool:
    """_mha_shape_check: whether the input is batched, after its shape assertions."""
    if query.ndim not in (2, 3):
        raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.ndim}-D query tensor")
    batched = query.ndim == 3
    kind, rank = ("batched (3-D)", 3) if batched else ("unbatched (2-D)", 2)
    if key.ndim != rank or value.ndim != rank:
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be {rank}-D but "
                             f"found {key.ndim}-D and {value.ndim}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.ndim != rank - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                             f"{rank - 1}-D but found {key_padding_mask.ndim}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.ndim not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or "
                                 f"3-D but found {attn_mask.ndim}-D tensor instead")
        expected = (num_heads, query.shape_tuple[0], key.shape_tuple[0])
        if not batched and attn_mask.ndim == 3 and attn_mask.shape_tuple != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                 f"{attn_mask.shape}")
    return batched


def _canonical_mask(mask: Tensor | None, name: str, other: Tensor | None, other_name: str,
                    dtype: np.dtype) -> Tensor | None:
    """_canonical_mask: a bool mask becomes -inf where True and 0 elsewhere."""
    if mask is None:
        return None
    kind = mask.array.dtype
    if kind != np.bool_ and kind.kind != "f":
        raise AssertionError(f"only bool and floating types of {name} are supported")
    if other is not None and other.array.dtype != kind:
        warnings.warn(f"Support for mismatched {name} and {other_name} is deprecated. Use "
                      "same type for both instead.", UserWarning, stacklevel=2)
    if kind != np.bool_:
        return mask
    return Tensor._wrap(np.where(mask.array, dtype.type(-np.inf), dtype.type(0)))


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | None
                          ) -> tuple[Tensor, Tensor, Tensor]:
    """One linear for self-attention (its result split by unflatten/transpose), two when key
    is value, else three over w.chunk(3)."""
    size = q.shape_tuple[-1]
    if k is v and q is k:
        proj = linear(q, w, b).unflatten(-1, (3, size)).unsqueeze(0).transpose(0, -2)
        proj = proj.squeeze(-2).contiguous()
        return proj[0], proj[1], proj[2]
    if k is v:
        w_q, w_kv = w.split([size, size * 2])
        b_q, b_kv = (None, None) if b is None else b.split([size, size * 2])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, size)).unsqueeze(0).transpose(0, -2)
        kv = kv.squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
        bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor,
        out_proj_bias: Tensor | None, training: bool = True,
        key_padding_mask: Tensor | None = None, need_weights: bool = True,
        attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False,
        q_proj_weight: Tensor | None = None, k_proj_weight: Tensor | None = None,
        v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
        static_v: Tensor | None = None, average_attn_weights: bool = True,
        is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    if static_k is not None or static_v is not None:
        raise NotImplementedError("multi_head_attention_forward with static_k/static_v is not "
                                  "supported by agraph")
    batched = _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape_tuple
    dtype = query.array.dtype
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", attn_mask,
                                       "attn_mask", dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", dtype)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape_tuple[:2] != value.shape_tuple[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
        biases = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        projections = (q_proj_weight, k_proj_weight, v_proj_weight)
        if any(w is None for w in projections):
            name = "qkv"[[w is None for w in projections].index(True)]
            raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is "
                                 "None")
        q, k, v = (linear(x, w, bias) for x, w, bias in zip(  # type: ignore[arg-type]
            (query, key, value), projections, biases, strict=True))
    else:
        if key.shape_tuple != value.shape_tuple:
            raise AssertionError(f"key shape {key.shape} does not match value shape "
                                 f"{value.shape}")
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    src_len = key.shape_tuple[0]
    if attn_mask is not None:
        if attn_mask.ndim == 2:
            if attn_mask.shape_tuple != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but "
                                   f"should be {(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.shape_tuple != (bsz * num_heads, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should "
                               f"be {(bsz * num_heads, tgt_len, src_len)}.")
    if bias_k is not None and bias_v is not None:
        k = F.cat([k, bias_k.repeat(1, bsz, 1)])
        v = F.cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else _pad_column(attn_mask)
        key_padding_mask = None if key_padding_mask is None else _pad_column(key_padding_mask)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.view(k.shape_tuple[0], bsz * num_heads, head_dim).transpose(0, 1)
    v = v.view(v.shape_tuple[0], bsz * num_heads, head_dim).transpose(0, 1)
    if add_zero_attn:
        zeros = (bsz * num_heads, 1, head_dim)
        k = F.cat([k, creation.zeros(zeros, dtype=k.dtype)], dim=1)
        v = F.cat([v, creation.zeros(zeros, dtype=v.dtype)], dim=1)
        attn_mask = None if attn_mask is None else _pad_column(attn_mask)
        key_padding_mask = None if key_padding_mask is None else _pad_column(key_padding_mask)
    src_len = k.shape_tuple[1]
    if key_padding_mask is not None:
        for axis, expected in ((0, bsz), (1, src_len)):
            if key_padding_mask.shape_tuple[axis] != expected:
                raise AssertionError(f"Expected key_padded_mask.shape[{axis}] to be {expected}, "
                                     f"but got {key_padding_mask.shape_tuple[axis]}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(
            -1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape_tuple[2]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        k_t = k.transpose(-2, -1)
        weights = (F.bmm(q_scaled, k_t) if attn_mask is None
                   else F.baddbmm(attn_mask, q_scaled, k_t))
        weights = F.softmax(weights, -1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        output = F.bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        output = linear(output, out_proj_weight, out_proj_bias)
        output = output.view(tgt_len, bsz, output.shape_tuple[1])
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            output, weights = output.squeeze(1), weights.squeeze(0)
        return output, weights
    if attn_mask is not None:
        if attn_mask.shape_tuple[0] == 1 and attn_mask.ndim == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    output = output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    output = linear(output, out_proj_weight, out_proj_bias)
    output = output.view(tgt_len, bsz, output.shape_tuple[1])
    return (output if batched else output.squeeze(1)), None


def _pad_column(mask: Tensor) -> Tensor:
    """F.pad(mask, (0, 1)): one more key column, of zeros."""
    from engine.nn.functional import pad  # lazy: startup time (pad is rarely reached)

    return pad(mask, (0, 1))


class NonDynamicallyQuantizableLinear(Linear):
    """MultiheadAttention's out_proj: a Linear under another name (torch.nn does not list it)."""


def _empty(shape: tuple[int, ...], dtype: Any) -> Parameter:
    np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()).np
    budget.check_shape(shape, np_dtype.itemsize)
    return Parameter(Tensor._wrap(np.empty(shape, np_dtype)))


class MultiheadAttention(Module):
    """Attention over num_heads heads, its parameters made and drawn in PyTorch's order: the
    out_proj Linear's default draws, then xavier_uniform_ of the in-projection, biases 0."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {
        "embed_dim", "kdim", "vdim", "num_heads", "dropout", "batch_first", "head_dim",
        "in_proj_weight", "in_proj_bias", "q_proj_weight", "k_proj_weight", "v_proj_weight",
        "out_proj", "bias_k", "bias_v", "add_zero_attn"}

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False,
                 kdim: int | None = None, vdim: int | None = None, batch_first: bool = False,
                 device: Any = None, dtype: Any = None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self.same_dims = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if not self.same_dims:
            self.q_proj_weight = _empty((embed_dim, embed_dim), dtype)
            self.k_proj_weight = _empty((embed_dim, self.kdim), dtype)
            self.v_proj_weight = _empty((embed_dim, self.vdim), dtype)
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = _empty((3 * embed_dim, embed_dim), dtype)
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        if bias:
            self.in_proj_bias = _empty((3 * embed_dim,), dtype)
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        if add_bias_kv:
            self.bias_k = _empty((1, 1, embed_dim), dtype)
            self.bias_v = _empty((1, 1, embed_dim), dtype)
        else:
            self.bias_k = self.bias_v = None  # type: ignore[assignment]
        self.add_zero_attn = add_zero_attn
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's _reset_parameters."""
        for weight in ((self.in_proj_weight,) if self.same_dims else
                       (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)):
            xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            constant_(self.in_proj_bias, 0.0)
            constant_(self.out_proj.bias, 0.0)
        for extra in (self.bias_k, self.bias_v):
            if extra is not None:
                xavier_normal_(extra)

    def forward(self, query: Tensor, key: Tensor, value: Tensor,
                key_padding_mask: Tensor | None = None, need_weights: bool = True,
                attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
        batched = query.ndim == 3
        dtype = query.array.dtype
        key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", attn_mask,
                                           "attn_mask", dtype)
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", dtype)
        if self.batch_first and batched:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query = query.transpose(1, 0)
                    key = value = key.transpose(1, 0)
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate: dict[str, Any] = {} if self.same_dims else {
            "use_separate_proj_weight": True, "q_proj_weight": self.q_proj_weight,
            "k_proj_weight": self.k_proj_weight, "v_proj_weight": self.v_proj_weight}
        output, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            average_attn_weights=average_attn_weights, is_causal=is_causal, **separate)
        if self.batch_first and batched:
            output = output.transpose(1, 0)
        return output, weights
