"""The model as Graphviz DOT text, built with the `graphviz` package (never by hand).

Every text from a program reaches DOT as an escaped, non-HTML string: backslashes doubled (so
`\\N`, `\\l` stay literal), quotes escaped by the package, control characters made spaces.
The one HTML-like label is the graph's own (the caption and the legend's key, a table): every
text in it is HTML-escaped (`html_text`).
"""

from __future__ import annotations

import html
import math
from collections import Counter

import graphviz

from renderers.model import ROLE_MEANINGS, UNCONNECTED, Edge, Graph, Node
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
    key = [role for role in graph.roles() if role not in UNEXPLAINED] if (
        graph.legend and graph.edges) else []  # a lone node's label says all a key would
    caption = caption_label(caption_lines(graph), key, estimated_size(graph))
    if caption is not None:
        graph_attrs.update(label=caption, labelloc="b", labeljust="l")
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
                     color="#adb5bd" if cluster.id == UNCONNECTED else "#7950f2")
            for node in graph.nodes:
                if node.cluster == cluster.id:
                    _add_node(sub, node)
    for edge in edges:
        _add_edge(dot, edge)
    return dot.source


UNEXPLAINED = ("op",)  # an ellipse with an op's name needs no key
CHAR_WIDTH = 4.4  # points per character of Helvetica at 10pt, on average
KEY_CHAR_WIDTH = 4.4  # ... at the legend's 8pt, and a swatch with its spacing:
KEY_SWATCH_WIDTH = 32.0
NODE_SEP = 18.0  # points between two nodes of a rank (Graphviz's nodesep 0.25in)
RANK_SEP = 36.0  # points between ranks (ranksep 0.5in)
LINE_HEIGHT = 12.0  # points per label line at 10pt
KEY_ROW_HEIGHT = 10.0  # points per row of the legend, after a first 9
KEY_MARGIN = 9.0


def caption_lines(graph: Graph) -> list[str]:
    """The title and the notes, each once (a note that a note node already shows is not
    repeated under the picture)."""
    shown = {node.label[0] for node in graph.nodes if node.kind == "note" and node.label}
    return ([graph.title] if graph.title else []) + [n for n in graph.notes if n not in shown]


def html_text(text: str) -> str:
    """Text for an HTML-like label: every markup character escaped, control characters made
    spaces, so a program's text stays text."""
    return html.escape("".join(c if c.isprintable() else " " for c in text), quote=True)


def estimated_size(graph: Graph) -> tuple[float, float]:
    """About how wide and high Graphviz will draw the graph, in points, without laying it out:
    nodes are put in ranks by their longest path from a source; a rank is as wide as its
    labels. (The legend's rows are chosen to add the least area to the picture.)"""
    incoming: dict[str, list[str]] = {}
    outgoing: dict[str, list[str]] = {}
    for edge in graph.edges:
        outgoing.setdefault(edge.src, []).append(edge.dst)
        incoming.setdefault(edge.dst, []).append(edge.src)
    waiting = {node.id: len(incoming.get(node.id, ())) for node in graph.nodes}
    rank = dict.fromkeys(waiting, 0)
    ready = [node_id for node_id, count in waiting.items() if count == 0]
    order: list[str] = []
    while ready:  # Kahn's order; nodes on a cycle keep rank 0
        current = ready.pop()
        order.append(current)
        for target in outgoing.get(current, ()):
            if target in waiting:
                rank[target] = max(rank[target], rank[current] + 1)
                waiting[target] -= 1
                if waiting[target] == 0:
                    ready.append(target)
    for node_id in reversed(order):  # Graphviz pulls a source down to just above its users
        users = [rank[target] for target in outgoing.get(node_id, ()) if target in rank]
        if node_id not in incoming and users:
            rank[node_id] = min(users) - 1
    widths: dict[int, list[float]] = {}
    heights: dict[int, float] = {}
    for node in graph.nodes:
        width = CHAR_WIDTH * max((len(line) for line in node.label), default=4) + 16
        widths.setdefault(rank[node.id], []).append(width * (1.5 if node.kind == "op" else 1))
        height = LINE_HEIGHT * max(1, len(node.label)) + 10
        heights[rank[node.id]] = max(heights.get(rank[node.id], 0.0), height)
    if not widths:
        return 0.0, 0.0
    across = max(sum(ws) + NODE_SEP * (len(ws) - 1) for ws in widths.values())
    along = sum(heights.values()) + RANK_SEP * (len(heights) - 1)
    if graph.rankdir in ("LR", "RL"):
        along = sum(max(ws) for ws in widths.values()) + RANK_SEP * (len(widths) - 1)
        across = max(heights.values()) * max(map(len, widths.values()))
        return along, across
    return across, along


def key_rows(roles: list[str], size: tuple[float, float]) -> list[list[str]]:
    """The legend's entries in rows: as many rows as add the least area to a picture of about
    `size` (a wide key widens a small picture; each row adds a row's height)."""
    graph_width, graph_height = size
    entries = [KEY_SWATCH_WIDTH + KEY_CHAR_WIDTH * len(ROLE_MEANINGS[role]) for role in roles]
    best: list[list[str]] = []
    best_area = math.inf
    limits = [graph_width] + [sum(entries) / count for count in range(1, len(roles) + 1)]
    for limit in limits:
        rows, width = fill_rows(roles, entries, limit)
        area = max(graph_width, width) * (graph_height + KEY_MARGIN + KEY_ROW_HEIGHT * len(rows))
        if area < best_area - 1e-6:
            best, best_area = rows, area
    return best


def fill_rows(roles: list[str], entries: list[float], limit: float
              ) -> tuple[list[list[str]], float]:
    """Entries in order, a new row when the next would pass `limit`; (rows, widest row)."""
    rows: list[list[str]] = []
    used = widest = 0.0
    for role, entry in zip(roles, entries, strict=True):
        if rows and used + entry <= limit + 1e-6:
            rows[-1].append(role)
            used += entry
        else:
            rows.append([role])
            used = entry
        widest = max(widest, used)
    return rows, widest


def caption_label(lines: list[str], roles: list[str], size: tuple[float, float]) -> str | None:
    """The label under the graph: the caption lines, then the legend as a compact key (a small
    swatch per role beside its meaning, in the rows that add the least area). The graph's
    label is the one HTML-like label agraph writes (a table is what keeps the key short);
    every text in it is escaped by `html_text`."""
    if not lines and not roles:
        return None
    rows = [f'<TR><TD ALIGN="LEFT">{html_text(line)}</TD></TR>' for line in lines]
    key = []
    for entries in key_rows(roles, size):
        cells = []
        for role in entries:
            style = ROLE_STYLES.get(role, {})
            cells.append(f'<TD WIDTH="12" HEIGHT="8" FIXEDSIZE="TRUE" BORDER="1" '
                         f'BGCOLOR="{style.get("fillcolor", "#ffffff")}" '
                         f'COLOR="{style.get("color", "#444444")}"></TD><TD ALIGN="LEFT">'
                         f'<FONT POINT-SIZE="8">{html_text(ROLE_MEANINGS[role])}</FONT></TD>'
                         '<TD WIDTH="10"></TD>')
        key.append("<TR>" + "".join(cells) + "</TR>")
    if key and rows:  # a table of its own, so long caption lines do not spread its columns
        rows.append(f'<TR><TD ALIGN="LEFT">{TABLE}{"".join(key)}</TABLE></TD></TR>')
    else:
        rows += key
    return f"<{TABLE}{''.join(rows)}</TABLE>>"


TABLE = '<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="1" CELLPADDING="0">'
