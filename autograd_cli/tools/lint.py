"""Gradient-flow problems a learner hits, found while the program runs (`agraph lint FILE`, and
the same notes on stderr after `agraph run FILE`, printed only when there is one):

- cut-path: a leaf's value reaches the output of a backward pass only through `no_grad()`,
  `detach()` or `.data`, so that pass gives it no gradient;
- unused-input: a leaf that requires grad never reaches the output of any backward pass, so its
  `.grad` stays None;
- zero-grad: every gradient that reached a leaf was zero;
- nonleaf-grad: `.grad` read on a non-leaf (None; PyTorch warns), with the fix;
- second-backward: a backward through a graph that an earlier backward freed;
- accumulating-grad: a backward in a loop adds to the gradient of the previous iteration every
  time (no `zero_()` / `zero_grad()` in between).

Each finding has its line and a one-line fix. How values flow is followed by data, not by the
autograd graph: every op's result carries the set of leaves (that required grad) its value came
from, keyed by the numpy array, which `detach()` and `.data` share with the original; so a
value that left the graph is still known to come from its leaf. All of it is held weakly.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autograd_cli.graph.provenance import Place, Provenance, WeakIdMap, shape_text
from autograd_cli.language.errors import visible
from engine import grad_mode, recording
from engine.autograd import SECOND_BACKWARD, AccumulateGrad
from engine.tensor import NONLEAF_GRAD_WARNING, Parameter, Tensor

NO_SOURCES: frozenset[int] = frozenset()
# What explains a program's error; after a run cut short by an error, only these are reported
# (a pass stopped halfway would look like a cut path).
ERROR_KINDS = frozenset({"second-backward", "nonleaf-grad"})
# Findings that say again what a warning of the program said at the same line (PyTorch's own
# warning is shown; the note would repeat it).
WARNING_OF_KIND = {"nonleaf-grad": NONLEAF_GRAD_WARNING}


@dataclass(frozen=True, order=True)
class Finding:
    line: int
    kind: str
    message: str
    fix: str

    def format(self, filename: str) -> str:
        return visible(f"{filename}:{self.line}: lint ({self.kind}): {self.message}\n"
                       f"  fix: {self.fix}\n")

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "kind": self.kind, "message": self.message, "fix": self.fix}

    def restates(self, warnings: Any) -> bool:
        """True when one of `warnings` (shown at the same line) already said this."""
        said = WARNING_OF_KIND.get(self.kind)
        return said is not None and any(w.line == self.line and w.message == said
                                        for w in warnings)


@dataclass
class _Flow:
    """Where an array's value came from: leaves (by id) and the first place it left the graph."""

    sources: frozenset[int]
    cut: tuple[Place, str] | None


@dataclass
class _Leaf:
    sources: frozenset[int]  # {id(leaf)}: the flow of its own value
    place: Place  # where the program first bound or used it
    born: int  # backward passes begun before it was seen
    deliveries: int = 0
    nonzero: bool = False


@dataclass
class _Pass:
    line: int | None
    sources: frozenset[int]
    cut: tuple[Place, str] | None
    received: set[int] = field(default_factory=set)


class GradientLinter:
    """The observer; `findings(result, text)` after the run."""

    def __init__(self, provenance: Provenance) -> None:
        self.provenance = provenance
        self.flows: WeakIdMap[_Flow] = WeakIdMap()  # numpy array -> where its value came from
        self.node_flows: WeakIdMap[_Flow] = WeakIdMap()  # grad_fn -> the same, of its output
        self.leaves: WeakIdMap[_Leaf] = WeakIdMap()  # leaves that require grad
        self.passes = 0  # backward passes seen
        self.current: _Pass | None = None
        self.reached: set[int] = set()  # leaves in the sources of some pass's output
        self.found: dict[tuple[str, int, str], Finding] = {}
        # (leaf, backward line) -> [passes that reached the leaf, passes that added to a grad]
        self.accumulation: dict[tuple[int, int], list[int]] = {}
        self.freed_by: WeakIdMap[tuple[int, int | None]] = WeakIdMap()  # node -> (pass, line)
        self.detached_at: WeakIdMap[Place] = WeakIdMap()  # a detach()/.data -> where bound
        self.any_backward = False

    # --- data flow ---------------------------------------------------------------------------

    def _leaf(self, tensor: Tensor) -> _Leaf:
        """A leaf that requires grad, registered with its array's flow (a source)."""
        leaf = self.leaves.get(tensor)
        if leaf is None:
            leaf = _Leaf(frozenset((id(tensor),)), self.provenance.here(),
                         recording.backward_passes)
            self.leaves.set(tensor, leaf)
            self.flows.set(tensor.array, _Flow(leaf.sources, None))
        return leaf

    def on_bind(self, name: str, value: Any, line: int) -> None:
        if not isinstance(value, Tensor):
            return
        if value._requires_grad:
            if value._grad_fn is None:
                self._leaf(value)
            return
        flow = self.flows.get(value.array)
        if flow is not None and flow.sources and flow.cut is None:
            # shares the array of a tensor in the graph: a detach() or .data, bound here
            self.detached_at.set(value, Place(line))

    def on_op(self, op_name: str, grad_fn: Any, inputs: Any, output: Any) -> None:
        if recording.backward_depth:
            return
        sources: frozenset[int] = NO_SOURCES
        cut: tuple[Place, str] | None = None
        for value in inputs:
            if not isinstance(value, Tensor):
                continue
            if value._requires_grad and value._grad_fn is None:
                found = self._leaf(value).sources
            else:
                flow = self.flows.get(value.array)
                if flow is None or not flow.sources:
                    continue
                found = flow.sources
                if cut is None:
                    cut = flow.cut
                if cut is None and not value._requires_grad:  # a value that left the graph
                    cut = (self.detached_at.get(value) or self.provenance.here(),
                           "detach() or .data")
            if not sources or found <= sources:
                sources = sources or found
            else:
                sources = sources | found
        if not sources:
            return
        enabled = grad_mode.is_grad_enabled()
        if cut is None and not enabled and any(
                isinstance(v, Tensor) and v._requires_grad for v in inputs):
            cut = (self.provenance.here(), "torch.no_grad()")
        flow = _Flow(sources, cut)
        for tensor in output if isinstance(output, (tuple, list)) else (output,):
            if isinstance(tensor, Tensor):
                self.flows.set(tensor.array, flow)
        if grad_fn is not None:
            self.node_flows.set(grad_fn, flow)

    # --- backward passes ---------------------------------------------------------------------

    def on_backward_node(self, node: Any, grads_in: Any, grads_out: Any) -> None:
        if recording.backward_passes != self.passes:
            self.passes = recording.backward_passes
            self._close_pass()
            flow = self.node_flows.get(node)
            self.current = _Pass(self.provenance.here().line,
                                 flow.sources if flow else NO_SOURCES, flow.cut if flow else None)
            self.reached |= self.current.sources
        current = self.current
        assert current is not None
        if getattr(node, "saved_something", False):
            self.freed_by.set(node, (self.passes, current.line))
        if node.__class__ is not AccumulateGrad:
            return
        grad = grads_in[0] if grads_in else None
        leaf_tensor = node.variable
        if not isinstance(grad, Tensor):
            return
        leaf = self._leaf(leaf_tensor)
        key = id(leaf_tensor)
        current.received.add(key)
        leaf.deliveries += 1
        leaf.nonzero = leaf.nonzero or bool(np.any(grad.array))
        self.any_backward = True
        stored = leaf_tensor._grad
        if stored is not None and stored is not grad and current.line is not None:
            counts = self.accumulation.setdefault((key, current.line), [0, 0])
            counts[0] += 1
            counts[1] += _added_onto(stored.array, grad.array)

    def _close_pass(self) -> None:
        """The pass that ended: leaves whose value reached its output but no gradient did."""
        done, self.current = self.current, None
        if done is None or done.cut is None or done.line is None:
            return
        for key in done.sources - done.received:
            found = self.leaves.by_key(key)
            tensor = found[0] if found is not None else None
            if tensor is None or not tensor._requires_grad:
                continue
            place, how = done.cut
            label = self._label(tensor)
            self._add(Finding(
                place.line or done.line, "cut-path",
                f"the value of {label} reaches the output of the backward at line {done.line} "
                f"only through here, where {how} cuts the graph: {label} gets no gradient "
                "from it",
                f"compute this without {how} if {label} should learn from it"))

    # --- the verdicts ------------------------------------------------------------------------

    def findings(self, result: Any, text: str) -> list[Finding]:
        """Everything found, by line; call once, after the run."""
        self._close_pass()
        self._leaf_findings(result.variables)
        self._accumulation_findings()
        self._nonleaf_grad_findings(result.warnings, text, result.variables)
        self._second_backward_finding(result.error)
        return sorted(self.found.values())

    def _add(self, finding: Finding) -> None:
        self.found.setdefault((finding.kind, finding.line, finding.message), finding)

    def _label(self, tensor: Tensor) -> str:
        name = self.provenance.name_of(tensor)
        if name is not None:
            return name
        kind = "parameter" if isinstance(tensor, Parameter) else "leaf"
        return f"the {kind} {shape_text(tensor.shape_tuple)}"

    def _leaf_findings(self, variables: dict[str, Any]) -> None:
        if not self.any_backward:
            return  # no backward() ran: no .grad is expected anywhere
        for name, value in variables.items():
            if not isinstance(value, Tensor) or value._grad_fn is not None:
                continue
            leaf = self.leaves.get(value)
            if leaf is None or not value._requires_grad:
                continue
            line = leaf.place.line or 1
            if leaf.deliveries and not leaf.nonzero:
                self._add(Finding(
                    line, "zero-grad",
                    f"every gradient that reached {name} was zero ({leaf.deliveries} backward "
                    f"pass{'es' if leaf.deliveries != 1 else ''}): {name} does not learn",
                    "look at the path from the loss: a relu that is off, a clamp at its bound, "
                    "a product with 0, a comparison or rounding in between"))
            elif (value._grad is None and not leaf.deliveries and id(value) not in self.reached
                    and leaf.born < self.passes):
                self._add(Finding(
                    line, "unused-input",
                    f"{name} requires grad but does not reach the output of any backward pass: "
                    f"{name}.grad stays None",
                    f"use {name} in the computation of the loss, or create it without "
                    "requires_grad=True"))

    def _accumulation_findings(self) -> None:
        for (key, line), (runs, added) in self.accumulation.items():
            found = self.leaves.by_key(key)
            tensor = found[0] if found is not None else None
            if tensor is None or runs < 2 or added < runs - 1 or added == 0:
                continue
            label = self._label(tensor)
            self._add(Finding(
                line, "accumulating-grad",
                f"{label}.grad accumulates across iterations: each backward() here adds to "
                f"the gradient of the one before ({runs} times, never reset)",
                f"call optimizer.zero_grad() or {label}.grad.zero_() before each backward()"
                if label.isidentifier() else
                "call optimizer.zero_grad() (or .grad.zero_()) before each backward()"))

    def _nonleaf_grad_findings(self, warnings: list[Any], text: str,
                               variables: dict[str, Any]) -> None:
        lines = text.split("\n")  # the program's lines (str.splitlines also splits at U+2028)
        for warning in warnings:
            if warning.line is None or not warning.message.startswith(NONLEAF_GRAD_WARNING[:40]):
                continue
            source = lines[warning.line - 1] if 0 < warning.line <= len(lines) else ""
            names = [n for n in _grad_reads(source) if isinstance(variables.get(n), Tensor)
                     and variables[n]._grad_fn is not None and not variables[n].retains_grad]
            what = ", ".join(f"{n}.grad" for n in names) or ".grad"
            if len(names) > 1:
                message = (f"{what} are read on non-leaf tensors: backward() does not keep "
                           "them, so they are None")
                fix = (f"call retain_grad() on {', '.join(names)} before backward() to keep "
                       "their grads, or read the grads of leaves")
            else:
                message = (f"{what} is read on a non-leaf tensor: backward() does not keep it, "
                           "so it is None")
                fix = (f"call {names[0] + '.' if names else ''}retain_grad() before backward() "
                       "to keep it, or read the grad of a leaf")
            self._add(Finding(warning.line, "nonleaf-grad", message, fix))

    def _second_backward_finding(self, error: Any) -> None:
        if error is None or error.line is None or not error.message.startswith(
                SECOND_BACKWARD[:40]):
            return
        failing = recording.backward_passes  # the last pass begun is the one that failed
        freed = [(number, line) for node, (number, line) in self.freed_by.items()
                 if line is not None and number != failing and getattr(node, "released", False)]
        if not freed:
            return
        _, first = max(freed)
        earlier = "on its previous run" if first == error.line else f"at line {first}"
        self._add(Finding(
            error.line, "second-backward",
            f"this backward walks a graph that the backward {earlier} already freed",
            f"pass retain_graph=True to the backward {earlier}, or run the forward again "
            "before this backward"))


def _added_onto(stored: np.ndarray, delivered: np.ndarray) -> bool:
    """Did this gradient land on a gradient already there? Only where both are non-zero: a
    loop that fills a gradient element by element (`a[i].backward()`) is not accumulation."""
    if stored.shape != delivered.shape:
        return False
    before = stored - delivered  # inf - inf is quiet: the engine runs numpy with seterr ignore
    return bool(np.any((before != 0) & (delivered != 0) & np.isfinite(before)))


def _grad_reads(source: str) -> list[str]:
    """Names whose `.grad` a line reads (`print(a.grad, b.grad)` -> a, b)."""
    try:
        tree = ast.parse(source.strip())
    except SyntaxError:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr == "grad"
                and isinstance(node.value, ast.Name) and node.value.id not in names):
            names.append(node.value.id)
    return names
