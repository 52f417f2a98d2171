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

from tests.conftest import ROOT, run_agraph

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
    "counter_of_a_range": ("""
        import collections
        c = collections.Counter(range(10**7))
        """, (), 2, MEMORY),
    "numpy_arrays_kept": ("""
        import numpy as np
        kept = []
        for i in range(300):
            kept.append(np.ones(10**6) + i)
        """, (), 4, MEMORY),
    "numpy_tolists_of_arrays_kept": ("""
        import numpy as np
        kept = [np.zeros(10**5).tolist() for i in range(300)]
        """, (), 2, MEMORY),
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
    "deque_repeat_by_a_tensor": ("""
        import collections, torch
        d = collections.deque([0] * 10) * torch.tensor(10**8)
        """, (), 2, LIST),
    "random_choices_tensor_count": ("""
        import random, torch
        x = random.choices([1, 2], k=torch.tensor(10**9))
        """, (), 2, LIST),
    "random_sample_tensor_count": ("""
        import random, torch
        x = random.sample(range(10**12), torch.tensor(10**9))
        """, (), 2, LIST),
    "random_getrandbits_tensor_count": ("""
        import random, torch
        x = random.getrandbits(torch.tensor(10**9))
        """, (), 2, "--max-int-bits"),
    "ljust_numpy_integer_width": ("""
        import numpy as np
        s = "a".ljust(np.int64(10**9))
        """, (), 2, STR),
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
    # --- copies and conversions that walk shared items -------------------------------------
    "deepcopy_of_shared_lists": ("""
        import copy
        a = [0] * 10**6
        for i in range(8):
            a = [a] * 10**6
        b = copy.deepcopy(a)
        """, (), 5, MEMORY),
    "numpy_array_of_shared_rows": ("""
        import numpy as np
        row = [1.0] * 10**4
        m = np.array([row] * 10**4)
        """, (), 3, MEMORY),
    "numpy_text_tiled": ("""
        import numpy as np
        s = np.array(["a" * 10**6])
        t = np.tile(s, 100)
        """, (), 3, MEMORY),
    "bytes_repeated": ("""
        import graphviz
        b = graphviz.Digraph().pipe(format="svg")
        c = b * 10**6
        """, (), 3, STR),
    "os_path_join_of_long_strings": ("""
        import os
        s = "x" * 10**6
        p = os.path.join(s, *[s] * 1000)
        """, (), 3, STR),
    "itertools_combinations_indices": ("""
        import itertools
        c = itertools.combinations_with_replacement("a", 10**9)
        """, (), 2, LIST),
    "itertools_tee_iterators": ("""
        import itertools
        t = itertools.tee([1], 10**9)
        """, (), 2, LIST),
    # --- the temporaries of one op, which no check before it sizes: the run's watch sees
    # them (a limit whose 1/16 reserve covers what an op allocates between two looks). gelu's
    # exact float32 kernel makes several arrays of its input's size ----------------------------
    "op_temporaries": ("""
        import torch
        x = torch.ones(30_000_000) * 0.5
        y = torch.nn.functional.gelu(x)
        """, (MEMORY, str(640 * MIB)), 3, MEMORY),
    "pyplot_hist_bins": ("""
        import matplotlib.pyplot as plt
        plt.hist([1, 2], bins=10**9)
        """, (), 2, "--max-elements"),
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


# Runs a command and writes its peak resident KiB to argv[1]. The test process may be big
# (a whole suite run in it): a child forked from it would report that size as its own peak, so
# agraph is forked from this small process instead.
MEASURE = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as peak:
    peak.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def measured(argv: list[str], folder: Path, cwd: Path, stdin: Any = subprocess.DEVNULL
             ) -> tuple[int, bytes, bytes, int]:
    """(exit status, stdout, stderr, peak resident bytes) of `argv` run in `cwd`."""
    peak = folder / "peak"
    process = subprocess.run([sys.executable, "-c", MEASURE, str(peak), *argv], stdin=stdin,
                             capture_output=True, cwd=cwd, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    return process.returncode, process.stdout, process.stderr, int(peak.read_text()) * 1024


def agraph(*args: str) -> list[str]:
    return [sys.executable, "-m", "autograd_cli", *args]


def run_case(name: str, base: Path) -> dict[str, Any]:
    source, options, _, _ = CASES[name]
    folder = base / name
    (folder / "cwd").mkdir(parents=True)
    program = folder / f"{name}.expr"
    program.write_text(textwrap.dedent(source).strip("\n") + "\n")
    if MEMORY not in options:
        options = (*options, MEMORY, str(SMALL))
    options = (*options, "--max-seconds", "100")  # a busy machine: the limit under test stops it
    limit = int(options[options.index(MEMORY) + 1])
    status, out, err, peak = measured(agraph("run", str(program), *options), folder,
                                      folder / "cwd")
    return {"status": status, "stdout": out.decode(), "stderr": err.decode(),
            "peak": peak, "limit": limit,
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


def test_elementwise_kernels_hold_small_temporaries(tmp_path: Path) -> None:
    """The float64 kernels make a dozen arrays of their result's size (exact fused
    multiply-adds, the C library through Python lists): run block by block, a 32 MB tensor's
    ops fit in 300 MB (uniform_ alone took 17 times its tensor: 540 MB)."""
    program = tmp_path / "kernels.expr"
    program.write_text(textwrap.dedent("""
        import torch
        x = torch.ones(4_000_000, dtype=torch.float64) * 0.5
        x.uniform_()
        y = torch.nn.functional.gelu(x)
        y = torch.digamma(x)
        y = torch.lgamma(x)
        x.exponential_()
        print("ok")
        """))
    status, out, err, peak = measured(agraph("run", str(program), MEMORY, str(300 * MIB),
                                             "--max-seconds", "100"), tmp_path, tmp_path)
    assert (status, out, err) == (0, b"ok\n", b""), err
    assert peak < 300 * MIB, peak


# --- what prints: no host repr --------------------------------------------------------------

def test_iterators_print_as_python_does_with_the_runs_addresses(tmp_path: Path) -> None:
    program = tmp_path / "iterators.expr"
    program.write_text('x = [1]\nprint(iter(x), zip(x), enumerate(x), reversed(x))\n'
                       'print(iter("ab"), iter(range(2)), iter({1: 2}), sum(i for i in x))\n'
                       'print(f"{iter((1,))}", repr(iter({1})), [reversed(range(3))])\n')
    runs = [run_agraph("run", str(program)) for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout  # the same bytes every run
    assert runs[0].stdout.decode() == (
        "<list_iterator object at 0x7f0000001000> <zip object at 0x7f0000001040> "
        "<enumerate object at 0x7f0000001080> <list_reverseiterator object at 0x7f00000010c0>\n"
        f"<{type(iter('ab')).__name__} object at 0x7f0000001100> "
        "<range_iterator object at 0x7f0000001140> <dict_keyiterator object at 0x7f0000001180> 1\n"
        "<tuple_iterator object at 0x7f00000011c0> <set_iterator object at 0x7f0000001200> "
        "[<range_iterator object at 0x7f0000001240>]\n")


# --- the command line -----------------------------------------------------------------------

@pytest.mark.parametrize("option", ["--max-seconds", "--max-memory", "--max-steps",
                                    "--max-str-len", "--max-output-bytes"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "-inf", "1e400"])
def test_a_limit_must_be_positive_and_finite(tmp_path: Path, option: str, value: str) -> None:
    program = tmp_path / "ok.expr"
    program.write_text("print(1)\n")
    process = run_agraph("run", str(program), option, value)
    assert process.returncode == 2, process.stderr
    assert b"Traceback" not in process.stderr
    assert option.encode() in process.stderr or b"Invalid value" in process.stderr
    assert process.stdout == b""


@pytest.mark.parametrize("argv", [
    ("render", "{program}", "--check", "/dev/zero"),
    ("render", "{program}", "--check", "{folder}"),
    ("run", "/dev/zero"),
    ("check", "/dev/zero"),
])
def test_files_agraph_reads_must_be_regular_and_are_read_capped(tmp_path: Path,
                                                              argv: tuple[str, ...]) -> None:
    program = tmp_path / "ok.expr"
    program.write_text("import torch\nx = torch.ones(2, requires_grad=True)\ny = x.sum()\n")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    args = [arg.format(program=program, folder=tmp_path) for arg in argv]
    status, _, stderr, peak = measured(agraph(*args), tmp_path, cwd)
    assert status in (1, 2), stderr
    assert b"Traceback" not in stderr and stderr
    assert peak < 300 * MIB
    assert os.listdir(cwd) == []


def test_stdin_is_read_with_the_size_cap(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zeros:
        process = subprocess.run([sys.executable, "-m", "autograd_cli", "run", "-"],
                                 stdin=zeros, capture_output=True, cwd=tmp_path, timeout=60)
    assert process.returncode == 1
    assert b"LimitError" in process.stderr and b"--max-source-bytes" in process.stderr
    assert b"Traceback" not in process.stderr


def test_a_figure_too_big_to_draw_is_refused_before_matplotlib_draws_it(tmp_path: Path) -> None:
    program = tmp_path / "figure.expr"
    program.write_text("import matplotlib.pyplot as plt\n"
                       "fig = plt.figure(figsize=(300, 300), dpi=300)\n"
                       "plt.plot([1, 2])\nplt.savefig('big.png')\n")
    figures = tmp_path / "figures"
    figures.mkdir()
    status, _, stderr, peak = measured(
        agraph("run", str(program), "--figures", str(figures)), tmp_path, tmp_path)
    assert status == 1, stderr
    assert b"LimitError: big.png: a figure of 90000 x 90000 pixels" in stderr
    assert b"--max-memory" in stderr and b"Traceback" not in stderr
    assert peak < 300 * MIB
    assert os.listdir(figures) == []
