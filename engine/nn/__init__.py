"""`torch.nn`, one module per family: module.py (nn.Module), layers.py, activation.py, loss.py,
margin_loss.py, container.py, upsampling.py, functional.py (nn.functional), init.py (nn.init)
and utils.py (nn.utils).

`NN` and `FUNCTIONAL` are what a program reaches as `torch.nn` and `torch.nn.functional`:
every public Module class and function of the families, gathered here.
"""

from __future__ import annotations

from types import FunctionType, ModuleType
from typing import Any

from engine import functional as F
from engine.functional import convolution as convolution_functions
from engine.nn import (
    activation,
    attention,
    container,
    convolution,
    functional,
    init,
    layers,
    loss,
    margin_loss,
    normalization,
    pooling,
    recurrent,
    transformer,
    upsampling,
)
from engine.nn.module import Module
from engine.ops.norm import batch_norm, embedding, group_norm, layer_norm
from engine.tensor import Parameter


def _defined(module: ModuleType, kind: type) -> dict[str, Any]:
    """The public objects of `kind` that `module` defines (not those it imports)."""
    return {name: value for name, value in vars(module).items()
            if isinstance(value, kind) and not name.startswith("_")
            and getattr(value, "__module__", None) == module.__name__}


def _classes(module: ModuleType) -> dict[str, Any]:
    return {name: value for name, value in _defined(module, type).items()
            if issubclass(value, Module)}


NN: dict[str, Any] = {"Module": Module, "Parameter": Parameter, "init": init.init}
for _family in (layers, convolution, pooling, normalization, recurrent, activation, attention,
                transformer, loss, margin_loss, container, upsampling):
    NN.update(_classes(_family))
del NN["NonDynamicallyQuantizableLinear"]  # torch.nn.modules.linear's, not torch.nn's

FUNCTIONAL: dict[str, Any] = {"sigmoid": F.sigmoid, "tanh": F.tanh, "layer_norm": layer_norm,
                              "rms_norm": normalization.rms_norm,
                              "embedding": embedding, "batch_norm": batch_norm,
                              "group_norm": group_norm,
                              "cosine_similarity": F.cosine_similarity}
for _family in (functional, attention, loss, margin_loss, convolution_functions, upsampling):
    FUNCTIONAL.update(_defined(_family, FunctionType))
