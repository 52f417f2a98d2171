"""agraph's performance targets, each measured beside its baseline in one run on one machine.

    .venv/bin/python benchmarks/run_all.py [--quick]

Baselines that need PyTorch (and torchviz) run in the interpreter named by AGRAPH_TORCH_PYTHON
(default /work/torchenv/bin/python, a scratch venv with `pip install torch==2.13.0 torchviz`);
without it those rows print "n/a". PyTorch is never a dependency of agraph itself.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
AGRAPH = [str(BIN / "agraph")]
TORCH_PYTHON = os.environ.get("AGRAPH_TORCH_PYTHON", "/work/torchenv/bin/python")
SEED = ROOT / "samples" / "computation_graph.expr"
REGRESSION = ROOT / "samples" / "no_grad_regression.expr"


def timed(cmd: list[str], repeat: int = 5) -> float:
    """Median wall seconds of `repeat` runs of a whole process."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = subprocess.run(cmd, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
        if result.returncode != 0:
            raise SystemExit(f"failed: {' '.join(cmd)}\n{result.stderr.decode()[-2000:]}")
    return statistics.median(times)


def peak_rss_mib(cmd: list[str]) -> float:
    """Peak resident memory of one run of `cmd` (GNU time, the process tree's largest)."""
    result = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True)
    return int(result.stderr.decode().strip().splitlines()[-1]) / 1024


def have_torch() -> bool:
    return Path(TORCH_PYTHON).exists() and subprocess.run(
        [TORCH_PYTHON, "-c", "import torch, torchviz"], capture_output=True).returncode == 0


def row(name: str, ours: str, baseline: str, ratio: str, target: str) -> None:
    print(f"{name:<34} {ours:>14} {baseline:>16} {ratio:>9}   {target}")


def bench_startup(repeat: int) -> None:
    numpy_time = timed([sys.executable, "-c", "import numpy"], repeat)
    run_time = timed([*AGRAPH, "run", str(SEED), "--no-table"], repeat)
    row("startup: agraph run seed", f"{run_time * 1e3:.0f} ms",
        f"{numpy_time * 1e3:.0f} ms numpy", f"{run_time / numpy_time:.2f}x", "<= 1.5x")


TORCHVIZ_SEED = """
import torch, torchviz
w = torch.tensor([1.], requires_grad=True)
x = torch.tensor([2.], requires_grad=True)
a = torch.add(w, x)
b = torch.add(w, 1)
y = torch.mul(a, b)
y.backward(retain_graph=True)
import sys
sys.stdout.buffer.write(torchviz.make_dot(y, params={"w": w, "x": x}).pipe(format="svg"))
"""


def bench_render(repeat: int, torch: bool) -> None:
    ours = timed([*AGRAPH, "render", str(SEED), "--svg"], repeat)
    peak = peak_rss_mib([*AGRAPH, "render", str(SEED), "--svg"])
    if torch:
        theirs = timed([TORCH_PYTHON, "-c", TORCHVIZ_SEED], repeat)
        row("seed render --svg vs torchviz", f"{ours * 1e3:.0f} ms", f"{theirs * 1e3:.0f} ms",
            f"{theirs / ours:.1f}x", ">= 8x faster")
    else:
        row("seed render --svg", f"{ours * 1e3:.0f} ms", "n/a", "", ">= 8x faster")
    row("seed render peak memory", f"{peak:.0f} MiB", "", "", "<= 60 MiB")


RNN = """import torch
torch.manual_seed(0)
W_h = torch.randn(8, 8, requires_grad=True)
W_x = torch.randn(8, 4, requires_grad=True)
h = torch.zeros(1, 8)
for t in range({steps}):
    x = torch.full((1, 4), t * 0.01)
    h = torch.tanh(h @ W_h.t() + x @ W_x.t())
loss = h.sum()
loss.backward()
"""


def bench_big_graphs(repeat: int) -> None:
    """An RNN unrolled 300 steps (3,900 nodes) and 770 steps (10,000 nodes), run and drawn:
    loops folded by default (one screen), and the 10,000 nodes cut to --max-nodes unfolded."""
    with tempfile.TemporaryDirectory() as folder:
        for steps, nodes in ((300, "3,900"), (770, "10,000")):
            program = Path(folder) / f"rnn{steps}.expr"
            program.write_text(RNN.format(steps=steps), encoding="utf-8")
            for extra, what in (([], "folded"), (["--unroll"], "--unroll")):
                seconds = timed([*AGRAPH, "render", str(program), "--svg", *extra], repeat)
                row(f"render {nodes}-node RNN, {what}", f"{seconds:.2f} s", "", "", "< 5 s")
            html = timed([*AGRAPH, "render", str(program), "--format", "html"], repeat)
            row(f"render {nodes}-node RNN, html", f"{html:.2f} s", "", "", "< 5 s")


def bench_legend() -> None:
    """The legend's share of each sample picture's area, both views (tests/test_render_legend.py
    measures it the same way: 1 - area without the legend / area with it); the largest."""
    sys.path.insert(0, str(ROOT))
    from tests.test_render_legend import legend_share

    shares = []
    for sample in sorted((ROOT / "samples").glob("*.expr")):
        for view in ("forward", "backward"):
            try:
                shares.append((legend_share(sample, view), f"{sample.stem} {view}"))
            except BaseException:  # noqa: BLE001 - a sample that draws no graph (pytest.skip)
                continue
    share, where = max(shares)
    row("legend share of a sample picture", f"{share:.1%}", where, "", "<= 15%")


LOOP_ITERATIONS = 800  # samples/no_grad_regression.expr


# PyTorch runs the same file in-process: its import alone takes a second or two and varies by
# more than the whole loop costs, so a difference of two process times would be mostly noise.
TORCH_LOOP = """
import runpy, statistics, sys, time, torch
times = []
for _ in range(9):
    start = time.perf_counter()
    runpy.run_path(sys.argv[1])
    times.append(time.perf_counter() - start)
print(statistics.median(times), file=sys.stderr)
"""


# agraph timed the way PyTorch is: the same file run 9 times in one process, median.
AGRAPH_LOOP = """
import statistics, sys, time
from autograd_cli.language.interpreter import run_program
text = open(sys.argv[1], encoding="utf-8").read()
run_program(text)
times = []
for _ in range(9):
    start = time.perf_counter()
    result = run_program(text)
    times.append(time.perf_counter() - start)
assert result.error is None, result.error
print(statistics.median(times), file=sys.stderr)
"""


def bench_training_loop(torch: bool, repeat: int) -> None:
    """Per-iteration cost of the seed regression loop. agraph twice: as a whole process,
    (run - run of an empty program) / iterations, which also counts the first run's one-time
    costs; and in one process like PyTorch. PyTorch: the same file timed in one process."""
    empty = ROOT / "benchmarks" / "empty_torch.expr"
    ours_total = timed([*AGRAPH, "run", str(REGRESSION), "--no-table"], repeat)
    ours_base = timed([*AGRAPH, "run", str(empty), "--no-table"], repeat)
    ours = (ours_total - ours_base) / LOOP_ITERATIONS
    in_process = subprocess.run([sys.executable, "-c", AGRAPH_LOOP, str(REGRESSION)], cwd=ROOT,
                                capture_output=True, text=True, check=True)
    ours_warm = float(in_process.stderr.strip().splitlines()[-1]) / LOOP_ITERATIONS
    if torch:
        result = subprocess.run([TORCH_PYTHON, "-c", TORCH_LOOP, str(REGRESSION)],
                                capture_output=True, text=True, check=True)
        theirs = float(result.stderr.strip().splitlines()[-1]) / LOOP_ITERATIONS
        row("training loop, per iteration", f"{ours * 1e6:.0f} us", f"{theirs * 1e6:.0f} us torch",
            f"{ours / theirs:.2f}x", "<= 2x torch")
        row("  the same, timed as torch is", f"{ours_warm * 1e6:.0f} us",
            f"{theirs * 1e6:.0f} us torch", f"{ours_warm / theirs:.2f}x", "<= 2x torch")
    else:
        row("training loop, per iteration", f"{ours * 1e6:.0f} us", "n/a", "", "<= 2x torch")
        row("  the same, timed as torch is", f"{ours_warm * 1e6:.0f} us", "n/a", "", "")


CHAIN = """
import time, sys
{setup}
n = int(sys.argv[1])
x = {leaf}
y = x
for _ in range(n):
    y = y * 1.0
start = time.perf_counter()
y.backward()
print(time.perf_counter() - start)
"""


def bench_chain(n: int, torch: bool) -> None:
    ours_code = CHAIN.format(setup="from engine import api\ntensor = api.TORCH['tensor']",
                             leaf="tensor(1.0, requires_grad=True)")
    ours = float(subprocess.run([sys.executable, "-c", ours_code, str(n)], capture_output=True,
                                text=True, cwd=ROOT, check=True).stdout)
    if torch:
        code = CHAIN.format(setup="import torch", leaf="torch.tensor(1.0, requires_grad=True)")
        theirs = float(subprocess.run([TORCH_PYTHON, "-c", code, str(n)], capture_output=True,
                                      text=True, check=True).stdout)
        row(f"backward, {n:,}-op chain", f"{ours:.2f} s", f"{theirs:.2f} s torch",
            f"{ours / theirs:.2f}x", "<= 3x torch")
    else:
        row(f"backward, {n:,}-op chain", f"{ours:.2f} s", "n/a", "", "<= 3x torch")


# Memory of a chain of (mul, exp) steps: resident MiB after building it, after backward (saved
# tensors freed) and after dropping it, measured by the process itself; two lengths show the
# growth is linear.
CHAIN_MEMORY = """
import gc, sys
from engine import api
def mib():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 2**20
gc.disable()  # a million live nodes: the cyclic collector's passes would dominate the timing
start = mib()
x = api.TORCH["tensor"]([1.0, 2.0], requires_grad=True)
y = x
for _ in range(int(sys.argv[1])):
    y = (y * 1.0001).exp()
built = mib()
y.sum().backward()
after_backward = mib()
del y
after_drop = mib()
print(built - start, after_backward - start, after_drop - start)
"""


def bench_chain_memory(sizes: tuple[int, ...]) -> None:
    rows = []
    for n in sizes:
        out = subprocess.run([sys.executable, "-c", CHAIN_MEMORY, str(n)], capture_output=True,
                             text=True, cwd=ROOT, check=True).stdout.split()
        rows.append((n, *(float(v) for v in out)))
    (small, built_small, _, _), (big, built_big, backward_big, dropped_big) = rows[0], rows[-1]
    row(f"chain memory, {small:,} vs {big:,} steps", f"{built_big:.0f} MiB",
        f"{built_small:.0f} MiB",
        f"{built_big / built_small:.2f}x", f"linear ({big / small:.0f}x)")
    row("  resident after backward / del y", f"{backward_big:.0f} / {dropped_big:.0f} MiB",
        "", "", "released")


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


def bench_width() -> None:
    for steps in (250, 2500):  # about 4 recorded ops per step: 1,000 and 10,000 nodes
        with tempfile.NamedTemporaryFile("w", suffix=".expr", delete=False) as handle:
            handle.write(RNN.format(steps=steps))
        try:
            seconds = timed([*AGRAPH, "render", handle.name, "--svg"], 1)
        finally:
            os.unlink(handle.name)
        row(f"render unrolled RNN, ~{steps * 4:,} nodes", f"{seconds:.2f} s", "", "", "< 10 s")


FLAT = """import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range({n}):
    loss = (w * 3.0).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.0001 * w.grad
    w.grad.zero_()
"""


def bench_recording_memory() -> None:
    peaks = []
    for n in (10_000, 100_000):
        with tempfile.NamedTemporaryFile("w", suffix=".expr", delete=False) as handle:
            handle.write(FLAT.format(n=n))
        try:
            peaks.append(peak_rss_mib([*AGRAPH, "run", handle.name, "--no-table",
                                       "--max-seconds", "120"]))
        finally:
            os.unlink(handle.name)
    row("peak memory, 10k vs 100k iterations", f"{peaks[1]:.0f} MiB", f"{peaks[0]:.0f} MiB",
        f"{peaks[1] / peaks[0]:.2f}x", "flat (~1x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller chain")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    torch = have_torch()
    # An editable install compiles nothing ahead; a wheel install does. Measure the latter.
    subprocess.run([sys.executable, "-m", "compileall", "-q", "autograd_cli", "engine",
                    "renderers"], cwd=ROOT, capture_output=True, check=True)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; torch baselines: "
          f"{'yes (' + TORCH_PYTHON + ')' if torch else 'n/a'}")
    row("measure", "agraph", "baseline", "ratio", "target")
    bench_startup(repeat)
    bench_render(repeat, torch)
    bench_big_graphs(repeat)
    bench_legend()
    bench_training_loop(torch, repeat)
    bench_chain(100_000 if args.quick else 1_000_000, torch)
    bench_chain_memory((25_000, 100_000) if args.quick else (250_000, 1_000_000))
    bench_width()
    bench_recording_memory()


if __name__ == "__main__":
    main()
