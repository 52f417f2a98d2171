"""The model as a Mermaid flowchart (for Markdown docs that render Mermaid).

Label text is written with Mermaid's entity codes (`#60;` for `<`) for every character that is
not a letter, digit or plain punctuation, so nothing from a program is read as markup or syntax.
"""

from __future__ import annotations

from renderers.model import ROLE_MEANINGS, Edge, Graph, Node
from renderers.style import ROLE_STYLES

SAFE = set(" _.,:=+-*/()[]'")

SHAPES = {"tensor": ('("', '")'), "op": ('(["', '"])'), "backward_fn": ('["', '"]'),
          "accumulate": ('["', '"]'), "saved": ('[/"', '"/]'), "sum_to": ('[\\"', '"/]'),
          "note": ('>"', '"]')}

ARROWS = {"data": "-->", "next": "-->", "saved": "-.-", "grad": "-.->", "cut": "-.-",
          "path": "==>", "loop": "-.->"}


def escape(text: str) -> str:
    return "".join(c if (c.isalnum() and c.isascii()) or c in SAFE else f"#{ord(c)};"
                   for c in text)


def mermaid_label(lines: tuple[str, ...] | list[str]) -> str:
    return "<br/>".join(escape(line) for line in lines)


def _node_line(node: Node) -> str:
    start, end = SHAPES.get(node.kind, ('["', '"]'))
    return f"{node.id}{start}{mermaid_label(node.label)}{end}"


def _edge_line(edge: Edge) -> str:
    arrow = ARROWS.get(edge.kind, "-->")
    label = f'|"{escape(edge.label)}"|' if edge.label else ""
    return f"{edge.src} {arrow}{label} {edge.dst}"


def _class_def(role: str) -> str:
    style = ROLE_STYLES.get(role, {})
    parts = [f"fill:{style.get('fillcolor', '#ffffff')}",
             f"stroke:{style.get('color', '#333333')}"]
    if "fontcolor" in style:
        parts.append(f"color:{style['fontcolor']}")
    if "dashed" in style.get("style", ""):
        parts.append("stroke-dasharray:4 3")
    if "penwidth" in style:
        parts.append(f"stroke-width:{style['penwidth']}px")
    return f"    classDef {role} {','.join(parts)}"


def render_mermaid(graph: Graph) -> str:
    """`flowchart TB` text; the same model gives the same text, byte for byte."""
    out = [f"flowchart {graph.rankdir}"]
    for note in ([graph.title] if graph.title else []) + graph.notes:
        out.append(f"    %% {escape(note)}")
    out += [f"    {_node_line(n)}" for n in graph.nodes if not n.cluster]
    for cluster in graph.clusters:
        out.append(f'    subgraph {cluster.id}["{escape(cluster.label)}"]')
        out += [f"        {_node_line(n)}" for n in graph.nodes if n.cluster == cluster.id]
        out.append("    end")
    out += [f"    {_edge_line(e)}" for e in graph.edges]
    roles = graph.roles()
    if graph.legend and roles:
        out.append('    subgraph legend["legend"]')
        for role in roles:
            shape = ("([\"", "\"])") if role == "op" else ('("', '")')
            out.append(f"        legend_{role}{shape[0]}{escape(ROLE_MEANINGS[role])}{shape[1]}")
        out.append("    end")
    used = [role for role in ROLE_STYLES if any(n.role == role for n in graph.nodes)
            or (graph.legend and role in roles)]
    for role in used:
        out.append(_class_def(role))
        members = [n.id for n in graph.nodes if n.role == role]
        if graph.legend and role in roles:
            members.append(f"legend_{role}")
        out.append(f"    class {','.join(members)} {role}")
    return "\n".join(out) + "\n"
