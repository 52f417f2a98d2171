"""What autograd built while a program ran, kept as small summaries, and the views of it.

`GraphRecorder` is the observer of engine.recording: the engine reports each op (`on_op`) and
each node a backward pass runs (`on_backward_node`); the interpreter reports each binding
(`on_bind`). The recorder keeps one `Record` per tensor that autograd tracked: where it was made,
by which op from which inputs, its shape and dtype, its value only when small, its names. It
never keeps arrays of any size nor the engine's graph: records of tensors the program dropped are
freed with them, so a long training loop keeps only its last iteration (plus the one backward
pass asked for with `keep_pass`).

`forward_graph` and `backward_graph` turn a `Snapshot` (which records, which roots) into the
neutral model of renderers/model.py.

Backward passes are numbered by the engine (`recording.backward_passes`); the recorder counts
those that ran at least one node, so `--pass N` is the N-th backward()/autograd.grad that walked
a graph. Ops made while a pass runs (`recording.backward_depth`) with create_graph=True form the
derivative graph.
"""

from __future__ import annotations

import itertools
import weakref
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np

from autograd_cli.graph.iterations import loop_iterations
from autograd_cli.graph.labels import numbered, public_op_name
from autograd_cli.graph.summary import (  # noqa: F401 - the recorder's names for them
    Summary,
    all_finite,
    dtype_name,
    op_display_name,
    scalar_text,
    shape_text,
    shorten,
    snake_case,
    summarize,
    value_changed,
    value_text,
)
from autograd_cli.language.bounds import Bound
from engine import grad_mode, recording
from engine.autograd import AccumulateGrad
from engine.nn.module import Module
from engine.tensor import Tensor
from renderers.loops import fold_loops, unnumbered
from renderers.model import Cluster, Edge, Graph, Node, group_unconnected

DEFAULT_MAX_NODES = 300
VISITS_KEPT = 16  # backward visits kept per record (a training loop visits a leaf each step)
SLOT_NAMES = ("self", "other")  # PyTorch's names of a saved first/second input



# --- records ---------------------------------------------------------------------------------

class Record:
    """One tensor that autograd tracked (or that the program named): small facts only."""

    __slots__ = ("seq", "line", "col", "op", "grad_fn", "primary", "inputs", "needs", "scalars",
                 "elementwise",
                 "summary", "requires_grad", "name", "grad", "flow", "retained", "root",
                 "seed", "derived", "saved", "tensor", "node", "step", "visits", "__weakref__")

    def __init__(self, seq: int, location: tuple[int, int], summary: Summary,
                 requires_grad: bool, grad_fn: str | None = None) -> None:
        self.seq = seq
        self.line, self.col = location
        self.op: str | None = None  # the op that made it (`add`), None if not made by an op
        self.grad_fn = grad_fn  # None for a leaf
        self.primary: Record | None = None  # output 0's record, for output 1, 2... of an op
        self.inputs: tuple[Record, ...] = ()
        self.needs: tuple[bool, ...] = ()  # which inputs required grad when the op ran
        self.scalars: tuple[str | None, ...] = ()  # the op's arguments, None where a tensor
        self.elementwise = False
        self.summary = summary
        self.requires_grad = requires_grad
        self.name: tuple[str, int] | None = None  # first name bound, and when
        self.grad: Summary | None = None  # `.grad` (leaves, retain_grad), as last seen
        self.flow: Summary | None = None  # the gradient that last reached its grad_fn
        self.retained = False
        self.root = False  # a backward pass started at this tensor
        self.seed = False  # fed as the gradient into a create_graph backward
        self.derived = False  # made by a backward pass with create_graph=True
        self.saved: tuple[tuple[str, Summary], ...] = ()
        self.tensor: weakref.ref[Tensor] | None = None  # leaves only, to refresh value and grad
        self.node: weakref.ref[Any] | None = None  # the grad_fn, while it lives
        self.step = 0  # the statement (counted from 1 as the program ran) that made it
        # the last backward nodes run for it: (event number, pass, grad or grad_output then,
        # the line of the backward() call)
        self.visits: tuple[tuple[int, int, Summary | None, int], ...] = ()

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def expands(self) -> bool:
        """Is the op that made it drawn? Autograd's ops always; an op outside autograd only
        to explain an unnamed tensor that requires no grad (`x.t()` fed to `mm`)."""
        if self.grad_fn is not None:
            return True
        return self.op is not None and not self.requires_grad and self.name is None

    def broadcast(self, index: int) -> bool:
        """Was input `index` broadcast (so its gradient is summed back, a `sum_to` step)?"""
        return self.elementwise and self.inputs[index].summary.shape != self.summary.shape


@dataclass
class PassCapture:
    """The nodes one backward pass walked, with the values and grads of that moment."""

    number: int
    records: dict[Record, None] = field(default_factory=dict)  # an ordered set
    roots: list[Record] = field(default_factory=list)
    values: dict[Record, Summary] = field(default_factory=dict)
    grads: dict[Record, Summary] = field(default_factory=dict)
    flows: dict[Record, Summary] = field(default_factory=dict)


@dataclass
class Snapshot:
    """What a view draws: records (those in `expand` with their op), roots, grad links."""

    records: list[Record]
    expand: set[Record]
    roots: set[Record]
    values: dict[Record, Summary]
    grads: dict[Record, Summary]
    flows: dict[Record, Summary]
    grad_links: list[tuple[Record, Record]]
    names: dict[Record, str]
    notes: list[str]
    program: list[str] = field(default_factory=list)  # the source lines (the HTML view's)
    at_end: bool = True  # leaves' values are the program's last (not one pass's)


class GraphRecorder:
    """The observer: install with `engine.recording.set_observer(recorder)` around a run."""

    backward_arrays = True  # a backward node's gradients may come as numpy arrays (summarized)

    def __init__(self, keep_pass: int | None = None) -> None:
        self.keep_pass = keep_pass
        self.passes = 0
        self.captured: PassCapture | None = None
        self.variables: dict[str, Any] = {}  # last value bound to each name
        self._sequence = itertools.count(1)
        self._binds = itertools.count(1)
        self._by_tensor: dict[int, Record] = {}  # id(leaf tensor) -> record, while it lives
        # id(grad_fn) -> (weakref to it, records of its outputs), while it lives
        self._by_node: dict[int, tuple[weakref.ref[Any], list[Record]]] = {}
        self._engine_pass = -1  # recording.backward_passes at the last backward node
        self._statement: tuple[int, int, int] | None = None  # first line, last line, col
        self._step = 0  # statements run so far
        self._events = itertools.count(1)  # backward nodes run so far
        self.source_lines: list[str] = []  # the program's text, for the HTML view's details

    # --- the observer interface ----------------------------------------------------------

    def on_statement(self, node: Any) -> None:
        """The interpreter starts a statement: positions of ops fall back to it."""
        self._step += 1
        self._statement = (node.lineno, getattr(node, "end_lineno", None) or node.lineno,
                           node.col_offset + 1)

    def set_variables(self, variables: Any) -> None:
        """The program's variables when it ended (the roots of the default view)."""
        self.variables = {name: value for name, value in variables.items()
                          if named_tensors(name, value)}

    def _here(self) -> tuple[int, int]:
        """Where the program is: the last call's position if it is in the current statement
        (operators do not update it), else the statement's."""
        line, col = recording.location
        if self._statement is None:
            return line, col
        first, last, start = self._statement
        return (line, col) if first <= line <= last else (first, start)

    def on_op(self, op_name: str, grad_fn: Any, inputs: Iterable[Any], output: Any) -> None:
        if grad_fn is None and not grad_mode.is_grad_enabled():
            return  # under no_grad, or inside a backward without create_graph: no graph
        tensors: list[Record] = []
        needs: list[bool] = []
        scalars: list[str | None] = []
        for arg in inputs:
            if isinstance(arg, Tensor):
                tensors.append(self._record_of(arg))
                needs.append(arg.requires_grad)
                scalars.append(None)
            elif arg is not None:
                scalars.append(scalar_text(arg))
        outputs = output if isinstance(output, (tuple, list)) else (output,)
        if grad_fn is None:
            for source in tensors:
                if source.grad_fn is None:  # one op outside autograd is drawn, no more: a
                    source.op = None        # loop like `h = h * 0.9` must not chain records
                    source.inputs, source.needs, source.scalars = (), (), ()
            records = [self._record_of(o) for o in outputs]
            for record in records:
                record.op = public_op_name(op_name)
        else:
            records = self._new_node_records(grad_fn, [summarize(o) for o in outputs])
            records[0].elementwise = bool(getattr(grad_fn, "promotes", False))
            records[0].saved = saved_summaries(grad_fn)
        for record in records:
            record.inputs, record.needs = tuple(tensors), tuple(needs)
            record.scalars = tuple(scalars)
            if record is not records[0]:
                record.primary = records[0]

    def on_bind(self, name: str, value: Any, line: int) -> None:
        """The program bound `name` (a tensor, or a tuple/list of tensors) at `line`."""
        order = next(self._binds)
        named = named_tensors(name, value)
        if not named:
            self.variables.pop(name, None)
            return
        self.variables[name] = value
        where = self._here() if self._statement or recording.location[0] == line else (line, 0)
        for label, tensor in named:
            record = self._record_of(tensor, where)
            if record.name is None:
                record.name = (label, order)

    def on_backward_node(self, node: Any, grads_in: Any, grads_out: Any) -> None:
        starts = recording.backward_passes != self._engine_pass
        if starts:
            self._engine_pass = recording.backward_passes
            self._start_pass()
        create_graph = grad_mode.is_grad_enabled()  # the engine runs backward in this mode
        leaf = node.variable if isinstance(node, AccumulateGrad) else None
        record = self._record_of(leaf) if leaf is not None else self._node_records(node)[0]
        if starts:
            record.root = True
        grad_in = next((g for g in grads_in if isinstance(g, (Tensor, np.ndarray))), None)
        if grad_in is not None and not isinstance(node, AccumulateGrad):
            record.flow = summarize(grad_in)
        if create_graph:
            for g in grads_in:
                seed = self._by_tensor.get(id(g)) if isinstance(g, Tensor) else None
                if seed is not None and g.grad_fn is None:
                    seed.seed = True
        if leaf is not None and leaf.grad is not None:
            record.grad = summarize(leaf.grad)
        shown = record.grad if leaf is not None else record.flow
        record.visits = (*record.visits[1 - VISITS_KEPT:],
                         (next(self._events), self.passes, shown, self._here()[0]))
        for ref in (getattr(node, "retained", None) or {}).values():
            tensor = ref()
            if tensor is not None and tensor.grad is not None:
                retained = self._record_of(tensor)
                retained.retained = True
                retained.grad = summarize(tensor.grad)
        captured = self.captured
        if captured is not None and captured.number == self.passes:
            captured.records[record] = None
            if starts:
                captured.roots.append(record)
            if leaf is not None:
                captured.values[record] = summarize(leaf)
            for source, target in ((record.grad, captured.grads), (record.flow, captured.flows)):
                if source is not None:
                    target[record] = source

    # --- bookkeeping ---------------------------------------------------------------------

    def _start_pass(self) -> None:
        self.passes += 1
        if self.passes == self.keep_pass:
            self.captured = PassCapture(self.passes)

    def _record_of(self, tensor: Tensor, where: tuple[int, int] | None = None) -> Record:
        """The record of a tensor as it is now (its grad_fn's, or its own for a leaf)."""
        node = tensor.grad_fn
        if node is not None:
            records = self._node_records(node, tensor)
            return records[min(tensor.output_nr, len(records) - 1)]
        record = self._by_tensor.get(id(tensor))
        if record is None:
            record = Record(next(self._sequence), where or self._here(),
                            summarize(tensor), tensor.requires_grad)
            record.derived = recording.backward_depth > 0
            record.step = self._step
            key = id(tensor)
            record.tensor = weakref.ref(tensor, partial(self._forget_tensor, key))
            self._by_tensor[key] = record
        record.requires_grad = tensor.requires_grad
        return record

    def _node_records(self, node: Any, tensor: Tensor | None = None) -> list[Record]:
        """The records of a grad_fn's outputs (made now if the recorder did not see the op)."""
        entry = self._by_node.get(id(node))
        if entry is not None:
            return entry[1]
        summary = summarize(tensor) if tensor is not None else Summary((), "?", None, True, 0)
        return self._new_node_records(node, [summary])

    def _new_node_records(self, node: Any, summaries: list[Summary]) -> list[Record]:
        name = getattr(node, "grad_fn_name", None) or type(node).__name__
        where = self._here()
        records = [Record(next(self._sequence), where, summary, True, name)
                   for summary in summaries]
        key = id(node)
        ref = weakref.ref(node, partial(self._forget_node, key))
        for record in records:
            record.op = op_display_name(name)
            record.node = ref
            record.derived = recording.backward_depth > 0
            record.step = self._step
        self._by_node[key] = (ref, records)
        return records

    def _forget_tensor(self, key: int, ref: weakref.ref[Any]) -> None:
        """A leaf tensor died: drop its entry (unless a newer tensor took its id)."""
        record = self._by_tensor.get(key)
        if record is not None and record.tensor is ref:
            del self._by_tensor[key]

    def _forget_node(self, key: int, ref: weakref.ref[Any]) -> None:
        entry = self._by_node.get(key)
        if entry is not None and entry[0] is ref:
            del self._by_node[key]

    # --- what the views draw -------------------------------------------------------------

    def snapshot(self, pass_number: int | None = None, bound: Bound | None = None) -> Snapshot:
        """The graph of the program's variables now, or the one backward pass N walked; the
        walk ticks `bound` (autograd_cli/language/bounds.py)."""
        bound = bound or Bound.unbounded()
        if pass_number is not None:
            return self._pass_snapshot(pass_number, bound)
        roots: list[Record] = []
        values: dict[Record, Summary] = {}
        grads: dict[Record, Summary] = {}
        links: list[tuple[Record, Record]] = []
        for name in sorted(self.variables):
            bound.tick()
            for _, tensor in named_tensors(name, self.variables[name]):
                record = self._record_of(tensor)
                roots.append(record)
                if record.is_leaf:
                    values[record] = summarize(tensor)
                if tensor.is_leaf or tensor.retains_grad:
                    grad = tensor.grad
                    if grad is not None:
                        grads[record] = summarize(grad)
                        if grad.grad_fn is not None:  # create_graph: the derivative graph
                            link = (record, self._record_of(grad))
                            if link not in links:
                                links.append(link)
                if tensor.retains_grad:
                    record.retained = True
        records, expand = reachable(roots + [target for _, target in links], bound=bound)
        for record in records:
            if record not in grads and record.grad is not None:
                grads[record] = record.grad
        bound.check()
        notes = [] if records else ["no tensors were recorded"]
        return Snapshot(records, expand, {r for r in records if r.root}, values, grads,
                        {r: r.flow for r in records if r.flow is not None}, links,
                        display_names(records, bound), notes, self.source_lines)

    def _pass_snapshot(self, number: int, bound: Bound) -> Snapshot:
        captured = self.captured
        if captured is None or captured.number != number:
            raise ValueError(f"pass {number} was not kept: make the recorder with "
                             f"keep_pass={number}")
        records, expand = reachable(list(captured.records), captured.records, bound)
        notes = [f"the graph that backward pass {number} of {self.passes} walked"]
        return Snapshot(records, expand, set(captured.roots), captured.values, captured.grads,
                        captured.flows, [], display_names(records, bound), notes,
                        self.source_lines, at_end=False)


def saved_summaries(node: Any) -> tuple[tuple[str, Summary], ...]:
    """What a grad_fn saved for backward: (slot name, summary), e.g. ('self', ...)."""
    saved = []
    for index, value in enumerate(getattr(node, "saved", None) or ()):
        if isinstance(value, Tensor):
            slot = SLOT_NAMES[index] if index < len(SLOT_NAMES) else f"input {index}"
            saved.append((slot, summarize(value, values=False)))
    output = getattr(node, "saved_output", None)
    if isinstance(output, tuple) and output:  # (array, version counter, version)
        output = output[0]
    if isinstance(output, (Tensor, np.ndarray)):
        saved.append(("result", summarize(output, values=False)))
    return tuple(saved)


def named_tensors(name: str, value: Any) -> list[tuple[str, Tensor]]:
    """The tensors a binding names: `t`, `grads[0]` in a tuple or list, `model.weight`."""
    if isinstance(value, Tensor):
        return [(name, value)]
    if isinstance(value, (tuple, list)) and len(value) <= 16:
        return [(f"{name}[{i}]", v) for i, v in enumerate(value) if isinstance(v, Tensor)]
    if isinstance(value, Module):
        if "_parameters" not in value.__dict__:  # before its __init__ ran (`self` bound)
            return []
        try:
            return [(f"{name}.{key}", p) for key, p in itertools.islice(
                value.named_parameters(), 64) if isinstance(p, Tensor)]
        except (AttributeError, TypeError):  # the program put something else than modules
            return []  # into `m._modules` (or `_parameters`): PyTorch fails to walk it too
    if any("_agraph_members" in klass.__dict__ for klass in type(value).__mro__):
        own = getattr(value, "__dict__", {})  # an object of a program class: `self.a`
        return [(f"{name}.{key}", v) for key, v in itertools.islice(own.items(), 64)
                if isinstance(v, Tensor) and not key.startswith("_")]
    return []


def reachable(roots: list[Record], walked: dict[Record, None] | None = None,
              bound: Bound | None = None) -> tuple[list[Record], set[Record]]:
    """The records drawn from these roots (in creation order) and those whose op is drawn;
    with `walked` (one backward pass), autograd's nodes only if that pass ran them."""
    bound = bound or Bound.unbounded()
    seen: set[Record] = set()
    expand: set[Record] = set()
    stack = list(roots)
    while stack:
        bound.tick()
        record = stack.pop()
        if record in seen:
            continue
        seen.add(record)
        if record.expands and (walked is None or record.is_leaf or record in walked):
            expand.add(record)
            stack.extend(record.inputs)
    return sorted(seen, key=lambda r: r.seq), expand


def display_names(records: list[Record], bound: Bound | None = None) -> dict[Record, str]:
    """Each tensor by the first name it was bound to (a function's parameter does not rename
    a tensor); drawn tensors that share a name are numbered in binding order: y, y (2), y (3)."""
    bound = bound or Bound.unbounded()
    named: dict[str, list[tuple[int, Record]]] = {}
    for record in records:
        bound.tick()
        if record.name is not None:
            name, order = record.name
            named.setdefault(name, []).append((order, record))
    labels: dict[Record, str] = {}
    for name, holders in named.items():
        for rank, (_, record) in enumerate(sorted(holders, key=lambda h: h[0])):
            labels[record] = shorten(numbered(name, rank + 1))
    return labels


# --- the views -------------------------------------------------------------------------------

@dataclass(frozen=True)
class ViewOptions:
    view: str = "forward"
    values: bool = True
    grads: bool = True
    show_saved: bool = False
    legend: bool = True
    rankdir: str = "TB"
    max_nodes: int = DEFAULT_MAX_NODES
    title: str = ""
    details: bool = False  # the HTML view's extras: timeline, source lines, ops' saved tensors
    unroll: int | None = None  # loops: None folded, 0 every iteration, N the first N


DERIVATIVE = Cluster("derivative", "derivative graph (create_graph=True)")


class _Ids:
    """Ids from source positions: `t9_5`, `op9_5`, then `t9_5_2` for a repeat."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def make(self, prefix: str, record: Record) -> str:
        base = f"{prefix}{record.line}_{record.col}"
        count = self.counts[base] = self.counts.get(base, 0) + 1
        return base if count == 1 else f"{base}_{count}"


def derivative_records(records: list[Record]) -> set[Record]:
    """Records a backward pass made with create_graph=True (the derivative graph)."""
    return {record for record in records if record.derived}


def tensor_role(record: Record, snap: Snapshot, derived: set[Record]) -> str:
    summary = snap.values.get(record, record.summary)
    grad = snap.grads.get(record)
    if not summary.finite or (grad is not None and not grad.finite):
        return "anomaly"
    if record in snap.roots and not record.is_leaf:
        return "root"
    if record.seed:
        return "grad_seed"
    if record.is_leaf:
        return "leaf" if record.requires_grad else "no_grad"
    if record.retained:
        return "retained"
    return "derivative" if record in derived else "intermediate"


def tensor_lines(record: Record, snap: Snapshot, options: ViewOptions,
                 fallback: str) -> tuple[list[str], dict[str, Any]]:
    summary = snap.values.get(record, record.summary)
    name = snap.names.get(record)
    lines = [name or fallback, shape_text(summary)]
    grad = snap.grads.get(record)
    attrs: dict[str, Any] = {"name": name, "shape": list(summary.shape), "dtype": summary.dtype,
                             "requires_grad": record.requires_grad, "is_leaf": record.is_leaf,
                             "grad_fn": record.grad_fn, "retains_grad": record.retained,
                             "has_grad": grad is not None, "line": record.line, "col": record.col}
    value = value_text(summary)
    if options.values and value is not None:
        changed = snap.at_end and summary is not record.summary and value_changed(
            record.summary, summary)
        lines.append(f"= {value} (end of program)" if changed else f"= {value}")
        attrs["value"] = value
        if changed:  # a leaf updated after the ops drawn used it (an optimizer step)
            attrs["value_when_used"] = value_text(record.summary)
    if options.grads and grad is not None:
        text = value_text(grad)
        lines.append(f"grad = {text}" if text is not None else f"grad {shape_text(grad)}")
        if text is not None:
            attrs["grad"] = text
    return lines, attrs


def op_label(record: Record) -> str:
    name = record.op or "?"
    if not any(s is not None for s in record.scalars):
        return name
    return f"{name}({', '.join('·' if s is None else s for s in record.scalars)})"


def forward_graph(snap: Snapshot, options: ViewOptions, bound: Bound | None = None) -> Graph:
    """Tensors and the ops between them, in the direction data flowed."""
    bound = bound or Bound.unbounded()
    graph = Graph("forward", options.rankdir, options.legend, options.title,
                  notes=list(snap.notes))
    ids = _Ids()
    tensor_id = {record: ids.make("t", record) for record in snap.records}
    op_id: dict[Record, str] = {}
    labels: dict[str, tuple[Record, tuple[str, ...], str]] = {}  # filled in after the cap
    derived = derivative_records(snap.records)
    for record in snap.records:
        bound.tick()
        cluster = DERIVATIVE.id if record in derived else ""
        if record in snap.expand:
            owner = record.primary if record.primary in op_id else record
            if owner is record:  # one op node for all the outputs of an op
                op_id[record] = ids.make("op", record)
                op_lines = (op_label(record), record.grad_fn) if record.grad_fn else (
                    op_label(record),)
                graph.nodes.append(Node(op_id[record], "op", op_lines, "op", cluster,
                                        {"op": record.op, "grad_fn": record.grad_fn,
                                         "line": record.line, "col": record.col}))
                for index, source in enumerate(record.inputs):
                    label = "broadcast" if record.broadcast(index) else ""
                    graph.edges.append(Edge(tensor_id[source], op_id[record], "data", label))
            graph.edges.append(Edge(op_id[owner], tensor_id[record], "data"))
        fallback = "grad_output" if record.seed else f"({record.op or 'tensor'})"
        labels[tensor_id[record]] = (record, (), fallback)
        graph.nodes.append(Node(tensor_id[record], "tensor", (),
                                tensor_role(record, snap, derived), cluster,
                                {"line": record.line}))
    for source, target in snap.grad_links:
        graph.edges.append(Edge(tensor_id[source], tensor_id[target], "grad", "grad"))
    if any(n.cluster for n in graph.nodes):
        graph.clusters.append(DERIVATIVE)
    made = [(r, op_id[r]) for r in op_id] + list(tensor_id.items())
    graph, alias = fold_loops(graph, options.unroll, loop_iterations(made))
    graph = with_labels(cap(graph, options.max_nodes, toward_inputs=True, bound=bound), labels,
                        snap, options)
    if options.details:
        # lazy: autograd_cli.graph.details imports this module
        from autograd_cli.graph.details import add_details

        add_details(graph, made, tensor_id, snap.records, snap.program, alias)
    return graph


def backward_graph(snap: Snapshot, options: ViewOptions, bound: Bound | None = None) -> Graph:
    """grad_fn nodes and AccumulateGrad at leaves, along next_functions (root first)."""
    bound = bound or Bound.unbounded()
    graph = Graph("backward", options.rankdir, options.legend, options.title,
                  notes=list(snap.notes))
    ids, node_id, owners = _Ids(), {}, []
    labels: dict[str, tuple[Record, tuple[str, ...], str]] = {}  # filled in after the cap
    derived = derivative_records(snap.records)
    used = {source for record in snap.expand
            for source, needed in zip(record.inputs, record.needs, strict=True) if needed}
    for record in snap.records:
        bound.tick()
        if record.is_leaf and record in used:
            node_id[record] = ids.make("acc", record)
            labels[node_id[record]] = (record, ("AccumulateGrad",), "(leaf)")
            graph.nodes.append(Node(node_id[record], "accumulate", (),
                                    tensor_role(record, snap, derived), "",
                                    {"line": record.line}))
        elif record in snap.expand and not record.is_leaf:
            if record.primary in node_id:  # another output of a grad_fn already drawn
                node_id[record] = node_id[record.primary]
                continue
            node_id[record] = ids.make("bw", record)
            owners.append(record)
            lines = [record.grad_fn or ""]
            name = snap.names.get(record)
            if name:
                lines.append(f"→ {name}")
            flow = snap.flows.get(record)
            if options.grads and flow is not None:
                lines.append(f"grad_output = {value_text(flow) or shape_text(flow)}")
            role = "root" if record in snap.roots else (
                "retained" if record.retained else "intermediate")
            cluster = DERIVATIVE.id if record in derived else ""
            graph.nodes.append(Node(node_id[record], "backward_fn", tuple(lines), role, cluster,
                                    {"grad_fn": record.grad_fn, "name": name,
                                     "line": record.line, "col": record.col}))
            if options.show_saved:
                add_saved(graph, record, node_id[record])
    for record in owners:
        bound.tick()
        for index, (source, needed) in enumerate(zip(record.inputs, record.needs, strict=True)):
            if not needed or source not in node_id:
                continue
            start = node_id[record]
            if record.broadcast(index):  # the engine sums the gradient back: draw that step
                step = f"{start}_sum{index}"
                graph.nodes.append(Node(step, "sum_to", ("sum_to", shape_text(source.summary)),
                                        "broadcast", "", {"shape": list(source.summary.shape)}))
                graph.edges.append(Edge(start, step, "next"))
                start = step
            graph.edges.append(Edge(start, node_id[source], "next"))
    if any(n.cluster for n in graph.nodes):
        graph.clusters.append(DERIVATIVE)
    graph, alias = fold_loops(graph, options.unroll, loop_iterations(
        (r, i) for r, i in node_id.items() if r.primary is None))
    graph = with_labels(cap(graph, options.max_nodes, toward_inputs=False, bound=bound), labels,
                        snap, options)
    if options.details:
        # lazy: autograd_cli.graph.details imports this module
        from autograd_cli.graph.details import add_details

        add_details(graph, list(node_id.items()), node_id, snap.records, snap.program, alias)
    return graph


def with_labels(graph: Graph, labels: dict[str, tuple[Record, tuple[str, ...], str]],
                snap: Snapshot, options: ViewOptions) -> Graph:
    """Write the tensor labels (values formatted only for the nodes that are drawn)."""
    for index, node in enumerate(graph.nodes):
        entry = labels.get(node.id)
        if entry is not None:
            record, prefix, fallback = entry
            lines, attrs = tensor_lines(record, snap, options, fallback)
            repeat = node.attrs.get("repeat")
            if repeat:  # a folded loop's block (renderers/loops.py): the last iteration's
                lines[0] = f"{unnumbered(lines[0])} ×{repeat}"
                attrs.update(repeat=repeat, name=attrs["name"] and unnumbered(attrs["name"]))
            graph.nodes[index] = replace(node, label=prefix + tuple(lines), attrs=attrs)
    return graph


def add_saved(graph: Graph, record: Record, fn_id: str) -> None:
    node = record.node() if record.node is not None else None
    freed = node is None or bool(getattr(node, "released", False))
    for index, (slot, summary) in enumerate(record.saved):
        lines = [f"saved {slot}", shape_text(summary), f"{summary.nbytes} bytes"]
        if freed:
            lines.append("(freed)")
        saved_id = f"{fn_id}_saved{index}"
        graph.nodes.append(Node(saved_id, "saved", tuple(lines), "freed" if freed else "saved", "",
                                {"slot": slot, "shape": list(summary.shape),
                                 "dtype": summary.dtype, "bytes": summary.nbytes,
                                 "freed": freed}))
        graph.edges.append(Edge(saved_id, fn_id, "saved"))


def cap(graph: Graph, max_nodes: int, toward_inputs: bool, bound: Bound | None = None) -> Graph:
    """Past `max_nodes`, keep the part nearest the outputs and say what was cut, in a note."""
    if len(graph.nodes) <= max_nodes:
        return graph
    bound = bound or Bound.unbounded()
    neighbours: dict[str, list[str]] = {}
    has_parent: set[str] = set()
    for edge in graph.edges:
        bound.tick()
        inward = toward_inputs or edge.kind == "saved"  # a saved tensor hangs off its grad_fn
        near, far = (edge.dst, edge.src) if inward else (edge.src, edge.dst)
        neighbours.setdefault(near, []).append(far)
        has_parent.add(far)
    order = [n.id for n in graph.nodes]
    queue = deque(reversed([i for i in order if i not in has_parent]))
    kept: dict[str, None] = {}
    while queue and len(kept) < max_nodes:
        current = queue.popleft()
        if current not in kept:
            kept[current] = None
            queue.extend(neighbours.get(current, ()))
    bound.check()
    dropped = [n for n in graph.nodes if n.id not in kept]
    lines = sorted({n.attrs["line"] for n in dropped if isinstance(n.attrs.get("line"), int)})
    where = f" (made at lines {lines[0]}–{lines[-1]})" if lines else ""
    text = (f"{len(dropped):,} more nodes not drawn{where}",
            f"drawn: the {max_nodes} nearest the outputs; raise --max-nodes to see more")
    note = Node("note_cut", "note", text, "note", "", {"hidden_nodes": len(dropped)})
    edges = [e for e in graph.edges if e.src in kept and e.dst in kept]
    bound.check()
    cut_at = {(e.src if e.src in kept else e.dst) for e in graph.edges
              if (e.src in kept) != (e.dst in kept)}
    edges += [Edge(note.id, node_id, "cut") if toward_inputs else Edge(node_id, note.id, "cut")
              for node_id in order if node_id in cut_at]
    nodes = [n for n in graph.nodes if n.id in kept] + [note]
    clusters = [c for c in graph.clusters if any(n.cluster == c.id for n in nodes)]
    return Graph(graph.view, graph.rankdir, graph.legend, graph.title, nodes, edges, clusters,
                 graph.notes + [text[0]])


def build_graph(recorder: GraphRecorder, options: ViewOptions,
                pass_number: int | None = None, bound: Bound | None = None) -> Graph:
    """The view `options` asks for; making it ticks `bound` (autograd_cli/language/bounds.py), which
    raises LimitExceeded when the time or memory limit is hit."""
    snap = recorder.snapshot(pass_number, bound)
    if options.view == "backward":
        return group_unconnected(backward_graph(snap, options, bound))
    return group_unconnected(forward_graph(snap, options, bound))
