"""`agraph explain FILE OUTPUT INPUT`: the chain rule made visible.

Every path from OUTPUT back to INPUT through the backward graph, each local derivative on it
with its value, each path's product, and their sum, checked against INPUT.grad:

    path 1: y <- a <- w
        dy/da = 2      MulBackward0, line 15
        da/dw = 1      AddBackward0, line 12
        product: 2 x 1 = 2

A product is computed as backward computes it, a vector-Jacobian product carried along the
path (`apply_backward` of each node), so it works for tensors too; for them the text shows
shapes and norms. The graph is analysed when the backward pass from OUTPUT starts (the last such
pass if there are several), while its saved tensors are still there; if the program never runs
one, at its end, with a seed of 1. A graph can have exponentially many paths (y = y + y sixty
times has 2**60): at most `max_paths` are listed, found depth-first with the work shared between
paths that share a beginning; the whole gradient is then also computed node by node, as
backward does, so the check is printed either way.

The analysis is bounded like the program (autograd_cli/language/bounds.py): inside a backward
pass by the run's own deadline and memory limit (past them the listing stops, and the program at
its next statement); at the end of the program by the time left for the work after the run. Past a
limit, what was found so far is shown and `Explanation.limit` holds the LimitExceeded that the
command reports (exit 1).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from autograd_cli.graph.provenance import Place, Provenance, number_text, value_text
from autograd_cli.language.bounds import Bound
from autograd_cli.language.errors import visible
from autograd_cli.language.limits import LimitExceeded
from engine import grad_mode, recording
from engine.autograd import gradient_edge
from engine.tensor import Tensor
from renderers.model import Edge, Graph

MAX_PATHS = 20  # paths listed (and multiplied out) by default
MAX_BACKWARD_CALLS = 200_000  # node backward calls one analysis may make
SHOWN_STEPS = 12  # a longer path shows its first and last steps only


class ExplainError(Exception):
    """OUTPUT or INPUT cannot be explained (not a tensor, not in the program, ...)."""


@dataclass
class Step:
    """One edge of a path: d(output of `node`)/d(its input `slot`)."""

    grad_fn: str
    place: Place | None
    of: str  # label of the node's output
    wrt: str  # label of the input
    local: float | None  # the local derivative, when both sides hold one element
    shapes: tuple[tuple[int, ...], tuple[int, ...]]  # (output shape, input shape)
    carried: str  # the path's product so far (a gradient with the input's shape) as text,
    # when `local` is None (a path keeps no arrays but its product: it may be long)
    input_index: int | None  # which tensor argument of the op the input was (to draw it)


@dataclass
class Path:
    steps: list[Step]
    product: np.ndarray


@dataclass
class Explanation:
    output: str
    input: str
    seed: np.ndarray
    how: str  # what was analysed: the backward pass from OUTPUT, or OUTPUT's graph at the end
    paths: list[Path] = field(default_factory=list)
    total_paths: int = 0
    whole: np.ndarray | None = None  # d OUTPUT / d INPUT, node by node (None: no path)
    stopped: str | None = None  # why the listing stopped early
    delivered: np.ndarray | None = None  # what reached INPUT in the explained pass
    final_grad: np.ndarray | None = None  # INPUT.grad when the program ended
    input_is_leaf: bool = True
    input_requires_grad: bool = True
    from_output_pass: bool = False
    target: tuple[int, int] | None = None  # (id(node), output_nr) of INPUT
    limit: LimitExceeded | None = None  # the time or memory limit that cut the analysis short


# --- the analysis ------------------------------------------------------------------------------

def _vjp(node: Any, output_nr: int, grad: Tensor) -> list[Any]:
    grads: list[Tensor | None] = [None] * (output_nr + 1)
    grads[output_nr] = grad
    return list(node.apply_backward(grads))


def _path_counts(root: Any, target: tuple[Any, int], bound: Bound | None = None
                 ) -> dict[Any, int]:
    """How many paths lead from each node to the target edge (0: none), by an explicit-stack
    post-order walk; the target node itself is not entered."""
    bound = bound or Bound.unbounded()
    target_node, target_nr = target
    counts: dict[Any, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        bound.tick()
        node, children_done = stack.pop()
        if node in counts:
            continue
        if children_done:
            total = 0
            for child, child_nr in node.next_functions:
                if child is target_node:
                    total += child_nr == target_nr
                elif child is not None:
                    total += counts[child]
            counts[node] = total
            continue
        stack.append((node, True))
        for child, _ in node.next_functions:
            if child is not None and child is not target_node and child not in counts:
                stack.append((child, False))
    return counts


class _Analysis:
    """Paths from (root, root_nr) to the target edge, with their products and the whole sum."""

    def __init__(self, provenance: Provenance, root: Any, root_nr: int, seed: Tensor,
                 target: tuple[Any, int], output_label: str, max_paths: int,
                 bound: Bound | None = None) -> None:
        self.provenance = provenance
        self.root, self.root_nr, self.seed, self.target = root, root_nr, seed, target
        self.output_label = output_label
        self.max_paths = max_paths
        self.bound = bound or Bound.unbounded()
        self.calls = 0
        self.locals: dict[tuple[int, int, int], float | None] = {}

    def run(self, explanation: Explanation) -> None:
        counts = _path_counts(self.root, self.target, self.bound)
        explanation.total_paths = counts[self.root]
        if explanation.total_paths == 0:
            return
        self._list_paths(counts, explanation)
        if explanation.limit is None:
            try:
                explanation.whole = self._whole(counts)
            except LimitExceeded as limit:
                explanation.limit = limit

    def _spend(self) -> None:
        """Before each node backward call: one more call, within the time and memory bound."""
        self.calls += 1
        self.bound.check_time()  # a call can be long (a gradient of 10**8 elements)
        self.bound.tick()

    def _backward(self, node: Any, output_nr: int, grad: Tensor) -> list[Any]:
        if self.calls >= MAX_BACKWARD_CALLS:
            raise _OutOfWork
        self._spend()
        return _vjp(node, output_nr, grad)

    def _list_paths(self, counts: dict[Any, int], explanation: Explanation) -> None:
        """Depth first; a frame's gradients are computed once and shared by its paths."""
        target_node, target_nr = self.target
        # a frame: node, the output it was reached through, gradient in, its outputs (lazy),
        # the next edge to try
        frames: list[list[Any]] = [[self.root, self.root_nr, self.seed, None, 0]]
        steps: list[Step] = []
        try:
            while frames:
                frame = frames[-1]
                node, output_nr, grad_in, grads_out, index = frame
                edges = node.next_functions
                if index >= len(edges):
                    frames.pop()
                    if steps:
                        steps.pop()
                    continue
                frame[4] = index + 1
                child, child_nr = edges[index]
                reaches = child is target_node and child_nr == target_nr
                if child is None or not (reaches or (child is not target_node
                                                     and counts.get(child, 0))):
                    continue
                if grads_out is None:
                    grads_out = frame[3] = self._backward(node, output_nr, grad_in)
                carried = grads_out[index]
                if carried is None:
                    continue
                step = self._step(node, output_nr, grad_in, index, child, child_nr, carried)
                if reaches:
                    explanation.paths.append(Path([*steps, step], carried.array))
                    self.bound.tick()
                    if len(explanation.paths) >= self.max_paths:
                        if explanation.total_paths > self.max_paths:
                            explanation.stopped = (f"listed the first {self.max_paths} of "
                                                   f"{explanation.total_paths} paths")
                        return
                    continue
                steps.append(step)
                frames.append([child, child_nr, carried, None, 0])
        except _OutOfWork:
            explanation.stopped = (f"stopped listing after {MAX_BACKWARD_CALLS} node backward "
                                   f"calls ({len(explanation.paths)} of "
                                   f"{explanation.total_paths} paths listed)")
        except LimitExceeded as limit:
            explanation.limit = limit
            explanation.stopped = (f"stopped listing at a limit: {limit.what} "
                                   f"({len(explanation.paths)} of {explanation.total_paths} "
                                   "paths listed)")

    def _step(self, node: Any, output_nr: int, grad_in: Tensor, slot: int, child: Any,
              child_nr: int, carried: Tensor) -> Step:
        origin = self.provenance.origin_of(node)
        of = self.output_label if node is self.root and output_nr == self.root_nr else (
            self.provenance.node_label(node, output_nr))
        key = (id(node), output_nr, slot)
        if key not in self.locals:
            local = None
            if grad_in.array.size == 1 and carried.array.size == 1:
                incoming = float(grad_in.array.reshape(()))
                if incoming != 0 and np.isfinite(incoming):  # a scalar VJP is a product
                    local = float(carried.array.reshape(())) / incoming
                else:
                    ones = Tensor._wrap(np.ones_like(grad_in.array))
                    unit = self._backward(node, output_nr, ones)[slot]
                    local = float(unit.array.reshape(())) if unit is not None else 0.0
            self.locals[key] = local
        return Step(node.grad_fn_name, origin.place if origin else None, of,
                    self.provenance.node_label(child, child_nr), self.locals[key],
                    (grad_in.array.shape, carried.array.shape),
                    value_text(carried.array) if self.locals[key] is None else "",
                    _tensor_index(node, slot))

    def _whole(self, counts: dict[Any, int]) -> np.ndarray | None:
        """The sum over all paths, node by node in a topological order (as backward runs);
        None if it cannot be computed."""
        target_node, target_nr = self.target
        leading = [node for node, count in counts.items() if count]
        waiting = dict.fromkeys(leading, 0)
        for node in leading:
            for child, _ in node.next_functions:
                if child in waiting:
                    waiting[child] += 1
        buffers: dict[Any, dict[int, Tensor]] = {self.root: {self.root_nr: self.seed}}
        ready = [self.root]
        total: np.ndarray | None = None
        try:
            while ready:
                node = ready.pop()
                received = buffers.pop(node, {})
                grads: list[Tensor | None] = [None] * (max(received, default=0) + 1)
                for nr, grad in received.items():
                    grads[nr] = grad
                self._spend()
                outputs = list(node.apply_backward(grads))
                for (child, child_nr), grad in zip(node.next_functions, outputs, strict=False):
                    if child is target_node:
                        if child_nr == target_nr and grad is not None:
                            total = grad.array if total is None else total + grad.array
                        continue
                    if child not in waiting:
                        continue
                    if grad is not None:
                        slot = buffers.setdefault(child, {})
                        slot[child_nr] = grad if child_nr not in slot else Tensor._wrap(
                            slot[child_nr].array + grad.array)
                    waiting[child] -= 1
                    if waiting[child] == 0:
                        ready.append(child)
        except RuntimeError:
            return None
        return total


class _OutOfWork(Exception):
    pass


def _tensor_index(node: Any, slot: int) -> int | None:
    """Which tensor argument of the op the node's edge `slot` leads to: edges exist for every
    tensor argument, and for python scalars too in ops that count them (engine/autograd.py)."""
    meta = getattr(node, "input_meta", None)
    if meta is None:
        return None
    counts_scalars = bool(getattr(node, "counts_scalars", False))
    edge = tensor = 0
    for entry in meta:
        if entry is not None or counts_scalars:
            if edge == slot:
                return tensor if entry is not None else None
            edge += 1
        if entry is not None:
            tensor += 1
    return None


def analyse(provenance: Provenance, output: Tensor, input_tensor: Tensor, seed: Tensor,
            explanation: Explanation, max_paths: int = MAX_PATHS,
            bound: Bound | None = None) -> None:
    """Fill `explanation` with the paths from `output` back to `input_tensor`, within `bound`
    (past it: what was found, and `explanation.limit`).

    Runs with no observer and grad mode off: its own backward calls are not the program's.
    """
    root_node, root_nr = gradient_edge(output)
    explanation.input_is_leaf = input_tensor.grad_fn is None
    explanation.input_requires_grad = input_tensor.requires_grad
    if root_node is None or not input_tensor.requires_grad:
        return
    target_node, target_nr = gradient_edge(input_tensor)
    if target_node is None:
        return
    explanation.target = (id(target_node), target_nr)
    if root_node is target_node and root_nr == target_nr:  # d x / d x
        explanation.total_paths = 1
        explanation.paths = [Path([], seed.array)]
        explanation.whole = seed.array
        return
    analysis = _Analysis(provenance, root_node, root_nr, seed, (target_node, target_nr),
                         explanation.output, max_paths, bound)
    previous = recording.set_observer(None)
    try:
        with grad_mode.no_grad():
            analysis.run(explanation)
    finally:
        recording.set_observer(previous)


# --- the observer ------------------------------------------------------------------------------

class ExplainObserver:
    """Analyses the graph when a backward pass from OUTPUT starts (its saved tensors are still
    there then), and notes what reaches INPUT in that pass."""

    def __init__(self, provenance: Provenance, output: str, input_name: str,
                 max_paths: int = MAX_PATHS) -> None:
        self.provenance = provenance
        self.output = output
        self.input = input_name
        self.max_paths = max_paths
        self.explanation: Explanation | None = None
        self.error: str | None = None
        self._pass = -1
        self._listening: tuple[int, int] | None = None  # the target, during an explained pass
        self.end_bound: Bound | None = None  # of an analysis at the end of the program

    def _global(self, name: str) -> Any:
        interpreter = self.provenance.interpreter
        return None if interpreter is None else interpreter.globals.get(name)

    def on_backward_node(self, node: Any, grads_in: Any, grads_out: Any) -> None:
        if recording.backward_passes != self._pass:  # the first node of a new pass
            self._pass = recording.backward_passes
            self._listening = None
            self._start_of_pass(node, grads_in)
        listening, explanation = self._listening, self.explanation
        if listening is not None and explanation is not None and listening[0] == id(node):
            received = grads_in[listening[1]] if listening[1] < len(grads_in) else None
            if isinstance(received, Tensor):
                explanation.delivered = received.array.copy()

    def _start_of_pass(self, node: Any, grads_in: Any) -> None:
        output, input_tensor = self._global(self.output), self._global(self.input)
        if not isinstance(output, Tensor) or not isinstance(input_tensor, Tensor):
            return
        grad_fn = output.grad_fn
        if grad_fn is not node or output.output_nr >= len(grads_in):
            return  # a pass from another root: OUTPUT's own pass (or the end) explains it
        seed = grads_in[output.output_nr]
        if not isinstance(seed, Tensor):
            return
        line = self.provenance.here().line
        explanation = Explanation(self.output, self.input, seed.array.copy(),
                                  f"the backward pass from {self.output} at line {line}",
                                  from_output_pass=True)
        try:
            analyse(self.provenance, output, input_tensor, seed, explanation, self.max_paths,
                    self._bound_of_the_run())
        except RuntimeError as error:  # e.g. saved tensors modified in place
            self.error = f"cannot explain the pass at line {line}: {error}"
            return
        self.explanation, self.error = explanation, None
        self._listening = explanation.target

    def _bound_of_the_run(self) -> Bound:
        """Inside a pass: the program's own deadline and memory limit (past them, the listing
        stops, and the program at its next statement)."""
        interpreter = self.provenance.interpreter
        deadline, limits = getattr(interpreter, "deadline", None), getattr(interpreter, "limits",
                                                                          None)
        if not isinstance(deadline, float) or limits is None:
            return Bound.unbounded()
        return Bound(deadline, f"{limits.max_seconds:g} seconds",
                     f"the program (with the analysis of its backward pass from {self.output})",
                     limits.max_resident_bytes)

    def finish(self, variables: dict[str, Any], bound: Bound | None = None) -> Explanation:
        """After the run: the explanation, with INPUT.grad as the program left it; an analysis
        at the end of the program stays within `bound` (LimitExceeded if its walk cannot)."""
        self.end_bound = bound
        output, input_tensor = variables.get(self.output), variables.get(self.input)
        for name, value in ((self.output, output), (self.input, input_tensor)):
            if not isinstance(value, Tensor):
                tensors = sorted(n for n, v in variables.items() if isinstance(v, Tensor))
                what = "is not defined" if value is None else (
                    f"is a {type(value).__name__}, not a tensor")
                raise ExplainError(f"{name} {what} when the program ends (its tensors: "
                                   f"{', '.join(tensors) or 'none'})")
        assert isinstance(output, Tensor) and isinstance(input_tensor, Tensor)
        explanation = self.explanation
        if explanation is None:
            if self.error is not None:
                raise ExplainError(self.error)
            explanation = self._at_the_end(output, input_tensor)
        grad = input_tensor._grad  # read directly: a non-leaf must not warn
        explanation.final_grad = None if grad is None else grad.array.copy()
        return explanation

    def _at_the_end(self, output: Tensor, input_tensor: Tensor) -> Explanation:
        if output.grad_fn is not None and output.array.size != 1:
            raise ExplainError(f"{self.output} has {output.array.size} elements and the "
                               f"program never runs {self.output}.backward(gradient): explain "
                               "needs a scalar output, or that backward pass")
        seed = Tensor._wrap(np.ones_like(output.array))
        explanation = Explanation(self.output, self.input, seed.array,
                                  f"the graph of {self.output} when the program ends "
                                  f"(it never runs {self.output}.backward(); seed 1)")
        try:
            analyse(self.provenance, output, input_tensor, seed, explanation, self.max_paths,
                    self.end_bound)
        except RuntimeError as error:
            raise ExplainError(f"cannot walk the graph of {self.output}: {error}") from None
        return explanation


# --- the text ----------------------------------------------------------------------------------

def _derivative(step: Step) -> str:
    return f"d{step.of}/d{step.wrt}"


def _step_lines(step: Step) -> list[str]:
    where = f", {step.place}" if step.place is not None else ""
    if step.local is not None:
        return [f"    {_derivative(step) + ' = ' + number_text(step.local):<28} "
                f"{step.grad_fn}{where}"]
    out_shape, in_shape = (_shape(s) for s in step.shapes)
    return [f"    {_derivative(step):<28} {step.grad_fn}{where}",
            f"        Jacobian {out_shape} -> {in_shape}; gradient carried so far: "
            f"{step.carried}"]


def _shape(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _chain(output: str, steps: list[Step]) -> str:
    labels = [output] + [s.wrt for s in steps]
    if len(labels) > SHOWN_STEPS:
        labels = labels[:SHOWN_STEPS // 2] + [f"... {len(labels) - SHOWN_STEPS} more ..."] + \
            labels[-SHOWN_STEPS // 2:]
    return " <- ".join(labels)


def _product_line(path: Path, seed: np.ndarray) -> str:
    factors = [s.local for s in path.steps]
    if all(f is not None for f in factors) and seed.size == 1 and len(factors) <= SHOWN_STEPS:
        seed_value = float(seed.reshape(()))
        shown = ([] if seed_value == 1 else [f"seed {number_text(seed_value)}"]) + [
            number_text(f) for f in factors if f is not None]
        return f"    product: {' x '.join(shown) or '1'} = {value_text(path.product)}"
    return f"    product (carried along the path): {value_text(path.product)}"


def _close(first: np.ndarray, second: np.ndarray) -> bool:
    if first.shape != second.shape and first.size != second.size:
        return False
    a = np.asarray(first, dtype=np.float64).reshape(second.shape if first.size == second.size
                                                     else first.shape)
    b = np.asarray(second, dtype=np.float64)
    return bool(np.allclose(a, b, rtol=1e-4, atol=1e-6, equal_nan=True))


def format_explanation(explanation: Explanation) -> str:
    """The explanation as text; names and labels with any unprintable character escaped."""
    return visible(_explanation_text(explanation))


def _explanation_text(explanation: Explanation) -> str:
    e = explanation
    lines = [f"d{e.output}/d{e.input}: from {e.how}."]
    if not e.input_requires_grad:
        lines.append(f"{e.input} does not require grad: autograd records no path to it "
                     f"(create it with requires_grad=True).")
        return "\n".join(lines) + "\n"
    if e.total_paths == 0:
        lines.append(f"no path from {e.output} back to {e.input}: {e.output} does not depend on "
                     f"{e.input} through autograd (it is not used, or the path is cut by "
                     "no_grad() or detach()).")
        return "\n".join(lines) + "\n"
    seed = e.seed
    if not (seed.size == 1 and float(seed.reshape(())) == 1.0):
        lines.append(f"seed (the gradient fed into {e.output}): {value_text(seed)}")
    count = e.total_paths
    lines.append(f"{count} path{'s' if count != 1 else ''} from {e.output} back to {e.input}:")
    for number, path in enumerate(e.paths, 1):
        lines.append("")
        lines.append(f"path {number}: {_chain(e.output, path.steps)}")
        steps = path.steps
        if len(steps) > SHOWN_STEPS:
            half = SHOWN_STEPS // 2
            lines += [line for s in steps[:half] for line in _step_lines(s)]
            lines.append(f"    ... {len(steps) - SHOWN_STEPS} more steps ...")
            lines += [line for s in steps[-half:] for line in _step_lines(s)]
        else:
            lines += [line for s in steps for line in _step_lines(s)]
        lines.append(_product_line(path, seed))
    lines.append("")
    lines += _sum_lines(e)
    return "\n".join(lines) + "\n"


def _sum_lines(e: Explanation) -> list[str]:
    products = [p.product for p in e.paths]
    complete = e.stopped is None and len(products) == e.total_paths
    lines = []
    if complete:
        total = products[0].astype(np.float64)
        for product in products[1:]:
            total = total + product
        terms = " + ".join(value_text(p) for p in products) if (
            len(products) <= 8 and all(p.size == 1 for p in products)) else ""
        equation = f"{terms} = " if len(products) > 1 and terms else ""
        lines.append(f"sum over the {len(products)} path{'s' if len(products) != 1 else ''}: "
                     f"{equation}{value_text(total)}")
    else:
        lines.append(f"not every path is listed: {e.stopped}.")
        if e.whole is None:
            reason = f": {e.limit.what}" if e.limit is not None else ""
            lines.append(f"the whole sum could not be computed{reason}.")
            return lines
        total = e.whole
        lines.append(f"sum over all {e.total_paths} paths, computed node by node as backward "
                     f"does: {value_text(total)}")
    lines += _check_lines(e, total)
    if complete and e.limit is not None:  # the sum node by node, for the check, was cut
        lines.append(f"the check node by node was cut short: {e.limit.what}.")
    return lines


def _check_lines(e: Explanation, total: np.ndarray) -> list[str]:
    name = f"{e.input}.grad"
    if e.final_grad is not None:
        if _close(e.final_grad, total):
            return [f"check: {name} = {value_text(e.final_grad)}, the sum of the paths. OK"]
        line = f"check: {name} = {value_text(e.final_grad)}, not the sum of the paths"
        if e.delivered is not None and _close(e.delivered, total):
            if not e.final_grad.any():
                return [line + ": this pass added the sum, and the program zeroed "
                        f"{name} after it (zero_())."]
            return [line + ": this pass added the sum, but " + name + " also holds gradients "
                    "from other backward passes (it accumulates until zero_()), or was changed "
                    "after it."]
        if e.delivered is not None:
            return [line + f": the gradient that reached {e.input} in this pass was "
                    f"{value_text(e.delivered)} (a hook changed it?)."]
        return [line + (": the program ran no backward pass from "
                         f"{e.output}" if not e.from_output_pass else "") + "."]
    if e.delivered is not None:
        verdict = "OK" if _close(e.delivered, total) else "MISMATCH"
        note = "" if e.input_is_leaf else f" ({name} is not kept: {e.input} is not a leaf; " \
            "retain_grad() would keep it)"
        return [f"check: the gradient that reached {e.input} in this pass = "
                f"{value_text(e.delivered)}{note}. {verdict}"]
    if e.whole is not None:
        verdict = "OK" if _close(e.whole, total) else "MISMATCH"
        return [f"check: backward from {e.output} would give {name} = {value_text(e.whole)}. "
                f"{verdict}"]
    return []


# --- the picture -------------------------------------------------------------------------------

_NUMBERED = re.compile(r"^(.*?)(?: \((\d+)\))?$")


def _rank(name: str) -> tuple[str, int]:
    """`y` -> ("y", 1), `y (3)` -> ("y", 3): the recorder's numbering, by binding order."""
    match = _NUMBERED.match(name)
    assert match is not None
    return match.group(1), int(match.group(2) or 1)


def highlight_paths(graph: Graph, explanation: Explanation) -> Graph:
    """The forward model with the tensors, ops and edges on the listed paths marked "path"."""
    producers: dict[str, str] = {}  # tensor id -> the op that made it
    inputs_of: dict[str, list[Edge]] = {}  # op id -> its input edges, in input order
    kinds = {node.id: node for node in graph.nodes}
    for edge in graph.edges:
        if edge.kind != "data":
            continue
        if kinds.get(edge.src) is not None and kinds[edge.src].kind == "op":
            producers[edge.dst] = edge.src
        else:
            inputs_of.setdefault(edge.dst, []).append(edge)
    outputs = [n for n in graph.nodes if n.kind == "tensor" and isinstance(n.attrs.get("name"), str)
               and _rank(n.attrs["name"])[0] == explanation.output]
    if not outputs:
        return graph
    start = max(outputs, key=lambda n: _rank(n.attrs["name"])[1]).id
    on_path: set[str] = set()
    edges_on_path: set[tuple[str, str]] = set()
    for path in explanation.paths:
        current = start
        on_path.add(current)
        for step in path.steps:
            op = producers.get(current)
            candidates = inputs_of.get(op or "", [])
            if op is None or not candidates:
                break
            chosen = _input_edge(candidates, step, kinds)
            if chosen is None:
                break
            on_path.update((op, chosen.src))
            edges_on_path.update(((op, current), (chosen.src, chosen.dst)))
            current = chosen.src
    nodes = [dataclasses.replace(n, role="path") if n.id in on_path and n.role != "anomaly"
             else n for n in graph.nodes]
    edges = [dataclasses.replace(e, kind="path") if (e.src, e.dst) in edges_on_path
             and e.kind == "data" else e for e in graph.edges]
    return dataclasses.replace(graph, nodes=nodes, edges=edges)


def _input_edge(candidates: list[Edge], step: Step, kinds: dict[str, Any]) -> Edge | None:
    """The input edge of an op that a step goes back along: the op's tensor argument number
    `input_index` (the recorder draws them in argument order), else the one named as the
    step's input."""
    if step.input_index is not None and step.input_index < len(candidates):
        return candidates[step.input_index]
    named = [e for e in candidates if kinds[e.src].attrs.get("name") is not None
             and _rank(kinds[e.src].attrs["name"])[0] == step.wrt]
    return named[0] if named else (candidates[0] if len(candidates) == 1 else None)
