"""How the process's C allocator keeps memory that numpy frees.

glibc gives blocks of 128 KiB and more back to the kernel as soon as they are freed (and trims
the heap's top beyond that size), so every numpy temporary of 16k floats or more comes back as
fresh pages the kernel must zero: an elementwise step over a 32k-element array costs 5x its
arithmetic. Raising both thresholds lets freed blocks be reused. Only glibc has `mallopt`;
elsewhere nothing is changed.
"""

from __future__ import annotations

M_TRIM_THRESHOLD = -1  # glibc's malloc.h
M_MMAP_THRESHOLD = -3
KEEP_BYTES = 64 << 20  # freed memory kept for reuse (glibc caps the mmap threshold at 32 MiB)
MMAP_BYTES = 32 << 20  # blocks from this size on still come straight from the kernel


def keep_freed_memory() -> None:
    try:
        import ctypes  # numpy has loaded _ctypes already; this adds about a millisecond

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return
    mallopt(M_TRIM_THRESHOLD, KEEP_BYTES)
    mallopt(M_MMAP_THRESHOLD, MMAP_BYTES)
