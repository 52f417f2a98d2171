"""An nn.Module's tables `_modules`, `_parameters` and `_buffers`: a program may read them and
change what they hold, as tutorials do (d2l's MySequential fills `self._modules` and walks it;
the oracle case tests/oracle_language/lang_module_tables compares that with PyTorch), but not
replace them; whatever it puts in them, agraph's views after the run do not fail."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from tests.conftest import run_agraph
from tests.test_hostile_language import cli_output

MODULE_TABLE_JUNK = """\
import torch
from torch import nn
m = nn.Linear(2, 2)
m._modules['x'] = 5
m._parameters['w2'] = "text"
m._buffers['b2'] = [1, 2]
y = m(torch.ones(1, 2)).sum()
"""


@pytest.mark.parametrize("args", [["run"], ["run", "--json"], ["render", "--svg"],
                                  ["run", "--table"]], ids=" ".join)
def test_what_a_program_puts_in_a_module_s_tables_never_breaks_agraph(
        args: list[str], tmp_path: Any) -> None:
    """`m._modules` and its siblings are the module's own dicts (as in PyTorch, where tutorials
    fill them); whatever the program puts there, the run ends as PyTorch's would and the views
    drawn after it do not fail."""
    program = tmp_path / "t.expr"
    program.write_text(MODULE_TABLE_JUNK, encoding="utf-8")
    if args[0] == "render" and shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    result = run_agraph(args[0], str(program), *args[1:])
    assert result.returncode == 0, result.stderr.decode()
    assert b"internal error" not in result.stderr and b"Traceback" not in result.stderr


def test_a_module_s_tables_cannot_be_replaced() -> None:
    code, _, stderr = cli_output("""\
        import torch
        m = torch.nn.Linear(2, 2)
        m._modules = {}
        """)
    assert code == 1 and stderr.startswith("t.expr:3:1: AttributeError: cannot set attribute "
                                           "'_modules'"), stderr
