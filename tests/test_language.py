"""The .expr language: each construct runs like Python, each refused one is refused in place."""

from __future__ import annotations

import ast
import re
import textwrap
from typing import Any

import pytest

from autograd_cli.language.checker import check_program
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.interpreter import RunResult, run_program
from autograd_cli.language.limits import Limits


def _engine_importable() -> bool:
    try:
        import engine.api  # noqa: F401
    except ImportError:
        return False
    return True


# The language does not need the engine; these tests run programs that import torch.
needs_engine = pytest.mark.skipif(not _engine_importable(), reason="engine.api does not import")


def run(source: str, **limits: Any) -> RunResult:
    return run_program(textwrap.dedent(source), Limits(**limits))


def output(source: str) -> str:
    result = run(source)
    assert result.error is None, result.error.format("t.expr", textwrap.dedent(source))
    return result.stdout


def error(source: str) -> ScriptError:
    result = run(source)
    assert result.error is not None, f"no error; output: {result.stdout!r}"
    return result.error


def refusal(source: str) -> ScriptError:
    """The checker's refusal (before anything runs)."""
    with pytest.raises(ScriptError) as caught:
        check_program(textwrap.dedent(source))
    return caught.value


# --- constructs that run -------------------------------------------------------------------------

RUNS = [
    ("assignment", "a = b = 2\nc, (d, e) = 1, [2, 3]\nprint(a, b, c, d, e)", "2 2 1 2 3\n"),
    ("starred unpacking", "a, *b, c = range(5)\nprint(a, b, c)", "0 [1, 2, 3] 4\n"),
    ("subscripts", "x = [0, 1, 2, 3]\nx[0] = 9\nx[1:3] = [7]\nprint(x, x[-1], x[::2])",
     "[9, 7, 3] 3 [9, 3]\n"),
    ("dict items", "d = {'a': 1}\nd['b'] = 2\ndel d['a']\nprint(d, d.get('z', 0))",
     "{'b': 2} 0\n"),
    ("augmented", "n = 1\nn += 2\nn *= 3\nn -= 1\nn //= 2\nn **= 2\nprint(n)", "16\n"),
    ("augmented subscript", "x = [1, 2]\nx[0] += 5\nprint(x)", "[6, 2]\n"),
    ("list += is in place", "a = [1]\nb = a\na += [2]\nprint(b, a is b)", "[1, 2] True\n"),
    ("for over containers", "for x in [1, 2]:\n    print(x)\nfor k in {'a': 1}:\n    print(k)\n"
     "for c in 'hi':\n    print(c)\nfor i, (a, b) in enumerate(zip('xy', (5, 6))):\n"
     "    print(i, a, b)", "1\n2\na\nh\ni\n0 x 5\n1 y 6\n"),
    ("break, continue, else", "for i in range(5):\n    if i == 1:\n        continue\n"
     "    if i == 3:\n        break\n    print(i)\nelse:\n    print('no')\n"
     "for i in range(1):\n    pass\nelse:\n    print('else')", "0\n2\nelse\n"),
    ("while", "i = 0\nwhile i < 3:\n    i += 1\nelse:\n    print('done', i)", "done 3\n"),
    ("if elif else", "for v in [1, 2, 3]:\n    if v == 1:\n        print('one')\n"
     "    elif v == 2:\n        print('two')\n    else:\n        print('many')",
     "one\ntwo\nmany\n"),
    ("def with defaults and keywords", "def f(a, b=2, *rest, c=3, **more):\n"
     "    return (a, b, rest, c, more)\nprint(f(1))\nprint(f(1, 5, 6, c=7, d=8))",
     "(1, 2, (), 3, {})\n(1, 5, (6,), 7, {'d': 8})\n"),
    ("return without value", "def f():\n    return\nprint(f())", "None\n"),
    ("recursion", "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
     "print(fib(15))", "610\n"),
    ("closures", "def make(n):\n    def add(x):\n        return x + n\n    return add\n"
     "print(make(3)(4))", "7\n"),
    ("lambda as an argument", "print(sorted([3, 1, 2], key=lambda v: -v))", "[3, 2, 1]\n"),
    ("comprehensions", "print([x * y for x in range(3) for y in range(2) if x],"
     " {k: v for k, v in zip('ab', [1, 2])}, {x % 2 for x in range(4)})",
     "[0, 1, 0, 2] {'a': 1, 'b': 2} {0, 1}\n"),
    ("comprehension scope", "x = 10\nprint([x for x in range(2)], x)", "[0, 1] 10\n"),
    ("generator argument", "print(sum(x * x for x in range(4)), any(v > 2 for v in [1, 3]))",
     "14 True\n"),
    ("comparisons", "print(1 < 2 < 3, 1 < 3 < 2, None is None, 'a' in 'abc', 3 not in [1])",
     "True False True True True\n"),
    ("bool ops keep values", "print(True and 0, 0 or 'x', not 1, [] or None)",
     "0 x False None\n"),
    ("conditional expression", "print('yes' if 2 > 1 else 'no')", "yes\n"),
    ("f-strings", "x = 10\nprint(f\"{3.14159:.2f}|{'a'!r}|{x:>{5}}|{x=}|{x:,}\")",
     "3.14|'a'|   10|x=10|10\n"),
    ("str.format", "print('{} {name} {0} {1[0]}'.format(1, [5], name='n'))", "1 n 1 5\n"),
    ("percent formatting", "print('%5.1f|%s|%r|%d%%' % (2.25, 's', 'r', 3))",
     "  2.2|s|'r'|3%\n"),
    ("print sep and end", "print(1, 2, sep='-', end='!\\n')\nprint()", "1-2!\n\n"),
    ("assert passes", "assert 1 + 1 == 2, 'math'\nprint('ok')", "ok\n"),
    ("annotations are ignored", "def f(x: int) -> int:\n    return x\ny: int = f(2)\nprint(y)",
     "2\n"),
    ("del a name", "a = 1\ndel a\na = 2\nprint(a)", "2\n"),
    ("big ints print", "print(len(str(2 ** 20000)))", "6021\n"),
    ("string methods", "print('a'.upper(), ', '.join(['x', 'y']), 'a-b'.split('-'),"
     " 'abc'.replace('b', 'BB'), 'x'.center(5, '*'))", "A x, y ['a', 'b'] aBBc **x**\n"),
    ("list methods", "x = [3, 1]\nx.append(2)\nx.extend([0])\nx.sort()\nprint(x, x.pop(),"
     " x.index(2))", "[0, 1, 2] 3 2\n"),
    ("underscore variable", "for _ in range(2):\n    print('x')", "x\nx\n"),
    ("semicolons and CR-free lines", "a = 1; b = 2\nprint(a + b)", "3\n"),
]


@pytest.mark.parametrize("source, expected", [case[1:] for case in RUNS],
                         ids=[case[0] for case in RUNS])
def test_construct_runs(source: str, expected: str) -> None:
    assert output(source) == expected


BUILTINS = [
    ("range len", "print(len(range(3)), list(range(1, 7, 2)))", "3 [1, 3, 5]\n"),
    ("abs min max", "print(abs(-3), min(3, 1), max([1, 5]), min([], default=0))",
     "3 1 5 0\n"),
    ("sum round", "print(sum([1, 2], 10), round(2.567, 2), round(2.5), round(1234, -2))",
     "13 2.57 2 1200\n"),
    ("conversions", "print(float('1.5'), int('7'), bool(0), str(1.5), repr('x'))",
     "1.5 7 False 1.5 'x'\n"),
    ("containers", "print(list('ab'), tuple([1]), dict(a=1), set([1, 1]), dict([(1, 2)]))",
     "['a', 'b'] (1,) {'a': 1} {1} {1: 2}\n"),
    ("iteration helpers", "print(list(zip('ab', [1, 2])), list(enumerate('a', 1)),"
     " list(reversed([1, 2])), sorted('cab'))",
     "[('a', 1), ('b', 2)] [(1, 'a')] [2, 1] ['a', 'b', 'c']\n"),
    ("any all", "print(any([0, 1]), all([]), all([1, 0]))", "True True False\n"),
    ("isinstance", "print(isinstance(1, int), isinstance('a', (str, list)),"
     " isinstance([], tuple))", "True True False\n"),
    ("id", "a = []\nprint(id(a) == id(a))", "True\n"),
    ("iter next format", "it = iter([1, 2])\nprint(next(it), next(it), next(it, 'end'),"
     " format(3.14159, '.3f'))", "1 2 end 3.142\n"),
]


@pytest.mark.parametrize("source, expected", [case[1:] for case in BUILTINS],
                         ids=[case[0] for case in BUILTINS])
def test_builtin(source: str, expected: str) -> None:
    assert output(source) == expected


@pytest.mark.parametrize("name", ["exec", "compile", "open", "quit", "help",
                                  "bytearray", "delattr", "globals", "locals", "exit",
                                  "breakpoint", "input", "dir", "memoryview", "issubclass"])
def test_host_builtins_are_refused_where_used(name: str) -> None:
    problem = refusal(f"x = 1\ny = [{name}]\n")
    assert (problem.type_name, problem.line, problem.col) == ("NameError", 2, 6)
    assert f"{name}()" in problem.message and "not available" in problem.message


def test_eval_evaluates_program_text_in_the_caller_s_scope() -> None:
    program = """
import torch
x = torch.tensor([1., 2.])
print(eval("torch." + repr(x)), eval("  [i * i for i in range(3)]"))
def twice(n):
    return eval("n * 2")
print(twice(21), eval("(lambda a: a + 1)(1)"))
try:
    eval("1 +")
except SyntaxError as e:
    print(e)
"""
    assert output(program) == ("tensor([1., 2.]) [0, 1, 4]\n42 2\n"
                               "invalid syntax (<string>, line 1)\n")


@pytest.mark.parametrize("text, type_name", [
    ("x.__class__", "SyntaxError"),  # the checker's refusals hold inside the string
    ("open('f')", "NameError"), ("exec('1')", "NameError"), ("__import__('os')", "NameError"),
    ("undefined", "NameError"), ("(" * 500 + ")" * 500, "SyntaxError")])
def test_eval_refuses_what_the_program_could_not_write(text: str, type_name: str) -> None:
    problem = error(f"x = 1\ny = eval({text!r})\n")
    assert (problem.type_name, problem.line, problem.col) == (type_name, 2, 5)


def test_eval_takes_neither_globals_nor_a_non_string() -> None:
    assert error("eval('1', {})").type_name == "TypeError"
    assert "must be a string" in error("eval(1)").message


def test_a_program_may_define_a_name_spelled_like_a_host_builtin() -> None:
    assert output("def type(v):\n    return 'mine'\nprint(type(1))") == "mine\n"


@pytest.mark.parametrize("name", ["bytes", "complex", "ascii", "zip_longest", "aiter"])
def test_builtins_outside_the_list_are_not_defined(name: str) -> None:
    problem = error(f"x = 1\n{name}(x)\n")
    assert (problem.type_name, problem.line, problem.col) == ("NameError", 2, 1)


# --- printing never shows host objects -----------------------------------------------------------

@needs_engine
def test_functions_print_without_host_reprs() -> None:
    text = output("""
        import torch
        def f(v):
            return v
        print(f, [lambda: 0], print, len, str, torch, torch.tensor, 'a'.join)
        print(f"{f} {f!r} {print}", str(f), repr([f]), '{}'.format(f), '%s %r' % (f, f))
    """)
    # Python's reprs, with the run's addresses (numbered in order, 0x40 apart), never the host's
    assert "<module " not in text
    addresses = [int(a, 16) for a in re.findall(r" at (0x[0-9a-f]+)>", text)]
    f_address = addresses[0]
    assert addresses == [f_address, f_address + 0x40] + [f_address] * 7
    assert 0x7F0000001000 <= f_address < 0x7F0000100000
    assert text.startswith(f"<function f at {hex(f_address)}> [<function <lambda> at "
                           f"{hex(f_address + 0x40)}>] <built-in function print> <built-in "
                           "function len> <class 'str'> <agraph namespace torch> <built-in "
                           "function tensor>")


def test_self_referencing_list_prints_like_python() -> None:
    assert output("a = [1]\na.append(a)\nprint(a)") == "[1, [...]]\n"


# --- errors are located at the innermost program node --------------------------------------------

@pytest.mark.parametrize("source, type_name, line, col", [
    ("x = 1\nprint(undefined)", "NameError", 2, 7),
    ("r = 1 / 0", "ZeroDivisionError", 1, 5),
    ("def f(v):\n    return 1 / v\ndef g(v):\n    return f(v) + 1\ny = g(0)",
     "ZeroDivisionError", 2, 12),
    ("xs = sorted([1, 0], key=lambda v: 1 / v)", "ZeroDivisionError", 1, 35),
    ("def f(a, b):\n    return a\nf(1)", "TypeError", 3, 1),
    ("def f(a):\n    return a\nf(1, c=2)", "TypeError", 3, 1),
    ("def h():\n    print(q)\n    q = 1\nh()", "UnboundLocalError", 2, 11),
    ("d = {}\nd['k']", "KeyError", 2, 1),
    ("x = [1][5]", "IndexError", 1, 5),
    ("a, b = [1, 2, 3]", "ValueError", 1, 1),
    ("assert 1 == 2, 'no'", "AssertionError", 1, 8),
    ("s = 'héllo' + undefined", "NameError", 1, 15),
    ("x = 'a'.encode()", "AttributeError", 1, 5),
    ("x = (1).real", "AttributeError", 1, 5),
    ("x = 1\ny = x._data", "AttributeError", 2, 5),
    ("x = 1\ny = x.__init__", "AttributeError", 2, 5),
    ("import torch\nclass A(torch.nn.Module):\n    pass\na = A()\nb = a._named_modules",
     "AttributeError", 5, 5),
    # the shapes compiled.py runs as closures, also on a loop's later iterations
    ("x = 1\ny = x + 2 + undefined", "NameError", 2, 13),
    ("x = 'a'\nx += 1", "TypeError", 2, 1),
    ("if undefined:\n    pass", "NameError", 1, 4),
    ("for i in range(3):\n    y = 10 / (1 - i)", "ZeroDivisionError", 2, 9),
    ("for i in range(3):\n    if i == 2:\n        y = [][i]", "IndexError", 3, 13),
    ("import torch\nt = torch.ones(2)\nu = t.view(3)", "RuntimeError", 3, 5),
    ("import torch\nw = torch.ones(2, requires_grad=True)\nfor i in range(2):\n    w -= 1",
     "RuntimeError", 4, 5),
    ("def f(a, *, k):\n    return a\nf(1, k=2, z=3)", "TypeError", 3, 1),
    ("def f(a):\n    return a\nf(1, **{'b': 2})", "TypeError", 3, 1),
])
def test_runtime_error_position(source: str, type_name: str, line: int, col: int) -> None:
    problem = error(source)
    assert (problem.type_name, problem.line, problem.col) == (type_name, line, col)


def test_python_messages_for_calls() -> None:
    assert error("def f(a, b):\n    return a\nf(1)").message == (
        "f() missing 1 required positional argument: 'b'")
    assert error("def f(a):\n    return a\nf(1, 2)").message == (
        "f() takes 1 positional argument but 2 were given")
    assert error("def f(a):\n    return a\nf(1, c=2)").message == (
        "f() got an unexpected keyword argument 'c'")


def test_error_keeps_output_and_variables_up_to_the_failure() -> None:
    result = run("a = 1\nprint('before')\nb = 1 / 0\nc = 3")
    assert result.stdout == "before\n"
    assert list(result.variables) == ["a"]


# --- refused before running ----------------------------------------------------------------------

REFUSED = [
    ("metaclass", "x = 1\nclass A(metaclass=M):\n    pass", "SyntaxError", 2, 9, "metaclass"),
    ("__del__", "class A:\n    def __del__(self):\n        pass", "TypeError", 1, 1, "__del__"),
    ("__getattribute__", "class A:\n    def __getattribute__(self, n):\n        pass",
     "TypeError", 1, 1, "__getattribute__"),
    ("dunder function outside a class", "def __init__(self):\n    pass", "NameError", 1, 1,
     "__init__"),
    ("yield in an expression", "def f():\n    print((yield 1))", "SyntaxError", 2, 12,
     "yield"),
    ("async", "async def f():\n    pass", "SyntaxError", 1, 1, "async"),
    ("import subprocess", "import torch\nimport subprocess", "ImportError", 2, 1,
     "subprocess"),
    ("from socket", "from socket import socket", "ImportError", 1, 1, "socket"),
    ("star import", "from torch import *", "ImportError", 1, 1, "import *"),
    ("relative import", "from . import x", "ImportError", 1, 1, "import"),
    ("dunder attribute", "x = 1\ny = x.__class__", "AttributeError", 2, 5, "__class__"),
    ("dunder name", "__import__('os')", "NameError", 1, 1, "__import__"),
    ("private parameter", "def f(__x):\n    return 1", "NameError", 1, 7, "__x"),
    ("fullwidth dunder", "x = 1\ny = x._\uff3fclass\uff3f\uff3f", "AttributeError", 2, 5,
     "__class__"),
    ("f-string field", "x = 1\ns = f'{x.__class__!r:>{10}}'", "AttributeError", 2, 8,
     "__class__"),
    ("f-string nested spec", "x = 1\ns = f'{x:>{x.__dict__}}'", "AttributeError", 2, 12,
     "__dict__"),
    ("bytes literal", "b = b'x'", "SyntaxError", 1, 5, "bytes"),
    ("match", "match 1:\n    case 1:\n        pass", "SyntaxError", 1, 1, "match"),
    ("syntax error", "x = 1\ny = x + * 2", "SyntaxError", 2, 9, "invalid syntax"),
    ("curly quotes", "print(\u201chi\u201d)", "SyntaxError", 1, 7, "invalid character"),
    ("keyword private", "print(1, _x=2)", "NameError", 1, 10, "_x"),
    ("late __future__ import", "x = 1\nfrom __future__ import division", "SyntaxError", 2, 1,
     "beginning of the file"),
    # what Python's compiler refuses after parsing: run, they ended the program silently
    ("return at module level", "print(1)\nreturn", "SyntaxError", 2, 1, "'return' outside"),
    ("return in a class body", "class A:\n    return 1", "SyntaxError", 2, 5, "outside function"),
    ("break outside a loop", "def f():\n    break\nf()", "SyntaxError", 2, 5,
     "'break' outside loop"),
    ("continue in a function in a loop", "for i in range(2):\n    def g():\n        continue",
     "SyntaxError", 3, 9, "'continue' not properly in loop"),
    ("break in a loop's else", "while 0:\n    pass\nelse:\n    break", "SyntaxError", 4, 5,
     "'break' outside loop"),
    ("duplicate argument", "def f(a, *, a):\n    pass", "SyntaxError", 1, 13,
     "duplicate argument 'a'"),
    ("nonlocal at module level", "nonlocal x", "SyntaxError", 1, 1, "module level"),
]


@pytest.mark.parametrize("source, type_name, line, col, word",
                         [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED])
def test_refused_construct(source: str, type_name: str, line: int, col: int, word: str) -> None:
    problem = refusal(source)
    assert (problem.type_name, problem.line, problem.col) == (type_name, line, col)
    assert word in problem.message


def test_refusal_comes_before_any_output() -> None:
    result = run("print('side effect')\nx = 1\ny = x.__class__")
    assert result.stdout == ""
    assert result.error is not None and result.error.line == 3


def test_first_refusal_in_source_order_and_innermost() -> None:
    problem = refusal("x = 1\ny = x.__class__.__init__.__globals__\nimport os")
    assert (problem.line, problem.message.split("'")[1]) == (2, "__class__")


def test_str_format_fields_are_checked_at_run_time() -> None:
    for template in ("{0.__class__}", "{0._x}", "{x.__class__}"):
        problem = error(f"print('{template}'.format(1, x=1))")
        assert problem.type_name == "AttributeError" and "not allowed" in problem.message


def test_keywords_from_a_dict_cannot_be_private() -> None:
    problem = error("def f(**k):\n    return k\nf(**{'_x': 1})")
    assert problem.type_name == "TypeError" and problem.line == 3


def test_syntax_error_column_counts_characters() -> None:
    problem = refusal("s = 'héllo' + * 2")
    assert (problem.line, problem.col) == (1, 15)


def test_ast_columns_are_characters_after_checking() -> None:
    tree = check_program("s = 'héllo' + zz")
    assign = tree.body[0]
    assert isinstance(assign, ast.Assign) and isinstance(assign.value, ast.BinOp)
    assert assign.value.right.col_offset == 14


# --- imports and namespaces ----------------------------------------------------------------------

IMPORTS = [
    "import torch\nprint(torch.tensor)",
    "import torch as t\nprint(t.tensor)",
    "import torch.nn as nn\nprint(nn.Parameter)",
    "import torch.nn.functional as F\nprint(F.relu)",
    "import torch.optim as optim\nprint(optim)",
    "from torch import nn, optim\nprint(nn, optim)",
    "from torch.autograd import Variable\nprint(Variable)",
    "from torch.nn import functional as F\nprint(F.relu)",
    "import torch.nn\nprint(torch.nn.functional.relu)",
]


@needs_engine
@pytest.mark.parametrize("source", IMPORTS)
def test_torch_imports_bind_namespaces(source: str) -> None:
    assert output(source)


@needs_engine
def test_unknown_torch_name_is_an_error_naming_it() -> None:
    problem = error("import torch\nx = 1\ny = torch.fft.fft(x)")
    assert (problem.type_name, problem.line) == ("AttributeError", 3)
    assert "fft" in problem.message and "not supported" in problem.message
    problem = error("from torch import load")
    assert (problem.type_name, problem.line) == ("ImportError", 1)


@needs_engine
def test_namespaces_are_read_only() -> None:
    problem = error("import torch\ntorch.tensor = print")
    assert (problem.type_name, problem.line) == ("AttributeError", 2)
    assert output("import torch\nprint(torch.tensor)") == "<built-in function tensor>\n"


# --- the engine through the language -------------------------------------------------------------

@needs_engine
def test_tensor_program() -> None:
    text = output("""
        import torch
        x = torch.tensor(2.0, requires_grad=True)
        y = x * x
        y.backward()
        print(x.grad, f"{y.item():.1f}")
        with torch.no_grad():
            z = x * 2
        print(z.requires_grad)
    """)
    assert text == "tensor(4.) 4.0\nFalse\n"


@needs_engine
def test_inplace_augmented_assignment_keeps_the_tensor() -> None:
    text = output("""
        import torch
        m = torch.ones(1)
        before = id(m)
        m += 1
        print(m, id(m) == before)
        m = m + 1
        print(id(m) == before)
    """)
    assert text == "tensor([2.]) True\nFalse\n"


@needs_engine
def test_engine_error_is_located() -> None:
    problem = error("import torch\na = torch.ones(2, 3)\nb = a + torch.ones(4, 5)")
    assert (problem.line, problem.col) == (3, 5)


@needs_engine
def test_tensor_attributes_outside_public_attrs_are_refused() -> None:
    problem = error("import torch\nx = torch.ones(2)\na = x.array")
    assert (problem.type_name, problem.line) == ("AttributeError", 3)
    problem = error("import torch\nx = torch.ones(2)\nx.shape = 3")
    assert (problem.type_name, problem.line) == ("AttributeError", 3)


@needs_engine
def test_warnings_are_recorded_once_per_line() -> None:
    result = run("""
        import torch
        x = torch.tensor(1.0, requires_grad=True)
        y = x * 2
        for i in range(3):
            g = y.grad
    """)
    assert result.error is None
    assert [(w.category, w.line) for w in result.warnings] == [("UserWarning", 6)]
    assert result.warnings[0].format("t.expr", "\n" * 5 + "    g = y.grad\n") == (
        f"t.expr:6: UserWarning: {result.warnings[0].message}\n  g = y.grad\n")


def test_a_program_filters_its_own_warnings_for_its_run_only() -> None:
    program = """
        import torch, warnings
        x = torch.tensor(1.0, requires_grad=True)
        y = x * 2
        g = y.grad
        warnings.filterwarnings("ignore")
        g = y.grad
        warnings.simplefilter("always")
        warnings.warn("careful")
    """
    result = run(program)
    assert result.error is None
    assert [(w.category, w.line) for w in result.warnings] == [("UserWarning", 5),
                                                                ("UserWarning", 9)]
    assert result.warnings[1].message == "careful"
    assert [w.line for w in run(program).warnings] == [5, 9]  # the filter ended with its run
    assert error("import warnings\nwarnings.simplefilter('error')").type_name == "ValueError"


def test_torch_version_is_the_pytorch_whose_output_agraph_gives() -> None:
    # what `print(torch.__version__)` printed under the PyTorch the goldens come from
    assert output("import torch\nprint(torch.__version__)") == "2.13.0+cpu\n"
    problem = error("import torch.nn as nn\nnn.__version__")
    assert (problem.type_name, problem.line) == ("AttributeError", 2)


# --- observer hooks and result -------------------------------------------------------------------

class Recorder:
    def __init__(self) -> None:
        self.binds: list[tuple[str, Any, int]] = []
        self.lines: list[int] = []

    def on_bind(self, name: str, value: Any, line: int) -> None:
        self.binds.append((name, value, line))

    def on_statement(self, node: ast.stmt) -> None:
        self.lines.append(node.lineno)


def test_observer_sees_statements_and_bindings() -> None:
    recorder = Recorder()
    result = run_program("a = 1\ndef f(v):\n    w = v\n    return w\nb = f(a)\n",
                         observer=recorder)
    assert result.error is None
    assert recorder.lines == [1, 2, 5, 3, 4]
    assert [(name, line) for name, _, line in recorder.binds] == [
        ("a", 1), ("f", 2), ("v", 2), ("w", 3), ("b", 5)]


def test_variables_in_binding_order_and_echo() -> None:
    import io

    echo = io.StringIO()
    result = run_program("b = 1\na = 2\nb = 3\nprint(a)\n", echo=echo)
    assert list(result.variables.items())[:2] == [("b", 3), ("a", 2)]
    assert echo.getvalue() == result.stdout == "2\n"


def test_deep_operator_chain_evaluates() -> None:
    source = "x = 1\ny = x" + " + x" * 1500 + "\nprint(y)\n"
    assert output(source) == "1501\n"


def test_a_package_missing_where_pytorch_runs_fails_at_its_import_as_in_python() -> None:
    """sklearn, tqdm, torchvision, ... are not installed beside PyTorch's results either:
    the program runs up to the import, which raises ModuleNotFoundError (catchable)."""
    result = run_program("print('before')\nfrom sklearn.datasets import make_regression\n")
    assert result.stdout == "before\n"
    assert result.error is not None
    assert (result.error.type_name, result.error.line) == ("ModuleNotFoundError", 2)
    assert result.error.message == "No module named 'sklearn'"
    caught = run_program("try:\n    import tqdm\nexcept ImportError as e:\n    print(e)\n")
    assert caught.error is None and caught.stdout == "No module named 'tqdm'\n"
    refused = error("print(1)\nimport json\n")  # a standard module agraph does not offer
    assert (refused.type_name, refused.line) == ("ImportError", 2)
    # matplotlib installs mpl_toolkits beside itself (3-D axes): there, but not offered
    three_d = error("from mpl_toolkits.mplot3d import Axes3D\n")
    assert three_d.type_name == "ImportError" and "not supported" in three_d.message


def test_eval_texts_leave_no_closures_behind() -> None:
    """Each eval() parses its text anew: the closures made for it are not kept (in a loop they
    would pile up), while the program's own nodes keep theirs."""
    seen: list[Any] = []

    class Keeper:
        def on_start(self, interpreter: Any) -> None:
            seen.append(interpreter)

    source = "n = 0\nfor i in range(300):\n    n = n + eval('[i < 3, abs(-i)][1] % 7')\nprint(n)"
    result = run_program(source, observer=Keeper())
    assert result.error is None and result.stdout == f"{sum(i % 7 for i in range(300))}\n"
    assert len(seen[0].compiled) < 30  # the program's few nodes, not 300 texts' worth


def test_with_of_several_items_enters_in_order_and_exits_innermost_first() -> None:
    """As Python runs it: each manager entered in turn, the body, then each exited, the
    innermost first; an error in the body reaches every __exit__, and one that swallows it
    ends the statement."""
    source = textwrap.dedent("""\
        class M:
            def __init__(self, name, swallow=False):
                self.name, self.swallow = name, swallow
            def __enter__(self):
                print('enter', self.name)
                return self.name.upper()
            def __exit__(self, kind, value, tb):
                print('exit', self.name, kind is not None)
                return self.swallow
        with M('a') as x, M('b'), M('c') as z:
            print('body', x, z)
        with M('p', swallow=True), M('q'):
            print(1 / 0)
            print('not reached')
        print('after')
        """)
    expected: list[str] = []
    exec(source, {"print": lambda *a: expected.append(" ".join(map(str, a)))})  # noqa: S102
    assert output(source) == "\n".join(expected) + "\n"
