"""PyTorch's global switches (engine/settings.py): kept, checked as PyTorch checks them, and
back to PyTorch's defaults at the start of every run."""

from __future__ import annotations

from autograd_cli.language.interpreter import run_program

REPORT = ("print(torch.are_deterministic_algorithms_enabled(), "
          "torch.get_float32_matmul_precision(), torch.backends.cudnn.deterministic, "
          "torch.backends.cudnn.benchmark)\n")


def test_a_run_starts_from_pytorchs_defaults() -> None:
    changed = run_program("import torch\ntorch.use_deterministic_algorithms(True)\n"
                          "torch.set_float32_matmul_precision('medium')\n"
                          "torch.backends.cudnn.deterministic = True\n"
                          "torch.backends.cudnn.benchmark = True\n" + REPORT)
    assert changed.error is None and changed.stdout == "True medium True True\n"
    fresh = run_program("import torch\n" + REPORT)
    assert fresh.error is None and fresh.stdout == "False highest False False\n"


def test_switches_are_checked_as_pytorch_checks_them() -> None:
    for line, message in [
        ("torch.backends.cudnn.benchmark = 1", "set_benchmark_cudnn expects a bool, but got int"),
        ("torch.set_float32_matmul_precision(3)",
         "set_float32_matmul_precision expects a str, but got int"),
        ("torch.use_deterministic_algorithms('yes')", "argument 'mode' (position 1) must be bool"),
        ("torch.backends.cudnn.version = 1", "cannot set attribute 'version'"),
    ]:
        result = run_program(f"import torch\n{line}\n")
        assert result.error is not None and message in result.error.message, line
    warned = run_program("import torch\ntorch.set_float32_matmul_precision('low')\n" + REPORT)
    assert warned.error is None and warned.stdout.startswith("False highest")
    assert "is not one of 'highest', 'high', or 'medium'" in warned.warnings[0].message


def test_backcompat_warning_flags_are_kept_and_warn_of_nothing() -> None:
    # PyTorch 2.13: the flags are bools, off in a fresh process; on, a broadcast of equal-sized
    # shapes gives no warning (torch.add(ones(4, 1), ones(4)) is the 4x4 sum)
    program = ("import torch\nfrom torch.utils import backcompat\n"
               "print(backcompat.broadcast_warning.enabled, backcompat.keepdim_warning.enabled)\n"
               "torch.utils.backcompat.broadcast_warning.enabled = True\n"
               "print(torch.utils.backcompat.broadcast_warning.enabled, "
               "torch.add(torch.ones(4, 1), torch.ones(4)).shape)\n")
    changed = run_program(program)
    assert changed.error is None and not changed.warnings
    assert changed.stdout == "False False\nTrue torch.Size([4, 4])\n"
    assert run_program(program).stdout.startswith("False False\n")  # each run starts off
    result = run_program("import torch\ntorch.utils.backcompat.keepdim_warning.enabled = 1\n")
    assert result.error is not None
    assert result.error.message == "set_backcompat_keepdim_warn expects a bool, but got int"
