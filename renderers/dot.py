"""The model as Graphviz DOT text, built with the `graphviz` package (never by hand).

Every text from a program reaches DOT as an escaped, non-HTML string: backslashes doubled (so
`\\N`, `\\l` stay literal), quotes escaped by the package, control characters made spaces.
"""

from __future__ import annotations

import graphviz

from renderers.model import ROLE_MEANINGS, Edge, Graph, Node
from renderers.style import EDGE_STYLES, ROLE_STYLES

FONT = "Helvetica"

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


def _add_node(target: graphviz.Digraph, node: Node) -> None:
    target.node(node.id, label=dot_label(node.label), **node_attrs(node.kind, node.role))


def _add_edge(target: graphviz.Digraph, edge: Edge) -> None:
    attrs = dict(EDGE_STYLES.get(edge.kind, {}))
    if edge.label:
        attrs["label"] = dot_label([edge.label])
    target.edge(edge.src, edge.dst, **attrs)


def render_dot(graph: Graph) -> str:
    """DOT source of the picture; the same model gives the same text, byte for byte."""
    graph_attrs = {"rankdir": graph.rankdir, "fontname": FONT, "fontsize": "10"}
    caption = ([graph.title] if graph.title else []) + graph.notes
    if caption:
        graph_attrs.update(label=dot_label(caption), labelloc="b")
    dot = graphviz.Digraph("agraph", graph_attr=graph_attrs,
                           node_attr={"fontname": FONT, "fontsize": "10"},
                           edge_attr={"fontname": FONT, "fontsize": "9"})
    for node in graph.nodes:
        if not node.cluster:
            _add_node(dot, node)
    for cluster in graph.clusters:
        with dot.subgraph(name=f"cluster_{cluster.id}") as sub:
            sub.attr(label=dot_label([cluster.label]), style="dashed", color="#7950f2")
            for node in graph.nodes:
                if node.cluster == cluster.id:
                    _add_node(sub, node)
    for edge in graph.edges:
        _add_edge(dot, edge)
    roles = graph.roles()
    if graph.legend and roles:
        with dot.subgraph(name="cluster_legend") as legend:
            legend.attr(label="legend", style="dashed", color="#adb5bd")
            for role in roles:
                kind = "op" if role == "op" else "tensor"
                legend.node(f"legend_{role}", label=dot_label([ROLE_MEANINGS[role]]),
                            **node_attrs(kind, role))
    return dot.source
