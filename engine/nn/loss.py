"""The loss functions of `torch.nn.functional` and their modules (`nn.MSELoss`,
`nn.CrossEntropyLoss`, ...), with torch's reductions, legacy `size_average`/`reduce` arguments
and messages."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from engine import budget, dtypes
from engine import functional as F
from engine.nn.module import Module
from engine.ops import arith, loss
from engine.size import Size
from engine.tensor import Tensor


def _legacy_reduction(size_average: bool | None, reduce: bool | None) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "none" if not reduce else "mean" if size_average else "sum"
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", UserWarning, stacklevel=3)
    return reduction


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """torch warns when the shapes differ, then broadcasts (ExpandBackward0 where needed)."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape_tuple != input.shape_tuple:
        common = _common_shape(input, target, stacklevel=3)
        if input.shape_tuple != common:
            input = F.expand(input, common)
        if target.shape_tuple != common:
            target = F.expand(target, common)
    return F.mse_loss(input, target, reduction=reduction)


def _reduction(size_average: bool | None, reduce: bool | None, reduction: str,
               old_name: bool = True) -> str:
    """The reduction a loss applies: the legacy size_average/reduce pair's, else `reduction`;
    'elementwise_mean', the old name of 'mean', taken with PyTorch's warning where the loss
    hands its reduction to ATen (_Reduction.get_enum; `old_name=False` where it does not)."""
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    if reduction == "elementwise_mean" and old_name:
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' "
                      "instead.", UserWarning, stacklevel=3)
        return "mean"
    return reduction


def _array(value: Tensor | None) -> np.ndarray | None:
    return None if value is None else value.array


def l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
            reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """torch composes it: (input - target).abs(), then mean or sum."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape_tuple != input.shape_tuple:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                      f"size ({input.shape}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=2)
    loss = F.abs(F.sub(input, target))
    if reduction == "none":
        return loss
    if reduction not in ("mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return F.mean(loss) if reduction == "mean" else F.sum(loss)


KL_DIV_MEAN_WARNING = (
    "reduction: 'mean' divides the total loss by both the batch size and the support size."
    "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
    "'mean' will be changed to behave the same as 'batchmean' in the next major release.")


def kl_div(input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
           reduce: bool | None = None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """torch composes it: xlogy(target, target) - target * input (or exp(target) *
    (target - input) for a log target), then the reduction; batchmean is sum / batch size."""
    named = reduction
    reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("mean", "batchmean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "mean" and named != "elementwise_mean":  # torch warns for 'mean' itself
        warnings.warn(KL_DIV_MEAN_WARNING, UserWarning, stacklevel=2)
    if log_target:
        out = F.mul(F.exp(target), F.sub(target, input))
    else:
        if target.requires_grad:
            entropy: Any = F.where(F.eq(target, 0), 0.0, F.mul(target, F.log(target)))
        else:
            t = target.array
            with np.errstate(divide="ignore", invalid="ignore"):
                values = np.where(t == 0, np.zeros((), t.dtype), t * np.log(t))
            entropy = Tensor._wrap(np.asarray(values, dtype=t.dtype))
        out = F.sub(entropy, F.mul(target, input))
    if reduction == "batchmean":
        return F.div(F.sum(out), input.shape_tuple[0]) if input.ndim else F.sum(out)
    if reduction == "none":
        return out
    return F.mean(out) if reduction == "mean" else F.sum(out)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
                   reduce: bool | None = None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    input, target = _same_shape(input, target)
    return loss.SmoothL1Loss.apply(input, target, reduction=reduction, beta=beta)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean",  # noqa: A002
               delta: float = 1.0) -> Tensor:
    reduction = _reduction(None, None, reduction)
    input, target = _same_shape(input, target)
    return loss.HuberLoss.apply(input, target, reduction=reduction, beta=delta)


def _same_shape(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:  # noqa: A002
    """torch warns when the shapes differ, then broadcasts."""
    if target.shape_tuple == input.shape_tuple:
        return input, target
    common = _common_shape(input, target, stacklevel=4)
    return F.expand(input, common), F.expand(target, common)


def _common_shape(input: Tensor, target: Tensor, stacklevel: int) -> tuple[int, ...]:  # noqa: A002
    """The shape a target of another shape than the input's broadcasts to with it, after
    torch's warning (STACKLEVEL: the loss function's caller)."""
    warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                  f"size ({input.shape}). This will likely lead to incorrect results due "
                  "to broadcasting. Please ensure they have the same size.", UserWarning,
                  stacklevel=stacklevel)
    try:
        return tuple(np.broadcast_shapes(input.shape_tuple, target.shape_tuple))
    except ValueError:
        raise RuntimeError(_broadcast_message(input.shape, target.shape)) from None


def binary_cross_entropy(input: Tensor, target: Tensor,  # noqa: A002
                         weight: Tensor | None = None, size_average: bool | None = None,
                         reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape_tuple != input.shape_tuple:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the "
                         f"input size ({input.shape}) is deprecated. Please ensure they have "
                         "the same size.")
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {dtypes.scalar_name(target.dtype)} but expected "
                           f"{dtypes.scalar_name(input.dtype)}")
    weight_array = None
    if weight is not None:
        weight_array = np.broadcast_to(weight.array, input.shape_tuple).astype(input.array.dtype)
    return loss.BinaryCrossEntropy.apply(input, target, weight=weight_array,
                                         reduction=reduction)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,  # noqa: A002
                                     weight: Tensor | None = None,
                                     size_average: bool | None = None,
                                     reduce: bool | None = None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape_tuple != input.shape_tuple:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    if not target.dtype.is_floating_point:
        raise RuntimeError(f"result type {dtypes.scalar_name(input.dtype)} can't be cast to the "
                           f"desired output type {dtypes.scalar_name(target.dtype)}")
    shapes = [x.shape_tuple for x in (input, weight, pos_weight) if x is not None]
    if len(set(shapes)) > 1:  # weights that broadcast the loss beyond the input's shape
        budget.check_broadcast(shapes, input.array.itemsize)
    return loss.BinaryCrossEntropyWithLogits.apply(
        input, target, weight=_array(weight), pos_weight=_array(pos_weight),
        reduction=reduction)


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
             size_average: bool | None = None, ignore_index: int = -100,
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           f"{dtypes.scalar_name(target.dtype)}")
    if input.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    batched = input.ndim > 1
    if batched and (target.ndim == 0 or input.shape_tuple[0] != target.shape_tuple[0]):
        size = target.shape_tuple[0] if target.ndim else 1
        raise ValueError(f"Expected input batch_size ({input.shape_tuple[0]}) to match target "
                         f"batch_size ({size}).")
    expected = input.shape_tuple[:1] + input.shape_tuple[2:] if batched else ()
    if target.shape_tuple != expected:
        raise RuntimeError(f"Expected target size {list(expected)}, got {list(target.shape)}")
    options = {"weight": _array(weight), "ignore_index": ignore_index, "reduction": reduction}
    if input.ndim <= 2:
        return loss.NllLoss.apply(input, target=target.array.astype(np.int64), **options)
    if input.ndim == 4:
        return loss.NllLoss2d.apply(input, target=target.array.astype(np.int64), **options)
    # ATen's nll_loss_nd: other ranks go through nll_loss2d as (N, C, 1, -1)
    n, c = input.shape_tuple[:2]
    empty = input.numel() == 0
    flat = input.contiguous().view(n, c, 0, 0) if empty else input.contiguous().view(n, c, 1, -1)
    targets = target.array.astype(np.int64).reshape((n, 0, 0) if empty else (n, 1, -1))
    result = loss.NllLoss2d.apply(flat, target=targets, **options)
    return result.view(*expected) if reduction == "none" else result


def _class_view(weight: Tensor, input: Tensor) -> Tensor:  # noqa: A002
    """A class weight viewed to broadcast along input's class dim (dim 1; dim 0 in 1-D)."""
    if input.ndim <= 1:
        return weight
    shape = [1] * input.ndim
    shape[1] = weight.shape_tuple[0]
    return weight.view(*shape)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """log_softmax over the class dim, then nll_loss (class indices) or -sum(p log q)."""
    reduction = _reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{float(label_smoothing)}")
    class_dim = 0 if input.ndim == 1 else 1
    probabilities = (target.dtype.is_floating_point
                     and target.shape_tuple == input.shape_tuple)
    log_probs = F.log_softmax(input, class_dim)
    if label_smoothing and not probabilities:
        # torch's cross_entropy_loss_label_smoothing, op for op
        nll = nll_loss(log_probs, target, weight=weight, ignore_index=ignore_index,
                       reduction=reduction)
        ignore_mask = F.eq(target, ignore_index)
        weighted = log_probs if weight is None else F.mul(log_probs, _class_view(weight, input))
        smooth = F.neg(F.sum(weighted, dim=class_dim))
        smooth.masked_fill_(ignore_mask, 0.0)
        if reduction == "mean" and weight is not None:  # normalised as nll_loss is
            kept = F.masked_select(target, F.logical_not(ignore_mask))
            smooth = F.div(F.sum(smooth), F.sum(F.gather(weight, 0, F.flatten(kept))))
        elif reduction == "mean":
            smooth = F.div(F.sum(smooth), F.sum(F.logical_not(ignore_mask)))
        elif reduction == "sum":
            smooth = F.sum(smooth)
        n_classes = input.shape_tuple[class_dim]
        return F.add(arith.MulScalar.apply(nll, scalar=1 - label_smoothing),
                     arith.MulScalar.apply(smooth, scalar=label_smoothing / n_classes))
    if probabilities:
        # ATen's cross_entropy_loss_prob_target, op for op: one sum over every element, negated
        n_classes = input.shape_tuple[class_dim]
        if label_smoothing:
            target = F.add(F.mul(target, 1 - label_smoothing), label_smoothing / n_classes)
        product = F.mul(log_probs, target)
        if weight is not None:
            product = F.mul(product, _class_view(weight, input))
        if reduction == "none":
            return F.neg(F.sum(product, dim=class_dim))
        if reduction not in ("sum", "mean"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        total = F.neg(F.sum(product))
        if reduction == "sum":
            return total
        count = input.numel() // n_classes if input.numel() else 0
        return arith.DivScalar.apply(total, scalar=count)
    return nll_loss(log_probs, target, weight=weight, ignore_index=ignore_index,
                    reduction=reduction)


def _broadcast_message(a: Size, b: Size) -> str:
    for offset in range(1, min(len(a), len(b)) + 1):
        size_a, size_b = a[-offset], b[-offset]
        if size_a != size_b and size_a != 1 and size_b != 1:
            return (f"The size of tensor a ({size_a}) must match the size of tensor b "
                    f"({size_b}) at non-singleton dimension {max(len(a), len(b)) - offset}")
    return f"shape mismatch: {a} and {b} cannot be broadcast"


# --- the modules: each calls its function with its stored arguments ------------------------------

class _Loss(Module):
    """A loss module: its function called with the reduction (legacy size_average/reduce read
    as torch reads them) and the module's other ARGUMENTS, which a program may also read."""

    function: Any = None
    arguments: tuple[str, ...] = ("reduction",)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.PUBLIC_ATTRS = Module.PUBLIC_ATTRS | set(cls.arguments)

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = _legacy_reduction(size_average, reduce)
        self.reduction = reduction

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return type(self).function(input, target,  # type: ignore[misc]
                                   **{name: getattr(self, name) for name in self.arguments})


class MSELoss(_Loss):
    function = staticmethod(mse_loss)


class L1Loss(_Loss):
    function = staticmethod(l1_loss)


class KLDivLoss(_Loss):
    function = staticmethod(kl_div)
    arguments: tuple[str, ...] = ("reduction", "log_target")

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target


class SmoothL1Loss(_Loss):
    function = staticmethod(smooth_l1_loss)
    arguments: tuple[str, ...] = ("reduction", "beta")

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta


class HuberLoss(_Loss):
    function = staticmethod(huber_loss)
    arguments: tuple[str, ...] = ("reduction", "delta")

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta


class _WeightedLoss(_Loss):
    arguments: tuple[str, ...] = ("reduction", "weight")

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.weight = weight


class BCELoss(_WeightedLoss):
    function = staticmethod(binary_cross_entropy)


class BCEWithLogitsLoss(_WeightedLoss):
    function = staticmethod(binary_cross_entropy_with_logits)
    arguments: tuple[str, ...] = ("reduction", "weight", "pos_weight")

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.pos_weight = pos_weight


class NLLLoss(_WeightedLoss):
    function = staticmethod(nll_loss)
    arguments: tuple[str, ...] = ("reduction", "weight", "ignore_index")

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index


class CrossEntropyLoss(NLLLoss):
    function = staticmethod(cross_entropy)
    arguments: tuple[str, ...] = ("reduction", "weight", "ignore_index", "label_smoothing")

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, ignore_index, reduce, reduction)
        self.label_smoothing = label_smoothing
