"""`torch.optim.lr_scheduler`: StepLR, MultiStepLR, ExponentialLR, LambdaLR, MultiplicativeLR,
CosineAnnealingLR, CosineAnnealingWarmRestarts, ConstantLR, LinearLR, PolynomialLR, OneCycleLR
and ReduceLROnPlateau, computing each learning rate as torch 2.13's
chainable forms do (the same python float arithmetic, so printed values match), with torch's
warning when `scheduler.step()` comes before any `optimizer.step()`.

The optimizer records that its step ran (engine/optim.py sets `_opt_called`), which is what
torch's wrapper around `optimizer.step` records.
"""

from __future__ import annotations

import math
import warnings
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.optim import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)
ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
    "will result in PyTorch skipping the first value of the learning rate schedule. "
    "See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)


class LRScheduler:
    PUBLIC_ATTRS = frozenset({"optimizer", "last_epoch", "base_lrs", "step", "get_last_lr",
                              "get_lr", "state_dict", "load_state_dict"})

    def __init__(self, optimizer: Any, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        "resuming scheduler with last_epoch >= 0.\nThis typically happens "
                        "when:\n1. You're trying to resume training from a checkpoint but "
                        "haven't properly loaded the optimizer state\n2. You're using "
                        "last_epoch >= 0 for a fresh training run (not recommended)")
        self.base_lrs: list[Any] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0  # torch's attributes in its order (state_dict() shows them)
        self._is_initial = True
        self._get_lr_called_within_step = False
        self._initial_step()

    def get_last_lr(self) -> list[Any]:
        return self._last_lr

    def get_lr(self) -> list[Any]:
        raise NotImplementedError

    def _current(self) -> list[Any]:
        return [group["lr"] for group in self.optimizer.param_groups]

    def step(self, epoch: int | None = None) -> None:
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        """The step itself: the next epoch's rates, or those of EPOCH in closed form."""
        if epoch is not None:
            self.last_epoch = epoch
            closed = getattr(self, "_closed_form", None)
            values = closed() if closed is not None else self.get_lr()
        else:
            self.last_epoch += 1
            values = self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr = self._current()

    def _initial_step(self) -> None:
        self._step_count = 0
        self._is_initial = True
        self.step()
        self._is_initial = False

    def state_dict(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items()
                if key not in ("optimizer", "lr_lambdas")}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update(state_dict)


class StepLR(LRScheduler):
    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"step_size", "gamma"}

    def __init__(self, optimizer: Any, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current()
        return [lr * self.gamma for lr in self._current()]

    def _closed_form(self) -> list[Any]:
        return [base * self.gamma ** (self.last_epoch // self.step_size)
                for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"milestones", "gamma"}

    def __init__(self, optimizer: Any, milestones: Any, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        if self.last_epoch not in self.milestones:
            return self._current()
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in self._current()]

    def _closed_form(self) -> list[Any]:
        milestones = sorted(self.milestones.elements())
        return [base * self.gamma ** bisect_right(milestones, self.last_epoch)
                for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"gamma"}

    def __init__(self, optimizer: Any, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        if self._is_initial:
            return self._current()
        return [lr * self.gamma for lr in self._current()]

    def _closed_form(self) -> list[Any]:
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class LambdaLR(LRScheduler):
    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"lr_lambdas"}

    def __init__(self, optimizer: Any, lr_lambda: Any, last_epoch: int = -1) -> None:
        if not isinstance(lr_lambda, (list, tuple)):
            self.lr_lambdas: list[Callable[[int], float]] = [lr_lambda] * len(
                optimizer.param_groups)
        else:
            if len(lr_lambda) != len(optimizer.param_groups):
                raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, but got "
                                 f"{len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        return [base * fn(self.last_epoch)
                for fn, base in zip(self.lr_lambdas, self.base_lrs, strict=True)]

    def state_dict(self) -> dict[str, Any]:
        """torch's: the lambdas themselves are not saved (a plain function shows as None)."""
        return {**super().state_dict(), "lr_lambdas": [None] * len(self.lr_lambdas)}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        super().load_state_dict({k: v for k, v in state_dict.items() if k != "lr_lambdas"})


class CosineAnnealingLR(LRScheduler):
    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"T_max", "eta_min"}

    def __init__(self, optimizer: Any, T_max: int, eta_min: float = 0.0,  # noqa: N803
                 last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        eta_min, t_max, epoch = self.eta_min, self.T_max, self.last_epoch
        groups = self.optimizer.param_groups
        if self._is_initial:
            return self._current()
        if self._step_count == 1 and epoch > 0:
            return [eta_min + (base - eta_min) * (1 + math.cos(epoch * math.pi / t_max)) / 2
                    for base in self.base_lrs]
        if (epoch - 1 - t_max) % (2 * t_max) == 0:
            return [group["lr"] + (base - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                    for base, group in zip(self.base_lrs, groups, strict=True)]
        return [(1 + math.cos(math.pi * epoch / t_max))
                / (1 + math.cos(math.pi * (epoch - 1) / t_max))
                * (group["lr"] - eta_min) + eta_min for group in groups]

    def _closed_form(self) -> list[Any]:
        return [self.eta_min + (base - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base in self.base_lrs]


class ConstantLR(LRScheduler):
    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"factor", "total_iters"}

    def __init__(self, optimizer: Any, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        if self.last_epoch == 0:
            return [lr * self.factor for lr in self._current()]
        if self.last_epoch != self.total_iters:
            return self._current()
        return [lr * (1.0 / self.factor) for lr in self._current()]

    def _closed_form(self) -> list[Any]:
        return [base * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base in self.base_lrs]


class LinearLR(LRScheduler):
    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"start_factor", "end_factor", "total_iters"}

    def __init__(self, optimizer: Any, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        start, end, total = self.start_factor, self.end_factor, self.total_iters
        if self.last_epoch == 0:
            return [lr * start for lr in self._current()]
        if self._is_initial or self.last_epoch > total:
            return self._current()
        return [lr * (1.0 + (end - start) / (total * start + (self.last_epoch - 1) * (end - start)))
                for lr in self._current()]

    def _closed_form(self) -> list[Any]:
        start, end, total = self.start_factor, self.end_factor, self.total_iters
        return [base * (start + (end - start) * min(total, self.last_epoch) / total)
                for base in self.base_lrs]


class MultiplicativeLR(LambdaLR):
    def get_lr(self) -> list[Any]:
        if self._is_initial:
            return self._current()
        return [lr * fn(self.last_epoch)
                for fn, lr in zip(self.lr_lambdas, self._current(), strict=True)]


class PolynomialLR(LRScheduler):
    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"total_iters", "power"}

    def __init__(self, optimizer: Any, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current()
        factor = ((1.0 - self.last_epoch / self.total_iters)
                  / (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [lr * factor for lr in self._current()]

    def _closed_form(self) -> list[Any]:
        return [base * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters)
                ** self.power for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every T_i epochs (T_i = T_0 T_mult^k); its own `step`, which
    (as torch's) neither counts steps nor checks their order."""

    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"T_0", "T_i", "T_mult", "eta_min", "T_cur"}

    def __init__(self, optimizer: Any, T_0: int, T_mult: int = 1,  # noqa: N803
                 eta_min: float = 0.0, last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        return [self.eta_min + (base - self.eta_min)
                * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2 for base in self.base_lrs]

    def step(self, epoch: Any = None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i = self.T_0
            self.T_cur = epoch
        self.last_epoch = math.floor(epoch)
        for group, lr in zip(self.optimizer.param_groups, self.get_lr(), strict=True):
            group["lr"] = lr
        self._last_lr = self._current()


def _per_group(name: str, optimizer: Any, value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has "
                             f"{len(optimizer.param_groups)}.")
        return list(value)
    return [value] * len(optimizer.param_groups)


class OneCycleLR(LRScheduler):
    """The 1cycle policy: up from max_lr / div_factor to max_lr, then annealed down to
    initial_lr / final_div_factor (three phases optional), momentum (or beta1) cycled the
    other way."""

    PUBLIC_ATTRS = LRScheduler.PUBLIC_ATTRS | {"total_steps", "cycle_momentum", "use_beta1"}

    def __init__(self, optimizer: Any, max_lr: Any, total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None,
                 pct_start: float = 0.3, anneal_strategy: str = "cos",
                 cycle_momentum: bool = True, base_momentum: Any = 0.85,
                 max_momentum: Any = 0.95, div_factor: float = 25.0,
                 final_div_factor: float = 1e4, three_phase: bool = False,
                 last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError("Expected positive integer steps_per_epoch, but got "
                                 f"{steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        up = float(pct_start * self.total_steps) - 1
        phases = [(up, "initial_lr", "max_lr", "max_momentum", "base_momentum")]
        if three_phase:
            phases += [(float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr",
                        "base_momentum", "max_momentum"),
                       (self.total_steps - 1, "initial_lr", "min_lr", "max_momentum",
                        "max_momentum")]
        else:
            phases += [(self.total_steps - 1, "max_lr", "min_lr", "base_momentum",
                        "max_momentum")]
        keys = ("end_step", "start_lr", "end_lr", "start_momentum", "end_momentum")
        self._schedule_phases: list[dict[str, Any]] = [dict(zip(keys, phase, strict=True))
                                                       for phase in phases]
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for index, group in enumerate(optimizer.param_groups):
                group["initial_lr"] = max_lrs[index] / div_factor
                group["max_lr"] = max_lrs[index]
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with "
                                 "`cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            maxima = _per_group("max_momentum", optimizer, max_momentum)
            bases = _per_group("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                for top, base, group in zip(maxima, bases, optimizer.param_groups, strict=True):
                    if self.use_beta1:
                        group["betas"] = (top, *group["betas"][1:])
                    else:
                        group["momentum"] = top
                    group["max_momentum"] = top
                    group["base_momentum"] = base
        super().__init__(optimizer, last_epoch)

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list[Any]:
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps "
                             f"is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start = 0.0
            for index, phase in enumerate(self._schedule_phases):
                end = phase["end_step"]
                if step <= end or index == len(self._schedule_phases) - 1:
                    pct = (step - start) / (end - start)
                    lr = self._anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct)
                    if self.cycle_momentum:
                        momentum = self._anneal(group[phase["start_momentum"]],
                                                group[phase["end_momentum"]], pct)
                    break
                start = phase["end_step"]
            lrs.append(lr)
            if self.cycle_momentum:
                if self.use_beta1:
                    group["betas"] = (momentum, *group["betas"][1:])
                else:
                    group["momentum"] = momentum
        return lrs


class ReduceLROnPlateau(LRScheduler):
    """Lower the learning rates by `factor` once `step(metric)` has not improved for
    `patience` steps (PyTorch 2.13's rules: relative or absolute threshold, cooldown,
    min_lr, changes smaller than eps skipped)."""

    PUBLIC_ATTRS = frozenset({"optimizer", "last_epoch", "step", "get_last_lr", "state_dict",
                              "load_state_dict", "factor", "patience", "cooldown", "eps",
                              "min_lrs", "mode", "threshold", "threshold_mode", "best",
                              "num_bad_epochs", "cooldown_counter", "in_cooldown",
                              "is_better"})

    def __init__(self, optimizer: Any, mode: str = "min", factor: float = 0.1,
                 patience: int = 10, threshold: float = 1e-4, threshold_mode: str = "rel",
                 cooldown: int = 0, min_lr: Any = 0, eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.factor = factor
        self.optimizer = optimizer
        groups = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != groups:
                raise ValueError(f"expected {groups} min_lrs, got {len(min_lr)}")
            self.min_lrs = list(min_lr)
        else:
            self.min_lrs = [min_lr] * groups
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = self._current()
        if mode not in ("min", "max"):
            raise ValueError("mode " + str(mode) + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + str(threshold_mode) + " is unknown!")
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode
        self.best = math.inf if mode == "min" else -math.inf
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def is_better(self, a: float, best: float) -> bool:
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min":
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def step(self, metrics: Any, epoch: int | None = None) -> None:  # type: ignore[override]
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self.is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            for group, min_lr in zip(self.optimizer.param_groups, self.min_lrs, strict=True):
                old_lr = float(group["lr"])
                new_lr = max(old_lr * self.factor, min_lr)
                if old_lr - new_lr > self.eps:
                    group["lr"] = new_lr
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = self._current()


class SequentialLR(LRScheduler):
    """One scheduler after another: the next takes over at each milestone, stepped from 0."""

    PUBLIC_ATTRS = frozenset({"optimizer", "last_epoch", "step", "get_last_lr"})

    def __init__(self, optimizer: Any, schedulers: Any, milestones: Any, last_epoch: int = -1
                 ) -> None:
        schedulers = list(schedulers)
        if len(schedulers) < 1:
            raise ValueError("SequentialLR expects at least one scheduler, but got no "
                             "scheduler.")
        for index, scheduler in enumerate(schedulers):
            _check_member(scheduler, index, optimizer, "SequentialLR")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be "
                             "one more than the number of milestone points, but got number of "
                             f"schedulers {len(schedulers)} and the number of milestones to be "
                             f"equal to {len(milestones)}")
        self._schedulers = schedulers
        self._milestones = list(milestones)
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:  # back to the initial rates, the steps undone
            group["lr"] = group["initial_lr"]
        for scheduler in schedulers:
            scheduler.last_epoch -= 1
        first = schedulers[bisect_right(self._milestones, 0)]  # the one meant for step 0
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def step(self, epoch: int | None = None) -> None:
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(LRScheduler):
    """Every scheduler stepped in turn at each step."""

    PUBLIC_ATTRS = frozenset({"optimizer", "step", "get_last_lr"})

    def __init__(self, schedulers: Any, optimizer: Any = None) -> None:
        schedulers = list(schedulers)
        if len(schedulers) < 1:
            raise ValueError("ChainedScheduler expects at least one scheduler to be chained, "
                             "but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        for index, scheduler in enumerate(schedulers):
            _check_member(scheduler, index, optimizer, "ChainedScheduler")
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = self._current()

    def step(self, epoch: int | None = None) -> None:
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = self._current()


def _check_member(scheduler: Any, index: int, optimizer: Any, kind: str) -> None:
    if not hasattr(scheduler, "optimizer"):
        raise TypeError(f"{kind} at index {index} should have `optimizer` as its attribute.")
    if isinstance(scheduler, ReduceLROnPlateau):
        raise ValueError(f"{kind} does not support `ReduceLROnPlateau` scheduler as it requires "
                         "additional kwargs to be specified when calling `step`, but got one "
                         f"at index {index} in the given schedulers sequence.")
    if optimizer is not scheduler.optimizer:
        raise ValueError(f"{kind} expects all schedulers to belong to the same optimizer, but "
                         f"got scheduler {type(scheduler).__name__} at index {index} has "
                         f"{scheduler.optimizer}, which is different from "
                         f"{optimizer}.")


# torch.optim.lr_scheduler
SCHEDULERS: dict[str, Any] = {kind.__name__: kind for kind in (
    LRScheduler, StepLR, MultiStepLR, ExponentialLR, LambdaLR, MultiplicativeLR,
    CosineAnnealingLR, CosineAnnealingWarmRestarts, ConstantLR, LinearLR, PolynomialLR,
    OneCycleLR, ReduceLROnPlateau, SequentialLR, ChainedScheduler)}
