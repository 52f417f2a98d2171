"""`torchviz`: `make_dot(out, params=..., show_attrs=..., show_saved=...)`, drawn by agraph.

torchviz walks `out.grad_fn` and its `next_functions` and draws the backward graph with
graphviz; here the same walk builds agraph's neutral graph model (renderers/model.py: the
backward functions, AccumulateGrad with its leaf named from `params` and shown with its shape,
the saved tensors with `show_saved=True`), and agraph's renderer draws it. The object returned
behaves like graphviz's Digraph for what tutorials do with it: `.render("name",
format="png")`, `.save()`, `.pipe()`, `.source`; files are written only into `--figures DIR`
after the run. A `make_dot(...)` left as the program's last expression is drawn too, as a
notebook would show it.
"""

from __future__ import annotations

from typing import Any

from autograd_cli.language.objects import Namespace
from autograd_cli.library import drawings
from engine import budget
from engine.tensor import Tensor
from renderers.model import Edge, Graph, Node

MAX_NODES = 10_000
_SAVED_SLOTS = ("_saved_self", "_saved_other", "_saved_result")


def _shape(tensor: Any) -> str:
    return "(" + ", ".join(str(n) for n in tensor.shape) + ")"


def backward_model(roots: list[Any], names: dict[int, str], show_saved: bool) -> Any:
    """The graph torchviz draws for `roots`, as agraph's model."""
    graph = Graph(view="backward", legend=False)
    ids: dict[int, str] = {}

    def add(node: Any) -> None:
        if len(graph.nodes) >= MAX_NODES:
            raise budget.LimitError(f"make_dot: the graph has more than {MAX_NODES} nodes",
                                    "--max-graph-nodes")
        graph.nodes.append(node)

    stack: list[Any] = []
    for index, root in enumerate(roots):
        if not isinstance(root, Tensor):
            raise TypeError(f"make_dot() takes tensors, not {type(root).__name__}")
        root_id = f"out{index}"
        add(Node(root_id, "tensor", (names.get(id(root), "output"), _shape(root)), "root"))
        if root.grad_fn is not None:
            if id(root.grad_fn) not in ids:
                ids[id(root.grad_fn)] = f"fn{len(ids)}"
                stack.append(root.grad_fn)
            graph.edges.append(Edge(ids[id(root.grad_fn)], root_id, "next"))
    while stack:
        function = stack.pop()
        function_id = ids[id(function)]
        name = getattr(function, "grad_fn_name", None) or function.name()
        variable = getattr(function, "variable", None)
        if variable is not None:
            add(Node(function_id, "accumulate", (name,), "op"))
            leaf_id = f"{function_id}_leaf"
            add(Node(leaf_id, "tensor", (names.get(id(variable), ""), _shape(variable)), "leaf"))
            graph.edges.append(Edge(leaf_id, function_id, "data"))
        else:
            add(Node(function_id, "backward_fn", (name,), "op"))
        if show_saved:
            for slot in _SAVED_SLOTS:
                try:
                    saved = function.saved_attribute(slot)
                except (AttributeError, RuntimeError):
                    continue
                saved_id = f"{function_id}{slot}"
                add(Node(saved_id, "saved", (slot.removeprefix("_saved_"), _shape(saved)),
                         "saved"))
                graph.edges.append(Edge(saved_id, function_id, "saved"))
        for next_function, _ in function.next_functions:
            if next_function is None:
                continue
            if id(next_function) not in ids:
                ids[id(next_function)] = f"fn{len(ids)}"
                stack.append(next_function)
            graph.edges.append(Edge(ids[id(next_function)], function_id, "next"))
    return graph


class Digraph:
    """What `make_dot` returns: graphviz's Digraph, as far as tutorials use it."""

    PUBLIC_ATTRS = frozenset({"render", "save", "pipe", "source", "format", "view"})
    __slots__ = ("graph", "format")

    def __init__(self, graph: Any) -> None:
        self.graph = graph
        self.format = "pdf"  # graphviz's default

    @property
    def source(self) -> str:
        from renderers.dot import render_dot  # lazy: startup time (loaded only when used)

        return render_dot(self.graph)

    def drawing(self, name: str | None) -> drawings.Drawing:
        graph = self.graph

        def render(fmt: str) -> bytes:
            # lazy: startup time (loaded only when used)
            from autograd_cli.graph.rendering import render_model

            return render_model(graph, fmt)

        return drawings.Drawing(render, name, "graph")

    def render(self, filename: Any = None, directory: Any = None, view: bool = False,
               cleanup: bool = False, format: Any = None, **_options: Any) -> str:  # noqa: A002
        fmt = format or self.format
        if not isinstance(fmt, str) or fmt not in ("svg", "png", "pdf"):
            raise ValueError(f"unknown format: {fmt!r} (agraph writes svg, png or pdf)")
        name = f"{filename if isinstance(filename, str) else 'Digraph.gv'}.{fmt}"
        drawings.record(self.drawing(name))
        return name

    def view(self, *args: Any, **kwargs: Any) -> str:
        return self.render(*args, **kwargs)

    def save(self, filename: Any = None, directory: Any = None) -> str:
        name = filename if isinstance(filename, str) else "Digraph.gv"
        source = self.source.encode("utf-8")
        drawings.record(drawings.Drawing(lambda fmt: source, f"{name}.dot"
                                         if not name.endswith(".dot") else name, "graph"))
        return name

    def pipe(self, format: Any = None, encoding: Any = None) -> Any:  # noqa: A002
        # lazy: startup time (loaded only when used)
        from autograd_cli.graph.rendering import render_model

        fmt = format or self.format
        if not isinstance(fmt, str) or fmt not in ("svg", "png", "pdf", "dot"):
            raise ValueError(f"unknown format: {fmt!r} (agraph pipes svg, png, pdf or dot)")
        data = render_model(self.graph, fmt)
        return data.decode(encoding) if isinstance(encoding, str) else data

    def __repr__(self) -> str:
        return "<graphviz.graphs.Digraph object>"


LAST: list[Digraph] = []  # the graphs made, for a make_dot(...) left as the last expression


def namespace(runtime: Any, name: str) -> Namespace:
    LAST.clear()

    def make_dot(var: Any, params: Any = None, show_attrs: bool = False,
                 show_saved: bool = False, max_attr_chars: int = 50) -> Digraph:
        roots = list(var) if isinstance(var, (tuple, list)) else [var]
        names = {}
        if params is not None:
            for key, value in dict(params).items():
                names[id(value)] = str(key)
        made = Digraph(backward_model(roots, names, bool(show_saved)))
        LAST[:] = [made]
        return made

    return Namespace(name, {"make_dot": make_dot})
