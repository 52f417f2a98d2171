"""The model as one self-contained interactive HTML page (`agraph render --format html`).

Each view (forward, backward) is laid out by Graphviz to SVG, exactly as `--format svg` draws
it, and embedded inline; the models themselves (nodes with their attrs, edges, the timeline,
the source lines) are embedded as JSON. The page's script (renderers/html_assets/viewer.js,
no library) finds each node of the SVG by its model id (the `<title>` Graphviz writes) and adds
pan and zoom, a details panel, highlighting of what a node depends on and what depends on it,
search by name, and the timeline replay. Nothing is fetched: the page opens from disk, offline.
The same models give the same bytes.

Safety: the SVG's text is escaped by Graphviz (renderers/dot.py keeps program text plain), and
the JSON is written with `<`, `>`, `&` and the line separators as \\u escapes, so nothing a
program wrote can end the `<script>` element or be read as markup.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

from renderers.model import Graph

ASSETS = "renderers.html_assets"


def render_html(views: list[Graph], file_name: str = "") -> bytes:
    """The page: `views` in order (the first shown first)."""
    from renderers.dot import render_dot
    from renderers.svg import layout

    figures = []
    for index, graph in enumerate(views):
        svg = layout(render_dot(graph), "svg").decode("utf-8")
        svg = svg[svg.index("<svg"):]  # without the XML declaration and DOCTYPE
        figures.append(f'<div class="figure" data-view="{index}"'
                       f'{"" if index == 0 else " hidden"}>{svg}</div>')
    tabs = "".join(f'<button type="button" class="tab" data-view="{index}">'
                   f'{html.escape(graph.view)}</button>' for index, graph in enumerate(views))
    title = f"agraph: {file_name}" if file_name else "agraph"
    page = PAGE.format(title=html.escape(title), css=asset("viewer.css"), tabs=tabs,
                       figures="".join(figures), data=script_json([view_data(g) for g in views]),
                       script=asset("viewer.js"))
    return page.encode("utf-8")


def view_data(graph: Graph) -> dict[str, Any]:
    """What the script needs of a model: its JSON form (docs/rendering.md)."""
    return graph.to_dict()


def script_json(value: Any) -> str:
    """JSON that is safe inside a `<script>` element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                          ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escaped)
    return text


def asset(name: str) -> str:
    return resources.files(ASSETS).joinpath(name).read_text(encoding="utf-8")


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{css}</style>
</head>
<body>
<header>
  <strong>{title}</strong>
  <span class="tabs">{tabs}</span>
  <input id="search" type="search" placeholder="find a node by name" autocomplete="off">
  <button type="button" id="fit" title="fit the graph to the window">fit</button>
</header>
<main>
  <div id="canvas">{figures}</div>
  <aside id="details"><p class="hint">Click a node to see its details. Hover to see what it
  depends on and what depends on it. Drag to pan, wheel to zoom.</p></aside>
</main>
<footer id="timeline">
  <button type="button" id="first" title="start (Home)">|&#x25C0;</button>
  <button type="button" id="prev" title="step back (left arrow)">&#x25C0;</button>
  <input id="slider" type="range" min="0" max="0" value="0">
  <button type="button" id="next" title="step forward (right arrow)">&#x25B6;</button>
  <button type="button" id="last" title="end (End)">&#x25B6;|</button>
  <span id="status"></span>
</footer>
<script id="agraph-data" type="application/json">{data}</script>
<script>
{script}</script>
</body>
</html>
"""
