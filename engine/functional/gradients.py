"""`torch.autograd.backward` and `torch.autograd.grad`: the checks and default gradients
before engine/autograd.py runs the backward pass."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine.backward import run_backward
from engine.registry import public
from engine.tensor import Tensor

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak.")


# --- autograd -----------------------------------------------------------------------------------

def _as_list(value: Any) -> list[Any]:
    """A tensor or any iterable of them (a list, a tuple, `model.parameters()`), as PyTorch's
    `tuple(inputs)` takes them."""
    if value is None:
        return []
    return [value] if isinstance(value, Tensor) else list(value)


def _default_grads(outputs: Sequence[Tensor], grads: Sequence[Any] | None,
                   create_graph: bool) -> list[Tensor]:
    result = []
    for index, output in enumerate(outputs):
        grad = grads[index] if grads is not None and index < len(grads) else None
        if grad is None:
            if output.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if not output.dtype.is_floating_point:
                raise RuntimeError("grad can be implicitly created only for real scalar outputs "
                                   f"but got {output.dtype}")
            ones = np.empty(output.shape_tuple, dtype=output.array.dtype)
            ones.fill(1)  # np.ones, without its Python-level wrapper (once per backward)
            grad = Tensor._wrap(ones)
        elif not isinstance(grad, Tensor):
            grad = Tensor._wrap(np.asarray(grad, dtype=output.array.dtype))
        elif grad.shape_tuple != output.shape_tuple:
            raise RuntimeError(f"Mismatch in shape: grad_output[{index}] has a shape of "
                               f"{grad.shape} and output[{index}] has a shape of "
                               f"{output.shape}.")
        result.append(grad)
    return result


def _check_outputs(outputs: Sequence[Tensor]) -> None:
    for index, output in enumerate(outputs):
        if not isinstance(output, Tensor):
            raise TypeError(f"expected Tensor as element {index} in argument 0, but got "
                            f"{type(output).__name__}")
        if not output.requires_grad:
            raise RuntimeError(f"element {index} of tensors does not require grad and does not "
                               "have a grad_fn")


@public(torch=False)
def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    outputs = _as_list(tensors)
    input_list = _as_list(inputs) if inputs is not None else None
    if input_list is not None and not input_list:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    _check_outputs(outputs)
    grads = _default_grads(outputs, _as_list(grad_tensors) or None, create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=3)
    for tensor in input_list or ():
        if tensor.grad_fn is not None:
            tensor.retain_grad()  # a non-leaf input gets its .grad as a retained gradient
    run_backward(outputs, grads, retain_graph, create_graph, inputs=input_list)


@public(torch=False)
def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple[Any, ...]:
    output_list = _as_list(outputs)
    input_list = _as_list(inputs)
    _check_outputs(output_list)
    for index, tensor in enumerate(input_list):
        if not isinstance(tensor, Tensor):
            raise TypeError(f"expected Tensor as element {index} in argument 1, but got "
                            f"{type(tensor).__name__}")
        if not tensor.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grads = _default_grads(output_list, _as_list(grad_outputs) or None, create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    results = run_backward(output_list, grads, retain_graph, create_graph, inputs=input_list,
                           capture=True, allow_unused=bool(allow_unused) or materialize_grads)
    if materialize_grads:
        results = [Tensor._wrap(np.zeros(t.shape_tuple, dtype=t.array.dtype)) if r is None
                   else r for r, t in zip(results, input_list, strict=True)]
    if not create_graph:
        results = [None if r is None else r.detach() for r in results]
    return tuple(results)
