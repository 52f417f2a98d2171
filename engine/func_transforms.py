"""`torch.func`: grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap and
functional_call, as transforms of functions; stack_module_state for ensembles.

agraph computes them with its reverse-mode autograd, as torch.autograd.functional does: a
gradient is `autograd.grad` of the function's output, a Jacobian one `grad` per output
element, a Hessian the Jacobian of the Jacobian, a jvp the double-backward trick; `vmap` calls
the function once per batch entry and stacks the results. The values agree with PyTorch's to
rounding (its batching rules and forward-mode kernels add in other orders). Arguments may be
tensors or tuples, lists and dicts of them; inside a transform every computation keeps its
graph, so transforms compose (`hessian` is `jacfwd(jacrev(f))`), and the outermost transform
returns tensors without a graph, as PyTorch's do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from engine import creation, grad_mode
from engine import functional as F
from engine.autograd_functional import check_jacobian_size
from engine.tensor import Tensor

_DEPTH = [0]  # differentiation transforms running, innermost last


@contextmanager
def _level() -> Iterator[bool]:
    """One level of differentiation (grad mode on); yields whether it is the outermost."""
    _DEPTH[0] += 1
    try:
        with grad_mode.enable_grad():
            yield _DEPTH[0] == 1
    finally:
        _DEPTH[0] -= 1


# --- pytrees: a tensor, or tuples, lists and dicts of them ---------------------------------

def _leaves(tree: Any) -> list[Tensor]:
    if isinstance(tree, Tensor):
        return [tree]
    if isinstance(tree, dict):
        return [leaf for value in tree.values() for leaf in _leaves(value)]
    if isinstance(tree, (tuple, list)):
        return [leaf for value in tree for leaf in _leaves(value)]
    return []


def _map(tree: Any, function: Callable[[Tensor], Any]) -> Any:
    if isinstance(tree, Tensor):
        return function(tree)
    if isinstance(tree, dict):
        return {key: _map(value, function) for key, value in tree.items()}
    if isinstance(tree, (tuple, list)):
        return type(tree)(_map(value, function) for value in tree)
    return tree


def _rebuild(tree: Any, leaves: Iterator[Any]) -> Any:
    return _map(tree, lambda _: next(leaves))


def _track(tree: Any) -> Any:
    """Inputs to differentiate: fresh leaves, or views that keep an enclosing graph."""
    return _map(tree, lambda x: x.view_as(x) if x.requires_grad
                else x.detach().requires_grad_(True))


def _finish(tree: Any, outermost: bool) -> Any:
    return _map(tree, lambda x: x.detach()) if outermost else tree


def _argnums(argnums: Any, count: int) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for n in nums:
        if not isinstance(n, int) or not -count <= n < count:
            raise RuntimeError(f"Got argnums={argnums} but only {count} positional inputs")
    return tuple(n % count for n in nums)


def _call_tracked(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                  argnums: Any) -> tuple[tuple[int, ...], list[Any], Any]:
    nums = _argnums(argnums, len(args))
    values = list(args)
    for n in nums:
        values[n] = _track(values[n])
    return nums, values, func(*values, **kwargs)


def _grads(outputs: list[Tensor], inputs: list[Tensor],
           grad_outputs: list[Tensor] | None = None) -> list[Tensor]:
    """Gradients of `outputs` for each input, zeros where an input does not reach them."""
    used = [i for i, out in enumerate(outputs) if out.requires_grad]
    grads: list[Any] = [None] * len(inputs)
    if used:
        grads = list(F.grad([outputs[i] for i in used], inputs,
                            grad_outputs=None if grad_outputs is None
                            else [grad_outputs[i] for i in used],
                            allow_unused=True, create_graph=True, retain_graph=True))
    return [creation.zeros_like(x) if g is None else g for g, x in zip(grads, inputs, strict=True)]


def _per_argnum(argnums: Any, nums: tuple[int, ...], values: list[Any],
                leaves: Iterator[Any]) -> Any:
    trees = tuple(_rebuild(values[n], leaves) for n in nums)
    return trees[0] if isinstance(argnums, int) else trees


def _split_aux(out: Any, has_aux: bool, name: str) -> tuple[Any, Any]:
    if not has_aux:
        return out, None
    if not isinstance(out, tuple) or len(out) != 2:
        raise RuntimeError(f"{name}(f, ...)(*args): output of function f should be a tuple: "
                           "(output, aux) if has_aux is True")
    return out


# --- grad, vjp, jvp -------------------------------------------------------------------------

def grad_and_value(func: Callable[..., Any], argnums: Any = 0, has_aux: bool = False
                   ) -> Callable[..., Any]:
    def transformed(*args: Any, **kwargs: Any) -> Any:
        with _level() as outermost:
            nums, values, out = _call_tracked(func, args, kwargs, argnums)
            out, aux = _split_aux(out, has_aux, "grad_and_value")
            if not isinstance(out, Tensor) or out.numel() != 1:
                got = (f"tensor with {out.ndim} dims" if isinstance(out, Tensor)
                       else type(out).__name__)
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a "
                                   f"scalar Tensor, got {got}. Maybe you wanted to use the vjp "
                                   "or jacrev APIs instead?")
            leaves = [leaf for n in nums for leaf in _leaves(values[n])]
            grads = iter(_grads([out], leaves))
            result = _finish(_per_argnum(argnums, nums, values, grads), outermost)
            value = _finish(out, outermost)
            return (result, (value, _finish(aux, outermost))) if has_aux else (result, value)
    return transformed


def grad(func: Callable[..., Any], argnums: Any = 0, has_aux: bool = False
         ) -> Callable[..., Any]:
    with_value = grad_and_value(func, argnums, has_aux)

    def transformed(*args: Any, **kwargs: Any) -> Any:
        gradients, value = with_value(*args, **kwargs)
        return (gradients, value[1]) if has_aux else gradients
    return transformed


def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    with _level() as outermost:
        _, values, out = _call_tracked(func, primals, {}, tuple(range(len(primals))))
        out, aux = _split_aux(out, has_aux, "vjp")
    outputs = _leaves(out)
    inputs = [leaf for value in values for leaf in _leaves(value)]

    def vjp_fn(*cotangents: Any) -> tuple[Any, ...]:
        given = _leaves(cotangents[0] if len(cotangents) == 1 else cotangents)
        with _level() as outer:
            grads = iter(_grads(outputs, inputs, given))
            return _finish(tuple(_rebuild(value, grads) for value in values), outer)

    result = (_finish(out, outermost), vjp_fn)
    return (*result, _finish(aux, outermost)) if has_aux else result


def jvp(func: Callable[..., Any], primals: Any, tangents: Any, *, strict: bool = False,
        has_aux: bool = False) -> Any:
    """(func(*primals), J @ tangents) by the double-backward trick."""
    if not isinstance(primals, tuple) or not isinstance(tangents, tuple):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to be "
                           "tuples")
    with _level() as outermost:
        _, values, out = _call_tracked(func, primals, {}, tuple(range(len(primals))))
        out, aux = _split_aux(out, has_aux, "jvp")
        outputs = _leaves(out)
        inputs = [leaf for value in values for leaf in _leaves(value)]
        dummies = [creation.zeros_like(o).requires_grad_(True) for o in outputs]
        backward = _grads(outputs, inputs, dummies)
        pairs = [(g, t) for g, t in zip(backward, _leaves(tangents), strict=True)
                 if g.requires_grad]
        forward = (_grads([g for g, _ in pairs], dummies, [t for _, t in pairs]) if pairs
                   else [creation.zeros_like(o) for o in outputs])
        result = (_finish(out, outermost),
                  _finish(_rebuild(out, iter(forward)), outermost))
        return (*result, _finish(aux, outermost)) if has_aux else result


# --- Jacobians and Hessians -------------------------------------------------------------------

def jacrev(func: Callable[..., Any], argnums: Any = 0, *, has_aux: bool = False,
           chunk_size: Any = None) -> Callable[..., Any]:
    def transformed(*args: Any, **kwargs: Any) -> Any:
        with _level() as outermost:
            nums, values, out = _call_tracked(func, args, kwargs, argnums)
            out, aux = _split_aux(out, has_aux, "jacrev")
            leaves = [leaf for n in nums for leaf in _leaves(values[n])]
            check_jacobian_size(tuple(_leaves(out)), tuple(leaves))

            def jacobian_of(output: Tensor) -> Any:
                rows: list[list[Tensor]] = [[] for _ in leaves]
                flat = output.reshape(-1)
                for j in range(output.numel()):
                    for k, g in enumerate(_grads([flat[j]], leaves)):
                        rows[k].append(g)
                blocks = iter([F.stack(rows[k], 0).reshape(*output.shape_tuple,
                                                           *x.shape_tuple)
                               if rows[k] else creation.zeros(*output.shape_tuple,
                                                              *x.shape_tuple)
                               for k, x in enumerate(leaves)])
                return _per_argnum(argnums, nums, values, blocks)

            result = _finish(_map(out, jacobian_of), outermost)
            return (result, _finish(aux, outermost)) if has_aux else result
    return transformed


jacfwd = jacrev  # the same Jacobian (computed in reverse mode here)


def hessian(func: Callable[..., Any], argnums: Any = 0) -> Callable[..., Any]:
    return jacfwd(jacrev(func, argnums), argnums)


# --- vmap, functional_call -------------------------------------------------------------------

def _batch_size(args: tuple[Any, ...], dims: tuple[Any, ...]) -> int:
    sizes = {leaf.shape_tuple[d] for arg, d in zip(args, dims, strict=True) if d is not None
             for leaf in _leaves(arg)}
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if len(sizes) > 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped "
                         f"dimension, got sizes {sorted(sizes)} for the mapped dimension")
    return sizes.pop()


def _select(tree: Any, dim: int, index: int) -> Any:
    """Entry `index` of the batch of every tensor of `tree` along `dim`."""
    return _map(tree, lambda t: t.select(dim, index))


def vmap(func: Callable[..., Any], in_dims: Any = 0, out_dims: Any = 0,
         randomness: str = "error", *, chunk_size: Any = None) -> Callable[..., Any]:
    def batched(*args: Any, **kwargs: Any) -> Any:
        dims = tuple(in_dims) if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError(f"vmap(f, in_dims={in_dims}, ...)(<inputs>): in_dims is not "
                             f"compatible with the structure of `inputs`: {len(dims)} in_dims "
                             f"for {len(args)} inputs")
        size = _batch_size(args, dims)
        results = [func(*[arg if d is None else _select(arg, d, i)
                          for arg, d in zip(args, dims, strict=True)], **kwargs)
                   for i in range(size)]
        stacked = iter([F.stack(list(group), out_dims)
                        for group in zip(*(_leaves(r) for r in results), strict=True)])
        return _rebuild(results[0], stacked)
    return batched


def functional_call(module: Any, parameter_and_buffer_dicts: Any, args: Any = (),
                    kwargs: Any = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any:
    """module(*args) with its parameters and buffers replaced, for the call, by the given
    tensors (names as `named_parameters` gives them)."""
    dicts = (parameter_and_buffer_dicts if isinstance(parameter_and_buffer_dicts, (tuple, list))
             else (parameter_and_buffer_dicts,))
    replacing: dict[str, Any] = {}
    for given in dicts:
        replacing.update(given)
    saved = []
    try:
        for name, value in replacing.items():
            *path, attr = name.split(".")
            owner = module
            for part in path:
                owner = owner._modules[part]
            table = owner._parameters if attr in owner._parameters else owner._buffers
            if attr not in table:
                raise AttributeError(f"'{type(owner).__name__}' object has no parameter or "
                                     f"buffer '{attr}'")
            saved.append((table, attr, table[attr]))
            table[attr] = value
        arguments = args if isinstance(args, tuple) else (args,)
        return module(*arguments, **(kwargs or {}))
    finally:
        for table, attr, value in reversed(saved):
            table[attr] = value


def _stacked_leaf(tensors: list[Tensor], name: str) -> Tensor:
    flags = {t.requires_grad for t in tensors}
    if len(flags) > 1:
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = F.stack(tensors)
    return result.detach().requires_grad_() if True in flags else result


def stack_module_state(models: Any) -> tuple[dict[str, Tensor], dict[str, Tensor]]:
    """The models' parameters and buffers stacked, by name: new leaves for vmap ensembles."""
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({bool(m.training) for m in models}) > 1:
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode.")
    if any(type(m) is not type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    states = []
    for named in ("named_parameters", "named_buffers"):
        tables = [dict(getattr(model, named)()) for model in models]
        states.append({k: _stacked_leaf([table[k] for table in tables], k) for k in tables[0]})
    return states[0], states[1]


FUNC: dict[str, Any] = {"grad": grad, "grad_and_value": grad_and_value, "vjp": vjp, "jvp": jvp,
                        "jacrev": jacrev, "jacfwd": jacfwd, "hessian": hessian, "vmap": vmap,
                        "functional_call": functional_call,
                        "stack_module_state": stack_module_state}
