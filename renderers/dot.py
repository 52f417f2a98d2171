"""The model as Graphviz DOT text, built with the `graphviz` package (never by hand).

Every text from a program reaches DOT as an escaped, non-HTML string: backslashes doubled (so
`\\N`, `\\l` stay literal), quotes escaped by the package, control characters made spaces.
"""

from __future__ import annotations

from collections import Counter

import graphviz

from renderers.model import ROLE_MEANINGS, Edge, Graph, Node
from renderers.style import EDGE_STYLES, ROLE_STYLES

FONT = "Helvetica"
# A tensor that feeds (or a sink that receives from) more ops than this is drawn again beside
# each further op: one node with edges to every step of an unrolled loop makes edges that
# span the whole picture, which are unreadable and take Graphviz minutes to place.
FAN_LIMIT = 8
COPYABLE_KINDS = ("tensor", "accumulate", "saved", "note")

KIND_SHAPES = {"tensor": "box", "op": "ellipse", "backward_fn": "box", "accumulate": "box",
               "saved": "box", "sum_to": "invtrapezium", "note": "note"}

def escape_line(text: str) -> str:
    cleaned = "".join(c if c.isprintable() else " " for c in text)
    return cleaned.replace("\\", "\\\\")


def dot_label(lines: tuple[str, ...] | list[str]) -> str:
    """Lines joined by DOT's `\\n`, marked as plain text (never an HTML-like label)."""
    return graphviz.nohtml("\\n".join(escape_line(line) for line in lines))


def node_attrs(kind: str, role: str) -> dict[str, str]:
    style = dict(ROLE_STYLES.get(role, {}))
    extra = style.pop("style", "")
    rounded = ",rounded" if kind == "tensor" else ""
    return {"shape": KIND_SHAPES.get(kind, "box"), "style": f"filled{rounded}"
            + (f",{extra}" if extra else ""), **style}


def _add_node(target: graphviz.Digraph, node: Node, copy: bool = False) -> None:
    attrs = node_attrs(node.kind, node.role)
    if copy:  # a repeat of a node drawn elsewhere: dashed, no values
        attrs["style"] += ",dashed"
    target.node(node.id, label=dot_label(node.label), **attrs)


def _add_edge(target: graphviz.Digraph, edge: Edge) -> None:
    attrs = dict(EDGE_STYLES.get(edge.kind, {}))
    if edge.label:
        attrs["label"] = dot_label([edge.label])
    target.edge(edge.src, edge.dst, **attrs)


def spread_fans(graph: Graph) -> tuple[list[Node], list[Edge]]:
    """Copies of the nodes with too many edges, and the edges rewired to them."""
    nodes = {node.id: node for node in graph.nodes}
    outgoing = Counter(e.src for e in graph.edges)
    incoming = Counter(e.dst for e in graph.edges)
    seen: Counter[tuple[str, bool]] = Counter()
    copies: list[Node] = []
    edges: list[Edge] = []
    for edge in graph.edges:
        for end, is_source, degree in ((edge.src, True, outgoing), (edge.dst, False, incoming)):
            node = nodes.get(end)
            if node is None or node.kind not in COPYABLE_KINDS or degree[end] <= FAN_LIMIT:
                continue
            seen[end, is_source] += 1
            if seen[end, is_source] == 1:
                continue  # the first edge goes to the node itself
            copy = Node(f"{end}_{'use' if is_source else 'from'}{seen[end, is_source]}",
                        node.kind, node.label[:2 if node.kind == "accumulate" else 1],
                        node.role, "", {"copy_of": end})
            copies.append(copy)
            edge = Edge(copy.id, edge.dst, edge.kind, edge.label) if is_source else Edge(
                edge.src, copy.id, edge.kind, edge.label)
        edges.append(edge)
    return copies, edges


def render_dot(graph: Graph) -> str:
    """DOT source of the picture; the same model gives the same text, byte for byte."""
    graph_attrs = {"rankdir": graph.rankdir, "fontname": FONT, "fontsize": "10"}
    caption = ([graph.title] if graph.title else []) + graph.notes
    if caption:
        graph_attrs.update(label=dot_label(caption), labelloc="b")
    dot = graphviz.Digraph("agraph", graph_attr=graph_attrs,
                           node_attr={"fontname": FONT, "fontsize": "10"},
                           edge_attr={"fontname": FONT, "fontsize": "9"})
    copies, edges = spread_fans(graph)
    for node in graph.nodes:
        if not node.cluster:
            _add_node(dot, node)
    for node in copies:
        _add_node(dot, node, copy=True)
    for cluster in graph.clusters:
        with dot.subgraph(name=f"cluster_{cluster.id}") as sub:
            sub.attr(label=dot_label([cluster.label]), labelloc="t", style="dashed",
                     color="#7950f2")
            for node in graph.nodes:
                if node.cluster == cluster.id:
                    _add_node(sub, node)
    for edge in edges:
        _add_edge(dot, edge)
    roles = graph.roles()
    if graph.legend and roles:
        with dot.subgraph(name="cluster_legend") as legend:
            legend.attr(label="legend", labelloc="t", style="dashed", color="#adb5bd")
            for role in roles:
                kind = next(n.kind for n in graph.nodes if n.role == role)
                legend.node(f"legend_{role}", label=dot_label([ROLE_MEANINGS[role]]),
                            **node_attrs(kind, role))
            for left, right in zip(roles, roles[1:], strict=False):  # in ROLES order
                legend.edge(f"legend_{left}", f"legend_{right}", style="invis")
    return dot.source
