"""`time`: the clocks tutorials use to time their loops, and `sleep` within the run's time;
`timeit`: its `default_timer` (time.perf_counter, as in Python); timing a statement given as
a string (`timeit.timeit`, `repeat`, `Timer`) would run code outside the program: refused.

The clocks' values differ from run to run, as in Python; print a difference rounded, or not at
all, where the output must not change.
"""

from __future__ import annotations

import time
from typing import Any

from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.objects import Namespace
from engine.refused import Refused

_CLOCKS = ("time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns",
           "process_time", "process_time_ns")


def namespace(runtime: Any, name: str) -> Namespace:
    if name == "timeit":
        return Namespace(name, {"default_timer": time.perf_counter, **{
            function: Refused(f"timeit.{function}", "interpreter")
            for function in ("timeit", "repeat", "Timer", "main")}})

    def sleep(seconds: float) -> None:
        if not isinstance(seconds, (int, float)):
            raise TypeError(f"'{type(seconds).__name__}' object cannot be interpreted as a "
                            "number")
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        if time.monotonic() + seconds > runtime.deadline:
            limit = runtime.limits.max_seconds
            raise LimitExceeded("max_seconds", f"sleep({seconds:g}) would run the program for "
                                f"more than {limit:g} seconds")
        time.sleep(seconds)

    members: dict[str, Any] = {clock: getattr(time, clock) for clock in _CLOCKS}
    members["sleep"] = sleep
    return Namespace(name, members)
