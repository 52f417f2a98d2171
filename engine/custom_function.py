"""`torch.autograd.Function`: a program's own op, its forward and backward written as static
methods, and `gradcheck` / `gradgradcheck` to test one against finite differences.

`Function.apply(*args)` makes the context, a node named `<Class>Backward` as PyTorch names it,
runs `forward(ctx, *args)` with grad mode off (or `forward(*args)` then
`setup_context(ctx, inputs, output)`), and makes the node the grad_fn of the tensor outputs
when an input needs a gradient. The backward pass calls `backward(ctx, *grads)` with grad mode
as create_graph sets it, so a backward written with tensor ops is itself differentiable
(double backward through a custom Function).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine import grad_mode, recording
from engine.addresses import address_of
from engine.autograd import (
    NO_EDGE,
    IncompatibleGradient,
    Node,
    fit_gradient,
    gradient_edge,
    modified_message,
    zeros_of,
)
from engine.functional import grad as autograd_grad
from engine.tensor import Tensor

_grad_state = grad_mode.state


class FunctionCtx(Node):
    """The `ctx` of a custom Function and its node in the backward graph.

    A program may set attributes of its own on it (`ctx.constant = 2`); they live in
    `program_attributes`, apart from the node's own state.
    """

    PUBLIC_ATTRS = Node.PUBLIC_ATTRS | frozenset({
        "save_for_backward", "saved_tensors", "needs_input_grad", "mark_dirty",
        "mark_non_differentiable", "set_materialize_grads", "save_for_forward"})
    OPEN_ATTRS = True  # a program may set and read attributes of its own

    def __init__(self, function_class: type, needs_input_grad: tuple[bool, ...]) -> None:
        super().__init__()
        self.function_class = function_class
        self.grad_fn_name = f"{function_class.__name__}Backward"
        self.needs_input_grad = needs_input_grad
        self.program_attributes: dict[str, Any] = {}
        self.to_save: tuple[Any, ...] = ()
        self.saved_versions: tuple[int, ...] = ()
        self.dirty: tuple[Tensor, ...] = ()
        self.non_differentiable: tuple[Tensor, ...] = ()
        self.materialize_grads = True
        self.output_meta: tuple[Any, ...] = ()
        self.input_meta: tuple[Any, ...] = ()
        self.needs: tuple[bool, ...] = ()
        self.input_count = 0

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{self.grad_fn_name} object at {address_of(self)}>"

    def save_for_backward(self, *tensors: Any) -> None:
        """Kept as given; checked only when a graph is recorded (PyTorch's order: a Function
        applied to plain numbers may save them)."""
        self.to_save = tensors
        self.saved_something = bool(tensors)

    def save_for_forward(self, *tensors: Any) -> None:
        self.saved_for_forward = tensors

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        if self.released:
            self.check_not_released()
        for tensor, version in zip(self.to_save, self.saved_versions, strict=False):
            if isinstance(tensor, Tensor) and tensor._version[0] != version:
                raise RuntimeError(modified_message(tensor, version, tensor.grad_fn,
                                                    tensor.output_nr))
        return tuple(self.to_save)

    @property
    def saved(self) -> tuple[Any, ...]:
        """What the graph views draw as this node's saved tensors."""
        return tuple(self.to_save)

    def mark_dirty(self, *tensors: Any) -> None:
        self.dirty = tensors

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = bool(value)

    def release(self) -> None:
        self.to_save = ()
        self.released = True

    def apply_backward(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        if self.released and self.saved_something:
            self.check_not_released()
        grads = list(grads) + [None] * (len(self.output_meta) - len(grads))
        if self.materialize_grads:
            grads = [zeros_of(*meta) if grad is None and meta is not None else grad
                     for grad, meta in zip(grads, self.output_meta, strict=True)]
        results = self.function_class.backward(self, *grads)  # type: ignore[attr-defined]
        if not isinstance(results, tuple):
            results = (results,)
        if len(results) != self.input_count:
            if len(results) > self.input_count and all(
                    r is None for r in results[self.input_count:]):
                results = results[:self.input_count]
            else:
                raise RuntimeError(f"function {self.grad_fn_name} returned an incorrect number "
                                   f"of gradients (expected {self.input_count}, got "
                                   f"{len(results)})")
        fitted: list[Tensor | None] = []
        for index, (result, meta) in enumerate(zip(results, self.input_meta, strict=True)):
            if meta is None:
                if result is not None:
                    raise RuntimeError(f"function {self.grad_fn_name} returned a gradient "
                                       f"different than None at position {index + 1}, but the "
                                       "corresponding forward input was not a Variable")
                continue
            if result is not None and not isinstance(result, Tensor):
                raise TypeError(f"function {self.grad_fn_name} returned a gradient of type "
                                f"{type(result).__name__} at position {index + 1}")
            if result is not None and (result.array.shape != meta[0]
                                       or result.array.dtype != meta[1]):
                if not self.needs[len(fitted)]:  # dropped unchecked, as PyTorch drops it
                    result = None
                else:
                    try:
                        result = fit_gradient(result, *meta)
                    except IncompatibleGradient as error:
                        raise error.at(self.grad_fn_name, len(fitted)) from None
            fitted.append(result)
        return fitted


class Function:
    """`torch.autograd.Function`: a program subclasses it and calls `Cls.apply(...)`."""

    PUBLIC_ATTRS = frozenset({"apply", "forward", "backward", "setup_context"})

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode AD.")

    setup_context: Any = None  # a subclass that defines it has a forward without ctx

    @staticmethod
    def warn_instantiated(cls: type) -> None:
        """`Cls()`: allowed, with PyTorch's DeprecationWarning (Function.__init__)."""
        warnings.warn(f"<class '{cls.__module__}.{cls.__qualname__}'> should not be "
                      "instantiated. Methods on autograd functions are all static, so you should "
                      "invoke them on the class itself. Instantiating an autograd function will "
                      "raise an error in a future version of PyTorch.", DeprecationWarning,
                      stacklevel=3)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("Legacy autograd function with non-static forward method is "
                           "deprecated. Please use new-style autograd function with static "
                           "forward method. (Example: https://pytorch.org/docs/stable/"
                           "autograd.html#torch.autograd.Function)")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Function:
            raise RuntimeError("In order to use an autograd.Function you must implement a "
                               "forward method and a backward method")
        enabled = _grad_state["enabled"]
        needs = tuple(enabled and isinstance(a, Tensor) and a._requires_grad for a in args)
        ctx = FunctionCtx(cls, needs)
        with grad_mode.no_grad():
            if cls.setup_context is not None:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        ctx.saved_versions = tuple(t._version[0] if isinstance(t, Tensor) else 0
                                   for t in ctx.to_save)
        output = _connect(ctx, args, output) if any(needs) else _detached(ctx, args, output)
        if recording.observer is not None:
            outputs = output if isinstance(output, tuple) else (output,)
            first = next((o for o in outputs if isinstance(o, Tensor)), None)
            if first is not None:
                recording.observer.on_op(ctx.grad_fn_name, first.grad_fn, args, first)
        return output


def _connect(ctx: FunctionCtx, args: tuple[Any, ...], output: Any) -> Any:
    """Make `ctx` the grad_fn of the differentiable tensor outputs (an input returned as it is
    becomes a new tensor over the same data, as PyTorch's view of it)."""
    for index, tensor in enumerate(ctx.to_save):
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"save_for_backward can only save variables, but argument "
                            f"{index} is of type {type(tensor).__name__}")
    for tensor in ctx.dirty:  # modified in place by forward: as an in-place op on it would be
        if isinstance(tensor, Tensor) and tensor._requires_grad and tensor.grad_fn is None:
            raise RuntimeError("a leaf Variable that requires grad has been used in an in-place "
                               "operation.")
    ctx.input_count = len(args)
    ctx.input_meta = tuple((a.array.shape, a.array.dtype) if isinstance(a, Tensor) else None
                           for a in args)
    ctx.next_functions = tuple(gradient_edge(a) if a._requires_grad else NO_EDGE
                               for a in args if isinstance(a, Tensor))
    ctx.needs = tuple(needs for needs, a in zip(ctx.needs_input_grad, args, strict=True)
                      if isinstance(a, Tensor))
    single = not isinstance(output, tuple)
    outputs = [output] if single else list(output)
    meta: list[Any] = []
    for nr, value in enumerate(outputs):
        if not isinstance(value, Tensor):
            meta.append(None)
            continue
        meta.append((value.array.shape, value.array.dtype))
        if any(value is t for t in ctx.non_differentiable):
            value._requires_grad = False
            continue
        if any(value is a for a in args) and not any(value is t for t in ctx.dirty):
            alias = Tensor._wrap(value.array)
            alias._version = value._version
            outputs[nr] = value = alias
        if value.array.dtype.kind not in "fc":
            continue
        value._requires_grad, value._grad_fn, value.output_nr = True, ctx, nr
    ctx.output_meta = tuple(meta)
    return outputs[0] if single else tuple(outputs)


def _detached(ctx: FunctionCtx, args: tuple[Any, ...], output: Any) -> Any:
    """No node is made (grad mode off, or no input requires grad): an input returned as it is
    comes back as an alias of it that does not require grad (a detached one, as PyTorch's)."""
    single = not isinstance(output, tuple)
    outputs = [output] if single else list(output)
    for nr, value in enumerate(outputs):
        if not isinstance(value, Tensor):
            continue
        if any(value is a for a in args):
            if value._requires_grad or not any(value is t for t in ctx.dirty):
                outputs[nr] = value.detach()
        elif value._requires_grad and value.grad_fn is None:
            value._requires_grad = False
    return outputs[0] if single else tuple(outputs)


def once_differentiable(backward: Any) -> Any:
    """`@once_differentiable` on a backward: it runs without building a graph."""
    def wrapped(ctx: Any, *grads: Any) -> Any:
        with grad_mode.no_grad():
            return backward(ctx, *grads)
    return wrapped


# --- gradcheck -------------------------------------------------------------------------------

class GradcheckError(RuntimeError):
    """What gradcheck raises (a RuntimeError, as in PyTorch)."""


def gradcheck(func: Any, inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, **ignored: Any) -> bool:
    """Compare the Jacobian autograd computes with central finite differences."""
    inputs = inputs if isinstance(inputs, tuple) else (
        tuple(inputs) if isinstance(inputs, list) else (inputs,))
    differentiable = [i for i, a in enumerate(inputs) if isinstance(a, Tensor) and a.requires_grad]
    outputs = _outputs(func(*inputs))
    for out_index, output in enumerate(outputs):
        for in_index in differentiable:
            numerical = _numerical_jacobian(func, inputs, in_index, out_index, eps)
            analytical = _analytical_jacobian(output, inputs[in_index])
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {out_index} with respect to input {in_index},\n"
                    f"numerical:{Tensor._wrap(numerical)}\nanalytical:"
                    f"{Tensor._wrap(analytical)}\n")
    return True


def gradgradcheck(func: Any, inputs: Any, grad_outputs: Any = None, *, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3, raise_exception: bool = True,
                  **ignored: Any) -> bool:
    """gradcheck of the function that maps inputs (and grad_outputs) to the input gradients."""
    inputs = inputs if isinstance(inputs, tuple) else (
        tuple(inputs) if isinstance(inputs, list) else (inputs,))
    outputs = _outputs(func(*inputs))
    if grad_outputs is None:  # torch.testing.make_tensor's: U(-1, 1) from the default generator
        grad_outputs = tuple(Tensor._wrap(np.empty(o.array.shape, dtype=o.array.dtype)).uniform_(
            -1, 1).requires_grad_(True) for o in outputs)
    grad_outputs = tuple(grad_outputs) if isinstance(grad_outputs, (tuple, list)) else (
        grad_outputs,)
    count = len(inputs)
    differentiable = [i for i, a in enumerate(inputs) if isinstance(a, Tensor) and a.requires_grad]

    def first_derivative(*values: Any) -> tuple[Any, ...]:
        outs = _outputs(func(*values[:count]))
        wrt = [values[i] for i in differentiable]
        return autograd_grad(outs, wrt, values[count:], create_graph=True, allow_unused=True)

    return gradcheck(first_derivative, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


def _outputs(result: Any) -> tuple[Tensor, ...]:
    values = result if isinstance(result, (tuple, list)) else (result,)
    return tuple(v for v in values if isinstance(v, Tensor) and v.requires_grad)


def _numerical_jacobian(func: Any, inputs: tuple[Any, ...], in_index: int, out_index: int,
                        eps: float) -> Any:
    source = inputs[in_index]
    flat = source.array.reshape(-1)
    columns = []
    base = _outputs_plain(func(*inputs))[out_index]
    for position in range(flat.size):
        original = flat[position]
        flat[position] = original + eps
        plus = _outputs_plain(func(*inputs))[out_index].reshape(-1).astype(np.float64)
        flat[position] = original - eps
        minus = _outputs_plain(func(*inputs))[out_index].reshape(-1).astype(np.float64)
        flat[position] = original
        columns.append((plus - minus) / (2 * eps))
    return np.stack(columns, axis=0) if columns else np.zeros((0, base.size))


def _outputs_plain(result: Any) -> list[Any]:
    values = result if isinstance(result, (tuple, list)) else (result,)
    return [v.array for v in values if isinstance(v, Tensor) and v.requires_grad]


def _analytical_jacobian(output: Tensor, source: Tensor) -> Any:
    rows = []
    size = output.array.size
    for position in range(size):
        seed = np.zeros(size, dtype=output.array.dtype)
        seed[position] = 1
        (result,) = autograd_grad([output], [source], [Tensor._wrap(seed.reshape(
            output.array.shape))], retain_graph=True, allow_unused=True)
        rows.append(np.zeros(source.array.size) if result is None
                    else result.array.reshape(-1).astype(np.float64))
    return np.stack(rows, axis=1) if rows else np.zeros((source.array.size, 0))


AUTOGRAD_FUNCTION = {"Function": Function, "gradcheck": gradcheck,
                     "gradgradcheck": gradgradcheck}
FUNCTION_MODULE = {"once_differentiable": once_differentiable, "Function": Function,
                   "FunctionCtx": FunctionCtx}
