"""torch.save / torch.load keep their files inside the run: nothing reaches the disk, a file
saved in one run is not there in the next, and torch.load refuses a program's own class as
PyTorch 2.13's default weights_only=True refuses it. (Values and messages against PyTorch's:
tests/oracle_extra/edge_torch_save_load.expr.)"""

from __future__ import annotations

from pathlib import Path

from autograd_cli.language.interpreter import run_program
from tests.conftest import run_agraph

CHECKPOINT = """\
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)
net = Net()
for name in ["model.pt", "../outside.pt", "/tmp/agraph-absolute.pt", "sub/dir/x.pt"]:
    torch.save(net.state_dict(), name)
    print(name, list(torch.load(name)))
torch.save(net, "net.pt")
try:
    torch.load("net.pt")
except Exception as error:
    print(type(error).__name__, "GLOBAL __main__.Net was not an allowed global" in str(error))
again = torch.load("net.pt", weights_only=False)
print(again is net, type(again).__name__, torch.equal(again.fc.weight, net.fc.weight))
"""


def test_saved_files_stay_in_the_run(tmp_path: Path) -> None:
    program = tmp_path / "p.expr"
    program.write_text(CHECKPOINT)
    result = run_agraph("run", str(program), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines() == [
        "model.pt ['fc.weight', 'fc.bias']", "../outside.pt ['fc.weight', 'fc.bias']",
        "/tmp/agraph-absolute.pt ['fc.weight', 'fc.bias']", "sub/dir/x.pt ['fc.weight', 'fc.bias']",
        "UnpicklingError True", "False Net True"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.expr"]
    assert not (tmp_path.parent / "outside.pt").exists()
    assert not Path("/tmp/agraph-absolute.pt").exists()


def test_a_file_saved_in_one_run_is_gone_in_the_next() -> None:
    first = run_program("import torch\ntorch.save(torch.ones(2), 'w.pt')\n"
                        "print(torch.load('w.pt'))")
    assert first.error is None and first.stdout == "tensor([1., 1.])\n"
    second = run_program("import torch\ntorch.load('w.pt')")
    assert second.error is not None and second.error.type_name == "FileNotFoundError"
    assert second.error.message == "[Errno 2] No such file or directory: 'w.pt'"


def test_only_a_file_name_is_taken() -> None:
    result = run_program("import torch\ntorch.save(torch.ones(2), 3)")
    assert result.error is not None and result.error.type_name == "TypeError"
    assert "takes a file name" in result.error.message
