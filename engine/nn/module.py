"""`nn.Module`: parameters, buffers and submodules registered as torch registers them (assigning
a Parameter or a Module to an attribute registers it, in order), so `parameters()`, `print(model)`,
`state_dict()`, hooks and attribute access behave like torch's."""

from __future__ import annotations

import warnings
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

from engine import device as devices
from engine import dtypes, grad_mode
from engine.addresses import address_of
from engine.autograd import Function, RemovableHandle
from engine.backward import checked_hook_result
from engine.tensor import Parameter, Tensor


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


# what type(net.parameters()) shows, and errors name: Python's generator
ModuleIterator.__name__ = ModuleIterator.__qualname__ = "generator"
ModuleIterator.__module__ = "builtins"


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
    holds has attributes beyond its class's. Assignable are `training` and a layer's parameters
    (`model.weight = nn.Parameter(...)`; a plain tensor is refused with torch's TypeError).
    """

    PUBLIC_ATTRS = frozenset("""
        forward parameters named_parameters children named_children modules named_modules
        zero_grad train eval training requires_grad_ to cpu cuda float double
        register_forward_hook register_forward_pre_hook state_dict load_state_dict
        register_full_backward_hook add_module register_parameter
        register_buffer buffers named_buffers register_backward_hook apply extra_repr
        """.split())
    # `m.training = False` changes m alone (`m.train(False)` its submodules too)
    SETTABLE_ATTRS: frozenset[str] = frozenset({"training"})

    _parameters: dict[str, Parameter | None]
    _modules: dict[str, Module | None]
    _buffers: dict[str, Tensor | None]

    def __init__(self) -> None:
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_forward_hooks", [])
        object.__setattr__(self, "_forward_pre_hooks", [])
        object.__setattr__(self, "_backward_hooks", [])
        object.__setattr__(self, "_node_backward_hooks", [])
        self.training = True

    # --- registration: attribute assignment as torch's Module.__setattr__ does it ----------

    def __setattr__(self, name: str, value: Any) -> None:
        tables = (self.__dict__.get("_parameters"), self.__dict__.get("_modules"))
        for index, (kind, what, role, expected) in enumerate(_REGISTERED):
            table = tables[index]
            if isinstance(value, kind):
                if tables[0] is None or tables[1] is None:
                    raise AttributeError(f"cannot assign {what} before Module.__init__() call")
                self.__dict__.pop(name, None)
                tables[1 - index].pop(name, None)  # type: ignore[union-attr]
                table[name] = value  # type: ignore[index]
                return
            if table is not None and name in table:
                if value is not None:
                    raise TypeError(f"cannot assign '{typename(value)}' as {role} '{name}' "
                                    f"({expected} or None expected)")
                table[name] = None
                return
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        for table in ("_parameters", "_buffers", "_modules"):
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

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True
                        ) -> None:
        """A tensor the module keeps that is not a parameter: in state_dict (when persistent),
        buffers(), moved by .to(), never given to an optimizer."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if (name in self.__dict__ or name in self._parameters or name in self._modules) \
                and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent.discard(name)
        else:
            self._non_persistent.add(name)

    # --- calling ---------------------------------------------------------------------------

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        pre_hooks = self.__dict__.get("_forward_pre_hooks")
        for pre_hook in list(pre_hooks) if pre_hooks else ():  # (a copy: a hook may remove itself)
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
            originals = grad_input
            for hook in list(hooks):
                changed = hook(self, grad_input, state["grad_output"])
                if changed is None:
                    continue
                if len(changed) != len(grad_input):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                       f"got {len(changed)}, but expected {len(grad_input)}")
                grad_input = tuple(changed)
            # checked as torch checks what its node hook returns; that hook is named `hook`
            return tuple(None if new is None else checked_hook_result("hook", old, new)
                         for old, new in zip(originals, grad_input, strict=True))

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
        hooks = self.__dict__["_backward_hooks"]
        hooks.insert(0, hook) if prepend else hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def _forward_and_hooks(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        output = self.forward(*args, **kwargs)
        hooks = self.__dict__.get("_forward_hooks")
        for hook in list(hooks) if hooks else ():
            changed = hook(self, args, output)
            if changed is not None:
                output = changed
        node_hooks = self.__dict__.get("_node_backward_hooks")
        if node_hooks:
            attach_node_hooks(self, node_hooks, args, output)
        return output

    def register_backward_hook(self, hook: Any) -> RemovableHandle:
        """The deprecated hook: `hook(module, grad_input, grad_output)` on the node that made
        the output (its gradients, not the module's inputs'), with PyTorch's FutureWarning
        when they differ."""
        hooks = self.__dict__["_node_backward_hooks"]
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

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
        """Parameters and persistent buffers by dotted name, detached (keep_vars=False)."""
        return OrderedDict((name, value.detach()) for name, value in self._state_items())

    def _state_items(self) -> Iterator[tuple[str, Tensor]]:
        """Each module's parameters, then its persistent buffers, modules in pre-order."""
        seen: set[int] = set()
        for prefix, module in self._named_modules():
            for key, param in module._parameters.items():
                if param is not None and id(param) not in seen:
                    seen.add(id(param))
                    yield (f"{prefix}.{key}" if prefix else key), param
            for key, buffer in module._buffers.items():
                if buffer is not None and key not in module._non_persistent:
                    yield (f"{prefix}.{key}" if prefix else key), buffer

    def load_state_dict(self, state_dict: Any, strict: bool = True) -> Any:
        params = dict(self._state_items())
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
        return self._named_members("_parameters", recurse)

    def _named_members(self, table: str, recurse: bool) -> Iterator[tuple[str, Any]]:
        """Each parameter or buffer (TABLE: "_parameters", "_buffers") once, with its dotted
        name, of this module and (RECURSE) the modules below it."""
        seen: set[int] = set()
        owners = self._named_modules() if recurse else iter([("", self)])
        for prefix, module in owners:
            for key, member in getattr(module, table).items():
                if member is None or id(member) in seen:
                    continue
                seen.add(id(member))
                yield (f"{prefix}.{key}" if prefix else key), member

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

    def _named_buffers(self, recurse: bool) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", recurse)

    def named_buffers(self, prefix: str = "", recurse: bool = True) -> ModuleIterator:
        items = ((f"{prefix}.{name}" if prefix else name, buffer)
                 for name, buffer in self._named_buffers(recurse))
        return ModuleIterator("named_buffers", items)

    def buffers(self, recurse: bool = True) -> ModuleIterator:
        return ModuleIterator("buffers", (buffer for _, buffer in self._named_buffers(recurse)))

    def apply(self, fn: Any) -> Module:
        """fn(module) for every submodule, children first, then this one (PyTorch's order)."""
        pending: list[tuple[Module, bool]] = [(self, False)]
        while pending:
            module, expanded = pending.pop()
            if expanded:
                fn(module)
                continue
            pending.append((module, True))
            children = [child for _, child in module._named_children()]
            pending.extend((child, False) for child in reversed(children))
        return self

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
        for _, module in self._named_modules():
            for key, buffer in module._buffers.items():
                if buffer is not None and buffer.dtype.is_floating_point:
                    module._buffers[key] = buffer.to(target)
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
        child_lines = [f"({key}): " + indent(repr(child), 2)
                       for key, child in self._modules.items()]
        lines = extra_lines + child_lines
        text = type(self).__name__ + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


# What Module.__setattr__ registers, in the order it looks: the kind of value, and how its
# errors name it (a Parameter goes to _parameters, a Module to _modules).
_REGISTERED = ((Parameter, "parameters", "parameter", "torch.nn.Parameter"),
               (Module, "module", "child module", "torch.nn.Module"))


NON_FULL_HOOK = ("Using a non-full backward hook when the forward contains multiple autograd "
                 "Nodes is deprecated and will be removed in future versions. This hook will be "
                 "missing some grad_input. Please use register_full_backward_hook to get the "
                 "documented behavior.")


def attach_node_hooks(module: Module, hooks: list[Any], args: tuple[Any, ...],
                      output: Any) -> None:
    """register_backward_hook's hooks on the node that made the (first) output, as PyTorch
    attaches them, and its warning when that node's inputs are not the module's."""
    first = output
    while isinstance(first, (tuple, list)) and first:
        first = first[0]
    node = first.grad_fn if isinstance(first, Tensor) else None
    if node is None:
        return
    for hook in list(hooks):
        node.register_hook(lambda grad_input, grad_output, hook=hook:
                           hook(module, grad_input, grad_output))
    inputs = {id(a.grad_fn) for a in args if isinstance(a, Tensor) and a.grad_fn is not None}
    edges = {id(child) for child, _ in node.next_functions}
    if inputs != edges:
        warnings.warn(NON_FULL_HOOK, FutureWarning, stacklevel=2)


def affine_parameters(module: Module, shape: Any, np_dtype: np.dtype, affine: bool,
                      bias: bool) -> None:
    """A normalization's learnable scale and shift of SHAPE: `weight` ones and `bias` zeros,
    each None where AFFINE (or BIAS) is off, as torch registers them."""
    module.register_parameter(
        "weight", Parameter(Tensor._wrap(np.ones(shape, np_dtype))) if affine else None)
    module.register_parameter(
        "bias", Parameter(Tensor._wrap(np.zeros(shape, np_dtype))) if affine and bias else None)


def indent(text: str, spaces: int) -> str:
    """torch's _addindent: every line but the first indented by `spaces`."""
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


def copied(module: Module) -> Module:
    """copy.deepcopy of a module tree, as nn.Transformer*'s _get_clones makes its layers: each
    parameter and buffer a new leaf with its data copied (requires_grad kept), each submodule
    copied, the other attributes (numbers, strings, functions, hook lists) copied shallowly."""
    result = object.__new__(type(module))
    for name, item in module.__dict__.items():
        if name in ("_parameters", "_buffers"):
            item = {key: None if t is None else _copied_tensor(t) for key, t in item.items()}
        elif name == "_modules":
            item = {key: None if m is None else copied(m) for key, m in item.items()}
        elif isinstance(item, (list, dict, set)):
            item = type(item)(item)
        object.__setattr__(result, name, item)
    return result


def _copied_tensor(tensor: Tensor) -> Tensor:
    data = Tensor._wrap(np.array(tensor.array, copy=True))
    if isinstance(tensor, Parameter):
        return Parameter(data, tensor.requires_grad)
    return data.requires_grad_(True) if tensor.requires_grad else data
