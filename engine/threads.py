"""How many threads PyTorch's CPU kernels use on this machine (`at::get_num_threads()`), and how
`at::parallel_for` cuts a range among them: kernels that sum per thread (batch norm's
statistics, MKL's long products) give results that depend on both."""

from __future__ import annotations

import os


def torch_threads() -> int:
    """The number of threads torch 2.13 gives its intra-op pool (and MKL) on this machine."""
    for name in ("MKL_NUM_THREADS", "OMP_NUM_THREADS"):  # MKL's setting wins, as in ATen
        value = os.environ.get(name, "")
        if value.isdigit() and int(value) > 0:
            return int(value)
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            cores, physical = set(), "0"
            for line in info:
                key, _, value = line.partition(":")
                if key.strip() == "physical id":
                    physical = value.strip()
                elif key.strip() == "core id":
                    cores.add((physical, value.strip()))
        if cores:
            return len(cores)
    except OSError:
        pass
    return os.cpu_count() or 1


def thread_chunks(count: int, grain: int = 1) -> list[tuple[int, int]]:
    """at::parallel_for(0, count, grain): one contiguous chunk per thread, as many threads as
    there are grains at most (a range of one grain or less runs inline, in one chunk),
    ceil(count / threads) items each (the last gets the rest)."""
    threads = min(torch_threads(), -(-count // grain)) if count > grain else 1
    size = -(-count // threads) if threads else 0
    return [(t * size, min(count, (t + 1) * size)) for t in range(threads) if t * size < count]
