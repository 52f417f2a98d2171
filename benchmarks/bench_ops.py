"""Per-op overhead of the engine on tiny tensors, beside numpy's own cost for the same math.

    python benchmarks/bench_ops.py [--number N]

On one-element tensors the arithmetic is free, so what is printed is the engine's overhead:
the Tensor wrapper, dtype promotion, graph recording, and the backward walk per node. Times
are the best of several repeats (microseconds per op), CPU time of this process only.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.api  # noqa: E402,F401  (binds Tensor's operators to the torch functions)
from engine import backward  # noqa: E402
from engine.creation import tensor  # noqa: E402
from engine.ops import mkl, numerics  # noqa: E402
from engine.tensor import Tensor  # noqa: E402


def per_call(function: Callable[[], object], number: int, repeat: int = 5) -> float:
    """Best CPU microseconds per call of `function` over `repeat` runs of `number` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(number):
            function()
        best = min(best, time.process_time() - start)
    return best / number * 1e6


def backward_per_node(op: Callable[[Tensor], Tensor], nodes: int, repeat: int = 5) -> float:
    """Best CPU microseconds per node of one backward() through a chain of `nodes` ops."""
    best = float("inf")
    for _ in range(repeat):
        x = tensor([1.0], requires_grad=True)
        y = x
        for _ in range(nodes):
            y = op(y)
        start = time.process_time()
        y.backward(tensor([1.0]))
        best = min(best, time.process_time() - start)
    return best / nodes * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--number", type=int, default=20_000, help="calls per timing run")
    number = parser.parse_args().number

    a = np.ones(1, dtype=np.float32)
    b = np.full(1, 2.0, dtype=np.float32)
    plain_a, plain_b = tensor([1.0]), tensor([2.0])
    leaf_a = tensor([1.0], requires_grad=True)
    leaf_b = tensor([2.0], requires_grad=True)

    rows = [
        ("add", per_call(lambda: a + b, number), per_call(lambda: plain_a + plain_b, number),
         per_call(lambda: leaf_a + leaf_b, number)),
        ("mul", per_call(lambda: a * b, number), per_call(lambda: plain_a * plain_b, number),
         per_call(lambda: leaf_a * leaf_b, number)),
        ("mul by a python number", per_call(lambda: a * 1.5, number),
         per_call(lambda: plain_a * 1.5, number), per_call(lambda: leaf_a * 1.5, number)),
    ]
    print(f"per-op time on 1-element float32 tensors (us, best of 5, {number} calls each)")
    print(f"{'op':24} {'numpy':>8} {'engine':>8} {'+graph':>8} {'x numpy':>8}")
    for name, np_time, plain, graph in rows:
        print(f"{name:24} {np_time:8.2f} {plain:8.2f} {graph:8.2f} {graph / np_time:8.1f}")

    nodes = max(1000, number // 10)
    add_node = backward_per_node(lambda y: y + 1.0, nodes)
    mul_node = backward_per_node(lambda y: y * 1.0000001, nodes)
    grad = np.ones(1, dtype=np.float32)
    print(f"\nbackward, per node of a {nodes}-op chain (us)")
    print(f"{'node':24} {'numpy':>8} {'engine':>8} {'x numpy':>8}")
    # numpy's share of a node's work: passing the gradient on (add), one multiply (mul)
    for name, np_time, engine_time in (
            ("AddBackward0", per_call(lambda: grad.copy(), number), add_node),
            ("MulBackward0", per_call(lambda: grad * 1.0000001, number), mul_node)):
        print(f"{name:24} {np_time:8.2f} {engine_time:8.2f} {engine_time / np_time:8.1f}")

    def step() -> None:
        loss = (leaf_a * leaf_b + 1.0).sum()
        loss.backward()

    print(f"\none training step (mul, add, sum, backward into two leaves): "
          f"{per_call(step, max(1, number // 10)):.1f} us")
    compiled_beside_python(number)


def compiled_beside_python(number: int) -> None:
    """The optional C files beside the Python code they stand in for (same bits)."""
    values = (np.arange(100, dtype=np.float32) * np.float32(0.37)).reshape(100, 1)
    flat = values.reshape(-1)
    print("\ncompiled beside Python (us a call; n/a where the C file was not built)")
    if numerics.compiled_total is not None:
        out = np.empty((), np.float32)
        compiled = per_call(lambda: numerics.compiled_total(values, out), number)
        python = per_call(lambda: numerics._contiguous_total(flat, 8), number)
        print(f"{'torch-order sum, 100 float32':36} C {compiled:6.2f}  numpy {python:6.2f}")
    else:
        print(f"{'torch-order sum, 100 float32':36} n/a")
    a = np.ones((32, 4), np.float32)
    b = np.ones((4, 16), np.float32)
    if mkl.compiled_gemm is not None and mkl.library() is not None:
        compiled = per_call(lambda: mkl.gemm(a, b), number)
        saved, mkl.compiled_gemm = mkl.compiled_gemm, None
        try:
            through_ctypes = per_call(lambda: mkl.gemm(a, b), number)
        finally:
            mkl.compiled_gemm = saved
        print(f"{'MKL product 32x4 @ 4x16':36} C {compiled:6.2f}  ctypes {through_ctypes:6.2f}")
    else:
        print(f"{'MKL product 32x4 @ 4x16':36} n/a")
    row = (np.arange(174, dtype=np.float32) * np.float32(0.1) - 8).reshape(6, 29)
    if numerics.compiled_sleef is not None and numerics.compiled_reduce_all is not None:
        compiled = per_call(lambda: numerics.softmax_lastdim(row, True), number)
        saved = numerics.compiled_sleef, numerics.compiled_reduce_all
        numerics.compiled_sleef = numerics.compiled_reduce_all = None  # SLEEF's and the row sum's
        try:
            python = per_call(lambda: numerics.softmax_lastdim(row, True), number // 10 or 1)
        finally:
            numerics.compiled_sleef, numerics.compiled_reduce_all = saved
        print(f"{'log_softmax of 6x29 float32':36} C {compiled:6.2f}  numpy {python:6.2f}")
    else:
        print(f"{'log_softmax of 6x29 float32':36} n/a")
    walk = "backward of a 5-node training step"
    if backward.compiled_walk is not None:
        compiled = _step_backward(max(1, number // 10))
        saved, backward.compiled_walk = backward.compiled_walk, None
        try:
            python = _step_backward(max(1, number // 10))
        finally:
            backward.compiled_walk = saved
        print(f"{walk:36} C {compiled:6.2f}  Python {python:6.2f}")
    else:
        print(f"{walk:36} n/a")


def _step_backward(number: int, repeat: int = 5) -> float:
    """Best CPU microseconds of backward() alone through the graph of the regression loop of
    samples/no_grad_regression.expr: ((y - (w * x**2 + b)) ** 2).sum(), w and b leaves."""
    x = tensor([[i / 50 - 1.0] for i in range(100)])
    y = x * x * 3.0 + 2.0
    w = tensor([[1.1]], requires_grad=True)
    b = tensor([[0.0]], requires_grad=True)
    best = float("inf")
    for _ in range(repeat):
        losses = [((y - (w * x.pow(2) + b)) ** 2).sum() for _ in range(number)]
        start = time.process_time()
        for loss in losses:
            loss.backward()
        best = min(best, time.process_time() - start)
    return best / number * 1e6


if __name__ == "__main__":
    main()
