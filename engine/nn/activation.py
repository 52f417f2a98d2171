"""The activation modules (`nn.ReLU`, `nn.GELU`, `nn.Softmax`, ...), each over its function in
engine/nn/functional.py."""

from __future__ import annotations

from typing import Any

from engine import creation
from engine import functional as F
from engine.nn.functional import (
    celu,
    elu,
    gelu,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    leaky_relu,
    log_softmax,
    logsigmoid,
    mish,
    prelu,
    relu,
    selu,
    silu,
    softmax,
    softmin,
    softplus,
    softshrink,
    softsign,
    tanhshrink,
    threshold,
)
from engine.nn.module import Module
from engine.tensor import Parameter, Tensor


class ReLU(Module):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"inplace"}

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.sigmoid(input)


class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.tanh(input)


class Softmax(Module):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"dim"}

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return log_softmax(input, self.dim)


class Softmin(Softmax):
    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return softmin(input, self.dim)


class _Activation(Module):
    """A module calling one activation with its stored arguments, which are also what a program
    may read and what its repr shows (`inplace` only when set), as torch's."""

    function: Any = None
    arguments: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.PUBLIC_ATTRS = Module.PUBLIC_ATTRS | set(cls.arguments)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return type(self).function(input, **{name: getattr(self, name)  # type: ignore[misc]
                                             for name in self.arguments})

    def extra_repr(self) -> str:
        shown = [f"{name}={value!r}" if isinstance(value, str) else f"{name}={value}"
                 for name, value in ((name, getattr(self, name)) for name in self.arguments)
                 if name != "inplace" or value]
        return ", ".join(shown)


class GELU(_Activation):
    function = staticmethod(gelu)
    arguments = ("approximate",)

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate


class ELU(_Activation):
    function = staticmethod(elu)
    arguments = ("alpha", "inplace")

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace


class CELU(ELU):
    function = staticmethod(celu)


class SELU(_Activation):
    function = staticmethod(selu)
    arguments = ("inplace",)

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace


class SiLU(SELU):
    function = staticmethod(silu)


class Mish(SELU):
    function = staticmethod(mish)


class LeakyReLU(_Activation):
    function = staticmethod(leaky_relu)
    arguments = ("negative_slope", "inplace")

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace


class Softplus(_Activation):
    function = staticmethod(softplus)
    arguments = ("beta", "threshold")

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold


class Threshold(_Activation):
    function = staticmethod(threshold)
    arguments = ("threshold", "value", "inplace")

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace


class Hardtanh(_Activation):
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


class Hardswish(SELU):
    function = staticmethod(hardswish)


class Hardsigmoid(SELU):
    function = staticmethod(hardsigmoid)


class Softshrink(_Activation):
    function = staticmethod(softshrink)
    arguments = ("lambd",)

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def extra_repr(self) -> str:
        return str(self.lambd)


class Hardshrink(Softshrink):
    function = staticmethod(hardshrink)


class PReLU(Module):
    """A learnable slope for x < 0: one (default) or one per channel, initialised to `init`."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "num_parameters", "init"}
    SETTABLE_ATTRS = Module.SETTABLE_ATTRS | frozenset({"weight"})

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(creation.full((num_parameters,), init, dtype=dtype))

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"
