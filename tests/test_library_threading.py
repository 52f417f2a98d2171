"""`threading` as the autograd notes use it: threads run one at a time, each to its end when
started, so a program whose threads compute and join prints what CPython prints (compared with a
fresh CPython run where the threads' output cannot interleave) and the same bytes every run."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from autograd_cli.language.interpreter import run_program

JOINED = """
    import threading
    lock = threading.Lock()
    totals = []
    def work(n, scale=1):
        with lock:
            totals.append(sum(range(n)) * scale)
    threads = [threading.Thread(target=work, args=(i,), kwargs={"scale": 2}) for i in range(4)]
    print(threads[0], threads[0].is_alive())
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(sorted(totals), [t.is_alive() for t in threads], threads[3].name)
    print(threading.current_thread().name, lock.locked())
    r = threading.RLock()
    with r:
        with r:
            pass
    e = threading.Event()
    print(e.is_set(), e.wait(0.01))
    e.set()
    print(e.is_set(), e.wait())
    for bad in (lambda: threads[0].start(), lambda: threading.Thread(target=work).join(),
                lambda: threading.Lock().release()):
        try:
            bad()
        except RuntimeError as error:
            print(error)
"""


def test_joined_threads_print_what_cpython_prints() -> None:
    expected = subprocess.run([sys.executable, "-c", textwrap.dedent(JOINED)],
                              capture_output=True, text=True, check=True).stdout
    first = run_program(textwrap.dedent(JOINED))
    assert first.error is None
    assert first.stdout == expected
    assert run_program(textwrap.dedent(JOINED)).stdout == first.stdout


def test_a_thread_runs_when_started_under_the_run_limits() -> None:
    result = run_program(textwrap.dedent("""
        import threading
        def spin():
            while True:
                pass
        threading.Thread(target=spin).start()
    """))
    assert result.error is not None and result.error.type_name == "LimitError"


@pytest.mark.parametrize("source", [
    "import threading\nthreading.Thread(target=print, args=('x',)).start()",
    "import threading\nt = threading.Thread(target=print)\nt.start()\nt.join()\nprint(t.name)",
])
def test_a_host_function_as_target(source: str) -> None:
    expected = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                              check=True).stdout
    assert run_program(source).stdout == expected
