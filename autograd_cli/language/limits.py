"""Resource limits of a run: one small frozen object handed to the checker and the interpreter.

Every limit has a command-line option that raises it, named after the field (`max_steps` ->
`--max-steps`), except the engine's two (named in its messages) and the memory backstop:

    field                   default       option                 bounds
    max_seconds             10.0          --max-seconds          wall-clock time of a run
    max_steps               10_000_000    --max-steps            statements, calls, iterations
    max_loop_iterations     1_000_000     --max-loop-iterations  iterations of one loop
    max_call_depth          1_000         --max-call-depth       nested calls of functions
    max_int_bits            65_536        --max-int-bits         bits of an integer result
    max_str_len             10_000_000    --max-str-len          characters of a string
    max_list_len            10_000_000    --max-list-len         items of a list or tuple
    max_nested_items        10_000_000    --max-nested-items     nested items one ==, <, in,
                                                                 hash or sort walks
    max_tensor_elements     100_000_000   --max-elements         elements of a tensor (engine)
    max_total_tensor_bytes  1 GiB         --max-memory           memory of the run
    max_graph_nodes         5_000_000     --max-graph-nodes      nodes one backward walks (engine)
    max_source_bytes        1_000_000     --max-source-bytes     size of the program file
    max_nesting_depth       200           --max-nesting-depth    nesting of the syntax
    max_output_bytes        10_000_000    --max-output-bytes     bytes the program prints
    max_resident_bytes      4 GiB         --max-resident-memory  peak memory of the process

A limit that is hit is a `ScriptError` of type `LimitError` whose message names the limit, what
exceeded it and the option that raises it; its position is the program's line and column.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from autograd_cli.language.errors import ScriptError

LIMIT_ERROR = "LimitError"

# The engine's own messages name these options; the others follow the field names.
_OPTION_NAMES = {
    "max_tensor_elements": "--max-elements",
    "max_total_tensor_bytes": "--max-memory",
    "max_resident_bytes": "--max-resident-memory",
}


class _Bounds(NamedTuple):
    """The fields of `Limits` and their defaults (a named tuple, not a dataclass: dataclasses
    would add 10 ms to every start)."""

    max_seconds: float = 10.0
    max_steps: int = 10_000_000
    max_loop_iterations: int = 1_000_000
    max_call_depth: int = 1_000
    max_int_bits: int = 65_536
    max_str_len: int = 10_000_000
    max_list_len: int = 10_000_000
    max_nested_items: int = 10_000_000
    max_tensor_elements: int = 100_000_000
    max_total_tensor_bytes: int = 1 << 30
    max_graph_nodes: int = 5_000_000
    max_source_bytes: int = 1_000_000
    max_nesting_depth: int = 200
    max_output_bytes: int = 10_000_000
    max_resident_bytes: int = 4 << 30


class Limits(_Bounds):
    """The bounds of one run; `Limits()._replace(max_steps=...)` changes one.

    Every limit is a positive, finite number: `--max-seconds nan` would never fire and
    `--max-steps 0` would refuse every program (a ValueError, a usage error on the command
    line)."""

    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> Limits:
        self = super().__new__(cls, *args, **kwargs)
        for name, value in zip(self._fields, self, strict=True):
            if type(value) is bool or not isinstance(value, int | float) or not (
                    math.isfinite(value) and value > 0):
                raise ValueError(f"{option_name(name)} must be a positive finite number, "
                                 f"not {value!r}")
        return self

    def _replace(self, **changes: Any) -> Limits:
        return Limits(**{**self._asdict(), **changes})  # checked as a new one is


LIMIT_TYPES: dict[str, type] = {name: float if kind in ("float", float) else int
                                for name, kind in _Bounds.__annotations__.items()}


def option_name(field: str) -> str:
    """The command-line option that sets limit `field` (`max_steps` -> `--max-steps`)."""
    return _OPTION_NAMES.get(field, "--" + field.replace("_", "-"))


def limit_error(field: str, what: str, line: int | None = None, col: int | None = None,
                end_col: int | None = None) -> ScriptError:
    """The error for limit `field` being exceeded; `what` says by what, with the limit's value."""
    message = f"{what} (limit {field}; raise it with {option_name(field)})"
    return ScriptError(LIMIT_ERROR, message, line, col, end_col)


class LimitExceeded(Exception):
    """Raised where a limit is hit without a position at hand; the interpreter adds it."""

    def __init__(self, field: str, what: str) -> None:
        super().__init__(what)
        self.field = field
        self.what = what


# What each limit bounds, for `--help` (the table in this module's docstring says the same).
DESCRIPTIONS = {
    "max_seconds": "Wall-clock seconds a run may take.",
    "max_steps": "Statements, calls and loop iterations a run may execute.",
    "max_loop_iterations": "Iterations of any one loop.",
    "max_call_depth": "Nested calls of the program's functions.",
    "max_int_bits": "Bits of an integer result.",
    "max_str_len": "Characters of a string.",
    "max_list_len": "Items of a list or tuple.",
    "max_nested_items": "Nested items one ==, <, in, hash or sort may walk.",
    "max_tensor_elements": "Elements of one tensor.",
    "max_total_tensor_bytes": "Bytes of all tensors alive at once.",
    "max_graph_nodes": "Nodes one backward pass may walk.",
    "max_source_bytes": "Bytes of the program file.",
    "max_nesting_depth": "Nesting depth of the program's syntax.",
    "max_output_bytes": "Bytes the program may print (and of the --json tensors).",
    "max_resident_bytes": "Peak memory of the whole process, in bytes.",
}
