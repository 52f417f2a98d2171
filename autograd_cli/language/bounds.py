"""Bounds on the work agraph does around a program: after it ran (the `--json` document, the
node table, `explain`'s analysis, the graph), and in a debugger's commands.

The run itself is bounded by the interpreter (limits.py). What comes after it is agraph's own
work, but its size follows the program's (a graph of a million nodes, a tensor of 10**8
elements bound to twenty names), so it is bounded too: by the same time limit, `--max-seconds`
counted from the start of the run plus `GRACE_SECONDS` for the work after it, and by the same
memory limit, `--max-resident-memory`. Loops of that work call `tick()` (cheap: the clock is
read every 16th call, the process's memory every 1024th); a bound that is hit raises
`LimitExceeded`, which the command reports as a LimitError (exit 1).

    bound = Bound.after_run(started, limits, "writing the --json document")
    for item in items:
        bound.tick()
"""

from __future__ import annotations

import math
import time

from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import LIMIT_ERROR, LimitExceeded, Limits

GRACE_SECONDS = 2.0  # the work after a run may go on this long past the run's own time limit
_CLOCK_EVERY = 16  # tick() reads the clock once per this many calls
_MEMORY_EVERY = 1024  # and the process's memory once per this many


class Bound:
    """A deadline (time.monotonic()) and a ceiling on the process's resident memory."""

    __slots__ = ("count", "deadline", "max_resident", "seconds", "task")

    def __init__(self, deadline: float, seconds: str, task: str,
                 max_resident: int | None = None) -> None:
        self.deadline = deadline
        self.seconds = seconds  # the time limit, as the message says it
        self.task = task
        self.max_resident = max_resident
        self.count = 0

    @classmethod
    def after_run(cls, started: float, limits: Limits, task: str) -> Bound:
        """For the work after a run that started at `started` (time.monotonic()): until the
        run's own deadline, plus GRACE_SECONDS (counted from now if the run went past its
        deadline, e.g. stuck in one C call: the work after it always gets the grace)."""
        deadline = max(started + limits.max_seconds, time.monotonic())
        return cls(deadline + GRACE_SECONDS,
                   f"{limits.max_seconds:g} + {GRACE_SECONDS:g} seconds", f"the run and {task}",
                   limits.max_resident_bytes)

    @classmethod
    def from_now(cls, limits: Limits, task: str) -> Bound:
        """For one piece of work that starts now (a debugger's command)."""
        return cls(time.monotonic() + limits.max_seconds, f"{limits.max_seconds:g} seconds",
                   task, limits.max_resident_bytes)

    @classmethod
    def unbounded(cls) -> Bound:
        return cls(math.inf, "", "")

    def doing(self, task: str) -> Bound:
        """The same bound, for another part of the work (named in its message)."""
        prefix = "the run and "
        task = prefix + task if self.task.startswith(prefix) else task
        return Bound(self.deadline, self.seconds, task, self.max_resident)

    def tick(self) -> None:
        """One step of a loop: every so often, `check()`."""
        self.count += 1
        if not self.count % _CLOCK_EVERY:
            if self.count % _MEMORY_EVERY:
                self.check_time()
            else:
                self.check()

    def check_time(self) -> None:
        """Raise LimitExceeded if the time is up."""
        if time.monotonic() > self.deadline:
            raise LimitExceeded("max_seconds", f"{self.task} took more than {self.seconds}")

    def check(self) -> None:
        """Raise LimitExceeded if the time is up or the process holds too much memory."""
        self.check_time()
        if self.max_resident is not None:
            from engine.budget import resident_bytes  # lazy: startup time (loaded only when used)

            if resident_bytes() > self.max_resident:
                raise LimitExceeded("max_resident_bytes", f"{self.task} used more than "
                                    f"{self.max_resident} bytes of memory")

    def out_of_memory(self) -> ScriptError:
        """What a MemoryError during the work is reported as."""
        return out_of_memory(self.task or "agraph")


def out_of_memory(task: str) -> ScriptError:
    """A LimitError for a MemoryError: the machine (or `ulimit -v`) has less memory than the
    limits allow, so the advice is to lower them."""
    return ScriptError(LIMIT_ERROR, f"{task} ran out of memory: the machine has less memory than "
                       "the limits allow; lower --max-memory or --max-resident-memory")
