"""What a program can reach: the torch namespace and its submodules, as plain dicts.

The language (autograd_cli) binds `torch`, `torch.nn`, ... to read-only namespaces built from
these; nothing outside them is reachable.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import (
    autograd_functional,
    autograd_graph,
    creation,
    custom_function,
    data,
    device,
    dtypes,
    functional,
    functional_more,
    generator,
    grad_mode,
    lr_scheduler,
    nn,
    nn_extra,
    nn_utils,
    numpy_bridge,
    optim,
    printing,
    random,
)
from engine.tensor import Size, Tensor, numpy_names

_TORCH_FUNCTIONS = """
    add sub mul div true_divide multiply divide rsub pow neg negative abs exp log sqrt rsqrt sin
    cos tanh sigmoid relu sign clamp clip clamp_min clamp_max square reciprocal matmul mm mv dot
    addmm bmm sum mean prod max min maximum minimum argmax argmin softmax log_softmax norm cat stack
    reshape squeeze unsqueeze t transpose permute flatten select split chunk unbind clone
    eq ne lt le gt ge logical_and logical_or logical_not isnan isinf equal allclose where
    floor_divide remainder any all isclose
    var std logsumexp cumsum amax amin gather index_select masked_fill sort argsort topk log1p
    expm1 floor ceil trunc round flip
""".split() + functional_more.FUNCTIONS

OUT_WITH_GRAD = ("{name}(): functions with out=... arguments don't support automatic "
                 "differentiation, but one of the arguments requires grad.")


def _accepting_out(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """`torch.NAME(..., out=t)`: the result written into t, which is returned (not autograd)."""

    @functools.wraps(function)
    def call(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        kwargs = numpy_names(kwargs)
        if out is None:
            return function(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not "
                            f"{type(out).__name__}")
        operands = [*args, *kwargs.values(), out]
        if grad_mode.is_grad_enabled() and any(
                isinstance(a, Tensor) and a.requires_grad for a in operands):
            raise RuntimeError(OUT_WITH_GRAD.format(name=name))
        with grad_mode.no_grad():
            result = function(*args, **kwargs)
            if not isinstance(result, Tensor):
                raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
            if result.shape_tuple != out.shape_tuple:
                if out.numel():
                    warnings.warn(
                        f"An output with one or more elements was resized since it had shape "
                        f"{list(out.shape_tuple)}, which does not match the required output "
                        f"shape {list(result.shape_tuple)}. This behavior is deprecated, and in "
                        "a future PyTorch release outputs will not be resized unless they have "
                        "zero elements. You can explicitly reuse an out tensor t by resizing "
                        "it, inplace, to zero elements with t.resize_(0).", UserWarning,
                        stacklevel=2)
                out.array = np.zeros(result.shape_tuple, dtype=out.array.dtype)
            return out.assign_inplace(result)

    return call


TORCH: dict[str, Any] = {name: _accepting_out(name, getattr(functional, name))
                         for name in _TORCH_FUNCTIONS}
TORCH.update(dtypes.TORCH_NAMES)
TORCH.update({
    "Tensor": Tensor,
    "Size": Size,
    "tensor": creation.tensor,
    "as_tensor": creation.as_tensor,
    "ones": creation.ones,
    "zeros": creation.zeros,
    "empty": creation.empty,
    "full": creation.full,
    "ones_like": creation.ones_like,
    "zeros_like": creation.zeros_like,
    "empty_like": creation.empty_like,
    "full_like": creation.full_like,
    "arange": creation.arange,
    "linspace": creation.linspace,
    "eye": creation.eye,
    "FloatTensor": creation.legacy_constructor(dtypes.float32),
    "DoubleTensor": creation.legacy_constructor(dtypes.float64),
    "LongTensor": creation.legacy_constructor(dtypes.int64),
    "IntTensor": creation.legacy_constructor(dtypes.int32),
    "BoolTensor": creation.legacy_constructor(dtypes.bool_),
    "rand": random.rand,
    "randn": random.randn,
    "randint": random.randint,
    "rand_like": random.rand_like,
    "randn_like": random.randn_like,
    "manual_seed": random.manual_seed,
    "seed": random.seed,
    "initial_seed": random.initial_seed,
    "get_rng_state": random.get_rng_state,
    "set_rng_state": random.set_rng_state,
    "randperm": random.randperm,
    "randint_like": random.randint_like,
    "normal": random.normal,
    "bernoulli": random.bernoulli,
    "multinomial": random.multinomial,
    "Generator": generator.Generator,
    "random": device.submodule("torch.random", {
        "manual_seed": random.manual_seed, "seed": random.seed,
        "initial_seed": random.initial_seed, "get_rng_state": random.get_rng_state,
        "set_rng_state": random.set_rng_state, "default_generator": generator.default_generator}),
    "default_generator": generator.default_generator,
    "no_grad": grad_mode.no_grad,
    "enable_grad": grad_mode.enable_grad,
    "set_grad_enabled": grad_mode.set_grad_enabled,
    "is_grad_enabled": grad_mode.is_grad_enabled,
    "inference_mode": grad_mode.inference_mode,
    "is_inference_mode_enabled": grad_mode.is_inference_mode_enabled,
    "set_printoptions": printing.set_printoptions,
    "is_tensor": lambda obj: isinstance(obj, Tensor),
    "numel": lambda t: t.numel(),
    "device": device.Device,
    "set_default_device": device.check,  # the CPU is the only device: nothing to change
    "from_numpy": numpy_bridge.from_numpy,
    "cuda": device.submodule("torch.cuda", device.CUDA),
    "accelerator": device.submodule("torch.accelerator", device.ACCELERATOR),
    "backends": device.submodule("torch.backends", {
        "mps": device.submodule("torch.backends.mps", device.MPS)}),
    "linalg": functional_more.linalg,
})

AUTOGRAD: dict[str, Any] = {
    "grad": functional.grad,
    "backward": functional.backward,
    "Variable": creation.variable,
    "no_grad": grad_mode.no_grad,
    "enable_grad": grad_mode.enable_grad,
    "set_grad_enabled": grad_mode.set_grad_enabled,
    "inference_mode": grad_mode.inference_mode,
}

AUTOGRAD.update(custom_function.AUTOGRAD_FUNCTION)  # Function, gradcheck, gradgradcheck
AUTOGRAD_FUNCTION: dict[str, Any] = dict(custom_function.FUNCTION_MODULE)  # torch.autograd.function
AUTOGRAD_FUNCTIONAL: dict[str, Any] = dict(autograd_functional.FUNCTIONS)
AUTOGRAD_GRAPH: dict[str, Any] = dict(autograd_graph.GRAPH)  # engine/autograd_graph.py

NN_UTILS: dict[str, Any] = dict(nn_utils.NN_UTILS)

NN: dict[str, Any] = dict(nn.NN)
FUNCTIONAL: dict[str, Any] = dict(nn.FUNCTIONAL)
NN.update(nn_extra.NN)  # activations, dropout (engine/nn_extra.py)
FUNCTIONAL.update(nn_extra.FUNCTIONAL)
TORCH["cosine_similarity"] = nn_extra.cosine_similarity
OPTIM: dict[str, Any] = dict(optim.OPTIM)
OPTIM["lr_scheduler"] = lr_scheduler.lr_scheduler  # engine/lr_scheduler.py
LR_SCHEDULER: dict[str, Any] = dict(lr_scheduler.SCHEDULERS)  # importable submodules
DATA: dict[str, Any] = dict(data.DATA)  # torch.utils.data (engine/data.py)
LINALG: dict[str, Any] = {name: getattr(functional_more.linalg, name)
                          for name in sorted(functional_more.LinalgNamespace.PUBLIC_ATTRS)}


def reset_state() -> None:
    """Fresh global state for a run: grad mode on, default print options, agraph's fixed seed
    (engine/generator.py), no observer,
    no post-accumulate hooks left from an earlier run (they would keep its objects alive)."""
    from engine import addresses, autograd, recording

    addresses.reset()
    autograd.clear_post_accumulate_hooks()
    grad_mode._set(True)
    printing.set_printoptions(profile="default")
    random.reset()
    recording.set_observer(None)
    autograd.SAVED_TENSORS_HOOKS.clear()
