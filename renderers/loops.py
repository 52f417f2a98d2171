"""Loops folded: the nodes one source position made again and again (each iteration of a loop)
drawn once, as a block with its repeat count, and the edge from one iteration to the next.

A model transform (model -> model), before the picture is cut to --max-nodes. Node ids say
where a node was made (`t9_5`, then `t9_5_2`, `t9_5_3`, ... in creation order; renderers/model.py),
so the nodes of one position are the iterations of the statement that made them. A position
with FOLD_AT or more nodes is folded into its last one (the last iteration's values), which
gets `attrs["repeat"]` = how many it stands for and `×N` after its first label line. An edge
between two folded blocks of the same count, from one iteration to a later one (`h` of step k
into the op of step k+1), becomes a `loop` edge: the recurrence, drawn once.

`unroll`: None folds (the default), 0 draws every iteration, N draws the first N iterations of
each repeated position and says how many were left out.
"""

from __future__ import annotations

import re
from dataclasses import replace

from renderers.model import Edge, Graph, Node

FOLD_AT = 5  # a position made this many nodes or more is a loop worth folding
REPEATED_ID = re.compile(r"([a-z]+\d+_\d+)(?:_(\d+))?((?:_[a-z]+\d+)?)")


Iteration = tuple[str, int]  # (what the node is in an iteration, which iteration)
PART_OF = re.compile(r"(.+)(_saved\d+|_sum\d+)")  # a saved tensor or sum_to of a grad_fn


def position_of(node: Node) -> str | None:
    """The source position a node's id names (`bw9_5_3` -> `bw9_5`)."""
    match = REPEATED_ID.fullmatch(node.id)
    if match is None or node.kind == "note":
        return None
    return f"{node.kind}:{match.group(1)}{match.group(3)}"


def iterations_from_ids(graph: Graph) -> dict[str, Iteration]:
    """Without the recorder's knowledge of statements: the n-th node of a position is its
    n-th iteration."""
    counts: dict[str, int] = {}
    found: dict[str, Iteration] = {}
    for node in graph.nodes:
        key = position_of(node)
        if key is not None:
            counts[key] = counts.get(key, 0) + 1
            found[node.id] = (key, counts[key])
    return found


def repeated(graph: Graph, iterations: dict[str, Iteration]) -> dict[str, list[Node]]:
    """The nodes of each block key, in order (a saved tensor follows its grad_fn)."""
    groups: dict[str, list[Node]] = {}
    for node in graph.nodes:
        found = iterations.get(node.id)
        part = PART_OF.fullmatch(node.id) if found is None else None
        if part is not None and part.group(1) in iterations:
            key, number = iterations[part.group(1)]
            found = iterations[node.id] = (key + part.group(2), number)
        if found is not None:
            groups.setdefault(found[0], []).append(node)
    return groups


def fold_loops(graph: Graph, unroll: int | None = None,
               iterations: dict[str, Iteration] | None = None
               ) -> tuple[Graph, dict[str, str]]:
    """The graph with its loops folded (or cut to `unroll` iterations), and which node now
    stands for each node folded away. `iterations`: each node's block key and iteration (the
    recorder knows them from the statements that ran), else guessed from the ids."""
    iterations = dict(iterations) if iterations is not None else iterations_from_ids(graph)
    groups = {key: nodes for key, nodes in repeated(graph, iterations).items()
              if len({iterations[n.id][1] for n in nodes}) >= FOLD_AT}
    if not groups or unroll == 0:
        return graph, {}
    if unroll is not None:
        return first_iterations(graph, groups, unroll), {}
    alias: dict[str, str] = {}
    iteration: dict[str, tuple[int, int]] = {}  # id -> (its iteration, its block's size)
    blocks: dict[str, Node] = {}
    for nodes in groups.values():
        last = nodes[-1]
        for node in nodes:
            alias[node.id] = last.id
            iteration[node.id] = (iterations[node.id][1], len(nodes))
        lines = tuple(map(unnumbered, last.label))  # `→ h (301)`: every iteration's h
        if lines:
            lines = (f"{lines[0]} ×{len(nodes)}", *lines[1:])
        attrs = {**last.attrs, "repeat": len(nodes)}
        if isinstance(attrs.get("name"), str):
            attrs["name"] = unnumbered(attrs["name"])
        blocks[last.id] = replace(last, label=lines, attrs=attrs)
    nodes = [blocks.get(node.id, node) for node in graph.nodes if alias.get(node.id, node.id)
             == node.id]
    edges: dict[tuple[str, str, str, str], None] = {}
    for edge in graph.edges:
        src, dst = alias.get(edge.src, edge.src), alias.get(edge.dst, edge.dst)
        kind, label = edge.kind, edge.label
        here, there = iteration.get(edge.src), iteration.get(edge.dst)
        if here and there and here[1] == there[1] and here[0] != there[0]:
            kind, label = "loop", "next iteration"
        if src != dst or kind == "loop":
            edges[src, dst, kind, label] = None
    folded = sum(len(block) - 1 for block in groups.values())
    notes = [*graph.notes, f"loops folded: {folded + len(groups):,} nodes in {len(groups)} "
             "blocks (×N); --unroll draws all"]
    return replace(graph, nodes=nodes, edges=[Edge(*key) for key in edges], notes=notes,
                   clusters=list(graph.clusters)), alias


def first_iterations(graph: Graph, groups: dict[str, list[Node]], count: int) -> Graph:
    """Only the first `count` nodes of each repeated position (and a note of the rest)."""
    dropped = {node.id for nodes in groups.values() for node in nodes[count:]}
    if not dropped:
        return graph
    nodes = [node for node in graph.nodes if node.id not in dropped]
    edges = [e for e in graph.edges if e.src not in dropped and e.dst not in dropped]
    note = (f"--unroll {count}: the first {count} iterations drawn, {len(dropped):,} nodes "
            "of later ones left out")
    return replace(graph, nodes=nodes, edges=edges, notes=[*graph.notes, note],
                   clusters=list(graph.clusters))


NUMBER_SUFFIX = re.compile(r" \(\d+\)$")


def unnumbered(label: str) -> str:
    """`next_h (7)` -> `next_h`: a block stands for every iteration's tensor."""
    return NUMBER_SUFFIX.sub("", label)
