"""Real tutorial programs, pasted as published, against what PyTorch 2.13 gave for them.

tests/tutorials/NAME.expr is a program as its tutorial publishes it (URL on line 1);
NAME.json is what ../shared/oracle/torch_oracle.py recorded when real PyTorch ran it, with
PyTorch's default generator seeded as a fresh `torch.Generator()` is (67280421310721), which is
where agraph's generator starts: a program that draws without seeding gets the numbers agraph
promises for it. Each one runs through the CLI in-process and must give PyTorch's stdout, error
(type and line) and tensors (the oracle's `check` rules).

Two tables beside the programs say what cannot be compared the plain way:
  RANDOM.tsv      programs whose PyTorch output changes from run to run even so (unseeded
                  numpy or `random`, printed id() values, set order, torch.empty, profiler
                  times): only the structure is compared (stdout with every number masked,
                  the error, each tensor's name/shape/dtype/flags/grad_fn).
  KNOWN_GAPS.tsv  programs agraph does not run like PyTorch yet, each with the issue that
                  covers it. They are strict xfails: one that starts passing fails the suite
                  until its line is removed.
Programs whose PyTorch run alone takes seconds are listed in SLOW.tsv and run only with
AGRAPH_SLOW_TESTS=1 (README.md in tests/tutorials gives the command for the full pass rate);
a third column there raises the wall-clock limit for one whose PyTorch run itself takes about
as long as agraph's default 10 s, a fourth the memory limit (bytes) for one whose PyTorch run
itself holds more than agraph's default 1 GiB. The others run with a 30 s limit: what is
compared is what a program prints, not how fast (a program that takes 1.5 s alone must not
fail on a machine busy with other work); a known gap keeps the default 10 s, by which it is
measured.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest

from tests.conftest import ADDRESS, ROOT, differences, load_json

TUTORIALS = ROOT / "tests" / "tutorials"
PROGRAMS = sorted(p.stem for p in TUTORIALS.glob("*.expr"))
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
SPACE = re.compile(r"\s+")


def table(name: str) -> dict[str, list[str]]:
    """A tab-separated table of tests/tutorials: first column -> the other columns."""
    rows = {}
    for line in (TUTORIALS / name).read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            first, *rest = line.split("\t")
            rows[first] = rest
    return rows


GAPS = table("KNOWN_GAPS.tsv")
RANDOM = table("RANDOM.tsv")
SLOW = table("SLOW.tsv")
TEST_SECONDS = "30"  # the wall-clock limit of a program SLOW.tsv does not give one


def masked(stdout: str) -> str:
    """stdout with every number replaced by # and no whitespace: how PyTorch pads, wraps and
    switches to scientific notation depends on the values, which change from run to run."""
    return SPACE.sub("", NUMBER.sub("#", ADDRESS.sub(" at 0x?", stdout)))


def structure(result: dict[str, Any]) -> dict[str, Any]:
    """What an unseeded program must still agree on: everything but the random values."""
    tensors = [{k: t[k] for k in ("name", "shape", "dtype", "requires_grad", "is_leaf",
                                  "grad_fn", "retains_grad")} | {"has_grad": t["grad"] is not None}
               for t in result["tensors"]]
    error = result["error"] and (result["error"]["type"], result["error"]["line"])
    return {"stdout": masked(result["stdout"]), "error": error, "tensors": tensors}


def case(name: str) -> Any:
    marks = []
    if name in GAPS:
        issue, reason = GAPS[name]
        marks.append(pytest.mark.xfail(strict=True, reason=f"issue {issue}: {reason}"))
    if name in SLOW and not os.environ.get("AGRAPH_SLOW_TESTS"):
        why = f"slow ({SLOW[name][0]}); AGRAPH_SLOW_TESTS=1 runs it"
        marks.append(pytest.mark.skip(reason=why))
    return pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", [case(n) for n in PROGRAMS])
def test_tutorial_runs_as_in_pytorch(name: str, cli: Any) -> None:
    expected = load_json(TUTORIALS / f"{name}.json")
    seconds = SLOW.get(name, [])[1:2] or ([] if name in GAPS else [TEST_SECONDS])
    limit = ["--max-seconds", seconds[0]] if seconds else []
    limit += ["--max-memory", *SLOW[name][2:]] if SLOW.get(name, [])[2:] else []
    result = cli("run", str(TUTORIALS / f"{name}.expr"), "--json", *limit)
    actual = json.loads(result.stdout)
    if name in RANDOM:
        assert structure(actual) == structure(expected), actual["error"]
    else:
        assert differences(expected, actual) == []
    assert result.exit_code == (0 if expected["error"] is None else 1)


def test_every_program_has_its_source_and_pytorch_result() -> None:
    assert len(PROGRAMS) >= 30, "the tutorial corpus went missing"
    for name in PROGRAMS:
        first = (TUTORIALS / f"{name}.expr").read_text(encoding="utf-8").splitlines()[0]
        # a page stored only at its http:// address (hbase.cn) keeps that address
        assert first.startswith(("# https://", "# http://")), f"{name}: line 1: its URL"
        assert (TUTORIALS / f"{name}.json").exists(), f"{name}: no PyTorch result"


def test_tables_name_only_programs_of_the_corpus() -> None:
    for rows in (GAPS, RANDOM, SLOW):
        assert set(rows) <= set(PROGRAMS), sorted(set(rows) - set(PROGRAMS))
    for name, (why, *seconds) in SLOW.items():
        assert why.strip() and all(s.isdigit() for s in seconds), name
    for name, (issue, reason) in GAPS.items():
        assert issue.isdigit() or issue == "other", f"{name}: issue column {issue!r}"
        assert reason.strip(), f"{name}: no reason"


def test_masking_keeps_words_and_hides_values() -> None:
    assert masked("99 tensor([ 1.5410, -0.2934])  loss=3e-05") == "#tensor([#,#])loss=#"
    assert masked("<AddBackward0 object at 0x7f00a1>") == masked("<AddBackward0 object at 0x?>")
    assert masked("tensor([[ 6.7977e-01,\n  -2.2e+00]])") == masked("tensor([[0.6798, -2.2000]])")
