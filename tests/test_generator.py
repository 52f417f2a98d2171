"""The generator core against values real PyTorch 2.13 gave (torch.manual_seed(s), then the
state bytes of torch.get_rng_state() and the first draws), and reproducible unseeded runs."""

from __future__ import annotations

import hashlib
import struct

import numpy as np

from engine import sampling
from engine.generator import DEFAULT_SEED, STATE_BYTES, Generator
from tests.conftest import run_agraph


def test_seeding_fills_the_state_as_pytorch() -> None:
    state = Generator().manual_seed(5).state_bytes()
    assert len(state) == STATE_BYTES == 5056
    assert struct.unpack_from("<QiiQ", state, 0) == (5, 1, 1, 0)
    words = struct.unpack_from("<624Q", state, 24)
    assert (words[0], words[1], words[2], words[623]) == (5, 472231674, 2253902500, 2337553471)


def test_state_after_draws_is_pytorchs() -> None:
    generator = Generator().manual_seed(5)
    sampling.uniform_float(generator, 1000)
    state = generator.state_bytes()
    assert struct.unpack_from("<QiiQ", state, 0) == (5, 249, 1, 376)
    assert struct.unpack_from("<3Q", state, 24) == (1991508151, 536415184, 3213889084)


def test_first_draws_are_pytorchs() -> None:
    # torch.randint(0, 2**32, (2,)) after manual_seed(0): the low words of two 64-bit draws
    words = Generator().manual_seed(0).random(4).tolist()
    assert words[1::2] == [2546248239, 3626093760]
    # torch.empty(2, dtype=torch.int64).random_(): 64-bit draws modulo 2**63
    wide = Generator().manual_seed(0).random64(2).tolist()
    assert [w % 2 ** 63 for w in wide] == [900450186894289455, 3969543146641149120]
    assert wide[0] == (words[0] << 32) | words[1]
    assert sampling.uniform_float(Generator().manual_seed(0), 4).tolist() == [
        0.49625658988952637, 0.7682217955589294, 0.08847743272781372, 0.13203048706054688]
    assert sampling.uniform_double(Generator().manual_seed(0), 2).tolist() == [
        0.9700530018065531, 0.707819864399788]


def test_normals_on_both_paths_are_pytorchs() -> None:
    fill = sampling.normal(Generator().manual_seed(0), 16, 0.0, 1.0, np.float32)
    assert fill[:4].tolist() == [-1.1258398294448853, -1.152360200881958, -0.2505785822868347,
                                 -0.4338788092136383]
    scalar = sampling.normal(Generator().manual_seed(0), 3, 0.0, 1.0, np.float64)
    assert scalar.tolist() == [1.5409961082440433, -0.2934289057609464, -2.1787893820745574]


def test_state_round_trips_with_a_cached_normal() -> None:
    generator = Generator().manual_seed(9)
    sampling.normal(generator, 3, 0.0, 1.0, np.float32)
    saved = generator.state_bytes()
    assert struct.unpack_from("<i", saved, 5040) == (1,)  # the cached sine is part of the state
    after = sampling.normal(generator, 5, 0.0, 1.0, np.float32)
    restored = Generator()
    restored.load_state_bytes(saved)
    assert restored.state_bytes() == saved
    assert sampling.normal(restored, 5, 0.0, 1.0, np.float32).tolist() == after.tolist()


def test_unseeded_programs_print_the_same_bytes(tmp_path: object) -> None:
    program = tmp_path / "unseeded.expr"  # type: ignore[operator]
    program.write_text("import torch\nprint(torch.initial_seed())\nprint(torch.randn(20))\n")
    first = run_agraph("run", str(program))
    second = run_agraph("run", str(program))
    assert first.returncode == 0
    assert first.stdout == second.stdout
    assert first.stdout.startswith(f"{DEFAULT_SEED}\n".encode())
    other = run_agraph("run", str(program), "--seed", "3")
    assert other.stdout.startswith(b"3\n") and other.stdout != first.stdout


def test_dataloader_shuffle_draws_as_pytorch() -> None:
    """torch.manual_seed(0); [b.tolist() for b in DataLoader(list(range(10)), batch_size=4,
    shuffle=True)] twice, then with generator=torch.Generator().manual_seed(5) on 7 items."""
    from engine import random

    random.manual_seed(0)
    epochs = []
    for _ in range(2):
        random.loader_base_seed()
        epochs.append(random.sampler_permutation(10))
    assert epochs == [[6, 7, 1, 4, 2, 0, 9, 8, 3, 5], [2, 4, 7, 0, 8, 9, 5, 3, 6, 1]]
    generator = Generator().manual_seed(5)
    random.loader_base_seed(generator)
    assert random.sampler_permutation(7, generator) == [2, 4, 3, 5, 0, 6, 1]
    assert random.rand(2).tolist() == [0.455627977848053, 0.6323062777519226]


def test_a_million_normals_are_pytorchs_bit_for_bit() -> None:
    """torch.manual_seed(5); torch.normal(0.5, 2.0, size=(1048613,)): the SHA-256 of its
    float32 bytes, recorded with PyTorch 2.13 (16 chunks of the fill and the 16-value tail)."""
    values = sampling.normal(Generator().manual_seed(5), 1048613, 0.5, 2.0, np.float32)
    assert values[:3].tolist() == [4.184659957885742, 1.5377743244171143, -2.923842668533325]
    assert values[-2:].tolist() == [-2.743901014328003, 0.17037665843963623]
    assert hashlib.sha256(values.tobytes()).hexdigest() == (
        "bbe5d01af336d2c8f4e25a695e8644a6b667e6ffc131c32e5fe1722c09383012")
