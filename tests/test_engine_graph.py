"""The backward engine at scale and its memory: deep graphs, freed saved arrays, no cycles.

What PyTorch does not show directly but the design promises (../shared/design.md): the walk is
iterative (a million-node chain backpropagates), a backward without retain_graph releases what
the graph saved, and the engine makes no reference cycles, so plain reference counting frees a
graph (which is also what lets a caller switch the cyclic collector off during a long run).
"""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Iterator

import numpy as np
import pytest

from engine import functional as F
from engine.creation import tensor
from engine.tensor import Tensor


@pytest.fixture
def no_cyclic_gc() -> Iterator[None]:
    """Reference counting only: what is freed here is freed without the cyclic collector."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def test_million_op_chain_backpropagates(no_cyclic_gc: None) -> None:
    # The cyclic collector is off only for speed: its full passes over a million live nodes
    # cost more than the engine itself (the graph holds no cycles; see the tests below).
    x = tensor([1.0, 2.0], dtype=float, requires_grad=True)
    y = x
    for _ in range(500_000):  # two ops per step: a million nodes
        y = y * 1.000001 + 0.5
    first_node = y.grad_fn
    y.sum().backward()
    assert x.grad is not None
    np.testing.assert_allclose(x.grad.array, 1.000001 ** 500_000, rtol=1e-9)
    assert first_node is not None and first_node.released
    assert sys.getrecursionlimit() <= 10_000  # no one raised it to make this pass


def test_deep_chain_create_graph_and_autograd_grad(no_cyclic_gc: None) -> None:
    x = tensor(1.5, dtype=float, requires_grad=True)
    y = x
    for _ in range(5_000):
        y = y.sin() * 0.5 + y * 0.5
    (g,) = F.grad(y, x, create_graph=True)
    (g2,) = F.grad(g, x)
    assert np.isfinite(g.item()) and np.isfinite(g2.item())


def test_saved_arrays_are_released_after_backward() -> None:
    x = tensor([0.5, 1.0, 2.0], requires_grad=True)
    a = x * 2
    b = a.exp()  # ExpBackward0 keeps its output's data
    c = b.sin()  # SinBackward0 keeps its input, b
    loss = (c * a).sum()
    saved_input = weakref.ref(a.array)
    saved_output = weakref.ref(b.array)
    del a, b, c
    assert saved_input() is not None and saved_output() is not None
    loss.backward()
    assert saved_input() is None, "a saved input outlived backward"
    assert saved_output() is None, "a saved output outlived backward"


def test_retain_graph_keeps_saved_arrays_until_the_last_backward() -> None:
    x = tensor([0.5, 1.0], requires_grad=True)
    b = x.exp()
    loss = (b * b).sum()
    saved = weakref.ref(b.array)
    del b
    loss.backward(retain_graph=True)
    assert saved() is not None
    loss.backward()
    assert saved() is None
    assert x.grad is not None
    np.testing.assert_allclose(x.grad.array, 4 * np.exp(2 * np.array([0.5, 1.0])), rtol=1e-5)


def test_autograd_grad_releases_saved_arrays() -> None:
    x = tensor([0.5, 1.0], requires_grad=True)
    b = x.tanh()
    loss = (b * x).sum()
    saved = weakref.ref(b.array)
    del b
    F.grad(loss, x)
    assert saved() is None


def test_a_dropped_graph_is_freed_by_reference_counting(no_cyclic_gc: None) -> None:
    x = tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
    h = (x @ x.t()).relu().softmax(1)
    y = (h[0] * h[:, 1]).sum() + F.mse_loss(h, x) + x.norm()
    z = y.clone()
    z.retain_grad()
    z.register_hook(lambda grad: grad * 2)
    nodes = [weakref.ref(y.grad_fn), weakref.ref(h.grad_fn), weakref.ref(z.grad_fn)]
    del h, y, z
    assert all(ref() is None for ref in nodes), "the engine made a reference cycle"


def test_graph_after_backward_is_freed_by_reference_counting(no_cyclic_gc: None) -> None:
    x = tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward()
    node = weakref.ref(y.grad_fn)
    del y
    assert node() is None


def test_views_and_inplace_make_no_cycles(no_cyclic_gc: None) -> None:
    x = tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * 1
    y[0].mul_(2)
    v = y.t()
    y.add_(1)
    nodes = [weakref.ref(y.grad_fn), weakref.ref(v.grad_fn)]
    (v.sum() + y.sum()).backward()
    del y, v
    assert all(ref() is None for ref in nodes)


def test_leaf_hooks_survive_without_a_graph() -> None:
    """A hook registered on a leaf before any op still runs (PyTorch keeps it on the tensor)."""
    x = tensor([1.0, 2.0], requires_grad=True)
    handle = x.register_hook(lambda grad: grad * 10)
    gc.collect()
    (x * 3).sum().backward()
    assert x.grad is not None and x.grad.tolist() == [30.0, 30.0]
    handle.remove()
    x.grad = None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_backward_order_runs_newest_node_first() -> None:
    """Among ready nodes the one created last runs first, as in PyTorch's engine."""
    x = tensor([1.0], requires_grad=True)
    seen: list[str] = []
    a = x * 2
    b = x * 3
    a.register_hook(lambda g: seen.append("a"))
    b.register_hook(lambda g: seen.append("b"))
    (a + b).sum().backward()
    assert seen == ["b", "a"]


def test_engine_ops_do_not_recurse_on_deep_views() -> None:
    x = tensor(list(range(3000)), dtype=float, requires_grad=True)
    y = x
    for _ in range(2000):
        y = y[1:]
    y.sum().backward()
    assert x.grad is not None and x.grad.array.sum() == 1000


def test_wrap_makes_a_fresh_leaf() -> None:
    t = Tensor._wrap(np.ones(2))
    assert t.is_leaf and not t.requires_grad and t.grad is None and t.version == 0
