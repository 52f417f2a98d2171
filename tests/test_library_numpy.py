"""`import numpy as np`: numpy's own values and printing, through agraph's ndarray; sizes
checked before numpy allocates; files, memory and the interpreter refused when used."""

from __future__ import annotations

import contextlib
import io
import textwrap
from typing import Any

import numpy as np
import pytest

from autograd_cli.language.interpreter import run_program
from autograd_cli.language.limits import Limits
from engine.api import NUMPY_PRINT_DEFAULTS
from tests.conftest import assert_refused_when_used


def agraph_output(source: str, **limits: Any) -> str:
    result = run_program(textwrap.dedent(source), Limits(**limits))
    assert result.error is None, result.error.format("t.expr", textwrap.dedent(source))
    return result.stdout


def numpy_output(source: str) -> str:
    """What real Python with real numpy prints for the same program."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(textwrap.dedent(source), {"__name__": "__main__"})  # the test's own text
    return printed.getvalue()


PROGRAMS = {
    "creation": """
        import numpy as np
        print(np.array([[1, 2], [3, 4]]), np.arange(0, 1, 0.25), np.linspace(0, 1, 5))
        print(np.zeros((2, 3)), np.ones(3, dtype=np.float32), np.eye(3), np.full((2,), 7))
        print(np.identity(2), np.zeros_like(np.ones((2, 2))), np.empty(0))
        a, b = np.meshgrid(np.arange(3), np.arange(2))
        print(a, b, np.arange(12).reshape(3, 4).T)
    """,
    "math and reductions": """
        import numpy as np
        import math
        x = np.linspace(-math.pi, math.pi, 7)
        print(np.sin(x), np.exp(x).sum(), np.square(x).mean(), x.std(), x.var())
        m = np.arange(1, 7).reshape(2, 3).astype(np.float64)
        print(m.sum(axis=0), m.max(), m.argmin(), m.prod(), np.cumsum(m), m.mean(axis=1))
        print(np.dot(m, m.T), m @ m.T, np.outer([1, 2], [3, 4]), np.clip(m, 2, 5))
        print(np.round(np.sqrt(m), 3), np.abs(-m), np.maximum(m, 3), np.where(m > 2, m, -1))
        print(np.pi, np.e, np.inf, np.isnan(np.array([1.0, np.nan])), np.float32(0.1) * 3)
    """,
    "indexing and in-place": """
        import numpy as np
        a = np.arange(10)
        a[2:5] = 0
        a[a > 7] = -1
        b = a.reshape(2, 5)
        b[:, 0] += 100
        b *= 2
        print(a, b[1], b[:, 1:3], b[b < 0], b[[0, 1], [1, 2]], len(b), b.shape, b.dtype)
        print([x for x in b[0]], b[0, 0], b.tolist(), b.ndim, b.size, float(b[1, 4]))
    """,
    "random": """
        import numpy as np
        np.random.seed(0)
        print(np.random.randn(), np.random.rand(2, 2), np.random.randint(0, 10, size=5))
        print(np.random.normal(0, 1, (2, 3)), np.random.uniform(-1, 1, 3))
        print(np.random.choice(10, 3), np.random.permutation(5))
        x = np.arange(6)
        np.random.shuffle(x)
        rng = np.random.default_rng(42)
        print(x, rng.random(3), rng.normal(size=2), rng.integers(0, 100, 4))
        np.random.seed(1)
        print(np.random.random(), np.random.random_sample((2,)))
    """,
    "linalg and fft": """
        import numpy as np
        m = np.array([[4.0, 1.0], [2.0, 3.0]])
        print(np.linalg.inv(m), np.linalg.det(m), np.linalg.norm(m), np.linalg.solve(m, [1, 2]))
        w, v = np.linalg.eigh(m @ m.T)
        u, s, vt = np.linalg.svd(m)
        print(w, s, np.linalg.matrix_rank(m))
        print(np.fft.fft(np.array([1.0, 2.0, 1.0, 0.0])), np.fft.fftfreq(4, 0.5))
        print(np.fft.rfft(np.ones(4)), np.fft.ifft(np.fft.fft(np.arange(3.0))).real)
    """,
    "ndenumerate, with in-place updates by index (a finite-difference gradient)": """
        import numpy as np
        a = np.array([[1.5, 2.0], [3.0, 4.25]], dtype=np.float32)
        for index, value in np.ndenumerate(a):
            print(index, value, value * 2)
            a[index] += 0.5
        print(a, list(np.ndenumerate([[1, 2], [3, 4]])))
        print(list(np.ndenumerate(np.zeros((0, 2)))), list(np.ndenumerate(7)))
        W = [np.ones((2, 1)), np.zeros(2)]
        W[0][(1, 0)] -= 0.25
        print(W, next(iter(np.ndenumerate(a))))
    """,
    "the type of an element, named by its dtype": """
        import numpy as np
        a = np.ones(3, dtype=np.float32)
        print(type(a[0]).__name__, type(np.float32(2)).__name__, type(a.sum()), type(np.int64(3)))
        print(type(a[0]), type(np.arange(3)[1]), type(np.arange(3, dtype=np.uint8)[1]))
        print(type(np.ones(2)[0]), type(a.mean() * 2), type(np.float16(1.5) + 1))
        print(a[0] + a[1], np.float32(0.1) * 3, -np.int32(4), np.sqrt(np.float64(2)))
        print(a[0] == 1.0, int(np.int8(5)) + 1, np.array([a[0], a[1]]))
    """,
    "split": """
        import numpy as np
        y = np.arange(12)
        print(np.array_split(y, 12), np.array_split(y, 5), np.split(y, [2, 5]))
        print(np.split(np.arange(6.0).reshape(2, 3), 3, axis=1))
        print(np.hsplit(np.arange(8).reshape(2, 4), 2), np.vsplit(np.arange(8).reshape(4, 2), [1]))
        try:
            np.split(y, 5)
        except ValueError as e:
            print(e)
    """,
    "sorting and taking along an axis": """
        import numpy as np
        x = np.array([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]], dtype=np.float32)
        ind = np.argsort(x, axis=1)
        print(ind, np.argsort(ind, axis=-1), np.take_along_axis(x, ind, axis=1))
        print(np.take_along_axis(x, np.argsort(x, axis=0), 0), np.take_along_axis(x, ind[:, :1], 1))
    """,
    "polyfit and polyval": """
        import numpy as np
        x = np.array([0.0, 1.0, 2.0, 3.0])
        y = np.array([1.0, 3.2, 4.9, 7.1])
        m, b = np.polyfit(x, y, 1)
        print(np.polyfit(x, y, 2), np.polyval([m, b], x), round(m, 4), round(b, 4))
    """,
    "polynomial fit, numpy tutorial style": """
        import numpy as np
        import math
        np.random.seed(0)
        x = np.linspace(-math.pi, math.pi, 200)
        y = np.sin(x)
        a, b, c, d = np.random.randn(), np.random.randn(), np.random.randn(), np.random.randn()
        for t in range(300):
            y_pred = a + b * x + c * x ** 2 + d * x ** 3
            loss = np.square(y_pred - y).sum()
            grad_y_pred = 2.0 * (y_pred - y)
            a -= 1e-5 * grad_y_pred.sum()
            b -= 1e-5 * (grad_y_pred * x).sum()
            c -= 1e-5 * (grad_y_pred * x ** 2).sum()
            d -= 1e-5 * (grad_y_pred * x ** 3).sum()
            if t % 100 == 99:
                print(t, loss)
        print(f'Result: y = {a} + {b} x + {c} x^2 + {d} x^3')
    """,
    # an element shifts and masks in its own width: never a Python int of 10**9 bits
    "shifts and masks of integer elements": """
        import numpy as np
        a = np.arange(3)[2]
        print(a << 3, 1 << a, a >> 1, a & 3, 6 | a, a ^ a, a << 10**9, 1 << np.int64(10**9))
        print(np.uint8(255) << 1, np.int8(-1) >> 1, True & a, ~a, type(a << 1))
        try:
            pow(a, 2, 3)
        except TypeError as error:
            print(error)
    """,
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_numpy_prints_what_numpy_prints(name: str) -> None:
    assert agraph_output(PROGRAMS[name]) == numpy_output(PROGRAMS[name])


def test_tensor_and_array_share_memory() -> None:
    source = """
        import numpy as np
        import torch
        a = np.ones(3)
        t = torch.from_numpy(a)
        a[0] = 5
        t.mul_(2)
        n = t.numpy()
        n[2] = -1
        c = torch.tensor(a)
        a[1] = 0
        print(a, t.tolist(), c.tolist(), t.dtype, np.asarray(t).shape)
    """
    assert agraph_output(source) == (
        "[10.  0. -1.] [10.0, 0.0, -1.0] [10.0, 2.0, -1.0] torch.float64 (3,)\n")


@pytest.mark.parametrize("source, kind", [
    ("import numpy as np\nx = np.array([print])\n", "TypeError"),
    ("import numpy as np\nx = np.zeros(3, dtype='O')\n", "TypeError"),
    ("import numpy as np\nx = np.ones(2).__array_interface__\n", "AttributeError"),
    ("import numpy as np\nx = np.ones(2).base\n", "AttributeError"),
    ("import numpy as np\nimport torch\nx = torch.tensor([1.0], requires_grad=True)\n"
     "y = np.asarray(x)\n", "RuntimeError"),
    # a dtype given by position is checked as dtype= is (numpy would multiply Python ints in C)
    ("import numpy as np\nx = np.prod([2**62] * 100000, 0, object)\n", "TypeError"),
    ("import numpy as np\nx = np.ones(3).sum(None, 'O')\n", "TypeError"),
    # an int numpy cannot hold in 64 bits would make an array of Python ints
    ("import numpy as np\nx = np.prod([2**100] * 100000)\n", "OverflowError"),
    ("import numpy as np\nx = np.power(2**64, 10**7)\n", "OverflowError"),
])
def test_what_numpy_must_not_hand_out(source: str, kind: str) -> None:
    result = run_program(source, Limits())
    assert result.error is not None and result.error.type_name == kind, result.error


@pytest.mark.parametrize("expression, option", [
    ("np.zeros((10**6, 10**6))", "--max-elements"),
    ("np.ones(10**7 * 5)", "--max-memory"),
    ("np.arange(10**12)", "--max-elements"),
    ("np.linspace(0, 1, 10**11)", "--max-elements"),
    ("np.random.rand(10**5, 10**5)", "--max-elements"),
    ("np.random.normal(0, 1, size=(10**6, 10**6))", "--max-elements"),
    ("np.random.default_rng(0).random((10**6, 10**6))", "--max-elements"),
    ("np.eye(10**6)", "--max-elements"),
    ("np.outer(np.ones(10**5), np.ones(10**5))", "--max-elements"),
    ("np.meshgrid(np.ones(10**5), np.ones(10**5))", "--max-elements"),
    ("np.tile(np.ones(10), (10**5, 10**5))", "--max-elements"),
    ("np.ones(10**4).repeat(10**6)", "--max-elements"),
    ("np.ones((10**4, 1)) + np.ones(10**5)", "--max-elements"),
    ("np.ones((10**5, 1)) @ np.ones((1, 10**5))", "--max-elements"),
    ("np.concatenate([np.ones(10**3)] * 10**6)", "--max-elements"),
    ("np.broadcast_to(np.ones(1), (10**6, 10**6))", "--max-elements"),
    ('np.full(10**6, "a" * 10**4)', "--max-memory"),  # 40 kB items: sized by the fill value
    ('np.zeros(10**5, dtype="U100000")', "--max-memory"),
    ("np.polyfit(np.ones(10**5), np.ones(10**5), 10**5)", "--max-elements"),
    ("np.array_split(np.ones(3), 10**9)", "--max-elements"),  # an array object per piece
    ("np.zeros_like(np.ones(3), shape=(10**5, 10**5))", "--max-elements"),  # not its input's
    ("np.full_like(np.ones(3), 7, shape=[10**4, 10**4])", "--max-memory"),
    # nested lists are sized before numpy (or the unwrapping) walks them: one shared row
    ("np.array([[1.0] * 20000] * 20000)", "--max-elements"),
    ("np.sum([np.ones(10**5)] * 10**4)", "--max-elements"),
    # a range is a list of Python ints to numpy, made in one C call that holds the lock
    ("np.sum(range(10**9))", "--max-elements"),
    ("np.asarray(range(10**8))", "--max-memory"),
    ("np.array([range(10**5)] * 10**4)", "--max-elements"),
    ("np.array([range(10**4)] * 10**4)", "--max-memory"),
    ('np.array(["a"] + ["a" * 10**6] * 100)', "--max-memory"),  # the longest string counts
    ('np.array([np.array(["a" * 10**6])] * 100)', "--max-memory"),
    ('np.array(["a"], "U100000000")', "--max-memory"),  # a dtype given by position
    # text arrays have big items: what copies or repeats them is sized with them
    ('np.tile(np.array(["a" * 10**6]), 100)', "--max-memory"),
    ('np.concatenate([np.array(["a" * 10**6])] * 100)', "--max-memory"),
    ('np.broadcast_to(np.array(["a" * 10**6]), (100,))', "--max-memory"),
    ('np.where(np.ones(100) > 0, np.array(["a" * 10**6]), "")', "--max-memory"),
    ('np.random.default_rng(0).choice(["a" * 10**6], 100)', "--max-memory"),
])
def test_sizes_are_checked_before_numpy_allocates(expression: str, option: str) -> None:
    source = f"import numpy as np\nx = {expression}\n"
    result = run_program(source, Limits(max_tensor_elements=10**8,
                                        max_total_tensor_bytes=1 << 28))
    assert result.error is not None, expression
    assert (result.error.type_name, result.error.line) == ("LimitError", 2), result.error
    assert option in result.error.message


def test_a_deque_is_a_level_of_nested_data() -> None:
    """numpy reads a deque as a sequence: `[d] * 10**4` is 10**8 numbers to it."""
    source = ("import numpy as np\nfrom collections import deque\nd = deque(range(10**4))\n"
              "x = np.array([d] * 10**4)\n")
    result = run_program(source, Limits(max_total_tensor_bytes=1 << 28))
    assert result.error is not None
    assert (result.error.type_name, result.error.line) == ("LimitError", 4), result.error
    assert agraph_output("""
        import numpy as np
        from collections import deque
        print(np.array(range(10, 0, -3)), np.array([deque([1.5]), range(1)]), np.sum(range(5)))
        """) == "[10  7  4  1] [[1.5]\n [0. ]] 10\n"


REFUSED = [
    ("np.save('out.npy', a)", "numpy.save()"),
    ("np.savez('out.npz', a=a)", "numpy.savez()"),
    ("np.savetxt('out.txt', a)", "numpy.savetxt()"),
    ("np.load('victim')", "numpy.load()"),
    ("np.loadtxt('victim')", "numpy.loadtxt()"),
    ("np.genfromtxt('victim')", "numpy.genfromtxt()"),
    ("np.fromfile('victim')", "numpy.fromfile()"),
    ("np.memmap('out.dat', mode='w+', shape=(3,))", "numpy.memmap()"),
    ("a.tofile('out.bin')", "ndarray.tofile()"),
    ("a.dump('out.pkl')", "ndarray.dump()"),
    ("a.tobytes()", "ndarray.tobytes()"),
    ("a.ctypes.data", "ndarray.ctypes"),
    ("a.data", "ndarray.data"),
    ("np.frombuffer(a)", "numpy.frombuffer()"),
    ("np.ctypeslib.as_array(a)", "numpy.ctypeslib"),
    ("np.lib.format.open_memmap('out.npy')", "numpy.lib"),
    ("np.vectorize(print)", "numpy.vectorize()"),
]


@pytest.mark.parametrize("statement, name", REFUSED)
def test_numpy_host_functions_are_refused_when_used(statement: str, name: str,
                                                    tmp_path: Any) -> None:
    assert_refused_when_used(tmp_path, "import numpy as np\na = np.arange(3.0)\n", statement,
                             name, "1 2 3")


def test_print_options_do_not_leak_between_runs() -> None:
    np.set_printoptions(precision=2)
    try:
        assert agraph_output("import numpy as np\nprint(np.array([1/3]))\n") == \
            "[0.33333333]\n"
    finally:
        np.set_printoptions()


PRINT_OPTIONS_PROGRAM = """
    import numpy as np
    a = np.array([1e-5, 1.23456789, 1234.5, np.nan])
    print(a)
    with np.printoptions(precision=2, suppress=True):
        print(a)
    print(a, np.get_printoptions()["precision"])
    np.set_printoptions(threshold=5, edgeitems=1, sign="+")
    print(np.arange(10), np.array([0.5, -0.5]))
    np.set_printoptions(precision=3, suppress=True, threshold=np.inf, linewidth=30)
    print(a, np.arange(12))
"""


def test_print_options_are_numpys_and_end_with_the_run() -> None:
    np.set_printoptions(**NUMPY_PRINT_DEFAULTS)
    try:
        expected = numpy_output(PRINT_OPTIONS_PROGRAM)
    finally:
        np.set_printoptions(**NUMPY_PRINT_DEFAULTS)
    assert agraph_output(PRINT_OPTIONS_PROGRAM) == expected
    # the next run starts from numpy's defaults
    assert agraph_output("import numpy as np\nprint(np.array([1e-5, 1.5]))\n") == (
        "[1.0e-05 1.5e+00]\n")


@pytest.mark.parametrize("call, message", [
    ("np.set_printoptions(formatter={'float': str})", "formatter= and override_repr="),
    ("np.set_printoptions(precision=10**6)", "precision must be an int between"),
    ("np.set_printoptions(nanstr='x' * 1000)", "nanstr must be a str of at most"),
    ("np.printoptions(floatmode='wide')", "floatmode option must be one of"),
])
def test_print_options_are_checked(call: str, message: str) -> None:
    result = run_program(f"import numpy as np\n{call}\n")
    assert result.error is not None and message in result.error.message
    assert np.get_printoptions()["precision"] == 8


def test_printing_everything_is_sized_first() -> None:
    result = run_program("import numpy as np\nnp.set_printoptions(threshold=10**9)\n"
                         "a = np.zeros(3 * 10**6)\nprint(a)\n",
                         Limits(max_total_tensor_bytes=64 * 2**20))
    assert result.error is not None and result.error.type_name == "LimitError"
    assert result.error.line == 4


def test_tensor_sizes_in_bytes() -> None:
    assert agraph_output("""
        import torch
        x = torch.zeros(3, 5, dtype=torch.float64)
        print(x.nbytes, x.itemsize, x[:, 1].nbytes, torch.ones(2, dtype=torch.int8).nbytes)
    """) == "120 8 24 2\n"
