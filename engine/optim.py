"""`torch.optim`: SGD, Adam/AdamW, RMSprop and Adagrad, step for step as torch's single-tensor
CPU implementations.

A step updates each parameter's array in place, outside the graph, and bumps its version
counter once per in-place op torch runs on it (so a graph that saved the old value refuses to
backward, as in torch). float32 results follow torch's CPU kernels bit for bit where numpy
can: `add_(x, alpha=)`, `addcmul_` and `lerp_` are fused multiply-adds there (one rounding),
computed here in float64 and rounded once; `mul_`, `/`, `addcdiv_` round after each operation;
python numbers are cast to the parameter's dtype first. (torch's float32 `sqrt` is not always
correctly rounded, so Adam can differ from torch in the last bit.)
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import grad_mode
from engine.nn import typename, zero_grads
from engine.tensor import Tensor


def _scalar(value: float, dtype: np.dtype) -> np.ndarray:
    """A python number as torch's CPU kernels use it: converted to the tensor's dtype."""
    return np.asarray(value, dtype=dtype)


def _fused(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """x * y + z rounded once (torch's vectorized fmadd); exact for float32 through float64."""
    dtype = np.result_type(x, y, z)
    if dtype.itemsize < 8:
        wide = np.float64
        return (x.astype(wide) * y.astype(wide) + z.astype(wide)).astype(dtype)
    return np.asarray(x * y + z, dtype=dtype)


def _lerp(start: np.ndarray, end: np.ndarray, weight: float) -> np.ndarray:
    """torch's `start.lerp_(end, weight)`: from whichever end is nearer, fused."""
    w = _scalar(weight, start.dtype)
    diff = end - start
    if abs(float(w)) < 0.5:
        return _fused(w, diff, start)
    return _fused(w - _scalar(1, start.dtype), diff, end)


def _write(tensor: Tensor, array: np.ndarray) -> None:
    """An in-place update: same storage (aliases such as `.data` see it), version + 1."""
    if tensor.array.flags.writeable:
        tensor.array[...] = array
    else:
        tensor.array = np.array(array, dtype=tensor.array.dtype)
    tensor.bump_version()


class Optimizer:
    """torch.optim.Optimizer: param_groups (dicts, `['lr']` assignable), state, zero_grad."""

    PUBLIC_ATTRS = frozenset({"param_groups", "state", "defaults", "step", "zero_grad",
                              "add_param_group"})

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

    def zero_grad(self, set_to_none: bool = True) -> None:
        zero_grads([p for group in self.param_groups for p in group["params"]], set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
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
            grad = _fused(param.array, _scalar(group["weight_decay"], dtype), grad)
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[param]
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = state["momentum_buffer"] = Tensor._wrap(np.array(grad, copy=True))
            else:
                _write(buffer, buffer.array * _scalar(momentum, dtype))
                _write(buffer, _fused(grad, _scalar(1 - group["dampening"], dtype),
                                      buffer.array))
            if group["nesterov"]:
                grad = _fused(buffer.array, _scalar(momentum, dtype), grad)
            else:
                grad = buffer.array
        _write(param, _fused(grad, _scalar(-group["lr"], dtype), param.array))


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
            state["step"] = Tensor._wrap(np.zeros((), dtype=np.float32))
            state["exp_avg"] = Tensor._wrap(np.zeros_like(param.array))
            state["exp_avg_sq"] = Tensor._wrap(np.zeros_like(param.array))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = Tensor._wrap(np.zeros_like(param.array))
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
                grad = _fused(param.array, _scalar(weight_decay, dtype), grad)
        exp_avg: Tensor = state["exp_avg"]
        exp_avg_sq: Tensor = state["exp_avg_sq"]
        _write(exp_avg, _lerp(exp_avg.array, grad, 1 - beta1))
        _write(exp_avg_sq, exp_avg_sq.array * _scalar(beta2, dtype))
        _write(exp_avg_sq, _fused(_scalar(1 - beta2, dtype) * grad, grad, exp_avg_sq.array))

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
        denom = (np.sqrt(second_moment) / _scalar(bias_correction2_sqrt, dtype)
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
            state["step"] = Tensor._wrap(np.zeros((), dtype=np.float32))
            state["square_avg"] = Tensor._wrap(np.zeros_like(param.array))
            if group["momentum"] > 0:
                state["momentum_buffer"] = Tensor._wrap(np.zeros_like(param.array))
            if group["centered"]:
                state["grad_avg"] = Tensor._wrap(np.zeros_like(param.array))
        if group["maximize"]:
            grad = -grad
        step_count: Tensor = state["step"]
        _write(step_count, step_count.array + np.float32(1))
        if group["weight_decay"] != 0:
            grad = _fused(param.array, _scalar(group["weight_decay"], dtype), grad)
        alpha = group["alpha"]
        square_avg: Tensor = state["square_avg"]
        _write(square_avg, square_avg.array * _scalar(alpha, dtype))
        _write(square_avg, _fused(_scalar(1 - alpha, dtype) * grad, grad, square_avg.array))
        if group["centered"]:
            grad_avg: Tensor = state["grad_avg"]
            _write(grad_avg, _lerp(grad_avg.array, grad, 1 - alpha))
            average = np.sqrt(_fused(_scalar(-1, dtype) * grad_avg.array, grad_avg.array,
                                     square_avg.array))
        else:
            average = np.sqrt(square_avg.array)
        average = average + _scalar(group["eps"], dtype)
        lr = group["lr"]
        if group["momentum"] > 0:
            buffer: Tensor = state["momentum_buffer"]
            _write(buffer, buffer.array * _scalar(group["momentum"], dtype))
            _write(buffer, buffer.array + grad / average)
            _write(param, _fused(buffer.array, _scalar(-lr, dtype), param.array))
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
                self.state[param] = {
                    "step": Tensor._wrap(np.zeros((), dtype=np.float32)),
                    "sum": Tensor._wrap(np.full_like(param.array,
                                                     group["initial_accumulator_value"]))}

    def update(self, param: Tensor, grad: np.ndarray, group: dict[str, Any]) -> None:
        dtype = param.array.dtype
        state = self.state[param]
        step_count: Tensor = state["step"]
        _write(step_count, step_count.array + np.float32(1))
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = _fused(param.array, _scalar(group["weight_decay"], dtype), grad)
        step = float(step_count.item())
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total: Tensor = state["sum"]
        _write(total, _fused(grad, grad, total.array))
        std = np.sqrt(total.array) + _scalar(group["eps"], dtype)
        _write(param, param.array + (_scalar(-clr, dtype) * grad) / std)


OPTIM: dict[str, Any] = {"Optimizer": Optimizer, "SGD": SGD, "Adam": Adam, "AdamW": AdamW,
                         "RMSprop": RMSprop, "Adagrad": Adagrad}
