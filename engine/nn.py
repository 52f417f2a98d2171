"""`torch.nn`: Module and the layers tutorials use, `nn.functional` and `nn.init`.

Modules register their parameters and submodules as torch does (assigning a Parameter or a
Module to an attribute registers it, in order), so `parameters()`, `print(model)` and attribute
access (`model.weight`, `model[0].bias`) behave like torch's. Layers build their
forward from the ops in engine/functional.py, choosing the ops torch's kernels choose, so the
graph shows torch's grad_fn names (a 2-D `Linear` is `AddmmBackward0`, a 3-D one is
`ViewBackward0` over `AddmmBackward0`, ...).
"""

from __future__ import annotations

import math
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

from engine import budget, dtypes, grad_mode, random
from engine import device as devices
from engine import functional as F
from engine.addresses import address_of
from engine.autograd import Function
from engine.ops import arith, loss
from engine.ops.norm import embedding, layer_norm
from engine.tensor import Parameter, RemovableHandle, Size, Tensor


def typename(value: Any) -> str:
    """`torch.typename`: `torch.FloatTensor` for a tensor, the class name otherwise."""
    if isinstance(value, Tensor):
        return f"torch.{value.dtype.legacy_name}"
    return type(value).__name__


class ModuleIterator:
    """What `parameters()`, `children()`, ... return: a one-shot generator, shown as torch's."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()

    def __init__(self, name: str, items: Iterator[Any]) -> None:
        self.name = name
        self.items = items

    def __iter__(self) -> ModuleIterator:
        return self

    def __next__(self) -> Any:
        return next(self.items)

    def __repr__(self) -> str:
        return f"<generator object Module.{self.name} at {hex(id(self))}>"


class BackwardHookFunction(Function):
    """The identity node of a module with full backward hooks; its backward runs `callback`."""

    grad_fn_name = "BackwardHookFunctionBackward"
    multi_output = True

    def forward(self, *arrays: Any) -> tuple[Any, ...]:
        return tuple(arrays)

    def __repr__(self) -> str:  # a Python autograd.Function in torch
        return ("<torch.autograd.function.BackwardHookFunctionBackward object at "
                f"{address_of(self)}>")

    def backward(self, grads, inputs, output):
        callback = getattr(self, "callback", None)
        grads = tuple(grads)
        return callback(grads) if callback is not None else grads


class Module:
    """`nn.Module`: parameters and submodules registered by attribute assignment, in order.

    For the language: `PUBLIC_ATTRS` / `SETTABLE_ATTRS` are plain class-level frozensets, as
    for every engine class. Each layer adds the attributes it sets in `__init__` (`Linear`:
    `weight bias in_features out_features`); a program cannot define classes, so no module it
    holds has attributes beyond its class's. Assignable are a layer's parameters
    (`model.weight = nn.Parameter(...)`; a plain tensor is refused with torch's TypeError).
    """

    PUBLIC_ATTRS = frozenset("""
        forward parameters named_parameters children named_children modules named_modules
        zero_grad train eval training requires_grad_ to cpu cuda float double
        register_forward_hook register_forward_pre_hook state_dict load_state_dict
        register_full_backward_hook add_module register_parameter
        """.split())
    SETTABLE_ATTRS: frozenset[str] = frozenset()

    _parameters: dict[str, Parameter | None]
    _modules: dict[str, Module | None]

    def __init__(self) -> None:
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_forward_hooks", [])
        object.__setattr__(self, "_forward_pre_hooks", [])
        object.__setattr__(self, "_backward_hooks", [])
        self.training = True

    # --- registration: attribute assignment as torch's Module.__setattr__ does it ----------

    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        if isinstance(value, Parameter):
            if params is None or modules is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self.__dict__.pop(name, None)
            modules.pop(name, None)
            params[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if params is None or modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self.__dict__.pop(name, None)
            params.pop(name, None)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = None
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        for table in ("_parameters", "_modules"):
            registered = self.__dict__.get(table)
            if registered is not None and name in registered:
                return registered[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._modules[name] = module

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    # --- calling ---------------------------------------------------------------------------

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for pre_hook in list(self.__dict__.get("_forward_pre_hooks", ())):
            changed = pre_hook(self, args)
            if changed is not None:
                args = changed if isinstance(changed, tuple) else (changed,)
        backward_hooks = self.__dict__.get("_backward_hooks")
        if backward_hooks and grad_mode.is_grad_enabled():
            return self._call_with_backward_hooks(backward_hooks, args, kwargs)
        return self._forward_and_hooks(args, kwargs)

    def _call_with_backward_hooks(self, hooks: list[Any], args: tuple[Any, ...],
                                  kwargs: dict[str, Any]) -> Any:
        """torch's BackwardHook: identity nodes around the tensor inputs and the output; the
        hooks run with (module, grad_input, grad_output) once the input gradients are known."""
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        inputs_need = any(args[i].requires_grad for i in positions)
        state: dict[str, Any] = {"grad_output": None}

        def run_hooks(grad_input: tuple[Any, ...]) -> tuple[Any, ...]:
            for hook in list(hooks):
                changed = hook(self, grad_input, state["grad_output"])
                if changed is not None:
                    grad_input = tuple(changed)
            return grad_input

        if inputs_need:
            wrapped = BackwardHookFunction.apply(*(args[i] for i in positions))
            wrapped[0].grad_fn.callback = run_hooks
            new_args = list(args)
            for i, tensor in zip(positions, wrapped, strict=True):
                new_args[i] = tensor
            args = tuple(new_args)
        output = self._forward_and_hooks(args, kwargs)
        if isinstance(output, Tensor) and output.requires_grad:
            (output,) = BackwardHookFunction.apply(output)

            def on_output(grads: tuple[Any, ...]) -> tuple[Any, ...]:
                state["grad_output"] = grads
                if not inputs_need:
                    run_hooks((None,) * len(positions))
                return grads

            output.grad_fn.callback = on_output  # type: ignore[union-attr]
        return output

    def register_full_backward_hook(self, hook: Any, prepend: bool = False) -> RemovableHandle:
        """`hook(module, grad_input, grad_output)`; a non-None result replaces grad_input."""
        hooks = self.__dict__.setdefault("_backward_hooks", [])
        hooks.insert(0, hook) if prepend else hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def _forward_and_hooks(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        output = self.forward(*args, **kwargs)
        for hook in list(self.__dict__.get("_forward_hooks", ())):
            changed = hook(self, args, output)
            if changed is not None:
                output = changed
        return output

    def register_forward_hook(self, hook: Any, *, prepend: bool = False) -> RemovableHandle:
        """`hook(module, inputs, output)` after each forward; a non-None result replaces it."""
        hooks = self.__dict__["_forward_hooks"]
        hooks.insert(0, hook) if prepend else hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_forward_pre_hook(self, hook: Any, *, prepend: bool = False) -> RemovableHandle:
        """`hook(module, inputs)` before each forward; a non-None result replaces the inputs."""
        hooks = self.__dict__["_forward_pre_hooks"]
        hooks.insert(0, hook) if prepend else hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def state_dict(self) -> OrderedDict[str, Tensor]:
        """Parameters by dotted name, detached (torch's keep_vars=False)."""
        return OrderedDict((name, param.detach())
                           for name, param in self._named_parameters(True))

    def load_state_dict(self, state_dict: Any, strict: bool = True) -> Any:
        params = dict(self._named_parameters(True))
        missing = [name for name in params if name not in state_dict]
        unexpected = [name for name in state_dict if name not in params]
        if strict and (missing or unexpected):
            parts = []
            if missing:
                parts.append("Missing key(s) in state_dict: "
                             + ", ".join(f'"{name}"' for name in missing) + ". ")
            if unexpected:
                parts.append("Unexpected key(s) in state_dict: "
                             + ", ".join(f'"{name}"' for name in unexpected) + ". ")
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(parts))
        with grad_mode.no_grad():
            for name, param in params.items():
                if name in state_dict:
                    param.copy_(state_dict[name])
        return "<All keys matched successfully>"

    # --- walking the tree (explicit stacks, no recursion) ----------------------------------

    def _named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        seen: set[int] = set()
        stack: list[tuple[str, Module]] = [(prefix, self)]
        while stack:
            name, module = stack.pop()
            if id(module) in seen:
                continue
            seen.add(id(module))
            yield name, module
            children = [(f"{name}.{key}" if name else key, child)
                        for key, child in module._modules.items() if child is not None]
            stack.extend(reversed(children))

    def _named_parameters(self, recurse: bool) -> Iterator[tuple[str, Parameter]]:
        seen: set[int] = set()
        owners = self._named_modules() if recurse else iter([("", self)])
        for prefix, module in owners:
            for key, param in module._parameters.items():
                if param is None or id(param) in seen:
                    continue
                seen.add(id(param))
                yield (f"{prefix}.{key}" if prefix else key), param

    def _named_children(self) -> Iterator[tuple[str, Module]]:
        seen: set[int] = set()
        for key, child in self._modules.items():
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                yield key, child

    def named_modules(self) -> ModuleIterator:
        return ModuleIterator("named_modules", self._named_modules())

    def modules(self) -> ModuleIterator:
        return ModuleIterator("modules", (module for _, module in self._named_modules()))

    def named_children(self) -> ModuleIterator:
        return ModuleIterator("named_children", self._named_children())

    def children(self) -> ModuleIterator:
        return ModuleIterator("children", (child for _, child in self._named_children()))

    def named_parameters(self, prefix: str = "", recurse: bool = True) -> ModuleIterator:
        items = ((f"{prefix}.{name}" if prefix else name, param)
                 for name, param in self._named_parameters(recurse))
        return ModuleIterator("named_parameters", items)

    def parameters(self, recurse: bool = True) -> ModuleIterator:
        return ModuleIterator("parameters",
                              (param for _, param in self._named_parameters(recurse)))

    # --- state -----------------------------------------------------------------------------

    def zero_grad(self, set_to_none: bool = True) -> None:
        zero_grads(self._named_parameters(True), set_to_none)

    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for _, module in self._named_modules():
            module.training = mode
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for _, param in self._named_parameters(True):
            param.requires_grad_(requires_grad)
        return self

    def to(self, *args: Any, dtype: Any = None, device: Any = None, **kwargs: Any) -> Module:
        """`model.to(torch.float64)`, `model.to(device)`: the CPU is the one device there is
        (`"cuda"` fails as on a CPU-only build of torch)."""
        for arg in args:
            if isinstance(arg, dtypes.DType):
                dtype = arg
            elif isinstance(arg, Tensor):
                dtype = arg.dtype
            elif devices.is_device(arg):
                device = arg
        devices.check(device)
        if dtype is None:
            return self
        target = dtypes.resolve(dtype)
        if not target.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but "
                            f"got desired dtype={target}")
        for _, param in self._named_parameters(True):
            param.data = param.data.to(target)
            if param.grad is not None:
                param.grad = param.grad.to(target)
        return self

    def cpu(self) -> Module:
        return self

    def cuda(self, device: Any = None) -> Module:
        if device is not None:
            devices.Device(device)  # torch.device(0): no accelerator
        raise AssertionError(devices.NO_CUDA)

    def float(self) -> Module:
        return self.to(dtypes.float32)

    def double(self) -> Module:
        return self.to(dtypes.float64)

    # --- printing as torch prints modules ----------------------------------------------------

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _indent(repr(child), 2)
                       for key, child in self._modules.items()]
        lines = extra_lines + child_lines
        text = type(self).__name__ + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


def _indent(text: str, spaces: int) -> str:
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


def zero_grads(named: Iterator[tuple[str, Tensor]] | list[Tensor], set_to_none: bool) -> None:
    """torch's `zero_grad`: drop each `.grad`, or detach it and fill it with zeros."""
    for item in named:
        param = item[1] if isinstance(item, tuple) else item
        grad = param.grad
        if grad is None:
            continue
        if set_to_none:
            param.grad = None
            continue
        if grad.grad_fn is not None:
            grad.detach_()
        else:
            grad.requires_grad_(False)
        grad.zero_()


# --- layers ------------------------------------------------------------------------------------

class Linear(Module):
    """`y = x @ weight.T + bias`, weight [out, in] initialised as torch does (seeded here)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.float32).np
        budget.check_shape((out_features, in_features), np_dtype.itemsize)
        self.weight = Parameter(Tensor._wrap(np.empty((out_features, in_features), np_dtype)))
        if bias:
            self.bias = Parameter(Tensor._wrap(np.empty((out_features,), np_dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "bias", "in_features", "out_features",
                                          "reset_parameters"}
    SETTABLE_ATTRS = frozenset({"weight", "bias"})

    def reset_parameters(self) -> None:
        """kaiming_uniform_(weight, a=sqrt(5)) and bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Embedding(Module):
    """A lookup table: weight ~ N(0, 1) (seeded here), the padding row zeroed."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "num_embeddings", "embedding_dim",
                                          "padding_idx"}
    SETTABLE_ATTRS = frozenset({"weight"})

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: Any = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Any = None, _freeze: bool = False,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            if padding_idx < 0:
                padding_idx += num_embeddings
        self.padding_idx = padding_idx
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.float32).np
        budget.check_shape((num_embeddings, embedding_dim), np_dtype.itemsize)
        self.weight = Parameter(Tensor._wrap(np.empty((num_embeddings, embedding_dim),
                                                      np_dtype)))
        normal_(self.weight)
        if padding_idx is not None:
            with grad_mode.no_grad():
                self.weight.array[padding_idx] = 0

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return embedding(input, self.weight, self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        return text if self.padding_idx is None else f"{text}, padding_idx={self.padding_idx}"


class LayerNorm(Module):
    """Normalizes over the last dims; weight ones and bias zeros (elementwise_affine)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"weight", "bias", "normalized_shape", "eps",
                                          "elementwise_affine"}
    SETTABLE_ATTRS = frozenset({"weight", "bias"})

    def __init__(self, normalized_shape: Any, eps: float = 1e-5,
                 elementwise_affine: bool = True, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        shape = ((normalized_shape,) if isinstance(normalized_shape, int)
                 else tuple(int(s) for s in normalized_shape))
        self.normalized_shape = shape
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        np_dtype = (dtypes.resolve(dtype) if dtype is not None else dtypes.float32).np
        budget.check_shape(shape, np_dtype.itemsize)
        if elementwise_affine:
            self.weight = Parameter(Tensor._wrap(np.ones(shape, np_dtype)))
            if bias:
                self.bias = Parameter(Tensor._wrap(np.zeros(shape, np_dtype)))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002 - torch's name
        return layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


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


class Identity(Module):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return input


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


class Flatten(Module):
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"start_dim", "end_dim"}

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.flatten(input, self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class _Loss(Module):
    """A loss module: the reduction (legacy size_average/reduce read as torch reads them)."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"reduction"}

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = _legacy_reduction(size_average, reduce)
        self.reduction = reduction


class MSELoss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return l1_loss(input, target, reduction=self.reduction)


class KLDivLoss(_Loss):
    PUBLIC_ATTRS = _Loss.PUBLIC_ATTRS | {"log_target"}

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class SmoothL1Loss(_Loss):
    PUBLIC_ATTRS = _Loss.PUBLIC_ATTRS | {"beta"}

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    PUBLIC_ATTRS = _Loss.PUBLIC_ATTRS | {"delta"}

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class _WeightedLoss(_Loss):
    PUBLIC_ATTRS = _Loss.PUBLIC_ATTRS | {"weight"}

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.weight = weight


class BCELoss(_WeightedLoss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_WeightedLoss):
    PUBLIC_ATTRS = _WeightedLoss.PUBLIC_ATTRS | {"pos_weight"}

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.pos_weight = pos_weight

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return binary_cross_entropy_with_logits(input, target, weight=self.weight,
                                                reduction=self.reduction,
                                                pos_weight=self.pos_weight)


class NLLLoss(_WeightedLoss):
    PUBLIC_ATTRS = _WeightedLoss.PUBLIC_ATTRS | {"ignore_index"}

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                        reduction=self.reduction)


class CrossEntropyLoss(NLLLoss):
    PUBLIC_ATTRS = NLLLoss.PUBLIC_ATTRS | {"label_smoothing"}

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, ignore_index, reduce, reduction)
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                             reduction=self.reduction, label_smoothing=self.label_smoothing)


def _legacy_reduction(size_average: bool | None, reduce: bool | None) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "none" if not reduce else "mean" if size_average else "sum"
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", UserWarning, stacklevel=3)
    return reduction


class Sequential(Module):
    """Modules applied in order; `model[0]`, `model[-1]`, `model[1:]`, `len`, iteration."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"append"}

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input: Any) -> Any:  # noqa: A002
        for module in self:
            input = module(input)
        return input

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules.values()))  # type: ignore[arg-type]

    def __getitem__(self, index: Any) -> Any:
        items = list(self._modules.items())
        if isinstance(index, slice):
            return Sequential(dict(items[index]))
        position = index.__index__()
        if not -len(items) <= position < len(items):
            raise IndexError(f"index {position} is out of range")
        return items[position][1]

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self


class ModuleList(Module):
    """A list of modules registered as children "0", "1", ...; no forward of its own."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"append", "extend", "insert"}

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules.values()))  # type: ignore[arg-type]

    def __getitem__(self, index: Any) -> Any:
        items = list(self._modules.values())
        if isinstance(index, slice):
            return ModuleList(items[index])
        position = index.__index__()
        if not -len(items) <= position < len(items):
            raise IndexError(f"index {position} is out of range")
        return items[position]

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Any) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        items = list(self._modules.values())
        items.insert(index, module)
        self._modules.clear()
        for position, item in enumerate(items):
            self.add_module(str(position), item)


# --- nn.functional -----------------------------------------------------------------------------

def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """`F.linear` with the graph torch's kernel builds for each input rank.

    Without a bias it is matmul(x, w.t()). With one: addmm(bias, x, w.t()) for a 2-D input;
    other ranks are viewed as 2-D, go through addmm and are viewed back (ViewBackward0).
    """
    if input.ndim == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are 0D "
                           f"and {weight.ndim}D")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{_scalar_name(input)} and {_scalar_name(weight)}")
    weight_t = F.t(weight)
    if bias is None:
        return F.matmul(input, weight_t)
    if input.ndim == 2:
        return F.addmm(bias, input, weight_t)
    rows = F.reshape(input, (-1, input.shape_tuple[-1]))
    return F.reshape(F.addmm(bias, rows, weight_t),
                     (*input.shape_tuple[:-1], weight.shape_tuple[0]))


def _scalar_name(tensor: Tensor) -> str:
    return tensor.dtype.legacy_name.removesuffix("Tensor")


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    return input.relu_() if inplace else F.relu(input)


def _implicit_dim(name: str, ndim: int) -> int:
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
            dtype: Any = None) -> Tensor:
    if dim is None:
        dim = _implicit_dim("softmax", input.ndim)
    if dtype is not None:
        input = input.to(dtype)
    return F.softmax(input, dim)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
                dtype: Any = None) -> Tensor:
    if dim is None:
        dim = _implicit_dim("log_softmax", input.ndim)
    if dtype is not None:
        input = input.to(dtype)
    return F.log_softmax(input, dim)


def mse_loss(input: Tensor, target: Tensor, size_average: bool | None = None,  # noqa: A002
             reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """torch warns when the shapes differ, then broadcasts (ExpandBackward0 where needed)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if target.shape_tuple != input.shape_tuple:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                      f"size ({input.shape}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=2)
        try:
            common = np.broadcast_shapes(input.shape_tuple, target.shape_tuple)
        except ValueError:
            raise RuntimeError(_broadcast_message(input.shape, target.shape)) from None
        if input.shape_tuple != common:
            input = F.expand(input, common)
        if target.shape_tuple != common:
            target = F.expand(target, common)
    return F.mse_loss(input, target, reduction=reduction)


def _reduction(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
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
    reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("mean", "batchmean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "mean":
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
    input, target = _same_shape(input, target)
    return loss.HuberLoss.apply(input, target, reduction=reduction, beta=delta)


def _same_shape(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:  # noqa: A002
    """torch warns when the shapes differ, then broadcasts."""
    if target.shape_tuple == input.shape_tuple:
        return input, target
    warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                  f"size ({input.shape}). This will likely lead to incorrect results due "
                  "to broadcasting. Please ensure they have the same size.", UserWarning,
                  stacklevel=3)
    try:
        common = np.broadcast_shapes(input.shape_tuple, target.shape_tuple)
    except ValueError:
        raise RuntimeError(_broadcast_message(input.shape, target.shape)) from None
    return F.expand(input, common), F.expand(target, common)


def binary_cross_entropy(input: Tensor, target: Tensor,  # noqa: A002
                         weight: Tensor | None = None, size_average: bool | None = None,
                         reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape_tuple != input.shape_tuple:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the "
                         f"input size ({input.shape}) is deprecated. Please ensure they have "
                         "the same size.")
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {_scalar_name(target)} but expected "
                           f"{_scalar_name(input)}")
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
        raise RuntimeError(f"result type {_scalar_name(input)} can't be cast to the desired "
                           f"output type {_scalar_name(target)}")
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
                           f"{_scalar_name(target)}")
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
    return loss.NllLoss.apply(input, target=target.array.astype(np.int64),
                              weight=_array(weight), ignore_index=ignore_index,
                              reduction=reduction)


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
    if label_smoothing and weight is not None:
        raise NotImplementedError("cross_entropy with label_smoothing and a weight is not "
                                  "supported by agraph")
    log_probs = F.log_softmax(input, class_dim)
    if label_smoothing and not probabilities:
        # torch's cross_entropy_loss_label_smoothing, op for op
        nll = nll_loss(log_probs, target, ignore_index=ignore_index, reduction=reduction)
        ignore_mask = F.eq(target, ignore_index)
        smooth = F.neg(F.sum(log_probs, dim=class_dim))
        smooth.masked_fill_(ignore_mask, 0.0)
        if reduction == "mean":
            smooth = F.div(F.sum(smooth), F.sum(F.logical_not(ignore_mask)))
        elif reduction == "sum":
            smooth = F.sum(smooth)
        n_classes = input.shape_tuple[class_dim]
        return F.add(arith.MulScalar.apply(nll, scalar=1 - label_smoothing),
                     arith.MulScalar.apply(smooth, scalar=label_smoothing / n_classes))
    if probabilities:
        if weight is not None:
            raise NotImplementedError("cross_entropy with class probabilities and a weight is "
                                      "not supported by agraph")
        if label_smoothing:
            n_classes = input.shape_tuple[class_dim]
            target = F.add(F.mul(target, 1 - label_smoothing), label_smoothing / n_classes)
        losses = F.neg(F.sum(F.mul(log_probs, target), dim=class_dim))
        if reduction == "none":
            return losses
        if reduction == "sum":
            return F.sum(losses)
        if reduction != "mean":
            raise ValueError(f"{reduction} is not a valid value for reduction")
        count = input.numel() // input.shape_tuple[class_dim] if input.numel() else 0
        return arith.DivScalar.apply(F.sum(losses), scalar=count)
    return nll_loss(log_probs, target, weight=weight, ignore_index=ignore_index,
                    reduction=reduction)


def _broadcast_message(a: Size, b: Size) -> str:
    for offset in range(1, min(len(a), len(b)) + 1):
        size_a, size_b = a[-offset], b[-offset]
        if size_a != size_b and size_a != 1 and size_b != 1:
            return (f"The size of tensor a ({size_a}) must match the size of tensor b "
                    f"({size_b}) at non-singleton dimension {max(len(a), len(b)) - offset}")
    return f"shape mismatch: {a} and {b} cannot be broadcast"


FUNCTIONAL: dict[str, Any] = {
    "relu": relu,
    "sigmoid": F.sigmoid,
    "tanh": F.tanh,
    "softmax": softmax,
    "log_softmax": log_softmax,
    "mse_loss": mse_loss,
    "l1_loss": l1_loss,
    "smooth_l1_loss": smooth_l1_loss,
    "kl_div": kl_div,
    "layer_norm": layer_norm,
    "embedding": embedding,
    "huber_loss": huber_loss,
    "binary_cross_entropy": binary_cross_entropy,
    "binary_cross_entropy_with_logits": binary_cross_entropy_with_logits,
    "nll_loss": nll_loss,
    "cross_entropy": cross_entropy,
    "linear": linear,
}


# --- nn.init -----------------------------------------------------------------------------------

def _fans(tensor: Tensor) -> tuple[int, int]:
    if tensor.ndim < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = int(np.prod(tensor.shape_tuple[2:], dtype=np.int64))
    return tensor.shape_tuple[1] * receptive, tensor.shape_tuple[0] * receptive


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def constant_(tensor: Tensor, val: Any) -> Tensor:
    with grad_mode.no_grad():
        return tensor.fill_(val)


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    with grad_mode.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None
            ) -> Tensor:
    with grad_mode.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def _fan(tensor: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _fans(tensor)
    return fan_in if mode == "fan_in" else fan_out


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    fan = _fan(tensor, mode)
    if fan == 0:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=2)
        return tensor
    bound = math.sqrt(3.0) * (calculate_gain(nonlinearity, a) / math.sqrt(fan))
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    fan = _fan(tensor, mode)
    if fan == 0:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=2)
        return tensor
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan), generator)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _fans(tensor)
    bound = math.sqrt(3.0) * (gain * math.sqrt(2.0 / float(fan_in + fan_out)))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def zeros_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 0)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1)


class InitFunctions:
    """`nn.init`: its functions, reached by attribute (`nn.init.zeros_(w)`)."""

    PUBLIC_ATTRS = frozenset("""
        zeros_ ones_ constant_ uniform_ normal_ kaiming_uniform_ kaiming_normal_
        xavier_uniform_ xavier_normal_ calculate_gain trunc_normal_
        """.split())

    zeros_ = staticmethod(zeros_)
    ones_ = staticmethod(ones_)
    constant_ = staticmethod(constant_)
    uniform_ = staticmethod(uniform_)
    normal_ = staticmethod(normal_)
    kaiming_uniform_ = staticmethod(kaiming_uniform_)
    kaiming_normal_ = staticmethod(kaiming_normal_)
    xavier_uniform_ = staticmethod(xavier_uniform_)
    xavier_normal_ = staticmethod(xavier_normal_)
    calculate_gain = staticmethod(calculate_gain)
    trunc_normal_ = staticmethod(random.trunc_normal_)

    def __repr__(self) -> str:
        return "<module 'torch.nn.init'>"


init = InitFunctions()


NN: dict[str, Any] = {
    "Module": Module,
    "Parameter": Parameter,
    "Linear": Linear,
    "ReLU": ReLU,
    "Sigmoid": Sigmoid,
    "Tanh": Tanh,
    "Softmax": Softmax,
    "LogSoftmax": LogSoftmax,
    "Identity": Identity,
    "Flatten": Flatten,
    "Sequential": Sequential,
    "MSELoss": MSELoss,
    "L1Loss": L1Loss,
    "SmoothL1Loss": SmoothL1Loss,
    "KLDivLoss": KLDivLoss,
    "LayerNorm": LayerNorm,
    "Embedding": Embedding,
    "ModuleList": ModuleList,
    "HuberLoss": HuberLoss,
    "BCELoss": BCELoss,
    "BCEWithLogitsLoss": BCEWithLogitsLoss,
    "NLLLoss": NLLLoss,
    "CrossEntropyLoss": CrossEntropyLoss,
    "init": init,
}
