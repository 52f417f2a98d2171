"""The margin and embedding losses of `torch.nn.functional` and their modules: margin ranking,
hinge embedding, cosine embedding, soft margin, multilabel soft margin and triplet margin, with
`pairwise_distance` they are built on. Each is composed as ATen (or torch's Python) composes
it, so the graph shows the same nodes (ClampMinBackward0, WhereBackward0, NormBackward1, ...)."""

from __future__ import annotations

import numpy as np

from engine import creation
from engine import functional as F
from engine.nn.functional import logsigmoid
from engine.nn.loss import _Loss, _reduction
from engine.nn.module import Module
from engine.ops import loss, reduce
from engine.ops.activation import AddScalar, SubScalar
from engine.tensor import Tensor

COSINE_EPSILON = 1e-12


def _reduce(output: Tensor, reduction: str) -> Tensor:
    """ATen's apply_loss_reduction."""
    if reduction == "mean":
        return F.mean(output)
    if reduction == "sum":
        return F.sum(output)
    if reduction != "none":
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return output


def _constant(value: float, like: Tensor) -> Tensor:
    """A number ATen turns into a tensor of the input's dtype (`margin - x`: SubBackward0)."""
    return Tensor._wrap(np.asarray(value, dtype=like.array.dtype))


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """at::norm(x1 - x2 + eps, p, last dim, keepdim)."""
    last = max(x1.ndim, x2.ndim) - 1
    difference = AddScalar.apply(F.sub(x1, x2), scalar=eps)
    if last < 0:
        return reduce.Norm.apply(difference, ord=float(p), dims=None, keepdim=keepdim)
    return reduce.Norm.apply(difference, ord=float(p), dims=(last,), keepdim=keepdim)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.shape}, input2: {input2.shape}, "
                           f"target: {target.shape} ")
    output = F.clamp_min(AddScalar.apply(F.mul(-target, F.sub(input1, input2)), scalar=margin), 0)
    return _reduce(output, reduction)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,  # noqa: A002
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    zeros = creation.zeros_like(input)
    margin_clamp = F.clamp_min(F.sub(_constant(margin, input), input), 0)
    output_margin = F.where(F.ne(target, 1), margin_clamp, zeros)
    output_self = F.where(F.ne(target, -1), input, zeros)
    return _reduce(F.add(output_margin, output_self), reduction)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average: bool | None = None, reduce: bool | None = None,
                          reduction: str = "mean") -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    dim = target.ndim
    if input1.shape_tuple != input2.shape_tuple:
        raise RuntimeError("cosine_embedding_loss: Input1 and Input2 must have the same shape")
    if input1.ndim != dim + 1:
        raise RuntimeError(f"cosine_embedding_loss: {dim + 1}D target tensor expects "
                           f"{dim + 1}D input tensors, but found inputs with sizes "
                           f"{list(input1.shape_tuple)} and {list(input2.shape_tuple)}.")
    prod_sum = F.sum(F.mul(input1, input2), dim)
    mag_square1 = AddScalar.apply(F.sum(F.mul(input1, input1), dim), scalar=COSINE_EPSILON)
    mag_square2 = AddScalar.apply(F.sum(F.mul(input2, input2), dim), scalar=COSINE_EPSILON)
    cos = F.div(prod_sum, F.sqrt(F.mul(mag_square1, mag_square2)))
    zeros = creation.zeros_like(cos)
    positive = F.sub(_constant(1, cos), cos)
    negative = F.clamp_min(SubScalar.apply(cos, scalar=margin), 0)
    output = F.add(F.where(F.eq(target, 1), positive, zeros),
                   F.where(F.eq(target, -1), negative, zeros))
    return _reduce(output, reduction)


def soft_margin_loss(input: Tensor, target: Tensor,  # noqa: A002
                     size_average: bool | None = None, reduce: bool | None = None,
                     reduction: str = "mean") -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    if target.requires_grad:
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect "
                           "to argument 'target'. This input cannot have requires_grad True.")
    return loss.SoftMarginLoss.apply(input, target, reduction=reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor,  # noqa: A002
                                weight: Tensor | None = None,
                                size_average: bool | None = None, reduce: bool | None = None,
                                reduction: str = "mean") -> Tensor:
    """torch's Python: -(t logsigmoid(x) + (1 - t) logsigmoid(-x)), weighted, summed over the
    classes and divided by their count, then the reduction."""
    reduction = _reduction(size_average, reduce, reduction, old_name=False)
    output = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        output = output * weight
    class_dim = input.ndim - 1
    output = output.sum(dim=class_dim) / input.shape_tuple[class_dim]
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(output, reduction)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average: bool | None = None,
                        reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = F.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    output = F.clamp_min(F.sub(AddScalar.apply(dist_pos, scalar=margin), dist_neg), 0)
    return _reduce(output, reduction)


class _PairLoss(_Loss):
    """A loss of two inputs and a target (`loss(x1, x2, y)`)."""

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:  # type: ignore[override]
        return type(self).function(input1, input2, target,  # type: ignore[misc]
                                   **{name: getattr(self, name) for name in self.arguments})


class MarginRankingLoss(_PairLoss):
    function = staticmethod(margin_ranking_loss)
    arguments: tuple[str, ...] = ("margin", "reduction")

    def __init__(self, margin: float = 0.0, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin


class CosineEmbeddingLoss(MarginRankingLoss):
    function = staticmethod(cosine_embedding_loss)


class HingeEmbeddingLoss(_Loss):
    function = staticmethod(hinge_embedding_loss)
    arguments: tuple[str, ...] = ("margin", "reduction")

    def __init__(self, margin: float = 1.0, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin


class SoftMarginLoss(_Loss):
    function = staticmethod(soft_margin_loss)


class MultiLabelSoftMarginLoss(_Loss):
    function = staticmethod(multilabel_soft_margin_loss)
    arguments: tuple[str, ...] = ("weight", "reduction")

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.weight = weight


class TripletMarginLoss(_PairLoss):
    function = staticmethod(triplet_margin_loss)
    arguments: tuple[str, ...] = ("margin", "p", "eps", "swap", "reduction")

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap


class PairwiseDistance(Module):
    """pairwise_distance as a module (`nn.PairwiseDistance(p=2)(x1, x2)`)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"norm", "eps", "keepdim"}

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """cosine_similarity as a module (`nn.CosineSimilarity(dim=1)(x1, x2)`)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"dim", "eps"}

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
