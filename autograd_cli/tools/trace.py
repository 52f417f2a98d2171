"""`agraph run FILE --trace`: one line per op as it runs, one per backward node as it is visited.

    trace: line 12: a = add(w [], x []) -> [] float64  requires_grad=True  grad_fn=AddBackward0
    trace: line 17: backward MulBackward0 of y (line 15): grad [] norm 1 -> [] norm 3, [] norm 2

The lines go to stderr, so stdout keeps exactly what the program printed (and `--json` stays
one JSON object). An op's line is written when its statement ends, so it can name the variable
the result was bound to; a result never bound gets a number (`%3`) that later lines refer to.
Ops that a backward pass runs to compute a derivative are not listed: the backward lines stand
for them. The trace stops (saying so) past `max_bytes`, like a program's own output.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, TextIO

from autograd_cli.graph.provenance import Provenance, WeakIdMap, number_text, shape_text, value_text
from autograd_cli.graph.recorder import op_display_name, snake_case
from autograd_cli.language.errors import visible
from engine import recording
from engine.tensor import Tensor

MAX_PENDING = 1000  # ops of one statement held back for the name of its result


@dataclass
class _PendingOp:
    line: int | None
    op: str
    arguments: list[str]
    outputs: list[weakref.ref[Tensor]]
    output_labels: list[str]
    descriptions: list[str]


class Tracer:
    """The observer behind `--trace`; needs a `Provenance` installed before it."""

    def __init__(self, provenance: Provenance, stream: TextIO, max_bytes: int = 10_000_000
                 ) -> None:
        self.provenance = provenance
        self.stream = stream
        self.max_bytes = max_bytes
        self.written = 0
        self.pending: list[_PendingOp] = []
        self.temporaries: WeakIdMap[str] = WeakIdMap()  # unnamed results: %1, %2, ...
        self.count = 0

    # --- observer events ---------------------------------------------------------------------

    def on_statement(self, node: Any) -> None:
        self.flush()

    def on_op(self, op_name: str, grad_fn: Any, inputs: Any, output: Any) -> None:
        if recording.backward_depth or self.written > self.max_bytes:
            return  # a derivative's own arithmetic: the backward lines stand for it
        if len(self.pending) >= MAX_PENDING:  # one statement running a long loop of ops
            self.flush()
        outputs = [o for o in (output if isinstance(output, (tuple, list)) else (output,))
                   if isinstance(o, Tensor)]
        labels = []
        for tensor in outputs:
            self.count += 1
            label = f"%{self.count}"
            self.temporaries.set(tensor, label)
            labels.append(label)
        name = op_display_name(grad_fn.grad_fn_name) if grad_fn is not None else snake_case(
            op_name)
        self.pending.append(_PendingOp(
            self.provenance.here().line, name, [self._argument(a) for a in inputs],
            [weakref.ref(o) for o in outputs], labels,
            [_describe_output(o) for o in outputs]))

    def on_backward_node(self, node: Any, grads_in: Any, grads_out: Any) -> None:
        self.flush()
        label = self.provenance.node_label(node)
        origin = self.provenance.origin_of(node)
        placed = origin is None or label.endswith(")")  # `(sum, line 3)` says where already
        made = "" if placed or origin is None else f" ({origin.place})"
        received = ", ".join(_gradient_text(g) for g in grads_in) or "none"
        line = self.provenance.here().line
        text = f"backward {node.grad_fn_name} of {label}{made}: grad {received}"
        if grads_out:
            text += " -> " + ", ".join(_gradient_text(g) for g in grads_out)
        self._write(line, text)

    # --- writing -----------------------------------------------------------------------------

    def flush(self) -> None:
        """Write the ops of the statement that ended, with the names their results got."""
        pending, self.pending = self.pending, []
        for op in pending:
            names = []
            for reference, temporary in zip(op.outputs, op.output_labels, strict=True):
                tensor = reference()
                name = self.provenance.name_of(tensor) if tensor is not None else None
                names.append(name or temporary)
            results = "; ".join(f"{n}: {d}" for n, d in zip(names, op.descriptions, strict=True))
            self._write(op.line, f"{op.op}({', '.join(op.arguments)}) -> {results}")

    def _argument(self, value: Any) -> str:
        if isinstance(value, Tensor):
            name = self.provenance.name_of(value) or self.temporaries.get(value) or "(tensor)"
            return f"{name} {shape_text(value.shape_tuple)}"
        if isinstance(value, bool) or value is None:
            return repr(value)
        if isinstance(value, (int, float)):
            return number_text(float(value)) if isinstance(value, float) else str(value)
        if isinstance(value, (tuple, list)) and len(value) <= 8:
            inner = ", ".join(self._argument(v) for v in value)
            return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
        return f"<{type(value).__name__}>"

    def _write(self, line: int | None, text: str) -> None:
        if self.written > self.max_bytes:
            return
        where = f"line {line}" if line is not None else "line ?"
        out = visible(f"trace: {where}: {text}") + "\n"
        self.written += len(out)
        if self.written > self.max_bytes:
            out = f"trace: stopped after {self.max_bytes} bytes (limit max_output_bytes)\n"
        self.stream.write(out)


def _describe_output(tensor: Tensor) -> str:
    grad_fn = tensor.grad_fn
    return (f"{shape_text(tensor.shape_tuple)} {tensor.dtype.name}  "
            f"requires_grad={tensor.requires_grad}  "
            f"grad_fn={grad_fn.grad_fn_name if grad_fn is not None else None}")


def _gradient_text(grad: Any) -> str:
    if not isinstance(grad, Tensor):
        return "None"
    return value_text(grad.array) if grad.array.size > 1 else (
        f"{shape_text(grad.shape_tuple)} norm {value_text(abs(grad.array))}")
