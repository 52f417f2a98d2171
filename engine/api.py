"""What a program can reach: the torch namespace and its submodules, as plain dicts.

The language (autograd_cli) binds `torch`, `torch.nn`, ... to read-only namespaces built from
these; nothing outside them is reachable. `TORCH` and `AUTOGRAD` are built when this module is
imported; the submodules (`NN`, `FUNCTIONAL`, `NN_UTILS`, `OPTIM`, `LR_SCHEDULER`, `LINALG`,
`AUTOGRAD_FUNCTIONAL`) on first use, so a program that never reads torch.nn or torch.optim does
not load engine/nn/ or engine/optim.py (`members(NAME)`: a mapping that builds NAME then).
"""

from __future__ import annotations

import functools
import math
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from engine import (
    addresses,
    autograd,
    creation,
    custom_function,
    device,
    dtypes,
    functional,
    generator,
    grad_mode,
    numpy_bridge,
    printing,
    random,
    recording,
    registry,
    settings,
    storage,
    testing,
)
from engine.functional import linalg
from engine.size import Size
from engine.tensor import Tensor, numpy_names

OUT_WITH_GRAD = ("{name}(): functions with out=... arguments don't support automatic "
                 "differentiation, but one of the arguments requires grad.")


def _accepting_out(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """`torch.NAME(..., out=t)`: the result written into t, which is returned (not autograd)."""

    @functools.wraps(function)
    def call(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        kwargs = numpy_names(kwargs)
        if out is None:
            return function(*args, **kwargs)
        _check_out(name, out)
        operands = [*args, *kwargs.values(), out]
        if grad_mode.is_grad_enabled() and any(
                isinstance(a, Tensor) and a.requires_grad for a in operands):
            raise RuntimeError(OUT_WITH_GRAD.format(name=name))
        with grad_mode.no_grad():
            return _write_out(name, function(*args, **kwargs), out)

    return call


def _factory_out(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """`torch.zeros(..., out=t)`, `torch.rand(..., out=t)`: made in t's dtype (unless a dtype
    is given), then written into t, which is returned (resized without a warning)."""

    @functools.wraps(function)
    def call(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        if out is None:
            return function(*args, **kwargs)
        _check_out(name, out)
        kwargs.setdefault("dtype", out.dtype)
        with grad_mode.no_grad():
            return _write_out(name, function(*args, **kwargs), out, warn=False)

    return call


def _tensor_argument(name: str, value: Any) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(value).__name__}")
    return value


def _result_type(*values: Any) -> dtypes.DType:
    """torch.result_type(tensor1, tensor2): tensors or Python numbers, PyTorch's promotion."""
    operands = [(v.dtype, v.ndim) for v in values if isinstance(v, Tensor)]
    return dtypes.result_type(operands, [v for v in values if not isinstance(v, Tensor)])


def _check_out(name: str, out: Any) -> None:
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")


def _write_out(name: str, result: Any, out: Tensor, warn: bool = True) -> Tensor:
    if not isinstance(result, Tensor):
        raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
    if result.shape_tuple != out.shape_tuple:
        if out.numel() and warn:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(out.shape_tuple)}, which does not match the required output "
                f"shape {list(result.shape_tuple)}. This behavior is deprecated, and in "
                "a future PyTorch release outputs will not be resized unless they have "
                "zero elements. You can explicitly reuse an out tensor t by resizing "
                "it, inplace, to zero elements with t.resize_(0).", UserWarning,
                stacklevel=3)
        out.array = np.zeros(result.shape_tuple, dtype=out.array.dtype)
    return out.assign_inplace(result)


TORCH: dict[str, Any] = {name: _accepting_out(name, function)
                         for name, function in registry.TORCH.items()}
TORCH.update(dtypes.TORCH_NAMES)
TORCH.update({
    "__version__": device.VERSION["__version__"],
    "inf": math.inf,
    "nan": math.nan,
    "pi": math.pi,
    "e": math.e,
    "Tensor": Tensor,
    "Size": Size,
    "tensor": creation.tensor,
    "as_tensor": creation.as_tensor,
    "ones": _factory_out("ones", creation.ones),
    "zeros": _factory_out("zeros", creation.zeros),
    "empty": _factory_out("empty", creation.empty),
    "full": _factory_out("full", creation.full),
    "ones_like": creation.ones_like,
    "zeros_like": creation.zeros_like,
    "empty_like": creation.empty_like,
    "full_like": creation.full_like,
    "arange": _factory_out("arange", creation.arange),
    "range": _factory_out("range", creation.range_),
    "linspace": _factory_out("linspace", creation.linspace),
    "logspace": _factory_out("logspace", creation.logspace),
    "eye": _factory_out("eye", creation.eye),
    "tril_indices": creation.tril_indices,
    "triu_indices": creation.triu_indices,
    # torch.FloatTensor, torch.ByteTensor, ...: one legacy constructor for each dtype
    **{dtype.legacy_name: creation.legacy_constructor(dtype) for dtype in dtypes.ALL},
    "rand": _factory_out("rand", random.rand),
    "randn": _factory_out("randn", random.randn),
    "randint": _factory_out("randint", random.randint),
    "rand_like": random.rand_like,
    "randn_like": random.randn_like,
    "manual_seed": random.manual_seed,
    "seed": random.seed,
    "initial_seed": random.initial_seed,
    "get_rng_state": random.get_rng_state,
    "set_rng_state": random.set_rng_state,
    "randperm": _factory_out("randperm", random.randperm),
    "randint_like": random.randint_like,
    "normal": random.normal,
    "Generator": generator.Generator,
    "random": device.submodule("torch.random", {
        "manual_seed": random.manual_seed, "seed": random.seed,
        "initial_seed": random.initial_seed, "get_rng_state": random.get_rng_state,
        "set_rng_state": random.set_rng_state, "default_generator": generator.default_generator,
        "fork_rng": random.fork_rng}),
    "default_generator": generator.default_generator,
    "no_grad": grad_mode.no_grad,
    "enable_grad": grad_mode.enable_grad,
    "set_grad_enabled": grad_mode.set_grad_enabled,
    "is_grad_enabled": grad_mode.is_grad_enabled,
    "inference_mode": grad_mode.inference_mode,
    "is_inference_mode_enabled": grad_mode.is_inference_mode_enabled,
    "set_printoptions": printing.set_printoptions,
    "is_tensor": lambda obj: isinstance(obj, Tensor),
    "is_floating_point": lambda input: _tensor_argument("is_floating_point", input
                                                        ).is_floating_point(),
    "result_type": lambda tensor1, tensor2: _result_type(tensor1, tensor2),
    "promote_types": dtypes.promote_types,
    "can_cast": dtypes.can_cast,
    "set_default_tensor_type": dtypes.set_default_tensor_type,
    "dtype": dtypes.DType,
    "get_default_dtype": dtypes.default_float,
    "set_default_dtype": dtypes.set_default_float,
    "finfo": dtypes.finfo,
    "iinfo": dtypes.iinfo,
    "numel": lambda t: t.numel(),
    "device": device.Device,
    "set_default_device": device.set_default,
    "get_default_device": device.get_default,
    "from_numpy": numpy_bridge.from_numpy,
    "cuda": device.submodule("torch.cuda", device.CUDA),
    "accelerator": device.submodule("torch.accelerator", device.ACCELERATOR),
    "version": device.submodule("torch.version", device.VERSION),
    "backends": device.submodule("torch.backends", {
        "mps": device.submodule("torch.backends.mps", device.MPS), "cudnn": settings.CUDNN,
        **{name: device.submodule(f"torch.backends.{name}", device.CPU_LIBRARY)
           for name in ("mkl", "mkldnn", "openmp")}}),
    "testing": device.submodule("torch.testing", testing.TESTING),
    **settings.SETTINGS,
    "linalg": linalg.linalg,
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


def _nn() -> dict[str, Any]:
    from engine import nn  # lazy: built on first use (startup time)

    return dict(nn.NN)


def _functional() -> dict[str, Any]:
    from engine import nn  # lazy: built on first use (startup time)

    return dict(nn.FUNCTIONAL)


def _nn_utils() -> dict[str, Any]:
    from engine.nn import utils  # lazy: built on first use (startup time)

    return dict(utils.NN_UTILS)


def _nn_utils_rnn() -> dict[str, Any]:
    from engine.nn import utils_rnn  # lazy: built on first use (startup time)

    return dict(utils_rnn.NN_UTILS_RNN)


def _optim() -> dict[str, Any]:
    from engine import optim  # lazy: built on first use (startup time)

    return dict(optim.OPTIM)


def _lr_scheduler() -> dict[str, Any]:
    from engine import lr_scheduler  # lazy: built on first use (startup time)

    return dict(lr_scheduler.SCHEDULERS)


def _data() -> dict[str, Any]:
    from engine import data  # lazy: built on first use (startup time)

    return dict(data.DATA)  # torch.utils.data (engine/data.py)


def _linalg() -> dict[str, Any]:
    return {name: getattr(linalg.linalg, name)
            for name in sorted(linalg.LinalgNamespace.PUBLIC_ATTRS)}


def _autograd_function() -> dict[str, Any]:
    return dict(custom_function.FUNCTION_MODULE)  # torch.autograd.function


def _autograd_graph() -> dict[str, Any]:
    from engine import autograd_graph  # lazy: built on first use (startup time)

    return dict(autograd_graph.GRAPH)  # engine/autograd_graph.py


def _func() -> dict[str, Any]:
    from engine import func_transforms  # lazy: built on first use (startup time)

    return dict(func_transforms.FUNC)


def _distributions() -> dict[str, Any]:
    from engine import distributions  # lazy: built on first use (startup time)

    return dict(distributions.DISTRIBUTIONS)


def _autograd_functional() -> dict[str, Any]:
    from engine import autograd_functional  # lazy: built on first use (startup time)

    return dict(autograd_functional.FUNCTIONS)


_SUBMODULES: dict[str, Callable[[], dict[str, Any]]] = {
    "NN": _nn, "FUNCTIONAL": _functional, "NN_UTILS": _nn_utils,
    "NN_UTILS_RNN": _nn_utils_rnn, "OPTIM": _optim,
    "LR_SCHEDULER": _lr_scheduler, "LINALG": _linalg, "AUTOGRAD_FUNCTIONAL": _autograd_functional,
    "FUNC": _func, "DISTRIBUTIONS": _distributions,
    "DATA": _data, "BACKCOMPAT": lambda: dict(settings.BACKCOMPAT),
    "AUTOGRAD_FUNCTION": _autograd_function, "AUTOGRAD_GRAPH": _autograd_graph,
}


def __getattr__(name: str) -> dict[str, Any]:
    """`api.NN` and the other submodules: built on first use, then kept as module globals."""
    make = _SUBMODULES.get(name)
    if make is None:
        raise AttributeError(f"module 'engine.api' has no attribute '{name}'")
    members = globals()[name] = make()
    return members


class LazyMembers(Mapping[str, Any]):
    """A submodule's members as a read-only mapping that builds them when first read."""

    def __init__(self, make: Callable[[], Mapping[str, Any]]) -> None:
        self._make: Callable[[], Mapping[str, Any]] | None = make
        self._members: Mapping[str, Any] = {}

    def _loaded(self) -> Mapping[str, Any]:
        if self._make is not None:
            self._members, self._make = self._make(), None
        return self._members

    def __getitem__(self, name: str) -> Any:
        return self._loaded()[name]

    def __contains__(self, name: object) -> bool:
        return name in self._loaded()

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


def members(name: str, **extra: Any) -> LazyMembers:
    """The members of submodule NAME (`"NN"`, ...) and `extra`, built when a program first
    reads one of them."""
    return LazyMembers(lambda: {**getattr(sys.modules[__name__], name), **extra})


NUMPY_PRINT_DEFAULTS = np.get_printoptions()


def reset_switches() -> None:
    """numpy's print options and PyTorch's global switches as a fresh process has them (a
    run may set them; both are the process's)."""
    np.set_printoptions(**NUMPY_PRINT_DEFAULTS)
    settings.reset()


def reset_state() -> None:
    """Fresh global state for a run: grad mode on, the CPU as default device, default print
    options (torch's and numpy's), agraph's fixed seed (engine/generator.py), no observer,
    no post-accumulate hooks left from an earlier run (they would keep its objects alive)."""
    addresses.reset()
    device.reset_default()
    autograd.clear_post_accumulate_hooks()
    grad_mode.set_enabled(True)
    dtypes.reset()
    printing.set_printoptions(profile="default")
    reset_switches()
    random.reset()
    storage.reset()
    creation.reset()
    recording.set_observer(None)
    autograd.SAVED_TENSORS_HOOKS.clear()
