"""Shared helpers: run the CLI in-process (typer's runner) or as a real subprocess."""

from __future__ import annotations

import os

# numpy's OpenBLAS on one thread in the test process: on a 2-core machine its threads fought
# MKL's (engine/ops/mkl.py) after other in-process runs, and a 1.3 s tutorial of np.dot
# products took over 20 s. Set before numpy is imported; `agraph` itself runs one program a
# process and is not affected.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
# Tests that need Graphviz's `dot` (svg, png, pdf): skipped with this reason where it is missing.
needs_dot = pytest.mark.graphviz
NO_DOT_REASON = ("Graphviz's `dot` is not installed: only rendering svg/png/pdf needs it "
                 "(CI installs it, so these run there)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "graphviz: needs Graphviz's dot program (skipped, with "
                            "the reason, where it is missing)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if shutil.which("dot") is not None:
        return
    skip = pytest.mark.skip(reason=NO_DOT_REASON)
    for item in items:
        if "graphviz" in item.keywords:
            item.add_marker(skip)
SAMPLES = ROOT / "samples"
ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@pytest.fixture
def cli() -> Any:
    """`cli(*args, input=None)` -> typer's Result (exit_code, stdout, stderr)."""
    from autograd_cli.cli.app import app

    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Any:
        return runner.invoke(app, list(args), input=input, catch_exceptions=False)

    return invoke


def run_agraph(*args: str, input: bytes | None = None, cwd: Path | None = None,
               timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """agraph as a real process (the installed console script's module). Its environment is
    os.environ as Python sees it: a library that loads GNU readline exports COLUMNS behind
    os.environ's back, and the table follows COLUMNS."""
    return subprocess.run([sys.executable, "-m", "autograd_cli", *args], input=input,
                          capture_output=True, cwd=cwd or ROOT, timeout=timeout,
                          env=dict(os.environ))


def close(actual: Any, expected: Any) -> bool:
    """Nested values equal within PyTorch-vs-agraph float tolerance; "nan" equals "nan"."""
    if isinstance(expected, list) or isinstance(actual, list):
        return (isinstance(expected, list) and isinstance(actual, list)
                and len(actual) == len(expected)
                and all(close(a, e) for a, e in zip(actual, expected, strict=True)))
    if isinstance(expected, str) or isinstance(actual, str):
        return actual == expected
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual == expected
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        if math.isinf(expected) or math.isinf(actual):
            return actual == expected
        return abs(actual - expected) <= 1e-6 + 1e-5 * abs(expected)
    return bool(actual == expected)


def differences(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """How agraph's `run --json` differs from what PyTorch gave (the oracle's rules)."""
    found = []
    if ADDRESS.sub(" at 0x?", expected["stdout"]) != ADDRESS.sub(" at 0x?", actual["stdout"]):
        found.append(f"stdout:\n{actual['stdout']}\n!= expected\n{expected['stdout']}")
    exp_err, act_err = expected["error"], actual["error"]
    if (exp_err is None) != (act_err is None) or (exp_err and (
            exp_err["type"], exp_err["line"]) != (act_err["type"], act_err["line"])):
        found.append(f"error {act_err} != {exp_err}")
    exp_t = {t["name"]: t for t in expected["tensors"]}
    act_t = {t["name"]: t for t in actual["tensors"]}
    if set(exp_t) != set(act_t):
        found.append(f"tensor names {sorted(act_t)} != {sorted(exp_t)}")
    for name in set(exp_t) & set(act_t):
        e, a = exp_t[name], act_t[name]
        for field in ("shape", "dtype", "requires_grad", "is_leaf", "grad_fn", "retains_grad"):
            if e[field] != a[field]:
                found.append(f"{name}.{field}: {a[field]!r} != {e[field]!r}")
        if not close(a["data"], e["data"]):
            found.append(f"{name}.data: {a['data']} != {e['data']}")
        if (e["grad"] is None) != (a["grad"] is None) or (
                e["grad"] is not None and not close(a["grad"], e["grad"])):
            found.append(f"{name}.grad: {a['grad']} != {e['grad']}")
    return found


def program_error(source: str) -> tuple[str, int] | None:
    """The type and line of the error that SOURCE, run in this process, stops with."""
    from autograd_cli.language.interpreter import run_program
    from autograd_cli.language.limits import Limits

    error = run_program(source, Limits()).error
    return None if error is None else (error.type_name, error.line)


def load_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def assert_matches_pytorch(cli: Any, program: Path, expected_json: Path, *options: str) -> None:
    """`agraph run PROGRAM --json` gives what real PyTorch gave (EXPECTED_JSON), exit code too."""
    result = cli("run", str(program), "--json", *options)
    expected = load_json(expected_json)
    assert differences(expected, json.loads(result.stdout)) == []
    assert result.exit_code == (0 if expected["error"] is None else 1)


class OracleCorpus:
    """A folder of tests/ holding programs (NAME.expr) and, beside each, what real PyTorch 2.13
    gave when ../shared/oracle/torch_oracle.py ran it (NAME.json)."""

    def __init__(self, folder: str) -> None:
        self.folder = ROOT / "tests" / folder
        self.names = sorted(path.stem for path in self.folder.glob("*.expr"))

    def program(self, name: str) -> Path:
        return self.folder / f"{name}.expr"

    def recorded(self, name: str) -> Path:
        return self.folder / f"{name}.json"

    def assert_complete(self, at_least: int, first_line: str = "") -> None:
        """At least AT_LEAST programs, each starting with FIRST_LINE and with its result."""
        assert len(self.names) >= at_least, f"the {self.folder.name} corpus went missing"
        for name in self.names:
            assert self.recorded(name).exists(), f"{name}: no PyTorch result"
            text = self.program(name).read_text(encoding="utf-8")
            assert text.startswith(first_line), f"{name}: line 1 does not start {first_line!r}"

    def assert_matches(self, cli: Any, name: str, *options: str) -> None:
        assert_matches_pytorch(cli, self.program(name), self.recorded(name), *options)


def assert_refused_when_used(tmp_path: Path, imports: str, statement: str, name: str,
                             victim_text: str) -> Path:
    """Run `imports`, a print and `statement` (line 4) beside a file `victim`: the statement is
    refused there with PermissionError naming `name`, after the print, and nothing is written.
    Returns the victim's path."""
    victim = tmp_path / "victim"
    victim.write_text(victim_text)
    program = tmp_path / "p.expr"
    program.write_text(f"{imports}print('before')\n{statement}\n")
    result = run_agraph("run", str(program), cwd=tmp_path)
    stderr = result.stderr.decode()
    assert result.returncode == 1, stderr
    assert result.stdout.decode() == "before\n"
    assert stderr.startswith(f"{program}:4:1: PermissionError: {name} is not available in "
                             "agraph"), stderr
    assert "Traceback" not in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.expr", "victim"]
    return victim
