"""The same order of sets on every run: Python's string hashes, and so the order in which a set
of strings prints or iterates, change from one process to the next unless PYTHONHASHSEED is
set before the interpreter starts. `agraph` restarts itself once with PYTHONHASHSEED=0 when a
program it is given could show that order (it builds a set or frozenset or calls `hash`), so
such a program prints the same bytes on every run, as `PYTHONHASHSEED=0 python prog.py` does.
A program read from stdin (`-`) cannot be looked at before it is read, so agraph always
restarts for one. Other programs start as they are: a restart costs a second interpreter
start-up.
"""

from __future__ import annotations

import ast
import os
import sys

from autograd_cli.language.errors import ScriptError
from autograd_cli.language.source import check_fstrings

SEED = "0"
LARGEST_PROGRAM = 1 << 20  # bytes read to decide; a bigger file is refused later anyway
ORDER_NAMES = frozenset({"set", "frozenset", "hash"})


def shows_hash_order(source: str) -> bool:
    """Whether a program builds a set or calls `hash` (a look at its syntax, not a run)."""
    if "{" not in source and "set" not in source and "hash" not in source:
        return False  # no display, no name: most programs need no parse at startup
    try:
        check_fstrings(source)  # a parse that would take minutes is refused later
        tree = ast.parse(source)
    except (ScriptError, SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(node, (ast.Set, ast.SetComp)) or (
        isinstance(node, ast.Name) and node.id in ORDER_NAMES) for node in ast.walk(tree))


def _program_sources(arguments: list[str]) -> list[str]:
    sources = []
    for argument in arguments:
        if argument.startswith("-") or not os.path.isfile(argument):
            continue
        try:
            if os.path.getsize(argument) > LARGEST_PROGRAM:
                continue
            with open(argument, encoding="utf-8", errors="replace") as handle:
                sources.append(handle.read())
        except OSError:
            continue
    return sources


def restart_with_fixed_hashes() -> None:
    """Replace this process by `python -m autograd_cli ARGS` with PYTHONHASHSEED=0 if the
    programs named on the command line need it and the seed is not fixed already."""
    if os.environ.get("PYTHONHASHSEED") == SEED or sys.flags.hash_randomization == 0:
        return
    reads_stdin = "-" in sys.argv[1:]  # not read yet: the restarted process reads it whole
    if not reads_stdin and not any(shows_hash_order(source)
                                   for source in _program_sources(sys.argv[1:])):
        return
    os.environ["PYTHONHASHSEED"] = SEED
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", "autograd_cli", *sys.argv[1:]])
