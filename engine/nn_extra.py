"""More of `torch.nn.functional` and `torch.nn`: the activations tutorials use (gelu, elu,
selu, celu, leaky_relu, softplus, silu, relu6, hardtanh, logsigmoid, softsign, tanhshrink),
normalize, dropout, one_hot and constant pad, and their modules with torch's reprs.

engine/api.py adds FUNCTIONAL and NN here to torch.nn.functional and torch.nn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import budget, random
from engine import functional as F
from engine.nn import Module
from engine.ops import activation
from engine.tensor import Tensor

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _input(value: Any, name: str) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(value).__name__}")
    return value


def _maybe_inplace(input: Tensor, result: Tensor, inplace: bool) -> Tensor:  # noqa: A002
    return input.assign_inplace(result) if inplace else result


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    input = _input(input, "gelu")
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    return activation.Gelu.apply(input, approximate=approximate)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    result = activation.Elu.apply(_input(input, "elu"), alpha=alpha)
    return _maybe_inplace(input, result, inplace)


def selu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    result = activation.Elu.apply(_input(input, "selu"), alpha=SELU_ALPHA, scale=SELU_SCALE)
    return _maybe_inplace(input, result, inplace)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    result = activation.Celu.apply(_input(input, "celu"), alpha=alpha,
                                   input_scale=1.0 / alpha)
    return _maybe_inplace(input, result, inplace)


def leaky_relu(input: Tensor, negative_slope: float = 0.01,  # noqa: A002
               inplace: bool = False) -> Tensor:
    result = activation.LeakyRelu.apply(_input(input, "leaky_relu"),
                                        negative_slope=negative_slope)
    return _maybe_inplace(input, result, inplace)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    return activation.Softplus.apply(_input(input, "softplus"), beta=beta, threshold=threshold)


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    result = activation.Silu.apply(_input(input, "silu"))
    return _maybe_inplace(input, result, inplace)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,  # noqa: A002
             inplace: bool = False) -> Tensor:
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    result = activation.Hardtanh.apply(_input(input, "hardtanh"), min_val=min_val,
                                       max_val=max_val)
    return _maybe_inplace(input, result, inplace)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    return hardtanh(input, 0.0, 6.0, inplace)


def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    return activation.LogSigmoid.apply(_input(input, "log_sigmoid"))


def softsign(input: Tensor) -> Tensor:  # noqa: A002
    """torch composes it: input / (input.abs() + 1)."""
    return F.div(input, F.add(F.abs(input), 1))


def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    return F.sub(input, F.tanh(input))


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,  # noqa: A002
              out: Any = None) -> Tensor:
    """torch: input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)."""
    denom = F.clamp_min(F.norm(input, p, dim, keepdim=True), eps)
    return F.div(input, F.expand_as(denom, input))


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """torch's composite: each input over its (eps-clamped) norm, product, sum over dim."""
    common = np.broadcast_shapes(x1.shape_tuple, x2.shape_tuple)
    if x1.shape_tuple != common:
        x1 = F.expand(x1, common)
    if x2.shape_tuple != common:
        x2 = F.expand(x2, common)
    norms = []
    for x in (x1, x2):
        norm = F.norm(x, 2, dim, keepdim=True)
        # torch clamps it in place under no_grad: same storage, the node keeps the values
        np.maximum(norm.array, np.asarray(eps, dtype=norm.array.dtype), out=norm.array)
        norms.append(norm)
    return F.sum(F.mul(F.div(x1, norms[0]), F.div(x2, norms[1])), dim=dim)


def dropout(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
            inplace: bool = False) -> Tensor:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    input = _input(input, "dropout")
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        noise = np.zeros((), dtype=input.array.dtype)
    else:  # torch: input * empty_like(input).bernoulli_(1 - p).div_(1 - p)
        keep = random.bernoulli_mask(input.shape_tuple, 1 - p)
        noise = keep.astype(input.array.dtype) / np.asarray(1 - p, dtype=input.array.dtype)
    result = F.mul(input, Tensor._wrap(noise))
    return _maybe_inplace(input, result, inplace)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    if not isinstance(tensor, Tensor) or tensor.array.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    values = tensor.array
    if values.size and values.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not values.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(values.max()) + 1
    elif values.size and values.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    shape = values.shape + (num_classes,)
    budget.check_shape(shape, 8)
    out = np.zeros(shape, dtype=np.int64)
    np.put_along_axis(out, values[..., None], 1, axis=-1)
    return Tensor._wrap(out)


def pad(input: Tensor, pad: Any, mode: str = "constant", value: Any = None) -> Tensor:  # noqa: A002
    input = _input(input, "pad")
    if mode != "constant":
        raise NotImplementedError(f"F.pad with mode='{mode}' is not supported by agraph "
                                  "(only mode='constant')")
    widths = tuple(int(n) for n in pad)
    if len(widths) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(widths) // 2 > input.ndim:
        raise RuntimeError("Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(widths)} and input "
                           f"of dimension {input.ndim}")
    shape = list(input.shape_tuple)
    for i in range(len(widths) // 2):
        axis = input.ndim - 1 - i
        shape[axis] += widths[2 * i] + widths[2 * i + 1]
        if shape[axis] < 0:
            raise RuntimeError(f"The input size {input.shape_tuple[axis]}, plus negative "
                               f"padding {widths[2 * i]} and {widths[2 * i + 1]} resulted in a "
                               f"negative output size, which is invalid. Check dimension "
                               f"{axis} of your input.")
    budget.check_shape(shape, input.array.itemsize)
    return activation.ConstantPad.apply(input, pad=widths, value=0.0 if value is None else value)


FUNCTIONAL: dict[str, Any] = {
    "gelu": gelu, "elu": elu, "selu": selu, "celu": celu, "leaky_relu": leaky_relu,
    "softplus": softplus, "silu": silu, "hardtanh": hardtanh, "relu6": relu6,
    "logsigmoid": logsigmoid, "softsign": softsign, "tanhshrink": tanhshrink,
    "normalize": normalize, "cosine_similarity": cosine_similarity, "dropout": dropout,
    "one_hot": one_hot, "pad": pad,
}


# --- modules -----------------------------------------------------------------------------------

class _Activation(Module):
    """A module calling one activation with its stored arguments; repr as torch's."""

    function: Any = None
    arguments: tuple[str, ...] = ()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return type(self).function(input, **{name: getattr(self, name)  # type: ignore[misc]
                                             for name in self.arguments})


class GELU(_Activation):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"approximate"}
    function = staticmethod(gelu)
    arguments = ("approximate",)

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class ELU(_Activation):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"alpha", "inplace"}
    function = staticmethod(elu)
    arguments = ("alpha", "inplace")

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}{', inplace=True' if self.inplace else ''}"


class CELU(ELU):
    function = staticmethod(celu)


class SELU(_Activation):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"inplace"}
    function = staticmethod(selu)
    arguments = ("inplace",)

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class SiLU(SELU):
    function = staticmethod(silu)


class LeakyReLU(_Activation):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"negative_slope", "inplace"}
    function = staticmethod(leaky_relu)
    arguments = ("negative_slope", "inplace")

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}{', inplace=True' if self.inplace else ''}"


class Softplus(_Activation):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"beta", "threshold"}
    function = staticmethod(softplus)
    arguments = ("beta", "threshold")

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(_Activation):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"min_val", "max_val", "inplace"}
    function = staticmethod(hardtanh)
    arguments = ("min_val", "max_val", "inplace")

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
                 ) -> None:
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if max_val <= min_val:
            raise AssertionError()

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace}"


class ReLU6(Hardtanh):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class _Plain(_Activation):
    def __init__(self) -> None:
        super().__init__()


class LogSigmoid(_Plain):
    function = staticmethod(logsigmoid)


class Softsign(_Plain):
    function = staticmethod(softsign)


class Tanhshrink(_Plain):
    function = staticmethod(tanhshrink)


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


NN: dict[str, Any] = {
    "GELU": GELU, "ELU": ELU, "CELU": CELU, "SELU": SELU, "SiLU": SiLU,
    "LeakyReLU": LeakyReLU, "Softplus": Softplus, "Hardtanh": Hardtanh, "ReLU6": ReLU6,
    "LogSigmoid": LogSigmoid, "Softsign": Softsign, "Tanhshrink": Tanhshrink,
    "Dropout": Dropout,
}
