"""Rules of the test suite itself: it runs where Graphviz is missing (the tests that need `dot`
are skipped with the reason) and no test asserts a wall-clock time (one failed under load)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import NO_DOT_REASON, ROOT

TESTS = Path(__file__).resolve().parent
TIMING = re.compile(r"assert[^\n]*(monotonic\(\)|perf_counter\(\)|process_time\(\)|time\(\)"
                    r"|elapsed|seconds\b[^\n]*<)|timeit\.")


def test_no_test_asserts_a_wall_clock_time() -> None:
    found = [f"{path.name}:{number}: {line.strip()}"
             for path in sorted(TESTS.glob("*.py")) if path.name != Path(__file__).name
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if TIMING.search(line)]
    assert found == []


def test_without_graphviz_the_tests_that_need_it_are_skipped_with_the_reason(
        tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"  # a PATH with Python but no `dot`
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           "tests/test_render_renderers.py", "tests/test_render_golden.py"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={"PATH": str(bin_dir), "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stdout[-3000:]
    assert "failed" not in done.stdout
    assert done.stdout.count(NO_DOT_REASON) >= 2, done.stdout[-3000:]
