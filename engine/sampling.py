"""How PyTorch's CPU kernels turn a generator's words into values, one function per kernel.

Each function takes a `Generator` and a count (and the distribution's parameters) and returns a
flat numpy array of values in the order PyTorch writes them (memory order of a contiguous
tensor), drawing exactly the words PyTorch draws, so the generator is left where PyTorch
leaves it. A large count is drawn block by block (`in_blocks`): the words come in the same
order, and the raw words and their conversions stay the size of a block, not of the tensor.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from engine import budget
from engine.avx_mathfun import TWO_PI, log_ps, sincos_ps
from engine.float_math import (
    BLOCK,
    f32,
    f64,
    fma32,
    fma64,
    fma64_scalar,
    glibc_map,
    log_glibc,
)
from engine.generator import Generator

MASK24 = np.uint64((1 << 24) - 1)
MASK53 = np.uint64((1 << 53) - 1)
NORMAL_FILL_MIN = 16  # tensors this large (and contiguous) take the vectorised normal fill
FILL_CHUNK_BLOCKS = 8192  # blocks of 16 normals computed together (a measured sweet spot)
FIRST_CHUNK_BLOCKS = 1024


def in_blocks(count: int, dtype: Any, draw: Any) -> np.ndarray:
    """`draw(count)` (values that each take their own words, in order) made BLOCK values at
    a time into one array of DTYPE."""
    if count <= BLOCK:
        return draw(count)  # type: ignore[no-any-return]
    values = np.empty(count, dtype)
    for start in range(0, count, BLOCK):
        values[start:start + BLOCK] = draw(min(BLOCK, count - start))
    return values


def uniform_float(generator: Generator, count: int) -> np.ndarray:
    """uniform_real_distribution<float>(0, 1): 24 bits of one 32-bit word."""
    return in_blocks(count, f32, lambda n: (generator.random(n) & MASK24).astype(f32)
                     * f32(2.0 ** -24))


def uniform_double(generator: Generator, count: int) -> np.ndarray:
    """uniform_real_distribution<double>(0, 1): 53 bits of one 64-bit draw."""
    return in_blocks(count, f64, lambda n: (generator.random64(n) & MASK53).astype(f64)
                     * 2.0 ** -53)


def uniform(generator: Generator, count: int, low: float, high: float, dtype: Any
            ) -> np.ndarray:
    """uniform_kernel: `x * (to - from) + from`, fused, in the tensor's precision."""
    if np.dtype(dtype) == f64:
        return fma64(uniform_double(generator, count), high - low, low)
    low32, high32 = f32(low), f32(high)
    values = fma32(uniform_float(generator, count), high32 - low32, low32)
    return values.astype(dtype)


# --- normal ------------------------------------------------------------------------------------

def normal_scalar(generator: Generator, mean: float, std: float) -> float:
    """at::normal_distribution<double>: Box-Muller on two 53-bit uniforms; the sine half of the
    pair waits in the generator for the next call."""
    cached = generator.next_double_normal
    if cached is not None:
        generator.next_double_normal = None
        return fma64_scalar(cached, std, mean)
    u1, u2 = uniform_double(generator, 2).tolist()
    radius = math.sqrt(-2.0 * math.log1p(-u2))
    theta = 2.0 * math.pi * u1
    generator.next_double_normal = radius * math.sin(theta)
    return fma64_scalar(radius * math.cos(theta), std, mean)


def _fill_chunk_float(chunk: np.ndarray, out: np.ndarray, mean: float, std: float) -> None:
    radius = log_ps(f32(1) - chunk[:, :8])
    radius *= f32(-2)
    np.sqrt(radius, out=radius)
    sine, cosine = sincos_ps(TWO_PI * chunk[:, 8:])
    if std == 1 and mean == 0:
        np.multiply(radius, cosine, out=out[:, :8])
        np.multiply(radius, sine, out=out[:, 8:])
    else:
        out[:, :8] = fma32(radius * cosine, f32(std), f32(mean))
        out[:, 8:] = fma32(radius * sine, f32(std), f32(mean))


def _fill_blocks_float(uniforms: np.ndarray, mean: float, std: float) -> np.ndarray:
    """normal_fill_16_AVX2 over whole blocks of 16: the first 8 uniforms give the radius, the
    last 8 the angle; cosines fill the first half of the block, sines the second."""
    blocks = uniforms.reshape(-1, 16)
    values = np.empty_like(blocks)
    _fill_chunk_float(blocks, values, mean, std)
    return values.ravel()


@functools.cache
def _drawer() -> Any:
    """One worker thread that draws a large fill's uniforms chunk by chunk, in order."""
    # lazy: concurrent.futures loads logging and more (start-up time), only a large fill needs it
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="agraph-draw")


def _normal_fill_float(generator: Generator, count: int, mean: float, std: float
                       ) -> np.ndarray:
    """The float32 fill, in chunks that stay in the processor's cache. For a large tensor the
    generator's words are drawn by a worker thread, one chunk ahead of the chunk being turned
    into normals (numpy releases the interpreter lock in both; the worker draws the chunks in
    order, so the words are the same)."""
    whole = count - count % 16
    # a small first chunk: the drawing of the first chunk is the one wait that nothing overlaps
    first = min(whole, FIRST_CHUNK_BLOCKS * 16)
    sizes = [first] + [FILL_CHUNK_BLOCKS * 16] * ((whole - first) // (FILL_CHUNK_BLOCKS * 16))
    sizes += [size for size in (whole - sum(sizes), count - whole) if size]
    if whole > first:  # more than one chunk: draw ahead in the worker
        pending = [_drawer().submit(uniform_float, generator, size) for size in sizes]
        chunks = (future.result() for future in pending)
    else:
        chunks = (uniform_float(generator, size) for size in sizes)
    values = np.empty(count, dtype=f32)
    start = 0
    for chunk in chunks:
        end = start + len(chunk) - len(chunk) % 16
        if end > start:
            _fill_chunk_float(chunk[:end - start].reshape(-1, 16),
                              values[start:end].reshape(-1, 16), mean, std)
        start += len(chunk)
    if whole != count:
        values[count - 16:] = _fill_blocks_float(uniform_float(generator, 16), mean, std)
    return values


def _fill_blocks_double(uniforms: np.ndarray, mean: float, std: float) -> np.ndarray:
    """normal_fill_16<double>: the same layout with the C library's log, sin and cos."""
    blocks = uniforms.reshape(-1, 16)
    radius = np.sqrt(-2.0 * log_glibc(1.0 - blocks[:, :8].ravel())).reshape(-1, 8)
    theta = 2.0 * math.pi * blocks[:, 8:]
    halves = [radius * np.cos(theta), radius * np.sin(theta)]
    if not (std == 1 and mean == 0):
        halves = [fma64(half, std, mean) for half in halves]
    return np.concatenate(halves, axis=1).ravel()


def normal(generator: Generator, count: int, mean: float, std: float, dtype: Any,
           contiguous: bool = True) -> np.ndarray:
    """normal_kernel: the vectorised fill for 16 values or more of a contiguous tensor, else the
    scalar path. The fill draws all uniforms first; when the count is not a multiple of 16 it
    draws 16 more and redoes the last 16 values with them."""
    double = np.dtype(dtype) == f64
    if count < NORMAL_FILL_MIN or not contiguous:
        scalars = [normal_scalar(generator, mean, std) for _ in range(count)]
        return np.array(scalars, dtype=f64).astype(dtype)
    if not double:
        return _normal_fill_float(generator, count, mean, std).astype(dtype, copy=False)
    uniforms = uniform_double(generator, count)
    whole = count - count % 16
    values = np.empty(count, dtype=f64)
    values[:whole] = _fill_blocks_double(uniforms[:whole], mean, std)
    if whole != count:
        values[count - 16:] = _fill_blocks_double(uniform_double(generator, 16), mean, std)
    return values.astype(dtype)


# --- integers ----------------------------------------------------------------------------------

WIDE_RANGE = 2 ** 28  # from here on a bounded integer draw takes a 64-bit word


def random_from_to(generator: Generator, count: int, low: int, high: int, dtype: Any
                   ) -> np.ndarray:
    """uniform_int_from_to_distribution: `word % range + low`, with a 64-bit draw for a range
    of 2**28 or more (measured on torch 2.13: int32, int64 and double alike); float32 takes
    one from 2**32 (beyond 2**24 PyTorch warns that float cannot hold the range, and its
    values there are not reproduced)."""
    span = high - low
    kind = np.dtype(dtype)
    wide = span >= 2 ** 32 if kind == np.dtype(f32) else span >= WIDE_RANGE

    def draw(n: int) -> np.ndarray:
        words = generator.random64(n) if wide else generator.random(n)
        offsets = words % np.uint64(span)
        return (offsets.astype(np.int64) + np.int64(low)).astype(dtype)

    return in_blocks(count, kind, draw)


def random_full(generator: Generator, count: int, dtype: Any) -> np.ndarray:
    """uniform_int_distribution (`random_()` without bounds): modulo max+1 of the type, or
    2**digits + 1 for floating types; 64-bit types take 64-bit draws."""
    kind = np.dtype(dtype)
    if kind == np.bool_:
        return (generator.random(count) & np.uint64(1)).astype(np.bool_)
    wide = kind in (np.dtype(np.int64), np.dtype(f64))
    if kind.kind == "f":
        modulus = (1 << np.finfo(kind).nmant + 1) + 1
    else:
        modulus = int(np.iinfo(kind).max) + 1

    def draw(n: int) -> np.ndarray:
        words = generator.random64(n) if wide else generator.random(n)
        return (words % np.uint64(modulus)).astype(kind)

    return in_blocks(count, kind, draw)


# what randperm holds for each number: the list it swaps in and the list of its draws (a
# pointer and an int object each), the draws, spans and picks as arrays, the result
RANDPERM_BYTES = 112


def randperm(generator: Generator, count: int) -> np.ndarray:
    """randperm_cpu: for n below 2**32/20, swap position i with i + random() % (n - i) for each
    i < n - 1 in turn; beyond that, the inside-out shuffle on 64-bit draws. Its lists are sized
    first (a DataLoader's shuffle of a dataset whose len() is 10**8 took 4 GB)."""
    budget.check_bytes(count * RANDPERM_BYTES, f"randperm({count}) shuffles {count} Python ints")
    if count < (2 ** 32 - 1) // 20:
        order = list(range(count))
        if count > 1:
            words = generator.random(count - 1)
            spans = np.arange(count, 1, -1, dtype=np.uint64)
            picks = (words % spans).tolist()
            for index, pick in enumerate(picks):
                other = index + pick
                order[index], order[other] = order[other], order[index]
        return np.array(order, dtype=np.int64)
    words = generator.random64(count)
    result = np.empty(count, dtype=np.int64)
    for index, word in enumerate(words.tolist()):
        pick = word % (index + 1)
        result[index] = result[pick]
        result[pick] = index
    return result


# --- other distributions -----------------------------------------------------------------------

def bernoulli_scalar(generator: Generator, count: int, p: float) -> np.ndarray:
    """bernoulli_distribution<double>(p): a 53-bit uniform below p gives 1."""
    return uniform_double(generator, count) < p


def bernoulli_tensor(generator: Generator, probabilities: np.ndarray) -> np.ndarray:
    """bernoulli_(p_tensor): float64 p draws 53-bit uniforms, other p dtypes 24-bit floats."""
    flat = probabilities.ravel()
    if flat.dtype == f64:
        return uniform_double(generator, flat.size) < flat
    return uniform_float(generator, flat.size) < flat.astype(f32)


def log_normal(generator: Generator, count: int, mean: float, std: float) -> np.ndarray:
    """lognormal_distribution<double>: exp of normal_distribution<double>'s draws, one by one
    (the cached sine half of each pair included)."""
    return np.array([math.exp(normal_scalar(generator, mean, std)) for _ in range(count)],
                    dtype=f64)


def cauchy(generator: Generator, count: int, median: float, sigma: float) -> np.ndarray:
    """cauchy_distribution<double>: median + sigma * tan(pi * (u - 0.5)), u a 53-bit uniform."""
    uniforms = uniform_double(generator, count)
    return median + sigma * glibc_map(math.tan, math.pi * (uniforms - 0.5))


def geometric(generator: Generator, count: int, p: float) -> np.ndarray:
    """geometric_distribution<double>: ceil(log(u) / log1p(-p)), u a 53-bit uniform."""
    uniforms = uniform_double(generator, count)
    return np.ceil(glibc_map(math.log, uniforms) / math.log1p(-p))


def exponential(generator: Generator, count: int, rate: float) -> np.ndarray:
    """exponential_distribution<double>: -1/lambda * log1p(-u) on a 53-bit uniform."""
    uniforms = uniform_double(generator, count)
    return (-1.0 / rate) * glibc_map(math.log1p, -uniforms)
