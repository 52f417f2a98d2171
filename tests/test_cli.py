"""The command line, through typer's runner and as a real process: exit codes, the error
format with its caret, stdin, the --json contract, the table, check, render's output rules."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.conftest import SAMPLES, run_agraph

GOOD = "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * x + x\ny.backward()\n" \
       "print('y =', y, 'grad =', x.grad)\n"
BAD_NAME = "import torch\nx = torch.tensor(1.0)\ny = x + undefined_name\n"


def write(tmp_path: Path, text: str, name: str = "prog.expr") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_run_prints_program_output_exactly(cli: Any, tmp_path: Path) -> None:
    result = cli("run", write(tmp_path, GOOD))
    assert result.exit_code == 0
    assert result.stdout == "y = tensor(6., grad_fn=<AddBackward0>) grad = tensor(5.)\n"


def test_run_table_lists_every_tensor(cli: Any, tmp_path: Path) -> None:
    result = cli("run", write(tmp_path, GOOD), "--table")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    header = next(line for line in lines if "requires_grad" in line)
    for column in ("name", "shape", "dtype", "value", "is_leaf", "grad", "grad_fn",
                   "retains_grad"):
        assert column in header
    row_x = next(line for line in lines if line.startswith("│ x "))
    assert "True" in row_x and "5." in row_x and "None" in row_x
    row_y = next(line for line in lines if line.startswith("│ y "))
    assert "AddBackward0" in row_y and "6." in row_y


def test_no_table_leaves_it_out(cli: Any, tmp_path: Path) -> None:
    result = cli("run", write(tmp_path, GOOD), "--no-table")
    assert "requires_grad" not in result.stdout


def test_error_format_with_caret_under_the_failing_expression(cli: Any, tmp_path: Path) -> None:
    path = write(tmp_path, BAD_NAME)
    result = cli("run", path)
    assert result.exit_code == 1
    first, source, caret = result.stderr.splitlines()[:3]
    assert first == f"{path}:3:9: NameError: name 'undefined_name' is not defined"
    assert source.strip() == "y = x + undefined_name"
    assert caret.index("^") == source.index("undefined_name")
    assert "Traceback" not in result.stderr


def test_runtime_error_is_located_and_table_still_printed(cli: Any, tmp_path: Path) -> None:
    program = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
               "y = x * 2\ny.backward()\n")
    result = cli("run", write(tmp_path, program), "--table")
    assert result.exit_code == 1
    assert ":4:1: RuntimeError: grad can be implicitly created only for scalar outputs" \
        in result.stderr
    assert "MulBackward0" in result.stdout  # the table of tensors as they stood


def test_json_contract(cli: Any, tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    result = cli("run", path, "--json")
    document = json.loads(result.stdout)
    assert set(document) >= {"version", "file", "stdout", "error", "tensors", "graph"}
    assert document["version"] == 1 and document["file"] == path and document["error"] is None
    assert document["stdout"].startswith("y = tensor(6.")
    x = next(t for t in document["tensors"] if t["name"] == "x")
    assert x == {"name": "x", "shape": [], "dtype": "float32", "data": 2.0,
                 "requires_grad": True, "is_leaf": True, "grad": 5.0, "grad_fn": None,
                 "retains_grad": False, "class": "Tensor"}
    assert [t["name"] for t in document["tensors"]] == ["x", "y"]
    assert {"nodes", "edges"} <= set(document["graph"])


def test_json_error_object_and_nan_strings(cli: Any, tmp_path: Path) -> None:
    program = "import torch\nz = torch.tensor([float('nan'), float('inf')])\nq = 1 / 0\n"
    result = cli("run", write(tmp_path, program), "--json")
    document = json.loads(result.stdout)
    assert result.exit_code == 1
    assert document["error"]["type"] == "ZeroDivisionError"
    assert (document["error"]["line"], document["error"]["col"]) == (3, 5)
    assert document["tensors"][0]["data"] == ["nan", "inf"]


def test_stdin_dash(cli: Any) -> None:
    result = cli("run", "-", input=GOOD)
    assert result.exit_code == 0 and result.stdout.startswith("y = tensor(6.")
    bad = cli("run", "-", input=BAD_NAME)
    assert bad.exit_code == 1 and bad.stderr.startswith("<stdin>:3:9: NameError")


def test_check_validates_without_running(cli: Any, tmp_path: Path) -> None:
    assert cli("check", write(tmp_path, "import torch\nprint('hi')\n")).stdout == ""
    refused = cli("check", write(tmp_path, "import subprocess\n"))
    assert refused.exit_code == 1 and ":1:1:" in refused.stderr


def test_usage_errors_exit_2(cli: Any) -> None:
    assert cli("run").exit_code == 2
    assert cli("render", str(SAMPLES / "leaf_nodes.expr"), "--format", "gif").exit_code == 2
    assert cli("frobnicate").exit_code == 2


def test_unreadable_inputs_get_one_line_errors(cli: Any, tmp_path: Path) -> None:
    missing = cli("run", str(tmp_path / "nope.expr"))
    assert missing.exit_code == 2 and "nope.expr" in missing.stderr  # the command line's mistake
    directory = cli("run", str(tmp_path))
    assert directory.exit_code == 2 and "directory" in directory.stderr.lower()
    (tmp_path / "latin1.expr").write_bytes(b"print('caf\xe9')\n")
    latin = cli("run", str(tmp_path / "latin1.expr"))
    assert latin.exit_code == 1 and "latin1.expr:1" in latin.stderr
    (tmp_path / "empty.expr").write_bytes(b"")
    assert cli("run", str(tmp_path / "empty.expr")).exit_code == 0


def test_crlf_and_bom_work(cli: Any, tmp_path: Path) -> None:
    path = tmp_path / "crlf.expr"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode())
    result = cli("run", str(path))
    assert result.exit_code == 0 and result.stdout.startswith("y = tensor(6.")


def test_render_dot_to_stdout_and_file(cli: Any, tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    dot = cli("render", path, "--format", "dot")
    assert dot.exit_code == 0 and dot.stdout.startswith("digraph")
    out = tmp_path / "g.dot"
    assert cli("render", path, "--format", "dot", "-o", str(out)).exit_code == 0
    assert out.read_text() == dot.stdout
    assert cli("render", path, "--format", "dot", "--check", str(out)).exit_code == 0
    out.write_text("stale")
    assert cli("render", path, "--format", "dot", "--check", str(out)).exit_code == 1


def test_render_refuses_to_overwrite_the_input(cli: Any, tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    result = cli("render", path, "--format", "dot", "-o", str(tmp_path / "." / "prog.expr"))
    assert result.exit_code == 2
    assert Path(path).read_text() == GOOD


def test_render_missing_directory_is_not_created(cli: Any, tmp_path: Path) -> None:
    result = cli("render", write(tmp_path, GOOD), "--format", "dot", "-o",
                 str(tmp_path / "no" / "dir" / "g.dot"))
    assert result.exit_code == 2 and not (tmp_path / "no").exists()


def test_real_process_run_and_exit_codes(tmp_path: Path) -> None:
    ok = run_agraph("run", str(SAMPLES / "computation_graph.expr"))
    assert ok.returncode == 0 and b"is_leaf:" in ok.stdout
    assert b"UserWarning" in ok.stderr  # PyTorch's non-leaf .grad warning, with the line
    bad = run_agraph("run", "-", input=BAD_NAME.encode())
    assert bad.returncode == 1 and bad.stderr.startswith(b"<stdin>:3:9: NameError")
    assert run_agraph("--bogus").returncode == 2


def test_missing_dot_exits_3_and_says_what_still_works(tmp_path: Path) -> None:
    program = write(tmp_path, GOOD)
    env = dict(os.environ, PATH=str(tmp_path))  # a PATH without Graphviz
    result = subprocess_run(["render", program, "--svg"], env)
    assert result.returncode == 3
    assert b"graphviz" in result.stderr.lower() and b"--format dot" in result.stderr
    assert b"Traceback" not in result.stderr
    dot = subprocess_run(["render", program, "--format", "dot"], env)
    assert dot.returncode == 0 and dot.stdout.startswith(b"digraph")


def subprocess_run(args: list[str], env: dict[str, str]) -> Any:
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "autograd_cli", *args], capture_output=True,
                          env=env, timeout=60)



def test_simple_command_lines_read_without_typer_mean_what_they_mean_to_typer() -> None:
    """main.py starts simple command lines without typer: each flag and option it reads must
    be typer's (same parameter, same value, values typer accepts), and each option it leaves
    out must get typer's default."""
    from enum import Enum

    import typer.main

    from autograd_cli.cli.app import app
    from autograd_cli.cli.main import DEFAULTS, FLAGS, PATH, VALUED
    from autograd_cli.language.limits import Limits
    from renderers.formats import FORMATS, VIEWS

    limit_names = set(Limits._fields)
    commands: Any = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    assert set(DEFAULTS) == set(FLAGS) == set(VALUED)
    for name in DEFAULTS:
        params = [p for p in commands[name].params
                  if p.name not in ("file", "files") and p.name not in limit_names]
        flags: dict[str, tuple[str, bool]] = {}
        for param in params:
            if getattr(param, "is_flag", False):
                flags.update({option: (param.name, True) for option in param.opts})
                flags.update({option: (param.name, False) for option in param.secondary_opts})
        assert FLAGS[name] == flags, name
        assert DEFAULTS[name] == {p.name: p.default.value if isinstance(p.default, Enum)
                                  else p.default for p in params}, name
        by_option = {option: p for p in params for option in p.opts}
        for option, (parameter, allowed) in VALUED[name].items():
            param = by_option[option]
            assert param.name == parameter and not param.is_flag, option
            if allowed == PATH:
                assert param.type_descriptor.annotation is Path, option
            elif param.type_descriptor.choices is not None:
                assert allowed == tuple(c.value for c in param.type_descriptor.choices), option
            else:  # a parser of autograd_cli/cli/usage.py over the same words
                assert allowed in (FORMATS, VIEWS, ("TB", "LR")), option


def test_only_simple_command_lines_skip_typer() -> None:
    from autograd_cli.cli.main import DEFAULTS, simple_command

    assert simple_command(["run", "a.expr"]) == ("run", {**DEFAULTS["run"], "file": "a.expr"})
    assert simple_command(["run", "--json", "-", "--no-table"]) == (
        "run", {**DEFAULTS["run"], "file": "-", "json_output": True, "table": False})
    assert simple_command(["render", "a", "-f", "dot", "-o", "x.dot", "--no-legend"]) == (
        "render", {**DEFAULTS["render"], "file": "a", "fmt": "dot", "output": Path("x.dot"),
                   "legend": False})
    assert simple_command(["check", "a"]) == ("check", {"file": "a"})
    for typers in (["run"], ["run", "a", "b"], ["run", "a", "--max-steps", "5"],
                   ["run", "a", "--watch", "loss"], ["run", "--help"], ["run", "-x"],
                   ["run", "--", "a"], ["run", "a", "--json", "--json"],
                   ["run", "a", "--table", "--no-table"], ["run", "a", "--jso"],
                   ["render", "a", "--format"], ["render", "a", "--format", "gif"],
                   ["render", "a", "--format=dot"], ["render", "a", "-o", ""],
                   ["render", "a", "-o", "-"], ["render", "a", "--svg", "--svg"],
                   ["render", "a", "--max-nodes", "5"], ["explain", "a", "y", "w"],
                   ["--help"], []):
        assert simple_command(typers) is None, typers


def test_simple_command_lines_without_typer_do_what_typer_does(cli: Any, tmp_path: Path
                                                                ) -> None:
    path = write(tmp_path, GOOD + "z = y.grad\nprint(undefined)\n")
    runs = [["run", path], ["run", path, "--json"], ["run", path, "--no-table", "--no-lint"],
            ["run", path, "--lint", "--trace"], ["run", path, "--detect-anomaly", "--table"],
            ["check", path], ["check", str(tmp_path / "missing.expr")],
            ["render", write(tmp_path, GOOD, "good.expr"), "-f", "dot", "--view", "backward"],
            ["render", str(tmp_path / "good.expr"), "--format", "json", "--no-values"],
            ["render", path, "--format", "mermaid", "--rankdir", "LR"]]
    for arguments in runs:
        process = run_agraph(*arguments)
        in_typer = cli(*arguments)
        assert process.returncode == in_typer.exit_code, arguments
        assert process.stdout.decode() == in_typer.stdout, arguments
        assert process.stderr.decode() == in_typer.stderr, arguments
    out = tmp_path / "out.dot"
    assert run_agraph("render", path, "--format", "dot", "-o", str(out)).returncode == 1
    assert run_agraph("render", str(tmp_path / "good.expr"), "--format", "dot", "-o",
                      str(out)).returncode == 0
    assert out.read_text() == cli("render", str(tmp_path / "good.expr"), "-f", "dot").stdout


def test_graph_node_limit_names_its_option(cli: Any, tmp_path: Path) -> None:
    program = ("import torch\nx = torch.tensor(1.0, requires_grad=True)\ny = x\n"
               "for i in range(50):\n    y = y * 1.0\ny.backward()\n")
    path = write(tmp_path, program)
    limited = cli("run", path, "--max-graph-nodes", "20")
    assert limited.exit_code == 1
    assert ":6:1: LimitError: the graph to backpropagate through has 51 nodes" in limited.stderr
    assert "--max-graph-nodes" in limited.stderr
    assert cli("run", path).exit_code == 0
