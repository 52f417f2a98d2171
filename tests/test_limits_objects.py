"""Limits that hold for every kind of object (issue 15), checked on the real command line.

Each hostile program runs as its own `agraph run` process, in an empty working directory, and
must end with exit 1 and a located `FILE:LINE:COL: LimitError` that names the option raising the
limit, no traceback, nothing written, and a peak resident memory (the child's own, from wait4)
under the memory limit in force: `--max-memory` counts the whole agraph process. Most cases run
with a small `--max-memory` so that they are quick; the same account holds at the default.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

MIB = 1 << 20
SMALL = 160 * MIB  # --max-memory of most cases
DEFAULT = 1 << 30  # the documented default of --max-memory

# name -> (program, extra options, line of the error, option named in the message)
MEMORY = "--max-memory"
STR = "--max-str-len"
LIST = "--max-list-len"
CASES: dict[str, tuple[str, tuple[str, ...], int, str]] = {
    # --- one account for everything a program makes ----------------------------------------
    "lists_of_repeats": ("""
        kept = []
        for i in range(300):
            kept.append([i] * 10**6)
        """, (), 3, MEMORY),
    "strings_each_under_the_string_limit": ("""
        kept = []
        for i in range(300):
            kept.append(str(i % 10) * (10**6))
        """, (), 3, MEMORY),
    "big_integers": ("""
        kept = []
        for i in range(200000):
            kept.append((1 << 65000) + i)
        """, (), 3, MEMORY),
    "list_copies": ("""
        x = [1] * 10**6
        kept = []
        for i in range(300):
            kept.append(x.copy())
        """, (), 4, MEMORY),
    "list_slices": ("""
        x = [1] * 10**6
        kept = []
        for i in range(300):
            kept.append(x[i:])
        """, (), 4, MEMORY),
    "tuples_of_a_list": ("""
        x = [1] * 10**6
        kept = []
        for i in range(300):
            kept.append(tuple(x))
        """, (), 4, MEMORY),
    "sorted_again_and_again": ("""
        x = [i * 0.5 for i in range(100000)] * 10
        kept = []
        for i in range(300):
            kept.append(sorted(x))
        """, (), 4, MEMORY),
    "ranges_made_lists": ("""
        kept = []
        for i in range(300):
            kept.append(list(range(10**6)))
        """, (), 3, MEMORY),
    "upper_case_copies": ("""
        s = "a" * 10**6
        kept = []
        for i in range(300):
            kept.append(s.upper())
        """, (), 4, MEMORY),
    "string_slices": ("""
        s = "ab" * 10**6
        kept = []
        for i in range(300):
            kept.append(s[i:])
        """, (), 4, MEMORY),
    "splits": ("""
        s = "ab " * 300000
        kept = []
        for i in range(300):
            kept.append(s.split())
        """, (), 4, MEMORY),
    "dict_copies": ("""
        d = {i: i for i in range(100000)}
        kept = []
        for i in range(300):
            kept.append(dict(d))
        """, (), 4, MEMORY),
    "sets_of_a_list": ("""
        x = list(range(100000))
        kept = []
        for i in range(300):
            kept.append(set(x))
        """, (), 4, MEMORY),
    "f_strings": ("""
        s = "a" * 10**6
        kept = []
        for i in range(300):
            kept.append(f"{s}{i}")
        """, (), 4, MEMORY),
    "percent_formatting": ("""
        s = "a" * 10**6
        kept = []
        for i in range(300):
            kept.append("%s%d" % (s, i))
        """, (), 4, MEMORY),
    "format_widths": ("""
        kept = []
        for i in range(300):
            kept.append(format(i, ">1000000"))
        """, (), 3, MEMORY),
    "str_format_nested_widths": ("""
        kept = []
        for i in range(300):
            kept.append("{:>{}}".format(i, 10**6))
        """, (), 3, MEMORY),
    "reprs_of_lists": ("""
        x = ["a" * 10**5] * 10
        kept = []
        for i in range(300):
            kept.append(str(x))
        """, (), 4, MEMORY),
    "joins": ("""
        kept = []
        for i in range(300):
            kept.append("-".join(["x" * 1000] * 1000))
        """, (), 3, MEMORY),
    "join_of_a_generator": ("""
        s = ",".join(str(i) * 1000 for i in range(100000))
        """, (), 1, MEMORY),
    "extend_by_itself": ("""
        x = [0] * 1000
        for i in range(40):
            x.extend(x)
        """, (), 3, MEMORY),
    "add_to_itself": ("""
        x = [0] * 1000
        for i in range(40):
            x += x
        """, (), 3, MEMORY),
    "dict_comprehension": ("""
        d = {i: [i] * 100 for i in range(1000000)}
        """, (), 1, MEMORY),
    "set_comprehension": ("""
        s = {str(i) * 1000 for i in range(1000000)}
        """, (), 1, MEMORY),
    "list_comprehension_of_lists": ("""
        x = [[i] * 100 for i in range(1000000)]
        """, (), 1, MEMORY),
    "tensors_kept": ("""
        import torch
        kept = []
        for i in range(300):
            kept.append(torch.ones(10**6, dtype=torch.float64) + i)
        """, (), 4, MEMORY),
    "tolists_kept": ("""
        import torch
        x = torch.zeros(100000)
        kept = [x.tolist() for i in range(500)]
        """, (), 3, MEMORY),
    "numpy_tolists_kept": ("""
        import torch
        x = torch.ones(100000)
        kept = [x.numpy().tolist() for i in range(500)]
        """, (), 3, MEMORY),
    "tensor_texts_kept": ("""
        import torch
        torch.set_printoptions(precision=1000)
        x = torch.rand(1000, dtype=torch.float64)
        kept = [str(x) for i in range(300)]
        """, (), 4, MEMORY),
    "torch_size_of_a_range": ("""
        import torch
        s = torch.Size(range(10**8))
        """, (), 2, MEMORY),
    "torch_size_of_an_iterator": ("""
        import torch
        s = torch.Size(iter(range(10**9)))
        """, (), 2, MEMORY),
    "lists_of_repeats_at_the_default_limit": ("""
        kept = []
        for i in range(50):
            kept.append([i] * 10**7)
        """, (MEMORY, str(DEFAULT)), 3, MEMORY),
    "strings_at_the_default_limit": ("""
        kept = []
        for i in range(300):
            kept.append(str(i % 10) * (10**7 - 1))
        """, (MEMORY, str(DEFAULT)), 3, MEMORY),
    # --- sizes given as tensors, bools, numpy integers ---------------------------------------
    "ljust_tensor_width": ("""
        import torch
        s = "a".ljust(torch.tensor(10**9))
        """, (), 2, STR),
    "rjust_tensor_width": ("""
        import torch
        s = "a".rjust(torch.tensor(10**9), "b")
        """, (), 2, STR),
    "center_tensor_width": ("""
        import torch
        s = "a".center(torch.tensor(10**9))
        """, (), 2, STR),
    "zfill_tensor_width": ("""
        import torch
        s = "1".zfill(torch.tensor(10**9))
        """, (), 2, STR),
    "zfill_numpy_integer_width": ("""
        import torch
        n = torch.tensor([10**9]).numpy()[0]
        s = "1".zfill(n)
        """, (), 3, STR),
    "repeat_by_a_numpy_integer": ("""
        import torch
        n = torch.tensor([10**9]).numpy()[0]
        s = "ab" * n
        """, (), 3, STR),
    "repeat_by_a_tensor": ("""
        import torch
        s = "ab" * torch.tensor(10**9)
        """, (), 2, STR),
    "repeat_in_place_by_a_tensor": ("""
        import torch
        s = "ab"
        s *= torch.tensor(10**9)
        """, (), 3, STR),
    "size_repeat_by_a_tensor": ("""
        import torch
        s = torch.Size([1, 2]) * torch.tensor(10**8)
        """, (), 2, LIST),
    "replace_count_tensor": ("""
        import torch
        s = ("a" * 10**6).replace("a", "b" * 100, torch.tensor(10**6))
        """, (), 2, STR),
    "round_tensor_digits": ("""
        import torch
        x = round(7, torch.tensor(-10**9))
        s = "a" * (x + 10**9)
        """, (), 3, STR),
    "int_base_tensor": ("""
        import torch
        x = int("1" * 100000, torch.tensor(2))
        """, (), 2, "--max-int-bits"),
    "f_string_nested_width": ("""
        x = 1
        s = f"{x:>{10**9}}"
        """, (), 2, STR),
    "f_string_tensor_width": ("""
        import torch
        s = f"{1:>{torch.tensor(10**9)}}"
        """, (), 2, STR),
    "str_format_nested_width": ("""
        s = "{:{}}".format(1, 10**9)
        """, (), 1, STR),
    "percent_width": ("""
        s = "%1000000000d" % 1
        """, (), 1, STR),
    # --- text that printing would build ------------------------------------------------------
    "print_options_edgeitems_linewidth": ("""
        import torch
        torch.set_printoptions(edgeitems=10**9, linewidth=10**9)
        x = torch.zeros(10**7)
        print(x)
        """, (), 4, MEMORY),
    "print_options_precision": ("""
        import torch
        torch.set_printoptions(precision=10**6)
        s = str(torch.rand(100))
        """, (), 3, MEMORY),
}


def peak_and_run(program: Path, options: tuple[str, ...], cwd: Path
                 ) -> tuple[int, bytes, bytes, int]:
    """(exit status, stdout, stderr, peak resident KiB of the child alone)."""
    with open(cwd.parent / "out", "w+b") as out, open(cwd.parent / "err", "w+b") as err:
        child = subprocess.Popen([sys.executable, "-m", "autograd_cli", "run", str(program),
                                  *options], stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                 cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)})
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return child.returncode, out.read(), err.read(), usage.ru_maxrss


def run_case(name: str, base: Path) -> dict[str, Any]:
    source, options, _, _ = CASES[name]
    folder = base / name
    (folder / "cwd").mkdir(parents=True)
    program = folder / f"{name}.expr"
    program.write_text(textwrap.dedent(source).strip("\n") + "\n")
    if MEMORY not in options:
        options = (*options, MEMORY, str(SMALL))
    limit = int(options[options.index(MEMORY) + 1])
    status, out, err, peak_kib = peak_and_run(program, options, folder / "cwd")
    return {"status": status, "stdout": out.decode(), "stderr": err.decode(),
            "peak": peak_kib * 1024, "limit": limit,
            "written": sorted(os.listdir(folder / "cwd"))}


@pytest.fixture(scope="module")
def results(tmp_path_factory: Any) -> dict[str, dict[str, Any]]:
    if sys.platform != "linux":
        pytest.skip("measures the peak memory with wait4 on Linux")
    base = tmp_path_factory.mktemp("objects")
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(CASES, pool.map(lambda name: run_case(name, base), CASES),
                        strict=True))


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_program_is_stopped_by_its_limit(results: dict[str, dict[str, Any]],
                                                 name: str) -> None:
    _, _, line, option = CASES[name]
    result = results[name]
    stderr = result["stderr"]
    assert result["status"] == 1, result
    assert re.match(rf"\S*{name}\.expr:{line}:\d+: LimitError: ", stderr), stderr
    assert f"raise it with {option}" in stderr, stderr
    assert "Traceback" not in stderr and 'File "' not in stderr, stderr
    assert result["peak"] < result["limit"], (result["peak"], stderr)
    assert result["written"] == [], result["written"]
