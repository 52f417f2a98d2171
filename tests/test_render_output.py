"""`write_atomically`: whole or nothing, never over the input program, never mkdir -p."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autograd_cli.graph.rendering import OutputError, write_atomically


def test_writes_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "out.svg"
    write_atomically(target, b"one")
    write_atomically(target, b"two")
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.svg"]  # no temp file left


def test_refuses_the_input_program(tmp_path: Path) -> None:
    program = tmp_path / "x.expr"
    program.write_text("import torch\n")
    link = tmp_path / "link.svg"
    link.symlink_to(program)
    hard = tmp_path / "hard.svg"
    os.link(program, hard)
    for target in (program, link, hard, tmp_path / "." / "x.expr"):
        with pytest.raises(OutputError, match="input program"):
            write_atomically(target, b"<svg/>", input_path=program)
    with pytest.raises(OutputError, match="input program"):  # the input given through a link
        write_atomically(program, b"<svg/>", input_path=link)
    assert program.read_text() == "import torch\n"


def test_stdin_input_is_not_a_file(tmp_path: Path) -> None:
    write_atomically(tmp_path / "-.svg", b"ok", input_path="-")
    assert (tmp_path / "-.svg").read_bytes() == b"ok"


def test_missing_directory_is_an_error_not_created(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="does not exist"):
        write_atomically(tmp_path / "no" / "such" / "out.svg", b"x")
    assert not (tmp_path / "no").exists()


def test_directory_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="is a directory"):
        write_atomically(tmp_path, b"x")


def test_failed_write_leaves_old_file_and_no_temp(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out.svg"
    target.write_bytes(b"old")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OutputError, match="No space left"):
        write_atomically(target, b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.svg"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_directory(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="cannot write"):
            write_atomically(locked / "out.svg", b"x")
    finally:
        locked.chmod(0o700)
