"""Programs of the oracle's families that nobody showed us, checked against real PyTorch 2.13.

tests/oracle_extra/NAME.json is what ../shared/oracle/torch_oracle.py recorded when real PyTorch
ran tests/oracle_extra/NAME.expr; each case runs through the CLI in-process and must give the
same stdout, error (type and line) and tensors (the oracle's `check` rules). No torch needed.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import OracleCorpus

EXTRA = OracleCorpus("oracle_extra")
CASES = EXTRA.names


def test_every_case_has_its_pytorch_result() -> None:
    EXTRA.assert_complete(at_least=80, first_line="# ")


@pytest.mark.parametrize("name", CASES)
def test_case_matches_pytorch(name: str, cli: Any) -> None:
    EXTRA.assert_matches(cli, name)


def test_cases_are_written_like_the_oracle_families() -> None:
    families = ("seed_", "tut_", "err_", "bcast_", "higher_order_", "hooks_", "detach_",
                "nograd_", "optim_", "dtype_", "matrix_", "reduce_", "softmax_", "index_",
                "cat_", "stack_", "maxmin_", "clamp_", "edge_", "nn_")
    for name in CASES:
        assert name.startswith(families), name
