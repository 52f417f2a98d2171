"""Which iteration of a loop made each drawn node, for folding loops (renderers/loops.py).

The recorder knows the statement run (`Record.step`, counted as the program ran) that made each
record. The nodes one source position made during one statement run are one iteration's, told
apart by their order within it (`h @ W_h.t() + x @ W_x.t()` makes two `mm` at one position);
each later statement run that makes them again is the next iteration.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autograd_cli.graph.recorder import Record

REPEAT_SUFFIX = re.compile(r"_\d+$")  # `t9_5_3` -> `t9_5`: the position's id


def loop_iterations(pairs: Iterable[tuple[Record, str]]) -> dict[str, tuple[str, int]]:
    """node id -> (its block key: position and order within a statement run, iteration)."""
    order: dict[tuple[str, int], int] = {}
    seen: dict[str, dict[int, int]] = {}
    found: dict[str, tuple[str, int]] = {}
    for record, node_id in sorted(pairs, key=lambda pair: pair[0].seq):
        base = node_id if node_id.count("_") == 1 else REPEAT_SUFFIX.sub("", node_id)
        rank = order[base, record.step] = order.get((base, record.step), 0) + 1
        key = f"{base}#{rank}"
        runs = seen.setdefault(key, {})
        found[node_id] = (key, runs.setdefault(record.step, len(runs) + 1))
    return found
