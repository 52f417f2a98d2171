"""`datetime`: the dates, times and durations notebooks stamp their runs with
(`datetime.datetime.now()`, the time a training loop took).

Each type is a subclass of Python's own with an allow-list of what a program may read
(PUBLIC_ATTRS) and call on the class (CLASS_ATTRS); arithmetic hands back these subclasses, so
`(datetime.now() - start).total_seconds()` reads as in Python. The clock's values differ from
run to run, as in Python.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from autograd_cli.language.objects import Namespace

_DATE_READS = frozenset("year month day weekday isoweekday isoformat strftime toordinal".split())
MAX_FORMAT = 1000  # characters of a strftime format: each directive can grow 30-fold


def _strftime(value: dt.date, text: Any) -> str:
    if isinstance(text, str) and len(text) > MAX_FORMAT:
        raise ValueError(f"strftime() of a format longer than {MAX_FORMAT} characters")
    return dt.date.strftime(value, text) if type(value) is Date else dt.datetime.strftime(
        value, text)  # type: ignore[arg-type]


def _ours(value: Any) -> Any:
    """A result of Python's arithmetic as the module's own type (Python's is a plain one)."""
    if type(value) is dt.timedelta:
        return Timedelta(value.days, value.seconds, value.microseconds)
    if type(value) is dt.datetime:
        return Datetime(value.year, value.month, value.day, value.hour, value.minute,
                        value.second, value.microsecond, value.tzinfo, fold=value.fold)
    if type(value) is dt.date:
        return Date(value.year, value.month, value.day)
    return value


class Timedelta(dt.timedelta):
    PUBLIC_ATTRS = frozenset({"days", "seconds", "microseconds", "total_seconds"})

    def __add__(self, other: Any) -> Any:
        return _ours(super().__add__(other))

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        return _ours(super().__sub__(other))

    def __rsub__(self, other: Any) -> Any:
        return _ours(super().__rsub__(other))

    def __mul__(self, other: Any) -> Any:
        return _ours(super().__mul__(other))

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        return _ours(super().__truediv__(other))

    def __floordiv__(self, other: Any) -> Any:
        return _ours(super().__floordiv__(other))

    def __neg__(self) -> Any:
        return _ours(super().__neg__())

    def __abs__(self) -> Any:
        return _ours(super().__abs__())


class Date(dt.date):
    PUBLIC_ATTRS = _DATE_READS
    CLASS_ATTRS = ("today",)
    strftime = _strftime

    def __add__(self, other: Any) -> Any:
        return _ours(super().__add__(other))

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        return _ours(super().__sub__(other))


class Datetime(dt.datetime):
    PUBLIC_ATTRS = _DATE_READS | frozenset(
        "hour minute second microsecond timestamp date".split())
    CLASS_ATTRS = ("now", "today")
    strftime = _strftime

    def date(self) -> Date:
        return Date(self.year, self.month, self.day)

    def __add__(self, other: Any) -> Any:
        return _ours(super().__add__(other))

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        return _ours(super().__sub__(other))


def _repr(self: Any) -> str:
    """`datetime.timedelta(seconds=5)`: Python names a subclass without its module."""
    return f"datetime.{super(type(self), self).__repr__()}"


for _kind, _name in ((Timedelta, "timedelta"), (Date, "date"), (Datetime, "datetime")):
    _kind.__name__ = _kind.__qualname__ = _name
    _kind.__module__ = "datetime"
    _kind.__repr__ = _repr  # type: ignore[method-assign,assignment]


def namespace(runtime: Any, name: str) -> Namespace:
    return Namespace(name, {"datetime": Datetime, "date": Date, "timedelta": Timedelta})
