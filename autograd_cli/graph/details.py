"""The HTML view's extras on a model: the run replayed as a timeline, the source lines, and
what each op saved for backward.

The timeline (model field `timeline`, docs/rendering.md) is a list of events in the order they
happened: first the forward statements that made the drawn nodes (`{"phase": "forward", "step",
"line", "nodes"}`: the nodes that statement made), then each backward node run for a drawn node
(`{"phase": "backward", "pass", "node", "grad", "line"}`: `grad` is the leaf's `.grad` after it
accumulated, or the gradient that reached a grad_fn; `line` the backward() call's). A training
loop's graph is its last iteration: the backward events are those of the passes that walked a
drawn non-leaf node.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from autograd_cli.graph.recorder import shape_text, value_text
from renderers.model import Graph

if TYPE_CHECKING:  # the recorder imports this module lazily, for the HTML view only
    from autograd_cli.graph.recorder import Record

SOURCE_WIDTH = 160  # characters of a source line kept


def add_details(graph: Graph, made: Iterable[tuple[Record, str]], target: dict[Record, str],
                records: list[Record], program: list[str], alias: dict[str, str]) -> None:
    """Fill `graph.timeline` and `graph.source`, and `saved` on the ops' attrs. `made` pairs
    each record with a node it draws (the op and its tensor both appear when it was made);
    `target` is the node a backward event of the record lights up; `alias` the block that
    stands for a node of a folded loop (renderers/loops.py)."""
    drawn = {node.id: node for node in graph.nodes}
    steps: dict[int, list[str]] = {}
    lines: dict[int, int] = {}
    made = [(record, alias.get(node_id, node_id)) for record, node_id in made]
    target = {record: alias.get(node_id, node_id) for record, node_id in target.items()}
    for record, node_id in made:
        if node_id in drawn and record.step:
            steps.setdefault(record.step, []).append(node_id)
            lines.setdefault(record.step, record.line)
            node = drawn[node_id]
            if node.kind in ("op", "backward_fn") and record.saved:
                node.attrs["saved"] = saved_facts(record)
    graph.timeline = [{"phase": "forward", "step": step, "line": lines[step],
                       "nodes": sorted(set(ids), key=ids.index)}
                      for step, ids in sorted(steps.items())]
    walked = {visit[1] for record in records if not record.is_leaf and record in target
              for visit in record.visits}
    visits = sorted((visit, record) for record in records if record in target
                    and target[record] in drawn for visit in record.visits
                    if not walked or visit[1] in walked)
    for (_, number, summary, line), record in visits:
        grad = None if summary is None else (value_text(summary) or shape_text(summary))
        graph.timeline.append({"phase": "backward", "pass": number, "node": target[record],
                               "grad": grad, "line": line})
    graph.source = source_lines(graph, program)


def saved_facts(record: Record) -> list[dict[str, Any]]:
    """What the record's grad_fn saved for backward, and whether backward freed it."""
    node = record.node() if record.node is not None else None
    freed = node is None or bool(getattr(node, "released", False))
    return [{"slot": slot, "shape": list(summary.shape), "dtype": summary.dtype,
             "bytes": summary.nbytes, "freed": freed} for slot, summary in record.saved]


def source_lines(graph: Graph, program: list[str]) -> dict[str, str]:
    """The program's lines that the drawn nodes and the timeline point to, by number."""
    wanted = {node.attrs.get("line") for node in graph.nodes}
    wanted |= {event.get("line") for event in graph.timeline}
    return {str(line): program[line - 1].strip()[:SOURCE_WIDTH] for line in sorted(
        n for n in wanted if isinstance(n, int)) if 0 < line <= len(program)}
