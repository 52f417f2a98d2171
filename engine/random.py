"""torch's random functions (`torch.rand`, `torch.manual_seed`, ...): PyTorch's numbers, bit for
bit. The generator lives in engine/generator.py, the kernels' transformations in
engine/sampling.py; this module turns their arrays into tensors."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import budget, dtypes, grad_mode, sampling
from engine import device as devices
from engine.creation import keyword_size
from engine.generator import DEFAULT_SEED, Generator, default_generator, pick
from engine.registry import public
from engine.tensor import Tensor


def manual_seed(seed: Any) -> Generator:
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def reset(seed_value: int = DEFAULT_SEED) -> None:
    """A run's start: the default generator seeded with agraph's fixed seed (or --seed)."""
    default_generator.set_seed(seed_value)


def get_rng_state() -> Tensor:
    return default_generator.get_state()  # type: ignore[no-any-return]


def set_rng_state(new_state: Any) -> None:
    default_generator.set_state(new_state)


class fork_rng:  # noqa: N801 - PyTorch's name
    """`with torch.random.fork_rng():` the CPU generator's state is put back on exit (there
    are no other devices' generators to fork)."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("enabled", "state")

    def __init__(self, devices: Any = None, enabled: bool = True, _caller: str = "fork_rng",
                 _devices_kw: str = "devices", device_type: str = "cuda") -> None:
        self.enabled = bool(enabled)
        self.state: Tensor | None = None

    def __enter__(self) -> None:
        if self.enabled:
            self.state = get_rng_state()

    def __exit__(self, *exc: Any) -> None:
        if self.state is not None:
            set_rng_state(self.state)


# keywords torch's factories take that change nothing here (one strided CPU layout, no pinning)
_LAYOUT_KEYWORDS = frozenset({"layout", "pin_memory", "memory_format"})


def _layout_only(name: str, keywords: dict[str, Any], *positional: Any) -> None:
    """Refuse a keyword torch's `name` does not take (`names=`: named tensors are gone), with
    PyTorch's message: the positional arguments' types, then the keywords (last first)."""
    unknown = [key for key in keywords if key not in _LAYOUT_KEYWORDS]
    if unknown:
        got = [_argument_type(value) for value in positional]
        got += [f"{key}={_argument_type(keywords[key])}" for key in reversed(unknown)]
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"({', '.join(got)}), but expected one of:")


def _argument_type(value: Any) -> str:
    """A value's type as PyTorch's argument parser names it in its messages."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, dtypes.DType):
        return "torch.dtype"
    return type(value).__name__


def _shape(size: tuple[Any, ...]) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _floating(dtype: Any, function: str) -> dtypes.DType:
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.default_float()
    if not target.is_floating_point:
        raise NotImplementedError(f'"{function}" not implemented for \'{_type_name(target)}\'')
    return target


def _type_name(target: dtypes.DType) -> str:
    return {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool", "float16": "Half", "float32": "Float",
            "float64": "Double"}.get(target.name, target.name)


C_NAMES = {"uint8": "unsigned char", "int8": "signed char", "int16": "short", "int32": "int",
           "int64": "long", "bool": "bool"}


def _check_range(low: int, high: int, kind: np.dtype) -> None:
    """random_(from, to)'s checks: from < to, and both ends inside an integer dtype."""
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    if kind.kind in "iub":
        bounds = (0, 1) if kind.kind == "b" else (int(np.iinfo(kind).min),
                                                  int(np.iinfo(kind).max))
        name = C_NAMES[kind.name]
        if not bounds[0] <= low <= bounds[1]:
            raise RuntimeError(f"from is out of bounds for {name}")
        if not bounds[0] <= high - 1 <= bounds[1]:
            raise RuntimeError(f"to - 1 is out of bounds for {name}")


def _tensor(values: np.ndarray, shape: tuple[int, ...], target: dtypes.DType,
            requires_grad: bool) -> Tensor:
    tensor = Tensor._wrap(values.astype(target.np, copy=False).reshape(shape))
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def _count(shape: tuple[int, ...], target: dtypes.DType) -> int:
    budget.check_shape(shape, target.itemsize)
    return int(np.prod(shape, dtype=np.int64))


def rand(*sizes: Any, size: Any = None, generator: Any = None, dtype: Any = None,
         requires_grad: bool = False, device: Any = None, **_layout: Any) -> Tensor:
    """`torch.rand(2, 3)`, `torch.rand((2, 3))` or `torch.rand(size=(2, 3))`."""
    _layout_only("rand", _layout, *sizes)
    return _filled(sampling.uniform, "check_uniform_bounds", sizes or keyword_size(size),
                   generator, dtype, requires_grad, device)


def randn(*sizes: Any, size: Any = None, generator: Any = None, dtype: Any = None,
          requires_grad: bool = False, device: Any = None, **_layout: Any) -> Tensor:
    """`torch.randn(2, 3)`, `torch.randn((2, 3))` or `torch.randn(size=(2, 3))`."""
    _layout_only("randn", _layout, *sizes)
    return _filled(sampling.normal, "normal_kernel_cpu", sizes or keyword_size(size),
                   generator, dtype, requires_grad, device)


def _filled(kernel: Callable[..., np.ndarray], kernel_name: str, size: tuple[Any, ...],
            generator: Any, dtype: Any, requires_grad: bool, device: Any) -> Tensor:
    """rand/randn: a floating tensor of SIZE from KERNEL's standard distribution (0 to 1, or
    mean 0 and std 1); KERNEL_NAME is PyTorch's, named when the dtype is not floating."""
    devices.check_factory(device)
    shape, target = _shape(size), _floating(dtype, kernel_name)
    count = _count(shape, target)
    values = kernel(pick(generator), count, 0.0, 1.0, target.np)
    return _tensor(values, shape, target, requires_grad)


def randint(*args: Any, size: Any = None, generator: Any = None, dtype: Any = None,
            requires_grad: bool = False, device: Any = None, low: Any = None,
            high: Any = None) -> Tensor:
    devices.check_factory(device)
    positional = list(args)
    if size is None and positional and isinstance(positional[-1], (tuple, list)):
        size = positional.pop()
    if low is not None:
        positional.insert(0, low)
    if high is not None:
        positional.append(high)
    if len(positional) == 1:
        low_value, high_value = 0, int(positional[0])
    elif len(positional) == 2:
        low_value, high_value = int(positional[0]), int(positional[1])
    else:
        raise TypeError("randint() received an invalid combination of arguments")
    if size is None:
        raise TypeError("randint() missing 1 required positional arguments: \"size\"")
    shape = _shape((size,))
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.int64
    return _random_tensor(pick(generator), shape, target, low_value, high_value, requires_grad)


def _random_tensor(generator: Generator, shape: tuple[int, ...], target: dtypes.DType,
                   low: int, high: int, requires_grad: bool = False) -> Tensor:
    _check_range(low, high, target.np)
    count = _count(shape, target)
    values = sampling.random_from_to(generator, count, low, high, target.np)
    return _tensor(values, shape, target, requires_grad)


def randperm(n: Any, *, generator: Any = None, dtype: Any = None, requires_grad: bool = False,
             device: Any = None, **_layout: Any) -> Tensor:
    _layout_only("randperm", _layout, n)
    devices.check_factory(device)
    count = int(n)
    if count < 0:
        raise RuntimeError(f"n must be non-negative, got{count}")
    target = dtypes.resolve(dtype) if dtype is not None else dtypes.int64
    budget.check_shape((count,), 8)
    values = sampling.randperm(pick(generator), count)
    return _tensor(values, (count,), target, requires_grad)


def _like(t: Tensor, dtype: Any) -> tuple[tuple[int, ...], Any]:
    return t.shape_tuple, dtype if dtype is not None else t.dtype


def rand_like(input: Tensor, *, dtype: Any = None, requires_grad: bool = False, device: Any = None,
              generator: Any = None, **_layout: Any) -> Tensor:
    _layout_only("rand_like", _layout, input)
    devices.check(device)
    shape, target = _like(input, dtype)
    return rand(shape, dtype=target, requires_grad=requires_grad, generator=generator)


def randn_like(input: Tensor, *, dtype: Any = None, requires_grad: bool = False,
               device: Any = None, generator: Any = None, **_layout: Any) -> Tensor:
    _layout_only("randn_like", _layout, input)
    devices.check(device)
    shape, target = _like(input, dtype)
    return randn(shape, dtype=target, requires_grad=requires_grad, generator=generator)


def randint_like(input: Tensor, low: Any, high: Any = None, *, dtype: Any = None,
                 requires_grad: bool = False, device: Any = None, generator: Any = None,
                 **_layout: Any) -> Tensor:
    _layout_only("randint_like", _layout, input, low)
    devices.check(device)
    if high is None:
        low, high = 0, low
    shape, target = _like(input, dtype)
    return _random_tensor(pick(generator), shape, dtypes.resolve(target), int(low), int(high),
                          requires_grad)


def memory_order(tensor: Tensor) -> np.ndarray | None:
    """The logical (row-major) positions of a tensor's elements in the order of its memory, or
    None when the two agree. PyTorch's kernels fill a tensor in memory order."""
    array = tensor.array
    if array.flags.c_contiguous or array.ndim < 2:
        return None
    offsets = np.zeros(array.shape, dtype=np.int64)
    for axis, (size, stride) in enumerate(zip(array.shape, array.strides, strict=True)):
        shape = [1] * array.ndim
        shape[axis] = size
        offsets = offsets + np.arange(size, dtype=np.int64).reshape(shape) * stride
    return np.argsort(offsets.ravel(), kind="stable")


def in_memory_order(tensor: Tensor, values: np.ndarray) -> np.ndarray:
    """Values drawn for an in-place fill, placed as PyTorch's kernels write them (a transposed
    view is filled along its base's rows)."""
    order = memory_order(tensor)
    if order is None:
        return values.reshape(tensor.shape_tuple)
    placed = np.empty(values.size, dtype=values.dtype)
    placed[order] = values.ravel()
    return placed.reshape(tensor.shape_tuple)


def uniform_values(tensor: Tensor, low: float, high: float, generator: Any = None
                   ) -> np.ndarray:
    """What `tensor.uniform_(low, high)` writes (engine/tensor.py's in-place method)."""
    _floating(tensor.dtype, "check_uniform_bounds")
    return in_memory_order(tensor, sampling.uniform(pick(generator), tensor.numel(), float(low),
                                                    float(high), tensor.array.dtype))


def normal_values(tensor: Tensor, mean: float, std: float, generator: Any = None
                  ) -> np.ndarray:
    _floating(tensor.dtype, "normal_kernel_cpu")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    contiguous = bool(tensor.array.flags.c_contiguous)
    return in_memory_order(tensor, sampling.normal(pick(generator), tensor.numel(), float(mean),
                                                   float(std), tensor.array.dtype, contiguous))


def bernoulli_mask(shape: tuple[int, ...], p: float, generator: Any = None) -> np.ndarray:
    """bernoulli_(p) with a scalar p (dropout's mask): booleans, in memory order."""
    count = int(np.prod(shape, dtype=np.int64))
    return sampling.bernoulli_scalar(pick(generator), count, float(p)).reshape(shape)


# --- torch.normal, bernoulli, multinomial --------------------------------------------------------

def normal(mean: Any = 0.0, std: Any = 1.0, size: Any = None, *, generator: Any = None,
           dtype: Any = None, requires_grad: bool = False, device: Any = None,
           **_layout: Any) -> Tensor:
    _layout_only("normal", _layout, mean, std)
    """torch.normal's overloads. With a tensor mean or std PyTorch fills N(0, 1) (N(0, std) for a
    float std), then multiplies by std and adds mean as separate kernels."""
    from engine.functional.arith import add, mul  # the functional layer sits above this module

    devices.check_factory(device)
    generator = pick(generator)
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments")
        shape, target = _shape((size,)), _floating(dtype, "normal_kernel_cpu")
        count = _count(shape, target)
        values = normal_values_of(generator, count, float(mean), float(std), target)
        return _tensor(values, shape, target, requires_grad)
    if isinstance(std, Tensor) and bool((std.array < 0).any()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    like = mean if isinstance(mean, Tensor) else std
    shapes = [t.shape_tuple for t in (mean, std) if isinstance(t, Tensor)]
    shape = tuple(np.broadcast_shapes(*shapes))
    target = like.dtype
    count = _count(shape, target)
    scale = 1.0 if isinstance(std, Tensor) else float(std)
    output = Tensor._wrap(normal_values_of(generator, count, 0.0, scale, target).reshape(shape))
    if isinstance(std, Tensor):
        output = mul(output, std.detach())
    return add(output, mean.detach() if isinstance(mean, Tensor) else float(mean))


def normal_values_of(generator: Generator, count: int, mean: float, std: float,
                     target: dtypes.DType) -> np.ndarray:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    return sampling.normal(generator, count, mean, std, target.np)


@public(method=True)
def bernoulli(input: Tensor, p: Any = None, *, generator: Any = None  # noqa: A002
              ) -> Tensor:
    """torch.bernoulli: `empty_like(input).bernoulli_(input or p)`."""
    result = Tensor._wrap(np.empty(input.shape_tuple, dtype=input.array.dtype))
    return bernoulli_(result, input if p is None else p, generator=generator)


@public(torch=False, method=True)
def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    chosen = pick(generator)
    if isinstance(p, Tensor):
        if not p.dtype.is_floating_point:
            raise RuntimeError(f'"bernoulli_tensor_cpu_p_" not implemented for '
                               f"'{_type_name(p.dtype)}'")
        probabilities = np.broadcast_to(p.array, self.shape_tuple)
        if ((probabilities < 0) | (probabilities > 1)).any():
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
        order = memory_order(self)
        flat = probabilities.ravel() if order is None else probabilities.ravel()[order]
        values = sampling.bernoulli_tensor(chosen, np.ascontiguousarray(flat))
    else:
        if not 0 <= float(p) <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        values = sampling.bernoulli_scalar(chosen, self.numel(), float(p))
    return _write(self, values)


def _write(self: Tensor, values: np.ndarray) -> Tensor:
    placed = in_memory_order(self, values.astype(self.array.dtype))
    with grad_mode.no_grad():
        return self.copy_(Tensor._wrap(placed))


@public(method=True)
def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Any = None) -> Tensor:
    """torch.multinomial: with replacement a binary search of 53-bit uniforms in each row's
    normalised cumulative sum; without, PyTorch's exponential trick (top-k of p / Exp(1))."""
    from engine.functional.index import topk  # the functional layer sits above this module
    from engine.functional.reduce import argmax  # the functional layer sits above this module

    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_type_name(input.dtype)}")
    categories = input.shape_tuple[-1]
    count = int(num_samples)
    if count <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and count > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    chosen = pick(generator)
    rows = input.array.reshape(-1, categories)
    if not replacement or count == 1:
        if not (np.isfinite(rows).all() and (rows >= 0).all()):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (rows.sum(axis=1) == 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        waits = sampling.exponential(chosen, rows.size, 1.0).astype(rows.dtype)
        keys = Tensor._wrap((rows / waits.reshape(rows.shape)).reshape(input.shape_tuple))
        if count == 1:
            return argmax(keys, dim=-1, keepdim=True)
        return topk(keys, count)[1]
    budget.check_shape((rows.shape[0], count), 8 + 8)  # the samples and one row's uniforms
    samples = np.empty((rows.shape[0], count), dtype=np.int64)
    for row, probabilities in enumerate(rows):
        cumulative = np.cumsum(probabilities, dtype=probabilities.dtype)
        total = cumulative[-1]
        if not total > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cumulative = cumulative / total
        cumulative[-1] = 1
        uniforms = sampling.uniform_double(chosen, count)
        samples[row] = np.searchsorted(cumulative.astype(np.float64), uniforms, side="left")
    return Tensor._wrap(samples.reshape(input.shape_tuple[:-1] + (count,)))


# --- in-place methods of Tensor ------------------------------------------------------------------

@public(torch=False, method=True)
def random_(self: Tensor, *args: Any, generator: Any = None, **bounds: Any) -> Tensor:
    """t.random_(), t.random_(to), t.random_(from, to)."""
    values = list(args)
    if "from" in bounds:
        values.insert(0, bounds.pop("from"))
    if "to" in bounds:
        values.append(bounds.pop("to"))
    chosen = pick(generator)
    kind = self.array.dtype
    if not values:
        return _write(self, sampling.random_full(chosen, self.numel(), kind))
    low, top = (0, values[0]) if len(values) == 1 else (int(values[0]), values[1])
    if top is None:
        top = (2 ** (np.finfo(kind).nmant + 1) if kind.kind == "f" else int(np.iinfo(kind).max)
               + 1)
    high = int(top)
    _check_range(low, high, kind)
    return _write(self, sampling.random_from_to(chosen, self.numel(), low, high, kind))


@public(torch=False, method=True)
def exponential_(self: Tensor, lambd: float = 1.0, *, generator: Any = None) -> Tensor:
    _continuous(self, "Exponential", _type_name(self.dtype))
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    return _write(self, sampling.exponential(pick(generator), self.numel(), float(lambd)))


def _continuous(self: Tensor, distribution: str, type_shown: str) -> None:
    if not self.dtype.is_floating_point:
        raise RuntimeError(f"{distribution} distribution is a continuous probability "
                           "distribution. dtype must be a floating point but you specified "
                           f"{type_shown}")


def _floating_only(self: Tensor, kernel: str) -> None:
    if not self.dtype.is_floating_point:
        raise RuntimeError(f'"{kernel}" not implemented for \'{_type_name(self.dtype)}\'')


# cauchy_'s message names the C++ type (its typeid), not the dtype
_CAUCHY_TYPES = {"int64": "long int", "int32": "int", "int16": "short int",
                 "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


@public(torch=False, method=True)
def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator: Any = None
                ) -> Tensor:
    _floating_only(self, "log_normal_cpu")
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    return _write(self, sampling.log_normal(pick(generator), self.numel(), float(mean),
                                            float(std)))


@public(torch=False, method=True)
def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator: Any = None
            ) -> Tensor:
    _continuous(self, "Cauchy", _CAUCHY_TYPES.get(self.dtype.name, self.dtype.name))
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    return _write(self, sampling.cauchy(pick(generator), self.numel(), float(median),
                                        float(sigma)))


@public(torch=False, method=True)
def geometric_(self: Tensor, p: float, *, generator: Any = None) -> Tensor:
    if self.dtype.name == "bool":
        _floating_only(self, "geometric_cpu")
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    return _write(self, sampling.geometric(pick(generator), self.numel(), float(p)))


# --- what torch.utils.data draws (for DataLoader(shuffle=True)) ---------------------------------

def loader_base_seed(generator: Any = None) -> int:
    """`iter(DataLoader)` first draws its workers' base seed:
    `torch.empty((), dtype=torch.int64).random_(generator=loader.generator)`."""
    return int(sampling.random_full(pick(generator), 1, np.int64)[0])


def sampler_permutation(n: int, generator: Any = None) -> list[int]:
    """One pass of RandomSampler (without replacement): with no generator it seeds a new
    Generator from a 64-bit draw of the default one, then takes `randperm(n, generator=...)`.
    Its first batch is asked for after `loader_base_seed`, so that draw comes second."""
    if generator is None:
        generator = Generator().manual_seed(loader_base_seed())
    return sampling.randperm(pick(generator), int(n)).tolist()  # type: ignore[no-any-return]


# --- nn.init.trunc_normal_ -----------------------------------------------------------------------

def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator: Any = None) -> Tensor:
    """PyTorch 2.13's rejection sampling. When [a, b] holds more than 30% of N(mean, std): fill
    N(mean, std), then redraw a whole tensor of normals and take its values wherever one is
    still outside, until none is. Otherwise: uniform candidates on [a, b], each kept when
    log(uniform) is not above its log density (relative to the peak), redrawing both for the
    rejected ones."""
    chosen = pick(generator)
    mean, std, a, b = float(mean), float(std), float(a), float(b)
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)

    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    kind = tensor.array.dtype
    count, shape = tensor.numel(), tensor.shape_tuple
    _floating(tensor.dtype, "normal_kernel_cpu")
    if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
        low, high = float(kind.type(a)), float(kind.type(b))
        result = sampling.normal(chosen, count, mean, std, kind)
        while True:
            outside = (result < low) | (result > high)
            if not outside.any():
                break
            result = np.where(outside, sampling.normal(chosen, count, mean, std, kind), result)
        return _write(tensor, result.reshape(shape))
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    scalar = kind.type

    def log_density(values: np.ndarray) -> np.ndarray:
        scaled = (values - scalar(mean)) / scalar(std)
        return (scaled * scaled) * scalar(-0.5) - scalar(log_peak)

    def rejected(candidates: np.ndarray) -> np.ndarray:
        return np.log(sampling.uniform(chosen, count, 0.0, 1.0, kind)) > log_density(candidates)

    result = sampling.uniform(chosen, count, a, b, kind)
    pending = rejected(result)
    while pending.any():
        candidates = sampling.uniform(chosen, count, a, b, kind)
        result = np.where(pending, candidates, result)
        pending = np.where(pending, rejected(candidates), pending)
    return _write(tensor, result.reshape(shape))
