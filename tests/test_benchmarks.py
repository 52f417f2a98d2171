"""The benchmark scripts run (the README's figures come from them): each with the smallest
sizes, as a real subprocess, printing the rows the README quotes. Times are not asserted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT


def _run(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "AGRAPH_TORCH_PYTHON"}  # agraph only
    result = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT,
                            timeout=300, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_bench_ops_prints_its_rows() -> None:
    out = _run("benchmarks/bench_ops.py", "--number", "200")
    for row in ("add", "MulBackward0", "one training step", "torch-order sum, 100 float32",
                "MKL product 32x4 @ 4x16", "backward of a 5-node training step",
                "log_softmax of 6x29 float32"):
        assert row in out, out


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_run_all_prints_its_table_without_pytorch() -> None:
    pin = ["--pin", str(min(os.sched_getaffinity(0)))] if hasattr(os, "sched_getaffinity") else []
    out = _run("benchmarks/run_all.py", "--runs", "1", "--chain", "1000", *pin)
    assert out.startswith("Machine: "), out
    assert ("Pinned to CPUs " if pin else "Not pinned") in out.splitlines()[0], out
    for row in ("startup", "seed render", "regression loop", "MLP step", "1,000-op chain",
                "10,000-node RNN"):
        assert row in out, out
