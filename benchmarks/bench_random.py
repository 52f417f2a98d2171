"""Drawing 10**6 normals (and uniforms) with agraph's generator beside real PyTorch's time.

    python benchmarks/bench_random.py [--count N] [--repeat R] [--draws D] [--torch-python PATH]

PyTorch is optional: give the Python that has it with --torch-python or the environment
variable AGRAPH_TORCH_PYTHON. Both sides are measured the same way, alternately, R times each in
the same window (the machine's load changes by the minute): a fresh process imports its
library, seeds, draws once to warm up, then times D draws in a row. Each run reports the median
of its D draws; the table shows the median and the best of the R runs, with their ratios.
agraph's side calls the engine's sampling functions (what `torch.randn` runs, without the
language). The issue's bar (issue 13): 10**6 float32 normals within 3x of torch.randn.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in a fresh process on each side: argv is count, kind, draws; prints one median in seconds.
_TIMING = """
import statistics, time
count, kind, draws = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
draw = DRAWS[kind]
draw()
times = []
for _ in range(draws):
    start = time.perf_counter()
    draw()
    times.append(time.perf_counter() - start)
print(statistics.median(times))
"""
TORCH_TIMER = """
import sys, torch
torch.set_num_threads(1)
torch.manual_seed(0)
count = int(sys.argv[1])
DRAWS = {"randn": lambda: torch.randn(count),
         "randn64": lambda: torch.randn(count, dtype=torch.float64),
         "rand": lambda: torch.rand(count)}
""" + _TIMING
AGRAPH_TIMER = """
import sys
sys.path.insert(0, sys.argv[4])
import numpy as np
from engine import sampling
from engine.generator import Generator
generator = Generator().manual_seed(0)
count = int(sys.argv[1])
DRAWS = {"randn": lambda: sampling.normal(generator, count, 0.0, 1.0, np.float32),
         "randn64": lambda: sampling.normal(generator, count, 0.0, 1.0, np.float64),
         "rand": lambda: sampling.uniform(generator, count, 0.0, 1.0, np.float32)}
""" + _TIMING
KINDS = ("randn", "randn64", "rand")


def seconds(python: str, timer: str, kind: str, count: int, draws: int) -> float:
    result = subprocess.run([python, "-c", timer, str(count), kind, str(draws), str(ROOT)],
                            capture_output=True, text=True, check=True)
    return float(result.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10 ** 6)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--draws", type=int, default=5)
    parser.add_argument("--torch-python", default=os.environ.get("AGRAPH_TORCH_PYTHON"))
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "engine")], check=True)
    for kind in KINDS:
        ours, theirs = [], []
        for _ in range(args.repeat):
            ours.append(seconds(sys.executable, AGRAPH_TIMER, kind, args.count, args.draws))
            if args.torch_python:
                theirs.append(seconds(args.torch_python, TORCH_TIMER, kind, args.count,
                                      args.draws))
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
