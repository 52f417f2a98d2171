"""`agraph debug` driven through its stdin (and once in a real terminal), `run --break`."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, SAMPLES, run_agraph

REGRESSION = str(SAMPLES / "no_grad_regression.expr")
GRAPH = str(SAMPLES / "computation_graph.expr")

WITH_A_DEF = """\
import torch

def square(t):
    doubled = t * t
    return doubled

w = torch.tensor(3.0, requires_grad=True)
y = square(w)
y.backward()
print(w.grad)
"""


def debug(cli: Any, file: str, commands: str) -> Any:
    result = cli("debug", file, input=commands)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_a_breakpoint_inside_a_loop_stops_in_every_iteration(cli: Any) -> None:
    result = debug(cli, REGRESSION, "break 30\ncontinue\nprint i, loss\ncontinue\n"
                   "print i, loss.item()\nquit\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "breakpoint at line 30: loss.backward()" in out
    assert "(0, tensor(787.5607, grad_fn=<SumBackward0>))" in out  # as PyTorch prints it
    assert "(1, 476.32879638671875)" in out  # PyTorch: 476.32879638671875
    assert out.count("->   30      loss.backward()") == 0  # the marker is right-aligned
    assert len(re.findall(r"^-> 30 +loss\.backward\(\)$", out, re.M)) == 2
    assert "tensor([[3.0052]]" not in out  # quit: the last print never ran


def test_next_step_where_and_print_inside_a_def(cli: Any, tmp_path: Path) -> None:
    program = tmp_path / "f.expr"
    program.write_text(WITH_A_DEF, encoding="utf-8")
    result = debug(cli, str(program), "break 8\ncontinue\nstep\nwhere\nprint t * 2\nnext\n"
                   "next\nnext\nprint y\ncontinue\n")
    out = result.stdout
    assert f"> {program}:4 in square()" in out  # `step` went into the def's body
    assert "   line 8 (module): y = square(w)\n-> line 4 in square(): doubled = t * t" in out
    assert "tensor(6., grad_fn=<MulBackward0>)" in out  # print t * 2, in the def's scope
    assert f"> {program}:5 in square()" in out
    assert f"> {program}:9\n" in out  # `next` from the return went back to the caller
    assert "tensor(9., grad_fn=<MulBackward0>)" in out
    assert out.endswith("tensor(6.)\nthe program ended\n")
    assert result.exit_code == 0


def test_print_is_the_language_and_is_checked(cli: Any) -> None:
    result = debug(cli, GRAPH, "break 15\nc\nprint a.grad_fn.name()\nprint __import__('os')\n"
                   "print open('x')\nprint x = 1\nprint undefined_name\nquit\n")
    out = result.stdout
    assert "'AddBackward0'" in out
    assert "names starting with '_' are private to agraph" in out
    assert "NameError: open() is not available in agraph programs" in out
    assert "print takes one expression" in out or "SyntaxError" in out
    assert "NameError: name 'undefined_name' is not defined" in out



def test_print_is_bounded_by_the_time_limit(tmp_path: Path) -> None:
    """The program's clock is paused at a stop: a repr that never returns ran forever."""
    program = tmp_path / "spin.expr"
    program.write_text("class B:\n    def __repr__(self):\n        while True:\n"
                       "            pass\nb = B()\nx = 1\n", encoding="utf-8")
    result = run_agraph("debug", str(program), "--max-seconds", "1", "--max-loop-iterations",
                        "1000000000", "--max-steps", "100000000000", timeout=60,
                        input=b"break 6\ncontinue\nprint b\nprint 1 + 1\ncontinue\n")
    out = result.stdout.decode("utf-8")
    assert "LimitError: the program ran for more than 1 seconds" in out
    assert "(agraph) print 1 + 1\n2\n" in out and "the program ended" in out
    assert result.returncode == 0

def test_table_and_graph_show_the_state_at_the_stop(cli: Any, tmp_path: Path) -> None:
    drawn = tmp_path / "so_far.dot"
    result = debug(cli, GRAPH, f"break 15\ncontinue\ntable\ngraph\ngraph {drawn}\nquit\n")
    out = result.stdout
    assert re.search(r"│ a +│ \[\] +│ float64 │ 3\. ", out)
    assert "y " not in out.split("(agraph) table")[1].split("(agraph) graph")[0]  # not yet
    tree = out.split("(agraph) graph\n")[1]
    assert tree.startswith("a  [] float64  = 3.  [retained]\n└─ add  AddBackward0\n"
                           "   ├─ w  [] float64  = 1.  [leaf]\n")
    assert f"graph written to {drawn} (dot)" in out
    assert "digraph" in drawn.read_text(encoding="utf-8")


def test_end_of_input_quits_cleanly(cli: Any) -> None:
    result = debug(cli, GRAPH, "next\n")
    assert result.exit_code == 0
    assert result.stdout.endswith("(agraph) next\n> " + GRAPH + ":9\n"
                                  "    7  import torch\n    8\n"
                                  "->  9  w = torch.tensor(1, dtype=float, requires_grad=True)\n"
                                  "   10  x = torch.tensor(2, dtype=float, requires_grad=True)\n"
                                  "   11\n(end of input: quitting)\n")


def test_breakpoints_only_where_a_statement_starts(cli: Any) -> None:
    result = debug(cli, GRAPH, "break 11\nbreak 1000\nbreak x\nbreak\nquit\n")
    assert "no statement starts at line 11; the next one starts at line 12" in result.stdout
    assert "no statement starts at line 1000" in result.stdout
    assert "expected a line number, not 'x'" in result.stdout
    assert "breakpoints: none" in result.stdout


def test_stdin_cannot_be_both_program_and_commands(cli: Any) -> None:
    result = cli("debug", "-", input="import torch\n")
    assert result.exit_code == 2 and "give the program as a file" in result.stderr


def test_paused_time_does_not_count(cli: Any) -> None:
    # the program may run 0.5 s; a command that waits longer than that must not end it
    commands = iter(["next\n", "next\n"])

    class SlowInput:
        def readline(self) -> str:
            time.sleep(0.4)
            return next(commands, "")

    from autograd_cli.graph import rendering
    from autograd_cli.graph.recorder import GraphRecorder
    from autograd_cli.language.limits import Limits
    from autograd_cli.tools.debugger import Debugger

    limits = Limits(max_seconds=0.5)
    text = "x = 1\ny = 2\nz = 3\n"
    out = open(os.devnull, "w")  # noqa: SIM115 - closed below
    try:
        debugger = Debugger(text, "t.expr", GraphRecorder(), iter(SlowInput().readline, ""),
                            out, limits=limits)
        result, _ = rendering.record_program(text, limits, observers=[debugger],
                                             recorder=debugger.recorder)
    finally:
        out.close()
    assert result.error is not None and result.error.type_name == "DebuggerQuit"  # EOF, not
    # a LimitError after 1.2 s of pauses


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_in_a_real_terminal() -> None:
    """The stepper in a pty: it prompts, and the terminal echoes what is typed."""
    main, replica = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "autograd_cli", "debug", GRAPH],
                               stdin=replica, stdout=replica, stderr=replica, cwd=ROOT,
                               close_fds=True)
    os.close(replica)
    seen = b""

    def read_until(marker: bytes, timeout: float = 20) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while marker not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(main, 4096)
                except OSError:
                    break
        assert marker in seen, seen.decode(errors="replace")

    try:
        read_until(b"(agraph) ")
        os.write(main, b"break 17\n")
        read_until(b"breakpoint at line 17")
        os.write(main, b"continue\n")
        read_until(b"-> 17  y.backward()")
        os.write(main, b"print y\n")
        read_until(b"tensor(6., dtype=torch.float64, grad_fn=<MulBackward0>)")
        os.write(main, b"quit\n")
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)
    assert b"(agraph) break 17" in seen  # the prompt, then the terminal's echo of the command


def test_run_break_prints_the_table_at_that_line_and_stops(cli: Any, tmp_path: Path) -> None:
    result = cli("run", REGRESSION, "--break", "30")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("tensor([[1.1046]], requires_grad=True)\ntensor([[0.]], "
                          "requires_grad=True)\n> " + REGRESSION + ":30\n")
    assert re.search(r"│ loss +│ \[\] +│ float32 │ 787\.5607", out)
    assert "tensor([[3.0052]]" not in out  # stopped there
    assert result.stderr == ""


@pytest.mark.graphviz
def test_run_break_writes_the_graph_so_far(cli: Any, tmp_path: Path) -> None:
    target = tmp_path / "at15.svg"
    result = cli("run", GRAPH, "--break", "15", "--svg", str(target))
    assert result.exit_code == 0 and f"graph written to {target}" in result.stdout
    svg = target.read_text(encoding="utf-8")
    assert ">a<" in svg and ">y<" not in svg  # y = a * b has not run yet


def test_run_break_errors(cli: Any) -> None:
    nowhere = cli("run", GRAPH, "--break", "11")
    assert nowhere.exit_code == 2 and "no statement starts at line 11" in nowhere.stderr
    with_json = cli("run", GRAPH, "--break", "12", "--json")
    assert with_json.exit_code == 2 and "--json" in with_json.stderr
    program = "import torch\nif False:\n    x = 1\nprint('done')\n"
    never = cli("run", "-", "--break", "3", input=program)
    assert never.exit_code == 0 and never.stdout == "done\n"
    assert "<stdin>:3: note: --break: the program never reached this line" in never.stderr


def test_help_has_examples(cli: Any) -> None:
    assert "Example: agraph debug samples/computation_graph.expr" in cli("debug",
                                                                         "--help").stdout
    assert "--break 17" in cli("run", "--help").stdout
