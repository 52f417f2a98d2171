"""`agraph run FILE --watch NAME`: the value of NAME each time it is rebound, as a series.

    watch loss (line 28, 800 bindings): 153.2, 140.1, 128.5, ..., 0.9113, 0.9112
      ▇▆▅▄▃▂▂▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁  min 0.9112 (#800)  max 153.2 (#1)

Bindings are grouped by the line that made them, because one name often holds different
things on different lines (`loss = (y - p) ** 2` then `loss = loss.sum()`). A tensor of one
element is watched by its value, a bigger one by its norm (said so), a python number as it is;
anything else is only counted. Only a bounded sample of the values is kept (a loop can run a
million times): the first values, the last ones, and a fixed number of buckets for the
sparkline, each holding the mean of the values that fell in it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autograd_cli.graph.provenance import number_text
from autograd_cli.language.errors import visible
from engine.tensor import Tensor

BARS = "▁▂▃▄▅▆▇█"
ASCII_BARS = "_.-=+*#@"
WIDTH = 40  # characters of a sparkline
HEAD, TAIL = 4, 3  # values listed at the start and end of a long series
LOG_SCALE_RATIO = 100  # positive values spanning this factor get a logarithmic sparkline


@dataclass
class _Series:
    line: int
    what: str = "value"  # "value", "norm" or "count"
    count: int = 0
    head: list[float] = field(default_factory=list)
    tail: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)  # every value, until there are too many
    low: tuple[float, int] | None = None
    high: tuple[float, int] | None = None
    kinds: set[str] = field(default_factory=set)


MAX_KEPT = 100_000  # values kept whole for the sparkline; past it, decimated by 2


class Watcher:
    """The observer behind `--watch NAME`."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.series: dict[int, _Series] = {}
        self.stride: dict[int, int] = {}

    def on_bind(self, name: str, value: Any, line: int) -> None:
        if name != self.name:
            return
        series = self.series.get(line)
        if series is None:
            series = self.series[line] = _Series(line)
            self.stride[line] = 1
        series.count += 1
        number, what = _watched_number(value)
        series.kinds.add(what)
        if number is None:
            return
        series.what = what
        if len(series.head) < HEAD:
            series.head.append(number)
        series.tail = (series.tail + [number])[-TAIL:]
        if not math.isnan(number):
            if series.low is None or number < series.low[0]:
                series.low = (number, series.count)
            if series.high is None or number > series.high[0]:
                series.high = (number, series.count)
        if series.count % self.stride[line] == 0:
            series.values.append(number)
            if len(series.values) >= MAX_KEPT:
                series.values = series.values[::2]
                self.stride[line] *= 2

    def report(self, unicode: bool = True) -> str:
        """The series of every line that bound NAME (empty text if it was never bound)."""
        if not self.series:
            return visible(f"watch {self.name}: never bound\n")
        out = []
        for series in self.series.values():
            out.append(_series_text(self.name, series, unicode))
        return visible("".join(out))


def _watched_number(value: Any) -> tuple[float | None, str]:
    if isinstance(value, bool):
        return float(value), "value"
    if isinstance(value, (int, float)):
        return float(value), "value"
    if isinstance(value, Tensor):
        array = value.array
        if array.dtype.kind not in "fiub":
            return None, "count"
        if array.size == 1:
            return float(np.asarray(array, dtype=np.float64).reshape(())), "value"
        return float(np.linalg.norm(np.asarray(array, dtype=np.float64).ravel())), "norm"
    return None, type(value).__name__


def _series_text(name: str, series: _Series, unicode: bool) -> str:
    times = f"{series.count} binding{'s' if series.count != 1 else ''}"
    label = name if series.what == "value" else f"norm of {name}"
    head = f"watch {label} (line {series.line}, {times})"
    if not series.head:
        kinds = ", ".join(sorted(series.kinds))
        return f"{head}: {kinds}, not a number\n"
    if len(series.values) <= HEAD + TAIL and series.count <= HEAD + TAIL:
        values = ", ".join(number_text(v) for v in series.values)
    else:
        values = ", ".join([number_text(v) for v in series.head] + ["..."] +
                           [number_text(v) for v in series.tail])
    text = f"{head}: {values}\n"
    if series.count > 1 and series.low is not None and series.high is not None:
        line = sparkline(series.values, unicode)
        text += (f"  {line}  min {number_text(series.low[0])} (#{series.low[1]})  "
                 f"max {number_text(series.high[0])} (#{series.high[1]})\n")
    return text


def sparkline(values: list[float], unicode: bool = True, width: int = WIDTH) -> str:
    """One character per bucket of values (their mean), from lowest to highest bar; a bucket
    holding a NaN or an infinity shows `!`. Positive values that span two orders of magnitude
    or more are drawn on a log scale, so a falling loss shows its whole fall."""
    bars = BARS if unicode else ASCII_BARS
    if not values:
        return ""
    buckets = min(width, len(values))
    means: list[float] = []
    for index in range(buckets):
        part = values[index * len(values) // buckets:(index + 1) * len(values) // buckets]
        means.append(sum(part) / len(part) if all(math.isfinite(v) for v in part)
                     else math.nan)
    finite = [m for m in means if math.isfinite(m)]
    if not finite:
        return "!" * buckets
    low, high = min(finite), max(finite)
    if low > 0 and high / low >= LOG_SCALE_RATIO:  # a loss falling by orders of magnitude
        means = [math.log(m) if math.isfinite(m) else m for m in means]
        low, high = math.log(low), math.log(high)
    span = high - low
    chars = []
    for mean in means:
        if not math.isfinite(mean):
            chars.append("!")
        elif span == 0:
            chars.append(bars[len(bars) // 2])
        else:
            chars.append(bars[min(len(bars) - 1, int((mean - low) / span * len(bars)))])
    return "".join(chars)
