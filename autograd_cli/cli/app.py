"""The `agraph` command line: thin typer commands over the language, the engine and renderers.

Exit codes (docs/architecture.md, ../shared/design.md): 0 the program ran to its end,
1 the program is wrong (or a limit was hit), 2 the command line is wrong, 3 an external tool
that the requested output needs (Graphviz `dot`) is missing.

Each command's arguments and options are declared in options.py; this module makes typer
parameters of them. The console script starts in main.py, which runs the simple command lines of
`run`, `render` and `check` without typer, from the same table.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from autograd_cli.cli.main import silence_stdout
from autograd_cli.cli.options import CHOICE, COMMANDS, FLAG, INT, OUTPUT, PATH, Command, Option
from autograd_cli.cli.usage import LIMITS_PANEL, AgraphCommand, choice_parser, number_parser
from autograd_cli.graph.paths import output_path
from autograd_cli.language.limits import DESCRIPTIONS, LIMIT_TYPES, Limits, option_name

app = typer.Typer(
    name="agraph",
    help="Run PyTorch-style autograd programs on agraph's own engine and see the graph they "
    "build.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version  # lazy: startup time (loaded only when used)

        print(f"agraph {version('agraph')}")
        raise typer.Exit(0)


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print agraph's version and exit.")] = False) -> None:
    """Run PyTorch-style autograd programs on agraph's own engine and see the graph they
    build."""


def with_limits(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command one `--max-...` option per field of `Limits`, handed over as `limits=`."""
    defaults = Limits()
    extra = [
        inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY,
            annotation=Annotated[kind,  # type: ignore[valid-type]
                                 typer.Option(option_name(name), help=DESCRIPTIONS[name],
                                              parser=number_parser(kind),
                                              rich_help_panel=LIMITS_PANEL,
                                              show_default=True)],
            default=getattr(defaults, name))
        for name, kind in LIMIT_TYPES.items()
    ]
    signature = inspect.signature(command, eval_str=True)
    params = [p for p in signature.parameters.values() if p.name != "limits"]

    def wrapper(**kwargs: Any) -> Any:
        values = {name: kwargs.pop(name) for name in LIMIT_TYPES}
        try:
            limits = Limits(**values)
        except ValueError as error:  # nan, inf, 0, -1: a usage error (exit 2)
            raise typer.BadParameter(str(error)) from None
        try:
            return command(limits=limits, **kwargs)
        except BrokenPipeError:  # the reader went away (`| head`); click would exit 1
            silence_stdout()
            raise typer.Exit(0) from None

    wrapper.__signature__ = signature.replace(parameters=params + extra)  # type: ignore
    wrapper.__doc__ = command.__doc__
    wrapper.__name__ = command.__name__
    return wrapper


def _parameter(option: Option) -> inspect.Parameter:
    """The typer parameter of one row of the options table."""
    value_type: Any = {FLAG: bool, INT: int, PATH: Path, OUTPUT: Path}.get(option.kind, str)
    if option.many:
        value_type = list[str]
    elif option.default is None:
        value_type = value_type | None
    settings: dict[str, Any] = {"help": option.help or None}
    if option.kind == CHOICE:  # agraph's own words for a wrong value, not click's
        settings["parser"] = choice_parser(option.choices)
    if option.default is None or option.argument:
        settings["show_default"] = False
    if option.metavar:
        settings["metavar"] = option.metavar
    if option.minimum is not None:
        settings["min"] = option.minimum
    if option.kind == OUTPUT:
        settings["parser"] = output_path
    if option.argument:
        info: Any = typer.Argument(**settings)
        default: Any = inspect.Parameter.empty
    else:
        names = option.names if not option.negative else (
            f"{option.names[0]}/{option.negative}",)
        info = typer.Option(*names, **settings)
        default = option.default
    return inspect.Parameter(option.param, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                             annotation=Annotated[value_type, info], default=default)


def _typer_command(name: str, spec: Command, work: Callable[..., int]) -> Callable[..., Any]:
    """A function typer can read: the table's parameters (and `limits=`); it passes the values,
    the choices as their words, to `work` and exits with its status."""

    def command(*, limits: Limits, **values: Any) -> None:
        raise typer.Exit(work(limits=limits, **values))

    command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [_parameter(option) for option in spec.options]
        + [inspect.Parameter("limits", inspect.Parameter.KEYWORD_ONLY, annotation=Limits)])
    command.__name__ = name
    command.__doc__ = spec.help
    return command


def _command(name: str, family: str) -> Callable[..., int]:
    """The function that runs command NAME, from its module, imported when it runs."""

    def work(**values: Any) -> int:
        if name == "run" and values["break_line"] is not None and values["json_output"]:
            raise typer.BadParameter("--break shows a table and stops; it cannot be combined "
                                     "with --json", param_hint="--break")
        if name == "render":
            values["unroll"] = unroll_count(values["unroll"])
            files = values.pop("file")
            from autograd_cli.cli import outputs  # lazy: startup time (loaded only when used)

            if len(files) > 1 or outputs.names_a_directory(values["output"]):
                if values["check_file"] is not None:
                    raise typer.BadParameter("--check compares one file; give one program",
                                             param_hint="--check")
                return outputs.render_many(files, **values)
            values["file"] = files[0]
        module = importlib.import_module(f"autograd_cli.cli.{family}")
        return getattr(module, name)(**values)  # type: ignore[no-any-return]
    return work


for _name, _spec in COMMANDS.items():
    app.command(name=_name, cls=AgraphCommand)(with_limits(_typer_command(
        _name, _spec, _command(_name, _spec.family))))


def unroll_count(text: str | None) -> int | None:
    """`--unroll` -> 0 (every iteration), `--unroll N` -> N, absent -> None (loops folded)."""
    if text is None or text == "all":
        return None if text is None else 0
    if not text.isdigit() or int(text) < 1:
        raise typer.BadParameter(f"{text!r}: give a number of iterations (1 or more), or "
                                 "nothing for all", param_hint="--unroll")
    return int(text)
