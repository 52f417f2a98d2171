"""What a docs build sees from the real `agraph`: `-q` keeps stderr to errors, a warning is
said once (lint does not restate it), a view with nothing to draw says so instead of drawing a
blank picture, and an empty program is an empty graph with a note."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.agraph_process import agraph

NONLEAF = ("import torch\nw = torch.tensor([1.], requires_grad=True)\ny = w * 2\ny.backward()\n"
           "print(y.grad)\n")
NO_GRAD = "import torch\nx = torch.ones(2)\ny = (x * 2).sum()\nprint(y)\n"
BROKEN = "import torch\nx = torch.ones(2)\nprint(y)\n"


def write(tmp_path: Path, text: str, name: str = "prog.expr") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", [["run"], ["run", "--lint"], ["render", "--format", "dot"],
                                     ["debug", "{file}"]])
def test_quiet_leaves_out_warnings_and_notes(command: list[str], tmp_path: Path) -> None:
    program = write(tmp_path, NONLEAF)
    args = [program if part == "{file}" else part for part in command]
    if "{file}" not in command:
        args.insert(1, program)
    commands = b"continue\n"  # what `debug` reads
    loud = agraph(*args, input=commands)
    assert b"UserWarning" in loud.stderr
    quiet = agraph(*args, "-q", input=commands)
    assert quiet.returncode == loud.returncode == 0
    assert quiet.stderr == b""
    assert quiet.stdout == loud.stdout
    assert agraph(*args, "--quiet", input=commands).stderr == b""


def test_quiet_keeps_errors(tmp_path: Path) -> None:
    result = agraph("run", write(tmp_path, BROKEN), "-q")
    assert result.returncode == 1
    assert b"prog.expr:3:7: NameError: name 'y' is not defined" in result.stderr


def test_a_warning_is_said_once_and_lint_does_not_restate_it(tmp_path: Path) -> None:
    program = write(tmp_path, NONLEAF + "print(y.grad)\nprint(y.grad)\n")
    result = agraph("run", program, "--lint")
    text = result.stderr.decode()
    assert text.count("UserWarning") == 3  # once per line, as Python's warnings show it
    assert "lint (nonleaf-grad)" not in text
    alone = agraph("lint", program)  # the lint command still names the problem
    assert b"lint (nonleaf-grad)" in alone.stdout


@pytest.mark.parametrize("fmt", ["dot", "json", "mermaid", "svg"])
def test_a_backward_view_with_nothing_to_draw_says_so(fmt: str, tmp_path: Path) -> None:
    out = tmp_path / f"out.{fmt}"
    result = agraph("render", write(tmp_path, NO_GRAD), "--view", "backward", "--format", fmt,
                    "-o", str(out))
    assert result.returncode == 1
    message = result.stderr.decode()
    assert "--view backward: nothing to draw" in message
    assert "--view forward" in message  # what to use instead
    assert not out.exists()


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "import torch\n"])
def test_an_empty_program_runs_and_draws_an_empty_graph_with_a_note(text: str,
                                                                    tmp_path: Path) -> None:
    program = write(tmp_path, text)
    ran = agraph("run", program)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, b"", b"")
    drawn = agraph("render", program, "--format", "dot")
    assert drawn.returncode == 0
    assert drawn.stdout.startswith(b"digraph agraph {")
    assert b"->" not in drawn.stdout and b"no tensors were recorded" in drawn.stdout
    assert drawn.stderr.decode().endswith(
        "prog.expr: note: the program made no tensors; the graph is empty\n")
    assert agraph("render", program, "--format", "dot", "-q").stderr == b""


def test_a_missing_input_file_is_a_usage_error(tmp_path: Path) -> None:
    for command in (["run"], ["render"], ["check"], ["lint"], ["explain"]):
        args = [*command, str(tmp_path / "nope.expr")] + (["y", "x"] if command == ["explain"]
                                                         else [])
        result = agraph(*args)
        assert result.returncode == 2, args
        assert b"nope.expr: FileNotFoundError: no such file" in result.stderr


@pytest.mark.parametrize("command", [["render", "{file}", "-o", "{out}"],
                                     ["run", "{file}", "--svg", "{out}"],
                                     ["explain", "{file}", "y", "x", "--svg", "{out}"]])
def test_output_paths_are_checked_before_the_program_runs(command: list[str],
                                                          tmp_path: Path) -> None:
    program = write(tmp_path, "import torch\nx = torch.ones(1, requires_grad=True)\n"
                              "y = x * 2\nprint('ran')\ny.backward()\n")
    args = [part.replace("{file}", program).replace("{out}", str(tmp_path / "nodir" / "x.svg"))
            for part in command]
    result = agraph(*args)
    assert result.returncode == 2
    assert result.stdout == b""  # the program never ran
    assert b"nodir/x.svg: directory" in result.stderr and b"does not exist" in result.stderr
    assert not (tmp_path / "nodir").exists()
