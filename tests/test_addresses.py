"""Printed object addresses depend only on the program: two runs print the same bytes."""

import subprocess
import sys

PROGRAM = """import torch
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
print(y.grad_fn)
print(y.grad_fn.next_functions)
print(y.grad_fn)
"""


def run(tmp_path):
    path = tmp_path / "addresses.expr"
    path.write_text(PROGRAM)
    done = subprocess.run([sys.executable, "-m", "autograd_cli", "run", str(path)],
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_addresses_are_the_same_on_every_run_and_stable_per_object(tmp_path):
    first = run(tmp_path)
    assert first == run(tmp_path)
    lines = first.splitlines()
    assert lines[0].startswith("<SumBackward0 object at 0x")
    assert lines[0] == lines[2]  # the same object keeps its address
    assert lines[0].split(" at ")[1] not in lines[1]  # another object gets another address
