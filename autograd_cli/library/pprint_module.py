"""`pprint`: `pprint`, `pformat`, `pp` and `PrettyPrinter`, laid out by Python's own pprint.

Python's printer breaks dicts, lists and tuples over lines as they are; every other value (a
tensor, an array, a program's object) is shown by its repr as a program sees it, never by the
host's. The output goes to the program's stdout (`stream=` is refused), and its length is
checked against the run's limits like `print`'s: as pprint writes it, piece by piece (an
`indent` repeats on every line of every level: `indent=10**9` laid out ten lines in 6 GB).
pprint makes each line's indentation (indent times the level) before writing it, so `indent`
is at most MAX_INDENT.
"""

from __future__ import annotations

import pprint
from typing import Any

from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.objects import Namespace, display_repr
from engine.addresses import address_of

_LAID_OUT = (dict, list, tuple)
MAX_INDENT = 1_000


class _CountedText:
    """The stream pprint writes to: its pieces, refused past `max_len` characters (and the
    newline pprint() ends with)."""

    def __init__(self, max_len: int) -> None:
        self.max_len = max_len + 1
        self.length = 0
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.length += len(text)
        if self.length > self.max_len:
            raise LimitExceeded("max_str_len", f"pprint's text would be longer than "
                                f"{self.max_len - 1} characters")
        self.parts.append(text)


class _Layout(pprint.PrettyPrinter):
    """Python's layout over agraph's reprs (`format` is the hook pprint calls for each value)."""

    def __init__(self, max_len: int, **options: Any) -> None:
        super().__init__(**options)
        self.max_len = max_len

    def format(self, value: Any, context: dict[int, int], maxlevels: int, level: int
               ) -> tuple[str, bool, bool]:
        if type(value) in _LAID_OUT:
            return super().format(value, context, maxlevels, level)
        text = display_repr(value, self.max_len)
        return text, not text.startswith("<"), False


def _options(indent: Any = 1, width: Any = 80, depth: Any = None, stream: Any = None, *,
             compact: Any = False, sort_dicts: Any = True, underscore_numbers: Any = False
             ) -> dict[str, Any]:
    if stream is not None:
        raise ValueError("pprint's stream= is not supported by agraph: it prints to stdout")
    if isinstance(indent, int) and indent > MAX_INDENT:
        raise ValueError(f"pprint indent over {MAX_INDENT} is not supported by agraph")
    return {"indent": indent, "width": width, "depth": depth, "compact": compact,
            "sort_dicts": sort_dicts, "underscore_numbers": underscore_numbers}


def namespace(runtime: Any, name: str) -> Namespace:
    max_len = runtime.limits.max_str_len

    def text(value: Any, options: dict[str, Any]) -> str:
        display_repr(value, max_len)  # refuses a value whose one-line text is over the limit
        stream = _CountedText(max_len)
        _Layout(max_len, stream=stream, **options).pprint(value)
        return "".join(stream.parts)[:-1]  # pformat() has no newline at the end

    def write(value: Any, options: dict[str, Any]) -> None:
        line = text(value, options) + "\n"
        runtime.check_output(len(line))
        runtime.write(line)

    class PrettyPrinter:
        """A printer with its options, as `pprint.PrettyPrinter(...)` makes one."""

        PUBLIC_ATTRS = frozenset({"pprint", "pformat"})
        __slots__ = ("options",)

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.options = _options(*args, **kwargs)

        def pprint(self, value: Any) -> None:
            write(value, self.options)

        def pformat(self, value: Any) -> str:
            return text(value, self.options)

        def __repr__(self) -> str:
            return f"<pprint.PrettyPrinter object at {address_of(self)}>"

    PrettyPrinter.__module__ = "pprint"

    def pprint_(value: Any, stream: Any = None, indent: Any = 1, width: Any = 80,
                depth: Any = None, **kwargs: Any) -> None:
        write(value, _options(indent, width, depth, stream, **kwargs))

    def pformat(value: Any, *args: Any, **kwargs: Any) -> str:
        return text(value, _options(*args, **kwargs))

    def pp(value: Any, stream: Any = None, indent: Any = 1, width: Any = 80, depth: Any = None,
           *, sort_dicts: Any = False, **kwargs: Any) -> None:
        write(value, _options(indent, width, depth, stream, sort_dicts=sort_dicts, **kwargs))

    pprint_.__name__ = "pprint"
    return Namespace(name, {"pprint": pprint_, "pformat": pformat, "pp": pp,
                            "PrettyPrinter": PrettyPrinter})
