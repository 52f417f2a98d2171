"""The `agraph` command line: thin typer commands over the language, the engine and renderers.

Exit codes (docs/architecture.md, ../shared/design.md): 0 the program ran to its end,
1 the program is wrong (or a limit was hit), 2 the command line is wrong, 3 an external tool
that the requested output needs (Graphviz `dot`) is missing.

The console script starts in autograd_cli/cli/main.py, which runs the simple command lines of
`run`, `render` and `check` without loading typer: a change to their options is made there too
(tests/test_cli.py compares the two).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from autograd_cli.graph.paths import output_path
from autograd_cli.language.limits import Limits, option_name

app = typer.Typer(
    name="agraph",
    help="Run PyTorch-style autograd programs on agraph's own engine and see the graph they "
    "build.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

FileArg = Annotated[str, typer.Argument(help="The .expr program, or - to read it from stdin.",
                                        show_default=False)]


class Format(str, Enum):
    svg = "svg"
    png = "png"
    pdf = "pdf"
    dot = "dot"
    json = "json"
    mermaid = "mermaid"
    html = "html"


class View(str, Enum):
    forward = "forward"
    backward = "backward"


class Rankdir(str, Enum):
    TB = "TB"
    LR = "LR"


def with_limits(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command one `--max-...` option per field of `Limits`, handed over as `limits=`."""
    defaults = Limits()
    fields = dataclasses.fields(Limits)
    extra = [
        inspect.Parameter(
            field.name, inspect.Parameter.KEYWORD_ONLY,
            annotation=Annotated[float if field.type in ("float", float) else int,  # type: ignore
                                 typer.Option(option_name(field.name),
                                              help=f"Limit: {field.name.replace('_', ' ')}.",
                                              rich_help_panel="Limits", show_default=True)],
            default=getattr(defaults, field.name))
        for field in fields
    ]
    signature = inspect.signature(command, eval_str=True)
    params = [p for p in signature.parameters.values() if p.name != "limits"]

    def wrapper(**kwargs: Any) -> Any:
        values = {f.name: kwargs.pop(f.name) for f in fields}
        try:
            limits = Limits(**values)
        except ValueError as error:  # nan, inf, 0, -1: a usage error (exit 2)
            raise typer.BadParameter(str(error)) from None
        return command(limits=limits, **kwargs)

    wrapper.__signature__ = signature.replace(parameters=params + extra)  # type: ignore
    wrapper.__doc__ = command.__doc__
    wrapper.__name__ = command.__name__
    return wrapper


@app.command()
@with_limits
def run(
    file: FileArg,
    json_output: Annotated[bool, typer.Option("--json", help="Write one JSON object (the "
                                              "program's output, error, tensors, graph).")
                           ] = False,
    table: Annotated[bool | None, typer.Option("--table/--no-table", help="Show the table of "
                                               "the program's tensors after it ran (default: "
                                               "only when stdout is a terminal).",
                                               show_default=False)] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="Also render the graph to this SVG "
                                             "file.", show_default=False,
                                             parser=output_path)] = None,
    trace: Annotated[bool, typer.Option("--trace", help="Write a line to stderr for each op as "
                                        "it runs and each node backward visits.")] = False,
    detect_anomaly: Annotated[bool, typer.Option("--detect-anomaly", help="Stop at the first "
                                                 "NaN or infinity, naming the op (forward) or "
                                                 "the backward node and its forward op.")
                              ] = False,
    break_line: Annotated[int | None, typer.Option("--break", metavar="LINE", min=1,
                                                   help="Run until LINE is about to run, show "
                                                   "the table there (and write the graph so "
                                                   "far to --svg), and stop.",
                                                   show_default=False)] = None,
    watch: Annotated[str | None, typer.Option("--watch", metavar="NAME", help="Show NAME's "
                                              "value each time it is rebound, as a series "
                                              "with a sparkline (on stderr).",
                                              show_default=False)] = None,
    lint: Annotated[bool | None, typer.Option("--lint/--no-lint", help="After the run, note "
                                              "gradient-flow problems on stderr, if there are "
                                              "any (see `agraph lint`). Default: only when "
                                              "stderr is a terminal.", show_default=False)
                    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed the default random "
                                             "generator with N (default: 67280421310721, "
                                             "so every run draws the same numbers).",
                                             metavar="N", show_default=False)] = None,
    figures: Annotated[Path | None, typer.Option("--figures", metavar="DIR", help="Write the "
                                                 "figures the program draws with matplotlib "
                                                 "into DIR (plt.show() as figure-N.svg, "
                                                 "plt.savefig(NAME) as DIR/NAME).",
                                                 show_default=False)] = None,
    *,
    limits: Limits,
) -> None:
    """Run a program: print what it prints, then a table of its tensors.

    What --trace, --watch, --detect-anomaly and the lint notes add goes to stderr, so stdout
    stays what the program printed (and --json one JSON object).

    Example: agraph run samples/leaf_nodes.expr

    Example: agraph run samples/no_grad_regression.expr --watch loss

    Example: agraph run samples/computation_graph.expr --trace --break 17
    """
    from autograd_cli.cli import commands

    if break_line is not None and json_output:
        raise typer.BadParameter("--break shows a table and stops; it cannot be combined with "
                                 "--json", param_hint="--break")
    raise typer.Exit(commands.run(file, limits=limits, json_output=json_output, table=table,
                                  svg=svg, trace=trace, detect_anomaly=detect_anomaly,
                                  break_line=break_line, watch=watch, lint=lint, seed=seed,
                                  figures=figures))


@app.command()
@with_limits
def check(file: FileArg, *, limits: Limits) -> None:
    """Parse and validate a program without running it.

    Example: agraph check samples/leaf_nodes.expr
    """
    from autograd_cli.cli import commands

    raise typer.Exit(commands.check(file, limits=limits))


@app.command()
@with_limits
def render(
    file: FileArg,
    fmt: Annotated[Format, typer.Option("--format", "-f", help="Output format.")] = Format.svg,
    svg: Annotated[bool, typer.Option("--svg", help="Short for --format svg.")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of "
                                                "stdout (atomically).", show_default=False,
                                                parser=output_path)
                      ] = None,
    view: Annotated[View, typer.Option("--view", help="forward: tensors and ops; backward: "
                                       "grad_fn nodes as autograd holds them.")] = View.forward,
    pass_number: Annotated[int | None, typer.Option("--pass", help="Draw the graph that the "
                                                    "N-th backward()/autograd.grad walked.",
                                                    show_default=False)] = None,
    show_saved: Annotated[bool, typer.Option("--show-saved", help="Backward view: add the "
                                             "tensors each node saved.")] = False,
    values: Annotated[bool, typer.Option("--values/--no-values")] = True,
    grads: Annotated[bool, typer.Option("--grads/--no-grads")] = True,
    legend: Annotated[bool, typer.Option("--legend/--no-legend")] = True,
    rankdir: Annotated[Rankdir, typer.Option("--rankdir")] = Rankdir.TB,
    max_nodes: Annotated[int, typer.Option("--max-nodes", help="Collapse or cut the graph past "
                                           "this many nodes.")] = 300,
    unroll: Annotated[str | None, typer.Option(
        "--unroll", metavar="[N]", show_default=False,  # bare: cli/main.py's bare_unroll
        help="Draw loops unrolled: every iteration, or the first N (by default a loop that "
        "repeats 5 times or more is drawn once, as a block with its count).")] = None,
    check_file: Annotated[Path | None, typer.Option("--check", help="Exit 1 if this file "
                                                    "differs from what would be rendered.",
                                                    show_default=False)] = None,
    detect_anomaly: Annotated[bool, typer.Option("--detect-anomaly", help="Stop at the first "
                                                 "NaN or infinity and draw the graph up to it, "
                                                 "the op that made it in red (exit 1).")
                              ] = False,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed the default random "
                                             "generator with N (default: 67280421310721, "
                                             "so every run draws the same numbers).",
                                             metavar="N", show_default=False)] = None,
    *,
    limits: Limits,
) -> None:
    """Run a program and draw the computation graph it built.

    Example: agraph render samples/leaf_nodes.expr --svg > leaf_nodes.svg

    Example: agraph render broken.expr --detect-anomaly -o broken.svg
    """
    from autograd_cli.cli import commands

    raise typer.Exit(commands.render(
        file, limits=limits, fmt=fmt.value, svg=svg, output=output, view=view.value,
        pass_number=pass_number, show_saved=show_saved, values=values, grads=grads,
        legend=legend, rankdir=rankdir.value, max_nodes=max_nodes, check_file=check_file,
        detect_anomaly=detect_anomaly, seed=seed, unroll=unroll_count(unroll)))


def unroll_count(text: str | None) -> int | None:
    """`--unroll` -> 0 (every iteration), `--unroll N` -> N, absent -> None (loops folded)."""
    if text is None or text == "all":
        return None if text is None else 0
    if not text.isdigit() or int(text) < 1:
        raise typer.BadParameter(f"{text!r}: give a number of iterations (1 or more), or "
                                 "nothing for all", param_hint="--unroll")
    return int(text)


@app.command()
@with_limits
def explain(
    file: FileArg,
    output: Annotated[str, typer.Argument(help="The variable to differentiate (e.g. loss).",
                                          show_default=False)],
    input_name: Annotated[str, typer.Argument(metavar="INPUT", help="The variable to "
                                              "differentiate with respect to (e.g. w).",
                                              show_default=False)],
    svg: Annotated[Path | None, typer.Option("--svg", help="Also draw the graph with the "
                                             "paths highlighted, to this SVG file.",
                                             show_default=False, parser=output_path)] = None,
    max_paths: Annotated[int, typer.Option("--max-paths", min=1, help="List at most this "
                                           "many paths (the sum over all is still checked)."
                                           )] = 20,
    *,
    limits: Limits,
) -> None:
    """Show the chain rule: every path from OUTPUT back to INPUT, each local derivative on it,
    each path's product, and their sum checked against INPUT.grad.

    The graph is analysed when the program's backward pass from OUTPUT starts (the last one),
    or at the end of the program if it never runs one (seed 1).

    Example: agraph explain samples/computation_graph.expr y w
    """
    from autograd_cli.cli import commands

    raise typer.Exit(commands.explain(file, output, input_name, limits=limits, svg=svg,
                                      max_paths=max_paths))


@app.command()
@with_limits
def debug(file: FileArg, *, limits: Limits) -> None:
    """Step through a program: commands come from stdin, one per line (next, step, continue,
    break LINE, print EXPR, table, graph [FILE], where, list, help, quit); it quits at the
    end of the input.

    Example: agraph debug samples/computation_graph.expr

    Example: printf 'break 15\\ncontinue\\nprint a\\ngraph\\nquit\\n' | agraph debug
    samples/computation_graph.expr
    """
    from autograd_cli.cli import commands

    raise typer.Exit(commands.debug(file, limits=limits))


@app.command()
@with_limits
def lint(
    file: FileArg,
    json_output: Annotated[bool, typer.Option("--json", help="Write the findings as one JSON "
                                              "object.")] = False,
    *,
    limits: Limits,
) -> None:
    """Run a program and report gradient-flow problems, each with its line and a fix: a leaf
    whose grad stays None or zero, a path cut by no_grad/detach, an input that does not reach
    the output, .grad read on a non-leaf, a second backward through a freed graph, gradients
    accumulating across iterations. Exit 1 if there is one.

    Example: agraph lint samples/leaf_nodes.expr
    """
    from autograd_cli.cli import commands

    raise typer.Exit(commands.lint(file, limits=limits, json_output=json_output))
