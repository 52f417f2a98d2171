"""One command-line convention, through the real `agraph`: output files (the format follows
`-o`'s extension, a contradicting --format is a usage error, `run -o` is atomic and writes
nothing for a failed program, `--check`), batch rendering into a directory, `--version`, `-h`,
`FILE` in usage lines, every option with help, the limits in their own panel, messages without
a library's prefix, exit 2 for every command-line mistake."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.agraph_process import agraph, has_dot

GOOD = ("import torch\nx = torch.tensor([2.0], requires_grad=True)\ny = x * x\ny.backward()\n"
        "print('grad', x.grad)\n")
BROKEN = "import torch\nprint('partial')\nx = torch.ones(2)\ny = x + missing_name\n"
COMMANDS = ["run", "render", "explain", "debug", "check", "lint"]


def write(directory: Path, text: str, name: str = "prog.expr") -> str:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- output files -------------------------------------------------------------------------

@pytest.mark.parametrize("suffix, starts", [(".dot", b"digraph"), (".json", b"{"),
                                            (".mmd", b"flowchart"), (".svg", b"<?xml"),
                                            (".png", b"\x89PNG"), (".pdf", b"%PDF")])
def test_the_format_follows_the_output_extension(suffix: str, starts: bytes,
                                                 tmp_path: Path) -> None:
    if suffix in (".svg", ".png", ".pdf") and not has_dot():
        pytest.skip("Graphviz's `dot` is not installed")
    out = tmp_path / f"graph{suffix}"
    result = agraph("render", write(tmp_path, GOOD), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(starts)


def test_a_format_that_contradicts_the_extension_is_a_usage_error(tmp_path: Path) -> None:
    out = tmp_path / "graph.png"
    result = agraph("render", write(tmp_path, GOOD), "--format", "dot", "-o", str(out))
    assert result.returncode == 2
    assert b".png" in result.stderr and b"dot" in result.stderr
    assert result.stdout == b"" and not out.exists()
    same = agraph("render", write(tmp_path, GOOD), "--format", "dot", "-o",
                  str(tmp_path / "g.dot"))
    assert same.returncode == 0


def test_run_output_file_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    ok = agraph("run", write(tmp_path, GOOD), "-o", str(out))
    assert ok.returncode == 0 and ok.stdout == b""
    assert out.read_text() == "grad tensor([4.])\n"
    failed = agraph("run", write(tmp_path, BROKEN, "broken.expr"), "-o", str(out))
    assert failed.returncode == 1 and b"broken.expr:4:9: NameError" in failed.stderr
    assert out.read_text() == "grad tensor([4.])\n"  # the last good output, untouched
    fresh = tmp_path / "fresh.txt"
    agraph("run", str(tmp_path / "broken.expr"), "-o", str(fresh))
    assert not fresh.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".agraph")] == []


def test_run_check_exits_1_when_the_output_would_differ(tmp_path: Path) -> None:
    program, out = write(tmp_path, GOOD), tmp_path / "out.txt"
    assert agraph("run", program, "-o", str(out)).returncode == 0
    assert agraph("run", program, "--check", str(out)).returncode == 0
    out.write_text("grad tensor([5.])\n")
    stale = agraph("run", program, "--check", str(out))
    assert stale.returncode == 1 and str(out).encode() in stale.stderr
    assert out.read_text() == "grad tensor([5.])\n"  # --check never writes


def test_run_json_and_table_go_to_the_output_file(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    assert agraph("run", write(tmp_path, GOOD), "--json", "-o", str(out)).returncode == 0
    assert out.read_text().startswith('{"version": 1')
    table = tmp_path / "table.txt"
    assert agraph("run", write(tmp_path, GOOD), "--table", "-o", str(table)).returncode == 0
    assert "MulBackward0" in table.read_text() and "\x1b[" not in table.read_text()


# --- batch rendering ------------------------------------------------------------------------

def test_render_many_programs_into_a_directory(tmp_path: Path) -> None:
    programs = [write(tmp_path, GOOD, "a.expr"), write(tmp_path, BROKEN, "b.expr"),
                write(tmp_path, GOOD.replace("2.0", "3.0"), "c.expr")]
    out = tmp_path / "out"
    out.mkdir()
    result = agraph("render", *programs, "--format", "dot", "-o", f"{out}/")
    assert result.returncode == 1  # b failed
    assert sorted(p.name for p in out.iterdir()) == ["a.dot", "c.dot"]
    assert b"b.expr:4:9: NameError" in result.stderr
    assert b"1 of 3 programs not drawn: " in result.stderr and b"b.expr" in result.stderr
    single = agraph("render", programs[0], "--format", "dot")
    assert (out / "a.dot").read_bytes() == single.stdout


def test_render_many_needs_a_directory(tmp_path: Path) -> None:
    a, b = write(tmp_path, GOOD, "a.expr"), write(tmp_path, GOOD, "b.expr")
    assert agraph("render", a, b, "--format", "dot").returncode == 2
    missing = agraph("render", a, b, "--format", "dot", "-o", str(tmp_path / "nodir") + "/")
    assert missing.returncode == 2 and not (tmp_path / "nodir").exists()
    (tmp_path / "sub").mkdir()
    twice = agraph("render", a, str(tmp_path / "sub" / ".." / "a.expr"), "-f", "dot",
                   "-o", str(tmp_path / "sub"))
    assert twice.returncode == 2 and b"would both be written" in twice.stderr


# --- one convention -----------------------------------------------------------------------

def test_version_and_short_help() -> None:
    version = agraph("--version")
    assert version.returncode == 0 and re.fullmatch(rb"agraph \d+\.\d+\.\d+\S*\n",
                                                    version.stdout)
    for command in COMMANDS:
        short = agraph(command, "-h", env={"COLUMNS": "100"})
        assert short.returncode == 0
        assert short.stdout == agraph(command, "--help", env={"COLUMNS": "100"}).stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_file_every_option_explained_and_limits_apart(command: str) -> None:
    text = agraph(command, "--help", env={"COLUMNS": "200", "NO_COLOR": "1"}).stdout.decode()
    assert "FILE" in text and "{file}" not in text
    usage = text.splitlines()[0] if text.strip() else ""
    assert "FILE" in usage
    if command == "explain":  # the arguments as README.md names them
        assert usage.endswith("FILE OUTPUT INPUT")
    before_limits = text.split("Limits", 1)[0]
    assert "--max-steps" not in before_limits  # the limits have their own panel
    assert "--max-steps" in text
    for line in before_limits.splitlines():
        match = re.match(r"\W*(--[a-z-]+)(?:[ ,/]+-\w)?(?:\s+[A-Z]+)?\s*(.*?)\W*$", line)
        if match and match.group(1) not in ("--help",):
            assert match.group(2), f"{command} {match.group(1)} has no help: {line!r}"


def test_render_svg_flag_still_works(tmp_path: Path) -> None:
    if not has_dot():
        pytest.skip("Graphviz's `dot` is not installed")
    result = agraph("render", write(tmp_path, GOOD), "--svg")
    assert result.returncode == 0 and result.stdout.startswith(b"<?xml")


@pytest.mark.parametrize("args", [
    ["render", "{file}", "--format", "gif"], ["render", "{file}", "--view", "sideways"],
    ["run", "{file}", "--bogus"], ["run"], ["frobnicate"], ["run", "{missing}"],
    ["run", "{file}", "--max-steps", "lots"], ["render", "{file}", "-o", "{nodir}"],
])
def test_every_command_line_mistake_exits_2_without_a_library_prefix(args: list[str],
                                                                     tmp_path: Path) -> None:
    values = {"{file}": write(tmp_path, GOOD), "{missing}": str(tmp_path / "missing.expr"),
              "{nodir}": str(tmp_path / "nodir" / "x.dot")}
    result = agraph(*(values.get(a, a) for a in args))
    assert result.returncode == 2, result.stderr
    message = result.stderr.decode()
    assert "Value error" not in message and "Traceback" not in message
    assert "pydantic" not in message.lower()
