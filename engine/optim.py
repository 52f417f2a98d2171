"""`torch.optim`: SGD, Adam/AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam and RAdam, step for
step as torch's single-tensor CPU implementations.

A step updates each parameter's array in place, outside the graph, and bumps its version
counter once per in-place op torch runs on it (so a graph that saved the old value refuses to
backward, as in torch). float32 results follow torch's CPU kernels bit for bit where numpy
can: `add_(x, alpha=)`, `addcmul_` and `lerp_` are fused multiply-adds there (one rounding),
computed here in float64 and rounded once; `mul_`, `/`, `addcdiv_` round after each operation;
python numbers are cast to the parameter's dtype first. `sqrt` is torch's: MKL's vector sqrt,
which is not always correctly rounded (engine/ops/mkl.py).
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import budget, grad_mode
from engine.nn.module import typename, zero_grads
from engine.ops.numerics import fmadd
from engine.ops.pointwise import vector_math
from engine.tensor import Tensor


def _sqrt(a: np.ndarray) -> np.ndarray:
    """torch.sqrt of an array (MKL's vector sqrt where it is installed)."""
    return vector_math("sqrt", np.sqrt, a)


def _scalar(value: float, dtype: np.dtype) -> np.ndarray:
    """A python number as torch's CPU kernels use it: converted to the tensor's dtype."""
    return np.asarray(value, dtype=dtype)


def _lerp(start: np.ndarray, end: np.ndarray, weight: float) -> np.ndarray:
    """torch's `start.lerp_(end, weight)`: from whichever end is nearer, fused."""
    w = _scalar(weight, start.dtype)
    diff = end - start
    if abs(float(w)) < 0.5:
        return fmadd(w, diff, start)
    return fmadd(w - _scalar(1, start.dtype), diff, end)


def _new_state(param: Tensor, names: list[str], fill: Any = 0) -> dict[str, Tensor]:
    """A parameter's optimizer state: the step count, then a buffer of `param`'s shape and
    dtype (zeros, or `fill`) per name in `names`, checked against the limits before any of
    them is made (so a refused step leaves no half-made state)."""
    array = param.array
    budget.check_shape(array.shape, array.itemsize)
    if len(names) > 1:
        budget.check_bytes(len(names) * array.nbytes, f"the optimizer's {len(names)} state "
                           f"tensors of shape {list(array.shape)}")
    state = {"step": Tensor._wrap(np.zeros((), dtype=np.float32))}
    for name in names:
        state[name] = Tensor._wrap(np.zeros_like(array) if fill == 0 else np.full_like(array, fill))
    return state


def _write(tensor: Tensor, array: np.ndarray) -> None:
    """An in-place update: same storage (aliases such as `.data` see it), version + 1."""
    if tensor.array.flags.writeable:
        tensor.array[...] = array
    else:
        tensor.array = np.array(array, dtype=tensor.array.dtype)
    tensor.bump_version()


def _fmadd_into(tensor: Tensor, x: Any, y: Any, z: Any) -> None:
    """`_write(tensor, fmadd(x, y, z))`, with fmadd writing into tensor's own storage."""
    if tensor.array.flags.writeable:
        fmadd(x, y, z, out=tensor.array)
        tensor.bump_version()
    else:
        _write(tensor, fmadd(x, y, z))


class Optimizer:
    """torch.optim.Optimizer: param_groups (dicts, `['lr']` assignable), state, zero_grad."""

    PUBLIC_ATTRS = frozenset({"param_groups", "state", "defaults", "step", "zero_grad",
                              "add_param_group", "state_dict", "load_state_dict"})

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {typename(params)}")
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {typename(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        param_group["params"] = params = list(params)
        for param in params:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{typename(param)}")
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        ids = [id(p) for p in params]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          UserWarning, stacklevel=3)
        existing = {id(p) for group in self.param_groups for p in group["params"]}
        if existing & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def state_dict(self) -> dict[str, Any]:
        """torch's: the groups without their tensors (`params` become indices, in order) and
        the state keyed by those indices (the state's own dicts and tensors, not copies)."""
        mappings: dict[int, int] = {}
        groups = []
        start = 0
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            for index, param in enumerate(group["params"], start):
                mappings.setdefault(id(param), index)
            packed["params"] = [mappings[id(param)] for param in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {mappings[id(key)] if isinstance(key, Tensor) else key: value
                 for key, value in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """torch's: the saved groups' settings and state, onto this optimizer's parameters
        (state tensors cast to each parameter's dtype; the step count kept as it is)."""
        saved_groups = [_copy_plain(group) for group in state_dict["param_groups"]]
        if len(self.param_groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(group["params"]) != len(saved["params"])
               for group, saved in zip(self.param_groups, saved_groups, strict=True)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = {saved_id: param
                  for group, saved in zip(self.param_groups, saved_groups, strict=True)
                  for saved_id, param in zip(saved["params"], group["params"], strict=True)}
        state: defaultdict[Any, dict[str, Any]] = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_map:
                param = id_map[key]
                state[param] = {name: _cast_state(param, item, name)
                                for name, item in value.items()}
            else:
                state[key] = value
        for group, saved in zip(self.param_groups, saved_groups, strict=True):
            saved["params"] = group["params"]
        self.state = state
        self.param_groups = saved_groups

    def zero_grad(self, set_to_none: bool = True) -> None:
        zero_grads([p for group in self.param_groups for p in group["params"]], set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        self._opt_called = True  # what lr_scheduler's order check reads (engine/lr_scheduler.py)
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        for group in self.param_groups:
            for param in group["params"]:
                if param.grad is not None:
                    self.update(param, param.grad.array, group)
        return loss

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        raise NotImplementedError

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for index, group in enumerate(self.param_groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _copy_plain(value: Any) -> Any:
    """A copy of nested dicts, lists and tuples (torch deep-copies the saved param_groups)."""
    if isinstance(value, dict):
        return {key: _copy_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_copy_plain(item) for item in value)
    return value


def _cast_state(param: Tensor, value: Any, name: str) -> Any:
    """A loaded state tensor in the parameter's dtype (the same tensor when it already is)."""
    if isinstance(value, Tensor) and name != "step" and param.dtype.is_floating_point:
        return value.to(param.dtype)
    return value


def _check_non_negative(value: float, what: str) -> None:
    if not 0.0 <= value:
        raise ValueError(f"Invalid {what}: {value}")


class SGD(Optimizer):
    """`p -= lr * g`, with weight decay, momentum (dampening, nesterov) and maximize."""

    def __init__(self, params: Any, lr: float = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        _check_non_negative(lr, "learning rate")
        _check_non_negative(momentum, "momentum value")
        _check_non_negative(weight_decay, "weight_decay value")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {
            "lr": lr, "momentum": momentum, "dampening": dampening,
            "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
            "foreach": foreach, "differentiable": differentiable, "fused": fused})

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        dtype = param.array.dtype
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = fmadd(param.array, _scalar(group["weight_decay"], dtype), grad)
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[param]
            buffer = state.get("momentum_buffer")
            if buffer is None:
                budget.check_shape(grad.shape, grad.itemsize)
                buffer = state["momentum_buffer"] = Tensor._wrap(np.array(grad, copy=True))
            else:
                _write(buffer, buffer.array * _scalar(momentum, dtype))
                _fmadd_into(buffer, grad, _scalar(1 - group["dampening"], dtype),
                                      buffer.array)
            if group["nesterov"]:
                grad = fmadd(buffer.array, _scalar(momentum, dtype), grad)
            else:
                grad = buffer.array
        _fmadd_into(param, grad, _scalar(-group["lr"], dtype), param.array)


class Adam(Optimizer):
    """Adam (and AMSGrad), with L2 or decoupled (AdamW) weight decay and maximize."""

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False) -> None:
        _check_non_negative(lr, "learning rate")
        _check_non_negative(eps, "epsilon value")
        for index in (0, 1):
            if not 0.0 <= betas[index] < 1.0:
                raise ValueError(f"Invalid beta parameter at index {index}: {betas[index]}")
        _check_non_negative(weight_decay, "weight_decay value")
        if not all(isinstance(beta, float) for beta in betas):
            raise ValueError("betas must be either both floats or both Tensors")
        super().__init__(params, {
            "lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
            "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
            "capturable": capturable, "differentiable": differentiable, "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay})

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        dtype = param.array.dtype
        state = self.state[param]
        if not state:
            state.update(_new_state(param, ["exp_avg", "exp_avg_sq"]
                                    + (["max_exp_avg_sq"] if group["amsgrad"] else [])))
        if group["maximize"]:
            grad = -grad
        lr, (beta1, beta2) = group["lr"], group["betas"]
        step_count: Tensor = state["step"]
        _write(step_count, step_count.array + np.float32(1))
        weight_decay = group["weight_decay"]
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:
                _write(param, param.array * _scalar(1 - lr * weight_decay, dtype))
            else:
                grad = fmadd(param.array, _scalar(weight_decay, dtype), grad)
        exp_avg: Tensor = state["exp_avg"]
        exp_avg_sq: Tensor = state["exp_avg_sq"]
        _write(exp_avg, _lerp(exp_avg.array, grad, 1 - beta1))
        _write(exp_avg_sq, exp_avg_sq.array * _scalar(beta2, dtype))
        _fmadd_into(exp_avg_sq, _scalar(1 - beta2, dtype) * grad, grad, exp_avg_sq.array)

        step = float(step_count.item())
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2 ** 0.5
        second_moment = exp_avg_sq.array
        if group["amsgrad"]:
            maximum: Tensor = state["max_exp_avg_sq"]
            _write(maximum, np.maximum(maximum.array, exp_avg_sq.array))
            second_moment = maximum.array
        denom = (_sqrt(second_moment) / _scalar(bias_correction2_sqrt, dtype)
                 + _scalar(group["eps"], dtype))
        _write(param, param.array + (_scalar(-step_size, dtype) * exp_avg.array) / denom)


class AdamW(Adam):
    """Adam with decoupled weight decay (default 1e-2), as torch's AdamW subclass."""

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


class RMSprop(Optimizer):
    """RMSprop: a running mean of g^2 (optionally centered), momentum, weight decay."""

    def __init__(self, params: Any, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check_non_negative(lr, "learning rate")
        _check_non_negative(eps, "epsilon value")
        _check_non_negative(momentum, "momentum value")
        _check_non_negative(weight_decay, "weight_decay value")
        _check_non_negative(alpha, "alpha value")
        super().__init__(params, {
            "lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
            "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable})

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        dtype = param.array.dtype
        state = self.state[param]
        if not state:
            state.update(_new_state(param, ["square_avg"]
                                    + (["momentum_buffer"] if group["momentum"] > 0 else [])
                                    + (["grad_avg"] if group["centered"] else [])))
        if group["maximize"]:
            grad = -grad
        step_count: Tensor = state["step"]
        _write(step_count, step_count.array + np.float32(1))
        if group["weight_decay"] != 0:
            grad = fmadd(param.array, _scalar(group["weight_decay"], dtype), grad)
        alpha = group["alpha"]
        square_avg: Tensor = state["square_avg"]
        _write(square_avg, square_avg.array * _scalar(alpha, dtype))
        _fmadd_into(square_avg, _scalar(1 - alpha, dtype) * grad, grad, square_avg.array)
        if group["centered"]:
            grad_avg: Tensor = state["grad_avg"]
            _write(grad_avg, _lerp(grad_avg.array, grad, 1 - alpha))
            average = _sqrt(fmadd(_scalar(-1, dtype) * grad_avg.array, grad_avg.array,
                                     square_avg.array))
        else:
            average = _sqrt(square_avg.array)
        average = average + _scalar(group["eps"], dtype)
        lr = group["lr"]
        if group["momentum"] > 0:
            buffer: Tensor = state["momentum_buffer"]
            _write(buffer, buffer.array * _scalar(group["momentum"], dtype))
            _write(buffer, buffer.array + grad / average)
            _fmadd_into(param, buffer.array, _scalar(-lr, dtype), param.array)
        else:
            _write(param, param.array + (_scalar(-lr, dtype) * grad) / average)


class Adagrad(Optimizer):
    """Adagrad: p -= clr * g / (sqrt(sum of g^2) + eps), clr = lr / (1 + (step - 1) decay)."""

    def __init__(self, params: Any, lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        _check_non_negative(lr, "learning rate")
        _check_non_negative(lr_decay, "lr_decay value")
        _check_non_negative(weight_decay, "weight_decay value")
        _check_non_negative(initial_accumulator_value, "initial_accumulator_value value")
        _check_non_negative(eps, "epsilon value")
        super().__init__(params, {
            "lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable, "fused": fused})
        for group in self.param_groups:  # torch fills the state when the optimizer is made
            for param in group["params"]:
                self.state[param] = _new_state(param, ["sum"],
                                               group["initial_accumulator_value"])

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        dtype = param.array.dtype
        state = self.state[param]
        step_count: Tensor = state["step"]
        _write(step_count, step_count.array + np.float32(1))
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = fmadd(param.array, _scalar(group["weight_decay"], dtype), grad)
        step = float(step_count.item())
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total: Tensor = state["sum"]
        _fmadd_into(total, grad, grad, total.array)
        std = _sqrt(total.array) + _scalar(group["eps"], dtype)
        _write(param, param.array + (_scalar(-clr, dtype) * grad) / std)


def _check_betas(betas: tuple[float, float]) -> None:
    for index in (0, 1):
        if not 0.0 <= betas[index] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {betas[index]}")


def _step(state: dict[str, Any]) -> float:
    """`step += 1` on the float32 step tensor, and its value as torch's `_get_value` reads it."""
    step_count: Tensor = state["step"]
    _write(step_count, step_count.array + np.float32(1))
    return float(step_count.item())


def _decayed(param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> np.ndarray:
    """The gradient with maximize and L2 weight decay (`grad.add(param, alpha=wd)`), or the
    parameter shrunk first (`param.mul_(1 - lr * wd)`) where the decay is decoupled."""
    dtype = param.array.dtype
    if group["maximize"]:
        grad = -grad
    weight_decay = group["weight_decay"]
    if weight_decay != 0:
        if group.get("decoupled_weight_decay"):
            _write(param, param.array * _scalar(1 - group["lr"] * weight_decay, dtype))
        else:
            grad = fmadd(param.array, _scalar(weight_decay, dtype), grad)
    return grad


class Adadelta(Optimizer):
    """Adadelta: a running mean of g^2 and of the squared updates, their ratio scaling g."""

    def __init__(self, params: Any, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check_non_negative(lr, "learning rate")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check_non_negative(eps, "epsilon value")
        _check_non_negative(weight_decay, "weight_decay value")
        super().__init__(params, {
            "lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
            "maximize": maximize, "capturable": capturable, "foreach": foreach,
            "differentiable": differentiable})

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        dtype = param.array.dtype
        state = self.state[param]
        if not state:
            state.update(_new_state(param, ["square_avg", "acc_delta"]))
        _step(state)
        grad = _decayed(param, grad, group)
        rho, eps = _scalar(group["rho"], dtype), _scalar(group["eps"], dtype)
        rest = _scalar(1 - group["rho"], dtype)
        square_avg: Tensor = state["square_avg"]
        acc_delta: Tensor = state["acc_delta"]
        _fmadd_into(square_avg, rest * grad, grad, square_avg.array * rho)
        std = _sqrt(square_avg.array + eps)
        delta = _sqrt(acc_delta.array + eps) / std * grad
        _fmadd_into(acc_delta, rest * delta, delta, acc_delta.array * rho)
        _fmadd_into(param, delta, _scalar(-group["lr"], dtype), param.array)


class Adamax(Optimizer):
    """Adamax: Adam's first moment over an infinity-norm running maximum of |g|."""

    def __init__(self, params: Any, lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        _check_non_negative(lr, "learning rate")
        _check_non_negative(eps, "epsilon value")
        _check_betas(betas)
        _check_non_negative(weight_decay, "weight_decay value")
        super().__init__(params, {
            "lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
            "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
            "capturable": capturable})

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        dtype = param.array.dtype
        state = self.state[param]
        if not state:
            state.update(_new_state(param, ["exp_avg", "exp_inf"]))
        step = _step(state)
        grad = _decayed(param, grad, group)
        beta1, beta2 = group["betas"]
        exp_avg: Tensor = state["exp_avg"]
        exp_inf: Tensor = state["exp_inf"]
        _write(exp_avg, _lerp(exp_avg.array, grad, 1 - beta1))
        _write(exp_inf, np.maximum(exp_inf.array * _scalar(beta2, dtype),
                                   np.abs(grad) + _scalar(group["eps"], dtype)))
        clr = group["lr"] / (1 - beta1 ** step)
        _write(param, param.array + (_scalar(-clr, dtype) * exp_avg.array) / exp_inf.array)


class NAdam(Optimizer):
    """NAdam: Adam with Nesterov momentum, its momentum schedule kept as a float32 product."""

    def __init__(self, params: Any, lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_non_negative(lr, "learning rate")
        _check_non_negative(eps, "epsilon value")
        _check_betas(betas)
        _check_non_negative(weight_decay, "weight_decay value")
        _check_non_negative(momentum_decay, "momentum_decay value")
        super().__init__(params, {
            "lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
            "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize, "foreach": foreach, "capturable": capturable,
            "differentiable": differentiable})

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        dtype = param.array.dtype
        state = self.state[param]
        if not state:
            made = _new_state(param, ["exp_avg", "exp_avg_sq"])
            state.update({"step": made.pop("step"),
                          "mu_product": Tensor._wrap(np.ones((), dtype=np.float32)), **made})
        step = _step(state)
        lr, (beta1, beta2), decay = group["lr"], group["betas"], group["momentum_decay"]
        bias_correction2 = 1 - beta2 ** step
        grad = _decayed(param, grad, group)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
        mu_product: Tensor = state["mu_product"]
        _write(mu_product, mu_product.array * np.float32(mu))
        exp_avg: Tensor = state["exp_avg"]
        exp_avg_sq: Tensor = state["exp_avg_sq"]
        _write(exp_avg, _lerp(exp_avg.array, grad, 1 - beta1))
        _fmadd_into(exp_avg_sq, _scalar(1 - beta2, dtype) * grad, grad,
                                 exp_avg_sq.array * _scalar(beta2, dtype))
        denom = _sqrt(exp_avg_sq.array / _scalar(bias_correction2, dtype))
        denom = denom + _scalar(group["eps"], dtype)
        product = float(mu_product.item())
        product_next = product * mu_next
        value = -lr * (1.0 - mu) / (1.0 - product)
        _write(param, param.array + (_scalar(value, dtype) * grad) / denom)
        value = (-lr * mu_next) / (1.0 - product_next)
        _write(param, param.array + (_scalar(value, dtype) * exp_avg.array) / denom)


class RAdam(Optimizer):
    """RAdam: Adam whose adaptive step is rectified (plain momentum while the variance of the
    adaptive rate is not yet tractable, rho_t <= 5)."""

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_non_negative(lr, "learning rate")
        _check_non_negative(eps, "epsilon value")
        _check_betas(betas)
        _check_non_negative(weight_decay, "weight_decay value")
        super().__init__(params, {
            "lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
            "maximize": maximize, "foreach": foreach, "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay, "differentiable": differentiable})

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        dtype = param.array.dtype
        state = self.state[param]
        if not state:
            state.update(_new_state(param, ["exp_avg", "exp_avg_sq"]))
        step = _step(state)
        grad = _decayed(param, grad, group)
        lr, (beta1, beta2) = group["lr"], group["betas"]
        exp_avg: Tensor = state["exp_avg"]
        exp_avg_sq: Tensor = state["exp_avg_sq"]
        _write(exp_avg, _lerp(exp_avg.array, grad, 1 - beta1))
        _fmadd_into(exp_avg_sq, _scalar(1 - beta2, dtype) * grad, grad,
                                 exp_avg_sq.array * _scalar(beta2, dtype))
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        update = exp_avg.array / _scalar(bias_correction1, dtype) * _scalar(lr, dtype)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.0:
            root = _sqrt(exp_avg_sq.array) + _scalar(group["eps"], dtype)
            # python float / tensor is torch's reciprocal() * float
            adaptive = (np.ones((), dtype=dtype) / root) * _scalar(bias_correction2 ** 0.5, dtype)
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                    / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            update = update * adaptive * _scalar(rect, dtype)
        _write(param, param.array - update)


OPTIM: dict[str, Any] = {"Optimizer": Optimizer, "SGD": SGD, "Adam": Adam, "AdamW": AdamW,
                         "RMSprop": RMSprop, "Adagrad": Adagrad, "Adadelta": Adadelta,
                         "Adamax": Adamax, "NAdam": NAdam, "RAdam": RAdam}
