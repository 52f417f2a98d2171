"""The real `agraph` console script, as a user runs it: for tests of what a terminal, a pipe or
a docs build sees (exit codes, stdout and stderr bytes)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def agraph_executable() -> str:
    """The `agraph` installed beside this Python (the venv's), else the one on PATH."""
    beside = Path(sys.executable).parent / "agraph"
    if beside.exists():
        return str(beside)
    found = shutil.which("agraph")
    if found is None:
        raise RuntimeError("the agraph console script is not installed (pip install -e .)")
    return found


def agraph(*args: str, input: bytes | None = None, cwd: Path | None = None,
           env: dict[str, str] | None = None, timeout: float = 120
           ) -> subprocess.CompletedProcess[bytes]:
    """Run `agraph ARGS...`; `env` is added to a copy of os.environ without colour settings."""
    return subprocess.run([agraph_executable(), *args], input=input, capture_output=True,
                          cwd=cwd or ROOT, env=environment(env), timeout=timeout)


def environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    base: dict[str, Any] = {k: v for k, v in os.environ.items()
                            if k not in ("NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES")}
    return {**base, **(extra or {})}


def has_dot() -> bool:
    return shutil.which("dot") is not None
