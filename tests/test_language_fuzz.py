"""Fuzzing the language: generated and mutated programs never crash agraph.

Whatever a program is, `run_program` returns (it never raises), within the limits it was given,
with either no error or a located one, and prints no host object. `AGRAPH_FUZZ_EXAMPLES` sets
how many programs each test tries (1,000 by default: 3,000 programs through the library, a few
hundred more through the CLI; more in a long run).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autograd_cli.language.checker import check_program
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.interpreter import RunResult, run_program
from autograd_cli.language.limits import Limits

EXAMPLES = int(os.environ.get("AGRAPH_FUZZ_EXAMPLES", "1000"))
LIMITS = Limits(max_seconds=2.0, max_steps=200_000, max_loop_iterations=10_000,
                max_call_depth=100, max_str_len=100_000, max_list_len=100_000,
                max_output_bytes=100_000, max_tensor_elements=100_000)
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SHARED = Path(__file__).resolve().parents[2] / "shared"
HOST_OBJECTS = ("<function ", "<module '", "<code object", "__globals__", "<class 'engine",
                "<frame", "<generator object Interp")


# The generated programs' own functions, which print as CPython prints them
PROGRAM_FUNCTIONS = re.compile(r"<function (?:f|<lambda>) at 0x[0-9a-f]+>")


def assert_clean(text: str, result: RunResult) -> None:
    stdout = PROGRAM_FUNCTIONS.sub("", result.stdout)
    for marker in HOST_OBJECTS:
        assert marker not in stdout
    if result.error is not None:
        assert isinstance(result.error, ScriptError)
        assert result.error.line is None or result.error.line >= 1
        report = result.error.format("f.expr", text)
        assert not report.startswith("f.expr:None")
        assert len(report.splitlines()) <= 20 and "Traceback" not in report


def run_and_check(text: str) -> None:
    result = run_program(text, LIMITS)
    assert_clean(text, result)


# --- programs from a grammar of the language -----------------------------------------------------

NAMES = st.sampled_from(["x", "y", "n", "s", "items", "t", "f", "_", "torch", "print", "len"])
ATTRIBUTES = st.sampled_from(["upper", "append", "join", "grad", "shape", "sum", "backward",
                              "__class__", "_private", "gi_frame", "format", "items", "real"])
ATOMS = st.one_of(
    st.integers(-1000, 10**6).map(str), st.floats(allow_nan=False, width=32).map(repr),
    st.text(alphabet="ab{}%_.!:0123456789 ", max_size=8).map(repr), NAMES,
    st.sampled_from(["None", "True", "[]", "{}", "()", "range(5)", "torch.tensor(2.0)",
                     "torch.ones(2, 3)", "torch.tensor([1.0, 2.0], requires_grad=True)"]),
)


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binary = st.tuples(children, st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "@",
                                                  "<<", "<", "==", "in", "and", "or"]), children)
    return st.one_of(
        binary.map(lambda parts: f"({parts[0]} {parts[1]} {parts[2]})"),
        st.tuples(children, ATTRIBUTES).map(lambda parts: f"{parts[0]}.{parts[1]}"),
        st.tuples(children, children).map(lambda parts: f"{parts[0]}[{parts[1]}]"),
        st.tuples(NAMES, st.lists(children, max_size=3)).map(
            lambda parts: f"{parts[0]}({', '.join(parts[1])})"),
        st.lists(children, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
        children.map(lambda item: f"[v * 2 for v in {item}]"),
        children.map(lambda item: f"f'{{{item}:>5}}'"),
        children.map(lambda item: f"(lambda q: q)({item})"),
        children.map(lambda item: f"-{item}"),
    )


EXPRESSIONS = st.recursive(ATOMS, _combine, max_leaves=8)
STATEMENTS = st.one_of(
    st.tuples(NAMES, EXPRESSIONS).map(lambda parts: f"{parts[0]} = {parts[1]}"),
    st.tuples(NAMES, EXPRESSIONS).map(lambda parts: f"{parts[0]} += {parts[1]}"),
    EXPRESSIONS.map(lambda item: f"print({item})"),
    EXPRESSIONS.map(lambda item: f"for v in {item}:\n    print(v)"),
    EXPRESSIONS.map(lambda item: f"if {item}:\n    x = 1\nelse:\n    x = 2"),
    EXPRESSIONS.map(lambda item: f"def f(a, b=1):\n    return {item}"),
    EXPRESSIONS.map(lambda item: f"while n < 3:\n    n += 1\n    y = {item}"),
    EXPRESSIONS.map(lambda item: f"with torch.no_grad():\n    y = {item}"),
)
PROGRAMS = st.lists(STATEMENTS, min_size=1, max_size=6).map(
    lambda lines: "import torch\nx = 1\nn = 0\ns = 'ab'\nitems = [1, 2]\n"
                  "t = torch.tensor([1.0, 2.0], requires_grad=True)\n" + "\n".join(lines) + "\n")


@FUZZ
@given(PROGRAMS)
def test_generated_programs_never_crash(text: str) -> None:
    run_and_check(text)


# --- mutated real programs -----------------------------------------------------------------------

def _samples() -> list[str]:
    paths = sorted((Path(__file__).resolve().parents[1] / "samples").glob("*.expr"))
    paths += sorted((SHARED / "oracle" / "visible").glob("*.expr"))
    paths += sorted((SHARED / "attacks" / "cases").glob("esc_*.expr"))
    texts = []
    for path in paths:
        try:
            texts.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    return texts or ["import torch\nx = torch.tensor(1.0, requires_grad=True)\nprint(x * 2)\n"]


SAMPLES = _samples()
SNIPPETS = ["__class__", "(", ")", "[", "]", ":", "*", "**", "lambda: 0", "\n    ", "\n",
            "10**10**10", "'a' * 10**9", "for i in range(10**12):\n    pass\n", ".grad",
            "print(print)", "f'{x!r:>{10}}'", "while True:\n    pass\n", "def g():\n",
            "yield 1", "import os\n", "getattr(x, 'y')", "globals()", "\x00", "\ufeff", "\\"]


@st.composite
def mutated_programs(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SAMPLES))
    for _ in range(draw(st.integers(1, 3))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "duplicate"]))
        if action == "insert":
            text = text[:position] + draw(st.sampled_from(SNIPPETS)) + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + draw(st.integers(1, 20)):]
        else:
            start = text.rfind("\n", 0, position) + 1
            end = text.find("\n", position)
            line = text[start:end if end != -1 else len(text)]
            text = text[:start] + line + "\n" + text[start:]
    return text


@FUZZ
@given(mutated_programs())
def test_mutated_programs_never_crash(text: str) -> None:
    run_and_check(text)


@FUZZ
@given(mutated_programs())
def test_checker_never_crashes(text: str) -> None:
    try:
        check_program(text, LIMITS)
    except ScriptError as error:
        assert error.line is not None and error.line >= 1


# --- the same through the command line: exit codes 0 or 1, never a traceback --------------------

CLI_FUZZ = settings(max_examples=max(EXAMPLES // 5, 20), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])
CLI_LIMITS = ["--max-seconds", "2", "--max-steps", "200000", "--max-loop-iterations", "10000",
              "--max-elements", "100000", "--max-output-bytes", "100000"]


@CLI_FUZZ
@given(text=st.one_of(PROGRAMS, mutated_programs()))
def test_cli_exit_codes_are_0_or_1_without_traceback(cli: Any, text: str) -> None:
    result = cli("run", "-", "--json", *CLI_LIMITS, input=text)
    assert result.exit_code in (0, 1)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    document = json.loads(result.stdout)
    assert (document["error"] is None) == (result.exit_code == 0)
