"""`torch.nn.utils`: gradient clipping and parameters <-> vector, as torch 2.13 computes them
(CPU, no foreach): per-gradient norms, the norm of their stack, one scale for all; and
`skip_init` (`torch.nn.utils.rnn` is engine/nn/utils_rnn.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import functional as F
from engine import grad_mode
from engine.generator import default_generator
from engine.nn.module import Module
from engine.ops import shape as shape_ops
from engine.tensor import Tensor


def _tensors(parameters: Any) -> list[Tensor]:
    if isinstance(parameters, Tensor):
        return [parameters]
    return list(parameters)


def clip_grad_norm_(parameters: Any, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: Any = None) -> Tensor:
    grads = [p.grad for p in _tensors(parameters) if p.grad is not None]
    with grad_mode.no_grad():
        if not grads:
            return Tensor._wrap(np.zeros((), dtype=np.float32))
        norm_type = float(norm_type)
        norms = [F.norm(g, p=norm_type) for g in grads]
        total = F.norm(shape_ops.stack(norms), p=norm_type)
        if error_if_nonfinite and not bool(total.isfinite().item()):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is "
                "non-finite, so it cannot be clipped. To disable this error and scale the "
                "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
        coef = F.clamp(float(max_norm) / (total + 1e-6), max=1.0)
        for g in grads:
            g.mul_(coef)
    return total


def clip_grad_value_(parameters: Any, clip_value: float, foreach: Any = None) -> None:
    with grad_mode.no_grad():
        for p in _tensors(parameters):
            if p.grad is not None:
                p.grad.clamp_(min=-float(clip_value), max=float(clip_value))


def skip_init(module_cls: Any, *args: Any, **kwargs: Any) -> Any:
    """The module built without its default initialisation: torch builds it on the meta
    device, so its values are uninitialised memory and it draws no random numbers; here the
    default generator is put back where it was."""
    if not isinstance(module_cls, type):
        raise TypeError("issubclass() arg 1 must be a class")
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    state = default_generator.get_state()
    module = module_cls(*args, **kwargs)
    default_generator.set_state(state)
    return module


def parameters_to_vector(parameters: Any) -> Tensor:
    return shape_ops.cat([p.view(-1) for p in _tensors(parameters)])


def vector_to_parameters(vec: Tensor, parameters: Any) -> None:
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    pointer = 0
    for param in _tensors(parameters):
        num = param.numel()
        param.data = vec[pointer:pointer + num].view_as(param).data
        pointer += num


NN_UTILS: dict[str, Any] = {
    "clip_grad_norm_": clip_grad_norm_,
    "clip_grad_value_": clip_grad_value_,
    "parameters_to_vector": parameters_to_vector,
    "skip_init": skip_init,
    "vector_to_parameters": vector_to_parameters,
}
