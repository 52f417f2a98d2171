"""The neutral graph model that every renderer draws: plain data, no engine objects.

The recorder (autograd_cli/graph/recorder.py) builds a `Graph`; renderers are pure functions
of it. Ids are made from source positions (`t9_5`: the tensor made at line 9, column 5), with
`_2`, `_3`, ... for repeats, so the same program gives the same ids on every run and machine.
Ids use only letters, digits and `_`. The JSON form (`to_dict`) is documented in
docs/rendering.md and is stable: fields may be added, never renamed or removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FORMAT_VERSION = 1

# What a node stands for.
NODE_KINDS = ("tensor", "op", "backward_fn", "accumulate", "saved", "sum_to", "note")
# How a node is drawn (one role per node; the recorder picks the most telling one).
ROLES = ("leaf", "no_grad", "intermediate", "retained", "root", "derivative", "grad_seed",
         "anomaly", "path", "op", "broadcast", "saved", "freed", "note")
# What an edge stands for ("path": on a chain-rule path that `agraph explain` shows).
EDGE_KINDS = ("data", "next", "saved", "grad", "cut", "path", "loop")

ROLE_MEANINGS = {  # the legend's key: short, it sits under the graph
    "leaf": "leaf",
    "no_grad": "no grad",
    "intermediate": "computed",
    "retained": "retain_grad()",
    "root": "backward()",
    "derivative": "create_graph",
    "grad_seed": "grad fed in",
    "anomaly": "NaN or inf",
    "path": "explained path",
    "op": "op",
    "broadcast": "summed to shape",
    "saved": "saved",
    "freed": "freed",
}

# Nodes with no edge, in a graph that has edges, are drawn together in this cluster.
UNCONNECTED = "unconnected"


@dataclass(frozen=True)
class Node:
    """One box: `label` is its text, line by line; `attrs` the same facts as data."""

    id: str
    kind: str
    label: tuple[str, ...]
    role: str = "intermediate"
    cluster: str = ""
    attrs: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    kind: str = "data"
    label: str = ""


@dataclass(frozen=True)
class Cluster:
    id: str
    label: str


@dataclass
class Graph:
    """A picture: nodes and edges in a fixed order, notes shown beside it, a legend flag."""

    view: str = "forward"
    rankdir: str = "TB"
    legend: bool = True
    title: str = ""
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    clusters: list[Cluster] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # The HTML view's extras (empty otherwise, and then left out of the JSON form): the replay
    # of the run, event by event, and the source lines that nodes and events point to.
    timeline: list[dict[str, Any]] = field(default_factory=list)
    source: dict[str, str] = field(default_factory=dict)

    def roles(self) -> list[str]:
        """The roles that occur, in ROLES order (what a legend explains)."""
        present = {node.role for node in self.nodes}
        return [role for role in ROLES if role in present and role in ROLE_MEANINGS]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the `graph` field of `agraph run --json` and `render --format json`."""
        extras = {key: value for key, value in (("timeline", self.timeline),
                                                ("source", self.source)) if value}
        return {
            "version": FORMAT_VERSION,
            "view": self.view,
            "rankdir": self.rankdir,
            "legend": self.legend,
            "title": self.title,
            "nodes": [{"id": n.id, "kind": n.kind, "role": n.role, "label": list(n.label),
                       "cluster": n.cluster, "attrs": n.attrs} for n in self.nodes],
            "edges": [{"src": e.src, "dst": e.dst, "kind": e.kind, "label": e.label}
                      for e in self.edges],
            "clusters": [{"id": c.id, "label": c.label} for c in self.clusters],
            "notes": list(self.notes),
            **extras,
        }


def group_unconnected(graph: Graph) -> Graph:
    """Put the nodes that no edge touches (a tensor named but never used in the graph) in a
    cluster labelled "not connected", so they do not sit among the graph unexplained."""
    if not graph.edges:
        return graph
    touched = {e.src for e in graph.edges} | {e.dst for e in graph.edges}
    alone = [n for n in graph.nodes if n.id not in touched and not n.cluster]
    if not alone:
        return graph
    ids = {n.id for n in alone}
    graph.nodes = [n for n in graph.nodes if n.id not in ids] + [
        Node(n.id, n.kind, n.label, n.role, UNCONNECTED, n.attrs) for n in alone]
    graph.clusters.append(Cluster(UNCONNECTED, "not connected"))
    return graph
