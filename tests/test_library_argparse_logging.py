"""`argparse` and `logging` as scripts use them: each program's output (and standard error) is
compared with what CPython itself prints for the same program, run in a fresh interpreter."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import textwrap

import pytest

from autograd_cli.language.interpreter import run_program

PARSER = """
    import argparse
    parser = argparse.ArgumentParser(prog="train.py", description="Train a small net")
    parser.add_argument("--epochs", type=int, default=5, help="passes over the data")
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--name", default="net", choices=["net", "mlp"])
    parser.add_argument("-v", "--verbose", action="count", default=0)
    parser.add_argument("--no-cuda", action="store_true", default=False)
    parser.add_argument("--layers", nargs="+", type=int, default=[4, 8])
    group = parser.add_argument_group("data")
    group.add_argument("--batch-size", type=int, default=64, metavar="N")
"""


def agraph(source: str) -> tuple[str, str, str | None]:
    """stdout, stderr and the error line of an agraph run."""
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        result = run_program(textwrap.dedent(source))
    error = result.error and f"{result.error.type_name}: {result.error.message}"
    return result.stdout, stderr.getvalue(), error


def cpython(source: str) -> tuple[str, str]:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(source)], capture_output=True,
                          text=True, check=False)
    return done.stdout, done.stderr


@pytest.mark.parametrize("body", [
    "args = parser.parse_args()\nprint(args)\nprint(args.epochs * args.lr, args.no_cuda)",
    "args = parser.parse_args(args=[])\nprint(args.batch_size, 'lr' in args, 'x' in args)",
    "args = parser.parse_args(['--lr', '0.01', '-vv', '--layers', '3', '5', '--no-cuda'])\n"
    "print(args)",
    "args, rest = parser.parse_known_args(['--epochs', '7', '--other', '1'])\n"
    "print(args.epochs, rest)",
    "parser.set_defaults(lr=0.5)\nprint(parser.get_default('lr'), parser.parse_args([]).lr)",
    "parser.print_help()",
    "print(parser.format_usage(), end='')",
    "ns = argparse.Namespace(a=1, b='x')\nns.c = [1, 2]\nprint(ns, ns.a)\n"
    "print(parser.parse_args(['--epochs', '2'], namespace=ns))",
    "try:\n    parser.parse_args(['--epochs', 'x'])\nexcept SystemExit as stop:\n"
    "    print('exit', stop.code)",
    "try:\n    parser.parse_args(['--name', 'cnn'])\nexcept SystemExit as stop:\n"
    "    print('exit', stop.code)",
])
def test_argparse_parses_as_cpython(body: str) -> None:
    source = textwrap.dedent(PARSER) + body + "\n"
    stdout, stderr, error = agraph(source)
    assert error is None
    assert (stdout, stderr) == cpython(source)


def test_an_uncaught_parse_error_ends_the_run_as_systemexit() -> None:
    stdout, stderr, error = agraph(textwrap.dedent(PARSER) + "parser.parse_args(['--bad'])\n")
    assert error == "SystemExit: 2"
    assert stderr.endswith("train.py: error: unrecognized arguments: --bad\n")


@pytest.mark.parametrize("ending", ["parser.parse_args(['-h'])", "raise SystemExit",
                                    "raise SystemExit(0)"])
def test_an_uncaught_exit_with_code_0_ends_the_run_normally(ending: str) -> None:
    """As in Python: `--help` prints the help and the program ends there, without an error."""
    source = textwrap.dedent(PARSER) + f"print('before')\n{ending}\nprint('never')\n"
    stdout, stderr, error = agraph(source)
    assert error is None
    assert (stdout, stderr) == cpython(source)


def test_argparse_refuses_what_reaches_the_host() -> None:
    for line, message in [
        ("argparse.FileType('w')", "argparse.FileType is not available in agraph"),
        ("parser.add_argument('--x', action=print)", "argparse action"),
        ("parser.add_argument('--x', type=3)", "3 is not callable"),
        ("parser.add_argument('--x', nargs=10**9)", "over agraph's limit"),
        ("parser.add_argument('--x', choices=range(10**12))", "LimitError"),
    ]:
        _, _, error = agraph(f"import argparse\nparser = argparse.ArgumentParser()\n{line}\n")
        assert error is not None and message in error


@pytest.mark.parametrize("source", [
    # no configuration: a named logger prints WARNING and above as the bare message
    """
    import logging
    log = logging.getLogger("train")
    log.warning("no handler: %d items", 3)
    log.info("not shown")
    print(log, log.getEffectiveLevel())
    """,
    # a module-level call configures the root logger
    """
    import logging
    logging.info("not shown")
    logging.warning("root warns %s", [1, 2])
    logging.error("and errors")
    print(logging.getLogger())
    """,
    # basicConfig with a level and a format; the tutorials' getLogger(__name__)
    """
    import logging
    logging.basicConfig(level=logging.DEBUG, format="%(levelname)s %(name)s: %(message)s")
    logger = logging.getLogger(__name__)
    logger.debug("step %d loss %.4f", 10, 0.12345)
    logger.setLevel(logging.WARNING)
    logger.info("hidden")
    print(logger.isEnabledFor(logging.INFO), logging.getLevelName(20), logging.INFO)
    """,
    # handlers and formatters of the program's own, to stdout and stderr
    """
    import logging
    import sys
    log = logging.getLogger("a.b")
    out = logging.StreamHandler(sys.stdout)
    out.setFormatter(logging.Formatter("[%(levelname)s] %(name)s %(message)s"))
    log.addHandler(out)
    log.addHandler(logging.StreamHandler())
    log.warning("to both")
    print(log.getChild("c").name, log.hasHandlers(), log.propagate)
    log.propagate = False
    log.warning("to its own handlers only")
    """,
])
def test_logging_prints_as_cpython(source: str) -> None:
    stdout, stderr, error = agraph(source)
    assert error is None
    assert (stdout, stderr) == cpython(source)


def test_logging_to_a_file_is_refused() -> None:
    _, _, error = agraph("import logging\nlogging.basicConfig(filename='log.txt')\n")
    assert error is not None and "logging to files is not available in agraph" in error
    _, _, error = agraph("import logging\nlogging.basicConfig(format='%(message)s' * 10**5)\n")
    assert error is not None and "a logging format is a str of at most" in error
    _, _, error = agraph("import logging\nlogging.FileHandler('log.txt')\n")
    assert error is not None and "logging.FileHandler is not available in agraph" in error


def test_a_runs_loggers_are_its_own() -> None:
    first = "import logging\nlogging.basicConfig(level=logging.DEBUG)\nlogging.debug('one')\n"
    second = "import logging\nlogging.debug('two')\nlogging.warning('three')\n"
    assert agraph(first)[1] == "DEBUG:root:one\n"
    assert agraph(second)[1] == "WARNING:root:three\n"  # the first run's level did not stay


def test_systemexit_is_the_programs_to_catch_and_raise() -> None:
    source = """
        class Stop(SystemExit):
            pass
        for value in [(), (3,), ("bye",), (1, 2)]:
            try:
                raise Stop(*value)
            except SystemExit as stop:
                print(stop.code, stop.args, isinstance(stop, Stop))
    """
    stdout, _, error = agraph(source)
    assert error is None
    assert stdout == cpython(source)[0]
    assert agraph("raise SystemExit('bye')\n")[2] == "SystemExit: bye"
