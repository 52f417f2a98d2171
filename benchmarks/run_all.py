"""agraph's performance targets, each measured beside its baseline in one run on one machine.

    .venv/bin/python benchmarks/run_all.py [--runs N] [--torch-python PATH] [--pin CPUS]

PyTorch baselines run in the interpreter given by --torch-python or the AGRAPH_TORCH_PYTHON
environment variable (a venv with `pip install torch torchviz`); without either, those rows
print n/a. PyTorch is never a dependency of agraph. Bytecode is compiled first, as an installed
package has it. Each cell is the median of N runs and their range (the training loops: of 3 runs
in each of N processes per side, the two sides' processes alternating); a ratio divides two
medians measured in the same run. With --pin (Linux), this process and every command it runs
stay on the CPUs given (e.g. `--pin 1`): on a shared VM one virtual CPU can be much noisier
than another, and a process that lands on it runs up to twice as slowly.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
AGRAPH = [str(BIN / "agraph")]
SAMPLES = ROOT / "samples"
REGRESSION = SAMPLES / "no_grad_regression.expr"
REGRESSION_STEPS = 800
MLP = ROOT / "benchmarks" / "mlp_step.expr"
MLP_STEPS = 200


def process_times(cmd: list[str], runs: int) -> list[float]:
    """Wall seconds of `runs` runs of a whole process."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(cmd, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
        if result.returncode != 0:
            raise SystemExit(f"failed: {' '.join(cmd)}\n{result.stderr.decode()[-2000:]}")
    return times


def reported_times(cmd: list[str]) -> list[float]:
    """Times a child process measured itself and printed as a JSON list on its last line."""
    return reported_lines(cmd, 1)[0]


def reported_lines(cmd: list[str], count: int) -> list[list[float]]:
    """The last `count` lines a child process printed (after what the program itself printed),
    each read as a JSON list of numbers."""
    result = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if result.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{result.stderr[-2000:]}")
    return [[float(t) for t in json.loads(line)]
            for line in result.stdout.strip().splitlines()[-count:]]


def cell(times: list[float] | None, scale: float, unit: str) -> str:
    if not times:
        return "n/a"
    median = statistics.median(times) * scale
    digits = 0 if median >= 10 else 2
    return (f"{median:.{digits}f} {unit} ({min(times) * scale:.{digits}f}-"
            f"{max(times) * scale:.{digits}f})")


def row(name: str, ours: list[float], theirs: list[float] | None, baseline: str,
        scale: float, unit: str, target: str) -> None:
    ratio = f"{statistics.median(ours) / statistics.median(theirs):.2f}x" if theirs else "n/a"
    other = f"{baseline}: {cell(theirs, scale, unit)}" if baseline else ""
    print(f"| {name} | {cell(ours, scale, unit)} | {other} | {ratio if baseline else ''} "
          f"| {target} |")


# Both sides run the same file N times in one process, timed around the run only: PyTorch's
# import alone takes longer, and varies more, than the whole loop.
TORCH_IN_PROCESS = """
import json, runpy, sys, time, torch
runpy.run_path(sys.argv[1])  # warm, as agraph's side is
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    runpy.run_path(sys.argv[1])
    times.append(time.perf_counter() - start)
print(json.dumps(times))
"""

AGRAPH_IN_PROCESS = """
import json, sys, time
from autograd_cli.language.interpreter import run_program
text = open(sys.argv[1], encoding="utf-8").read()
run_program(text)
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    result = run_program(text)
    times.append(time.perf_counter() - start)
assert result.error is None, result.error
print(json.dumps(times))
"""


RUNS_PER_PROCESS = 3


def bench_program(name: str, program: Path, steps: int, runs: int, torch: str | None) -> None:
    """Per-iteration cost of a training loop: RUNS_PER_PROCESS timed runs in each of `runs`
    warm processes per side, the two sides' processes alternating, so that both see the same
    machine (on a shared VM a whole run can take up to twice as long when a neighbour is busy)."""
    ours: list[float] = []
    theirs: list[float] | None = [] if torch else None
    for _ in range(runs):
        ours += reported_times([sys.executable, "-c", AGRAPH_IN_PROCESS, str(program),
                                str(RUNS_PER_PROCESS)])
        if torch and theirs is not None:
            theirs += reported_times([torch, "-c", TORCH_IN_PROCESS, str(program),
                                      str(RUNS_PER_PROCESS)])
    per_step = [t / steps for t in ours]
    row(name, per_step, [t / steps for t in theirs] if theirs else None, "torch eager",
        1e6, "us", "<= 1.2x")


TORCHVIZ_SEED = """
import sys, torch, torchviz
w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
y.backward(retain_graph=True)
sys.stdout.buffer.write(torchviz.make_dot(y, params={"w": w, "x": x}).pipe(format="svg"))
"""

# The chain's times, then on the last line its peak memory: how far the process's peak resident
# memory rose above what it held before the first chain (so the import of torch or numpy, which
# differ a lot, does not count).
CHAIN = """
import json, os, resource, sys, time
{setup}
n = int(sys.argv[1])
with open("/proc/self/statm") as statm:
    before = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    y = x = {leaf}
    for _ in range(n):
        y = y * 1.0
    y.backward()
    times.append(time.perf_counter() - start)
    del x, y
print(json.dumps(times))
print(json.dumps([resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before]))
"""

RNN = """import torch
W_h = (torch.sin(torch.arange(16.0)) * 0.1).reshape(4, 4).requires_grad_()
W_x = (torch.cos(torch.arange(12.0)) * 0.1).reshape(4, 3).requires_grad_()
h = torch.zeros(4, 1)
x = torch.ones(3, 1)
for step in range({steps}):
    h = torch.tanh(torch.mm(W_h, h) + torch.mm(W_x, x))
loss = h.sum()
loss.backward()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="runs per cell (default 7)")
    parser.add_argument("--chain", type=int, default=1_000_000, help="ops in the chain row")
    parser.add_argument("--torch-python", default=os.environ.get("AGRAPH_TORCH_PYTHON"),
                        help="python with torch + torchviz (default $AGRAPH_TORCH_PYTHON)")
    parser.add_argument("--pin", default=None,
                        help="run everything on these CPUs, e.g. 1 or 0,1 (Linux; inherited)")
    args = parser.parse_args()
    runs, torch = args.runs, args.torch_python
    if args.pin:
        os.sched_setaffinity(0, {int(cpu) for cpu in args.pin.split(",")})
    torch_version = "n/a"
    if torch:
        probe = subprocess.run([torch, "-c", "import torch, torchviz; print(torch.__version__)"],
                               capture_output=True, text=True)
        torch_version = probe.stdout.strip() if probe.returncode == 0 else "n/a"
        torch = torch if probe.returncode == 0 else None
    subprocess.run([sys.executable, "-m", "compileall", "-q", "autograd_cli", "engine",
                    "renderers"], cwd=ROOT, capture_output=True, check=True)
    print(f"Machine: {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs; "
          f"Python {platform.python_version()}, numpy {numpy.__version__}, torch {torch_version}. "
          f"Load average at the start: {os.getloadavg()[0]:.2f}. Median (range) of {runs} runs "
          f"({runs} x {RUNS_PER_PROCESS} for the training loops). "
          f"{'Pinned to CPUs ' + args.pin if args.pin else 'Not pinned'}.\n")
    print("| measure | agraph | baseline | ratio | target |")
    print("|---|---|---|---|---|")

    leaf = SAMPLES / "leaf_nodes.expr"
    numpy_import, startup = [], []
    for _ in range(runs * 2):  # interleaved so both sides see the same machine
        numpy_import += process_times([sys.executable, "-c", "import numpy"], 1)
        startup += process_times([*AGRAPH, "run", str(leaf), "--no-table"], 1)
    row("startup: `agraph run samples/leaf_nodes.expr`", startup, numpy_import,
        "`python -c \"import numpy\"`", 1e3, "ms", "<= 1.2x")

    seed = [*AGRAPH, "render", str(SAMPLES / "computation_graph.expr"), "--svg"]
    ours = process_times(seed, runs)
    theirs = process_times([torch, "-c", TORCHVIZ_SEED], runs) if torch else None
    ratio = (f"{statistics.median(theirs) / statistics.median(ours):.1f}x faster" if theirs
             else "n/a")
    print(f"| seed render `--svg` | {cell(ours, 1e3, 'ms')} | torch + torchviz: "
          f"{cell(theirs, 1e3, 'ms')} | {ratio} | >= 8x faster |")

    bench_program("regression loop (samples/no_grad_regression.expr), per iteration",
                  REGRESSION, REGRESSION_STEPS, runs, torch)
    bench_program("MLP step (nn.Linear/ReLU/MSELoss/optim.SGD), per iteration",
                  MLP, MLP_STEPS, runs, torch)

    chain_runs = max(1, runs // 3)
    ours_code = CHAIN.format(setup="from engine import api", leaf="api.TORCH['tensor']"
                             "(1.0, requires_grad=True)")
    ours, our_peak = reported_lines([sys.executable, "-c", ours_code, str(args.chain),
                                     str(chain_runs)], 2)
    theirs = their_peak = None
    if torch:
        code = CHAIN.format(setup="import torch", leaf="torch.tensor(1.0, requires_grad=True)")
        theirs, their_peak = reported_lines([torch, "-c", code, str(args.chain),
                                             str(chain_runs)], 2)
    row(f"{args.chain:,}-op chain, build + backward ({chain_runs} runs)", ours, theirs,
        "torch eager", 1, "s", "<= 1x")
    row(f"{args.chain:,}-op chain, peak memory above the start", our_peak, their_peak,
        "torch eager", 1 / 2**20, "MiB", "<= 1x")

    with tempfile.TemporaryDirectory() as folder:
        program = Path(folder) / "rnn2500.expr"  # 4 recorded ops per step: 10,000 nodes
        program.write_text(RNN.format(steps=2500), encoding="utf-8")
        for extra, what in (([], "loops folded"), (["--unroll"], "--unroll")):
            ours = process_times([*AGRAPH, "render", str(program), "--svg", *extra],
                                 max(1, runs // 3))
            row(f"render a 10,000-node RNN `--svg`, {what}", ours, None, "", 1, "s", "< 5 s")


if __name__ == "__main__":
    main()
