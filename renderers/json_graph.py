"""The model as JSON (its form is documented in docs/rendering.md)."""

from __future__ import annotations

import json

from renderers.model import Graph


def render_json(graph: Graph) -> str:
    """Strict JSON, keys in a fixed order, one trailing newline."""
    return json.dumps(graph.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
