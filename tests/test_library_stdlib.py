"""The standard modules a program can import: math, random, time, timeit, datetime, functools,
itertools, collections, typing, dataclasses, string, os, sys, importlib.metadata. Values are
compared with what CPython's own modules give; what would reach the host is refused when used,
at its line; sizes are checked before C runs."""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import math
import random
import textwrap
from collections import Counter, OrderedDict, defaultdict, deque
from typing import Any

import pytest

from autograd_cli.language.interpreter import run_program
from autograd_cli.language.limits import Limits
from autograd_cli.library import IMPORTABLE_MODULES, LIBRARY_MODULES
from tests.conftest import assert_refused_when_used


def output(source: str, **limits: Any) -> str:
    result = run_program(textwrap.dedent(source), Limits(**limits))
    assert result.error is None, result.error.format("t.expr", textwrap.dedent(source))
    return result.stdout


def error(source: str, **limits: Any) -> Any:
    result = run_program(textwrap.dedent(source), Limits(**limits))
    assert result.error is not None, f"no error; output: {result.stdout!r}"
    return result.error


def test_random_gives_what_cpython_gives() -> None:
    program = """
        import random
        random.seed(0)
        print(random.random(), random.randint(1, 100), random.uniform(-1, 1))
        xs = list(range(20))
        random.shuffle(xs)
        print(xs, random.sample(range(1000), 5), random.choices("abc", k=4))
        print(random.gauss(0, 1), random.choice([10, 20, 30]), random.getrandbits(70))
        r = random.Random(42)
        print(r.random(), r.randrange(0, 100, 7))
    """
    random.seed(0)
    first = [random.random(), random.randint(1, 100), random.uniform(-1, 1)]
    xs = list(range(20))
    random.shuffle(xs)
    second = [xs, random.sample(range(1000), 5), random.choices("abc", k=4)]
    third = [random.gauss(0, 1), random.choice([10, 20, 30]), random.getrandbits(70)]
    other = random.Random(42)
    fourth = [other.random(), other.randrange(0, 100, 7)]
    expected = "".join(" ".join(map(repr, line)) + "\n" for line in (first, second, third,
                                                                      fourth))
    assert output(program) == expected


def test_unseeded_random_is_the_same_on_every_run() -> None:
    program = "import random\nprint(random.random(), random.random())\n"
    assert output(program) == output(program) == output(
        "import random\nrandom.seed(0)\nprint(random.random(), random.random())\n")


def test_math_is_all_of_pythons() -> None:
    names = sorted(name for name in dir(math) if not name.startswith("_"))
    program = "import math\nprint([n for n in " + repr(names) + " if n not in ('pi',)])\n"
    assert output(program)  # every name importable
    source = """
        import math
        print(math.pi, math.e, math.tau, math.inf, math.sqrt(2), math.exp(1.5), math.log(10, 2))
        print(math.factorial(25), math.comb(40, 20), math.perm(10, 3), math.prod([2, 3, 7]))
        print(math.fsum([0.1] * 10), math.isclose(1.0, 1.0 + 1e-12), math.floor(-2.5),
              math.gcd(12, 18), math.lcm(4, 6), math.dist((0, 0), (3, 4)), math.atan2(1, 1))
    """
    expected = (f"{math.pi} {math.e} {math.tau} inf {math.sqrt(2)} {math.exp(1.5)} "
                f"{math.log(10, 2)}\n{math.factorial(25)} {math.comb(40, 20)} {math.perm(10, 3)} "
                f"42\n{math.fsum([0.1] * 10)} True -3 6 12 5.0 {math.atan2(1, 1)}\n")
    assert output(source) == expected


def test_math_on_a_tensor_element() -> None:
    assert output("import torch, math\nt = torch.tensor([4.0])\nprint(math.sqrt(t))\n") == \
        "2.0\n"


def test_functools_and_itertools() -> None:
    source = """
        import functools, itertools
        print(functools.reduce(lambda a, b: a + b, range(10), 100))
        p = functools.partial(max, 2)
        print(p(10), p.args)
        def fib(n):
            return n if n < 2 else fib(n - 1) + fib(n - 2)
        fast = functools.lru_cache(maxsize=None)(fib)
        print(fast(20), sorted([3, 1, 2], key=functools.cmp_to_key(lambda a, b: b - a)))
        print(list(itertools.islice(itertools.count(5, 2), 4)))
        print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.pairwise("abc")))
        print(list(itertools.combinations(range(4), 2)), list(itertools.permutations("ab")))
        print(list(itertools.zip_longest([1, 2], "a", fillvalue=0)))
        print([(k, list(g)) for k, g in itertools.groupby("aabbbc")])
        print(list(itertools.starmap(max, [(1, 5), (7, 2)])), list(itertools.repeat("x", 3)))
        print(list(itertools.takewhile(lambda x: x < 3, [1, 2, 5, 1])),
              list(itertools.dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
    """
    expected = [
        functools.reduce(lambda a, b: a + b, range(10), 100),
        f"10 {(2,)}",
        f"6765 {[3, 2, 1]}",
        list(itertools.islice(itertools.count(5, 2), 4)),
        f"{list(itertools.accumulate([1, 2, 3, 4]))} {list(itertools.pairwise('abc'))}",
        f"{list(itertools.combinations(range(4), 2))} {list(itertools.permutations('ab'))}",
        list(itertools.zip_longest([1, 2], "a", fillvalue=0)),
        [(k, list(g)) for k, g in itertools.groupby("aabbbc")],
        f"{[5, 7]} {['x'] * 3}",
        f"{[1, 2]} {[5, 1]}",
    ]
    assert output(source) == "".join(f"{line}\n" for line in expected)


def test_collections_print_as_python_does() -> None:
    source = """
        from collections import defaultdict, Counter, deque, OrderedDict, namedtuple
        d = defaultdict(int)
        for word in "a b a c a".split():
            d[word] += 1
        print(d, Counter("abracadabra").most_common(2), Counter("aab") + Counter("b"))
        q = deque(range(5), maxlen=3)
        q.appendleft(9)
        print(q, q.popleft(), OrderedDict([("x", 1)]))
        Point = namedtuple("Point", "x y")
        p = Point(3, y=4)
        print(p, p.x * p.y, p[1])
    """
    counts: defaultdict[str, int] = defaultdict(int)
    for word in "a b a c a".split():
        counts[word] += 1
    q = deque(range(5), maxlen=3)
    q.appendleft(9)
    first = (f"{counts} {Counter('abracadabra').most_common(2)} "
             f"{Counter('aab') + Counter('b')}\n")
    popped = q.popleft()  # print() evaluates its arguments before it shows them
    second = f"{q} {popped} {OrderedDict([('x', 1)])}\n"
    assert output(source) == first + second + "Point(x=3, y=4) 12 4\n"


DATACLASS_PROGRAM = """
from dataclasses import dataclass, field, asdict, astuple, fields, replace, FrozenInstanceError
import dataclasses
from typing import List


@dataclass
class Config:
    lr: float = 0.1
    epochs: int = 3
    sizes: List[int] = field(default_factory=lambda: [2, 3])


@dataclass(frozen=True, order=True)
class Point:
    x: int
    y: int = 0


@dataclass
class Run(Config):
    name: str = "run"
    steps: int = field(default=5, repr=False)

    def __post_init__(self):
        self.total = self.epochs * self.steps


c = Config(lr=0.01)
print(c)
print(c.lr, c.epochs, c.sizes, c == Config(lr=0.01), c == Config())
p = Point(1, 2)
print(p, p < Point(2, 0), sorted([Point(3), Point(1, 5), Point(1, 2)]))
try:
    p.x = 5
except FrozenInstanceError as e:
    print("frozen:", e)
r = Run(epochs=2, name="a")
print(r, r.total, asdict(r), astuple(p))
print([f.name for f in fields(Run)], replace(p, y=9), dataclasses.is_dataclass(r), p == Point(1, 2))
try:
    Point()
except TypeError as e:
    print(e)
try:
    {c}
except TypeError as e:
    print(e)
"""


def test_dataclasses_print_and_compare_as_cpython() -> None:
    """@dataclass (defaults, default_factory, inheritance, __post_init__, frozen, order, repr=
    False), fields/asdict/astuple/replace and the errors, beside CPython running the same."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(DATACLASS_PROGRAM, "t.py", "exec"), {"__name__": "__main__"})
    assert output(DATACLASS_PROGRAM) == printed.getvalue()
    assert "Point(x=1, y=9)" in printed.getvalue()


def test_a_mutable_dataclass_default_is_refused_as_python_does() -> None:
    problem = error("""
        from dataclasses import dataclass
        @dataclass
        class C:
            xs: list = []
    """)
    assert (problem.type_name, problem.line) == ("ValueError", 3)
    assert "mutable default <class 'list'> for field xs is not allowed" in problem.message


def test_classes_print_with_their_module_as_python_shows_them() -> None:
    source = """
        from collections import defaultdict, Counter, deque, OrderedDict
        import numpy as np
        print(defaultdict, Counter, deque, OrderedDict, np.ndarray)
        print(type(defaultdict(int)), type(Counter()), type(deque()), type(OrderedDict()))
        a = np.ones(3)
        print(type(a), type(a) == np.ndarray, isinstance(a, np.ndarray), type("x"), int)
    """
    assert output(source) == (
        "<class 'collections.defaultdict'> <class 'collections.Counter'> "
        "<class 'collections.deque'> <class 'collections.OrderedDict'> <class 'numpy.ndarray'>\n"
        "<class 'collections.defaultdict'> <class 'collections.Counter'> "
        "<class 'collections.deque'> <class 'collections.OrderedDict'>\n"
        "<class 'numpy.ndarray'> True True <class 'str'> <class 'int'>\n")


def test_pprint_lays_out_as_pythons_over_the_programs_reprs() -> None:
    import pprint

    data = {"b": [1, 2, 3] * 12, "a": ("x" * 30, None, 2.5), "c": {3: "z"}}
    program = f"""
        import pprint
        import torch
        data = {data!r}
        pp = pprint.PrettyPrinter(indent=2, width=60)
        pp.pprint(data)
        pprint.pprint(data, compact=True)
        pprint.pp(data)
        print(pprint.pformat(data, width=40) == pp.pformat(data))
        pprint.pprint([torch.zeros(2), None])
    """
    layout = pprint.PrettyPrinter(indent=2, width=60)
    expected = (layout.pformat(data) + "\n" + pprint.pformat(data, compact=True) + "\n"
                + pprint.pformat(data, sort_dicts=False) + "\n"
                + str(pprint.pformat(data, width=40) == layout.pformat(data)) + "\n"
                + "[tensor([0., 0.]), None]\n")
    assert output(program) == expected
    refused = error("import pprint\npprint.pprint([1], stream=None)\npprint.pprint(1, 2)\n")
    assert (refused.type_name, refused.line) == ("ValueError", 3)


def test_string_constants_and_capwords_are_pythons() -> None:
    import string

    program = """
        import string
        from string import ascii_letters
        letters = ascii_letters + " .,;'"
        print(len(letters), string.digits, string.hexdigits, string.capwords("the  quick fox"))
        print(string.punctuation, repr(string.whitespace), string.capwords("a-b c", "-"))
    """
    count = len(string.ascii_letters + " .,;'")
    expected = (f"{count} {string.digits} {string.hexdigits} "
                f"{string.capwords('the  quick fox')}\n{string.punctuation} "
                f"{string.whitespace!r} {string.capwords('a-b c', '-')}\n")
    assert output(program) == expected
    assert error("import string\nt = string.Template('$x')\n").type_name == "AttributeError"


def test_time_and_typing() -> None:
    source = """
        import time
        from typing import List, Optional, Dict
        def total(xs: List[int], scale: Optional[float] = None) -> Dict[str, int]:
            return {"sum": sum(xs)}
        start = time.time()
        t0 = time.perf_counter()
        time.sleep(0.01)
        print(total([1, 2]), time.perf_counter() - t0 >= 0.01, time.time() >= start)
    """
    assert output(source) == "{'sum': 3} True True\n"


def test_datetime_prints_and_computes_as_cpython() -> None:
    """Notebooks stamp their runs with it (`import random, datetime` in UIUC's PyTorch
    workshop); arithmetic keeps the module's types, so their allow-listed reads still work."""
    program = """
        import datetime
        from datetime import timedelta
        start = datetime.datetime.now()
        took = datetime.datetime.now() - start
        print(type(took).__name__, took.total_seconds() >= 0, took.days)
        d = timedelta(days=1, hours=2)
        print(d, repr(d), d * 2, d / 2, d + d, -d, d.seconds, abs(-d) == d)
        t = datetime.datetime(2024, 3, 5, 14, 30)
        print(t, repr(t), t.year, t.strftime("%Y-%m-%d %H:%M"), t + d, (t + d).hour)
        print(t.date(), repr(t.date()), t.date().isoformat(), t - d, f"{t:%d/%m/%Y}")
        print(datetime.date(2020, 1, 2) + timedelta(days=3), t.weekday(), t > start - d * 9999)
        print(isinstance(datetime.date.today(), datetime.date))
    """
    expected = io.StringIO()
    with contextlib.redirect_stdout(expected):
        exec(textwrap.dedent(program), {})
    assert output(program) == expected.getvalue()
    assert "longer than" in error("import datetime\n"
                                  "datetime.date(2020, 1, 1).strftime('%c' * 999)\n").message
    assert error("import datetime\ndatetime.datetime(2020, 1, 1).tzinfo\n"
                 ).type_name == "AttributeError"


def test_importlib_metadata_knows_torchs_version_and_what_is_not_installed() -> None:
    source = """
        from importlib.metadata import version
        import importlib.metadata
        print("torch version:", version("torch"), importlib.metadata.version("Torch"))
        try:
            version("tiktoken")
        except importlib.metadata.PackageNotFoundError as e:
            print(e, isinstance(e, ModuleNotFoundError))
    """
    assert output(source) == ("torch version: 2.13.0+cpu 2.13.0+cpu\n"
                              "No package metadata was found for tiktoken True\n")
    missing = error("from importlib.metadata import version\nversion('tiktoken')\n")
    assert (missing.type_name, missing.line) == ("PackageNotFoundError", 2)
    unknown = error("import importlib.metadata\nimportlib.metadata.version('numpy')\n")
    assert (unknown.type_name, unknown.line) == ("NotImplementedError", 2)


def test_timeit_gives_its_clock_and_refuses_timing_strings() -> None:
    source = """
        from timeit import default_timer
        start = default_timer()
        print(default_timer() - start >= 0)
    """
    assert output(source) == "True\n"
    found = error("from timeit import timeit\nt = timeit('1 + 1')\n")
    assert (found.type_name, found.line) == ("PermissionError", 2)


def test_sleep_past_the_time_limit_is_a_limit_error() -> None:
    found = error("import time\ntime.sleep(60)\n", max_seconds=2)
    assert (found.type_name, found.line) == ("LimitError", 2)
    assert "--max-seconds" in found.message


@pytest.mark.parametrize("source, option", [
    ("import math\nx = math.factorial(10**6)\n", "--max-int-bits"),
    ("import math\nx = math.comb(10**6, 5 * 10**5)\n", "--max-int-bits"),
    ("import math\nx = math.prod([2**40] * 10000)\n", "--max-int-bits"),
    ("import random\nx = random.getrandbits(10**7)\n", "--max-int-bits"),
    ("import random\nx = random.choices([1], k=10**9)\n", "--max-list-len"),
    ("import itertools\nx = list(itertools.islice(itertools.count(), 10**12, None))\n",
     "--max-loop-iterations"),
    ("import itertools\nx = itertools.product(range(10**4), repeat=10**4)\n", "--max-list-len"),
    ("import functools\nx = functools.reduce(max, itertools.count())\n"
     .replace("import functools", "import functools, itertools"), "--max-loop-iterations"),
    ("from collections import deque\nx = deque([1]) * 10**9\n", "--max-list-len"),
    ("import math, itertools\nx = math.fsum(itertools.count())\n", "--max-loop-iterations"),
])
def test_sizes_are_checked_before_the_c_call(source: str, option: str) -> None:
    found = error(source, max_loop_iterations=10_000, max_seconds=20)
    assert found.type_name == "LimitError", found
    assert option in found.message
    assert found.line == source.count("\n")


REFUSED = [
    ("os.system('touch pwned')", "os.system()"),
    ("os.popen('touch pwned')", "os.popen()"),
    ("os.remove('victim')", "os.remove()"),
    ("os.makedirs('pwned')", "os.makedirs()"),
    ("os.listdir('.')", "os.listdir()"),
    ("os.environ['HOME']", "os.environ"),
    ("os.environ.get('HOME')", "os.environ"),
    ("print(os.environ)", "os.environ"),
    ("os.getcwd()", "os.getcwd()"),
    ("os.path.exists('victim')", "os.path.exists()"),
    ("os.chdir('/')", "os.chdir()"),
    ("sys.exit(3)", "sys.exit()"),
    ("sys.path.append('/tmp')", "sys.path"),
    ("sys.setrecursionlimit(10**6)", "sys.setrecursionlimit()"),
    ("sys.version_info >= (3, 8)", "sys.version_info"),
    ("(3, 8) <= sys.version_info", "sys.version_info"),
    ("os.environ * 2", "os.environ"),
    ("-os.environ", "os.environ"),
]


@pytest.mark.parametrize("statement, name", REFUSED)
def test_host_functions_are_refused_when_used(statement: str, name: str, tmp_path: Any) -> None:
    victim = assert_refused_when_used(tmp_path, "import os\nimport sys\n", statement, name,
                                      "keep")
    assert victim.read_text() == "keep"


def test_an_unused_import_costs_nothing() -> None:
    source = """
        import os, sys, os.path
        from os import system, environ
        print(os.path.join("data", "train.csv"), os.path.splitext("a/b.png"), os.sep)
    """
    assert output(source) == "data/train.csv ('a/b', '.png') /\n"


def test_library_namespaces_hand_out_no_host_module() -> None:
    for source, kind in [("import os\nx = os.path.join.__globals__\n", "AttributeError"),
                         ("import random\nx = random.random.__self__\n", "AttributeError"),
                         ("import functools\nx = functools.partial(print).func.__self__\n",
                          "AttributeError"),
                         ("import collections\nx = collections.Counter().fromkeys\n",
                          "AttributeError")]:
        assert error(source).type_name == kind, source


def test_the_module_table_is_what_the_checker_accepts() -> None:
    for name in LIBRARY_MODULES:
        assert name in IMPORTABLE_MODULES
        assert output(f"import {name}\n") == ""
    found = error("import subprocess\n")
    assert (found.type_name, found.line) == ("ImportError", 1)


def test_deepcopy_refuses_what_it_does_not_know_by_name() -> None:
    found = error("import copy\ncopy.deepcopy(iter([1, 2]))\n")
    assert (found.type_name, found.line) == ("TypeError", 2)
    assert "deepcopy of a list_iterator is not supported by agraph" in found.message
    assert output("import copy\nxs = [[1], (2, [3])]\nys = copy.deepcopy(xs)\nys[1][1].append(4)\n"
                  "print(xs, ys, copy.copy(xs)[0] is xs[0])\n") == (
        "[[1], (2, [3])] [[1], (2, [3, 4])] True\n")


def test_sys_stdout_writes_into_the_output_and_pdb_is_importable() -> None:
    source = """
        import sys
        import pdb
        n = sys.stdout.write("predicted string: ")
        sys.stdout.write("ihello")
        sys.stdout.flush()
        print(",", n)
    """
    assert output(source) == "predicted string: ihello, 18\n"
    assert error("import sys\nsys.stdout.write(3)\n").message == (
        "write() argument must be str, not int")
    assert error("import sys\nsys.stdout._runtime\n").type_name == "AttributeError"
    assert error("import pdb\npdb.set_trace()\n").type_name == "PermissionError"
