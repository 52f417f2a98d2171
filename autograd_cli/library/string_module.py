"""`string`: the character sets char-level tutorials build vocabularies from, and `capwords`.

Constants are Python's own; `Template` and `Formatter` are left out (a format string that
reaches attributes is the language's business, checked there).
"""

from __future__ import annotations

import string
from typing import Any

from autograd_cli.language.objects import Namespace

_CONSTANTS = ("ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits",
              "octdigits", "punctuation", "printable", "whitespace")


def namespace(runtime: Any, name: str) -> Namespace:
    max_len = runtime.limits.max_str_len

    def capwords(text: str, sep: str | None = None) -> str:
        if type(text) is not str:
            raise TypeError(f"capwords() argument must be str, not {type(text).__name__}")
        if len(text) > max_len:
            raise ValueError(f"capwords() of a string longer than {max_len} characters")
        return string.capwords(text, sep)

    members: dict[str, Any] = {constant: getattr(string, constant) for constant in _CONSTANTS}
    members["capwords"] = capwords
    return Namespace(name, members)
