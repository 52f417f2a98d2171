"""`graphviz`: the `Digraph` (and `Graph`) a program builds by hand, as Karpathy's micrograd
draws its Value graphs (`dot.node(name=..., label=..., shape='record')`, `dot.edge(a, b)`).

Nodes, edges and attributes are kept by the graphviz package itself (it only builds DOT text),
after agraph checks them: names and values are strings, every attribute is on an allow-list (no
`image=`, `shapefile=`, `fontpath=`, `URL=`, which would read files or put links in the SVG), and
a graph holds at most MAX_ITEMS statements. `.source` is graphviz's DOT text; `render()`,
`view()` and `pipe()` lay it out with Graphviz's `dot` (renderers/svg.py), and files are written
only into `--figures DIR` after the run, as torchviz's and pyplot's are.
"""

from __future__ import annotations

from typing import Any

import graphviz

from autograd_cli.language.objects import Namespace
from autograd_cli.library import drawings
from engine import budget
from engine.addresses import address_of
from renderers.svg import layout

MAX_ITEMS = 10_000  # nodes, edges and attribute statements of one graph
# What tutorials set. Not `image`, `shapefile`, `fontpath`, `fontname` (files), `URL`/`href`
# (links in the SVG), `size`/`ratio`/`dpi` (an image of any size).
ATTRIBUTES = frozenset("""
    label shape color fillcolor style fontcolor rankdir dir arrowhead arrowtail splines xlabel
    rank constraint bgcolor labelloc labeljust ordering headlabel taillabel peripheries
    concentrate compound newrank group minlen weight
""".split())
# numeric attributes, each with the largest value a layout stays a sensible size with
BOUNDED = {"fontsize": 100.0, "penwidth": 20.0, "width": 20.0, "height": 20.0,
           "arrowsize": 10.0, "nodesep": 10.0, "ranksep": 10.0}
FORMATS = ("svg", "png", "pdf")


def _text(value: Any, what: str) -> Any:
    """A name or label as graphviz quotes it: always a quoted string, never an HTML-like
    label (`<...>` could hold <IMG SRC=...>, which Graphviz would read from disk)."""
    if not isinstance(value, str):
        raise TypeError(f"graphviz: {what} must be a str, not {type(value).__name__}")
    return graphviz.nohtml(value)


def _checked(given: Any, keywords: dict[str, Any]) -> dict[str, Any]:
    """`_attributes=` and keyword attributes, checked; values as graphviz writes them."""
    pairs = dict(given or {})
    pairs.update(keywords)
    checked = {}
    for key, value in pairs.items():
        if not isinstance(key, str) or (key not in ATTRIBUTES and key not in BOUNDED):
            raise ValueError(f"graphviz attribute {key!r} is not supported by agraph")
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise TypeError(f"graphviz: attribute {key} must be a str or number, not "
                            f"{type(value).__name__}")
        if key in BOUNDED:
            try:
                number = float(value)
            except ValueError:
                raise ValueError(f"graphviz: attribute {key} must be a number") from None
            if not 0 <= number <= BOUNDED[key]:
                raise ValueError(f"graphviz: attribute {key}={value} is outside "
                                 f"0..{BOUNDED[key]:g}")
        checked[key] = _text(str(value), f"attribute {key}")
    return checked


class Digraph:
    """`graphviz.Digraph(...)`: a directed graph a program adds nodes and edges to."""

    PUBLIC_ATTRS = frozenset({"node", "edge", "edges", "attr", "source", "render", "view",
                              "pipe", "save", "format", "name", "filename", "directory",
                              "engine", "comment", "strict"})
    KIND = "Digraph"

    def __init__(self, name: Any = None, comment: Any = None, filename: Any = None,
                 directory: Any = None, format: Any = None, engine: Any = None,  # noqa: A002
                 encoding: Any = "utf-8", graph_attr: Any = None, node_attr: Any = None,
                 edge_attr: Any = None, body: Any = None, strict: bool = False) -> None:
        if body is not None:
            raise TypeError("graphviz: body= is not supported by agraph")
        self.name = None if name is None else str(_text(name, "name"))
        self.comment = None if comment is None else str(_text(comment, "comment"))
        self.format = "pdf" if format is None else self._format(format)
        self.engine = "dot" if engine is None else str(_text(engine, "engine"))
        if self.engine != "dot":
            raise ValueError(f"graphviz engine {self.engine!r} is not supported by agraph")
        self.directory = "" if directory is None else str(_text(directory, "directory"))
        self.filename = str(_text(filename, "filename")) if filename is not None else (
            f"{self.name}.gv" if self.name else f"{self.KIND}.gv")
        self.strict = bool(strict)
        maker = graphviz.Digraph if self.KIND == "Digraph" else graphviz.Graph
        self._graph = maker(name=self.name, comment=self.comment, strict=self.strict,
                            graph_attr=_checked(graph_attr, {}),
                            node_attr=_checked(node_attr, {}),
                            edge_attr=_checked(edge_attr, {}))
        self._items = 0

    @staticmethod
    def _format(fmt: Any) -> str:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format: {fmt!r} (agraph writes svg, png or pdf)")
        return str(fmt)

    def _count(self, items: int = 1) -> None:
        self._items += items
        if self._items > MAX_ITEMS:
            raise budget.LimitError(f"graphviz: a graph has more than {MAX_ITEMS} nodes and "
                                    "edges", "--max-graph-nodes")

    def node(self, name: Any, label: Any = None, _attributes: Any = None, **attrs: Any) -> None:
        self._count()
        self._graph.node(_text(name, "a node name"),
                         None if label is None else _text(label, "a label"),
                         **_checked(_attributes, attrs))

    def edge(self, tail_name: Any, head_name: Any, label: Any = None, _attributes: Any = None,
             **attrs: Any) -> None:
        self._count()
        self._graph.edge(_text(tail_name, "an edge's tail"), _text(head_name, "an edge's head"),
                         None if label is None else _text(label, "a label"),
                         **_checked(_attributes, attrs))

    def edges(self, tail_head_iter: Any) -> None:
        for tail, head in tail_head_iter:
            self.edge(tail, head)

    def attr(self, kw: Any = None, _attributes: Any = None, **attrs: Any) -> None:
        if kw is not None and kw not in ("graph", "node", "edge"):
            raise ValueError(f"attr statement must target graph, node, or edge: {kw!r}")
        self._count()
        self._graph.attr(kw, **_checked(_attributes, attrs))

    @property
    def source(self) -> str:
        return str(self._graph.source)

    def drawing(self, name: str | None) -> drawings.Drawing:
        source = self.source

        def render(fmt: str) -> bytes:
            return layout(source, fmt)

        return drawings.Drawing(render, name, "graph")

    def render(self, filename: Any = None, directory: Any = None, view: bool = False,
               cleanup: bool = False, format: Any = None, **_options: Any) -> str:  # noqa: A002
        fmt = self.format if format is None else self._format(format)
        stem = str(_text(filename, "filename")) if filename is not None else self.filename
        name = f"{stem}.{fmt}"
        drawings.record(self.drawing(name))
        return name

    def view(self, filename: Any = None, directory: Any = None, cleanup: bool = False) -> str:
        return self.render(filename, directory, cleanup=cleanup)

    def save(self, filename: Any = None, directory: Any = None) -> str:
        name = str(_text(filename, "filename")) if filename is not None else self.filename
        source = self.source.encode("utf-8")
        drawings.record(drawings.Drawing(lambda fmt: source, name, "graph"))
        return name

    def pipe(self, format: Any = None, encoding: Any = None) -> Any:  # noqa: A002
        data = layout(self.source, self.format if format is None else self._format(format))
        return data.decode(encoding) if isinstance(encoding, str) else data

    def __str__(self) -> str:
        return self.source

    def __repr__(self) -> str:
        return f"<graphviz.graphs.{self.KIND} object at {address_of(self)}>"


class Graph(Digraph):
    """`graphviz.Graph(...)`: the undirected kind."""

    KIND = "Graph"


def namespace(runtime: Any, name: str) -> Namespace:
    return Namespace(name, {"Digraph": Digraph, "Graph": Graph})
