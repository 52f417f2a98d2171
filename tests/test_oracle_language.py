"""Programs that use the language (classes, custom autograd Functions, decorators, exceptions,
generators), pasted from public tutorials and docs, checked against real PyTorch 2.13.

tests/oracle_language/NAME.json is what ../shared/oracle/torch_oracle.py recorded when real
PyTorch ran NAME.expr; line 1 of each program is its URL, line 2 lists any adaptation. A
program that draws random numbers without a seed was recorded with PyTorch's default generator
seeded as a fresh `torch.Generator()` is (67280421310721, engine/generator.py), which is where
agraph's generator starts. Programs that fail for reasons outside the language (WAITING) are
expected to fail, and a pass makes the test fail so the mark comes off.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import OracleCorpus

LANGUAGE = OracleCorpus("oracle_language")
CASES = LANGUAGE.names

# Cases that do not match PyTorch yet, each with the reason (none at the moment).
WAITING: dict[str, str] = {}


def test_every_case_has_its_pytorch_result_and_its_source() -> None:
    LANGUAGE.assert_complete(at_least=25, first_line="# https://")
    assert set(WAITING) <= set(CASES)


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=WAITING[name]))
    if name in WAITING else name for name in CASES])
def test_case_matches_pytorch(name: str, cli: Any) -> None:
    LANGUAGE.assert_matches(cli, name)
