"""The backward walk: from the outputs' grad_fns to the leaves, in PyTorch's order.

A node runs once all its consumers have sent their gradients, the most recently created first
among those ready; hooks, retained gradients and the targets of `autograd.grad` run only at the
nodes that have them (`Node.hooked`). Walks are loops over explicit stacks and queues, never
recursion. The graph itself (`Node`, `Function`) is engine/autograd.py's.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine import budget, grad_mode, recording
from engine.autograd import (
    _POST_ACCUMULATE_HOOKS,
    AccumulateGrad,
    Edge,
    Node,
    gradient_edge,
    next_sequence,
    retain_into,
)
from engine.tensor import Tensor

try:  # engine/backward_walk.c, the compiled twin of the two loops marked below (optional)
    import engine._backward_walk as _compiled
except ImportError:  # built without a C compiler: the loops below, in Python
    _compiled = None
compiled_walk: Any = _compiled

_grad_state = grad_mode.state


def run_backward(outputs: Sequence[Tensor], grad_outputs: Sequence[Tensor],
                 retain_graph: bool, create_graph: bool,
                 inputs: Sequence[Tensor] | None = None,
                 capture: bool = False, allow_unused: bool = False) -> list[Tensor | None]:
    """Propagate `grad_outputs` from `outputs` back through the graph.

    Nodes run in PyTorch's order: a node runs once all its consumers have sent their
    gradients, the most recently created first among those ready. With `inputs`, only the
    part of the graph that leads to them runs. With `capture` (autograd.grad) the gradients
    reaching `inputs` are returned and no leaf `.grad` is touched; otherwise gradients
    accumulate into leaves (only `inputs`, if given).
    """
    roots = [gradient_edge(t) for t in outputs]
    for node, _ in roots:
        if node is None:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a "
                               "grad_fn")
    targets: dict[tuple[int, int], int] = {}  # (id(node), output_nr) -> index in inputs
    target_nodes: set[Node] = set()
    for index, tensor in enumerate(inputs or ()):
        node, output_nr = gradient_edge(tensor)
        if node is not None:
            targets[(id(node), output_nr)] = index
            target_nodes.add(node)
    counted = (compiled_walk.count(roots, AccumulateGrad)
               if compiled_walk is not None and inputs is None else None)
    if counted is None:
        dependencies, needed, hooked = _count_dependencies(
            roots, target_nodes if inputs is not None else None)
    else:
        (dependencies, hooked), needed = counted, None
        budget.check_graph_nodes(len(dependencies))
    # Nothing watches the walk but an observer that takes arrays (no hooks, no graph built, no
    # targets): gradients pass from node to node as numpy arrays (`Node.apply_arrays`), no
    # Tensor made for each.
    observer = recording.observer
    on_arrays = not (hooked or create_graph or inputs is not None or _POST_ACCUMULATE_HOOKS
                     or (observer is not None and not recording.takes_arrays(observer)))
    if on_arrays and compiled_walk is not None:
        _walk_compiled(roots, [g.array for g in grad_outputs], dependencies, retain_graph,
                       observer)
        return []
    sent_first: Sequence[Any] = [g.array for g in grad_outputs] if on_arrays else grad_outputs
    buffers: dict[Node, list[Any]] = {}
    ready: list[tuple[int, int, Node]] = []
    for (node, output_nr), grad in zip(roots, sent_first, strict=True):
        assert node is not None
        if needed is None or node in needed:
            _send(buffers, node, output_nr, grad)
            dependencies[node] -= 1
            if dependencies[node] == 0:
                heapq.heappush(ready, (-node.sequence_nr, next_sequence(), node))

    results: list[Tensor | None] = [None] * (len(inputs) if inputs is not None else 0)
    previous_mode = _grad_state["enabled"]
    _grad_state["enabled"] = create_graph
    recording.begin_backward()
    pop, push = heapq.heappop, heapq.heappush
    try:  # (the walk that engine/backward_walk.c compiles, for on_arrays; its twin below)
        while ready:
            node = pop(ready)[2]
            grads = buffers.pop(node, _NO_GRADS)
            edges = node.next_functions
            if node.hooked or (node.__class__ is AccumulateGrad
                               and node.variable._hooks) or targets:  # type: ignore
                grads, grads_out = (_hooked_node(node, grads) if on_arrays else _run_hooked(
                    node, grads, targets, target_nodes, needed, capture, results))
            elif grads[0] is None and all(g is None for g in grads):
                grads_out = [None] * len(edges)
            else:
                grads_out = node.apply_arrays(grads) if on_arrays else node.apply_backward(grads)
                if len(grads_out) != len(edges) and node.__class__ is not AccumulateGrad:
                    raise RuntimeError(_count_message(node, grads_out))
            if observer is not None:
                observer.on_backward_node(node, grads, grads_out)
            if not retain_graph:
                node.release()
            for (child, child_nr), sent in zip(edges, grads_out, strict=True):
                if child is None or (needed is not None and child not in needed):
                    continue
                buffer = buffers.get(child)
                if buffer is None and child_nr == 0:  # the common case: a first gradient
                    buffers[child] = [sent]
                else:
                    _send(buffers, child, child_nr, sent)
                count = dependencies[child] - 1
                dependencies[child] = count
                if count == 0:
                    push(ready, (-child.sequence_nr, next_sequence(), child))
    finally:
        _grad_state["enabled"] = previous_mode
        recording.end_backward()
    if capture and inputs is not None and not allow_unused:
        for index, value in enumerate(results):
            if value is None:
                raise RuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been used "
                    "in the graph. Set allow_unused=True if this is the desired behavior.")
    return results


_NO_GRADS: list[Tensor | None] = [None]  # what a node gets when nothing was sent to it (read only)


def _walk_compiled(roots: list[Edge], grads: list[Any], dependencies: dict[Node, int],
                   retain_graph: bool, observer: Any) -> None:
    """run_backward's walk on arrays, without targets, in engine/backward_walk.c: the same
    nodes in the same order, each through the same Python calls (the observer's too)."""
    assert compiled_walk is not None
    previous_mode = _grad_state["enabled"]
    _grad_state["enabled"] = False
    recording.begin_backward()
    try:
        compiled_walk.walk(roots, grads, dependencies, retain_graph, AccumulateGrad,
                           _NO_GRADS, _send, _hooked_node, _count_message,
                           None if observer is None else observer.on_backward_node)
    finally:
        _grad_state["enabled"] = previous_mode
        recording.end_backward()


def _hooked_node(node: Node, grads: list[Any]) -> tuple[list[Any], list[Any]]:
    """A node that gained hooks during a walk on arrays (a custom Function's backward added
    them): its hooks see tensors, as everywhere; the walk goes on with arrays."""
    wrap = Tensor._wrap
    received, sent = _run_hooked(node, [None if g is None else wrap(g) for g in grads], {},
                                 set(), None, False, [])
    return ([None if g is None else g.array for g in received],
            [None if g is None else g.array for g in sent])


def _count_message(node: Node, grads_out: Sequence[Tensor | None]) -> str:
    expected = len(node.next_functions)
    return (f"function {node.grad_fn_name} returned an incorrect number of gradients (expected "
            f"{expected}, got {len(grads_out)})")


def _run_hooked(node: Node, grads: list[Tensor | None], targets: dict[tuple[int, int], int],
                target_nodes: set[Node], needed: set[Node] | None, capture: bool,
                results: list[Tensor | None]
                ) -> tuple[list[Tensor | None], Sequence[Tensor | None]]:
    """One node of the backward walk with what the plain walk skips: tensor hooks, retained
    gradients, the node's pre- and post-hooks, and the targets of autograd.grad / inputs=.
    Returns the gradients the node received (after its hooks) and those it sends on."""
    if node.pre_hooks or node.retained or (node.__class__ is AccumulateGrad
                                            and node.variable._hooks):  # type: ignore
        grads = _run_pre_hooks(node, list(grads))
    if node.node_pre_hooks:
        for hook in node.node_pre_hooks:
            replaced = hook(tuple(grads))
            if replaced is not None:
                grads = _hook_results(hook, grads, replaced)
    stop_here = False
    if targets:
        for nr, received in enumerate(grads):
            slot = targets.get((id(node), nr))
            if slot is not None and capture:
                results[slot] = received
        if node in target_nodes:
            # A target's own backward runs only if it leads on to another target;
            # backward() still runs a target leaf's AccumulateGrad.
            leaf = isinstance(node, AccumulateGrad)
            stop_here = (leaf and capture) or (not leaf and not any(
                child in needed for child, _ in node.next_functions))  # type: ignore
    edges = node.next_functions
    if stop_here or (grads[0] is None and all(g is None for g in grads)):
        return grads, [None] * len(edges)
    grads_out = node.apply_backward(grads)
    if len(grads_out) != len(edges) and node.__class__ is not AccumulateGrad:
        raise RuntimeError(_count_message(node, grads_out))
    if node.post_hooks:
        for hook in node.post_hooks:
            replaced = hook(tuple(grads_out), tuple(grads))
            if replaced is not None:
                grads_out = _hook_results(hook, grads_out, replaced)
    return grads, grads_out


def _send(buffers: dict[Node, list[Any]], node: Node, output_nr: int, grad: Any) -> None:
    """Add `grad` (a Tensor, or an array in the walk on arrays) into the input buffer of
    `node` for its output `output_nr`."""
    buffer = buffers.get(node)
    if buffer is None:
        buffer = buffers[node] = [None] * (output_nr + 1)
    elif len(buffer) <= output_nr:
        buffer.extend([None] * (output_nr + 1 - len(buffer)))
    if grad is not None:
        old = buffer[output_nr]
        if old is None:
            buffer[output_nr] = grad
        else:
            total = old + grad
            # numpy's sum of two 0-dim arrays is a scalar
            buffer[output_nr] = np.asarray(total) if isinstance(total, np.generic) else total


def _run_pre_hooks(node: Node, grads: list[Tensor | None]) -> list[Tensor | None]:
    """Tensor hooks (register_hook) may replace the gradient; retain_grad keeps it, last."""
    for output_nr, grad in enumerate(grads):
        if grad is None:
            continue
        for hook in node.tensor_hooks(output_nr):
            replaced = hook(grad)
            if replaced is not None:
                grad = checked_hook_result(_hook_name(hook), grad, replaced)
        grads[output_nr] = grad
        if node.retained is not None:
            ref = node.retained.get(output_nr)
            tensor = ref() if ref is not None else None
            if tensor is not None:
                retain_into(tensor, grad)
    return grads


def _hook_name(hook: Any) -> str:
    name = getattr(hook, "__name__", None)
    return name if isinstance(name, str) else "<unknown>"


def checked_hook_result(name: str, original: Tensor | None, result: Any) -> Tensor:
    """What the hook called `name` returned in place of the gradient `original`, checked as
    PyTorch checks it: a Tensor of the same dtype and size."""
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    if original is None:
        raise RuntimeError("can't replace a empty gradient with a non-empty value")
    if result.array.dtype != original.array.dtype:
        raise RuntimeError(
            f"hook '{name}' has changed the type of value (was "
            f"torch.{original.dtype.legacy_name} got torch.{result.dtype.legacy_name})")
    if result.array.shape != original.array.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    return result


def _hook_results(hook: Any, originals: Sequence[Tensor | None], results: Any
                  ) -> list[Tensor | None]:
    """A node hook's tuple of gradients in place of `originals`, each checked."""
    if not isinstance(results, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(results).__name__}'")
    if len(results) != len(originals):
        raise RuntimeError(f"hook '{_hook_name(hook)}' has returned an incorrect number of "
                           f"values (got {len(results)}, but expected {len(originals)})")
    return [None if result is None else checked_hook_result(_hook_name(hook), original, result)
            for original, result in zip(originals, results, strict=True)]


def _count_dependencies(roots: Sequence[Edge], targets: set[Node] | None
                        ) -> tuple[dict[Node, int], set[Node] | None, bool]:
    """In-edge counts of the nodes reachable from the roots, by an explicit-stack walk, and
    whether any of them has hooks (a leaf's included).

    With targets, only the nodes that lie on a path to a target count (the rest of the graph
    is not executed, as in PyTorch's autograd.grad and backward(inputs=...)).
    """
    dependencies: dict[Node, int] = {}
    stack: list[Node] = []
    hooked = False
    for root, _ in roots:
        if root is not None:
            if root not in dependencies:
                dependencies[root] = 0
                stack.append(root)
            dependencies[root] += 1
    while stack:
        node = stack.pop()
        if node.hooked or (node.__class__ is AccumulateGrad
                           and node.variable._hooks):  # type: ignore[attr-defined]
            hooked = True
        for child, _ in node.next_functions:
            if child is None:
                continue
            if child in dependencies:
                dependencies[child] += 1
            else:
                dependencies[child] = 1
                stack.append(child)
    budget.check_graph_nodes(len(dependencies))
    if targets is None:
        return dependencies, None, hooked
    # A node is needed when it is a target or one of its children is needed: settle it in
    # an order where children come first (post-order by an explicit stack).
    needed: set[Node] = set()
    settled: set[Node] = set()
    for start in dependencies:
        if start in settled:
            continue
        work: list[tuple[Node, bool]] = [(start, False)]
        while work:
            node, children_done = work.pop()
            if node in settled:
                continue
            if children_done:
                settled.add(node)
                if node in targets or any(child in needed for child, _ in node.next_functions):
                    needed.add(node)
                continue
            work.append((node, True))
            for child, _ in node.next_functions:
                if child is not None and child not in settled:
                    work.append((child, False))
    counts: dict[Node, int] = dict.fromkeys(needed, 0)
    for root, _ in roots:
        if root is not None and root in needed:
            counts[root] += 1
    for node in needed:
        for child, _ in node.next_functions:
            if child in needed:
                counts[child] += 1
    return counts, needed, hooked
