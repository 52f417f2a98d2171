"""Every command's arguments and options, declared once. From this table app.py builds the typer
app and main.py the tables of its typer-free fast path; nothing else spells an option out.

Light on purpose: main.py reads it before any command runs (no typer, no numpy).
The `--max-...` limits are not here: each command takes one per field of `Limits`
(autograd_cli/language/limits.py), added by app.py.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from renderers.formats import FORMATS, VIEWS

FLAG, CHOICE, OUTPUT, PATH, INT, TEXT = "flag", "choice", "output", "path", "int", "text"


class Option(NamedTuple):
    """One option (or argument) of a command.

    `param` is the keyword the command's function (its `family` module) takes. `names` are the
    spellings (`--format`, `-f`); an on/off flag has `negative`, its off spelling. `kind` says
    how the value is read: FLAG (no value), CHOICE (one of `choices`), OUTPUT (a file agraph
    writes, kept as typed: graph/paths.py), PATH (a file it reads), INT, TEXT."""

    param: str
    names: tuple[str, ...]
    kind: str
    default: Any = None
    help: str = ""
    negative: str = ""
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    minimum: int | None = None
    argument: bool = False  # positional (FILE, OUTPUT, INPUT), not an option
    many: bool = False  # an argument given one or more times (render's FILEs)

    @property
    def fast(self) -> bool:
        """Whether main.py may read it without typer: a flag, or a value it can check as typer
        would (a word from a fixed list, a path); numbers and free text go to typer."""
        return not self.argument and self.kind in (FLAG, CHOICE, OUTPUT)


class Command(NamedTuple):
    help: str
    options: tuple[Option, ...]
    family: str  # the module of autograd_cli/cli/ whose function of the command's name runs it
    fast: bool = False  # main.py may run its simple command lines without typer


FILE = Option("file", (), TEXT, argument=True, metavar="FILE",
              help="The .expr program, or - to read it from stdin.")
QUIET = Option("quiet", ("--quiet", "-q"), FLAG, False, "Leave out warnings and notes (errors "
               "are still shown): for docs builds.")
SEED = Option("seed", ("--seed",), INT, None, "Seed the default random generator with N "
              "(default: 67280421310721, so every run draws the same numbers).", metavar="N")
DETECT_ANOMALY = ("--detect-anomaly",)

COMMANDS: dict[str, Command] = {
    "run": Command(
        family="run",
        fast=True,
        help="""Run a program: print what it prints, then a table of its tensors.

    What --trace, --watch, --detect-anomaly and the lint notes add goes to stderr, so stdout
    stays what the program printed (and --json one JSON object).

    Example: agraph run samples/leaf_nodes.expr

    Example: agraph run samples/no_grad_regression.expr --watch loss

    Example: agraph run samples/computation_graph.expr --trace --break 17
    """,
        options=(
            FILE,
            Option("json_output", ("--json",), FLAG, False,
                   "Write one JSON object (the program's output, error, tensors, graph)."),
            Option("table", ("--table",), FLAG, None, "Show the table of the program's tensors "
                   "after it ran (default: only when stdout is a terminal).",
                   negative="--no-table"),
            Option("svg", ("--graph", "--svg"), OUTPUT, None, "Also draw the graph to FILE, "
                   "in the format its extension names (.svg, .png, .dot, .mmd, ...).",
                   metavar="FILE"),
            Option("output", ("--output", "-o"), OUTPUT, None, "Write what run prints to FILE "
                   "instead of stdout, atomically, and only if the program ran to its end.",
                   metavar="FILE"),
            Option("check_file", ("--check",), PATH, None,
                   "Exit 1 if FILE differs from what run would print.", metavar="FILE"),
            Option("trace", ("--trace",), FLAG, False, "Write a line to stderr for each op as "
                   "it runs and each node backward visits."),
            Option("detect_anomaly", DETECT_ANOMALY, FLAG, False, "Stop at the first NaN or "
                   "infinity, naming the op (forward) or the backward node and its forward op."),
            Option("break_line", ("--break",), INT, None, "Run until LINE is about to run, show "
                   "the table there (and write the graph so far to --graph), and stop.",
                   metavar="LINE", minimum=1),
            Option("watch", ("--watch",), TEXT, None, "Show NAME's value each time it is "
                   "rebound, as a series with a sparkline (on stderr).", metavar="NAME"),
            Option("lint", ("--lint",), FLAG, None, "After the run, note gradient-flow problems "
                   "on stderr, if there are any (see `agraph lint`). Default: only when stderr "
                   "is a terminal.", negative="--no-lint"),
            SEED,
            Option("figures", ("--figures",), OUTPUT, None, "Write the figures the program "
                   "draws with matplotlib into DIR (plt.show() as figure-N.svg, "
                   "plt.savefig(NAME) as DIR/NAME).", metavar="DIR"),
            QUIET,
        )),
    "check": Command(
        family="run",
        fast=True,
        help="""Parse and validate a program without running it.

    Example: agraph check samples/leaf_nodes.expr
    """,
        options=(FILE,)),
    "render": Command(
        family="render",
        fast=True,
        help="""Run a program and draw the computation graph it built.

    Example: agraph render samples/leaf_nodes.expr --svg > leaf_nodes.svg

    Example: agraph render broken.expr --detect-anomaly -o broken.svg
    """,
        options=(
            Option("file", (), TEXT, argument=True, many=True, metavar="FILE",
                   help="The .expr program(s), or - to read one from stdin; several are drawn "
                   "into the directory -o names."),
            Option("fmt", ("--format", "-f"), CHOICE, None, "Output format: "
                   f"{', '.join(FORMATS)} (default: -o's extension, else svg).",
                   choices=FORMATS, metavar="FORMAT"),
            Option("svg", ("--svg",), FLAG, False, "Short for --format svg."),
            Option("output", ("--output", "-o"), OUTPUT, None, "Write here instead of stdout, "
                   "atomically; the format follows the extension. DIR/ for several programs.",
                   metavar="PATH"),
            Option("view", ("--view",), CHOICE, "forward", "forward: tensors and ops; backward: "
                   "grad_fn nodes as autograd holds them.", choices=VIEWS, metavar="VIEW"),
            Option("pass_number", ("--pass",), INT, None,
                   "Draw the graph that the N-th backward()/autograd.grad walked."),
            Option("show_saved", ("--show-saved",), FLAG, False,
                   "Backward view: add the tensors each node saved."),
            Option("values", ("--values",), FLAG, True, "Show small tensors' values in their "
                   "boxes.", negative="--no-values"),
            Option("grads", ("--grads",), FLAG, True, "Show gradients (.grad) in the boxes.",
                   negative="--no-grads"),
            Option("legend", ("--legend",), FLAG, True, "Draw a legend of the styles used.",
                   negative="--no-legend"),
            Option("rankdir", ("--rankdir",), CHOICE, "TB", "Lay the graph out top to bottom "
                   "(TB) or left to right (LR).", choices=("TB", "LR"), metavar="TB|LR"),
            Option("max_nodes", ("--max-nodes",), INT, 300,
                   "Collapse or cut the graph past this many nodes."),
            Option("unroll", ("--unroll",), TEXT, None, "Draw loops unrolled: every iteration, "
                   "or the first N (by default a loop that repeats 5 times or more is drawn "
                   "once, as a block with its count).", metavar="[N]"),
            Option("check_file", ("--check",), PATH, None,
                   "Exit 1 if this file differs from what would be rendered."),
            Option("detect_anomaly", DETECT_ANOMALY, FLAG, False, "Stop at the first NaN or "
                   "infinity and draw the graph up to it, the op that made it in red (exit 1)."),
            SEED,
            QUIET,
        )),
    "explain": Command(
        family="explain",
        help="Show the chain rule: every path from OUTPUT back to INPUT, each local "
        "derivative on it,\n"
        """    each path's product, and their sum checked against INPUT.grad.

    The graph is analysed when the program's backward pass from OUTPUT starts (the last one),
    or at the end of the program if it never runs one (seed 1).

    Example: agraph explain samples/computation_graph.expr y w
    """,
        options=(
            FILE,
            Option("output", (), TEXT, argument=True, metavar="OUTPUT",
                   help="The variable to differentiate (e.g. loss)."),
            Option("input_name", (), TEXT, argument=True, metavar="INPUT",
                   help="The variable to differentiate with respect to (e.g. w)."),
            Option("svg", ("--graph", "--svg"), OUTPUT, None, "Also draw the graph with the "
                   "paths highlighted to FILE, in the format its extension names.",
                   metavar="FILE"),
            Option("max_paths", ("--max-paths",), INT, 20, "List at most this many paths (the "
                   "sum over all is still checked).", minimum=1),
            QUIET,
        )),
    "debug": Command(
        family="debug",
        help="Step through a program: commands come from stdin, one per line "
        "(next, step, continue,\n"
        "    break LINE, print EXPR, table, graph [FILE], where, list, help, quit); it quits at "
        """the
    end of the input.

    Example: agraph debug samples/computation_graph.expr

    Example: printf 'break 15\\ncontinue\\nprint a\\ngraph\\nquit\\n' | agraph debug
    samples/computation_graph.expr
    """,
        options=(FILE, QUIET)),
    "lint": Command(
        family="lint",
        help="Run a program and report gradient-flow problems, each with its line and a "
        "fix: a leaf\n"
        "    whose grad stays None or zero, a path cut by no_grad/detach, an input that does not "
        """reach
    the output, .grad read on a non-leaf, a second backward through a freed graph, gradients
    accumulating across iterations. Exit 1 if there is one.

    Example: agraph lint samples/leaf_nodes.expr
    """,
        options=(
            FILE,
            Option("json_output", ("--json",), FLAG, False,
                   "Write the findings as one JSON object."),
        )),
}
