"""Programs in plain Python (classes, special methods, exceptions, generators, closures,
decorators, `with`), compared with what CPython printed for them.

tests/golden/language_python.json holds each program and CPython 3.11's stdout for it (made by
running the program with `exec` under `__name__ == "__main__"`); agraph must print the same,
but for the addresses in default reprs, which it numbers per run (engine/addresses.py).
"""

from __future__ import annotations

import json

import pytest

from autograd_cli.language.interpreter import run_program
from tests.conftest import ADDRESS, ROOT

GOLDEN = json.loads((ROOT / "tests" / "golden" / "language_python.json").read_text("utf-8"))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_program_prints_what_cpython_printed(name: str) -> None:
    case = GOLDEN[name]
    result = run_program(case["program"])
    assert result.error is None, result.error.format("t.expr", case["program"])
    assert ADDRESS.sub(" at 0x?", result.stdout) == ADDRESS.sub(" at 0x?", case["stdout"])
