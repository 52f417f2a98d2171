"""PyTorch's CPU random-number generator (at::CPUGeneratorImpl), reproduced bit for bit.

The engine is the 32-bit Mersenne Twister (mt19937) that PyTorch seeds with the low 32 bits of
the seed; numpy's MT19937 bit generator runs the same recurrence, so agraph loads the seeded
state into it and draws whole arrays of raw 32-bit words at C speed. What PyTorch adds on top is
kept here too: the seed it reports, the cached second value of a Box-Muller pair, and its
5056-byte state layout (`torch.get_rng_state`).
"""

from __future__ import annotations

import functools
import struct
from typing import Any

import numpy as np

from engine import device as devices
from engine import dtypes
from engine.addresses import address_of
from engine.tensor import Tensor

STATE_WORDS = 624
# PyTorch's default_rng_seed_val: what a fresh `torch.Generator()` starts from. agraph's default
# generator starts from it too, so an unseeded program prints the same numbers on every run
# (PyTorch itself seeds its default generator from /dev/urandom at start-up).
DEFAULT_SEED = 67280421310721

# CPUGeneratorImplState: {initial seed u64, left i32, seeded i32, next u64, state[624] u64,
# normal_x/y/rho f64, normal_is_valid i32, (pad), next float normal f32, is valid bool, (pad)}.
_HEAD = struct.Struct("<QiiQ")
_TAIL = struct.Struct("<dddi4xf?3x")
STATE_BYTES = _HEAD.size + 8 * STATE_WORDS + _TAIL.size  # 5056
LEGACY_STATE_BYTES = STATE_BYTES - 8


@functools.lru_cache(maxsize=16)  # programs seed with a few values, often more than once
def _seeded_words(seed: int) -> np.ndarray:
    """mt19937's initialisation from a 32-bit seed (Knuth's multiplier 1812433253), read-only
    (numpy's MT19937 copies the state it is given)."""
    words = [seed & 0xFFFFFFFF]
    for index in range(1, STATE_WORDS):
        previous = words[-1]
        words.append((1812433253 * (previous ^ (previous >> 30)) + index) & 0xFFFFFFFF)
    array = np.array(words, dtype=np.uint32)
    array.flags.writeable = False
    return array


class Generator:
    """One PyTorch CPU generator: `torch.Generator()` or the default one."""

    PUBLIC_ATTRS = frozenset({"manual_seed", "seed", "initial_seed", "get_state", "set_state",
                              "device"})

    def __init__(self, device: Any = "cpu") -> None:
        devices.check(device)
        self._bits: Any = None
        self.set_seed(DEFAULT_SEED)

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {address_of(self)}>"

    # --- seeding -------------------------------------------------------------------------------

    def set_seed(self, seed: int) -> None:
        # PyTorch keeps the seed as an unsigned 64-bit value: manual_seed(-1) reports 2**64 - 1.
        self._seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        self._words = _seeded_words(self._seed)
        self._position = STATE_WORDS  # the next draw regenerates the state first
        self._reported_next = 0  # at::mt19937 reports next_=0 right after seeding
        self.next_double_normal: float | None = None
        self.next_float_normal: float | None = None
        self._bits = None

    def manual_seed(self, seed: Any) -> Generator:
        self.set_seed(_seed_value(seed))
        return self

    def seed(self) -> int:
        """A new seed: agraph draws it from this generator so that runs stay reproducible."""
        value = int(self.random64(1)[0]) & 0x7FFFFFFFFFFFFFFF
        self.set_seed(value)
        return value

    def initial_seed(self) -> int:
        return self._seed

    @property
    def device(self) -> Any:
        return devices.Device("cpu")

    # --- raw draws -----------------------------------------------------------------------------

    def _bit_generator(self) -> Any:
        if self._bits is None:
            # numpy.random is imported on first use: it takes a while, and most programs never
            # draw a random number (agraph's startup time, README "Performance").
            from numpy.random import MT19937

            self._bits = MT19937()
            self._bits.state = {"bit_generator": "MT19937",
                                "state": {"key": self._words, "pos": self._position}}
        return self._bits

    def random(self, count: int) -> np.ndarray:
        """`count` successive 32-bit outputs (CPUGeneratorImpl::random), as uint64."""
        self._reported_next = -1
        return np.asarray(self._bit_generator().random_raw(count), dtype=np.uint64)

    def random64(self, count: int) -> np.ndarray:
        """`count` 64-bit outputs (CPUGeneratorImpl::random64): the first word is the high half."""
        words = self.random(2 * count).reshape(count, 2)
        return (words[:, 0] << np.uint64(32)) | words[:, 1]

    # --- state bytes (torch.get_rng_state / set_rng_state) -------------------------------------

    def _sync(self) -> None:
        if self._bits is not None:
            state = self._bits.state["state"]
            self._words = np.array(state["key"], dtype=np.uint32)
            self._position = int(state["pos"])

    def get_state(self) -> Any:
        """The state as PyTorch's ByteTensor of 5056 bytes."""
        return Tensor._wrap(np.frombuffer(self.state_bytes(), dtype=np.uint8).copy())

    def set_state(self, new_state: Any) -> Generator:
        if not isinstance(new_state, Tensor) or new_state.dtype is not dtypes.uint8:
            raise TypeError("expected a torch.ByteTensor, but got "
                            f"{type(new_state).__name__}")
        self.load_state_bytes(new_state.array.tobytes())
        return self

    def state_bytes(self) -> bytes:
        self._sync()
        position = self._position
        if position >= STATE_WORDS:
            left, next_index = 1, (self._reported_next if self._reported_next >= 0 else STATE_WORDS)
        else:
            left, next_index = STATE_WORDS + 1 - position, position
        double_valid = self.next_double_normal is not None
        float_valid = self.next_float_normal is not None
        return (_HEAD.pack(self._seed, left, 1, next_index)
                + self._words.astype("<u8").tobytes()
                + _TAIL.pack(0.0, self.next_double_normal if double_valid else 0.0, 0.0,
                             int(double_valid),
                             self.next_float_normal if float_valid else 0.0, float_valid))

    def load_state_bytes(self, data: bytes) -> None:
        if len(data) not in (STATE_BYTES, LEGACY_STATE_BYTES):
            raise RuntimeError(
                "Expected either a CPUGeneratorImplStateLegacy of size "
                f"{LEGACY_STATE_BYTES} or a CPUGeneratorImplState of size {STATE_BYTES} but "
                f"found the input RNG state size to be {len(data)}")
        seed, left, _seeded, next_index = _HEAD.unpack_from(data, 0)
        words = np.frombuffer(data, dtype="<u8", count=STATE_WORDS, offset=_HEAD.size)
        tail_offset = _HEAD.size + 8 * STATE_WORDS
        _x, normal_y, _rho, double_valid = struct.unpack_from("<dddi", data, tail_offset)
        self._seed = seed
        self._words = (words & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        self._position = STATE_WORDS if left <= 1 else min(int(next_index), STATE_WORDS)
        self._reported_next = int(next_index)
        self.next_double_normal = normal_y if double_valid else None
        self.next_float_normal = None
        if len(data) == STATE_BYTES:
            float_value, float_valid = struct.unpack_from("<f?", data, tail_offset + 32)
            self.next_float_normal = float_value if float_valid else None
        self._bits = None


def _seed_value(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        if isinstance(seed, Tensor) and seed.numel() == 1:
            return int(seed.item())
        raise TypeError(f"manual_seed expected a long, but got {type(seed).__name__}")
    if not -(2 ** 63) <= seed < 2 ** 64:
        raise RuntimeError("Overflow when unpacking long long")
    return seed


default_generator = Generator()


def pick(generator: Any) -> Generator:
    """The generator a `generator=` argument names, or the default one."""
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"expected a torch.Generator, got {type(generator).__name__}")
    return generator
