"""Finite-difference checks of every op's derivative, in float64, on shapes hypothesis draws.

CHECKS is the op table: one entry (or more) per `Function` subclass in engine/ops, naming the
op it checks. For each entry hypothesis draws input shapes (broadcasting ones for elementwise
ops) and values in the op's smooth domain; the engine's gradient of <f(x), u> for a random u
must match central differences, and so must the gradient of <grad, v> (second derivatives
through create_graph=True). test_every_op_has_a_check fails when an op has no entry.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.ops
from engine import functional as F
from engine.autograd import Function
from engine.nn import attention as nn_attention
from engine.nn import functional as nn_functional
from engine.nn import loss as nn_loss
from engine.nn import upsampling, utils_rnn
from engine.ops import (
    activation,
    arith,
    attention,
    convolution,
    decompositions,
    index,
    linalg,
    loss,
    matrix,
    norm,
    pixel_shuffle,
    pointwise,
    pooling,
    recurrent,
    reduce,
    scaled_products,
    selection,
    shape,
    special,
    statistics,
    upsample,
)
from engine.tensor import Tensor

Shapes = Callable[[Any], list[tuple[int, ...]]]


def _combined(outputs: tuple[Tensor, Tensor]) -> Tensor:
    """Both outputs of a two-output op in one tensor (each weighted so neither hides)."""
    first, second = outputs
    return first * 3 + second


@dataclass
class Check:
    op: type[Function]
    function: Callable[..., Tensor]
    shapes: Shapes
    low: float = -2.0
    high: float = 2.0
    avoid: tuple[float, ...] = ()  # kinks: inputs stay 0.05 away from these values
    distinct: bool = False  # inputs pairwise apart (max/min ties, prod)
    second_order: bool = True
    eps: float = 1e-6
    name: str = ""


# --- shape strategies -----------------------------------------------------------------------

def sizes(draw: Any, min_dims: int = 0, max_dims: int = 3) -> tuple[int, ...]:
    return tuple(draw(st.lists(st.integers(1, 3), min_size=min_dims, max_size=max_dims)))


def broadcast_to(draw: Any, target: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts against `target`: leading dims dropped, some sizes set to 1."""
    keep = draw(st.integers(0, len(target)))
    return tuple(1 if draw(st.booleans()) else n for n in target[len(target) - keep:])


def one(min_dims: int = 0, max_dims: int = 3) -> Shapes:
    return lambda draw: [sizes(draw, min_dims, max_dims)]


def pair(draw: Any) -> list[tuple[int, ...]]:
    """Two shapes that broadcast together, in either order."""
    a = sizes(draw)
    b = broadcast_to(draw, a)
    return [a, b] if draw(st.booleans()) else [b, a]


def same(count: int, min_dims: int = 0, max_dims: int = 3) -> Shapes:
    def draw_shapes(draw: Any) -> list[tuple[int, ...]]:
        return [sizes(draw, min_dims, max_dims)] * count
    return draw_shapes


def fixed(*shapes: tuple[int, ...]) -> Shapes:
    return lambda draw: list(shapes)


def matrices(draw: Any) -> list[tuple[int, ...]]:
    n, m, p = (draw(st.integers(1, 3)) for _ in range(3))
    return [(n, m), (m, p)]


def batched(draw: Any) -> list[tuple[int, ...]]:
    b, n, m, p = (draw(st.integers(1, 3)) for _ in range(4))
    return [(b, n, m), (b, m, p)]


def addmm_shapes(draw: Any) -> list[tuple[int, ...]]:
    a, b = matrices(draw)
    return [broadcast_to(draw, (a[0], b[1])), a, b]


def attention_shapes(draw: Any) -> list[tuple[int, ...]]:
    """query (B, H, L, D), key and value (B, H, S, D)."""
    b, h, length, keys, dim = (draw(st.integers(1, 3)) for _ in range(5))
    return [(b, h, length, dim), (b, h, keys, dim), (b, h, keys, dim)]


def grouped_attention_shapes(draw: Any) -> list[tuple[int, ...]]:
    """grouped-query attention: 2 or 4 query heads over 1 or 2 key/value heads."""
    b, kv_heads, length, keys, dim = (draw(st.integers(1, 2)) for _ in range(5))
    heads = kv_heads * 2
    return [(b, heads, length, dim), (b, kv_heads, keys, dim), (b, kv_heads, keys, dim)]


def _masked_attention(q: Tensor, k: Tensor, v: Tensor) -> Tensor:
    """The flash kernel with a float mask (a fixed one, broadcast over batch and heads)."""
    rows, columns = q.shape_tuple[2], k.shape_tuple[2]
    mask = np.linspace(-1.0, 1.0, rows * columns).reshape(rows, columns)
    return nn_attention.scaled_dot_product_attention(q, k, v, attn_mask=Tensor._wrap(mask),
                                                     scale=0.7)


def matmul_shapes(draw: Any) -> list[tuple[int, ...]]:
    """matmul operands of 1 to 4 dims, with broadcast batch dims."""
    n, m, p = (draw(st.integers(1, 3)) for _ in range(3))
    batch = sizes(draw, 0, 2)
    left = (m,) if draw(st.booleans()) else batch + (n, m)
    right_batch = broadcast_to(draw, batch)
    right = (m,) if draw(st.booleans()) else right_batch + (m, p)
    return [left, right]


# --- the op table ---------------------------------------------------------------------------

def C(op: type[Function], function: Callable[..., Tensor], shapes: Shapes,
      **options: Any) -> Check:
    return Check(op, function, shapes, **options)


def layer_norm_backward(g: Tensor, x: Tensor, w: Tensor) -> Tensor:
    """native_layer_norm_backward's dx and dweight (added, broadcast) as a function of the
    upstream gradient, the input and the weight: NativeLayerNormBackwardBackward0."""
    x, w = (t if t.requires_grad else t.detach().requires_grad_() for t in (x, w))
    dx, dw = F.grad(norm.layer_norm(x, 9, w, None), [x, w], grad_outputs=g, create_graph=True)
    return dx + dw


def in_place_on_view(a: Tensor, b: Tensor) -> Tensor:
    y = a * 1
    y[0].mul_(b)  # CopySlices on y; reading y[0] again gives an AsStridedBackward0 view
    return y * y[0]


CHECKS: list[Check] = [
    C(arith.Add, lambda a, b: a + b, pair),
    C(arith.Add, lambda a, b: F.add(a, b, alpha=-1.5), pair, name="add_alpha"),
    C(arith.Sub, lambda a, b: a - b, pair),
    C(arith.Sub, lambda a, b: F.sub(a, b, alpha=2.0), pair, name="sub_alpha"),
    C(arith.Rsub, lambda a: 3.0 - a, one()),
    C(arith.Mul, lambda a, b: a * b, pair),
    C(arith.Mul, lambda a: a * 2.5, one(), name="mul_scalar"),
    C(arith.MulScalar, lambda a: arith.scale(a, -1.5), one()),
    C(arith.Div, lambda a, b: a / b, pair, avoid=(0.0,), low=0.5, high=2.0),
    C(arith.Div, lambda a, b: a / b, pair, avoid=(0.0,), name="div_signs"),
    C(arith.Reciprocal, lambda a: 2.0 / a, one(), avoid=(0.0,)),
    # quotients kept between 3 and 4 (-4 and -3): the finite differences cross no step
    C(arith.Remainder, lambda a, b: (a * 0.05 + 3.1) % (b * 0.01 + 1.0), pair,
      low=0.5, high=2.0),
    C(arith.Remainder, lambda a, b: (a * 0.05 - 3.1) % (b * -0.01 - 1.0), pair,
      low=0.5, high=2.0, name="remainder_negative"),
    C(arith.RemainderScalar, lambda a: a % 0.75, one(), low=0.8, high=1.4),
    C(arith.Fmod, lambda a, b: F.fmod(a * 0.05 - 3.1, b * 0.01 + 1.0), pair,
      low=0.5, high=2.0),
    C(arith.FmodScalar, lambda a: F.fmod(a, -0.75), one(), low=0.8, high=1.4),
    C(arith.DivRounding, lambda a, b: F.div(a * 0.05 + 3.1, b * 0.01 + 1.0,
                                            rounding_mode="floor"), pair, low=0.5, high=2.0),
    C(arith.Neg, lambda a: -a, one()),
    C(arith.PowScalar, lambda a: a ** 3, one()),
    C(arith.PowScalar, lambda a: a ** 2.5, one(), low=0.5, name="pow_fraction"),
    C(arith.PowScalar, lambda a: a ** -2, one(), avoid=(0.0,), name="pow_negative"),
    C(arith.PowTensor, lambda a, b: a ** b, pair, low=0.5, high=2.0),
    C(arith.RPow, lambda a: 1.5 ** a, one()),
    C(linalg.Mm, lambda a, b: a.mm(b), matrices),
    C(linalg.Mv, lambda a, b: a.mv(b), lambda draw: [(draw(st.integers(1, 3)), 3), (3,)]),
    C(linalg.Dot, lambda a, b: a.dot(b), same(2, 1, 1)),
    C(scaled_products.Addmv, lambda c, m, v: c.addmv(m, v, beta=0.5, alpha=2.0),
      fixed((3,), (3, 4), (4,))),
    C(scaled_products.Addbmm, lambda c, a, b: c.addbmm(a, b, beta=2.0, alpha=0.5),
      fixed((2, 3), (2, 2, 4), (2, 4, 3))),
    C(scaled_products.Baddbmm, lambda c, a, b: c.baddbmm(a, b, beta=0.5, alpha=3.0),
      fixed((2, 2, 3), (2, 2, 4), (2, 4, 3))),
    C(linalg.Vdot, lambda a, b: a.vdot(b), same(2, 1, 1)),
    C(linalg.Bmm, lambda a, b: F.bmm(a, b), batched),
    C(linalg.Bmm, lambda a, b: a @ b, matmul_shapes, name="matmul"),
    C(linalg.Addmm, lambda bias, a, b: F.addmm(bias, a, b), addmm_shapes),
    C(norm.Embedding, lambda w: norm.embedding(Tensor._wrap(np.array([[1, 0], [1, 2]])), w),
      fixed((3, 2))),
    C(norm.NativeLayerNorm, lambda x, w, b: norm.layer_norm(x, 3, w, b),
      fixed((2, 3), (3,), (3,)), distinct=True),
    C(norm.NativeLayerNorm, lambda x: norm.layer_norm(x, (2, 2)), fixed((2, 2, 2)),
      distinct=True, name="layer_norm_no_affine"),
    C(norm.NativeLayerNorm, lambda x, b: norm.layer_norm(x, 9, None, b),
      fixed((2, 9), (9,)), distinct=True, name="layer_norm_bias_only"),
    C(norm.NativeLayerNormBackward, layer_norm_backward, fixed((2, 9), (2, 9), (9,)),
      distinct=True),
    C(loss.MseLoss, lambda a, b: F.mse_loss(a, b), same(2)),
    C(loss.MseLoss, lambda a, b: F.mse_loss(a, b, reduction="sum"), same(2), name="mse_sum"),
    C(loss.MseLoss, lambda a, b: F.mse_loss(a, b, reduction="none"), same(2),
      name="mse_none"),
    C(loss.MseLossBackward,
      lambda g, a, b: loss.MseLossBackward.apply(g.sum(), a, b, reduction="mean"), same(3)),
    C(loss.MseLossBackward,
      lambda g, a, b: loss.MseLossBackward.apply(g.sum(), a, b, reduction="sum"), same(3),
      name="mse_backward_sum"),
    C(loss.MseLossBackward,
      lambda g, a, b: loss.MseLossBackward.apply(g, a, b, reduction="none"), same(3),
      name="mse_backward_none"),
    C(arith.DivScalar, lambda a: arith.DivScalar.apply(a, scalar=3.0), one()),
    C(loss.BinaryCrossEntropyWithLogits,
      lambda a, b: nn_loss.binary_cross_entropy_with_logits(a, b.sigmoid()), same(2)),
    C(loss.BinaryCrossEntropyWithLogits,
      lambda a, b: nn_loss.binary_cross_entropy_with_logits(
          a, b.sigmoid(), weight=Tensor._wrap(np.array(0.5)),
          pos_weight=Tensor._wrap(np.array(2.0)), reduction="sum"), same(2),
      name="bce_logits_weighted"),
    C(loss.BinaryCrossEntropy,
      lambda a, b: nn_loss.binary_cross_entropy(a.sigmoid(), b.sigmoid()), same(2)),
    C(loss.NllLoss, lambda a: nn_loss.nll_loss(a, Tensor._wrap(np.array([0, 2]))), fixed((2, 3))),
    C(loss.NllLoss2d, lambda a: nn_loss.nll_loss(
        a, Tensor._wrap(np.array([[[0, 2], [1, 1]], [[2, 0], [0, 1]]])),
        weight=Tensor._wrap(np.array([0.5, 1.0, 2.0]))), fixed((2, 3, 2, 2))),
    C(loss.NllLoss, lambda a: nn_loss.cross_entropy(a, Tensor._wrap(np.array([1, 1, 0])),
                                               reduction="none"), fixed((3, 2)),
      name="cross_entropy_none"),
    C(loss.SmoothL1Loss, lambda a, b: nn_loss.smooth_l1_loss(a, b, beta=0.5), same(2)),
    C(loss.HuberLoss, lambda a, b: nn_loss.huber_loss(a, b, delta=0.5, reduction="sum"), same(2)),
    C(statistics.Var, lambda a: F.var(a, dim=-1), fixed((3, 4))),
    C(statistics.Var, lambda a: F.var(a, unbiased=False), fixed((2, 3)), name="var_all"),
    C(statistics.Std, lambda a: F.std(a, dim=0, keepdim=True), fixed((4, 2)), distinct=True),
    C(reduce.Nansum, lambda a: F.nansum(a, 0), one(1)),
    C(reduce.Cdist, lambda a, b: F.cdist(a, b + 5.0), fixed((3, 2), (4, 2)), second_order=False),
    C(reduce.Cdist, lambda a, b: F.cdist(a, b + 5.0, p=1.5), fixed((2, 3), (2, 3)),
      second_order=False, name="cdist_p"),
    C(statistics.Logsumexp, lambda a: F.logsumexp(a, dim=-1), one(1)),
    C(statistics.Cumsum, lambda a: F.cumsum(a, 0), one(1)),
    C(shape.Flip, lambda a: F.flip(a, 0), one(1)),
    C(matrix.Rot90, lambda a: F.rot90(a, 1, (0, 1)) * 2, one(2, 3)),
    C(matrix.Rot90, lambda a: F.rot90(a, 3, (1, 0)), one(2, 3), name="rot90_back"),
    C(shape.Unfold, lambda a: a.unfold(1, 2, 1) * a.unfold(1, 2, 1), fixed((2, 4))),
    C(shape.Unfold, lambda a: a.unfold(0, 2, 3), fixed((5, 2)), name="unfold_step"),
    C(shape.UnfoldGrad, lambda g: shape.UnfoldGrad.apply(
        g, dim=1, size=2, step=1, input_shape=(2, 4)) ** 2, fixed((2, 3, 2))),
    C(shape.Flip, lambda a: a.flip(-1, 0) * a, one(2), name="flip_dims"),
    C(selection.MaskedFillTensor, lambda a, v: F.masked_fill(a, a > 0, v.sum()) * a,
      fixed((2, 3), (2,)), avoid=(0.0,)),
    C(selection.Scatter, lambda a, s: selection.Scatter.apply(
        a, s, dim=1, index=np.array([[2, 0], [1, 0]])) * a, fixed((2, 3), (2, 2))),
    C(statistics.Amax, lambda a: F.amax(a, dim=-1), one(1), distinct=True),
    C(statistics.Amin, lambda a: F.amin(a), one(1), distinct=True),
    C(selection.Gather, lambda a: F.gather(a, 1, Tensor._wrap(np.array([[2, 0], [1, 1]]))),
      fixed((3, 4))),
    C(selection.ScatterAdd, lambda g: selection.ScatterAdd.apply(
        selection.zeros((3, 2), g), g, dim=0, index=np.array([[0, 2], [2, 1]])),
      fixed((2, 2)), name="scatter_add_into_zeros"),
    C(selection.IndexSelect,
      lambda a: F.index_select(a, 0, Tensor._wrap(np.array([2, 0, 2]))), fixed((3, 2))),
    C(selection.IndexAdd, lambda g: selection.IndexAdd.apply(
        selection.zeros((2, 2), g), g, dim=0, index=np.array([1, 1, 0])), fixed((3, 2)),
      name="index_add_into_zeros"),
    C(selection.MaskedFill, lambda a: F.masked_fill(a, a > 0, 0.5) * a, one(), avoid=(0.0,)),
    C(selection.MaskedFill, lambda a, v: F.masked_fill(
        a, Tensor._wrap(np.array([True, False, True])), v), fixed((3,), ()),
      name="masked_fill_tensor"),
    C(selection.SortValues, lambda a: F.sort(a, dim=-1, descending=True).values * a,
      one(1), distinct=True),
    C(selection.TopkValues, lambda a: F.topk(a, 1, dim=0).values, one(1), distinct=True),
    C(pointwise.Log1p, lambda a: a.log1p(), one(), low=-0.5, high=2.0),
    C(pointwise.Expm1, lambda a: a.expm1(), one()),
    C(pointwise.Floor, lambda a: a.floor() * a, one(), avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)),
    C(pointwise.Ceil, lambda a: a.ceil() * a, one(), avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)),
    C(pointwise.Round, lambda a: a.round() * a, one(), avoid=(-1.5, -0.5, 0.5, 1.5)),
    # inside one rounding step (0.35, 0.45): hypothesis likes round numbers such as 0.05, where
    # a finite difference jumps the step
    C(pointwise.RoundDecimals, lambda a: F.round(a, decimals=1) + a, one(), low=0.36, high=0.44),
    C(pointwise.Trunc, lambda a: a.trunc() * a, one(), avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)),
    C(pointwise.Exp, lambda a: a.exp(), one()),
    C(pointwise.Log, lambda a: a.log(), one(), low=0.3, high=3.0),
    C(pointwise.Sqrt, lambda a: a.sqrt(), one(), low=0.3, high=3.0),
    C(pointwise.Rsqrt, lambda a: a.rsqrt(), one(), low=0.3, high=3.0),
    C(pointwise.Sin, lambda a: a.sin(), one()),
    C(pointwise.Cos, lambda a: a.cos(), one()),
    C(pointwise.Tanh, lambda a: a.tanh(), one()),
    C(pointwise.TanhBackward, lambda g, y: pointwise.TanhBackward.apply(g, y), same(2)),
    C(pointwise.Sigmoid, lambda a: a.sigmoid(), one()),
    C(pointwise.SigmoidBackward, lambda g, y: pointwise.SigmoidBackward.apply(g, y),
      same(2)),
    C(pointwise.Relu, lambda a: a.relu(), one(), avoid=(0.0,)),
    C(pointwise.ThresholdBackward, lambda g, y: pointwise.ThresholdBackward.apply(g, y),
      same(2), avoid=(0.0,)),
    C(pointwise.Abs, lambda a: a.abs(), one(), avoid=(0.0,)),
    C(pointwise.Sign, lambda a: a.sign() * a, one(), avoid=(0.0,)),
    C(pointwise.Sgn, lambda a: pointwise.Sgn.apply(a) * a * a, one(), avoid=(0.0,)),
    C(pointwise.Clamp, lambda a: a.clamp(-1.0, 1.0), one(), avoid=(-1.0, 1.0)),
    C(pointwise.ClampMin, lambda a: a.clamp_min(0.5), one(), avoid=(0.5,)),
    C(pointwise.ClampMax, lambda a: a.clamp_max(0.5), one(), avoid=(0.5,)),
    C(pointwise.ClampTensor, lambda a, low: a.clamp(min=low), pair, distinct=True),
    C(pointwise.ClampTensor, lambda a, low, high: a.clamp(low, high + 3.0), same(3),
      distinct=True, name="clamp_both"),
    C(pointwise.Where, lambda a, b: F.where(a > b, a * a, b), pair, distinct=True),
    C(reduce.Sum, lambda a: a.sum(), one()),
    C(reduce.SumDim, lambda a: a.sum(-1, keepdim=True) * a.sum((0,)).sum(), one(1)),
    C(reduce.Mean, lambda a: a.mean(), one()),
    C(reduce.MeanDim, lambda a: a.mean(0) + a.mean(-1, keepdim=True).sum(), one(1)),
    C(reduce.Prod, lambda a: a.prod(), one(), low=0.5),
    C(reduce.Prod, lambda a: a.prod(), fixed((4,)), avoid=(0.0,), name="prod_signs"),
    C(reduce.ProdDim, lambda a: a.prod(-1), one(1), low=0.5),
    C(reduce.MaxAll, lambda a: a.max(), one(), distinct=True),
    C(reduce.MinAll, lambda a: a.min(), one(), distinct=True),
    C(reduce.MaxDim, lambda a: a.max(0)[0], one(1), distinct=True),
    C(reduce.MinDim, lambda a: a.min(-1, keepdim=True).values, one(1), distinct=True),
    C(reduce.Maximum, lambda a, b: F.maximum(a, b), pair, distinct=True),
    C(reduce.Minimum, lambda a, b: F.minimum(a, b), pair, distinct=True),
    C(reduce.Softmax, lambda a: a.softmax(-1), one(1)),
    C(attention.SafeSoftmax, lambda a: attention.SafeSoftmax.apply(a, dim=a.ndim - 1), one(1)),
    # the flash kernel's backward is not differentiable (in PyTorch neither): first order only
    C(attention.ScaledDotProductFlashAttentionForCpu, nn_attention.scaled_dot_product_attention,
      attention_shapes, second_order=False),
    C(attention.ScaledDotProductFlashAttentionForCpu,
      lambda q, k, v: nn_attention.scaled_dot_product_attention(q, k, v, is_causal=True),
      attention_shapes, second_order=False, name="sdpa_causal"),
    C(attention.ScaledDotProductFlashAttentionForCpu, _masked_attention, attention_shapes,
      second_order=False, name="sdpa_mask"),
    C(attention.ScaledDotProductFlashAttentionForCpu,
      lambda q, k, v: nn_attention.scaled_dot_product_attention(q, k, v, enable_gqa=True),
      grouped_attention_shapes, second_order=False, name="sdpa_grouped_query"),
    C(reduce.SoftmaxBackwardData,
      lambda g, y: reduce.SoftmaxBackwardData.apply(g, y.softmax(-1), dim=y.ndim - 1),
      same(2, min_dims=1)),
    C(reduce.LogSoftmax, lambda a: a.log_softmax(0), one(1)),
    C(reduce.LogSoftmaxBackwardData,
      lambda g, y: reduce.LogSoftmaxBackwardData.apply(g, y.log_softmax(0), dim=0),
      same(2, min_dims=1)),
    C(reduce.LinalgVectorNorm, lambda a: a.norm(), one(), avoid=(0.0,)),
    C(reduce.LinalgVectorNorm, lambda a: a.norm(p=1, dim=-1), one(1), avoid=(0.0,),
      name="norm_p1"),
    C(reduce.LinalgVectorNorm, lambda a: a.norm(p=3, dim=0, keepdim=True), one(1),
      avoid=(0.0,), name="norm_p3"),
    C(reduce.LinalgVectorNorm, lambda a: F.norm(a, p=float("inf")), one(1), avoid=(0.0,),
      distinct=True, name="norm_inf"),
    C(shape.View, lambda a: a.view(-1), one()),
    C(shape.ReshapeAlias, lambda a: a[:, :2].reshape(-1, 1, 2), fixed((3, 4))),
    C(shape.UnsafeView, lambda a: a.t().reshape(-1), one(2, 2)),
    C(shape.Permute, lambda a: a.permute(2, 0, 1), one(3, 3)),
    C(shape.Transpose, lambda a: a.transpose(0, -1), one(1)),
    C(shape.T, lambda a: a.t(), one(0, 2)),
    C(shape.Squeeze, lambda a: a.unsqueeze(0).squeeze(), one()),
    C(shape.SqueezeDim, lambda a: a.unsqueeze(1).squeeze(1), one(1)),
    C(shape.SqueezeDims, lambda a: a.unsqueeze(0).squeeze((0,)), one()),
    C(shape.SqueezeInplaceDim, lambda a, b: a @ b, fixed((2,), (2, 3))),
    C(shape.Unsqueeze, lambda a: a.unsqueeze(-1), one()),
    C(shape.Expand, lambda a: a.expand(2, *a.shape), one()),
    C(shape.Repeat, lambda a: a.repeat(2, 1, 3), one(0, 2)),
    C(shape.Cat, lambda a, b: F.cat([a, b * 2, a], dim=-1), same(2, min_dims=1)),
    C(shape.Stack, lambda a, b: F.stack([a, b], dim=0), same(2)),
    C(shape.Unbind, lambda a: F.stack([p * (i + 1) for i, p in enumerate(a.unbind(-1))]),
      one(1)),
    C(shape.Unbind, lambda a: a.unbind(0)[0], one(1), name="unbind_one_used"),
    C(shape.Split, lambda a: F.cat([p * (i + 1) for i, p in enumerate(a.split(2))]), one(1)),
    C(shape.SplitWithSizes, lambda a: a.split([1, 2], dim=-1)[1] * 3, fixed((2, 3))),
    C(shape.Clone, lambda a: a.clone() * a, one()),
    C(shape.Alias, lambda a: a[...] * a, one()),
    C(shape.ToCopy, lambda a: a.float().double() * a, one(), eps=1e-3, second_order=False),
    C(shape.Fill, lambda a: (a * 1).fill_(2.0) * a, one()),
    C(shape.Zero, lambda a: (a * 1).zero_() + a, one()),
    C(shape.FillTensor, lambda a, v: (a * 1).fill_(v) * a, lambda draw: [sizes(draw), ()]),
    C(shape.Copy, lambda a, b: (a * 1).copy_(b) * a,
      lambda draw: [a := sizes(draw), broadcast_to(draw, a)]),
    C(index.Select, lambda a: a[0] * a[-1], one(1)),
    C(index.Select, lambda a: a[..., -1].select(0, 0), one(2), name="select_dims"),
    C(index.Slice, lambda a: a[1:] * a[:-1], one(1)),
    C(index.Slice, lambda a: a[:, ::2], one(2), name="slice_step"),
    C(index.Index, lambda a: a[[0, 0, -1]], one(1)),
    C(index.Index, lambda a: a[a > 0], one(1), avoid=(0.0,), name="index_mask"),
    C(index.IndexPut, lambda a, b: _index_put(a, b),
      lambda draw: [(2,) + sizes(draw, 0, 2)] * 2),
    C(index.Scatter, lambda g: index.Scatter.apply(g, shape=(3, 2), key=([0, 2, 0],)),
      fixed((3, 2))),
    C(index.SelectScatter,
      lambda g: index.SelectScatter.apply(g, shape=(3, 2), key=(1, Ellipsis)), fixed((2,))),
    C(index.SliceScatter,
      lambda g: index.SliceScatter.apply(g, shape=(3, 2), key=(slice(1, None),)),
      fixed((2, 2))),
    C(index.AsStrided, in_place_on_view, lambda draw: [(2,) + sizes(draw, 0, 2), ()]),
    C(index.AsStrided, lambda a: index.take_flat(a, np.array([[3, 0], [1, 1]])), fixed((2, 2)),
      name="as_strided_direct"),
    C(index.PutFlat, lambda a, v: index.put_flat(a, np.array([2, 0]), v), fixed((2, 2), (2,))),
    # activations (engine/ops/activation.py) and their derivative ops
    C(activation.AddScalar, lambda a: activation.AddScalar.apply(a, scalar=1.5) * a, one()),
    C(activation.SubScalar, lambda a: activation.SubScalar.apply(a, scalar=1.5) * a, one()),
    C(loss.SoftMarginLoss, lambda a: loss.SoftMarginLoss.apply(
        a, Tensor._wrap(np.sign(np.arange(a.numel()).reshape(a.shape_tuple) % 2 - 0.5)),
        reduction="mean"), one()),
    C(reduce.Norm, lambda a: reduce.Norm.apply(a, ord=2.0, dims=(a.ndim - 1,), keepdim=False),
      one(1), avoid=(0.0,)),
    C(activation.Gelu, lambda a: nn_functional.gelu(a), one()),
    C(activation.Gelu, lambda a: nn_functional.gelu(a, approximate="tanh"), one(),
      name="gelu_tanh"),
    C(activation.GeluBackward, lambda g, x: activation.GeluBackward.apply(g, x), same(2)),
    C(activation.GeluBackward, lambda g, x: activation.GeluBackward.apply(
        g, x, approximate="tanh"), same(2), name="gelu_backward_tanh"),
    C(activation.Elu, lambda a: nn_functional.elu(a, alpha=0.7), one(), avoid=(0.0,)),
    C(activation.Elu, lambda a: nn_functional.selu(a), one(), avoid=(0.0,), name="selu"),
    C(activation.Celu, lambda a: nn_functional.celu(a, alpha=2.0), one(), avoid=(0.0,)),
    C(activation.EluBackward, lambda g, x: activation.EluBackward.apply(
        g, x, params=(0.7, 1.2, 0.5)), same(2), avoid=(0.0,)),
    C(activation.LeakyRelu, lambda a: nn_functional.leaky_relu(a, 0.2), one(), avoid=(0.0,)),
    C(activation.LeakyReluBackward, lambda g, x: activation.LeakyReluBackward.apply(
        g, x, slope=0.2), same(2), avoid=(0.0,)),
    C(activation.Hardtanh, lambda a: nn_functional.hardtanh(a, -1.0, 1.5), one(),
      avoid=(-1.0, 1.5)),
    C(activation.HardtanhBackward, lambda g, x: activation.HardtanhBackward.apply(
        g, x, bounds=(-1.0, 1.0)), same(2), avoid=(-1.0, 1.0)),
    C(activation.Threshold, lambda a: nn_functional.threshold(a, 0.3, -2.0), one(),
      avoid=(0.3,)),
    C(activation.ThresholdBackward, lambda g, x: activation.ThresholdBackward.apply(
        g, x, threshold=0.3), same(2), avoid=(0.3,)),
    C(activation.Softplus, lambda a: nn_functional.softplus(a, beta=2.0, threshold=3.0), one(),
      avoid=(1.5,)),
    C(activation.SoftplusBackward, lambda g, x: activation.SoftplusBackward.apply(
        g, x, params=(1.0, 20.0)), same(2)),
    C(activation.Silu, lambda a: nn_functional.silu(a), one()),
    C(activation.LogSigmoid, lambda a: nn_functional.logsigmoid(a), one()),
    C(activation.LogSigmoidBackward, lambda g, x: activation.LogSigmoidBackward.apply(g, x),
      same(2)),
    C(activation.Hardswish, lambda a: nn_functional.hardswish(a), one(), low=-4.0, high=4.0,
      avoid=(-3.0, 3.0)),
    C(activation.HardswishBackward, lambda g, x: activation.HardswishBackward.apply(g, x),
      same(2), low=-4.0, high=4.0, avoid=(-3.0, 3.0)),
    C(activation.Hardsigmoid, lambda a: nn_functional.hardsigmoid(a), one(), low=-4.0,
      high=4.0, avoid=(-3.0, 3.0)),
    C(activation.HardsigmoidBackward, lambda g, x: activation.HardsigmoidBackward.apply(g, x),
      same(2), low=-4.0, high=4.0, avoid=(-3.0, 3.0)),
    C(activation.Shrink, lambda a: nn_functional.softshrink(a, 0.5), one(),
      avoid=(-0.5, 0.5)),
    C(activation.Shrink, lambda a: nn_functional.hardshrink(a, 0.5) * a, one(),
      avoid=(-0.5, 0.5), name="hardshrink"),
    C(activation.ShrinkBackward, lambda g, x: activation.ShrinkBackward.apply(
        g, x, lambd=0.5, soft=True), same(2), avoid=(-0.5, 0.5)),
    C(activation.Mish, lambda a: nn_functional.mish(a), one()),
    C(activation.PreluKernel, lambda a, w: nn_functional.prelu(a, w) * a,
      fixed((2, 3), (3,)), avoid=(0.0,)),
    C(activation.ConstantPad, lambda a: nn_functional.pad(a, (1, 2, 0, 1)) * 2, one(2, 3)),
    C(activation.ConstantPad, lambda a: nn_functional.pad(a, (-1, 1)),
      lambda draw: [(draw(st.integers(2, 3)),)], name="pad_crop"),
    # more elementwise functions (engine/ops/pointwise.py)
    C(pointwise.Tan, lambda a: a.tan(), one(), low=-1.2, high=1.2),
    C(pointwise.Atan, lambda a: a.atan(), one()),
    C(pointwise.Asin, lambda a: a.asin(), one(), low=-0.8, high=0.8),
    C(pointwise.Acos, lambda a: a.acos(), one(), low=-0.8, high=0.8),
    C(pointwise.Sinh, lambda a: a.sinh(), one()),
    C(pointwise.Cosh, lambda a: a.cosh(), one()),
    C(special.Erf, lambda a: a.erf(), one()),
    C(special.Erfinv, lambda a: a.erfinv(), one(), low=-0.8, high=0.8),
    C(special.Lgamma, lambda a: a.lgamma(), one(), low=0.3, high=3.0),
    C(special.Digamma, lambda a: a.digamma(), one(), low=0.3, high=3.0),
    C(special.Polygamma, lambda a: special.polygamma(1, a), one(), low=0.3, high=3.0),
    C(pointwise.Asinh, lambda a: a.asinh(), one()),
    C(pointwise.Acosh, lambda a: a.acosh(), one(), low=1.2, high=3.0),
    C(pointwise.Atanh, lambda a: a.atanh(), one(), low=-0.8, high=0.8),
    C(pointwise.Exp2, lambda a: a.exp2(), one()),
    C(pointwise.Log2, lambda a: a.log2(), one(), low=0.3, high=3.0),
    C(pointwise.Log10, lambda a: a.log10(), one(), low=0.3, high=3.0),
    C(pointwise.Frac, lambda a: a.frac() * a, one(), avoid=(-2.0, -1.0, 0.0, 1.0, 2.0)),
    C(pointwise.Atan2, lambda a, b: F.atan2(a, b), pair, low=0.3, high=2.0),
    C(pointwise.Hypot, lambda a, b: F.hypot(a, b), pair, low=0.3, high=2.0),
    C(pointwise.Lerp, lambda a, b: F.lerp(a, b, 0.3), pair),
    C(pointwise.Lerp, lambda a, b: F.lerp(a, b, 0.8), pair, name="lerp_far"),
    C(pointwise.LerpTensor, lambda a, b, w: F.lerp(a, b, w), same(3)),
    C(decompositions.LinalgSolveEx, lambda a, b: F.solve(a + Tensor._wrap(np.eye(3) * 4), b),
      fixed((3, 3), (3,))),
    C(decompositions.LinalgSolveEx, lambda a, b: F.solve(a + Tensor._wrap(np.eye(3) * 4), b),
      fixed((3, 3), (3, 2)), name="solve_matrix"),
    # matrix-shaped ops (engine/ops/matrix.py), and a few others
    C(matrix.Tril, lambda a: a.tril(), one(2, 3)),
    C(matrix.Triu, lambda a: a.triu(1), one(2, 3)),
    C(shape.Roll, lambda a: a.roll(1, 0), one(1)),
    C(shape.Roll, lambda a: a.roll(2), one(), name="roll_flat"),
    C(matrix.Diagonal, lambda a: a.diagonal(0, -1, 0), one(2, 3)),
    C(matrix.DiagonalCopy, lambda a: a.diag(1), one(2, 2)),
    C(matrix.DiagonalBackward, lambda g: matrix.DiagonalBackward.apply(
        g, shape=(2, 3), offset=1, dims=(0, 1)), fixed((2,))),
    C(matrix.DiagEmbed, lambda a: F.diag(a, -1), one(1, 1)),
    C(matrix.DiagEmbed, lambda a: F.diag_embed(a, 1, 0, 2), fixed((2, 3)), name="diag_embed"),
    C(matrix.Trace, lambda a: a.trace(), one(2, 2)),
    C(statistics.Cumprod, lambda a: a.cumprod(0), one(1), low=0.5),
    C(statistics.Cumprod, lambda a: a.cumprod(-1), fixed((2, 4)), avoid=(0.0,),
      name="cumprod_signs"),
    C(matrix.Einsum, lambda a, b: F.einsum("ij,jk->ik", a, b), matrices),
    C(matrix.Einsum, lambda a: F.einsum("ij->", a), one(2, 2), name="einsum_sum"),
    C(matrix.Einsum, lambda a: F.einsum("ii->i", a), fixed((3, 3)), name="einsum_diag"),
    C(matrix.Einsum, lambda a, b: F.einsum("...j,...j", a, b), same(2, 1),
      name="einsum_ellipsis"),
    C(matrix.LinalgCross, lambda a, b: F.cross(a, b, dim=-1), fixed((2, 3), (2, 3))),
    C(statistics.Median, lambda a: a.median(), one(), distinct=True),
    C(statistics.MedianDim, lambda a: a.median(0).values, one(1), distinct=True),
    C(statistics.KthvalueDim, lambda a: a.kthvalue(2, 1, keepdim=True).values,
      fixed((2, 5)), distinct=True),
    C(selection.Take, lambda a: a.take(Tensor._wrap(np.array([0, 3, 0]))), fixed((2, 2))),
    C(selection.PutAccumulate, lambda g: selection.PutAccumulate.apply(
        g, index=np.array([1, 1, 0]), shape=(2,)), fixed((3,))),
    C(selection.MaskedSelect, lambda a: a.masked_select(a > 0), one(1), avoid=(0.0,)),
    C(selection.MaskedScatter, lambda g: selection.MaskedScatter.apply(
        g, mask=np.array([True, False, True])), fixed((2,))),
    C(selection.ScatterValue, lambda a: a.scatter(
        1, Tensor._wrap(np.array([[0], [2]])), 0.5) * a, fixed((2, 3))),
    C(selection.ScatterAdd, lambda a, s: a.scatter_add(
        0, Tensor._wrap(np.array([[1, 0, 1]])), s), fixed((2, 3), (1, 3))),
    C(selection.IndexAdd, lambda a, s: a.index_add(
        0, Tensor._wrap(np.array([1, 1])), s, alpha=2.0), fixed((3, 2), (2, 2))),
    C(selection.IndexCopy, lambda a, s: a.index_copy(
        1, Tensor._wrap(np.array([2, 0])), s) * a, fixed((2, 3), (2, 2))),
    C(convolution.Convolution, lambda x, w, b: F.conv2d(
        x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2),
      fixed((1, 4, 4, 4), (4, 2, 2, 2), (4,))),
    C(convolution.Convolution, lambda x, w: F.conv1d(x, w, padding="same"),
      fixed((2, 2, 4), (3, 2, 3)), name="conv1d_same"),
    C(convolution.Convolution, lambda x, w, b: F.conv_transpose2d(
        x, w, b, stride=2, padding=1, output_padding=1, groups=2),
      fixed((1, 2, 2, 3), (2, 2, 2, 2), (4,)), name="conv_transpose2d"),
    C(convolution.Im2Col, lambda x: F.unfold(x, 2, padding=1, stride=2),
      fixed((1, 2, 3, 3))),
    C(convolution.Col2Im, lambda c: F.fold(c, (3, 3), kernel_size=2), fixed((1, 4, 4))),
    C(pixel_shuffle.PixelShuffle, lambda x: F.pixel_shuffle(x, 2), fixed((1, 8, 2, 3))),
    C(pixel_shuffle.PixelUnshuffle, lambda x: F.pixel_unshuffle(x, 2), fixed((2, 4, 2))),
    C(pooling.MaxPool, lambda x: F.max_pool2d(x, 2, stride=1, padding=1), fixed((1, 2, 3, 3)),
      distinct=True),
    C(pooling.MaxPool, lambda x: F.max_pool1d(x, 3, 2, 1, ceil_mode=True), fixed((2, 6)),
      distinct=True, name="max_pool1d"),
    C(pooling.AvgPool, lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True,
                                              count_include_pad=False), fixed((2, 4, 5))),
    C(pooling.AdaptiveAvgPool, lambda x: F.adaptive_avg_pool2d(x, (2, 3)), fixed((1, 3, 5, 4))),
    C(norm.NativeBatchNorm, lambda x, w, b: norm.batch_norm(x, None, None, w, b, training=True),
      fixed((3, 2, 2), (2,), (2,)), name="batch_norm_training"),
    C(norm.NativeBatchNorm, lambda x, w, b: norm.batch_norm(
        x, Tensor._wrap(np.array([0.5, -1.0])), Tensor._wrap(np.array([2.0, 0.5])), w, b),
      fixed((2, 2, 3), (2,), (2,)), name="batch_norm_eval"),
    C(norm.NativeGroupNorm, lambda x, w, b: norm.group_norm(x, 2, w, b),
      fixed((2, 4, 3), (4,), (4,)), distinct=True),
    C(norm.NativeGroupNorm, lambda x: norm.group_norm(x, 1, eps=0.1), fixed((1, 2, 2, 2)),
      distinct=True, name="group_norm_no_affine"),
    C(upsample.UpsampleNearest1D, lambda x: upsampling.interpolate(x, size=5), fixed((1, 2, 3))),
    C(upsample.UpsampleNearest2D, lambda x: upsampling.interpolate(x, scale_factor=(1.5, 0.7)),
      fixed((1, 1, 3, 4))),
    C(upsample.UpsampleNearest3D, lambda x: upsampling.interpolate(x, size=(3, 2, 2)),
      fixed((1, 1, 2, 3, 1))),
    C(upsample.UpsampleNearestExact1D, lambda x: upsampling.interpolate(
        x, size=4, mode="nearest-exact"), fixed((2, 1, 3))),
    C(upsample.UpsampleNearestExact2D, lambda x: upsampling.interpolate(
        x, size=(5, 2), mode="nearest-exact"), fixed((1, 2, 3, 3))),
    C(upsample.UpsampleNearestExact3D, lambda x: upsampling.interpolate(
        x, scale_factor=2, mode="nearest-exact"), fixed((1, 1, 1, 2, 2))),
    C(upsample.UpsampleLinear1D, lambda x: upsampling.interpolate(x, size=5, mode="linear"),
      fixed((1, 2, 3))),
    C(upsample.UpsampleBilinear2D, lambda x: upsampling.interpolate(
        x, size=(4, 3), mode="bilinear", align_corners=True), fixed((1, 2, 3, 2))),
    C(upsample.UpsampleBilinear2D, lambda x: upsampling.interpolate(
        x, scale_factor=(1.7, 0.6), mode="bilinear"), fixed((1, 1, 3, 4)),
      name="bilinear_scale_factor"),
    C(upsample.UpsampleTrilinear3D, lambda x: upsampling.interpolate(
        x, size=(2, 3, 3), mode="trilinear"), fixed((1, 1, 2, 2, 3))),
    C(upsample.UpsampleBicubic2D, lambda x: upsampling.interpolate(
        x, size=(5, 3), mode="bicubic"), fixed((1, 1, 3, 4))),
    # the derivative op itself (its own derivative is the resize again)
    C(upsample.UpsampleBilinear2D.gradient_op, lambda g: upsample.UpsampleBilinear2D.gradient_op
      .apply(g, input_shape=(1, 1, 2, 3), sizes=(3, 4), scales=(None, None),
             align_corners=False), fixed((1, 1, 3, 4)), name="bilinear_gradient"),
    C(recurrent.TransposeInPlace, lambda a: recurrent.TransposeInPlace.apply(a, dim0=0, dim1=1),
      one(2, 3)),
    # the LSTM layer's backward is on arrays (like PyTorch's, not differentiable again)
    C(recurrent.LstmLayer, lambda x, w, u, b, c, h0, c0: F.cat([F.flatten(o) for o in (
        recurrent.LstmLayer.apply(x, w, u, b, c, h0, c0, reverse=True))]),
      fixed((3, 2, 2), (8, 2), (8, 2), (8,), (8,), (2, 2), (2, 2)), second_order=False),
    C(recurrent.PackPadded, lambda x: utils_rnn.pack_padded_sequence(x, [3, 1], True).data,
      fixed((2, 3, 2))),
    C(arith.Addcmul, lambda a, b, c: F.addcmul(a, b, c, value=0.5), same(3)),
    C(arith.Addcdiv, lambda a, b, c: F.addcdiv(a, b, c, value=2.0), same(3), low=0.5),
    C(pointwise.Deg2Rad, F.deg2rad, one()),
    C(pointwise.Rad2Deg, F.rad2deg, one()),
    C(pointwise.NanToNum, lambda a: F.nan_to_num(a * a), one()),
    C(statistics.VarMean, lambda a: F.add(*F.var_mean(a, dim=-1)), fixed((3, 4))),
    C(statistics.StdMean, lambda a: F.mul(*F.std_mean(a, dim=0)), fixed((4, 2)),
      distinct=True),
    C(statistics.StdMean, lambda a: _combined(F.std_mean(a, dim=0, keepdim=True)),
      fixed((4, 2)), distinct=True, name="std_mean_keepdim"),
    C(reduce.Dist, F.dist, same(2), distinct=True),
    C(reduce.Dist, lambda a, b: F.dist(a, b, 3), same(2, 1), distinct=True, name="dist_p3"),
    C(shape.UnsqueezeInplace, lambda a: (a * 1).unsqueeze_(0) ** 2, one()),
    C(shape.SqueezeInplace, lambda a: (a.unsqueeze(0) * 1).squeeze_() ** 2, one()),
    C(shape.SqueezeInplaceDims, lambda a: (a.unsqueeze(0) * 1).squeeze_((0,)) ** 2, one()),
    C(shape.TransposeInplace, lambda a: (a * 1).transpose_(0, -1) ** 2, one(1)),
    C(shape.TInplace, lambda a: (a * 1).t_() ** 2, one(0, 2)),
    C(decompositions.LinalgInvEx, lambda a: F.inverse(a + Tensor._wrap(3 * np.eye(3))),
      fixed((3, 3)), low=-0.5, high=0.5),
    C(decompositions.LinalgPinv, F.pinverse, fixed((3, 2)), distinct=True),
    C(decompositions.LinalgPinv, F.pinverse, fixed((2, 4)), distinct=True, name="pinv_wide"),
    # det and svd: derivatives on arrays, refused with create_graph (first order only)
    C(decompositions.LinalgDet, F.det, fixed((2, 3, 3)), second_order=False),
    C(decompositions.LinalgSvd, lambda a: F.svd(a).S, fixed((3, 2)), distinct=True,
      second_order=False),
    C(decompositions.LinalgSvd, lambda a: (lambda r: F.cat([F.flatten(r.U * r.U),
                                                            F.flatten(r.V * r.V), r.S]))(
        F.svd(a)), fixed((2, 3)), distinct=True, second_order=False, name="svd_vectors"),
]


def _index_put(a: Tensor, b: Tensor) -> Tensor:
    y = a * 1
    y[[0, -1]] = b[0:2] * 2
    return y * a


def _check_id(check: Check) -> str:
    return check.name or check.op.__name__


# --- the checks -----------------------------------------------------------------------------

@st.composite
def inputs(draw: Any, check: Check) -> list[np.ndarray]:
    arrays = []
    for shape_ in check.shapes(draw):
        n = int(np.prod(shape_, dtype=np.int64))
        values = draw(st.lists(st.floats(check.low, check.high), min_size=n, max_size=n))
        arrays.append(np.array(values, dtype=np.float64).reshape(shape_))
    flat = np.concatenate([a.ravel() for a in arrays]) if arrays else np.zeros(0)
    for kink in check.avoid:
        flat = np.where(np.abs(flat - kink) < 0.05, kink + 0.1 + 0.01 * np.arange(flat.size),
                        flat)
    if check.distinct and flat.size:
        # spread ties apart: equal values would sit on a kink of max/min/clamp/where
        flat = flat + 0.07 * np.argsort(np.argsort(flat, kind="stable"))
    out, start = [], 0
    for a in arrays:
        out.append(flat[start:start + a.size].reshape(a.shape))
        start += a.size
    return out


def leaves(arrays: list[np.ndarray]) -> list[Tensor]:
    return [Tensor._wrap(a.copy()).requires_grad_() for a in arrays]


def value(check: Check, arrays: list[np.ndarray]) -> np.ndarray:
    return np.asarray(check.function(*[Tensor._wrap(a) for a in arrays]).array,
                      dtype=np.float64)


def numerical_gradient(f: Callable[[list[np.ndarray]], float], arrays: list[np.ndarray],
                       eps: float) -> list[np.ndarray]:
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for i in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[k][i] += eps
            minus[k][i] -= eps
            g[i] = (f(plus) - f(minus)) / (2 * eps)
        grads.append(g)
    return grads


def assert_close(analytic: list[Any], numeric: list[np.ndarray], what: str) -> None:
    for k, (a, n) in enumerate(zip(analytic, numeric, strict=True)):
        got = np.zeros_like(n) if a is None else np.asarray(a.array, dtype=np.float64)
        assert got.shape == n.shape, f"{what} of input {k}: shape {got.shape} != {n.shape}"
        np.testing.assert_allclose(got, n, rtol=2e-4, atol=2e-5,
                                   err_msg=f"{what} of input {k}")


@pytest.mark.parametrize("check", CHECKS, ids=[_check_id(c) for c in CHECKS])
def test_gradient_matches_finite_differences(check: Check) -> None:
    @settings(max_examples=12, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def run(data: Any) -> None:
        arrays = data.draw(inputs(check))
        upstream = np.random.default_rng(0).normal(size=value(check, arrays).shape)

        def weighted(xs: list[np.ndarray]) -> float:
            return float((value(check, xs) * upstream).sum())

        xs = leaves(arrays)
        out = check.function(*xs)
        grads = F.grad(out, xs, grad_outputs=Tensor._wrap(upstream),
                       create_graph=check.second_order, allow_unused=True)
        assert_close(list(grads), numerical_gradient(weighted, arrays, check.eps), "gradient")
        if not check.second_order:
            return
        # second derivatives: the gradient of <grad, v> by create_graph vs by differences
        directions = [np.random.default_rng(1).normal(size=a.shape) for a in arrays]
        used = [(g, v) for g, v in zip(grads, directions, strict=True)
                if g is not None and g.requires_grad]
        if not used:
            return
        inner = F.sum(F.stack([F.sum(g * Tensor._wrap(v)) for g, v in used]))
        second = F.grad(inner, xs, allow_unused=True)

        def grad_dot_v(ys: list[np.ndarray]) -> float:
            zs = leaves(ys)
            gs = F.grad(check.function(*zs), zs, grad_outputs=Tensor._wrap(upstream),
                        allow_unused=True)
            return float(sum((g.array * v).sum() for g, v in zip(gs, directions, strict=True)
                             if g is not None))

        assert_close(list(second), numerical_gradient(grad_dot_v, arrays, 1e-5),
                     "second derivative")

    run()


def _all_ops() -> set[type[Function]]:
    found: set[type[Function]] = set()
    for info in pkgutil.iter_modules(engine.ops.__path__):
        module = importlib.import_module(f"engine.ops.{info.name}")
        for item in vars(module).values():
            if inspect.isclass(item) and issubclass(item, Function) and (
                    item.__module__ == module.__name__):
                found.add(item)
    return found


def test_every_op_has_a_check() -> None:
    """Adding a Function to engine/ops without an entry in CHECKS fails here."""
    differentiable = {op for op in _all_ops() if op.differentiable
                      and not getattr(op, "no_derivative", False)}
    missing = sorted(op.__name__ for op in differentiable - {c.op for c in CHECKS})
    assert not missing, f"ops without a finite-difference check: {missing}"


@pytest.mark.parametrize("dim", [None, 0])
def test_unique_is_recorded_but_has_no_derivative(dim: Any) -> None:
    a = Tensor._wrap(np.array([[2.0, 1.0], [2.0, 1.0]])).requires_grad_()
    values = F.unique(a, dim=dim)
    kernel = "_unique2" if dim is None else "unique_dim"
    assert values.grad_fn.name() == ("Unique2Backward0" if dim is None else "UniqueDimBackward0")
    with pytest.raises(NotImplementedError, match=f"the derivative for '{kernel}' is not"):
        values.sum().backward()


def test_heaviside_is_recorded_but_has_no_derivative() -> None:
    x = Tensor._wrap(np.array([-1.0, 0.0, 2.0])).requires_grad_()
    step = F.heaviside(x, Tensor._wrap(np.array(0.5)))
    assert step.grad_fn.name() == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::heaviside is not implemented"):
        step.sum().backward()
