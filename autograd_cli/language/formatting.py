"""Text formatting for programs: f-string fields, `str.format`, `format()` and `str % args`.

Python pads inside C, so `f"{1:>2000000000}"` or `"%2000000000d" % 1` would build a 2 GB string
in one call that no time limit can interrupt: every width and precision is checked against
`max_str_len` before the call. Values are turned into text with `display_str`/`display_repr`
(never a host object's own repr), and `str.format` field names go through the same attribute
check as `obj.name` in a program, so `"{0.__class__}"` is refused like `x.__class__`.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Callable, Mapping
from typing import Any

from autograd_cli.language.classes import MISSING, find_member
from autograd_cli.language.limits import LimitExceeded, Limits
from autograd_cli.language.memory import check_text
from autograd_cli.language.objects import display_repr, display_str, is_engine_object

_NUMBERS = re.compile(r"\d+")
_FIELD_NAME = re.compile(r"[^.\[]*")
_FIELD_ACCESS = re.compile(r"\.([^.\[]+)|\[([^\]]+)\]")
_PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
                      r"(?:\.(?P<precision>\*|\d+))?[hlL]?(?P<type>.)?", re.DOTALL)
_FORMATTABLE = frozenset({str, int, float, bool, type(None), complex})
_PARSER = string.Formatter()


def convert(value: Any, conversion: str, max_len: int | None = None) -> str:
    """The `!s`, `!r` and `!a` conversions of f-strings and `str.format` (and %s, %r, %a);
    `max_len` bounds the text of a container (max_str_len)."""
    if conversion == "s":
        return display_str(value, max_len)
    if conversion == "r":
        return display_repr(value, max_len)
    if conversion == "a":
        text = display_repr(value, max_len).encode("ascii", "backslashreplace").decode("ascii")
        if max_len is not None and len(text) > max_len:
            raise LimitExceeded("max_str_len", f"the text of this value would be longer than "
                                f"{max_len} characters")
        return text
    raise ValueError(f"Unknown conversion specifier {conversion}")


class TextFormatter:
    """Formatting with the size checks; `get_attribute` is the interpreter's checked `obj.name`."""

    def __init__(self, limits: Limits, get_attribute: Callable[[Any, str], Any]) -> None:
        self.max_len = limits.max_str_len
        self.get_attribute = get_attribute

    def check_spec(self, spec: str) -> None:
        """Refuse a width or precision that would build a string over the limit."""
        total = 0
        for digits in _NUMBERS.findall(spec):
            total += int(digits) if len(digits) <= 12 else self.max_len + 1
        if total > self.max_len:
            raise LimitExceeded("max_str_len", f"format spec '{spec[:40]}' asks for more than "
                                f"{self.max_len} characters")
        if total:
            check_text(total, spec)

    def format_value(self, value: Any, spec: str) -> str:
        """`format(value, spec)`: a field of an f-string or of `str.format`; a program class's
        own `__format__` (installed on its host class) formats its objects, as in Python."""
        if find_member(type(value), "__format__")[0] is not MISSING:
            self.check_spec(spec)
            return format(value, spec)
        own_format = is_engine_object(value) and type(value).__format__ is not object.__format__
        if not spec and not own_format:  # a hook handle's default format shows the host's repr
            return display_str(value, self.max_len)
        self.check_spec(spec)
        if type(value) in _FORMATTABLE or is_engine_object(value):
            return format(value, spec)
        raise TypeError(f"unsupported format string passed to {type(value).__name__}.__format__")

    def check_length(self, length: int, *parts: str) -> None:
        """Before a string of `length` characters (made of `parts`) is built."""
        if length > self.max_len:
            raise LimitExceeded("max_str_len", f"the string would be longer than {self.max_len} "
                                "characters")
        check_text(length, *parts)

    def format_string(self, template: str, args: tuple[Any, ...], kwargs: Mapping[str, Any],
                      recursion: int = 2, numbering: list[int] | None = None) -> str:
        """`template.format(*args, **kwargs)`; `numbering` holds the next automatic field
        number, which goes on into nested specs (`"{:{}}".format(x, width)`)."""
        pieces: list[str] = []
        length = 0
        numbering = [0] if numbering is None else numbering
        for literal, field, spec, conversion in _PARSER.parse(template):
            pieces.append(literal)
            length += len(literal)
            if field is None:
                continue
            if field == "":
                field = str(numbering[0])
                numbering[0] += 1
            value = self._field_value(field, args, kwargs)
            if conversion:
                value = convert(value, conversion, self.max_len)
            if spec and "{" in spec:
                if recursion == 0:
                    raise ValueError("Max string recursion exceeded")
                spec = self.format_string(spec, args, kwargs, recursion - 1, numbering)
            piece = self.format_value(value, spec or "")
            length += len(piece)
            self.check_length(length)
            pieces.append(piece)
        return "".join(pieces)

    def _field_value(self, field: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Any:
        match = _FIELD_NAME.match(field)
        assert match is not None
        first, rest = match.group(), field[match.end():]
        if first.isdigit():
            index = int(first)
            if index >= len(args):
                raise IndexError(f"Replacement index {index} out of range for positional args "
                                 "tuple")
            value = args[index]
        else:
            value = kwargs[first]
        position = 0
        while position < len(rest):
            access = _FIELD_ACCESS.match(rest, position)
            if access is None:
                raise ValueError("Only '.' or '[' may follow ']' in format field specifier")
            attribute, key = access.groups()
            if attribute is not None:
                value = self.get_attribute(value, attribute)
            else:
                value = value[int(key) if key.isdigit() else key]
            position = access.end()
        return value

    def percent(self, template: str, values: Any) -> str:
        """`template % values`, printf-style."""
        by_key = isinstance(values, Mapping)
        args = values if type(values) is tuple else (values,)
        used = 0
        pieces: list[str] = []
        converted: list[Any] = []
        last = 0
        reserved = len(template)
        for match in _PERCENT.finditer(template):
            pieces.append(template[last:match.start()])
            last = match.end()
            kind = match["type"]
            if kind == "%" or kind is None:
                pieces.append(match.group())
                continue
            if "*" in (match["width"], match["precision"]):
                raise ValueError("'*' widths are not supported in % formatting")
            self.check_spec(match.group())
            reserved += int(match["width"] or 0) + int(match["precision"] or 0)
            self.check_length(reserved)
            if match["key"] is not None:
                if not by_key:
                    raise TypeError("format requires a mapping")
                value = values[match["key"]]
            else:
                if used >= len(args):
                    raise TypeError("not enough arguments for format string")
                value = args[used]
                used += 1
            if kind in "rsa":
                value, kind = convert(value, kind, self.max_len), "s"
                precision = match["precision"]  # "%.3s" keeps 3 characters
                reserved += len(value) if precision is None else min(len(value), int(precision))
            else:
                reserved += _number_length(value, kind)
            self.check_length(reserved)
            pieces.append(f"%{match['flags']}{match['width'] or ''}"
                          f"{'.' + match['precision'] if match['precision'] else ''}{kind}")
            converted.append(value)
        pieces.append(template[last:])
        if not by_key and used < len(args):
            raise TypeError("not all arguments converted during string formatting")
        return "".join(pieces) % tuple(converted)


def _number_length(value: Any, kind: str) -> int:
    """An upper bound of the characters of `value` formatted as a number by %d, %x, %f, ...
    (but for a width or precision, which are counted apart)."""
    if kind == "c":
        return 1
    if isinstance(value, int) and kind in "diuxXo":
        return value.bit_length() // 3 + 2  # octal has the most digits
    if isinstance(value, (int, float)):
        magnitude = abs(value)
        if kind in "fF" and magnitude >= 1 and magnitude != math.inf:
            try:
                return int(math.log10(magnitude)) + 10  # sign, point, 6 decimals
            except (OverflowError, ValueError):
                return 330
        return 32
    return 330  # a tensor or another number type: as many digits as a float can have
