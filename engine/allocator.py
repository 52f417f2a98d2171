"""How the process keeps memory: the C allocator's thresholds, and how often Python's cyclic
collector runs.

glibc gives blocks of 128 KiB and more back to the kernel as soon as they are freed (and trims
the heap's top beyond that size), so every numpy temporary of 16k floats or more comes back as
fresh pages the kernel must zero: an elementwise step over a 32k-element array costs 5x its
arithmetic. Raising both thresholds lets freed blocks be reused. Only glibc has `mallopt`;
elsewhere nothing is changed.

The backward graph is Python objects (nodes, tensors, edge tuples), a handful per op, and the
cyclic collector's defaults run a young-generation pass every 700 new objects and a full pass
(which walks every object alive) every 10 passes of the middle generation: a chain of a
million ops spent about 40% of its time in the collector. The graph holds no reference cycles
of its own (a node keeps its output's array, not the output), so collecting less often frees
nothing later that matters and takes the collector out of the profile. The agraph command
also pauses the collector while it imports, and freezes what the imports made before the
program runs (`pause_collector`, `resume_collector`).
"""

from __future__ import annotations

import gc

M_TRIM_THRESHOLD = -1  # glibc's malloc.h
M_MMAP_THRESHOLD = -3
KEEP_BYTES = 64 << 20  # freed memory kept for reuse (glibc caps the mmap threshold at 32 MiB)
MMAP_BYTES = 32 << 20  # blocks from this size on still come straight from the kernel
YOUNG_OBJECTS = 10_000  # new container objects between two young-generation passes (Python: 700)
MIDDLE_PASSES = 100  # middle-generation passes between two full ones (Python: 10)


def keep_freed_memory() -> None:
    try:
        import ctypes  # numpy has loaded _ctypes already; this adds about a millisecond

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return
    mallopt(M_TRIM_THRESHOLD, KEEP_BYTES)
    mallopt(M_MMAP_THRESHOLD, MMAP_BYTES)


def collect_less_often() -> None:
    """The cyclic collector's young and full-pass thresholds raised (the middle one kept)."""
    gc.set_threshold(YOUNG_OBJECTS, gc.get_threshold()[1], MIDDLE_PASSES)


def pause_collector() -> None:
    """While the agraph command imports what it needs (numpy, the engine, the interpreter):
    those objects stay for the whole process, so the collector's passes over them during the
    imports are wasted (about 5 ms of `agraph run`'s start)."""
    gc.disable()


def resume_collector() -> None:
    """Before a program runs: what the imports made is frozen out of the collector's sight (it
    lives as long as the process), and the collector runs again. Nothing to do where it was
    never paused (a host running programs in its own process)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()

