"""What a run leaves behind, as plain data: the tensor records of `--json` and of the table."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from engine.tensor import Parameter, Tensor


def json_number(value: Any) -> Any:
    """Strict JSON: NaN and infinities as the strings "nan", "inf", "-inf" (nested lists too)."""
    if isinstance(value, list):
        return [json_number(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def tensor_record(name: str, tensor: Tensor) -> dict[str, Any]:
    grad = tensor._grad  # read directly: listing a non-leaf must not warn
    return {
        "name": name,
        "shape": list(tensor.shape_tuple),
        "dtype": tensor.dtype.name,
        "data": json_number(tensor.array.tolist()),
        "requires_grad": tensor.requires_grad,
        "is_leaf": tensor.is_leaf,
        "grad": None if grad is None else json_number(grad.array.tolist()),
        "grad_fn": None if tensor.grad_fn is None else tensor.grad_fn.grad_fn_name,
        "retains_grad": tensor.retains_grad,
        "class": "Parameter" if isinstance(tensor, Parameter) else "Tensor",
    }


def tensor_records(variables: Iterable[tuple[str, Any]]) -> list[dict[str, Any]]:
    """Every variable bound to a tensor, sorted by name."""
    return [tensor_record(name, value) for name, value in sorted(variables, key=lambda kv: kv[0])
            if isinstance(value, Tensor)]


def tensors_of(variables: Iterable[tuple[str, Any]]) -> list[tuple[str, Tensor]]:
    return sorted(((n, v) for n, v in variables if isinstance(v, Tensor)), key=lambda kv: kv[0])


def short_values(array: Any) -> str:
    """A tensor's values as PyTorch prints them, on one line, abridged when long."""
    from engine.printing import tensor_repr

    text = tensor_repr(array)
    text = text[len("tensor("):-1] if text.startswith("tensor(") else text
    text = text.split(", dtype=")[0].split(", size=")[0]
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def table_rows(variables: Iterable[tuple[str, Any]]) -> list[dict[str, Any]]:
    """The rows of `agraph run`'s node table (plain strings and bools, for renderers.table)."""
    rows = []
    for name, tensor in tensors_of(variables):
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
    return rows
