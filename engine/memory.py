"""The run's one memory account: everything a program makes (tensors, strings, lists, dicts,
sets, big integers, its own objects) counts against `limits["max_bytes"]` (`--max-memory`).

What is in use is measured, not added up: the process's resident memory (/proc/self/statm)
above a baseline, which sees every object however it was made and forgets freed ones. Reading
it is a system call, so it is read when it can matter:

- `check(nbytes, what)` before something of a known size is built (a tensor, `[x] * n`,
  `s.ljust(n)`, `list(range(n))`, ...): refused if it would not fit beside what is in use;
- `charge(nbytes, what)` for anything made: it adds to a running estimate, and the memory is
  read again once the estimate since the last reading reaches `SAMPLE_BYTES`;
- `check_in_use()` every few hundred steps of the interpreter (small objects made one by one).

The baseline is taken by `start_run`: the agraph command counts its whole process (the limit
is then what `/usr/bin/time` reports as the peak), a host running many programs in one process
(tests, a docs build) counts from the run's start. No numpy here: a program that never
imports torch counts its lists and strings too.
"""

from __future__ import annotations

import os

limits = {"max_bytes": 1 << 30}
_statm = [-1, -1]  # the open /proc/self/statm, and the process that opened it
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
SAMPLE_BYTES = 1 << 20  # a running estimate this big reads the process's memory again
# 1/RESERVE of the limit is kept free at every check: an operation may briefly need more than
# its result (a sort's work area, float64 intermediates), so the peak stays under the limit
RESERVE = 16
# baseline None: not started by a run (the engine used on its own): counted from the first reading
_state: dict[str, int | None] = {"baseline": None, "pending": 0, "whole_process": 0}


class LimitError(RuntimeError):
    """A resource limit was hit; `option` names the command-line option that raises it."""

    def __init__(self, message: str, option: str) -> None:
        super().__init__(f"{message} (limit: raise it with {option})")
        self.option = option


def count_whole_process() -> None:
    """This process exists for one run (the agraph command): all of its memory counts."""
    _state["whole_process"] = 1


def start_run(max_bytes: int) -> None:
    """A run begins: its limit, and the memory it starts from."""
    limits["max_bytes"] = max_bytes
    _state["baseline"] = 0 if _state["whole_process"] else resident_bytes()
    _state["pending"] = 0


def resident_bytes() -> int:
    """This process's resident memory (Linux), or 0 where it cannot be read. The file stays
    open (reading it again costs a system call, not three); reopened in a forked child."""
    try:
        if _statm[1] != os.getpid():
            if _statm[0] >= 0:
                os.close(_statm[0])
            _statm[:] = [os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC), os.getpid()]
        return int(os.pread(_statm[0], 128, 0).split()[1]) * _PAGE
    except (OSError, ValueError, IndexError, AttributeError):  # no /proc, no pread
        return 0


def in_use() -> int:
    """The memory the run holds now."""
    resident = resident_bytes()
    baseline = _state["baseline"]
    if baseline is None:
        baseline = _state["baseline"] = resident
    return max(0, resident - baseline)


def check(nbytes: int, what: str) -> None:
    """Before building `what`, about `nbytes` bytes: it fits beside the memory in use."""
    limit = limits["max_bytes"]
    if nbytes > limit:
        raise LimitError(f"{what} needs about {nbytes} bytes, more than the limit of {limit} "
                         "bytes", "--max-memory")
    if not _due(nbytes):
        return
    total = in_use() + nbytes
    if total > limit - limit // RESERVE:
        raise LimitError(f"{what} needs about {nbytes} bytes: {total} bytes with the memory in "
                         f"use, {_more_than(limit)}", "--max-memory")


def charge(nbytes: int, what: str = "the program's values") -> None:
    """After making something of `nbytes` bytes: the running estimate grows; once it is big
    enough, the memory in use is read again."""
    if _due(nbytes):
        check_in_use(what)


def _due(nbytes: int) -> bool:
    """Add `nbytes` to the running estimate; True (and start again) when it is time to read
    the memory in use."""
    pending = (_state["pending"] or 0) + nbytes
    if pending < SAMPLE_BYTES:
        _state["pending"] = pending
        return False
    _state["pending"] = 0
    return True


def check_in_use(what: str = "the program's values") -> None:
    """The memory in use is within the limit."""
    message = over_limit(what)
    if message is not None:
        raise LimitError(message, "--max-memory")


def over_limit(what: str = "the program's values") -> str | None:
    """What is wrong if the memory in use is past the limit now, else None. The run's watch
    (autograd_cli/language/interpreter.py) asks it from another thread while an operation
    runs: the temporaries of one op are seen only then."""
    limit = limits["max_bytes"]
    total = in_use()
    if total > limit - limit // RESERVE:
        return f"{what} use {total} bytes in total, {_more_than(limit)}"
    return None


def _more_than(limit: int) -> str:
    return (f"more than the limit of {limit} bytes less 1/{RESERVE} kept for the temporaries "
            "of one operation")
