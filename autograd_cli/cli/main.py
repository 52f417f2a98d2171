"""The `agraph` entry point: the command line goes to typer (autograd_cli/cli/app.py), except the
simple ones of `run`, `render` and `check`, which start without it.

Why: typer takes longer to load than numpy (it loads pydantic to convert option values), and
`agraph run` of a small program should cost about what `python -c "import numpy"` does, and
`agraph render` in a docs build little more (README, "Performance"). A simple command line is
the command, its FILE, on/off flags and a few options whose value is a plain word from a fixed
list or a path. Anything else (another command, another option, `--help`, `--opt=value`, a
typo, a value typer would refuse) goes to typer, which owns the usage errors (exit 2). Both
read the options from options.py; tests/test_cli.py checks that they agree.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from typing import Any

from autograd_cli.cli.hash_seed import restart_with_fixed_hashes
from autograd_cli.cli.options import CHOICE, COMMANDS, FLAG, OUTPUT
from autograd_cli.language.errors import visible
from autograd_cli.language.limits import Limits
from engine import allocator, memory

PATH = "path"  # in VALUED: the option's value is a path

# Built from options.py, for the commands main.py may run without typer:
# command -> on/off flag -> (parameter of the command's function, value)
FLAGS: dict[str, dict[str, tuple[str, bool]]] = {}
# command -> option that takes the next argument -> (parameter, the words allowed or PATH)
VALUED: dict[str, dict[str, tuple[str, Any]]] = {}
# command -> what typer passes for each option the command line leaves out (but limits)
DEFAULTS: dict[str, dict[str, Any]] = {}
for _name, _command in COMMANDS.items():
    if not _command.fast:
        continue
    _options = [option for option in _command.options if not option.argument]
    FLAGS[_name] = {}
    VALUED[_name] = {}
    DEFAULTS[_name] = {option.param: option.default for option in _options}
    for _option in _options:
        if _option.fast and _option.kind == FLAG:
            FLAGS[_name].update({spelling: (_option.param, True) for spelling in _option.names})
            if _option.negative:
                FLAGS[_name][_option.negative] = (_option.param, False)
        elif _option.fast and _option.kind in (CHOICE, OUTPUT):
            allowed = _option.choices if _option.kind == CHOICE else PATH
            VALUED[_name].update({spelling: (_option.param, allowed)
                                  for spelling in _option.names})


def simple_command(arguments: list[str]) -> tuple[str, dict[str, Any]] | None:
    """(command, its keyword arguments but limits) for a simple command line, else None."""
    if not arguments or arguments[0] not in DEFAULTS:
        return None
    command = arguments[0]
    flags, valued = FLAGS[command], VALUED[command]
    chosen: dict[str, Any] = {}
    rest = iter(arguments[1:])
    for argument in rest:
        value: Any
        if argument in flags:
            name, value = flags[argument]
        elif argument in valued:
            name, allowed = valued[argument]
            value = _plain_value(next(rest, None), allowed)
            if value is None:
                return None
        elif argument == "-" or not argument.startswith("-"):
            name, value = "file", argument
        else:
            return None
        if name in chosen:
            return None  # a second FILE, an option given twice (or both ways)
        chosen[name] = value
    if "file" not in chosen:
        return None
    return command, {**DEFAULTS[command], **chosen}


def _plain_value(text: str | None, allowed: Any) -> Any:
    """The option's value if typer would take it as it is, else None."""
    if text is None or not text or text.startswith("-"):
        return None
    if allowed != PATH:
        return text if text in allowed else None
    from autograd_cli.graph.paths import OutputPath  # lazy: startup time (loaded only when used)

    return OutputPath(text)  # as typer's parser makes it: the text kept (a trailing "/")


def bare_unroll(arguments: list[str]) -> list[str]:
    """`--unroll` takes an optional value (`--unroll` every iteration, `--unroll 3` the first
    three), which click options cannot: a bare one is written `--unroll=all` for typer."""
    out = list(arguments)
    for index, argument in enumerate(out):
        if argument == "--":
            break
        following = out[index + 1] if index + 1 < len(out) else ""
        if argument == "--unroll" and not following.isdigit():
            out[index] = "--unroll=all"
    return out


def main() -> None:
    """Console-script entry point. A bug in agraph itself is reported in one line (set
    AGRAPH_DEBUG=1 for its traceback), never as a traceback the user must read."""
    restart_with_fixed_hashes()
    _leave(_main())


def _main() -> int:
    memory.count_whole_process()  # --max-memory bounds this process's peak, startup included
    allocator.pause_collector()  # resumed when the program starts (language/interpreter.py)
    try:
        argv = bare_unroll(sys.argv[1:])
        simple = simple_command(argv)
        if simple is None:
            from autograd_cli.cli.app import app  # lazy: autograd_cli.cli.app imports this module

            app(args=argv, prog_name="agraph")  # exits with the status (usage errors: 2)
            return 0

        command, arguments = simple
        module = importlib.import_module(f"autograd_cli.cli.{COMMANDS[command].family}")
        work: Callable[..., int] = getattr(module, command)
        return work(limits=Limits(), **arguments)
    except SystemExit as exit_:
        if exit_.code is None or isinstance(exit_.code, int):
            return exit_.code or 0
        sys.stderr.write(f"{exit_.code}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("agraph: interrupted\n")
        return 130
    except BrokenPipeError:  # the reader went away (`agraph run x.expr | head`): it had
        silence_stdout()   # what it wanted, and `set -o pipefail` builds must not fail
        return 0
    except MemoryError:  # never an "internal error": the machine has less memory than allowed
        # lazy: startup time (loaded only when used)
        from autograd_cli.language.bounds import out_of_memory

        sys.stderr.write(f"agraph: {out_of_memory('agraph')}\n")
        return 1
    except Exception as error:  # noqa: BLE001 - the last line of defence
        if os.environ.get("AGRAPH_DEBUG"):
            raise

        if type(error).__name__ == "LimitError" and type(error).__module__ == "engine.memory":
            sys.stderr.write(visible(f"agraph: LimitError: {error}\n"))  # a limit, not a bug
            return 1

        sys.stderr.write(visible(f"agraph: internal error: {type(error).__name__}: {error} "
                                 "(please report it; AGRAPH_DEBUG=1 shows the traceback)\n"))
        return 1
    finally:
        allocator.resume_collector()  # a command that ran no program


def _leave(status: int) -> None:
    """Flush stdout and stderr, then end the process at once: tearing down the heap of a run
    (a graph of a million nodes) takes seconds and leaves nothing to do. Files agraph writes
    are closed before this; a program stuck in a C call (a daemon thread) ends here too."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`| head`): it had what it wanted
        silence_stdout()
    except (OSError, ValueError):
        status = status or 1
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(status)


def silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's last flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
