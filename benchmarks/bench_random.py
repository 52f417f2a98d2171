"""Drawing 10**6 normals (and uniforms) with agraph's generator beside real PyTorch's time.

    python benchmarks/bench_random.py [--count N] [--repeat R] [--torch-python PATH]

PyTorch is optional: give the Python that has it with --torch-python or the environment
variable AGRAPH_TORCH_PYTHON. Both sides are timed alternately, R times each, in the same
window (the machine's load changes by the minute); medians and bests are printed with ratios.
The issue's bar (issue 13): 10**6 float32 normals within 3x of torch.randn.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import sampling  # noqa: E402
from engine.generator import Generator  # noqa: E402

# Timed in the torch process, once per call: the same draws as the agraph side.
TORCH_TIMER = """
import sys, time, torch
torch.set_num_threads(1)
count, kind = int(sys.argv[1]), sys.argv[2]
draw = {"randn": lambda: torch.randn(count), "randn64": lambda: torch.randn(count,
        dtype=torch.float64), "rand": lambda: torch.rand(count)}[kind]
torch.manual_seed(0)
draw()
start = time.perf_counter()
draw()
print(time.perf_counter() - start)
"""

KINDS = {
    "randn": lambda g, n: sampling.normal(g, n, 0.0, 1.0, np.float32),
    "randn64": lambda g, n: sampling.normal(g, n, 0.0, 1.0, np.float64),
    "rand": lambda g, n: sampling.uniform(g, n, 0.0, 1.0, np.float32),
}


def agraph_seconds(kind: str, count: int) -> float:
    generator = Generator().manual_seed(0)
    KINDS[kind](generator, count)  # warm up (numpy.random's import, first allocations)
    start = time.perf_counter()
    KINDS[kind](generator, count)
    return time.perf_counter() - start


def torch_seconds(python: str, kind: str, count: int) -> float:
    result = subprocess.run([python, "-c", TORCH_TIMER, str(count), kind], capture_output=True,
                            text=True, check=True)
    return float(result.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10 ** 6)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--torch-python", default=os.environ.get("AGRAPH_TORCH_PYTHON"))
    args = parser.parse_args()
    for kind in KINDS:
        ours, theirs = [], []
        for _ in range(args.repeat):
            ours.append(agraph_seconds(kind, args.count))
            if args.torch_python:
                theirs.append(torch_seconds(args.torch_python, kind, args.count))
        line = (f"{kind:8} n={args.count}: agraph median {statistics.median(ours) * 1e3:6.1f} ms"
                f" best {min(ours) * 1e3:6.1f} ms")
        if theirs:
            line += (f" | torch median {statistics.median(theirs) * 1e3:6.1f} ms best "
                     f"{min(theirs) * 1e3:6.1f} ms | ratio of medians "
                     f"{statistics.median(ours) / statistics.median(theirs):4.1f}x, of bests "
                     f"{min(ours) / min(theirs):4.1f}x")
        print(line, flush=True)


if __name__ == "__main__":
    main()
