"""Random numbers against real PyTorch 2.13, exactly (issue 13).

tests/oracle_rng/NAME.json is what ../shared/oracle/torch_oracle.py recorded when real PyTorch
ran tests/oracle_rng/NAME.expr (remake them with that command). Each case must print the same
bytes (the programs print `tolist()`, every digit of every value) and leave the same tensors,
compared for equality, not closeness. No torch needed.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.conftest import OracleCorpus, load_json

RNG = OracleCorpus("oracle_rng")
CASES = RNG.names
FIELDS = ("shape", "dtype", "data", "grad", "requires_grad", "is_leaf", "grad_fn")


def test_every_case_has_its_pytorch_result() -> None:
    RNG.assert_complete(at_least=9)


@pytest.mark.parametrize("name", CASES)
def test_case_equals_pytorch(name: str, cli: Any) -> None:
    RNG.assert_matches(cli, name)
    expected = load_json(RNG.recorded(name))
    actual = json.loads(cli("run", str(RNG.program(name)), "--json").stdout)
    # the harness writes every printed address as 0x? (agraph's are numbered per run)
    assert re.sub(r" at 0x[0-9a-f]+", " at 0x?", actual["stdout"]) == expected["stdout"]
    tensors = {t["name"]: t for t in actual["tensors"]}
    for tensor in expected["tensors"]:
        for field in FIELDS:
            assert tensors[tensor["name"]].get(field) == tensor.get(field), (tensor["name"], field)
