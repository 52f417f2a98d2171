"""`torch.distributions`: Normal, Uniform, Bernoulli, Categorical, Exponential, Independent and
`kl_divergence`.

PyTorch writes its distributions in Python over tensor operations; here they are the same
formulas over agraph's operations, in the same order, so values, random draws and `grad_fn`s
are PyTorch's: a Normal's `sample` is `torch.normal(loc, scale)` under no_grad, `rsample` is
`loc + eps * scale` with `eps` from `normal_()`, a Categorical draws with `torch.multinomial`,
`log_prob` builds the graph PyTorch builds. Parameters are checked as PyTorch checks them by
default (`validate_args`), with its messages.
"""

from __future__ import annotations

import math
from typing import Any

from engine import dtypes, grad_mode
from engine import functional as F
from engine import random as R
from engine.size import Size
from engine.tensor import Tensor

_HALF_LOG_TWO_PI = math.log(math.sqrt(2 * math.pi))
NO_SAMPLES = Size()  # sample_shape by default: one draw


def _torch(name: str) -> Any:
    from engine import api  # lazy: engine.api builds this module

    return api.TORCH[name]


def _functional(name: str) -> Any:
    from engine import api  # lazy: engine.api builds this module

    return api.members("FUNCTIONAL")[name]


def _tensor(value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float)):
        return _torch("tensor")(float(value), dtype=dtypes.default_float())
    raise ValueError(f"Unsupported parameter type {type(value).__name__}")


def broadcast_all(*values: Any) -> tuple[Tensor, ...]:
    """The parameters as tensors of one shape (numbers become tensors of the default dtype,
    or of the tensors' dtype when there are some)."""
    tensors = [v for v in values if isinstance(v, Tensor)]
    if not tensors and not all(isinstance(v, (bool, int, float)) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, "
                         "torch.Tensor or objects implementing __torch_function__.")
    dtype = tensors[0].dtype if tensors else dtypes.default_float()
    made = [v if isinstance(v, Tensor) else _torch("tensor")(float(v), dtype=dtype)
            for v in values]
    shape = _broadcast_shape(*(tuple(t.shape) for t in made))
    # torch.broadcast_tensors: a tensor of that shape already is returned itself
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in made)


def _broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape tensors of `shapes` broadcast to, or PyTorch's error."""
    result: list[int] = []
    for index in range(1, max(map(len, shapes), default=0) + 1):
        sizes = [shape[-index] for shape in shapes if len(shape) >= index]
        size = max(sizes)
        for number, other in enumerate(sizes):
            if other not in (1, size):
                first = next(n for n, s in enumerate(sizes) if s != other and s != 1)
                a, b = sorted((number, first))
                raise RuntimeError(f"The size of tensor a ({sizes[a]}) must match the size of "
                                   f"tensor b ({sizes[b]}) at non-singleton dimension "
                                   f"{max(map(len, shapes)) - index}")
        result.append(size if all(s != 0 for s in sizes) or size == 1 else 0)
    return tuple(reversed(result))


def _size(sample_shape: Any) -> Size:
    return sample_shape if isinstance(sample_shape, Size) else Size(tuple(sample_shape))


class Distribution:
    """What every distribution shares: shapes, `sample` under no_grad, checking, printing."""

    PUBLIC_ATTRS = frozenset({
        "sample", "rsample", "log_prob", "entropy", "mean", "mode", "variance", "stddev",
        "batch_shape", "event_shape", "has_rsample", "arg_constraints", "sample_n", "cdf",
        "perplexity", "expand", "support"})
    has_rsample = False
    _validate_args = True
    parameters: tuple[str, ...] = ()
    constraints: dict[str, str] = {}

    def __init__(self, batch_shape: Any = (), event_shape: Any = (),
                 validate_args: Any = None) -> None:
        self.batch_shape = _size(batch_shape)
        self.event_shape = _size(event_shape)
        if validate_args is not None:
            self._validate_args = bool(validate_args)
        if self._validate_args:
            for name in self.parameters:
                if name in self.__dict__:
                    self._check_parameter(name, self.__dict__[name])

    @property
    def arg_constraints(self) -> dict[str, str]:
        return dict(self.constraints)

    def _check_parameter(self, name: str, value: Tensor) -> None:
        constraint = self.constraints[name]
        valid = _satisfied(constraint, value)
        if valid is not None and not bool(valid.all()):
            shape = tuple(value.shape)
            raise ValueError(f"Expected parameter {name} (Tensor of shape {shape}) of "
                             f"distribution {self!r} to satisfy the constraint "
                             f"{self.constraint_text(name)}, but found invalid values:\n"
                             f"{value}")

    def _check_sample(self, value: Any) -> None:
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        valid = _satisfied(self.support_name(), value)
        if valid is not None and not bool(valid.all()):
            raise ValueError(f"Expected value argument (Tensor of shape {tuple(value.shape)}) to "
                             f"be within the support ({self.support_name()}) of the "
                             f"distribution {self!r}, but found invalid values:\n{value}")

    def support_name(self) -> str:
        return "Real()"

    def constraint_text(self, name: str) -> str:
        return self.constraints[name]

    def _extended_shape(self, sample_shape: Any = ()) -> Size:
        return Size(tuple(_size(sample_shape)) + tuple(self.batch_shape)
                    + tuple(self.event_shape))

    def sample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        with grad_mode.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} does not implement rsample")

    def sample_n(self, n: int) -> Tensor:
        return self.sample(Size((n,)))

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()  # type: ignore[attr-defined, no-any-return]

    def perplexity(self) -> Tensor:
        return self.entropy().exp()  # type: ignore[attr-defined, no-any-return]

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}: {self.__dict__[name]}" if self.__dict__[name].numel() == 1
            else f"{name}: {self.__dict__[name].size()!r}"
            for name in self.parameters if name in self.__dict__)
        return f"{type(self).__name__}({shown})"


def _satisfied(constraint: str, value: Tensor) -> Tensor | None:
    """Where `value` satisfies the constraint PyTorch checks (None: nothing to check)."""
    if constraint == "Real()":
        return value == value  # no NaN
    if constraint == "GreaterThan(lower_bound=0.0)":
        return value > 0
    if constraint == "Interval(lower_bound=0.0, upper_bound=1.0)":
        return (value >= 0) & (value <= 1)
    if constraint == "Simplex()":
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)
    if constraint == "IndependentConstraint(Real(), 1)":
        return (value == value).all(-1)
    if constraint == "Boolean()":
        return (value == 0) | (value == 1)
    return None


class Normal(Distribution):
    """`Normal(loc, scale)`."""

    PUBLIC_ATTRS = Distribution.PUBLIC_ATTRS | frozenset({"loc", "scale"})
    parameters = ("loc", "scale")
    constraints = {"loc": "Real()", "scale": "GreaterThan(lower_bound=0.0)"}
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        plain = all(isinstance(v, (int, float)) for v in (loc, scale))
        super().__init__(() if plain else self.loc.size(), (), validate_args)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def sample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with grad_mode.no_grad():
            return R.normal(self.loc.expand(tuple(shape)), self.scale.expand(tuple(shape)))

    def rsample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = _torch("empty")(*shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value: Any) -> Tensor:
        if self._validate_args:
            self._check_sample(value)
        var = self.scale ** 2
        return -((value - self.loc) ** 2) / (2 * var) - self.scale.log() - _HALF_LOG_TWO_PI

    def cdf(self, value: Any) -> Tensor:
        if self._validate_args:
            self._check_sample(value)
        return 0.5 * (1 + F.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + F.log(self.scale)


class Uniform(Distribution):
    """`Uniform(low, high)`."""

    PUBLIC_ATTRS = Distribution.PUBLIC_ATTRS | frozenset({"low", "high"})
    parameters = ("low", "high")
    constraints = {"low": "LessThan", "high": "GreaterThan"}  # each bounded by the other
    has_rsample = True

    def __init__(self, low: Any, high: Any, validate_args: Any = None) -> None:
        self.low, self.high = broadcast_all(low, high)
        plain = all(isinstance(v, (int, float)) for v in (low, high))
        super().__init__(() if plain else self.low.size(), (), validate_args)

    def constraint_text(self, name: str) -> str:
        if name == "low":
            return f"LessThan(upper_bound={self.high})"
        return f"GreaterThan(lower_bound={self.low})"

    def _check_parameter(self, name: str, value: Tensor) -> None:
        valid = value < self.high if name == "low" else value > self.low
        if not bool(valid.all()):
            raise ValueError(f"Expected parameter {name} (Tensor of shape {tuple(value.shape)}) "
                             f"of distribution {self!r} to satisfy the constraint "
                             f"{self.constraint_text(name)}, but found invalid values:\n{value}")

    def support_name(self) -> str:
        return f"Interval(lower_bound={self.low}, upper_bound={self.high})"

    def _check_sample(self, value: Any) -> None:
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        if not bool(((self.low <= value) & (value <= self.high)).all()):
            raise ValueError(f"Expected value argument (Tensor of shape {tuple(value.shape)}) to "
                             f"be within the support ({self.support_name()}) of the "
                             f"distribution {self!r}, but found invalid values:\n{value}")

    @property
    def mean(self) -> Tensor:
        return (self.high + self.low) / 2

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        shape = self._extended_shape(sample_shape)
        rand = R.rand(*shape, dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value: Any) -> Tensor:
        if self._validate_args:
            self._check_sample(value)
        lower = self.low.le(value).type_as(self.low)
        upper = self.high.gt(value).type_as(self.low)
        return F.log(lower.mul(upper)) - F.log(self.high - self.low)

    def cdf(self, value: Any) -> Tensor:
        result = (value - self.low) / (self.high - self.low)
        return result.clamp(min=0, max=1)

    def entropy(self) -> Tensor:
        return F.log(self.high - self.low)


def _clamp_probs(probs: Tensor) -> Tensor:
    eps = dtypes.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


class Bernoulli(Distribution):
    """`Bernoulli(probs=...)` or `Bernoulli(logits=...)`."""

    PUBLIC_ATTRS = Distribution.PUBLIC_ATTRS | frozenset({"probs", "logits", "param_shape"})
    parameters = ("probs", "logits")
    constraints = {"probs": "Interval(lower_bound=0.0, upper_bound=1.0)", "logits": "Real()"}

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        (param,) = broadcast_all(given)
        self.__dict__["probs" if probs is not None else "logits"] = param
        self._param = param
        plain = isinstance(given, (int, float))
        super().__init__(() if plain else param.size(), (), validate_args)

    def __getattr__(self, name: str) -> Any:
        if name == "probs":
            value = F.sigmoid(self.__dict__["logits"])
        elif name == "logits":
            clamped = _clamp_probs(self.__dict__["probs"])
            value = F.log(clamped) - F.log1p(-clamped)
        else:
            raise AttributeError(name)
        self.__dict__[name] = value
        return value

    def support_name(self) -> str:
        return "Boolean()"

    @property
    def param_shape(self) -> Size:
        return self._param.size()  # type: ignore[no-any-return]

    @property
    def mean(self) -> Tensor:
        return self.probs  # type: ignore[no-any-return]

    @property
    def mode(self) -> Tensor:
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = float("nan")
        return mode  # type: ignore[no-any-return]

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)  # type: ignore[no-any-return]

    def sample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with grad_mode.no_grad():
            return R.bernoulli(self.probs.expand(tuple(shape)))

    def log_prob(self, value: Any) -> Tensor:
        if self._validate_args:
            self._check_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -_bce_with_logits(logits, value)

    def entropy(self) -> Tensor:
        return _bce_with_logits(self.logits, self.probs)


def _bce_with_logits(logits: Tensor, target: Tensor) -> Tensor:
    return _functional("binary_cross_entropy_with_logits")(  # type: ignore[no-any-return]
        logits, target, reduction="none")


class Categorical(Distribution):
    """`Categorical(probs=...)` or `Categorical(logits=...)`: the last dimension holds the
    events."""

    PUBLIC_ATTRS = Distribution.PUBLIC_ATTRS | frozenset({"probs", "logits", "param_shape",
                                                          "enumerate_support"})
    parameters = ("probs", "logits")
    constraints = {"probs": "Simplex()", "logits": "IndependentConstraint(Real(), 1)"}

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.__dict__["probs"] = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.__dict__["logits"] = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.__dict__["probs" if probs is not None else "logits"]
        self._num_events = self._param.size()[-1]
        batch = self._param.size()[:-1] if self._param.ndimension() > 1 else Size()
        super().__init__(batch, (), validate_args)

    def __getattr__(self, name: str) -> Any:
        if name == "probs":
            value = F.softmax(self.__dict__["logits"], dim=-1)
        elif name == "logits":
            value = F.log(_clamp_probs(self.__dict__["probs"]))
        else:
            raise AttributeError(name)
        self.__dict__[name] = value
        return value

    def support_name(self) -> str:
        return f"IntegerInterval(lower_bound=0, upper_bound={self._num_events - 1})"

    def _check_sample(self, value: Any) -> None:
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        valid = (value % 1 == 0) & (value >= 0) & (value <= self._num_events - 1)
        if not bool(valid.all()):
            raise ValueError(f"Expected value argument (Tensor of shape {tuple(value.shape)}) to "
                             f"be within the support ({self.support_name()}) of the "
                             f"distribution {self!r}, but found invalid values:\n{value}")

    @property
    def param_shape(self) -> Size:
        return self._param.size()  # type: ignore[no-any-return]

    @property
    def mean(self) -> Tensor:
        return _torch("full")(tuple(self._extended_shape()), float("nan"),
                              dtype=self.probs.dtype)

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(dim=-1)  # type: ignore[no-any-return]

    @property
    def variance(self) -> Tensor:
        return _torch("full")(tuple(self._extended_shape()), float("nan"),
                              dtype=self.probs.dtype)

    def sample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        sample_shape = _size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        with grad_mode.no_grad():
            samples_2d = R.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(tuple(self._extended_shape(sample_shape)))  # type: ignore[no-any-return]

    def log_prob(self, value: Any) -> Tensor:
        if self._validate_args:
            self._check_sample(value)
        value = value.long().unsqueeze(-1)
        shape = _broadcast_shape(tuple(value.shape), tuple(self.logits.shape))
        value = value.expand(shape)[..., :1]
        log_pmf = self.logits.expand(shape)
        return log_pmf.gather(-1, value).squeeze(-1)  # type: ignore[no-any-return]

    def entropy(self) -> Tensor:
        min_real = dtypes.finfo(self.logits.dtype).min
        logits = F.clamp(self.logits, min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)  # type: ignore[no-any-return]

    def enumerate_support(self, expand: bool = True) -> Tensor:
        values = _torch("arange")(self._num_events, dtype=dtypes.int64)
        values = values.view((-1,) + (1,) * len(self.batch_shape))
        if expand:
            values = values.expand((-1, *self.batch_shape))
        return values  # type: ignore[no-any-return]


class Exponential(Distribution):
    """`Exponential(rate)`."""

    PUBLIC_ATTRS = Distribution.PUBLIC_ATTRS | frozenset({"rate", "icdf"})
    parameters = ("rate",)
    constraints = {"rate": "GreaterThan(lower_bound=0.0)"}
    has_rsample = True

    def __init__(self, rate: Any, validate_args: Any = None) -> None:
        (self.rate,) = broadcast_all(rate)
        super().__init__(() if isinstance(rate, (int, float)) else self.rate.size(), (),
                         validate_args)

    def support_name(self) -> str:
        return "GreaterThanEq(lower_bound=0.0)"

    def _check_sample(self, value: Any) -> None:
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        if not bool((value >= 0).all()):
            raise ValueError(f"Expected value argument (Tensor of shape {tuple(value.shape)}) to "
                             f"be within the support ({self.support_name()}) of the "
                             f"distribution {self!r}, but found invalid values:\n{value}")

    @property
    def mean(self) -> Tensor:
        return self.rate.reciprocal()  # type: ignore[no-any-return]

    @property
    def mode(self) -> Tensor:
        return _torch("zeros_like")(self.rate)

    @property
    def stddev(self) -> Tensor:
        return self.rate.reciprocal()  # type: ignore[no-any-return]

    @property
    def variance(self) -> Tensor:
        return self.rate.pow(-2)

    def rsample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        shape = self._extended_shape(sample_shape)
        draws = _torch("empty")(*shape, dtype=self.rate.dtype).exponential_()
        return draws / self.rate  # type: ignore[no-any-return]

    def log_prob(self, value: Any) -> Tensor:
        if self._validate_args:
            self._check_sample(value)
        return self.rate.log() - self.rate * value  # type: ignore[no-any-return]

    def cdf(self, value: Any) -> Tensor:
        if self._validate_args:
            self._check_sample(value)
        return 1 - F.exp(-self.rate * value)  # type: ignore[no-any-return]

    def icdf(self, value: Any) -> Tensor:
        return -F.log1p(-value) / self.rate  # type: ignore[no-any-return]

    def entropy(self) -> Tensor:
        return 1.0 - F.log(self.rate)  # type: ignore[no-any-return]


def _sum_rightmost(value: Tensor, dims: int) -> Tensor:
    if dims == 0:
        return value
    return value.reshape(tuple(value.shape[:-dims]) + (-1,)).sum(-1)  # type: ignore[no-any-return]


class Independent(Distribution):
    """`Independent(base, n)`: the base's `n` rightmost batch dimensions as event
    dimensions (log_prob and entropy summed over them)."""

    PUBLIC_ATTRS = Distribution.PUBLIC_ATTRS | frozenset({"base_dist",
                                                          "reinterpreted_batch_ndims"})

    def __init__(self, base_distribution: Any, reinterpreted_batch_ndims: Any,
                 validate_args: Any = None) -> None:
        if not isinstance(base_distribution, Distribution):
            raise TypeError("Independent takes a distribution")
        ndims = int(reinterpreted_batch_ndims)
        if ndims > len(base_distribution.batch_shape):
            raise ValueError("Expected reinterpreted_batch_ndims <= "
                             "len(base_distribution.batch_shape), actual "
                             f"{ndims} vs {len(base_distribution.batch_shape)}")
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        event_dim = ndims + len(base_distribution.event_shape)
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = ndims
        super().__init__(shape[:len(shape) - event_dim], shape[len(shape) - event_dim:],
                         validate_args)

    @property
    def has_rsample(self) -> bool:  # type: ignore[override]
        return self.base_dist.has_rsample

    @property
    def mean(self) -> Tensor:
        return self.base_dist.mean  # type: ignore[attr-defined, no-any-return]

    @property
    def mode(self) -> Tensor:
        return self.base_dist.mode  # type: ignore[attr-defined, no-any-return]

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance  # type: ignore[attr-defined, no-any-return]

    def sample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape: Any = NO_SAMPLES) -> Tensor:
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value: Any) -> Tensor:
        return _sum_rightmost(self.base_dist.log_prob(value),  # type: ignore[attr-defined]
                              self.reinterpreted_batch_ndims)

    def entropy(self) -> Tensor:
        return _sum_rightmost(self.base_dist.entropy(),  # type: ignore[attr-defined]
                              self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return f"Independent({self.base_dist!r}, {self.reinterpreted_batch_ndims})"


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """KL(p || q) for two distributions of one family, PyTorch's formula for each."""
    inf = float("inf")
    if type(p) is Normal and type(q) is Normal:
        var_ratio = (p.scale / q.scale).pow(2)
        t1 = ((p.loc - q.loc) / q.scale).pow(2)
        return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())
    if type(p) is Categorical and type(q) is Categorical:
        t = p.probs * (p.logits - q.logits)
        t[(q.probs == 0).expand_as(t)] = inf
        t[(p.probs == 0).expand_as(t)] = 0
        return t.sum(-1)  # type: ignore[no-any-return]
    if type(p) is Bernoulli and type(q) is Bernoulli:
        softplus = _softplus
        t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
        t1[q.probs == 0] = inf
        t1[p.probs == 0] = 0
        t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
        t2[q.probs == 1] = inf
        t2[p.probs == 1] = 0
        return t1 + t2  # type: ignore[no-any-return]
    if type(p) is Independent and type(q) is Independent:
        if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
            raise NotImplementedError
        return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist),
                              p.reinterpreted_batch_ndims)
    if type(p) is Exponential and type(q) is Exponential:
        rate_ratio = q.rate / p.rate
        return -rate_ratio.log() + rate_ratio - 1  # type: ignore[no-any-return]
    if type(p) is Normal and type(q) is Uniform:  # unbounded support against a bounded one
        return _torch("full_like")(p.loc, inf)
    if type(p) is Uniform and type(q) is Uniform:
        result = ((q.high - q.low) / (p.high - p.low)).log()
        result[(q.low > p.low) | (q.high < p.high)] = inf
        return result
    raise NotImplementedError(f"No KL(p || q) is implemented for p of type "
                              f"{type(p).__name__} and q of type {type(q).__name__}")


def _softplus(x: Tensor) -> Tensor:
    return _functional("softplus")(x)  # type: ignore[no-any-return]


DISTRIBUTIONS: dict[str, Any] = {
    "Distribution": Distribution, "Normal": Normal, "Uniform": Uniform, "Bernoulli": Bernoulli,
    "Categorical": Categorical, "Exponential": Exponential, "Independent": Independent,
    "kl_divergence": kl_divergence,
}
for _kind in (Distribution, Normal, Uniform, Bernoulli, Categorical, Exponential, Independent):
    _kind.__module__ = "torch.distributions"
