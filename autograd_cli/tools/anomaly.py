"""`--detect-anomaly`: stop at the first NaN or infinity, and say which op made it.

Forward: the first op whose result holds a NaN or an infinity stops the program there, with the
standard error at that op's expression. Backward: like PyTorch's anomaly mode, the first backward
node that returns a NaN or infinite gradient stops the pass with PyTorch's message
("Function 'SqrtBackward0' returned nan values in its 0th output."); the error points at the
forward op that made the node (PyTorch shows that op's traceback), and a note gives the line of
the backward() call that ran it. PyTorch checks NaN only; agraph checks infinities too, because
a `log(0)` turns into NaN only later.

`mark_anomaly(graph, anomaly)` paints the node that produced it with the model's "anomaly" role.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from autograd_cli.graph.provenance import Place, Provenance, nonfinite_kind
from autograd_cli.graph.recorder import op_display_name, snake_case
from autograd_cli.language.errors import ScriptError, visible
from engine import recording
from engine.tensor import Tensor
from renderers.model import Graph


class AnomalyDetected(RuntimeError):
    """Raised inside the engine's call to the observer; the interpreter reports it as a
    RuntimeError at the expression being evaluated."""


@dataclass
class Anomaly:
    """The first NaN/infinity: in a forward result (`phase` "forward") or a backward gradient."""

    phase: str
    message: str
    grad_fn: str | None  # the node's PyTorch name (SqrtBackward0), None for an untracked op
    op: str  # sqrt
    forward_place: Place | None  # where the op ran (forward) or made the node (backward)
    backward_place: Place | None = None  # the backward() call, for a backward anomaly
    output: Tensor | None = None  # the forward result that holds it (to draw it)


class AnomalyDetector:
    """The observer behind `--detect-anomaly`; needs a `Provenance` installed before it."""

    def __init__(self, provenance: Provenance) -> None:
        self.provenance = provenance
        self.found: Anomaly | None = None

    def on_op(self, op_name: str, grad_fn: Any, inputs: Any, output: Any) -> None:
        if recording.backward_depth or self.found is not None:
            return  # a derivative's arithmetic is judged by the node's output, below
        outputs = output if isinstance(output, (tuple, list)) else (output,)
        for index, tensor in enumerate(outputs):
            kind = nonfinite_kind(tensor.array) if isinstance(tensor, Tensor) else None
            if kind is None:
                continue
            op = op_display_name(grad_fn.grad_fn_name) if grad_fn is not None else snake_case(
                op_name)
            already = any(isinstance(a, Tensor) and nonfinite_kind(a.array) for a in inputs)
            cause = "an input already held NaN or infinity" if already else (
                "its inputs were finite")
            message = (f"Function '{op}' returned {kind} values in its {index}th output "
                       f"(forward; {cause}).")
            self.found = Anomaly("forward", message,
                                 grad_fn.grad_fn_name if grad_fn is not None else None, op,
                                 self.provenance.here(), output=tensor)
            raise AnomalyDetected(message)

    def on_backward_node(self, node: Any, grads_in: Any, grads_out: Any) -> None:
        if self.found is not None:
            return
        for index, grad in enumerate(grads_out):
            kind = nonfinite_kind(grad.array) if isinstance(grad, Tensor) else None
            if kind is None:
                continue
            origin = self.provenance.origin_of(node)
            # PyTorch's words, its "th" after every number included ("its 1th output")
            message = (f"Function '{node.grad_fn_name}' returned {kind} values in its "
                       f"{index}th output.")
            self.found = Anomaly("backward", message, node.grad_fn_name,
                                 origin.op if origin else op_display_name(node.grad_fn_name),
                                 origin.place if origin else None, self.provenance.here())
            raise AnomalyDetected(message)


def located_error(anomaly: Anomaly, error: ScriptError) -> ScriptError:
    """The run's error for a backward anomaly moved to the forward op that made the node (where
    PyTorch's anomaly mode points); a forward anomaly's error is already there."""
    place = anomaly.forward_place
    if anomaly.phase != "backward" or place is None or place.line is None:
        return error
    return ScriptError(error.type_name, error.message, place.line, place.col, place.end_col)


def backward_note(anomaly: Anomaly, filename: str, source_text: str) -> str:
    """`FILE:LINE: note: ...` and the source line of the backward() call that found it."""
    place = anomaly.backward_place
    if anomaly.phase != "backward" or place is None or place.line is None:
        return ""
    lines = source_text.split("\n")  # str.splitlines would also split at U+2028
    source = lines[place.line - 1].strip() if 0 < place.line <= len(lines) else ""
    made = f"{anomaly.op} above made {anomaly.grad_fn}" if anomaly.forward_place else (
        f"{anomaly.grad_fn} was made by an op agraph did not see")
    return visible(f"{filename}:{place.line}: note: found by the backward pass run here "
                   f"({made})\n  {source[:200]}\n")


def mark_anomaly(graph: Graph, anomaly: Anomaly) -> Graph:
    """The model with the op (forward view) or backward node that produced it in red."""
    place = anomaly.forward_place
    if anomaly.grad_fn is None or place is None:
        return graph
    candidates = [n for n in graph.nodes if n.kind in ("op", "backward_fn")
                  and n.attrs.get("grad_fn") == anomaly.grad_fn
                  and n.attrs.get("line") == place.line]
    exact = [n for n in candidates if n.attrs.get("col") == place.col]
    chosen = {n.id for n in (exact or candidates)}
    nodes = [dataclasses.replace(n, role="anomaly") if n.id in chosen else n
             for n in graph.nodes]
    return dataclasses.replace(graph, nodes=nodes)
