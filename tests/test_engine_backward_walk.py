"""engine/backward_walk.c against the Python loops of engine/backward.py that it compiles.

The same graph is walked by both (retain_graph=True, so a graph can be walked twice): the same
nodes must run in the same order, each given the same gradients, and every leaf must end with
the same bits. The graphs are random: fan-out (a node's gradients summed in the order they
arrive), several outputs, broadcasting, views, float32 and float64 leaves, and python numbers
beside tensors; an observer that takes arrays (the graph recorder) is told the same of each
node. Then what the Python loops do besides running nodes: hooks found before the walk and
hooks added during it, a node that returns the wrong number of gradients, a graph
freed by the first walk, the graph-size limit, and a walk started inside another.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from autograd_cli.language.interpreter import run_program
from engine import backward, budget, recording
from engine.autograd import AccumulateGrad, Function, Node
from engine.tensor import Tensor
from tests.conftest import ROOT

compiled = pytest.mark.skipif(
    backward.compiled_walk is None,
    reason="engine/backward_walk.c was not built (no C compiler at install): Python walks")

WALKS = ["compiled", "python"]


@pytest.fixture
def log(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, str, list[bytes]]]]:
    """Each node the walk runs, in order: which node, and the gradients it was given."""
    entries: list[tuple[int, str, list[bytes]]] = []

    def logged(method: Callable[..., Any]) -> Callable[..., Any]:
        def apply_arrays(node: Node, grads: list[Any]) -> Any:
            entries.append((id(node), node.grad_fn_name,
                            [b"" if g is None else np.asarray(g).tobytes() for g in grads]))
            return method(node, grads)
        return apply_arrays

    for cls in (Node, Function, AccumulateGrad):
        monkeypatch.setattr(cls, "apply_arrays", logged(cls.__dict__["apply_arrays"]))
    yield entries


def _walk_with(walk: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backward, "compiled_walk",
                        _COMPILED if walk == "compiled" else None)


_COMPILED = backward.compiled_walk


def _leaf(array: np.ndarray) -> Tensor:
    return Tensor._wrap(array).requires_grad_()


def _random_graph(seed: int) -> tuple[list[Tensor], Tensor]:
    """Leaves and a scalar loss over a random graph of elementwise ops, reductions and views,
    where intermediate results are used several times."""
    rng = random.Random(seed)
    dtype = rng.choice([np.float32, np.float64])
    leaves = [_leaf(np.linspace(-1, 1 + i, 6).reshape(2, 3).astype(dtype))
              for i in range(rng.randint(1, 3))]
    leaves.append(_leaf(np.array([[0.5, -2.0, 3.0]], dtype=dtype)))
    pool: list[Tensor] = list(leaves) + [Tensor._wrap(np.full((2, 3), 0.25, dtype=dtype))]
    for _ in range(rng.randint(3, 25)):
        a, b = rng.choice(pool), rng.choice(pool)
        kind = rng.randrange(9)
        if kind == 0:
            out = a + b
        elif kind == 1:
            out = a * b
        elif kind == 2:
            out = a - b * 0.5
        elif kind == 3:
            out = a ** 2
        elif kind == 4:
            out = (a * 3.0).sum(0, keepdim=True)
        elif kind == 5:
            first, second = a.expand(2, 3).unbind(0)
            out = first * second
        elif kind == 6:
            out = a.expand(2, 3).reshape(3, 2).t()
        elif kind == 7:
            out = 1.5 - a
        else:
            out = a.exp() + b.sin()
        pool.append(out)
    outputs = [t for t in pool[len(leaves):] if t.requires_grad] or leaves
    loss = outputs[-1].sum()
    for extra in rng.sample(outputs, min(3, len(outputs))):
        loss = loss + extra.sum() * 0.1
    return leaves, loss


def _grads(leaves: list[Tensor]) -> list[bytes]:
    return [b"" if leaf.grad is None else leaf.grad.array.tobytes() for leaf in leaves]


@compiled
@pytest.mark.parametrize("seed", range(60))
def test_both_walks_run_the_same_nodes_in_the_same_order(
        seed: int, log: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    leaves, loss = _random_graph(seed)
    runs = []
    for walk in WALKS:
        _walk_with(walk, monkeypatch)
        log.clear()
        for leaf in leaves:
            leaf.grad = None
        loss.backward(retain_graph=True)
        runs.append((list(log), _grads(leaves)))
    assert runs[0][0], "the walk ran no node"
    assert runs[0] == runs[1]


@compiled
@pytest.mark.parametrize("seed", range(0, 60, 7))
def test_a_freed_graph_ends_the_same_way(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without retain_graph a walk frees the graph: the second walk fails the same way, and
    the first gave the same gradients."""
    results = []
    for walk in WALKS:
        _walk_with(walk, monkeypatch)
        leaves, loss = _random_graph(seed)
        loss.backward()
        with pytest.raises(RuntimeError) as error:
            loss.backward()
        results.append((_grads(leaves), str(error.value)))
    assert results[0] == results[1]
    assert "backward through the graph a second time" in results[0][1]


@compiled
def test_the_compiled_walk_runs_by_default() -> None:
    """No hooks, no targets, no observer: the compiled count and walk are the ones used."""
    leaves, loss = _random_graph(3)
    assert backward.compiled_walk is not None
    counted = backward.compiled_walk.count([(loss.grad_fn, 0)], AccumulateGrad)
    assert counted is not None and counted[1] is False
    assert len(counted[0]) >= len(leaves) + 1


PROGRAMS = {
    "a hook registered before the walk": """
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
b.register_hook(lambda g: print("hook on b", g))
a.register_hook(lambda g: g * 10)
(b * b + a).sum().backward()
print(a.grad)
""",
    "hooks added by a custom Function's backward during the walk": """
import torch
class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        a.register_hook(lambda grad: print("hook on a", grad))
        b.register_hook(lambda grad: grad + 100)
        return g * 2
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
y = Twice.apply(b).sum() + b.sum()
y.backward()
print(a.grad)
""",
    "a backward that returns one gradient too many": """
import torch
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g, g
x = torch.ones(2, requires_grad=True)
try:
    Bad.apply(x * 1).sum().backward()
except RuntimeError as e:
    print(e)
""",
    "a walk inside a walk": """
import torch
class Inner(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            z = x.detach().requires_grad_()
            (gz,) = torch.autograd.grad((z ** 3).sum(), z)
        return g * gz
w = torch.tensor([0.5, -1.5], requires_grad=True)
(Inner.apply(w * 2) * w).sum().backward()
print(w.grad)
""",
}


@compiled
@pytest.mark.parametrize("name", PROGRAMS)
def test_programs_print_the_same_with_both_walks(name: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = []
    for walk in WALKS:
        _walk_with(walk, monkeypatch)
        result = run_program(PROGRAMS[name])
        assert result.error is None, result.error
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].strip()


@pytest.mark.parametrize("walk", WALKS)
def test_hooks_added_during_a_plain_run_see_tensors_as_in_pytorch(
        walk: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain run walks on arrays (--json, which the oracle cases use, walks on tensors): the
    hooks a custom Function's backward adds must still see tensors and may replace them."""
    if walk == "compiled" and _COMPILED is None:
        pytest.skip("engine/backward_walk.c was not built")
    _walk_with(walk, monkeypatch)
    case = ROOT / "tests" / "oracle_extra" / "hooks_added_during_backward"
    result = run_program(case.with_suffix(".expr").read_text(encoding="utf-8"))
    assert result.error is None, result.error
    assert result.stdout == json.loads(case.with_suffix(".json").read_text())["stdout"]


@compiled
def test_the_graph_size_limit_holds_in_both(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(budget.limits, "max_graph_nodes", 5)
    messages = []
    for walk in WALKS:
        _walk_with(walk, monkeypatch)
        leaves, loss = _random_graph(11)
        with pytest.raises(budget.LimitError) as error:
            loss.backward()
        messages.append(str(error.value))
        assert _grads(leaves) == [b""] * len(leaves)  # refused before any node ran
    assert messages[0] == messages[1]


@compiled
@pytest.mark.parametrize("roots", [
    [("not a pair",)],
    [(None, 0, 1)],
])
def test_the_count_leaves_what_it_does_not_know_to_python(roots: list[Any]) -> None:
    assert backward.compiled_walk is not None
    assert backward.compiled_walk.count(roots, AccumulateGrad) is None


@compiled
def test_a_node_whose_edges_are_not_the_engines_is_left_to_python() -> None:
    class Odd(Node):
        next_functions = [("not", "edges")]  # type: ignore[assignment]

    assert backward.compiled_walk is not None
    assert backward.compiled_walk.count([(Odd(), 0)], AccumulateGrad) is None


class _ArrayObserver:
    """An observer that takes arrays, as the graph recorder does: what it is told of each node."""

    backward_arrays = True

    def __init__(self) -> None:
        self.told: list[tuple[int, list[bytes], list[bytes]]] = []

    def on_op(self, *args: Any) -> None:
        pass

    def on_backward_node(self, node: Node, grads_in: Any, grads_out: Any) -> None:
        self.told.append((id(node), [b"" if g is None else np.asarray(g).tobytes()
                                     for g in grads_in],
                          [b"" if g is None else np.asarray(g).tobytes() for g in grads_out]))


@compiled
@pytest.mark.parametrize("seed", range(0, 60, 5))
def test_an_observer_is_told_the_same_by_both_walks(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    leaves, loss = _random_graph(seed)
    told = []
    for walk in WALKS:
        _walk_with(walk, monkeypatch)
        observer = _ArrayObserver()
        previous = recording.set_observer(observer)
        try:
            loss.backward(retain_graph=True)
        finally:
            recording.set_observer(previous)
        told.append(observer.told)
    assert told[0] and told[0] == told[1]
