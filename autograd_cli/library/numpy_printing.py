"""numpy's print options for a run: `np.set_printoptions`, `np.get_printoptions` and the
`np.printoptions(...)` block, checked.

numpy keeps its print options for the whole process; agraph resets them at the start of every
run (engine/api.py's `reset_state`), so what a program sets lasts until its run ends, as in a
fresh Python process. The options that only change the text are accepted, each checked for its
type and a sane size (printing is sized against the run's memory before numpy builds the text,
engine/ndarray.py); `formatter=` (numpy would call the program's functions while printing) and
`override_repr=` are refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

FLOATMODES = frozenset({"fixed", "unique", "maxprec", "maxprec_equal"})
LEGACY = frozenset({False, "1.13", "1.21", "1.25", "2.1", "2.2"})
MAX_PRECISION = 100
MAX_COUNT = 10**9  # threshold and edgeitems: larger means "all", which is sized when printed
MAX_TEXT = 100  # nanstr, infstr


def _count(name: str, value: Any, low: int, high: float) -> Any:
    if value is None:
        return None
    if isinstance(value, float) and value == float("inf") and name == "threshold":
        return MAX_COUNT  # numpy's idiom for "print everything"
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{name} must be an int between {low} and {high:g}")
    return value


def checked(precision: Any = None, threshold: Any = None, edgeitems: Any = None,
            linewidth: Any = None, suppress: Any = None, nanstr: Any = None, infstr: Any = None,
            formatter: Any = None, sign: Any = None, floatmode: Any = None, *,
            legacy: Any = None, override_repr: Any = None) -> dict[str, Any]:
    """The options as numpy's set_printoptions takes them, each checked."""
    if formatter is not None or override_repr is not None:
        raise ValueError("numpy print options formatter= and override_repr= are not supported "
                         "by agraph")
    options: dict[str, Any] = {
        "precision": _count("precision", precision, 0, MAX_PRECISION),
        "threshold": _count("threshold", threshold, 0, MAX_COUNT),
        "edgeitems": _count("edgeitems", edgeitems, 0, MAX_COUNT),
        "linewidth": _count("linewidth", linewidth, 1, MAX_COUNT)}
    if suppress is not None:
        options["suppress"] = bool(suppress)
    for name, text in (("nanstr", nanstr), ("infstr", infstr)):
        if text is not None:
            if type(text) is not str or len(text) > MAX_TEXT:
                raise ValueError(f"{name} must be a str of at most {MAX_TEXT} characters")
            options[name] = text
    if sign is not None:
        if sign not in ("-", "+", " "):
            raise ValueError("sign option must be one of ' ', '+', or '-'")
        options["sign"] = sign
    if floatmode is not None:
        if floatmode not in FLOATMODES:
            raise ValueError(f"floatmode option must be one of {', '.join(sorted(FLOATMODES))}")
        options["floatmode"] = floatmode
    if legacy is not None:
        if legacy not in LEGACY:
            raise ValueError("legacy printing option can currently only be '1.13', '1.21', "
                             "'1.25', '2.1', '2.2' or `False`")
        options["legacy"] = legacy
    return options


class PrintOptions:
    """`with np.printoptions(...):` the options for the block, the earlier ones after it."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("options", "saved")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.options = checked(*args, **kwargs)
        self.saved: dict[str, Any] = {}

    def __enter__(self) -> dict[str, Any]:
        self.saved = dict(np.get_printoptions())
        np.set_printoptions(**self.options)
        return get_printoptions()

    def __exit__(self, *exc: Any) -> None:
        np.set_printoptions(**self.saved)


def set_printoptions(*args: Any, **kwargs: Any) -> None:
    np.set_printoptions(**checked(*args, **kwargs))


def get_printoptions() -> dict[str, Any]:
    options: dict[str, Any] = dict(np.get_printoptions())
    options.pop("override_repr", None)
    return options
