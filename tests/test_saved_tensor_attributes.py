"""`grad_fn._saved_self` / `_saved_other` / `_saved_result`: the only '_' names a program may
read (PyTorch documents them); every other '_' name stays refused."""

from __future__ import annotations

from autograd_cli.language.interpreter import run_program
from autograd_cli.language.limits import Limits


def run(source: str) -> object:
    return run_program(source, Limits())


def test_saved_tensors_are_the_inputs_and_the_result() -> None:
    result = run("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                 "z = x * x\ny = x.exp()\n"
                 "print(z.grad_fn._saved_self is x, z.grad_fn._saved_other is x)\n"
                 "print(y.grad_fn._saved_result)\n")
    assert result.error is None, result.error  # type: ignore[attr-defined]
    assert result.stdout == ("True True\n"  # type: ignore[attr-defined]
                             "tensor([2.7183, 7.3891], grad_fn=<ExpBackward0>)\n")


def test_after_backward_they_are_freed_as_in_pytorch() -> None:
    result = run("import torch\nx = torch.tensor([1.0], requires_grad=True)\nz = x * x\n"
                 "z.sum().backward()\nprint(z.grad_fn._saved_self)\n")
    error = result.error  # type: ignore[attr-defined]
    assert (error.type_name, error.line) == ("RuntimeError", 5)
    assert "second time" in error.message


def test_other_private_names_stay_refused() -> None:
    for source in ("import torch\nx = torch.ones(1)\ny = x._saved_self\n",
                   "import torch\nx = torch.ones(1, requires_grad=True) * 2\n"
                   "y = x.grad_fn._saved_grad\n",
                   "import torch\nx = torch.ones(1, requires_grad=True) * 2\n"
                   "y = x.grad_fn._saved_self.__class__\n"):
        error = run(source).error  # type: ignore[attr-defined]
        assert error is not None and error.type_name == "AttributeError", source
