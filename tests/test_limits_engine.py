"""The engine's size limits on ops whose result can outgrow their inputs, on the Python objects
made from a tensor, and on tensor printing.

Every hostile program here is refused with a LimitError at its line that names the option that
raises the limit, and it is refused BEFORE numpy or Python allocates: the hostile programs run
in a child process whose peak memory (VmHWM) is read after each of them. The legal
neighbours of each case (big but allowed, or ordinary) still work and give numpy's results.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest

from tests.conftest import ROOT, run_agraph

pytest.importorskip("engine.api")

from autograd_cli.language.interpreter import run_program  # noqa: E402
from autograd_cli.language.limits import Limits  # noqa: E402
from engine import api, budget, printing  # noqa: E402
from engine.ops.index import advanced_shape  # noqa: E402
from engine.tensor import Tensor  # noqa: E402

torch: dict[str, Any] = api.TORCH
MIB = 1 << 20
PEAK_LIMIT = 400 * MIB  # what a refused program may use at most (its legal tensors included)

# (name, program, limits, line of the error (or lines), option named, a piece of the message)
HOSTILE: list[tuple[str, str, dict[str, int], int | tuple[int, ...], str, str]] = [
    ("matmul_outer", """
        a = torch.ones(30000, 1)
        b = torch.ones(1, 30000)
        c = a @ b""", {}, 3, "--max-elements", "[30000, 30000]"),
    ("matmul_huge", """
        a = torch.ones(100000, 1)
        c = torch.matmul(a, a.t())""", {}, 2, "--max-elements", "[100000, 100000]"),
    ("mm_outer", """
        a = torch.ones(30000, 1)
        c = torch.mm(a, torch.ones(1, 30000))""", {}, 2, "--max-elements", "900000000"),
    ("matmul_empty_inner_dim", """
        a = torch.ones(30000, 0)
        c = a @ torch.ones(0, 30000)""", {}, 2, "--max-elements", "[30000, 30000]"),
    ("bmm", """
        a = torch.ones(1, 100000, 1)
        c = torch.bmm(a, torch.ones(1, 1, 100000))""", {}, 2, "--max-elements",
     "[1, 100000, 100000]"),
    ("matmul_batch_broadcast", """
        a = torch.ones(30000, 1, 1, 1)
        c = a @ torch.ones(1, 30000, 1, 1)""", {}, 2, "--max-elements", "900000000"),
    ("addmm", """
        a = torch.ones(20000, 1)
        y = torch.addmm(torch.zeros(1), a, torch.ones(1, 20000))""", {}, 2, "--max-elements",
     "[20000, 20000]"),
    ("addmm_bias_broadcast", """
        bias = torch.zeros(30000, 1)
        y = torch.addmm(bias, torch.ones(1, 1), torch.ones(1, 30000))""", {}, 2,
     "--max-elements", "[30000, 30000]"),
    ("linear_20k", """
        m = torch.nn.Linear(20000, 20000)""", {}, 1, "--max-elements", "[20000, 20000]"),
    ("linear_huge", """
        m = torch.nn.Linear(100000, 100000)""", {}, 1, "--max-elements", "[100000, 100000]"),
    ("linear_bytes", """
        m = torch.nn.Linear(10000, 10000, dtype=torch.float64)""",
     {"max_total_tensor_bytes": 500_000_000}, 1, "--max-memory", "800000000 bytes"),
    ("where_three_way", """
        c = torch.ones(1000, 1, 1) > 0
        y = torch.where(c, torch.ones(1, 1000, 1), torch.ones(1, 1, 1000))""", {}, 2,
     "--max-elements", "[1000, 1000, 1000]"),
    ("where_condition_biggest", """
        c = torch.ones(30000, 1) > 0
        y = torch.where(c, torch.ones(30000), 0.0)""", {}, 2, "--max-elements",
     "[30000, 30000]"),
    ("eq_broadcast", """
        a = torch.ones(60000, 1)
        c = a == torch.ones(1, 60000)""", {}, 2, "--max-elements", "[60000, 60000]"),
    ("lt_broadcast", """
        a = torch.ones(60000, 1)
        c = a < torch.ones(1, 60000)""", {}, 2, "--max-elements", "[60000, 60000]"),
    ("ge_method", """
        a = torch.ones(60000, 1)
        c = a.ge(torch.ones(60000))""", {}, 2, "--max-elements", "[60000, 60000]"),
    ("logical_and_broadcast", """
        a = torch.ones(60000, 1) > 0
        c = torch.logical_and(a, torch.ones(60000) > 0)""", {}, 2, "--max-elements",
     "[60000, 60000]"),
    ("allclose_broadcast", """
        a = torch.ones(30000, 1)
        r = torch.allclose(a, torch.ones(1, 30000))""", {}, 2, "--max-elements",
     "[30000, 30000]"),
    ("stack_self", """
        a = torch.ones(10000000)
        c = torch.stack([a] * 100)""", {}, 2, "--max-elements", "[100, 10000000]"),
    ("cat_self", """
        a = torch.ones(10000000)
        c = torch.cat([a] * 100)""", {}, 2, "--max-elements", "[1000000000]"),
    ("cat_before_promotion", """
        a = torch.ones(10000000, dtype=torch.int32)
        c = torch.cat([a] * 30 + [torch.ones(1, dtype=torch.float64)])""", {}, 2,
     "--max-elements", "[300000001]"),
    ("advanced_index_broadcast", """
        x = torch.zeros(30000, 1)
        i = torch.arange(30000).reshape(30000, 1)
        j = torch.zeros(1, 30000, dtype=torch.long)
        y = x[i, j]""", {}, 4, "--max-elements", "[30000, 30000]"),
    ("advanced_index_lists", """
        x = torch.zeros(10, 1)
        y = x[[[0]] * 30000, [[0] * 30000]]""", {}, 2, "--max-elements", "[30000, 30000]"),
    ("advanced_setitem_broadcast", """
        x = torch.zeros(30000, 1)
        i = torch.arange(30000).reshape(30000, 1)
        x[i, torch.zeros(1, 30000, dtype=torch.long)] = 1.0""", {}, 3, "--max-elements",
     "[30000, 30000]"),
    ("index_select_long_index", """
        x = torch.zeros(10, 10000)
        y = torch.index_select(x, 0, torch.zeros(100000, dtype=torch.long))""", {}, 2,
     "--max-elements", "[100000, 10000]"),
    ("bce_weight_broadcast", """
        import torch.nn.functional as F
        x = torch.zeros(30000)
        w = torch.ones(30000, 1)
        y = F.binary_cross_entropy_with_logits(x, x, weight=w)""", {}, 4, "--max-elements",
     "[30000, 30000]"),
    # (the interpreter places an error raised after a program's function returned to the
    # engine at that function's last line, here 2, rather than at the call, 3)
    ("nonzero", """
        x = torch.ones([2] * 24)
        found = torch.nonzero(x)""", {}, 2, "--max-elements", "[16777216, 24]"),
    ("nonzero_bool", """
        x = torch.ones(70000000, dtype=torch.bool)
        found = x.nonzero()""", {}, 2, "--max-memory", "nonzero()"),
    ("jacobian", """
        def f(x):
            return x * 2
        j = torch.autograd.functional.jacobian(f, torch.ones(100000))""", {}, (2, 3),
     "--max-elements", "[100000, 100000]"),
    ("jacobian_many_outputs", """
        def f(x):
            return x * 2
        j = torch.autograd.functional.jacobian(f, torch.ones(6000))""",
     {"max_total_tensor_bytes": 200_000_000}, (2, 3), "--max-memory", "Jacobian"),
    ("view_positions", """
        x = torch.zeros(1, requires_grad=True)
        y = x * 1
        v = y.expand(100000000)
        y.add_(1)
        g = v.grad_fn""", {}, 5, "--max-memory", "positions"),
    ("cast_wider", """
        x = torch.zeros(30000000, dtype=torch.bool)
        y = x.double()""", {"max_total_tensor_bytes": 200_000_000}, 2, "--max-memory",
     "240000000 bytes"),
    ("tolist", """
        x = torch.zeros(10000000)
        y = x.tolist()""", {"max_total_tensor_bytes": 200_000_000}, 2, "--max-memory",
     "tolist() of a tensor of shape [10000000]"),
    ("tolist_rows", """
        x = torch.zeros(5000000, 1)
        y = x.tolist()""", {"max_total_tensor_bytes": 200_000_000}, 2, "--max-memory",
     "5000000 Python numbers"),
    ("unbind", """
        x = torch.zeros(10000000)
        parts = x.unbind()""", {}, 2, "--max-memory", "makes 10000000 tensors"),
    ("split_1", """
        x = torch.zeros(10000000)
        parts = x.split(1)""", {}, 2, "--max-memory", "split()"),
    ("split_sizes", """
        x = torch.zeros(10000000)
        parts = torch.split(x, [1] * 10000000)""", {}, 2, "--max-memory", "split()"),
    ("chunk", """
        x = torch.zeros(10000000)
        parts = torch.chunk(x, 10000000)""", {}, 2, "--max-memory", "chunk()"),
    ("iteration", """
        x = torch.zeros(10000000)
        for row in x:
            pass""", {}, 2, "--max-memory", "iterating"),
    ("list_of_tensor", """
        x = torch.zeros(10000000)
        rows = list(x)""", {}, 2, "--max-memory", "iterating"),
    ("print_precision", """
        torch.set_printoptions(precision=1000000)
        s = str(torch.rand(1000))""", {}, 2, "--max-memory", "printing a tensor of shape [1000]"),
    ("print_precision_sci", """
        torch.set_printoptions(precision=1000000, sci_mode=True)
        s = repr(torch.rand(1000, dtype=torch.float64))""", {}, 2, "--max-memory",
     "printing"),
    ("print_threshold", """
        torch.set_printoptions(threshold=float("inf"))
        s = str(torch.zeros(30000000))""", {}, 2, "--max-memory",
     "printing a tensor of shape [30000000]"),
    ("print_edgeitems", """
        torch.set_printoptions(edgeitems=100000000)
        x = torch.zeros(30000000)
        print(x)""", {}, 3, "--max-memory", "printing"),
    ("print_full_profile", """
        torch.set_printoptions(profile="full")
        x = torch.zeros(5000, 6000)
        s = f"{x}" """, {}, 3, "--max-memory", "printing a tensor of shape [5000, 6000]"),
    ("print_many_short_axes", """
        x = torch.zeros([2] * 24)
        s = str(x)""", {}, 2, "--max-memory", "printing"),
    ("parameter_repr", """
        p = torch.nn.Parameter(torch.zeros(30000000))
        torch.set_printoptions(threshold=float("inf"))
        s = repr(p)""", {}, 3, "--max-memory", "printing"),
    # resizes and adaptive pools: their output (and its float64 work) sized first
    ("interpolate_size", """
        x = torch.ones(1, 1, 100, 100)
        y = torch.nn.functional.interpolate(x, size=(16000, 16000))""", {}, 2, "--max-elements",
     "[1, 1, 16000, 16000]"),
    ("upsample_scale_factor", """
        y = torch.nn.Upsample(scale_factor=1000)(torch.ones(1, 1, 100, 100))""", {}, 1,
     "--max-elements", "[1, 1, 100000, 100000]"),
    ("adaptive_avg_pool_output", """
        y = torch.nn.AdaptiveAvgPool2d((12000, 12000))(torch.ones(1, 1, 100, 100))""", {}, 1,
     "--max-elements", "[1, 1, 12000, 12000]"),
    ("adaptive_avg_pool_windows", """
        x = torch.ones(1, 1, 20000, 1)
        y = torch.nn.AdaptiveAvgPool2d((20000, 1))(x)""", {}, 2, "--max-memory",
     "the windows of an adaptive pool to [20000, 1]"),
    # the leaves of nested data, listed on the way (a range's numbers made one by one)
    ("tensor_from_range", """
        x = torch.tensor(range(10**8))""", {}, 1, "--max-memory",
     "a tensor made of 100000000 numbers"),
    # numpy functions whose result is not their input's size
    ("np_histogram_bins", """
        import numpy as np
        h = np.histogram(np.ones(3), bins=200_000_000)""", {}, 2, "--max-elements",
     "[200000001]"),
    ("np_bincount_largest_value", """
        import numpy as np
        c = np.bincount(np.array([150_000_000]))""", {}, 2, "--max-elements", "[150000001]"),
    ("np_corrcoef_variables", """
        import numpy as np
        c = np.corrcoef(np.ones((12000, 2)))""", {}, 2, "--max-elements", "[12000, 12000]"),
    ("np_cov_columns", """
        import numpy as np
        c = np.cov(np.ones((2, 12000)), rowvar=False)""", {}, 2, "--max-elements",
     "[12000, 12000]"),
    ("np_inner_outer", """
        import numpy as np
        c = np.inner(np.ones((12000, 1)), np.ones((12000, 1)))""", {}, 2, "--max-elements",
     "[12000, 12000]"),
    ("np_multi_dot_outer", """
        import numpy as np
        c = np.linalg.multi_dot([np.ones((12000, 1)), np.ones((1, 12000))])""", {}, 2,
     "--max-elements", "[12000, 12000]"),
    ("np_where_text", """
        import numpy as np
        x = np.arange(10**6)
        y = np.where(x > 0, "a" * 10**4, "b")""", {}, 3, "--max-memory", "[1000000]"),
    ("np_choice_without_replacement", """
        import numpy as np
        c = np.random.choice(10**9, 3, replace=False)""", {}, 2, "--max-elements",
     "[1000000000]"),
    # ops whose result is the broadcast of their inputs, sized like the arithmetic ones
    ("bitwise_and_broadcast", """
        a = torch.ones(20000, 1, dtype=torch.int64)
        c = a & a.t()""", {}, 2, "--max-elements", "[20000, 20000]"),
    ("bitwise_xor_method_broadcast", """
        a = torch.ones(20000, 1, dtype=torch.bool)
        c = a.bitwise_xor(a.t())""", {}, 2, "--max-elements", "[20000, 20000]"),
    ("heaviside_broadcast", """
        a = torch.ones(20000, 1)
        c = torch.heaviside(a, a.t())""", {}, 2, "--max-elements", "[20000, 20000]"),
    ("soft_margin_loss_broadcast", """
        a = torch.ones(20000, 1)
        c = torch.nn.functional.soft_margin_loss(a, a.t())""", {}, 2, "--max-elements",
     "[20000, 20000]"),
    ("solve_batch_broadcast", """
        a = torch.eye(2).expand(10000, 1, 2, 2)
        c = torch.linalg.solve(a, torch.ones(1, 10000, 2, 1))""", {}, 2, "--max-elements",
     "[10000, 10000, 2, 2]"),
    ("cdist_pairs", """
        a = torch.ones(1, 100000, 2)
        c = torch.cdist(a, torch.ones(10000, 1, 2))""", {}, 2, "--max-elements",
     "[10000, 100000, 1, 2]"),
    ("np_range_argument", """
        import numpy as np
        c = np.sum(range(10**9))""", {}, 2, "--max-elements", "[1000000000]"),
    # Python lists an op makes on its way, one C call each: sized before they are made
    ("kthvalue_row_list", """
        x = torch.zeros(10**7)
        v = torch.kthvalue(x, 5)""", {"max_total_tensor_bytes": 200_000_000}, 2,
     "--max-memory", "kthvalue of a row"),
    ("topk_row_list", """
        x = torch.zeros(10**7)
        v = x.topk(10**6, sorted=False)""", {"max_total_tensor_bytes": 400_000_000}, 2,
     "--max-memory", "topk of a row"),
    ("tensor_split_sections", """
        x = torch.zeros(10**7)
        v = torch.tensor_split(x, 10**7)""", {}, 2, "--max-memory", "makes 10000000 tensors"),
    ("storage_tolist", """
        s = torch.zeros(10**7).storage()
        v = s.tolist()""", {"max_total_tensor_bytes": 200_000_000}, 2, "--max-memory",
     "a storage"),
    ("randperm_lists", """
        v = torch.utils.data.random_split(range(10**7), [0.5, 0.5])""",
     {"max_total_tensor_bytes": 200_000_000}, 1, "--max-memory", "randperm(10000000)"),
    ("dataloader_shuffle", """
        class D(torch.utils.data.Dataset):
            def __len__(self):
                return 10**8
            def __getitem__(self, i):
                return i
        for b in torch.utils.data.DataLoader(D(), shuffle=True):
            break""", {}, 6, "--max-memory", "randperm(100000000)"),
    # ops without a check of their own: the total is checked after each big new array
    ("total_after_elementwise_ops", """
        x = torch.zeros(5000000)
        kept = [x + 1 for i in range(100)]""", {"max_total_tensor_bytes": 100_000_000}, 2,
     "--max-memory", "bytes in total"),
]

CHILD = """
import gc, json, sys, textwrap
from autograd_cli.language.interpreter import run_program
from autograd_cli.language.limits import Limits


def peak_kib():
    # this process's own high-water mark (ru_maxrss would count the parent's at the fork)
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status")


results = {}
for name, source, limits in json.load(sys.stdin):
    result = run_program("import torch\\n" + textwrap.dedent(source).strip("\\n") + "\\n",
                         Limits(**limits))
    error = result.error
    results[name] = {
        "type": None if error is None else error.type_name,
        "message": None if error is None else error.message,
        "line": None if error is None else error.line,
        "peak_kib": peak_kib(),
    }
    del result, error
    gc.collect()
json.dump(results, sys.stdout)
"""


@pytest.fixture(scope="module")
def hostile_results() -> dict[str, dict[str, Any]]:
    """All hostile programs, one after another, in one fresh process; the peak memory after
    each (a high-water mark: any of them allocating what it should not shows at once)."""
    if sys.platform != "linux":
        pytest.skip("reads the peak memory from /proc")
    cases = [(name, source, limits) for name, source, limits, *_ in HOSTILE]
    child = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(cases), text=True,
                           capture_output=True, cwd=ROOT, timeout=600)
    assert child.returncode == 0, child.stderr[-3000:]
    results: dict[str, dict[str, Any]] = json.loads(child.stdout)
    return results


@pytest.mark.parametrize(("name", "line", "option", "fragment"),
                         [(name, line, option, fragment)
                          for name, _, _, line, option, fragment in HOSTILE],
                         ids=[case[0] for case in HOSTILE])
def test_hostile_program_is_refused_before_it_allocates(
        hostile_results: dict[str, dict[str, Any]], name: str, line: int | tuple[int, ...],
        option: str, fragment: str) -> None:
    result = hostile_results[name]
    assert result["type"] == "LimitError", result
    lines = line if isinstance(line, tuple) else (line,)
    assert result["line"] - 1 in lines, result  # - 1: the `import torch` line put first
    assert f"raise it with {option}" in result["message"], result
    assert fragment in result["message"], result
    assert result["peak_kib"] * 1024 < PEAK_LIMIT, result


@pytest.mark.parametrize(("program", "fragment"), [
    ("a = torch.ones(30000, 1)\nc = a @ torch.ones(1, 30000)\n",
     "LimitError: tensor of shape [30000, 30000] has 900000000 elements, more than the limit "
     "of 100000000 elements (limit: raise it with --max-elements)"),
    ("x = torch.zeros(10000000)\nparts = x.unbind()\n",
     "LimitError: unbind() of a tensor of shape [10000000] makes 10000000 tensors"),
    ("torch.set_printoptions(precision=1000000)\nprint(torch.rand(1000))\n",
     "LimitError: printing a tensor of shape [1000] makes a text of about"),
    ("p = torch.ones(2, 3)\ns = torch.multinomial(p, 10**9, replacement=True)\n",
     "LimitError: tensor of shape [2, 1000000000] has 2000000000 elements"),
], ids=["matmul", "unbind", "print", "multinomial"])
def test_the_cli_reports_the_limit_at_its_line(tmp_path: Any, program: str,
                                              fragment: str) -> None:
    source = tmp_path / "hostile.expr"
    source.write_text("import torch\n" + program)
    process = run_agraph("run", str(source))
    stderr = process.stderr.decode()
    assert process.returncode == 1, stderr
    assert "hostile.expr:3:" in stderr and fragment in stderr, stderr
    assert "MemoryError" not in stderr and "Traceback" not in stderr


# --- the legal neighbours ------------------------------------------------------------------

def run_ok(source: str, **limits: Any) -> dict[str, Any]:
    result = run_program("import torch\n" + textwrap.dedent(source), Limits(**limits))
    assert result.error is None, result.error.format("t", source)
    return result.variables


def test_big_but_allowed_products_still_work() -> None:
    found = run_ok("""
        a = torch.ones(5000, 1) * 2
        outer = a @ torch.ones(1, 5000)
        square = torch.ones(1000, 1000) @ torch.ones(1000, 1000)
        batched = torch.ones(3, 1, 20, 30) @ torch.ones(4, 30, 10)
        added = torch.addmm(torch.zeros(5000, 1), a, torch.ones(1, 5000))
        empty = torch.ones(300, 0) @ torch.ones(0, 300)
        """)
    assert found["outer"].shape_tuple == (5000, 5000) and float(found["outer"].array[7, 9]) == 2
    assert float(found["square"].array[0, 0]) == 1000
    assert found["batched"].shape_tuple == (3, 4, 20, 10)
    assert found["added"].shape_tuple == (5000, 5000)
    assert found["empty"].shape_tuple == (300, 300) and not found["empty"].array.any()


def test_broadcasting_where_comparisons_and_allclose_still_work() -> None:
    found = run_ok("""
        c = torch.arange(3).reshape(3, 1, 1) > 0
        w = torch.where(c, torch.ones(1, 2, 1), torch.zeros(1, 1, 4))
        w2 = torch.where(torch.tensor([True, False]), 1.0, torch.zeros(3, 1))
        e = torch.arange(3).reshape(3, 1) == torch.arange(3)
        s = torch.arange(3) >= 1
        close = torch.allclose(torch.ones(3, 1), torch.ones(1, 3))
        same = torch.equal(torch.ones(2), torch.ones(2))
        """)
    assert found["w"].shape_tuple == (3, 2, 4) and found["w"].array[1:].all()
    assert not found["w"].array[0].any()
    assert found["w2"].array.tolist() == [[1.0, 0.0]] * 3
    assert (found["e"].array == np.eye(3, dtype=bool)).all()
    assert found["s"].array.tolist() == [False, True, True]
    assert found["close"] is True and found["same"] is True


def test_joining_and_linear_layers_still_work() -> None:
    found = run_ok("""
        a = torch.ones(1000000)
        stacked = torch.stack([a] * 20, dim=1)
        joined = torch.cat([a, torch.zeros(3, dtype=torch.float64)])
        negative = torch.stack([torch.ones(2, 3)] * 4, dim=-1)
        m = torch.nn.Linear(1000, 2000)
        y = m(torch.ones(5, 1000)).sum()
        y.backward()
        opt = torch.optim.Adam(m.parameters())
        opt.step()
        """)
    assert found["stacked"].shape_tuple == (1000000, 20)
    assert found["joined"].shape_tuple == (1000003,) and found["joined"].dtype.name == "float64"
    assert found["negative"].shape_tuple == (2, 3, 4)
    assert found["m"].weight.shape_tuple == (2000, 1000)


def test_pieces_and_lists_of_ordinary_tensors_still_work() -> None:
    found = run_ok("""
        x = torch.arange(12).reshape(4, 3)
        rows = [r.sum().item() for r in x]
        parts = x.unbind(1)
        halves = torch.split(x, 2)
        sized = x.split([1, 3])
        thirds = torch.chunk(x, 3, dim=1)
        numbers = x.tolist()
        many = len(torch.zeros(100000).split(1))
        """)
    assert found["rows"] == [3, 12, 21, 30]
    assert len(found["parts"]) == 3 and len(found["halves"]) == 2 and len(found["sized"]) == 2
    assert len(found["thirds"]) == 3
    assert found["numbers"] == np.arange(12).reshape(4, 3).tolist()
    assert found["many"] == 100000


def test_advanced_index_shapes_are_numpys(seed: int = 5) -> None:
    """advanced_shape (the shape of `array[key]` from the shapes alone) agrees with numpy,
    including numpy's error for index arrays that do not broadcast."""
    rng = np.random.default_rng(seed)
    draw = random.Random(seed)
    for _ in range(3000):
        shape = tuple(draw.randint(0, 4) for _ in range(draw.randint(0, 4)))
        key: list[Any] = []
        dim = 0
        while dim < len(shape) and draw.random() < 0.8:
            pick = draw.random()
            if pick < 0.35:
                key.append(slice(None))
                dim += 1
            elif pick < 0.75:
                size = tuple(draw.randint(1, 3) for _ in range(draw.randint(0, 2)))
                key.append(rng.integers(0, shape[dim], size) if shape[dim]
                           else np.zeros((0,), dtype=np.int64))
                dim += 1
            else:
                covered = draw.randint(0, len(shape) - dim)
                key.append(np.asarray(rng.random(shape[dim:dim + covered]) > 0.5))
                dim += covered
        try:
            expected = np.empty(shape)[tuple(key)].shape
        except IndexError as error:
            with pytest.raises(IndexError, match=str(error).replace("(", r"\(").replace(
                    ")", r"\)").replace("[", r"\[").replace("]", r"\]")):
                advanced_shape(shape, tuple(key))
            continue
        assert advanced_shape(shape, tuple(key)) == expected, (shape, key)


def test_indexing_results_are_unchanged() -> None:
    x = Tensor._wrap(np.arange(60.0).reshape(3, 4, 5))
    keys = [
        (np.array([0, 2]), slice(None), np.array([1, 3])),
        (slice(None), np.array([[0], [1]]), np.array([2, 3])),
        (np.array([True, False, True]),),
        (Ellipsis, np.array([4, 0])),
        (None, np.array([1]), slice(1, 3)),
    ]
    for key in keys:
        torch_key = tuple(Tensor._wrap(k) if isinstance(k, np.ndarray) else k for k in key)
        assert (x[torch_key].array == x.array[key]).all(), key
    y = Tensor._wrap(np.zeros((3, 4)))
    y[Tensor._wrap(np.array([[0], [2]])), Tensor._wrap(np.array([1, 3]))] = 7.0
    assert y.array.sum() == 28.0
    with pytest.raises(RuntimeError, match=r"indexing result of shape \[2, 2\]"):
        y[Tensor._wrap(np.array([[0], [2]])), Tensor._wrap(np.array([1, 3]))] = Tensor._wrap(
            np.ones(3))


def test_optimizer_state_is_checked_before_it_is_made() -> None:
    weight = torch["zeros"](1000, 1000, requires_grad=True)
    weight.sum().backward()
    optimizer = api.OPTIM["Adam"]([weight])
    saved = dict(budget.limits)
    budget.limits["max_elements"] = 10_000
    try:
        with pytest.raises(budget.LimitError, match=r"\[1000, 1000\] has 1000000 elements"):
            optimizer.step()
    finally:
        budget.limits.update(saved)
    optimizer.step()  # within the limits again: the step runs
    assert optimizer.state[weight]["exp_avg"].shape_tuple == (1000, 1000)


# --- printing ------------------------------------------------------------------------------

@pytest.fixture
def print_options() -> Any:
    yield printing.PRINT_OPTIONS
    printing.set_printoptions(profile="default")


def test_printing_estimates_its_text_exactly(print_options: Any) -> None:
    """The size check measures what _nested_str will build: the same length, character for
    character, over shapes, dtypes, summarizing and line widths."""
    measured: dict[str, int] = {}
    original = printing._check_text_size

    def spy(shape: Any, shown: Any, cut_axes: Any, width: int, indent: int) -> None:
        measured["text"] = printing._text_length(shown, cut_axes, width, indent)
        original(shape, shown, cut_axes, width, indent)

    draw = random.Random(3)
    rng = np.random.default_rng(3)
    printing._check_text_size = spy  # type: ignore[assignment]
    try:
        for _ in range(1500):
            shape = tuple(draw.randint(1, 7) for _ in range(draw.randint(0, 4)))
            values = np.asarray(rng.standard_normal(shape) * 10.0 ** draw.randint(-6, 9))
            kind = draw.choice("fidb")
            array = {"f": values.astype(np.float32), "d": values,
                     "i": (values * 100).astype(np.int64), "b": values > 0}[kind]
            printing.set_printoptions(
                precision=draw.choice([0, 2, 4, 45]), threshold=draw.choice([1, 10, 1000]),
                edgeitems=draw.choice([0, 1, 3]), linewidth=draw.choice([1, 30, 80, 200]),
                sci_mode=draw.choice([None, True, False]))
            body = printing._tensor_body(array, 7)
            if body != "[...]":
                assert len(body) == measured["text"], (shape, kind, print_options, body)
    finally:
        printing._check_text_size = original  # type: ignore[assignment]


def test_printing_with_a_huge_precision_pads_as_before(print_options: Any,
                                                       monkeypatch: Any) -> None:
    """Past 40 decimals the element width is computed, not formatted: the text is the one the
    full formatting gives."""
    values = np.array([0.1, -2.5, 1e-7, 3.0, 123456.75], dtype=np.float64)
    for sci_mode in (None, True, False):
        for precision in (41, 60, 200):
            printing.set_printoptions(precision=precision, sci_mode=sci_mode)
            fast = printing.tensor_repr(values)
            monkeypatch.setattr(printing, "_EXACT_DECIMALS", 10**6)
            assert printing.tensor_repr(values) == fast
            monkeypatch.undo()


def test_ordinary_printing_is_unchanged(print_options: Any) -> None:
    assert repr(torch["tensor"]([1.5, 2.25])) == "tensor([1.5000, 2.2500])"
    assert str(torch["zeros"](2, 3)) == "tensor([[0., 0., 0.],\n        [0., 0., 0.]])"
    big = str(torch["arange"](2000))
    assert big == "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"
    printing.set_printoptions(threshold=float("inf"))
    assert len(str(torch["zeros"](20000))) > 40000  # a full print within the budget
