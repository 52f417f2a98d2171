"""Limits of the language's own values: one C call must never outlast the time limit.

A C call holds the GIL, so the watchdog cannot stop it: comparing, hashing, sorting or
printing lists and tuples that share their items (`b = [a] * 1000`) walks 10**12 items in one
call, `int("1" * 10**7, 2)` makes a 10-million-bit integer, `"%s" * 1000 % args` or
`print(*[s] * 500)` joins gigabytes. Each is refused at its line, quickly and with little
memory, and ordinary programs behave exactly as in Python.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from autograd_cli.language.checker import check_program
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.formatting import TextFormatter
from autograd_cli.language.interpreter import RunResult, run_program
from autograd_cli.language.limits import LimitExceeded, Limits, option_name
from autograd_cli.language.objects import display_repr, nested_size
from autograd_cli.language.operators import CheckedOperators
from tests.conftest import run_agraph

try:
    import engine.api  # noqa: F401

    ENGINE_IMPORTABLE = True
except ImportError:  # the language tests stand without the engine
    ENGINE_IMPORTABLE = False

# Two equal, distinct values of 10**12 items each, every list 1000 long (line 8 and on).
SHARED_LISTS = """\
a1 = [0] * 1000
a2 = [0] * 1000
b1 = [a1] * 1000
b2 = [a2] * 1000
c1 = [b1] * 1000
c2 = [b2] * 1000
d1 = [c1] * 1000
d2 = [c2] * 1000
"""
SHARED_TUPLE = """\
a = (0,) * 1000
b = (a,) * 1000
c = (b,) * 1000
d = (c,) * 1000
"""
BIG_STRING = "s = 'a' * 10 ** 7\n"
SHARED_SMALL = "a = [0] * 1000\nb = [a] * 1000\nc = [b] * 1000\n"  # 10**9 items


def run(source: str, **limits: Any) -> RunResult:
    return run_program(textwrap.dedent(source), Limits(**limits))


def refused(source: str, **limits: Any) -> ScriptError:
    result = run(source, **limits)
    assert result.error is not None, f"no error; output: {result.stdout[:200]!r}"
    return result.error


HOSTILE = [
    # (limit field, setup, the line that must be refused)
    ("max_nested_items", SHARED_LISTS, "print(d1 == d2)"),
    ("max_nested_items", SHARED_LISTS, "print(d1 != d2)"),
    ("max_nested_items", SHARED_LISTS, "print(d1 < d2)"),
    ("max_nested_items", SHARED_LISTS, "print(d1 >= d2)"),
    ("max_nested_items", SHARED_LISTS, "print(d1 in [d2])"),
    ("max_nested_items", SHARED_LISTS, "print(d1 not in (0, d2))"),
    ("max_nested_items", SHARED_LISTS, "print(max(d1, d2))"),
    ("max_nested_items", SHARED_LISTS, "print(min([d1, d2]))"),
    ("max_nested_items", SHARED_LISTS, "print(sorted([d1, d2]))"),
    ("max_nested_items", SHARED_LISTS, "x = sorted(range(4), key=lambda i: d1 if i % 2 else d2)"),
    ("max_nested_items", SHARED_LISTS, "x = max(range(4), key=lambda i: d1 if i % 2 else d2)"),
    ("max_nested_items", SHARED_LISTS, "x = [d1, d2]; x.sort()"),
    ("max_nested_items", SHARED_LISTS, "x = [0, 1]; x.sort(key=lambda i: [d1, d2][i])"),
    ("max_nested_items", SHARED_LISTS, "print([d1].index(d2))"),
    ("max_nested_items", SHARED_LISTS, "print([d1].count(d2))"),
    ("max_nested_items", SHARED_LISTS, "x = [d1]; x.remove(d2)"),
    ("max_nested_items", SHARED_LISTS, "print((d1,).index(d2))"),
    ("max_nested_items", SHARED_LISTS, "print({'k': d1} == {'k': d2})"),
    ("max_nested_items", SHARED_TUPLE, "s = {d}"),
    ("max_nested_items", SHARED_TUPLE, "s = set([d])"),
    ("max_nested_items", SHARED_TUPLE, "s = {t for t in [d]}"),
    ("max_nested_items", SHARED_TUPLE, "m = {d: 1}"),
    ("max_nested_items", SHARED_TUPLE, "m = {t: 1 for t in [d]}"),
    ("max_nested_items", SHARED_TUPLE, "m = dict([(d, 1)])"),
    ("max_nested_items", SHARED_TUPLE, "m = {}; m.update([(d, 1)])"),
    ("max_nested_items", SHARED_TUPLE, "m = {}; m[d] = 1"),
    ("max_nested_items", SHARED_TUPLE, "m = {}; print(m[d])"),
    ("max_nested_items", SHARED_TUPLE, "m = {}; del m[d]"),
    ("max_nested_items", SHARED_TUPLE, "m = {}; m[d] += 1"),
    ("max_nested_items", SHARED_TUPLE, "print(d in {1: 2})"),
    ("max_nested_items", SHARED_TUPLE, "print(d in {1, 2})"),
    ("max_nested_items", SHARED_TUPLE, "print({}.get(d))"),
    ("max_nested_items", SHARED_TUPLE, "print({}.pop(d, 0))"),
    ("max_nested_items", SHARED_TUPLE, "print({}.setdefault(d, 0))"),
    ("max_nested_items", SHARED_TUPLE, "x = set(); x.add(d)"),
    ("max_nested_items", SHARED_TUPLE, "x = set(); x.discard(d)"),
    ("max_nested_items", SHARED_TUPLE, "print(d == (c,) * 1000)"),
    ("max_nested_items", SHARED_TUPLE, "print(d in iter([d[:]]))"),
    # the library's dicts, namedtuples and dataclasses hash and compare tuples in C as well
    ("max_nested_items", SHARED_TUPLE, "import collections; m = collections.Counter([d])"),
    ("max_nested_items", SHARED_TUPLE, "import collections; print(collections.deque().count(d))"),
    ("max_nested_items", SHARED_TUPLE, "import collections; collections.deque([d]).remove(d)"),
    ("max_nested_items", SHARED_TUPLE,
     "import collections; m = collections.defaultdict(int); m[d] += 1"),
    ("max_nested_items", SHARED_TUPLE, "import collections; print(collections.Counter().get(d))"),
    ("max_nested_items", SHARED_TUPLE,
     "import collections; P = collections.namedtuple('P', 'x'); print(hash(P(d)))"),
    ("max_nested_items", SHARED_TUPLE,
     "import collections; P = collections.namedtuple('P', 'x'); print({P(P(d)): 1})"),
    ("max_nested_items", SHARED_TUPLE,
     "import collections; P = collections.namedtuple('P', 'x'); print(P(d) == P((c,) * 1000))"),
    ("max_nested_items", SHARED_TUPLE, "import dataclasses\n@dataclasses.dataclass(frozen=True)\n"
     "class D:\n    t: tuple\nprint(hash(D(d)))"),
    ("max_nested_items", SHARED_TUPLE, "import dataclasses\n@dataclasses.dataclass\n"
     "class D:\n    t: tuple\nprint(D(d) == D((c,) * 1000))"),
    ("max_str_len", SHARED_SMALL, "x = str(c)"),
    ("max_str_len", SHARED_SMALL, "x = repr(c)"),
    ("max_str_len", SHARED_SMALL, "x = f'{c}'"),
    ("max_str_len", SHARED_SMALL, "x = f'{c!r}'"),
    ("max_str_len", SHARED_SMALL, "x = f'{c!a}'"),
    ("max_str_len", SHARED_SMALL, "x = format(c)"),
    ("max_str_len", SHARED_SMALL, "x = '{}'.format(c)"),
    ("max_str_len", SHARED_SMALL, "x = '{0!r}'.format(c)"),
    ("max_str_len", SHARED_SMALL, "x = '%s' % (c,)"),
    ("max_str_len", SHARED_SMALL, "x = '%r' % [c]"),
    ("max_str_len", SHARED_SMALL, "assert False, c"),
    ("max_str_len", SHARED_SMALL, "print(c)"),
    ("max_str_len", BIG_STRING, "x = repr([s] * 1000)"),
    ("max_str_len", BIG_STRING, "x = str((s,) * 1000)"),
    ("max_str_len", BIG_STRING, "x = str({s: s})"),
    ("max_str_len", BIG_STRING, "x = '%s' * 1000 % ((s,) * 1000)"),
    ("max_str_len", BIG_STRING, "x = '%(k)s' * 1000 % {'k': s}"),
    ("max_str_len", BIG_STRING, "x = '{}' * 1000\ny = x.format(*[s] * 1000)"),
    ("max_str_len", BIG_STRING, "x = '{0}' * 1000\ny = x.format(s)"),
    ("max_str_len", BIG_STRING, "x = ''.join(t for t in [s] * 1000)"),
    ("max_str_len", BIG_STRING, "x = s\nx *= 1000"),
    ("max_str_len", "n = 2 ** 65535\n", "x = '%d' * 1000 % ((n,) * 1000)"),
    ("max_str_len", "n = 2 ** 65535\n", "x = '%x' * 1000 % ((n,) * 1000)"),
    ("max_output_bytes", BIG_STRING, "print(*([s] * 500))"),
    ("max_output_bytes", BIG_STRING, "print(*([1] * 500), sep=s)"),
    ("max_output_bytes", BIG_STRING, "print(1, end=s)"),
    ("max_int_bits", "", "n = int('1' * 9999999, 2)"),
    ("max_int_bits", "", "n = int('f' * 2000000, 16)"),
    ("max_int_bits", "", "n = int('0x' + 'f' * 100000, 0)"),
    ("max_int_bits", "", "n = int('0b' + '1' * 100000, 0)"),
    ("max_int_bits", "", "n = int('1' * 100000, base=2)"),
    ("max_int_bits", "", "n = int('1' * 65537, 2)"),
    ("max_int_bits", "", "n = 2 ** 65536"),
    ("max_int_bits", "", "n = (-2) ** 65536"),
    ("max_int_bits", "", "n = 4 ** 32768"),
    ("max_int_bits", "", "n = 3 ** 41350"),
    ("max_int_bits", "", "n = 1 << 65536"),
    ("max_int_bits", "n = 2 ** 65535\n", "m = n + n"),
    ("max_int_bits", "n = 2 ** 65535\n", "m = -n - n"),
    ("max_int_bits", "n = 2 ** 65535\n", "n += n"),
    ("max_int_bits", "n = 2 ** 40000\n", "m = n * n"),
    # dataclasses.asdict copies a shared list each time it appears (as Python does)
    ("max_nested_items", "import dataclasses\n@dataclasses.dataclass\nclass P:\n    x: list\n"
     "a = [0]\nfor i in range(30):\n    a = [a, a]\n", "d = dataclasses.asdict(P(a))"),
    ("max_nested_items", "import dataclasses\n@dataclasses.dataclass\nclass P:\n    x: list\n"
     "p = P([[0] * 10**6] * 10**4)\n", "t = dataclasses.astuple(p)"),
    # pow(b, e, m): each operand within the limit, the work minutes of C
    ("max_int_bits", "m = 3 ** 41000 + 2\n", "y = pow(7, 2 ** 65530 - 1, m)"),
    ("max_int_bits", "m = 3 ** 41000 + 2\n", "y = pow(7, -(2 ** 65530 - 1), m)"),
    # bytes (graphviz's pipe() returns them) repeat and add as strings do
    ("max_str_len", "import graphviz\nb = graphviz.Digraph().pipe(format='svg')\n",
     "y = b * 10**7"),
    ("max_str_len", "import graphviz\nb = graphviz.Digraph().pipe(format='svg')\n",
     "for i in range(40):\n    b = b + b"),
]


@pytest.mark.parametrize("field, setup, line", HOSTILE,
                         ids=[f"{case[0]}-{index}" for index, case in enumerate(HOSTILE)])
def test_hostile_value_is_refused_at_its_line(field: str, setup: str, line: str) -> None:
    source = setup + line + "\n"
    error = refused(source)
    assert error.type_name == "LimitError", error.format("t", source)
    assert error.line == source.count("\n"), error.format("t", source)  # the last line
    assert field in error.message and option_name(field) in error.message


def test_the_nested_items_limit_has_its_option_and_can_be_raised() -> None:
    assert option_name("max_nested_items") == "--max-nested-items"
    source = "a = [0] * 1000\nb = [a] * 1000\nc = [x[:] for x in b]\nprint(b == c)\n"
    assert refused(source, max_nested_items=10**5).line == 4
    assert run(source, max_nested_items=2 * 10**6).stdout == "True\n"


def test_a_tuple_nested_too_deeply_to_hash_is_an_error_not_a_crash() -> None:
    # tuple hashing has no depth check in C: 11 million levels crash the process
    source = "a = ()\nfor i in range(200000):\n    a = (a,)\ns = {a}\n"
    error = refused(source)
    assert (error.type_name, error.line) == ("RecursionError", 4)


def test_deep_lists_still_give_a_recursion_error() -> None:
    source = "a = []\nb = []\nfor i in range(100000):\n    a = [a]\n    b = [b]\nprint(a == b)\n"
    error = refused(source)
    assert (error.type_name, error.line) == ("RecursionError", 6)
    error = refused("a = []\nfor i in range(100000):\n    a = [a]\nprint(a)\n")
    assert (error.type_name, error.line) == ("RecursionError", 4)


def test_an_integer_literal_over_the_limit_is_refused_before_the_run() -> None:
    source = "x = 1\ny = 0x" + "f" * 20000 + "\n"
    with pytest.raises(ScriptError) as caught:
        check_program(source)
    assert caught.value.type_name == "LimitError" and caught.value.line == 2
    assert "max_int_bits" in caught.value.message
    check_program("y = 0x" + "f" * 16384 + "\n")  # 65,536 bits: allowed


def test_division_refuses_operands_over_the_limit() -> None:
    limits = Limits(max_int_bits=100)
    operators = CheckedOperators(limits, TextFormatter(limits, getattr), list)
    for operation in (ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.BitXor, ast.RShift):
        with pytest.raises(LimitExceeded) as caught:
            operators.binary(operation, 2 ** 200, 3)
        assert caught.value.field == "max_int_bits"
    assert operators.binary(ast.FloorDiv, 2 ** 99, 3) == 2 ** 99 // 3
    assert operators.binary(ast.Mod, 2 ** 99 + 5, 2 ** 50) == 5


@pytest.mark.parametrize("name", ["bad_deep_lambda", "bad_deep_not", "bad_deep_pow"])
def test_a_program_too_deep_for_the_parser_is_reported_at_its_line(name: str) -> None:
    body = {"bad_deep_lambda": "f = " + "lambda: " * 3000 + "1",
            "bad_deep_not": "x = " + "not " * 50000 + "1",
            "bad_deep_pow": "x = " + "1**" * 3000 + "1"}[name]
    source = "# a comment\n" + body + "\nprint(1)\n"
    with pytest.raises(ScriptError) as caught:
        check_program(source)
    assert caught.value.type_name == "SyntaxError"
    assert "nested too deeply" in caught.value.message
    assert caught.value.line == 2


def test_the_parser_depth_error_finds_a_line_far_down() -> None:
    source = "x = 1\n" * 3000 + "y = " + "not " * 50000 + "x\n" + "z = 2\n" * 3000
    with pytest.raises(ScriptError) as caught:
        check_program(source)
    assert caught.value.line == 3001


@pytest.mark.skipif(not ENGINE_IMPORTABLE, reason="engine.api does not import")
def test_error_messages_show_the_programs_repr_not_a_host_repr() -> None:
    cases = [
        ("import torch\nprint({}[torch.nn.functional.linear])\n", "KeyError",
         "<built-in function linear>"),
        ("import torch\nprint({}[torch.optim.SGD])\n", "KeyError", "<class 'torch.SGD'>"),
        # a tensor's method shows as PyTorch's built-in method, at the run's own address
        ("import torch\nx = torch.ones(1)\nprint([1].index(x.add))\n", "ValueError",
         "<built-in method add of Tensor object at 0x7f0000"),
    ]
    for source, kind, message in cases:
        error = refused(source)
        assert error.type_name == kind and error.message.startswith(message), error.message
        assert error.line == source.count("\n")
        shown = re.sub(r" at 0x7f0000[0-9a-f]{6}>", ">", error.message)  # the run's own
        for leak in ("0x", "engine", "bound method", "<function"):
            assert leak not in shown


def test_key_and_index_errors_read_as_in_python() -> None:
    for source, kind, message in [
        ("print({}['a'])", "KeyError", "'a'"),
        ("print({}[(1, 'b')])", "KeyError", "(1, 'b')"),
        ("d = {1: 2}\nd.pop(3)", "KeyError", "3"),
        ("s = {1}\ns.remove((2, 3))", "KeyError", "(2, 3)"),
        ("print([1, 2].index(3))", "ValueError", "3 is not in list"),
        ("print([1, 2].index([3]))", "ValueError", "[3] is not in list"),
        ("print((1, 2).index(3))", "ValueError", "tuple.index(x): x not in tuple"),
        ("x = [1]\nx.remove(2)", "ValueError", "list.remove(x): x not in list"),
    ]:
        error = refused(source)
        assert (error.type_name, error.message) == (kind, message), source


# --- ordinary programs behave as in Python ---------------------------------------------------

ORDINARY = [
    "print([1, 2] == [1, 2], [1, 2] < [1, 3], (1, [2]) == (1, [2]), [[1], [2]] != [[1], [3]])",
    "print({'a': [1, (2, 3)]} == {'a': [1, (2, 3)]}, {1, 2} <= {1, 2, 3}, [] == [], () < (1,))",
    "a = [0] * 10\nb = [a] * 10\nc = [b] * 10\nprint(c == [[[0] * 10] * 10] * 10, c[9][9] is a)",
    "s = {(1, 2), (3, 4), (1, 2)}\nprint(sorted(s), (1, 2) in s, (5, 6) in s, len(s))",
    "d = {(1, 'a'): 1, (2, ('b', 3)): 2}\nd[(3, 3)] = 3\nprint(d[(1, 'a')], d.get((2, ('b', 3))), "
    "d.get((9,)), d.pop((3, 3)), d.setdefault((4,), 4), d)",
    "d = {}\nd[(1, 2)] = 5\nd[(1, 2)] += 1\ndel d[(1, 2)]\nprint(d)",
    "m = {(i, i + 1): i for i in range(5)}\nprint(m, {(i, 0) for i in range(3)} == {(0, 0), "
    "(1, 0), (2, 0)})",
    "print(dict([((1, 2), 'x'), ('k', 'v')]), set([(1, 2), (1, 2)]), set({(1,): 0}), "
    "set(x for x in [(1, 2)]))",
    "d = {}\nd.update([((1, 2), 3)], k=4)\nprint(d, dict({'a': 1}, b=2), dict(a=1))",
    "s = set()\ns.add((1, 2))\ns.add((1, 2))\ns.discard((3,))\ns.remove((1, 2))\nprint(s)",
    "print([1, [2]] in [[1, [2]]], [3] in [[1], [2]], (1, 2) in [(1, 2)], (1,) in ((1,),))",
    "print((1, 2) in {(1, 2): 0}, [1] in [[1]], (1, 2) in {(1, 2)} | {(3, 4)})",
    "print(sorted([(2, 'b'), (1, 'c'), (2, 'a')]), sorted([[3], [1, 2], [1]], reverse=True))",
    "w = ['bb', 'a', 'ccc', 'dd']\nprint(sorted(w, key=len), sorted(w, key=len, reverse=True))",
    "w = [(1, 'x'), (0, 'y'), (1, 'z'), (0, 'w')]\nprint(sorted(w, key=lambda p: p[0]), "
    "sorted(w, key=lambda p: p[0], reverse=True))",
    "w = [[2, 1], [1, 2], [2, 0]]\nw.sort()\nprint(w)\nw.sort(key=lambda v: v[1], reverse=True)\n"
    "print(w)",
    "print(max([(1, 2), (3, 0)]), min([[2], [1, 5]]), max('ab', 'abc', key=len), "
    "min([], default=(0,)), max([(1, 'a'), (1, 'b')], key=lambda p: p[0]), max(3, 7, 5))",
    "print(min([3, 1, 2], key=lambda v: -v), max([], key=len, default='none'))",
    "x = [[1], (2,), [1]]\nprint(x.index([1]), x.count([1]), x.index((2,)), (1, [2]).count([2]))\n"
    "x.remove([1])\nprint(x)",
    "a = [1, 'two', 3.5, None, True, (1,), {'k': [1, 2]}, {3}, []]\nprint(a)\nprint(str(a), "
    "repr(a))",
    "a = [1]\na.append(a)\nd = {}\nd['self'] = d\nprint(a, d, repr(a))",
    "print({}.keys(), {1: 2}.values(), {1: (2, 3)}.items(), set(), (), ((1,),), [()])",
    "print('%s %r %a %5d %-4d| %.2f %x %o %X %c %% %e %g' % ('s', 'r', 'é', 42, 7, 3.14159, "
    "255, 8, 255, 65, 12345.678, 0.5))",
    "print('%(a)s-%(b)r' % {'a': [1, 2], 'b': 'x'}, '%s' % [1, (2,)], '%s' % {'k': 1}, "
    "'%d%%' % 50)",
    "print('%s and %s' % ((1, 2), [3]), '%10.3f|' % 2.5, '%f' % 1e300 == '%f' % 1e300)",
    "x = [1, (2, 'b')]\nprint(f'{x} {x!r} {x!s} {x!a} {3:>5} {2.5:.3f} {\"é\"!a}')",
    "print('{} {!r} {k}'.format([1], 'a', k={'k': (1,)}), format([1, 2]), format(3.5, '08.2f'))",
    "print(int('ff', 16), int('0b101', 0), int('0o17', 0), int(' -0x_ff ', 0), int('1_000'), "
    "int('z', 36), int(7.9), int('  12  '))",
    "n = int('1' * 65536, 2)\nprint(n.bit_length(), int('0x' + 'f' * 16384, 0).bit_length())",
    "print((2 ** 65535).bit_length(), (1 << 65535).bit_length(), ((-2) ** 65535).bit_length(), "
    "(3 ** 41000).bit_length())",
    "a = 2 ** 32768\nb = 2 ** 32767\nprint((a * b).bit_length(), (a + a).bit_length(), "
    "(a - 3 * a).bit_length())",
    "n = 2 ** 65535\nprint(n // 3 % 1000, n % 7, (n >> 65000).bit_length(), (n & 255), "
    "(n | 1) % 10, (n ^ n))",
    "print(7 // 2, -7 // 2, 7 % 3, -7 % 3, 2 ** 10, 2 ** -1, 10 - 3, -5 >> 1, 6 & 3, 6 | 1, "
    "6 ^ 3, 1 << 3, 0 ** 0, 1 ** 100000, (-1) ** 100001)",
    "print(1, 'a', [2], sep='-', end='!\\n')\nprint()\nprint('x', None, sep=None, end=None)",
    "x = [[1, 2], [3, 4]]\ny = [row[:] for row in x]\nprint(x == y, x is y, x is not y)",
]


def python_output(source: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "<ordinary>", "exec"), {})  # trusted test text
    return out.getvalue()


@pytest.mark.parametrize("source", ORDINARY, ids=[f"ordinary-{i}" for i in range(len(ORDINARY))])
def test_ordinary_programs_print_what_python_prints(source: str) -> None:
    result = run(source)
    assert result.error is None, result.error.format("t", source)
    assert result.stdout == python_output(source)


def test_a_self_referencing_list_still_prints_and_compares() -> None:
    result = run("a = [1]\na.append(a)\nprint(a, a == a, a in [a], [a] == [a])")
    assert result.error is None
    assert result.stdout == "[1, [...]] True True True\n"


def test_ordinary_big_values_are_not_slowed_down_much() -> None:
    source = """
        pairs = [(i, i + 1) for i in range(200000)]
        other = [(i, i + 1) for i in range(200000)]
        rows = [[i, i] for i in range(200000)]
        print(pairs == other, len(set(pairs)), sorted(pairs, reverse=True)[0], max(rows))
        print(len(str(rows)), rows.index([199999, 199999]), (5, 6) in pairs)
        d = dict(zip(pairs, range(200000)))
        print(d[(7, 8)], len({p: 0 for p in pairs}))
    """
    result = run(source, max_seconds=3600)  # not a race with the clock on a loaded machine
    assert result.error is None, result.error.format("t", source)
    assert result.stdout.split("\n")[0] == "True 200000 (199999, 200000) [199999, 199999]"


def test_a_long_list_of_shared_rows_is_still_allowed_under_the_limit() -> None:
    # 1000 x 1000 shared rows: 10**6 items, well within max_nested_items
    result = run("r = [0] * 1000\nm = [r] * 1000\nn = [r[:] for r in m]\nprint(m == n, "
                 "m < n, m in [n])")
    assert result.error is None and result.stdout == "True False True\n"


# --- the size estimates --------------------------------------------------------------------

def test_nested_size_counts_shared_items_each_time_but_reads_them_once() -> None:
    a = [0] * 1000
    b = [a] * 1000
    c = [b] * 1000
    assert nested_size([1, 2], 100) == 2
    assert nested_size(b, 10**7) == 1000 + 1000 * 1000
    assert nested_size([c] * 1000, 10**7) > 10**7  # 10**12, stopped early
    assert nested_size(c, 10**10) == 1000 + 1000 * (1000 + 1000 * 1000)
    assert nested_size({(1, 2): [3, (4,)]}, 100) == 1 + 2 + 2 + 1
    assert nested_size(42, 100) == 0 and nested_size("text", 100) == 0


def test_nested_size_of_cycles_and_deep_values() -> None:
    a: list[Any] = [1]
    a.append(a)
    assert nested_size(a, 100) == 2
    deep: Any = ()
    for _ in range(3000):
        deep = (deep, 1)
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(10_000)
        assert nested_size(deep, 10**6) == 2 * 3000 - 1 + 1
        sys.setrecursionlimit(2_000)
        with pytest.raises(RecursionError):
            nested_size(deep, 10**6)
    finally:
        sys.setrecursionlimit(limit)


def test_display_repr_is_bounded() -> None:
    assert display_repr([1, "a", (2,)], 100) == "[1, 'a', (2,)]"
    with pytest.raises(LimitExceeded) as caught:
        display_repr(["x" * 60, "y" * 60], 100)
    assert caught.value.field == "max_str_len"
    row = [0] * 100
    assert display_repr([row] * 30, 10_000) == repr([row] * 30)
    with pytest.raises(LimitExceeded):
        display_repr([[row] * 100] * 100, 10_000)
    assert display_repr([[row] * 100] * 100).startswith("[[[0, 0")  # no limit given


# --- the command line --------------------------------------------------------------------------

@pytest.mark.parametrize("name, body, field", [
    ("eq.expr", SHARED_LISTS + "print(d1 == d2)\n", "max_nested_items"),
    ("hash.expr", SHARED_TUPLE + "s = {d}\n", "max_nested_items"),
    ("text.expr", SHARED_SMALL + "s = str(c)\n", "max_str_len"),
    ("base2.expr", "n = int('1' * 9999999, 2)\nm = n // 3\n", "max_int_bits"),
])
def test_the_command_line_reports_the_limit_quickly(tmp_path: Path, name: str, body: str,
                                                    field: str) -> None:
    path = tmp_path / name
    path.write_text("# hostile\n" + body, encoding="utf-8")
    result = run_agraph("run", str(path), timeout=30)
    stderr = result.stderr.decode()
    line = body.count("\n") + 1 if field != "max_int_bits" else 2
    assert result.returncode == 1, stderr
    assert stderr.startswith(f"{path}:{line}:"), stderr
    assert "LimitError: " in stderr
    assert f"(limit {field}; raise it with {option_name(field)})" in stderr
    assert "Traceback" not in stderr
