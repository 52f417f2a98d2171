"""`torch.autograd.functional`: jacobian, hessian, vjp, jvp, vhp, hvp, as torch computes them.

Written the way torch's reverse-mode implementation is (torch/autograd/functional.py): one
`autograd.grad` per output element for a Jacobian, a Jacobian of a Jacobian for a Hessian, the
double-backward trick for jvp, so values, dtypes and which results carry a graph agree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import budget, creation, grad_mode
from engine import functional as F
from engine.ops.shape import PIECE_BYTES
from engine.tensor import Tensor


def _as_tuple(value: Any, what: str, name: str) -> tuple[bool, tuple[Tensor, ...]]:
    is_tuple = isinstance(value, (tuple, list))
    items = tuple(value) if is_tuple else (value,)
    for index, item in enumerate(items):
        if not isinstance(item, Tensor):
            if is_tuple:
                raise TypeError(f"The {what} given to {name} must be either a Tensor or a "
                                f"tuple of Tensors but the value at index {index} has type "
                                f"{type(item).__name__}.")
            raise TypeError(f"The {what} given to {name} must be either a Tensor or a tuple of "
                            f"Tensors but the given {what} has type {type(item).__name__}.")
    return is_tuple, items


def _prepare(inputs: tuple[Tensor, ...], create_graph: bool) -> tuple[Tensor, ...]:
    """torch's _grad_preprocess: fresh leaves, or views that keep the graph (create_graph)."""
    if create_graph:
        return tuple(x.view_as(x) if x.requires_grad else x.detach().requires_grad_(True)
                     for x in inputs)
    return tuple(x.detach().requires_grad_(True) for x in inputs)


def _finish(values: Any, create_graph: bool) -> Any:
    """torch's _grad_postprocess: without create_graph the results are detached."""
    if isinstance(values, tuple):
        return tuple(_finish(v, create_graph) for v in values)
    if values is None or create_graph:
        return values
    return values.detach()


def _with_zeros(grads: tuple[Any, ...], likes: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
    """A gradient autograd.grad gave as None (no path) as zeros shaped like its counterpart."""
    return tuple(creation.zeros_like(like) if g is None else g
                 for g, like in zip(grads, likes, strict=True))


def _pair(outs: tuple[Any, ...], outs_flag: bool, results: tuple[Any, ...], results_flag: bool,
          create_graph: bool) -> tuple[Any, Any]:
    """vjp, jvp, vhp, hvp's answer: (function output, product), each finished and unwrapped."""
    return (_unwrap(_finish(outs, create_graph), (outs_flag,)),
            _unwrap(_finish(results, create_graph), (results_flag,)))


def _unwrap(values: tuple[Any, ...], flags: tuple[bool, ...]) -> Any:
    """torch's _tuple_postprocess: a single input/output gives a tensor, not a 1-tuple."""
    if len(flags) == 2:
        outputs_tuple, inputs_tuple = flags
        if not outputs_tuple:
            values = values[0]
        if not inputs_tuple:
            values = tuple(v[0] for v in values) if outputs_tuple else values[0]
        return values
    return values if flags[0] else values[0]


def _grads(outputs: tuple[Tensor | None, ...], inputs: tuple[Tensor, ...], grad_outputs: Any,
           create_graph: bool, retain_graph: bool | None = None) -> tuple[Tensor | None, ...]:
    """torch's _autograd_grad: outputs that need no grad are skipped; all None if none do."""
    kept = [(out, None if grad_outputs is None else grad_outputs[i])
            for i, out in enumerate(outputs) if out is not None and out.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    outs = [out for out, _ in kept]
    grads = None if grad_outputs is None else [g for _, g in kept]
    return tuple(F.grad(outs, list(inputs), grad_outputs=grads, allow_unused=True,
                        create_graph=create_graph,
                        retain_graph=create_graph if retain_graph is None else retain_graph))


def jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
             strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode") -> Any:
    with grad_mode.enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "jacobian")
        xs = _prepare(xs, create_graph)
        outputs_tuple, outs = _as_tuple(func(*xs), "outputs of the user-provided function",
                                        "jacobian")
        check_jacobian_size(outs, xs)
        result: tuple[tuple[Tensor, ...], ...] = ()
        for out in outs:
            rows: tuple[list[Tensor], ...] = tuple([] for _ in xs)
            flat = out.reshape(-1)
            for j in range(out.numel()):
                row = _grads((flat[j],), xs, None, create_graph, retain_graph=True)
                for k, (grad, x) in enumerate(zip(row, xs, strict=True)):
                    if grad is None:
                        if strict:
                            raise RuntimeError("Output 0 of the user-provided function is "
                                               f"independent of input {k}. This is not allowed "
                                               "in strict mode.")
                        grad = creation.zeros_like(x)
                    rows[k].append(grad)
            result += (tuple(F.stack(rows[k], dim=0).view(*out.shape_tuple, *x.shape_tuple)
                             if rows[k] else creation.zeros(*out.shape_tuple, *x.shape_tuple)
                             for k, x in enumerate(xs)),)
        return _unwrap(_finish(result, create_graph), (outputs_tuple, inputs_tuple))


def check_jacobian_size(outs: tuple[Tensor, ...], xs: tuple[Tensor, ...]) -> None:
    """A Jacobian has a block per output and input, as big as the two together; each block
    is first a list of one gradient per output element, then stacked (twice its size)."""
    elements = total = 0
    for out in outs:
        for x in xs:
            budget.check_shape(out.shape_tuple + x.shape_tuple, x.array.itemsize)
            elements += out.numel() * x.numel()
            total += 2 * out.numel() * x.numel() * x.array.itemsize + out.numel() * PIECE_BYTES
    budget.check_bytes(total, f"the Jacobian of {len(outs)} output(s) by {len(xs)} input(s) "
                       f"has {elements} elements, kept as gradients, then stacked")


def hessian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
            strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode") -> Any:
    inputs_tuple, xs = _as_tuple(inputs, "inputs", "hessian")

    def single_output(*args: Tensor) -> Tensor:
        out = func(*args)
        if not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return out.squeeze()

    def jacobian_of(*args: Tensor) -> Any:
        return jacobian(single_output, args, create_graph=True)

    result = jacobian(jacobian_of, xs, create_graph=create_graph, strict=strict)
    return _unwrap(result, (inputs_tuple, inputs_tuple))


def vjp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    with grad_mode.enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "vjp")
        xs = _prepare(xs, create_graph)
        outputs_tuple, outs = _as_tuple(func(*xs), "outputs of the user-provided function",
                                        "vjp")
        if v is None:
            if len(outs) != 1 or outs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the user-provided "
                                   "function returns a single Tensor with a single element.")
            vs = None
        else:
            vs = _as_tuple(v, "v", "vjp")[1]
        grads = _grads(outs, xs, vs, create_graph)
        return _pair(outs, outputs_tuple, _with_zeros(grads, xs), inputs_tuple, create_graph)


def jvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    with grad_mode.enable_grad():
        inputs_tuple, xs = _as_tuple(inputs, "inputs", "jvp")
        xs = _prepare(xs, create_graph)
        if v is None:
            if len(xs) != 1 or xs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the input to the "
                                   "user-provided function is a single Tensor with a single "
                                   "element.")
            vs: tuple[Tensor, ...] = (creation.ones_like(xs[0]),)
        else:
            vs = _as_tuple(v, "v", "jvp")[1]
        outputs_tuple, outs = _as_tuple(func(*xs), "outputs of the user-provided function",
                                        "jvp")
        # the double-backward trick: grad of <grad_outputs, out> w.r.t. grad_outputs
        dummies = tuple(creation.zeros_like(out).requires_grad_(True) for out in outs)
        grads = _grads(outs, xs, dummies, create_graph=True)
        used = [(g, v_) for g, v_ in zip(grads, vs, strict=True) if g is not None]
        result = _grads(tuple(g for g, _ in used), dummies, [v_ for _, v_ in used],
                        create_graph) if used else (None,) * len(outs)
        return _pair(outs, outputs_tuple, _with_zeros(result, outs), outputs_tuple, create_graph)


def _scalar_function_grad(func: Callable[..., Any], inputs: Any, v: Any,
                          name: str) -> tuple[Any, ...]:
    """The shared start of vhp and hvp: inputs, v, the scalar output and its gradient."""
    inputs_tuple, xs = _as_tuple(inputs, "inputs", name)
    xs = _prepare(xs, True)
    vs = None
    if v is not None:
        vs = tuple(x.detach() for x in _as_tuple(v, "v", name)[1])
        if len(vs) != len(xs):
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(xs)} but got "
                               f"{len(vs)}.")
        for vi, x in zip(vs, xs, strict=True):
            if vi.shape != x.shape:
                raise RuntimeError(f"v has invalid size: should be {x.shape} but got "
                                   f"{vi.shape}.")
    elif len(xs) != 1 or xs[0].numel() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided "
                           "function is a single Tensor with a single element.")
    outputs_tuple, outs = _as_tuple(func(*xs), "outputs of the user-provided function", name)
    if outputs_tuple:
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should "
                           "contain a single element")
    jac = _grads(outs, xs, None, create_graph=True)
    return inputs_tuple, xs, vs, outs, jac


def vhp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    with grad_mode.enable_grad():
        inputs_tuple, xs, vs, outs, jac = _scalar_function_grad(func, inputs, v, "vhp")
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        res = _grads(jac, xs, vs, create_graph)
    return _pair(outs, False, _with_zeros(res, xs), inputs_tuple, create_graph)


def hvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    with grad_mode.enable_grad():
        inputs_tuple, xs, vs, outs, jac = _scalar_function_grad(func, inputs, v, "hvp")
        grad_jac = tuple(creation.zeros_like(x).requires_grad_(True) for x in xs)
        double_back = _grads(jac, xs, grad_jac, create_graph=True)
    with grad_mode.set_grad_enabled(create_graph or grad_mode.is_grad_enabled()):
        res = _grads(double_back, grad_jac, vs, create_graph)
    return _pair(outs, False, _with_zeros(res, xs), inputs_tuple, create_graph)


FUNCTIONS: dict[str, Any] = {"jacobian": jacobian, "hessian": hessian, "vjp": vjp, "jvp": jvp,
                             "vhp": vhp, "hvp": hvp}
