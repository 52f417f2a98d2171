"""Hostile programs against the language's newer constructs: classes, super(), decorators,
exceptions, generators, `with` over program objects.

Each one must end with exit 1 and one located error (`t.expr:LINE:COL: Type: message`), never
a Python traceback, never a host object in what it printed; a limit hit is never caught by the
program (no `except`, `finally` or `__exit__` of the program runs for it).
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import pytest

from autograd_cli.language.interpreter import run_program
from autograd_cli.language.limits import Limits

# (name, program, line of the error, its type, limits)
HOSTILE: list[tuple[str, str, int, str, dict[str, Any]]] = [
    # special methods a class may not define (refused at the class, before anything runs)
    ("__del__ runs at teardown", """
        print("ran")
        class Evil:
            def __del__(self):
                print("deleted")
        e = Evil()
    """, 2, "TypeError", {}),
    ("__getattribute__", """
        class Evil:
            def __getattribute__(self, name):
                return 1
    """, 1, "TypeError", {}),
    ("__getattr__", "class Evil:\n    def __getattr__(self, name):\n        return 1",
     1, "TypeError", {}),
    ("__init_subclass__", "class Evil:\n    def __init_subclass__(cls):\n        pass",
     1, "TypeError", {}),
    ("__set_name__", "class Evil:\n    def __set_name__(self, owner, name):\n        pass",
     1, "TypeError", {}),
    ("__reduce__", "class Evil:\n    def __reduce__(self):\n        return 1", 1, "TypeError", {}),
    ("__class_getitem__", "class Evil:\n    def __class_getitem__(cls, item):\n        pass",
     1, "TypeError", {}),
    ("__setattr__", "class Evil:\n    def __setattr__(self, name, value):\n        pass",
     1, "TypeError", {}),
    ("metaclass", "x = 1\nclass Evil(metaclass=print):\n    pass", 2, "SyntaxError", {}),
    ("__slots__ in a class body", "class Evil:\n    __slots__ = ()", 2, "NameError", {}),
    ("dunder assigned to a class", "class A:\n    pass\nA.__del__ = print", 3,
     "AttributeError", {}),
    # agraph's own keys on a class, and the engine's private names, are not a program's
    ("_agraph_members in a class body", "class A:\n    _agraph_members = {}", 2, "NameError",
     {}),
    ("engine private name in a class body", "import torch.nn as nn\nclass M(nn.Module):\n"
     "    _parameters = None\n    def f(self):\n        return self._parameters", 2,
     "TypeError", {}),
    ("engine private method in a class body", "import torch.nn as nn\nclass A:\n    pass\n"
     "class M(A, nn.Linear):\n    def _named_members(self):\n        pass", 4, "TypeError", {}),
    # reading what leads to the host
    ("__class__ alone", "class A:\n    pass\nc = A().__class__", 3, "AttributeError", {}),
    ("__class__.__bases__", "class A:\n    pass\nb = A().__class__.__bases__", 3,
     "AttributeError", {}),
    ("__dict__ of an object", "class A:\n    pass\nd = A().__dict__", 3, "AttributeError", {}),
    ("vars() shows no scope", "x = 1\nd = vars()", 2, "TypeError", {}),
    ("vars() of an engine object", "import torch\nd = vars(torch.nn.Linear(1, 1))", 2,
     "TypeError", {}),
    ("vars() of a class", "class A:\n    pass\nd = vars(A)", 3, "TypeError", {}),
    ("vars() of a function", "def f():\n    pass\nd = vars(f)", 3, "TypeError", {}),
    ("__subclasses__ through object", "s = object.__subclasses__()", 1, "AttributeError", {}),
    ("mro of a class", "class A:\n    pass\nm = A.mro()", 3, "AttributeError", {}),
    ("a bound method's function", """
        class A:
            def f(self):
                return 1
        m = A().f
        g = m.function
    """, 5, "AttributeError", {}),
    ("a bound method's __func__", "class A:\n    def f(self):\n        return 1\n"
     "g = A().f.__func__", 4, "AttributeError", {}),
    ("a method's __globals__", "class A:\n    def f(self):\n        return 1\n"
     "g = A.f.__globals__", 4, "AttributeError", {}),
    ("a function's __closure__", "def f():\n    x = 1\n    def g():\n        return x\n"
     "    return g\nc = f().__closure__", 6, "AttributeError", {}),
    ("a generator's gi_frame", "def g():\n    yield 1\nf = g().gi_frame", 3,
     "AttributeError", {}),
    ("a generator's interpreter", "def g():\n    yield 1\nf = g().interpreter", 3,
     "AttributeError", {}),
    ("a generator expression's gi_code", "g = (i for i in [1])\nc = g.gi_code", 2,
     "AttributeError", {}),
    ("a frame's globals, refused at the frame before the dunder after it",
     "g = (i for i in [1])\nfg = g.gi_frame.f_globals\nb = fg['b']\nimp = b.__import__", 2,
     "AttributeError", {}),
    ("an exception's __traceback__", """
        try:
            1 / 0
        except ZeroDivisionError as e:
            t = e.__traceback__
    """, 4, "AttributeError", {}),
    ("an exception's __context__", """
        try:
            1 / 0
        except ZeroDivisionError as e:
            t = e.__context__
    """, 4, "AttributeError", {}),
    ("an exception's with_traceback", """
        try:
            1 / 0
        except ZeroDivisionError as e:
            t = e.with_traceback
    """, 4, "AttributeError", {}),
    ("super()'s object", """
        class A:
            def f(self):
                return super().instance
        A().f()
    """, 3, "AttributeError", {}),
    ("super() of a host type", "s = super(int, 5).__class__", 1, "AttributeError", {}),
    ("a staticmethod's function", "def f():\n    return 1\ns = staticmethod(f).function", 3,
     "AttributeError", {}),
    ("a property's getter function", "def f(self):\n    return 1\n"
     "p = property(f).getter_function", 3, "AttributeError", {}),
    ("a no_grad decorator's manager", """
        import torch
        @torch.no_grad()
        def f(x):
            return x
        m = f.manager
    """, 5, "AttributeError", {}),
    ("a module's private method", """
        import torch
        class M(torch.nn.Module):
            def f(self):
                return self._named_members
        M().f()
    """, 4, "AttributeError", {}),
    ("a module's private table set before its __init__", """
        import torch
        class M(torch.nn.Module):
            def __init__(self):
                self._parameters = {}
                super().__init__()
        M()
    """, 4, "AttributeError", {}),
    ("a module's hook list set on a program module", """
        import torch
        class M(torch.nn.Module):
            pass
        setattr(M(), "_forward_hooks", [print])
    """, 4, "AttributeError", {}),
    ("a module's private table deleted", """
        import torch
        class M(torch.nn.Module):
            pass
        m = M()
        del m._modules
    """, 5, "AttributeError", {}),
    ("the table of a program module's own private names", """
        import torch
        class M(torch.nn.Module):
            pass
        m = M()
        m._x = 1
        t = m._agraph_private
    """, 6, "AttributeError", {}),
    ("a custom Function's ctx internals", """
        import torch
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return ctx.function_class
            @staticmethod
            def backward(ctx, g):
                return g
        F.apply(torch.ones(1, requires_grad=True))
    """, 5, "AttributeError", {}),
    # getattr / setattr / hasattr: a computed name gets the same checks as a written one
    ("getattr of a dunder built at run time", """
        import torch
        x = torch.tensor(1.0)
        u = "_" * 2
        cls = getattr(x, u + "class" + u)
    """, 4, "AttributeError", {}),
    ("getattr of a generator's frame", "def g():\n    yield 1\nf = getattr(g(), 'gi_frame')",
     3, "AttributeError", {}),
    ("getattr of a module's private method", """
        import torch
        m = torch.nn.Linear(1, 1)
        p = getattr(m, "_named_modules")
    """, 3, "AttributeError", {}),
    ("setattr on the torch namespace", "import torch\nsetattr(torch, 'tensor', print)", 2,
     "AttributeError", {}),
    ("setattr of a dunder on a tensor", "import torch\nx = torch.ones(1)\n"
     "setattr(x, '__class__', int)", 3, "AttributeError", {}),
    ("setattr of a module's private table", """
        import torch
        m = torch.nn.Linear(1, 1)
        setattr(m, "_parameters", {})
    """, 3, "AttributeError", {}),
    ("getattr with a name that is not a string", "x = getattr(1, 5)", 1, "TypeError", {}),
    # bases a class may not have
    ("a subclass of Tensor", "import torch\nclass T(torch.Tensor):\n    pass", 2, "TypeError", {}),
    ("a subclass of dict", "class D(dict):\n    pass", 1, "TypeError", {}),
    ("a subclass of a builtin function", "class P(print):\n    pass", 1, "TypeError", {}),
    ("a KeyboardInterrupt subclass", "class K(KeyboardInterrupt):\n    pass", 1, "NameError",
     {}),
    # raising what is not an exception, catching what is not a class
    ("raise a number", "raise 5", 1, "TypeError", {}),
    ("except a number", "try:\n    1 / 0\nexcept 5:\n    pass", 3, "TypeError", {}),
    ("nonlocal without a binding", "def f():\n    def g():\n        nonlocal q\n    g()\nf()",
     3, "SyntaxError", {}),
    # limits through program code that host code calls
    ("__repr__ that recurses", """
        class A:
            def __repr__(self):
                return repr(self)
        print(A())
    """, 3, "LimitError", {"max_call_depth": 50}),
    ("__str__ of an exception that recurses", """
        class E(Exception):
            def __str__(self):
                return str(self)
        raise E()
    """, 3, "LimitError", {"max_call_depth": 50}),
    ("__eq__ that runs forever in a dict lookup", """
        class K:
            def __hash__(self):
                return 1
            def __eq__(self, other):
                while True:
                    pass
        d = {K(): 1}
        d[K()]
    """, 5, "LimitError", {"max_loop_iterations": 1000}),
    ("__len__ that is negative", """
        class A:
            def __len__(self):
                return -1
        n = len(A())
    """, 4, "ValueError", {}),
    ("an iterator without end in list()", """
        class Forever:
            def __iter__(self):
                return self
            def __next__(self):
                return 1
        items = list(Forever())
    """, 6, "LimitError", {"max_loop_iterations": 1000}),
    ("an infinite generator in list()", """
        def forever():
            while True:
                yield 1
        items = list(forever())
    """, 2, "LimitError", {"max_loop_iterations": 1000}),
    ("an infinite generator in sorted()", """
        def forever():
            n = 0
            while True:
                n += 1
                yield n
        items = sorted(forever())
    """, 3, "LimitError", {"max_loop_iterations": 1000}),
    ("a generator that recurses", """
        def deeper(n):
            yield from deeper(n + 1)
        next(deeper(0))
    """, 2, "LimitError", {"max_call_depth": 60}),
    ("a generator resumed from inside itself", """
        def g():
            yield next(it)
        it = g()
        next(it)
    """, 2, "ValueError", {}),
    ("an exception in __exit__", """
        class M:
            def __enter__(self):
                return self
            def __exit__(self, kind, value, traceback):
                raise RuntimeError("exit failed")
        with M():
            pass
    """, 5, "RuntimeError", {}),
    ("a decorator that recurses", """
        def deco(f):
            def wrapper(*args):
                return wrapper(*args)
            return wrapper
        @deco
        def f():
            return 1
        f()
    """, 3, "LimitError", {"max_call_depth": 50}),
    ("a forward that recurses through __call__", """
        import torch
        class M(torch.nn.Module):
            def forward(self, x):
                return self(x)
        M()(torch.ones(1))
    """, 4, "LimitError", {"max_call_depth": 50}),
    # dataclasses and the newer builtins
    ("a dataclass field's class", """
        from dataclasses import dataclass, fields
        @dataclass
        class C:
            x: int = 1
        print(fields(C)[0].__class__)
    """, 5, "AttributeError", {}),
    ("what a generated __init__ holds", """
        from dataclasses import dataclass
        @dataclass
        class C:
            x: int = 1
        f = C.__init__.body
    """, 5, "AttributeError", {}),
    ("a default_factory that reaches the host", """
        from dataclasses import dataclass, field
        @dataclass
        class C:
            x: list = field(default_factory=open)
    """, 4, "NameError", {}),
    ("a dataclass default_factory that never ends", """
        from dataclasses import dataclass, field
        def spin():
            while True:
                pass
        @dataclass
        class C:
            x: int = field(default_factory=spin)
        C()
    """, 3, "LimitError", {"max_loop_iterations": 100}),
    ("map over an endless iterator", """
        import itertools
        xs = list(map(abs, itertools.count()))
    """, 2, "LimitError", {"max_loop_iterations": 1000}),
    ("filter that never finds", """
        import itertools
        x = next(filter(lambda v: v < 0, itertools.count()))
    """, 2, "LimitError", {"max_loop_iterations": 1000}),
    ("hash of a deep tuple (C recursion)", """
        t = ()
        for _ in range(200000):
            t = (t,)
        h = hash(t)
    """, 4, "RecursionError", {}),
    ("pow to a giant integer", "x = pow(7, 10 ** 9)", 1, "LimitError", {}),
    ("frozenset of a huge range", "s = frozenset(range(10 ** 9))", 1, "LimitError", {}),
    ("chr out of range is Python's ValueError", "c = chr(10 ** 9)", 1, "ValueError", {}),
    ("a map object's host iterator", "m = map(abs, [1])\nprint(m.__next__)", 2,
     "AttributeError", {}),
    ("a type's mro through an unbound method", "m = str.mro", 1, "AttributeError", {}),
    ("an unbound list method over an endless iterator", """
        import itertools
        xs = []
        list.extend(xs, itertools.count())
    """, 3, "LimitError", {"max_loop_iterations": 1000}),
    ("the class of a frozen dataclass error", """
        from dataclasses import dataclass, FrozenInstanceError
        print(FrozenInstanceError.__subclasses__())
    """, 2, "AttributeError", {}),
    # the newer library surface (hostile sweep h): argparse, logging, eval, numpy, torch
    ("an argparse usage with a giant width", """
        import argparse
        p = argparse.ArgumentParser(usage="%(prog)999999999s")
        p.print_usage()
    """, 3, "LimitError", {}),
    ("an argparse help with a giant width", """
        import argparse
        p = argparse.ArgumentParser()
        p.add_argument("--x", help="%(default)999999999s")
        p.print_help()
    """, 4, "LimitError", {}),
    ("an argparse metavar shared by a thousand arguments", """
        import argparse
        p = argparse.ArgumentParser()
        m = "M" * 5000000
        for i in range(1000):
            p.add_argument("--a" + str(i), metavar=m)
    """, 5, "LimitError", {}),
    ("argparse errors flooding stderr in a loop", """
        import argparse
        p = argparse.ArgumentParser(prog="x" * 1000)
        while True:
            try:
                p.parse_args(["--nope"])
            except SystemExit:
                pass
    """, 5, "LimitError", {"max_output_bytes": 20000}),
    ("a logging message with a giant width", """
        import logging
        logging.warning("%999999999d", 1)
    """, 2, "LimitError", {}),
    ("a logging format with a giant width", """
        import logging
        logging.basicConfig(format="{message:>999999999}", style="{")
        logging.warning("x")
    """, 3, "LimitError", {}),
    ("a logging format reading a host class", """
        import logging
        logging.basicConfig(format="{msg.__class__.__mro__}", style="{")
        logging.warning("x")
    """, 3, "AttributeError", {}),
    ("a logging datefmt of megabytes", """
        import logging
        logging.basicConfig(format="%(asctime)s", datefmt="%c" * 4000000)
    """, 2, "ValueError", {}),
    ("a logger name of many dots (a placeholder per prefix)", """
        import logging
        l = logging.getLogger("a." * 300000)
    """, 2, "LimitError", {}),
    ("logging flooding stderr", """
        import logging
        while True:
            logging.warning("x" * 1000)
    """, 3, "LimitError", {"max_output_bytes": 20000}),
    ("a new warning each time in an endless loop (shown on stderr after the run)", """
        import warnings
        i = 0
        while True:
            warnings.warn("w" * 100 + str(i))
            i += 1
    """, 4, "LimitError", {"max_output_bytes": 20000}),
    ("eval of a text over the source limit", 's = "1+" * 3000000 + "1"\nx = eval(s)', 2,
     "LimitError", {}),
    ("histc with a billion bins", "import torch\nh = torch.histc(torch.ones(3), bins=10**9)",
     2, "LimitError", {}),
    ("arange with more values than can be counted",
     "import torch\nr = torch.arange(0.0, 1e300, 1e-300)", 2, "RuntimeError", {}),
    ("einsum with two ellipses in one term",
     "import torch\nr = torch.einsum('......->', torch.ones(2))", 2, "RuntimeError", {}),
    ("an unfold view of nine hundred million elements", """
        import torch
        r = torch.ones(10**5).unfold(0, 10**4, 1)
        s = r.clone()
    """, 2, "LimitError", {}),
    ("poly1d integrated a billion times", """
        import numpy as np
        p = np.poly1d([1.0, 2.0])
        q = p.integ(10**9)
    """, 3, "LimitError", {}),
    ("poly1d printed with a giant variable name", """
        import numpy as np
        p = np.poly1d([1.0] * 1000, variable="x" * 1000000)
        s = str(p)
    """, 3, "LimitError", {}),
    ("a numpy array printed whole", """
        import numpy as np
        np.set_printoptions(threshold=float("inf"))
        s = str(np.zeros((3000, 3000)))
    """, 3, "LimitError", {}),
    ("assert_close of a list holding itself", """
        import torch
        a = [1]
        a.append(a)
        torch.testing.assert_close(a, a)
    """, 4, "RecursionError", {}),
    ("a torchviz pipe to a format agraph does not know", """
        import torch
        from torchviz import make_dot
        g = make_dot(torch.ones(1, requires_grad=True) * 2)
        g.pipe(format="json;x")
    """, 4, "ValueError", {}),
    ("pprint with a giant indent", "import pprint\npprint.pprint([[1] * 10] * 10, indent=10**9)",
     2, "ValueError", {}),
    ("pprint laying a short value out over the string limit", """
        import pprint
        x = [[[i] for i in range(10)] for j in range(2000)]
        s = pprint.pformat(x, indent=1000, width=1)
    """, 3, "LimitError", {}),
    ("savefig in an endless loop", """
        import matplotlib.pyplot as plt
        plt.plot([1, 2])
        while True:
            plt.savefig("f.png")
    """, 4, "LimitError", {}),
]

# limits the program must not be able to catch: (name, program, what must not be printed)
UNCATCHABLE: list[tuple[str, str, dict[str, Any]]] = [
    ("except Exception", """
        try:
            while True:
                pass
        except Exception:
            print("caught")
    """, {"max_loop_iterations": 100}),
    ("a bare except", """
        try:
            while True:
                pass
        except:
            print("caught")
    """, {"max_loop_iterations": 100}),
    ("finally", """
        try:
            while True:
                pass
        finally:
            print("caught")
    """, {"max_loop_iterations": 100}),
    ("__exit__ that swallows", """
        class Swallow:
            def __enter__(self):
                return self
            def __exit__(self, kind, value, traceback):
                print("caught")
                return True
        with Swallow():
            while True:
                pass
    """, {"max_loop_iterations": 100}),
    ("eval in an endless loop", """
        try:
            while True:
                eval("1 + 1")
        except BaseException:
            print("caught")
    """, {"max_loop_iterations": 100}),
    ("eval recursing into itself", """
        def f():
            return eval("f()")
        try:
            f()
        except BaseException:
            print("caught")
    """, {"max_call_depth": 50}),
    ("vmap over a huge batch", """
        import torch
        from torch.func import vmap
        try:
            vmap(lambda r: r.sum())(torch.zeros(1000000, 2))
        except BaseException:
            print("caught")
    """, {"max_steps": 2000}),
    ("jacrev of a huge Jacobian", """
        import torch
        from torch.func import jacrev
        try:
            jacrev(lambda t: t * 2)(torch.zeros(20000))
        except BaseException:
            print("caught")
    """, {}),
    ("a steps limit in a method", """
        class A:
            def spin(self):
                while True:
                    pass
        try:
            A().spin()
        except BaseException:
            print("caught")
    """, {"max_steps": 2000}),
]


def cli_output(source: str, **limits: Any) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) as `agraph run t.expr` gives them."""
    text = textwrap.dedent(source).strip("\n")
    result = run_program(text, Limits(**limits))
    stderr = "" if result.error is None else result.error.format("t.expr", text)
    return (0 if result.error is None else 1), result.stdout, stderr


@pytest.mark.parametrize("source, line, type_name, limits", [case[1:] for case in HOSTILE],
                         ids=[case[0] for case in HOSTILE])
def test_hostile_program_is_refused_at_its_line(source: str, line: int, type_name: str,
                                                limits: dict[str, Any]) -> None:
    code, stdout, stderr = cli_output(source, **limits)
    assert code == 1, stdout
    match = re.match(r"t\.expr:(\d+):(\d+): (\w+): ", stderr)
    assert match, stderr
    assert (int(match.group(1)), match.group(3)) == (line, type_name), stderr
    assert "Traceback" not in stderr and len(stderr.splitlines()) <= 20
    for marker in ("<function ", "<module ", " at 0x7f", "<code object", "<frame"):
        assert marker not in stdout


def test_there_are_enough_hostile_programs() -> None:
    assert len(HOSTILE) + len(UNCATCHABLE) >= 30


@pytest.mark.parametrize("source, limits", [case[1:] for case in UNCATCHABLE],
                         ids=[case[0] for case in UNCATCHABLE])
def test_a_limit_is_never_caught_by_the_program(source: str, limits: dict[str, Any]) -> None:
    code, stdout, stderr = cli_output(source, **limits)
    assert code == 1
    assert "LimitError" in stderr and re.match(r"t\.expr:\d+:\d+: LimitError", stderr), stderr
    assert "caught" not in stdout


def test_logging_records_and_level_names_show_nothing_of_the_host() -> None:
    code, stdout, stderr = cli_output("""
        import logging
        import sys
        logging.basicConfig(format="%(process)s %(thread)s %(threadName)s %(message)s",
                            stream=sys.stdout)
        logging.warning("x")
        print(logging.getLevelName(print))
    """)
    assert (code, stderr) == (0, "")
    assert stdout == "None None MainThread x\nLevel <built-in function print>\n"


def test_a_program_exception_shows_its_arguments_with_agraph_s_reprs() -> None:
    code, stdout, stderr = cli_output("""
        class E(Exception):
            pass
        e = E(print, len)
        print(e, repr(e), [e])
        raise E(print)
    """)
    assert code == 1
    assert stdout == ("(<built-in function print>, <built-in function len>) E(<built-in "
                      "function print>, <built-in function len>) [E(<built-in function print>, "
                      "<built-in function len>)]\n")
    assert stderr.startswith("t.expr:5:1: E: <built-in function print>\n"), stderr


def test_argparse_help_is_filled_in_as_python_fills_it() -> None:
    code, stdout, stderr = cli_output("""
        import argparse
        p = argparse.ArgumentParser(prog="demo", description="Demo of %(prog)s",
                                    formatter_class=argparse.ArgumentDefaultsHelpFormatter)
        p.add_argument("--lr", type=float, default=0.1, help="rate %(type)s")
        p.print_help()
        print(p.description)
    """)
    assert (code, stderr) == (0, "")
    assert stdout == ("usage: demo [-h] [--lr LR]\n\nDemo of demo\n\noptions:\n"
                      "  -h, --help  show this help message and exit\n"
                      "  --lr LR     rate float (default: 0.1)\nDemo of %(prog)s\n")


def test_hasattr_sees_only_what_a_program_may_read() -> None:
    code, stdout, stderr = cli_output("""
        import torch
        class A:
            def __init__(self):
                self._n = 1
        a = A()
        x = torch.ones(1)
        print(hasattr(x, "__class__"), hasattr(x, "grad"), hasattr(a, "_n"), hasattr(a, "m"))
        print(getattr(a, "m", "default"), getattr(x, "shape"))
        setattr(a, "m", 2)
        print(a.m)
    """)
    assert (code, stderr) == (0, "")
    assert stdout == "False True True False\ndefault torch.Size([1])\n2\n"


def test_the_program_catches_its_own_errors_and_the_engine_s() -> None:
    code, stdout, stderr = cli_output("""
        import torch
        x = torch.ones(2, requires_grad=True)
        y = (x * x).sum()
        y.backward()
        try:
            y.backward()
        except RuntimeError as e:
            print(str(e).startswith("Trying to backward through the graph a second time"))
        class Mine(ValueError):
            pass
        try:
            raise Mine("no")
        except ValueError as e:
            print(repr(e), e.args)
    """)
    assert (code, stderr) == (0, "")
    assert stdout == "True\nMine('no') ('no',)\n"


def test_objects_without_a_repr_of_their_own_show_the_run_s_address() -> None:
    """A hook handle, a scheduler, a dataset, `no_grad()` and a program class deriving from an
    engine class have no repr of their own: Python's default would show the real address and
    agraph's module path."""
    code, stdout, stderr = cli_output("""
        import torch
        x = torch.ones(1, requires_grad=True)
        h = x.register_hook(print)
        class D(torch.utils.data.Dataset):
            pass
        opt = torch.optim.SGD([x], lr=0.1)
        s = torch.optim.lr_scheduler.StepLR(opt, 1)
        print(h, f"{h}", [h], "%s" % s, str(D()), repr(torch.no_grad()), "{}".format(h))
    """)
    assert (code, stderr) == (0, "")
    addresses = re.findall(r" at (0x[0-9a-f]+)>", stdout)
    assert all(int(address, 16) - 0x7F0000001000 < 1 << 24 for address in addresses), stdout
    handle = f"<torch.RemovableHandle object at {addresses[0]}>"  # the run's own numbering
    text = re.sub(r" at 0x[0-9a-f]+>", " at ...>", stdout)
    assert text == ("<torch.RemovableHandle object at ...> " * 2 + "[<torch.RemovableHandle "
                    "object at ...>] <torch.StepLR object at ...> <__main__.D object at ...> "
                    "<torch.no_grad object at ...> <torch.RemovableHandle object at ...>\n")
    assert stdout.count(handle) == 4, stdout


def test_a_dropped_generator_is_closed_in_its_own_scope_and_shows_no_host_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Python closes a generator dropped before its end: its `finally` runs in the generator's
    scope (not the caller's); an error there is shown as Python's "Exception ignored", never
    as a traceback of agraph's own frames, and the program goes on."""
    code, stdout, stderr = cli_output("""
        def g():
            v = "inner"
            try:
                yield 1
            finally:
                print("finally", v)
        def h():
            try:
                yield 1
            finally:
                raise ValueError("boom")
        v = "outer"
        it = g()
        next(it)
        it.close()
        for x in g():
            break
        it = h()
        next(it)
        it = None
        print("end")
    """)
    assert (code, stderr) == (0, "")
    assert stdout == "finally inner\nfinally inner\nend\n"
    shown = re.sub(r"0x7f[0-9a-f]+", "0x...", capsys.readouterr().err)
    assert shown == ("Exception ignored in: <generator object h at 0x...>\n"
                     "ValueError: boom (line 11)\n")


@pytest.mark.parametrize("after", ["print('end')", ""], ids=["statement after", "last"])
def test_a_limit_in_a_dropped_generator_s_finally_ends_the_run(after: str) -> None:
    """A limit hit while a finalizer closes a generator cannot be raised where it happens; the
    run still ends with it (at the next statement, or when the program ends)."""
    code, stdout, stderr = cli_output(f"""
        def h():
            try:
                yield 1
            finally:
                while True:
                    pass
        it = h()
        next(it)
        it = None
        {after}
    """, max_loop_iterations=1000)
    assert (code, stdout) == (1, "")
    assert stderr.startswith("t.expr:5:9: LimitError: the loop ran more than 1000 iterations")


def test_a_library_s_exception_hands_out_its_message_not_its_objects() -> None:
    """numpy's UFuncTypeError carries the real `np.add` and its dtypes in `args`: calling that
    ufunc would make raw numpy arrays outside every size check."""
    code, stdout, stderr = cli_output("""
        import numpy as np
        try:
            np.add(np.array(["a"]), np.array([1.5]))
        except TypeError as e:
            print(len(e.args), type(e.args[0]).__name__, str(e) == e.args[0])
            e.args[0](np.ones(2), np.ones(2))
    """)
    assert code == 1 and stdout == "1 str True\n"
    assert stderr.startswith("t.expr:6:5: TypeError: 'str' object is not callable"), stderr

