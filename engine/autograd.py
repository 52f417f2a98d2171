"""The backward graph and the engine that walks it.

A `Node` is what PyTorch calls a grad_fn. Ops subclass `Function` (engine/ops/) and give
their forward on numpy arrays and their backward on Tensors, side by side; backward written
on Tensors is what makes `create_graph=True` give higher-order derivatives for free.

The engine, not each op, undoes broadcasting (`sum_to`) and casts gradients back to the
input's dtype. Walks are loops over explicit stacks and queues, never recursion.
"""

from __future__ import annotations

import heapq
import itertools
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import grad_mode, recording

if TYPE_CHECKING:
    from engine.tensor import Tensor

_sequence = itertools.count()

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)
INPLACE_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)

Edge = tuple["Node | None", int]


class Node:
    """A node of the backward graph (a `grad_fn`)."""

    PUBLIC_ATTRS = frozenset({"next_functions", "name", "register_hook", "register_prehook",
                              "metadata"})
    grad_fn_name = "Node"

    def __init__(self) -> None:
        self.sequence_nr = next(_sequence)
        self.next_functions: tuple[Edge, ...] = ()
        self.pre_hooks: dict[int, list[Callable[[Any], Any]]] = {}
        self.post_hooks: list[Callable[..., Any]] = []
        self.retained: dict[int, weakref.ref[Tensor]] = {}
        self.metadata: dict[str, Any] = {}
        self.location = recording.location

    def name(self) -> str:
        return self.grad_fn_name

    def __repr__(self) -> str:
        return f"<{self.grad_fn_name} object at {hex(id(self))}>"

    def register_hook(self, hook: Callable[..., Any]) -> None:
        self.post_hooks.append(hook)

    def register_prehook(self, hook: Callable[..., Any]) -> None:
        self.pre_hooks.setdefault(0, []).append(hook)

    def apply_backward(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        raise NotImplementedError

    def release(self) -> None:
        """Free what was saved for backward (called after a backward without retain_graph)."""


class AccumulateGrad(Node):
    """The sink at a leaf that requires grad: adds the incoming gradient into `leaf.grad`."""

    PUBLIC_ATTRS = Node.PUBLIC_ATTRS | {"variable"}
    grad_fn_name = "AccumulateGrad"

    def __init__(self, variable: Tensor) -> None:
        super().__init__()
        self.variable = variable

    def apply_backward(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        grad = grads[0]
        if grad is not None:
            accumulate_into(self.variable, grad)
        return ()


def accumulate_into(tensor: Tensor, grad: Tensor) -> None:
    """`tensor.grad += grad`, PyTorch's way: in place when no graph is being built."""
    from engine.tensor import Tensor

    if tensor.grad is None:
        if grad_mode.is_grad_enabled():
            tensor.grad = grad
        else:
            tensor.grad = Tensor._wrap(np.array(grad.array, dtype=tensor.array.dtype, copy=True))
    elif grad_mode.is_grad_enabled():
        tensor.grad = tensor.grad + grad
    else:
        tensor.grad.array += grad.array
        tensor.grad.bump_version()


class Function(Node):
    """An op: `forward` on numpy arrays, `backward` on Tensors, and PyTorch's grad_fn name.

    Subclasses set `grad_fn_name`, `saves` (indices of the inputs that backward reads) and
    `saves_output`; they keep non-tensor state (dims, shapes) as attributes set in `forward`.
    `backward(grad, inputs, output)` returns one gradient per input (None where there is none);
    inputs that are not saved arrive as None.
    """

    saves: tuple[int, ...] = ()
    saves_output = False
    promotes = False  # elementwise ops: inputs are cast to PyTorch's result dtype first
    differentiable = True

    def forward(self, *arrays: Any) -> np.ndarray:
        raise NotImplementedError

    def backward(self, grad: Tensor, inputs: tuple[Any, ...], output: Tensor | None
                 ) -> Sequence[Tensor | None]:
        raise NotImplementedError

    def saved_indices(self, needs: tuple[bool, ...]) -> tuple[int, ...]:
        """Which inputs to keep for backward; ops whose needs depend on `needs` override this."""
        return self.saves

    @classmethod
    def apply(cls, *args: Any, **params: Any) -> Tensor:
        from engine.tensor import Tensor, prepare_operands

        fn = cls()
        arrays = prepare_operands(args) if cls.promotes else [
            a.array if isinstance(a, Tensor) else a for a in args]
        out = Tensor._wrap(fn.forward(*arrays, **params))
        if (cls.differentiable and grad_mode.is_grad_enabled()
                and any(isinstance(a, Tensor) and a.requires_grad for a in args)):
            fn.connect(args, out)
        if recording.observer is not None:
            recording.observer.on_op(cls.__name__, out.grad_fn, args, out)
        return out

    def connect(self, args: Sequence[Any], out: Tensor) -> None:
        """Record this node in the graph: edges to the inputs, saved tensors, and `out.grad_fn`."""
        from engine.tensor import Tensor

        needs = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        self.needs = needs
        self.next_functions = tuple(
            gradient_edge(a) for a in args if isinstance(a, Tensor) or self.counts_scalars)
        self.input_meta = [(a.shape_tuple, a.array.dtype) if isinstance(a, Tensor) else None
                           for a in args]
        self.saved: list[Any] | None = [None] * len(args)
        self.saved_versions: list[int] = [0] * len(args)
        self.saved_creators: list[str | None] = [None] * len(args)
        for i in self.saved_indices(needs):
            self.save(i, args[i])
        self.saved_output: Tensor | None = None
        if self.saves_output:
            self.saved_output = out
            self.output_version = 0
        self.output_meta = (out.shape_tuple, out.array.dtype)
        out._requires_grad = True
        out.grad_fn = self
        out.output_nr = 0

    counts_scalars = False  # binary ops list a python scalar operand as (None, 0), as PyTorch does

    def save(self, index: int, value: Any) -> None:
        from engine.tensor import Tensor

        assert self.saved is not None
        self.saved[index] = value
        if isinstance(value, Tensor):
            self.saved_versions[index] = value.version
            creator = value.grad_fn
            self.saved_creators[index] = (
                None if creator is None else creator.grad_fn_name.removesuffix("Backward0")
                .removesuffix("Backward1").removesuffix("Backward2"))

    def release(self) -> None:
        self.saved = None
        self.saved_output = None
        self.released = True

    released = False

    def unpack(self) -> tuple[tuple[Any, ...], Tensor | None]:
        """The saved inputs and output, checked: not freed, not modified in place since."""
        from engine.tensor import Tensor

        if self.released:
            raise RuntimeError(SECOND_BACKWARD)
        assert self.saved is not None
        for i, value in enumerate(self.saved):
            if isinstance(value, Tensor) and value.version != self.saved_versions[i]:
                raise RuntimeError(modified_message(value, self.saved_versions[i],
                                                    self.saved_creators[i]))
        out = self.saved_output
        if out is not None and out.version != self.output_version:
            raise RuntimeError(modified_message(out, self.output_version,
                                                self.grad_fn_name.removesuffix("Backward0")))
        return tuple(self.saved), out

    def apply_backward(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        inputs, out = self.unpack()
        grad = grads[0]
        assert grad is not None
        results = self.backward(grad, inputs, out)
        tensor_results = []
        for i, meta in enumerate(self.input_meta):
            if meta is None:
                if self.counts_scalars:
                    tensor_results.append(None)
                continue
            g = results[i] if self.needs[i] else None
            tensor_results.append(None if g is None else fit_gradient(g, *meta))
        return tensor_results


def modified_message(tensor: Tensor, expected: int, creator: str | None) -> str:
    shape = list(tensor.shape_tuple)
    what = f"[torch.{tensor.dtype.legacy_name} {shape}]"
    if creator is not None:
        what += f", which is output 0 of {creator},"
    return ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: {what} is at version {tensor.version}; expected version "
            f"{expected} instead. {INPLACE_HINT}")


def fit_gradient(grad: Tensor, shape: tuple[int, ...], dtype: np.dtype) -> Tensor:
    """Undo broadcasting (sum back to the input's shape) and cast to the input's dtype."""
    from engine.ops.shape import sum_to

    if grad.shape_tuple != shape:
        grad = sum_to(grad, shape)
    if grad.array.dtype != dtype:
        grad = grad.to_numpy_dtype(dtype)
    return grad


def gradient_edge(tensor: Any) -> Edge:
    """Where a gradient for `tensor` goes: its grad_fn, its AccumulateGrad, or nowhere."""
    from engine.tensor import Tensor

    if not isinstance(tensor, Tensor) or not tensor.requires_grad:
        return (None, 0)
    if tensor.grad_fn is not None:
        return (tensor.grad_fn, tensor.output_nr)
    return (tensor.accumulator(), 0)


# --- the engine --------------------------------------------------------------------------------

def run_backward(outputs: Sequence[Tensor], grad_outputs: Sequence[Tensor],
                 retain_graph: bool, create_graph: bool,
                 inputs: Sequence[Tensor] | None = None,
                 capture: bool = False, allow_unused: bool = False) -> list[Tensor | None]:
    """Propagate `grad_outputs` from `outputs` back through the graph.

    With `capture` (autograd.grad) the gradients reaching `inputs` are returned and no `.grad`
    is touched. Otherwise gradients accumulate into leaves (only `inputs`, if given).
    """
    roots: list[Edge] = [gradient_edge(t) for t in outputs]
    targets: dict[tuple[int, int], int] = {}  # (id(node), output_nr) -> index in inputs
    target_nodes: list[Edge] = []
    if inputs is not None:
        for index, tensor in enumerate(inputs):
            edge = gradient_edge(tensor)
            if edge[0] is None:
                if capture:
                    raise RuntimeError("One of the differentiated Tensors does not require grad")
                continue
            targets[(id(edge[0]), edge[1])] = index
            target_nodes.append(edge)

    dependencies, needed = _count_dependencies(roots, target_nodes if inputs is not None else None)
    buffers: dict[Node, list[Tensor | None]] = {}
    ready: list[tuple[int, int, Node]] = []
    tie = itertools.count()

    def send(node: Node | None, output_nr: int, grad: Tensor | None) -> None:
        if node is None or (needed is not None and node not in needed):
            return
        buffer = buffers.get(node)
        if buffer is None:
            buffer = buffers[node] = [None] * max(output_nr + 1, 1)
        while len(buffer) <= output_nr:
            buffer.append(None)
        if grad is not None:
            old = buffer[output_nr]
            buffer[output_nr] = grad if old is None else old + grad

    for (node, output_nr), grad in zip(roots, grad_outputs):
        if node is None:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a "
                               "grad_fn")
        send(node, output_nr, grad)
    for node, _ in roots:
        assert node is not None
        if needed is not None and node not in needed:
            continue
        dependencies[node] -= 1
        if dependencies[node] == 0:
            heapq.heappush(ready, (-node.sequence_nr, next(tie), node))

    results: list[Tensor | None] = [None] * (len(inputs) if inputs is not None else 0)
    with grad_mode.set_grad_enabled(create_graph):
        while ready:
            _, _, node = heapq.heappop(ready)
            grads = buffers.pop(node, [None])
            grads = _run_pre_hooks(node, grads)
            stop_here = False
            for output_nr, grad in enumerate(grads):
                index = targets.get((id(node), output_nr))
                if index is None or inputs is None:
                    continue
                if capture:
                    results[index] = grad
                    stop_here = not isinstance(node, Function) or not _leads_further(node, needed)
                elif not isinstance(node, AccumulateGrad) and grad is not None:
                    accumulate_into(inputs[index], grad)
            if capture and isinstance(node, AccumulateGrad):
                stop_here = True
            if stop_here and capture:
                grads_out: Sequence[Tensor | None] = []
            elif all(g is None for g in grads):
                grads_out = [None] * len(node.next_functions)
            else:
                if grads[0] is None and isinstance(node, Function):
                    grads = list(grads)
                    grads[0] = _zeros_for(node)
                grads_out = node.apply_backward(grads)
                if len(grads_out) != len(node.next_functions) and not isinstance(
                        node, AccumulateGrad):
                    raise RuntimeError(f"function {node.grad_fn_name} returned an incorrect "
                                       f"number of gradients (expected "
                                       f"{len(node.next_functions)}, got {len(grads_out)})")
                for hook in node.post_hooks:
                    hook(tuple(grads_out), tuple(grads))
            if recording.observer is not None:
                recording.observer.on_backward_node(node, grads, grads_out)
            if not retain_graph:
                node.release()
            for (child, child_nr), grad in zip(node.next_functions, grads_out):
                if child is None or (needed is not None and child not in needed):
                    continue
                send(child, child_nr, grad)
                dependencies[child] -= 1
                if dependencies[child] == 0:
                    heapq.heappush(ready, (-child.sequence_nr, next(tie), child))
    if capture and inputs is not None and not allow_unused:
        for index, value in enumerate(results):
            if value is None:
                raise RuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been used "
                    "in the graph. Set allow_unused=True if this is the desired behavior.")
    return results


def _zeros_for(node: Node) -> Tensor:
    from engine.tensor import Tensor

    shape, dtype = node.output_meta  # type: ignore[attr-defined]
    return Tensor._wrap(np.zeros(shape, dtype=dtype))


def _leads_further(node: Node, needed: set[Node] | None) -> bool:
    return needed is not None and any(child in needed for child, _ in node.next_functions)


def _run_pre_hooks(node: Node, grads: list[Tensor | None]) -> list[Tensor | None]:
    """Tensor hooks (register_hook) may replace the gradient; retain_grad keeps it, last."""
    if node.pre_hooks:
        grads = list(grads)
        for output_nr, hooks in node.pre_hooks.items():
            for hook in hooks:
                if output_nr < len(grads) and grads[output_nr] is not None:
                    replaced = hook(grads[output_nr])
                    if replaced is not None:
                        grads[output_nr] = replaced
    for output_nr, ref in node.retained.items():
        tensor = ref()
        if tensor is not None and output_nr < len(grads) and grads[output_nr] is not None:
            grad = grads[output_nr]
            assert grad is not None
            if tensor.grad is None:
                tensor.grad = grad if grad_mode.is_grad_enabled() else grad.detach().clone()
            else:
                tensor.grad = tensor.grad + grad
    return grads


def _count_dependencies(roots: Sequence[Edge], targets: Sequence[Edge] | None
                        ) -> tuple[dict[Node, int], set[Node] | None]:
    """In-edge counts of every node reachable from the roots, by an explicit-stack walk.

    With targets, also the set of nodes that lie on a path to one of them (the rest of the
    graph is not executed, as in PyTorch's autograd.grad and backward(inputs=...)).
    """
    dependencies: dict[Node, int] = {}
    order: list[Node] = []
    stack = [node for node, _ in roots if node is not None]
    for node in stack:
        dependencies[node] = dependencies.get(node, 0) + 1
    seen: set[Node] = set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        for child, _ in node.next_functions:
            if child is None:
                continue
            dependencies[child] = dependencies.get(child, 0) + 1
            if child not in seen:
                stack.append(child)
    if targets is None:
        return dependencies, None
    target_set = {node for node, _ in targets}
    needed: set[Node] = set()
    # Reverse post-order is not available without recursion; iterate to a fixed point instead
    # over the discovery order, children before parents by walking it backwards repeatedly.
    changed = True
    while changed:
        changed = False
        for node in reversed(order):
            if node in needed:
                continue
            if node in target_set or any(child in needed for child, _ in node.next_functions):
                needed.add(node)
                changed = True
    # Recount in-edges within the needed subgraph only.
    counts: dict[Node, int] = dict.fromkeys(needed, 0)
    for node, _ in roots:
        if node in needed:
            counts[node] += 1
    for node in needed:
        for child, _ in node.next_functions:
            if child in needed:
                counts[child] += 1
    return counts, needed
