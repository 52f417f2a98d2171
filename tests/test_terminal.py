"""What a terminal, a pipe and a docs build get from the real `agraph`: colour only when
wanted (NO_COLOR, FORCE_COLOR), the width of COLUMNS or the content, the table readable at
60 columns with no token cut, no trailing spaces, and exit 0 when the reader closes the pipe."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
from pathlib import Path

import pytest

from tests.agraph_process import ROOT, agraph, agraph_executable, environment

ESC = b"\x1b["
TRAINING = str(ROOT / "samples" / "training_loop.expr")
LEAVES = str(ROOT / "samples" / "leaf_nodes.expr")


def on_terminal(*args: str, env: dict[str, str]) -> bytes:
    """What `agraph ARGS` writes to stdout when stdout is a terminal (a pseudo-terminal)."""
    master, slave = pty.openpty()
    process = subprocess.Popen([agraph_executable(), *args], stdout=slave,
                               stderr=subprocess.DEVNULL, cwd=ROOT, env=environment(env))
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other side closed (Linux: EIO)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert process.wait(timeout=60) == 0
    return b"".join(chunks)


def test_a_terminal_gets_colour_unless_no_color_is_set() -> None:
    coloured = on_terminal("run", LEAVES, "--table", env={"COLUMNS": "200"})
    plain = on_terminal("run", LEAVES, "--table", env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert ESC in coloured
    assert ESC not in plain
    assert b"AddBackward0" in plain


def test_force_color_colours_a_pipe_and_no_color_wins_over_it() -> None:
    forced = agraph("run", LEAVES, "--table", env={"FORCE_COLOR": "1"})
    assert ESC in forced.stdout
    both = agraph("run", LEAVES, "--table", env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert ESC not in both.stdout
    assert ESC not in agraph("run", LEAVES, "--table").stdout


def table_part(stdout: bytes) -> list[str]:
    text = stdout.decode("utf-8")
    return text[text.index("tensors\n"):].splitlines()


@pytest.mark.parametrize("columns", [40, 60, 80, 100, 130])
def test_the_table_fits_columns_and_never_cuts_a_token(columns: int) -> None:
    result = agraph("run", TRAINING, "--table", env={"COLUMNS": str(columns)})
    assert result.returncode == 0
    lines = table_part(result.stdout)
    assert all(len(line) <= columns for line in lines), lines
    words = {word for line in lines for word in re.split(r"[\s│┃]+", line) if word}
    for whole in ("True", "False", "MseLossBackward0", "requires_grad", "retains_grad",
                  "float32", "[0.4273]", "labels"):
        assert whole in words, (whole, lines)
    for piece in ("Tru", "Fals", "MseLoss", "requires_", "float3"):
        assert piece not in words, (piece, lines)


def test_sixty_columns_stack_the_fields_of_each_tensor() -> None:
    lines = table_part(agraph("run", TRAINING, "--table", env={"COLUMNS": "60"}).stdout)
    block = lines[lines.index("loss"):][:9]
    assert [line.split()[0] for line in block[1:]] == [
        "shape", "dtype", "value", "requires_grad", "is_leaf", "grad", "grad_fn",
        "retains_grad"]
    assert block[7].split() == ["grad_fn", "MseLossBackward0"]


def test_a_pipe_is_as_wide_as_the_content_with_no_trailing_spaces() -> None:
    result = agraph("run", LEAVES, "--table")
    lines = result.stdout.decode("utf-8").splitlines()
    assert lines and all(line == line.rstrip() for line in lines)
    widest = max(len(line) for line in table_part(result.stdout))
    assert widest < 120  # the content's width, not a padded guess
    assert table_part(result.stdout)[0] == "tensors"



def test_a_long_name_in_a_pipe_is_stacked_whole() -> None:
    """The padding of a 40,000-column name cell: stripping trailing spaces from each space of
    each run took 39 seconds (now milliseconds; the suite asserts no clock). Wider than any
    console, the tensor is stacked, every field kept (a table squeezed the other columns to
    nothing)."""
    import io

    from renderers.table import render_table

    row = {"name": "v" * 40_000, "shape": "[1]", "dtype": "float32", "value": "[1.]",
           "requires_grad": True, "is_leaf": True, "grad": "None", "grad_fn": None,
           "retains_grad": False}
    out = io.StringIO()
    render_table([row], out, color=False, width=None)
    lines = out.getvalue().splitlines()
    assert all(line == line.rstrip() for line in lines)
    assert "".join(line for line in lines if set(line) == {"v"}) == "v" * 40_000
    assert "  requires_grad  True" in lines


@pytest.mark.parametrize("args", [
    ["run", "{long}"], ["run", "{long}", "--table"], ["run", "{long}", "--json"],
    ["render", "{long}", "--format", "dot"], ["render", "{long}", "--format", "mermaid"],
    ["explain", "{long}", "loss", "w"], ["run", "{long}", "--trace"],
    ["run", "{long}", "--watch", "y"], ["debug", "{long}"],
])
def test_a_closed_pipe_ends_every_mode_with_exit_0(args: list[str], tmp_path: Path) -> None:
    long = tmp_path / "long.expr"
    long.write_text("import torch\nw = torch.tensor([1.0], requires_grad=True)\n"
                    "for i in range(4000):\n    y = w * 2\n    print(i, y)\n"
                    "loss = y.sum()\nloss.backward()\n"
                    "for i in range(400):\n    z = torch.tensor([float(i)])\n")
    command = [agraph_executable(), *(a.replace("{long}", str(long)) for a in args)]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=environment())
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"next\n" * 50 + b"table\n" * 50)  # what `debug` reads
    process.stdin.close()
    process.stdout.read(20)
    process.stdout.close()  # `| head -c 20`
    assert process.wait(timeout=120) == 0
