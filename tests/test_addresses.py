"""Printed object addresses depend only on the program: two runs print the same bytes."""

import os
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


SET_PROGRAM = """words = {"apple", "banana", "cherry", "date", "elder", "fig"}
print(words, sorted(words) == sorted(set(words)), frozenset(["x", "y", "z"]))
print([w for w in {w.upper() for w in words}], hash("autograd"))
"""


def test_sets_of_strings_print_in_one_order_on_every_run(tmp_path):
    """String hashes change per process unless PYTHONHASHSEED is fixed: agraph restarts once
    with PYTHONHASHSEED=0 for a program that builds sets, so it prints what CPython prints
    with that seed, whatever seed agraph itself was started with."""
    path = tmp_path / "sets.expr"
    path.write_text(SET_PROGRAM)
    outputs = set()
    for seed in (None, "random", "1", "4242"):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
        if seed is not None:
            env["PYTHONHASHSEED"] = seed
        done = subprocess.run([sys.executable, "-m", "autograd_cli", "run", str(path)],
                              capture_output=True, text=True, check=True, env=env)
        outputs.add(done.stdout)
        # the program read from stdin too (it was run with the process's own seed)
        piped = subprocess.run([sys.executable, "-m", "autograd_cli", "run", "-"],
                               input=SET_PROGRAM, capture_output=True, text=True, check=True,
                               env=env)
        outputs.add(piped.stdout)
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    cpython = subprocess.run([sys.executable, "-c", SET_PROGRAM], capture_output=True,
                             text=True, check=True, env=env).stdout
    assert outputs == {cpython}
