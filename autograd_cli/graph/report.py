"""What a run leaves behind, as plain data: the tensor records of `--json` and of the table.

Both are agraph's work after the program ended, sized by what the program left (a tensor of
10**8 elements bound to twenty names), so both are bounded:
- `--json`: the `tensors` array is written as JSON text, each tensor's values serialized once
  however many names it has, and the whole array within `max_bytes` (`--max-output-bytes`):
  past it, `LimitExceeded` (a LimitError), never a half-written array;
- the table: values are abridged with PyTorch's default print options whatever the program set
  with `torch.set_printoptions` (threshold=inf would print every element), at most
  `MAX_TABLE_ROWS` rows.
Loops tick a `Bound` (autograd_cli/language/bounds.py): the time and memory limits of the run.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from autograd_cli.language.bounds import Bound
from autograd_cli.language.limits import LimitExceeded
from engine.printing import PRINT_OPTIONS, PrintOptions, tensor_repr
from engine.tensor import Parameter, Tensor

MAX_TABLE_ROWS = 1000  # rows of the node table; past it, a last row says how many are left out
# Fewest bytes an element adds to the JSON text (`0, `; a float at least `0.0, `), to refuse a
# tensor that cannot fit before turning it into Python objects.
_MIN_ELEMENT_BYTES = {"f": 5, "b": 6}
_BIG = 1 << 16  # elements from which a tensor's values are worth a look at the clock first


def json_number(value: Any) -> Any:
    """Strict JSON: NaN and infinities as the strings "nan", "inf", "-inf" (nested lists too)."""
    if isinstance(value, list):
        return [json_number(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def json_object(pairs: Iterable[tuple[str, str]]) -> str:
    """A JSON object from (key, value as JSON text) pairs, spaced as json.dumps spaces it."""
    return "{" + ", ".join(f"{_dumps(key)}: {text}" for key, text in pairs) + "}"


class _ValuesText:
    """The JSON text of arrays' values, made once per array, within a byte budget."""

    def __init__(self, max_bytes: int, bound: Bound) -> None:
        self.remaining = max_bytes
        self.max_bytes = max_bytes
        self.bound = bound
        self.texts: dict[int, tuple[np.ndarray, str]] = {}  # id(array) -> (array, text)

    def spend(self, size: int) -> None:
        self.remaining -= size
        if self.remaining < 0:
            raise LimitExceeded("max_output_bytes", "the tensors of the --json document (their "
                                f"data and grad values) would take more than {self.max_bytes} "
                                "bytes")

    def text(self, array: np.ndarray) -> str:
        known = self.texts.get(id(array))
        if known is not None and known[0] is array:  # another name for the same values
            self.spend(len(known[1]))
            return known[1]
        least = array.size * _MIN_ELEMENT_BYTES.get(array.dtype.kind, 3)
        if least > self.remaining:
            self.spend(least)  # raises: too big to write, refused before any work
        if array.size >= _BIG:
            self.bound.check()  # before a long C call
        else:
            self.bound.tick()
        values = array.tolist()
        if array.dtype.kind == "f" and not bool(np.isfinite(array).all()):
            values = json_number(values)
        text = _dumps(values)
        del values
        self.spend(len(text))
        self.texts[id(array)] = (array, text)
        return text


def tensors_json(variables: Iterable[tuple[str, Any]], max_bytes: int,
                 bound: Bound | None = None) -> str:
    """The `tensors` array of `run --json` as JSON text: every variable bound to a tensor,
    sorted by name (design.md). Raises LimitExceeded past `max_bytes` bytes or the bound."""
    bound = bound or Bound.unbounded()
    values = _ValuesText(max_bytes, bound)
    records = []
    for name, tensor in tensors_of(variables):
        bound.tick()
        grad = tensor._grad  # read directly: listing a non-leaf must not warn
        data = values.text(tensor.array)
        grad_text = "null" if grad is None else values.text(grad.array)
        text = json_object([
            ("name", _dumps(name)),
            ("shape", _dumps(list(tensor.shape_tuple))),
            ("dtype", _dumps(tensor.dtype.name)),
            ("data", data),
            ("requires_grad", _dumps(tensor.requires_grad)),
            ("is_leaf", _dumps(tensor.is_leaf)),
            ("grad", grad_text),
            ("grad_fn", "null" if tensor.grad_fn is None else _dumps(tensor.grad_fn.grad_fn_name)),
            ("retains_grad", _dumps(tensor.retains_grad)),
            ("class", _dumps("Parameter" if isinstance(tensor, Parameter) else "Tensor")),
        ])
        # the record around its values (those are counted already), and the ", " after it
        values.spend(len(text) - len(data) - (0 if grad is None else len(grad_text)) + 2)
        records.append(text)
    return "[" + ", ".join(records) + "]"


def tensor_record(name: str, tensor: Tensor) -> dict[str, Any]:
    """One record of `tensors_json`, as a dict (unbounded: for a tensor known to be small)."""
    return json.loads(tensors_json([(name, tensor)], 1 << 62))[0]  # type: ignore[no-any-return]


def tensor_records(variables: Iterable[tuple[str, Any]], max_bytes: int = 1 << 62,
                   bound: Bound | None = None) -> list[dict[str, Any]]:
    """Every variable bound to a tensor, sorted by name, as dicts (see `tensors_json`)."""
    return json.loads(tensors_json(variables, max_bytes, bound))  # type: ignore[no-any-return]


def tensors_of(variables: Iterable[tuple[str, Any]]) -> list[tuple[str, Tensor]]:
    return sorted(((n, v) for n, v in variables if isinstance(v, Tensor)), key=lambda kv: kv[0])


@contextmanager
def default_print_options() -> Iterator[None]:
    """PyTorch's default print options for a while (the program's own come back after), so
    agraph's abridged values never follow `torch.set_printoptions(threshold=inf)`."""
    saved = {key: getattr(PRINT_OPTIONS, key) for key in vars(PrintOptions())}
    try:
        for key, value in vars(PrintOptions()).items():
            setattr(PRINT_OPTIONS, key, value)
        yield
    finally:
        for key, value in saved.items():
            setattr(PRINT_OPTIONS, key, value)


def short_values(array: Any) -> str:
    """A tensor's values as PyTorch prints them by default, on one line, abridged when long."""
    with default_print_options():
        text = tensor_repr(array)
    text = text[len("tensor("):-1] if text.startswith("tensor(") else text
    text = text.split(", dtype=")[0].split(", size=")[0]
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def table_rows(variables: Iterable[tuple[str, Any]], bound: Bound | None = None,
               max_rows: int = MAX_TABLE_ROWS) -> list[dict[str, Any]]:
    """The rows of `agraph run`'s node table (plain strings and bools, for renderers.table);
    past `max_rows` tensors, a last row says how many more there are."""
    bound = bound or Bound.unbounded()
    tensors = tensors_of(variables)
    rows: list[dict[str, Any]] = []
    with default_print_options():
        for name, tensor in tensors[:max_rows]:
            bound.tick()
            grad = tensor._grad
            rows.append({
                "name": name,
                "shape": str(list(tensor.shape_tuple)),
                "dtype": tensor.dtype.name,
                "value": short_values(tensor.array),
                "requires_grad": tensor.requires_grad,
                "is_leaf": tensor.is_leaf,
                "grad": "None" if grad is None else short_values(grad.array),
                "grad_fn": "None" if tensor.grad_fn is None else tensor.grad_fn.grad_fn_name,
                "retains_grad": tensor.retains_grad,
            })
    if len(tensors) > max_rows:
        rows.append({"name": f"... {len(tensors) - max_rows} more tensors not shown"})
    return rows
