"""The Sphinx extension (`autograd_cli.sphinx`) and the example docs site: a real Sphinx build
of docs/example-site (its Makefile: `%.svg: %.expr` rules, then sphinx-build with the
`.. agraph::` directive), twice from scratch, byte-identical; a failing program fails the build
with its FILE:LINE:COL error; results are cached by content."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.agraph_process import ROOT, agraph_executable, environment

pytest.importorskip("sphinx", reason="Sphinx is in the dev extra: pip install -e '.[dev]'")
SITE = ROOT / "docs" / "example-site"
BIN = Path(sys.executable).parent


def sphinx_build() -> str:
    beside = BIN / "sphinx-build"
    return str(beside) if beside.exists() else "sphinx-build"


def make(site: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "-C", str(site), f"AGRAPH={agraph_executable()}",
                           f"SPHINXBUILD={sphinx_build()}", *targets],
                          capture_output=True, text=True, timeout=600,
                          env=environment({"PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}))


def build(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sphinx_build(), "-q", "-b", "html", "-d", str(site / "_build/doctrees"),
                           str(site), str(site / "_build/html")], capture_output=True, text=True,
                          timeout=600, env=environment())


def files(directory: Path) -> dict[str, bytes]:
    return {str(path.relative_to(directory)): path.read_bytes()
            for path in sorted(directory.rglob("*")) if path.is_file()}


@pytest.mark.graphviz
@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_the_example_site_builds_twice_from_scratch_to_the_same_bytes(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for site in (first, second):
        shutil.copytree(SITE, site, ignore=shutil.ignore_patterns("_build", "_generated"))
        done = make(site)
        assert done.returncode == 0, done.stdout + done.stderr
    html = files(first / "_build" / "html")
    assert html == files(second / "_build" / "html")
    assert files(first / "_generated") == files(second / "_generated")
    page = html["index.html"].decode("utf-8")
    assert page.count('src="data:image/svg+xml;base64,') == 2  # the two svg directives
    assert '<pre class="mermaid">' in page and "TanhBackward0" in page
    assert "AddBackward0" in page and "requires_grad" in page  # the table
    assert "tensor([4.]) tensor([1.])" in page  # what the program printed
    assert (first / "_generated" / "chain.out.txt").read_text() == \
        "loss=0.0090 dloss/dx=-0.1028\n"


def small_site(tmp_path: Path, program: str, directive: str = "") -> Path:
    site = tmp_path / "site"
    (site / "programs").mkdir(parents=True)
    (site / "conf.py").write_text('extensions = ["autograd_cli.sphinx"]\n')
    (site / "programs" / "prog.expr").write_text(program)
    (site / "index.rst").write_text(f"Title\n=====\n\n.. agraph:: programs/prog.expr\n"
                                    f"   :format: mermaid\n{directive}")
    return site


def test_a_failing_program_fails_the_build_with_its_position(tmp_path: Path) -> None:
    site = small_site(tmp_path, "import torch\nx = torch.ones(2)\ny = x + undefined_name\n")
    for _ in range(2):  # an incremental build fails again until the program is fixed
        done = build(site)
        assert done.returncode == 1
        assert "index.rst:4: ERROR: agraph render failed:" in done.stderr
        assert "programs/prog.expr:3:9: NameError: name 'undefined_name' is not defined" \
            in done.stderr
        assert "Traceback" not in done.stderr
    (site / "programs" / "prog.expr").write_text("import torch\nx = torch.ones(2)\n")
    assert build(site).returncode == 0


def test_results_are_cached_by_content(tmp_path: Path) -> None:
    site = small_site(tmp_path, "import torch\nx = torch.ones(2, requires_grad=True)\n"
                                "y = (x * 3).sum()\n", "   :output:\n")
    assert build(site).returncode == 0
    cache = site / "_build" / "doctrees" / "agraph"
    entries = sorted(cache.iterdir())
    assert len(entries) == 2  # the picture and the run
    for entry in entries:  # a marker in place of each result: a rebuild must take it
        entry.write_bytes(b"flowchart TB\n    cached_marker\n" if b"flowchart" in
                          entry.read_bytes() else entry.read_bytes())
    (site / "index.rst").write_text((site / "index.rst").read_text() + "\nMore text.\n")
    assert build(site).returncode == 0
    assert "cached_marker" in (site / "_build" / "html" / "index.html").read_text()
    (site / "programs" / "prog.expr").write_text("import torch\nx = torch.ones(3, "
                                                 "requires_grad=True)\ny = (x * 4).sum()\n")
    assert build(site).returncode == 0  # the program changed: run again, page rebuilt
    page = (site / "_build" / "html" / "index.html").read_text()
    assert "cached_marker" not in page and "[3] float32" in page


def test_agraph_never_imports_sphinx(tmp_path: Path) -> None:
    program = tmp_path / "p.expr"
    program.write_text("import torch\nx = torch.ones(2, requires_grad=True)\nprint(x)\n")
    code = ("import sys\nfrom autograd_cli.cli.main import _main\n"
            "for command in (['run', sys.argv[1], '--table'], ['render', sys.argv[1], '-f', "
            "'json'], ['--help']):\n"
            "    sys.argv = ['agraph', *command]\n"
            "    try:\n        _main()\n    except SystemExit:\n        pass\n"
            "assert 'sphinx' not in sys.modules and 'docutils' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code, str(program)], capture_output=True,
                          text=True, cwd=ROOT, env=environment())
    assert done.returncode == 0, done.stderr
