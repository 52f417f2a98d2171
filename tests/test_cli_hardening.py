"""Hardening of the command line against hostile programs and odd output paths.

- output files (`render -o`, `run --svg`, the debugger's `graph FILE`): FIFOs and character
  devices are written in place, never replaced; /dev/stdout is stdout; a trailing "/" is an
  error; permissions, symlinks and long names are kept;
- the work after a run is bounded: `--json` with many names for a big tensor, the table after
  `set_printoptions(threshold=inf)`, `explain`'s analysis, a MemoryError: LimitErrors (exit 1);
- unprintable characters (ESC, bidi overrides, U+2028) that agraph echoes are escaped, with
  the caret still under the right column.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_agraph

GOOD = "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * x + x\ny.backward()\n"


def write(tmp_path: Path, text: str, name: str = "prog.expr") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def dot_of(program: str) -> bytes:
    result = run_agraph("render", program, "--format", "dot")
    assert result.returncode == 0, result.stderr
    return result.stdout


# --- output paths ---------------------------------------------------------------------------

def test_a_fifo_is_written_into_and_stays_a_fifo(tmp_path: Path) -> None:
    program = write(tmp_path, GOOD)
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run_agraph("render", program, "--format", "dot", "-o", str(fifo))
    reader.join(10)
    assert result.returncode == 0, result.stderr
    assert received == [dot_of(program)]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_private_character_device_is_written_into_not_replaced(tmp_path: Path) -> None:
    device = tmp_path / "null_copy"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a copy of /dev/null
    except (PermissionError, OSError) as error:
        pytest.skip(f"cannot make a device node here: {error}")
    result = run_agraph("render", write(tmp_path, GOOD), "--format", "dot", "-o", str(device))
    assert result.returncode == 0, result.stderr
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null_copy", "prog.expr"]


@pytest.mark.skipif(os.geteuid() == 0, reason="as root, a regression would replace the "
                    "host's /dev/null; the private node test covers root")
def test_dev_null_discards_and_stays_a_device(tmp_path: Path) -> None:
    result = run_agraph("render", write(tmp_path, GOOD), "--format", "dot", "-o", "/dev/null")
    assert result.returncode == 0, result.stderr
    assert result.stdout == b""
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_dev_stdout_is_stdout_even_a_file_opened_for_appending(tmp_path: Path) -> None:
    program = write(tmp_path, GOOD)
    expected = dot_of(program)
    piped = run_agraph("render", program, "--format", "dot", "-o", "/dev/stdout")
    assert piped.returncode == 0 and piped.stdout == expected
    log = tmp_path / "log.txt"
    log.write_bytes(b"kept\n")
    with open(log, "ab") as appended:
        process = subprocess.run([sys.executable, "-m", "autograd_cli", "render", program,
                                  "--format", "dot", "-o", "/dev/stdout"], stdout=appended,
                                 stderr=subprocess.PIPE, cwd=ROOT, timeout=60)
    assert process.returncode == 0, process.stderr
    assert log.read_bytes() == b"kept\n" + expected  # appended: nothing the user had is lost
    assert not log.is_symlink() and log.is_file()


@pytest.mark.parametrize("extra", [[], ["--max-nodes", "50"]])  # without typer, through typer
def test_a_trailing_slash_names_a_directory(tmp_path: Path, extra: list[str]) -> None:
    program = write(tmp_path, GOOD)
    missing = run_agraph("render", program, "--format", "dot", *extra,
                         "-o", str(tmp_path / "newdir") + "/")
    assert missing.returncode == 2  # refused before the program runs
    assert b"No such file or directory" in missing.stderr
    assert not (tmp_path / "newdir").exists()
    (tmp_path / "file").write_text("mine")
    not_dir = run_agraph("render", program, "--format", "dot", *extra,
                         "-o", str(tmp_path / "file") + "/")
    assert not_dir.returncode == 2 and b"Not a directory" in not_dir.stderr
    assert (tmp_path / "file").read_text() == "mine"
    (tmp_path / "dir").mkdir()
    a_dir = run_agraph("render", program, "--format", "dot", *extra,
                       "-o", str(tmp_path / "dir") + "/")
    assert a_dir.returncode == 0  # -o DIR/: the picture goes into it, named by the program
    assert (tmp_path / "dir" / "prog.dot").read_bytes().startswith(b"digraph")
    (tmp_path / "other").mkdir()
    no_slash = run_agraph("render", program, "--format", "dot", *extra,
                          "-o", str(tmp_path / "other"))
    assert no_slash.returncode == 2 and b"is a directory" in no_slash.stderr  # one program
    assert list((tmp_path / "other").iterdir()) == []


def test_run_svg_and_explain_svg_refuse_a_trailing_slash(tmp_path: Path) -> None:
    program = write(tmp_path, GOOD)
    for command in (["run", program, "--no-table"], ["explain", program, "y", "x"]):
        result = run_agraph(*command, "--svg", str(tmp_path / "pics") + "/")
        assert result.returncode == 2, command  # refused before the program runs
        assert b"No such file or directory" in result.stderr
        assert not (tmp_path / "pics").exists()


def test_an_existing_file_keeps_its_permissions(tmp_path: Path) -> None:
    program = write(tmp_path, GOOD)
    secret = tmp_path / "secret.dot"
    secret.write_text("old")
    secret.chmod(0o600)
    result = run_agraph("render", program, "--format", "dot", "-o", str(secret))
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert secret.read_bytes() == dot_of(program)
    fresh = tmp_path / "fresh.dot"
    mask = os.umask(0o022)
    os.umask(mask)
    assert run_agraph("render", program, "--format", "dot", "-o", str(fresh)).returncode == 0
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask


def test_the_longest_file_name_works_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    program = write(tmp_path, GOOD)
    name = "g" * 250 + ".dot"  # 254 characters: within NAME_MAX (255)
    result = run_agraph("render", program, "--format", "dot", "-o", str(tmp_path / name))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "prog.expr"])


def test_a_symlink_is_kept_and_its_target_written(tmp_path: Path) -> None:
    program = write(tmp_path, GOOD)
    target = tmp_path / "real.dot"
    target.write_text("old")
    link = tmp_path / "link.dot"
    link.symlink_to(target.name)
    assert run_agraph("render", program, "--format", "dot", "-o", str(link)).returncode == 0
    assert link.is_symlink() and target.read_bytes() == dot_of(program)
    dangling = tmp_path / "dangling.dot"
    dangling.symlink_to("made.dot")
    assert run_agraph("render", program, "--format", "dot", "-o", str(dangling)).returncode == 0
    assert dangling.is_symlink() and (tmp_path / "made.dot").read_bytes() == dot_of(program)
    to_input = tmp_path / "to_input.dot"
    to_input.symlink_to(program)
    refused = run_agraph("render", program, "--format", "dot", "-o", str(to_input))
    assert refused.returncode == 2 and b"input program" in refused.stderr
    assert Path(program).read_text() == GOOD


def test_a_socket_is_refused(tmp_path: Path) -> None:
    from autograd_cli.graph.rendering import OutputError, write_atomically

    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        with pytest.raises(OutputError, match="socket"):
            write_atomically(path, b"x")
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
    finally:
        server.close()


@pytest.mark.graphviz
def test_the_debuggers_graph_file_writes_the_same_way(cli: Any, tmp_path: Path) -> None:
    program = write(tmp_path, GOOD)
    kept = tmp_path / "kept.dot"
    kept.write_text("old")
    kept.chmod(0o640)
    result = cli("debug", program,
                 input=f"break 4\ncontinue\ngraph {kept}\ngraph {tmp_path}/no/\nquit\n")
    assert f"graph written to {kept} (dot)" in result.stdout
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text().startswith("digraph")
    assert "No such file or directory" in result.stdout


# --- the work after the run is bounded --------------------------------------------------------

ALIASES = "import torch\nx = torch.zeros(1000000)\n" + \
          "a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = a8 = a9 = x\n"


def test_json_of_a_big_tensor_with_many_names_is_a_limit_error(tmp_path: Path) -> None:
    result = run_agraph("run", write(tmp_path, ALIASES), "--json")
    assert result.returncode == 1
    document = json.loads(result.stdout)  # still exactly one JSON object
    assert document["error"]["type"] == "LimitError"
    assert "--max-output-bytes" in document["error"]["message"]
    assert document["tensors"] == []
    assert b"LimitError" in result.stderr and b"--max-output-bytes" in result.stderr
    assert b"internal error" not in result.stderr


def test_json_writes_each_tensor_once_for_all_its_names(cli: Any, tmp_path: Path) -> None:
    program = "import torch\nx = torch.tensor([1.0, float('nan'), float('-inf')])\na = b = x\n" \
              "w = torch.ones(2, requires_grad=True)\nw.sum().backward()\nv = w\n"
    result = cli("run", write(tmp_path, program), "--json")
    assert result.exit_code == 0
    tensors = {t["name"]: t for t in json.loads(result.stdout)["tensors"]}
    assert list(tensors) == ["a", "b", "v", "w", "x"]
    assert tensors["a"]["data"] == tensors["x"]["data"] == [1.0, "nan", "-inf"]
    assert tensors["v"]["grad"] == tensors["w"]["grad"] == [1.0, 1.0]
    assert tensors["w"]["class"] == "Tensor" and tensors["w"]["is_leaf"] is True


def test_json_within_a_raised_output_limit(cli: Any, tmp_path: Path) -> None:
    program = "import torch\nx = torch.zeros(1000)\na = b = c = x\n"
    small = cli("run", write(tmp_path, program), "--json", "--max-output-bytes", "5000")
    assert small.exit_code == 1
    assert json.loads(small.stdout)["error"]["type"] == "LimitError"
    enough = cli("run", str(tmp_path / "prog.expr"), "--json", "--max-output-bytes", "100000")
    assert enough.exit_code == 0
    assert [len(t["data"]) for t in json.loads(enough.stdout)["tensors"]] == [1000] * 4


def test_the_table_ignores_the_programs_print_options(cli: Any, tmp_path: Path) -> None:
    program = "import torch\ntorch.set_printoptions(threshold=float('inf'))\n" \
              "x = torch.rand(3000000)\na0 = a1 = a2 = a3 = a4 = a5 = x\n"
    result = cli("run", write(tmp_path, program), "--table")
    assert result.exit_code == 0
    rows = [line for line in result.stdout.splitlines() if "[3000000]" in line]
    assert len(rows) == 7 and all("..." in row for row in rows)
    assert len(result.stdout) < 20_000


def test_the_debuggers_table_uses_default_options_and_restores_the_programs(
        cli: Any, tmp_path: Path) -> None:
    program = "import torch\ntorch.set_printoptions(threshold=4)\nx = torch.arange(10.0)\n" \
              "y = 1\n"
    result = cli("debug", write(tmp_path, program), input="break 4\ncontinue\ntable\nprint x\n")
    assert "[0., 1., 2., 3., 4., 5., 6., 7.," in result.stdout  # the table: default options
    assert "tensor([0., 1., 2.,  ..., 7., 8., 9.])" in result.stdout  # the program's options


def test_the_graph_labels_ignore_the_programs_print_options(cli: Any, tmp_path: Path) -> None:
    program = "import torch\ntorch.set_printoptions(precision=100000000)\n" \
              "x = torch.rand(3, requires_grad=True)\ny = x * 2\n"
    result = cli("render", write(tmp_path, program), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert "internal error" not in result.stderr


EXPLAIN_SLOW = "import torch\nx = torch.zeros(4000000, requires_grad=True)\ny = x[0]\n" \
               "for i in range(1, 3000):\n    y = y + x[i]\n"


def test_explain_is_bounded_by_the_time_limit(tmp_path: Path) -> None:
    result = run_agraph("explain", write(tmp_path, EXPLAIN_SLOW), "y", "x", "--max-seconds", "1")
    assert result.returncode == 1
    assert b"LimitError" in result.stderr and b"--max-seconds" in result.stderr
    assert b"path 1: y <- " in result.stdout  # what was found before the limit is shown


def test_run_json_after_the_time_limit_is_bounded(tmp_path: Path) -> None:
    program = "import torch\nx = torch.ones(1, requires_grad=True)\ny = x\n" \
              "for i in range(10000000):\n    y = y * 1.0\n"
    result = run_agraph("run", write(tmp_path, program), "--json", "--max-seconds", "2")
    assert result.returncode == 1
    assert json.loads(result.stdout)["error"]["type"] == "LimitError"


def test_post_run_work_past_its_bound_raises_a_limit(tmp_path: Path) -> None:
    from autograd_cli.graph import rendering, report
    from autograd_cli.language.bounds import Bound
    from autograd_cli.language.limits import LimitExceeded, Limits

    text = "import torch\nx = torch.ones(1, requires_grad=True)\ny = x\n" \
           "for i in range(3000):\n    y = y * 1.0\n"
    result, recorder = rendering.record_program(text, Limits())
    expired = Bound(time.monotonic() - 1, "0 seconds", "drawing the graph")
    with pytest.raises(LimitExceeded, match="drawing the graph took more than 0 seconds"):
        rendering.graph_dict(recorder, bound=expired)
    many = [(f"t{i}", result.variables["x"]) for i in range(100)]
    with pytest.raises(LimitExceeded):
        report.tensors_json(many, 1 << 30, Bound(time.monotonic() - 1, "0 seconds", "json"))
    assert rendering.graph_dict(recorder)["nodes"]  # unbounded, the same graph is drawn


def test_a_memory_error_is_a_limit_error_never_an_internal_error(
        cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from autograd_cli.cli import main, run
    from autograd_cli.graph import report

    def out_of_memory(*args: Any, **kwargs: Any) -> Any:
        raise MemoryError

    monkeypatch.setattr(report, "tensors_json", out_of_memory)
    result = cli("run", write(tmp_path, GOOD), "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["type"] == "LimitError"
    assert "LimitError" in result.stderr and "internal error" not in result.stderr
    monkeypatch.setattr(run, "run", out_of_memory)
    monkeypatch.setattr(sys, "argv", ["agraph", "run", str(tmp_path / "prog.expr")])
    from engine import memory

    # _main counts its whole process against --max-memory: not the test process's later runs
    monkeypatch.setitem(memory._state, "whole_process", 0)
    assert main._main() == 1
    stderr = capsys.readouterr().err
    assert "LimitError" in stderr and "ran out of memory" in stderr
    assert "internal error" not in stderr


# --- unprintable characters in what agraph echoes -------------------------------------------

def error_lines(cli: Any, tmp_path: Path, program: str) -> tuple[str, str, str]:
    result = cli("run", write(tmp_path, program))
    assert result.exit_code == 1
    first, source, caret = result.stderr.splitlines()[:3]
    assert "\x1b" not in result.stderr and "\u202e" not in result.stderr
    assert "\u2028" not in result.stderr and "\x07" not in result.stderr
    return first, source, caret


def test_an_escape_sequence_in_the_echoed_line_is_shown_escaped(cli: Any, tmp_path: Path
                                                                 ) -> None:
    program = 'x = "\x1b[2J\x1b]0;pwned\x07" + 1\n'
    first, source, caret = error_lines(cli, tmp_path, program)
    assert first.endswith(":1:5: TypeError: can only concatenate str (not \"int\") to str")
    assert source == '  x = "\\x1b[2J\\x1b]0;pwned\\x07" + 1'
    assert caret.index("^") == source.index('"')
    assert caret.count("^") == len(source) - source.index('"')  # under the whole expression


def test_a_bidi_override_is_shown_escaped(cli: Any, tmp_path: Path) -> None:
    first, source, caret = error_lines(cli, tmp_path, "# bidi\nx = 1 \u202e\nprint(x)\n")
    assert ":2:7: SyntaxError:" in first
    assert source == "  x = 1 \\u202e"
    assert caret == "  " + " " * 6 + "^" * len("\\u202e")


def test_a_line_separator_is_shown_escaped(cli: Any, tmp_path: Path) -> None:
    first, source, caret = error_lines(cli, tmp_path, "x = 1\u2028y = 2\n")
    assert ":1:6: SyntaxError:" in first
    assert source == "  x = 1\\u2028y = 2"
    assert caret.index("^") == source.index("\\u2028")


def test_wide_characters_before_the_caret_count_twice(cli: Any, tmp_path: Path) -> None:
    first, source, caret = error_lines(cli, tmp_path, 'x = "日本" + 1\n')
    assert source == '  x = "日本" + 1'
    assert caret == "      " + "^" * len('"日本" + 1') + "^" * 2  # 日 and 本 take two columns


def test_a_warnings_echoed_line_and_the_file_name_are_escaped(cli: Any, tmp_path: Path) -> None:
    program = "import torch\nx = torch.ones(1, requires_grad=True)\ny = x * 2\n" \
              "y.sum().backward()\nz = (y.grad, '\x1b[2J')\n"
    result = cli("run", write(tmp_path, program), "--no-table")
    assert "UserWarning" in result.stderr and "'\\x1b[2J'" in result.stderr
    assert "\x1b" not in result.stderr
    named = cli("run", write(tmp_path, "x = y\n", "a\x1b[31m.expr"))
    assert named.exit_code == 1 and "a\\x1b[31m.expr:1:5: NameError" in named.stderr
    assert "\x1b" not in named.stderr
    # a newline in the file name would split the first line: FILE:LINE:COL stays one line
    split = cli("run", write(tmp_path, "x = y\n", "a\nb.expr"))
    first = split.stderr.splitlines()[0]
    assert first.endswith("a\\x0ab.expr:1:5: NameError: name 'y' is not defined")


def test_the_debugger_and_explain_escape_what_they_echo(cli: Any, tmp_path: Path) -> None:
    program = write(tmp_path, "x = 1\ns = '\x1b[2J\u202e'\ny = 2\n")
    listing = cli("debug", program, input="next\nlist\nquit\n")
    assert "s = '\\x1b[2J\\u202e'" in listing.stdout
    assert "\x1b" not in listing.stdout and "\u202e" not in listing.stdout
    explained = cli("explain", write(tmp_path, GOOD, "good.expr"), "y\x1b[2J", "x")
    assert explained.exit_code == 1 and "y\\x1b[2J is not defined" in explained.stderr
    assert "\x1b" not in explained.stderr


def test_a_reader_that_stops_early_ends_the_run_quietly(tmp_path: Path) -> None:
    """`agraph run prog | head -1`: the reader has what it wanted; no error, no traceback."""
    program = tmp_path / "many_lines.expr"
    program.write_text("for i in range(200000):\n    print(i)\n", encoding="utf-8")
    env = {**os.environ, "PYTHONUNBUFFERED": ""}
    process = subprocess.Popen([sys.executable, "-m", "autograd_cli", "run", str(program)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline() == b"0\n"
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=60) == 0
    assert b"BrokenPipe" not in stderr and b"Traceback" not in stderr


def test_a_file_name_that_is_not_utf8_keeps_every_output_utf8(tmp_path: Path) -> None:
    """Python holds the bytes of such a name as lone surrogates: JSON gets U+FFFD for them,
    messages and the HTML page's title their escapes, never the raw byte nor an internal error."""
    good = tmp_path / os.fsdecode(b"\xfe.expr")
    good.write_text(GOOD)
    bad = tmp_path / os.fsdecode(b"\xfb.expr")
    bad.write_text("x = (\n")
    for args in (["run", str(good), "--json"], ["lint", str(good), "--json"],
                 ["run", str(bad), "--json"]):
        result = run_agraph(*args)
        assert json.loads(result.stdout.decode("utf-8"))["file"].endswith("\ufffd.expr"), args
    written = run_agraph("run", str(good), "--json", "-o", str(tmp_path / "out.json"))
    assert written.returncode == 0, written.stderr
    assert json.loads((tmp_path / "out.json").read_bytes().decode("utf-8"))["file"].endswith(
        "\ufffd.expr")
    assert b"\\udcfb.expr:1:5: SyntaxError" in run_agraph("run", str(bad)).stderr
    if shutil.which("dot") is not None:
        page = run_agraph("render", str(good), "-o", str(tmp_path / "page.html"))
        assert page.returncode == 0, page.stderr
        assert "\\udcfe.expr</title>" in (tmp_path / "page.html").read_bytes().decode("utf-8")


def test_an_f_string_too_slow_to_parse_is_refused_before_any_parse(tmp_path: Path) -> None:
    """Python 3.11 parses an f-string in time its fields times its length: 100,000 `{1}` took
    9 s in one C call (at startup, where agraph looks for sets, and again in the checker),
    these 300,000 would take minutes. It is a SyntaxError at its place, at once (within the
    run's timeout); in eval() too."""
    fields = "{1}" * 300_000
    program = write(tmp_path, f'print(1)\nx = f"{fields}"\n')
    result = run_agraph("run", program, timeout=30)
    assert result.returncode == 1
    assert b"prog.expr:2:5: SyntaxError: f-strings with this many fields" in result.stderr
    program = write(tmp_path, f'x = eval(\'f"{fields}"\')\n')
    result = run_agraph("run", program, timeout=30)
    assert b"prog.expr:1:5: SyntaxError: f-strings with this many fields" in result.stderr
    program = write(tmp_path, "print(f'{1}{2}' * 2, {1: 2})\n" + "y = {1: 2}\n" * 12_000)
    assert run_agraph("run", program).stdout == b"1212 {1: 2}\n"  # many braces, no f-string
