"""`agraph debug FILE`: step through a program, look at its tensors and graph as it runs.

The debugger is an observer: the interpreter tells it each statement before it runs
(`on_statement`), in the thread that runs the program, and it pauses there by reading commands.
Commands come from stdin, a line each, so a test (or a pipe) can drive it; at the end of the
input it quits. On a terminal it prompts with `(agraph) `; otherwise it echoes each command after
the prompt, so what it printed reads as a transcript.

The commands are in `HELP`.

A breakpoint stops before the statement that starts on its line runs: on a `for` line, once,
when the loop starts; on a line of its body, in every iteration. The time spent paused does not
count toward --max-seconds. `agraph run FILE --break LINE` is the same machinery with a fixed
script: stop at LINE, show the table (and write the graph with --svg), quit.
"""

from __future__ import annotations

import ast
import math
import time
from collections.abc import Iterator
from typing import Any, TextIO

from autograd_cli.graph import rendering
from autograd_cli.graph.paths import OutputPath
from autograd_cli.graph.report import table_rows
from autograd_cli.language.bounds import Bound
from autograd_cli.language.checker import check_program
from autograd_cli.language.errors import ScriptError, visible
from autograd_cli.language.limits import LimitExceeded, Limits, limit_error
from autograd_cli.language.objects import display_repr
from renderers.formats import FORMATS_BY_SUFFIX

QUIT = "DebuggerQuit"  # the type name of the ScriptError that stops the program on `quit`
CONTEXT = 2  # lines shown before and after the current one
TREE_LINES = 200  # at most this many lines of `graph` in the terminal

HELP = """\
    next (n)            run to the next statement here or in a caller (over calls)
    step (s)            run to the next statement, into a def's body too
    continue (c)        run to the next breakpoint, or to the end
    break (b) [LINE]    stop each time LINE is about to run; no LINE: list the breakpoints
    clear LINE          remove the breakpoint at LINE
    print (p) EXPR      evaluate EXPR, an expression of the language, where the program is
    table (t)           the tensors of the current scope (and the globals), as `run` shows them
    graph (g) [FILE]    the graph so far as a tree; with FILE, drawn there (.svg, .dot, ...)
    where (w)           the statements being run, outermost first
    list (l)            the lines around the current one
    help (h)            this list
    quit (q)            stop the program
"""



class Debugger:
    """The observer behind `agraph debug` and `run --break`.

    `commands` yields the command lines (stdin's lines, or a fixed script); `stops` is where to
    pause: "first" (the first statement), or "breakpoints" only.
    """

    def __init__(self, text: str, filename: str, recorder: Any, commands: Iterator[str],
                 out: TextIO, *, limits: Limits | None = None, echo_commands: bool = True,
                 prompt: bool = False, breakpoints: set[int] | None = None,
                 stops: str = "first") -> None:
        self.text = text
        self.lines = text.split("\n")  # str.splitlines would also split at U+2028, \\x0c...
        if len(self.lines) > 1 and not self.lines[-1]:
            self.lines.pop()
        self.filename = filename
        self.recorder = recorder
        self.commands = commands
        self.out = out
        self.limits = limits or Limits()
        self.echo_commands = echo_commands
        self.prompt = prompt
        self.breakpoints: set[int] = set(breakpoints or ())
        self.statement_lines, self.functions = _program_map(text)
        self.mode = "step" if stops == "first" else "continue"
        self.depth_limit = 0
        self.interpreter: Any = None
        self.frames: list[ast.stmt] = []
        self.current: ast.stmt | None = None
        self.quitted = False
        self.last_command = ""
        self.failures = 0  # commands that could not do their work (`run --break` exits 1)
        self.tool_missing = False  # `graph FILE.svg` without Graphviz (`run --break`: exit 3)

    # --- observer events ---------------------------------------------------------------------

    def on_start(self, interpreter: Any) -> None:
        self.interpreter = interpreter

    def on_statement(self, node: ast.stmt) -> None:
        depth = self.interpreter.depth if self.interpreter is not None else 0
        del self.frames[depth:]
        self.frames.append(node)
        self.current = node
        if self.mode == "run":
            return
        here = node.lineno in self.breakpoints
        if self.mode == "step" or here or (self.mode == "next" and depth <= self.depth_limit):
            self._pause(node, depth)

    # --- pausing -----------------------------------------------------------------------------

    def _pause(self, node: ast.stmt, depth: int) -> None:
        interpreter = self.interpreter
        remaining = interpreter.deadline - time.monotonic() if interpreter else 0.0
        if interpreter is not None:
            interpreter.deadline = math.inf  # paused time is not the program's
        try:
            self._show_location(node)
            self._read_commands(depth)
        except BrokenPipeError:  # the reader went away (`| head`): as if it said quit
            self.quitted = True
        finally:
            if interpreter is not None:
                interpreter.deadline = time.monotonic() + remaining
        if self.quitted:
            raise ScriptError(QUIT, "the debugger stopped the program", node.lineno,
                              node.col_offset + 1)

    def _read_commands(self, depth: int) -> None:
        while True:
            if self.prompt:
                self.out.write("(agraph) ")
                self.out.flush()
            line = next(self.commands, None)
            if line is None:
                self._write("(end of input: quitting)")
                self.quitted = True
                return
            command = line.strip()
            if self.echo_commands and not self.prompt:
                self._write(f"(agraph) {command}")
            if not command:
                command = self.last_command
            self.last_command = command
            if self._execute(command, depth):
                return

    def _execute(self, command: str, depth: int) -> bool:
        """Run one command; True when the program should go on."""
        word, _, argument = command.partition(" ")
        argument = argument.strip()
        if word in ("n", "next"):
            self.mode, self.depth_limit = "next", depth
            return True
        if word in ("s", "step"):
            self.mode = "step"
            return True
        if word in ("c", "cont", "continue"):
            self.mode = "continue"
            return True
        if word in ("q", "quit", "exit"):
            self.quitted = True
            return True
        handlers = {"b": self._break, "break": self._break, "clear": self._clear,
                    "p": self._print, "print": self._print, "t": self._table,
                    "table": self._table, "g": self._graph, "graph": self._graph,
                    "w": self._where, "where": self._where, "bt": self._where,
                    "l": self._list, "list": self._list, "h": self._help, "help": self._help}
        handler = handlers.get(word)
        if handler is None:
            self._write(f"unknown command {word!r}; type help" if word else "")
        else:
            handler(argument)
        self.out.flush()
        return False

    # --- commands ----------------------------------------------------------------------------

    def _break(self, argument: str) -> None:
        if not argument:
            lines = ", ".join(str(n) for n in sorted(self.breakpoints)) or "none"
            self._write(f"breakpoints: {lines}")
            return
        line = self._line_number(argument)
        if line is not None:
            self.breakpoints.add(line)
            self._write(f"breakpoint at line {line}: {self._source(line)}")

    def _clear(self, argument: str) -> None:
        line = self._line_number(argument)
        if line is not None:
            self.breakpoints.discard(line)
            self._write(f"no breakpoint at line {line} now")

    def _line_number(self, argument: str) -> int | None:
        if not argument.isdigit():
            self._write(f"expected a line number, not {argument!r}")
            return None
        line = int(argument)
        if line not in self.statement_lines:
            after = [n for n in sorted(self.statement_lines) if n > line]
            hint = f"; the next one starts at line {after[0]}" if after else ""
            self._write(f"no statement starts at line {line}{hint}")
            return None
        return line

    def _print(self, argument: str) -> None:
        if not argument:
            self._write("print what? e.g. print w.grad")
            return
        self._write(evaluate(self.interpreter, argument, self.limits))

    def _table(self, argument: str) -> None:
        # lazy: startup time (loaded only when used)
        from renderers import terminal
        from renderers.table import render_table

        bound = Bound.from_now(self.limits, "the table")
        try:
            rows = table_rows(self.scope_variables().items(), bound)
        except (LimitExceeded, MemoryError) as error:
            self._failed("cannot show the table", error, bound)
            return
        render_table(rows, self.out, color=terminal.use_color(self.out),
                     width=terminal.width(self.out))

    def _failed(self, what: str, error: BaseException, bound: Bound) -> None:
        """A command's work hit a limit (the same as the program's, counted from the command)."""
        self.failures += 1
        problem = limit_error(error.field, error.what) if isinstance(error, LimitExceeded) else (
            bound.out_of_memory())
        self._write(f"{what}: {problem}")

    def scope_variables(self) -> dict[str, Any]:
        """The globals, and the current function's variables over them."""
        interpreter = self.interpreter
        if interpreter is None:
            return {}
        variables = dict(interpreter.globals)
        if interpreter.scope.names is not interpreter.globals:
            variables.update(interpreter.scope.names)
        return variables

    def _graph(self, argument: str) -> None:
        self.recorder.set_variables(self.scope_variables())
        bound = Bound.from_now(self.limits, "drawing the graph")
        if not argument:
            try:
                graph = rendering.graph_model(self.recorder, bound=bound)
            except rendering.RenderError as error:
                self._write(f"cannot draw the graph: {error}")
                return
            except (LimitExceeded, MemoryError) as error:
                self._failed("cannot draw the graph", error, bound)
                return
            self._write(text_tree(graph).rstrip("\n"))
            return
        path = OutputPath(argument)  # keeps a trailing "/" (a directory: refused)
        fmt = FORMATS_BY_SUFFIX.get(path.suffix.lower(), "svg")
        try:
            data = rendering.render(self.recorder, fmt=fmt, bound=bound)
            rendering.write_atomically(path, data, None if self.filename == "<stdin>"
                                       else self.filename)
        except rendering.GraphvizMissing:
            self.failures += 1
            self.tool_missing = True
            self._write("cannot draw: Graphviz's `dot` is not installed (graph FILE.dot, "
                        ".json or .mmd work without it)")
            return
        except (rendering.RenderError, rendering.GraphvizFailed) as error:
            self.failures += 1
            self._write(f"cannot draw the graph: {error}")
            return
        except (LimitExceeded, MemoryError) as error:
            self._failed("cannot draw the graph", error, bound)
            return
        self._write(f"graph written to {path} ({fmt})")

    def _where(self, argument: str) -> None:
        for index, frame in enumerate(self.frames):
            marker = "->" if index == len(self.frames) - 1 else "  "
            function = self.functions.get(frame.lineno)
            scope = f"in {function}()" if function and index else "(module)"
            self._write(f"{marker} line {frame.lineno} {scope}: {self._source(frame.lineno)}")

    def _list(self, argument: str) -> None:
        if self.current is not None:
            self._write(self._context(self.current.lineno, 5))

    def _help(self, argument: str) -> None:
        self._write(HELP.rstrip("\n"))

    # --- text --------------------------------------------------------------------------------

    def _show_location(self, node: ast.stmt) -> None:
        function = self.functions.get(node.lineno) if len(self.frames) > 1 else None
        scope = f" in {function}()" if function else ""
        self._write(f"> {self.filename}:{node.lineno}{scope}")
        self._write(self._context(node.lineno, CONTEXT))
        self.out.flush()

    def _context(self, line: int, around: int) -> str:
        first, last = max(1, line - around), min(len(self.lines), line + around)
        width = len(str(last))
        shown = []
        for number in range(first, last + 1):
            marker = "->" if number == line else ("B " if number in self.breakpoints else "  ")
            shown.append(f"{marker} {number:>{width}}  {self.lines[number - 1][:200]}".rstrip())
        return "\n".join(shown)

    def _source(self, line: int) -> str:
        return self.lines[line - 1].strip()[:200] if 0 < line <= len(self.lines) else ""

    def _write(self, text: str) -> None:
        """A line of the debugger's own (source lines, values, messages): anything a terminal
        would act on (ESC, bidi overrides, separators) is shown escaped."""
        self.out.write(visible(text) + "\n")


def evaluate(interpreter: Any, source: str, limits: Limits) -> str:
    """`repr` of an expression of the language evaluated where the program is, or the error.

    The expression is checked like a program (the same refusals), then evaluated by the
    program's own interpreter in its current scope.
    """
    if interpreter is None:
        return "the program has not started"
    try:
        tree = check_program(source, limits)
    except ScriptError as error:
        return f"{error.type_name}: {error.message}"
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return "print takes one expression (not a statement)"
    # the program's time is paused (deadline inf): the expression, and a repr of the
    # program's it calls, get --max-seconds of their own, as the table does
    saved_node, saved_deadline = interpreter.node, interpreter.deadline
    interpreter.deadline = time.monotonic() + limits.max_seconds
    try:
        return display_repr(interpreter.eval(tree.body[0].value))
    except ScriptError as error:
        return f"{error.type_name}: {error.message}"
    except RecursionError:
        return "RecursionError: the expression nests too deeply"
    except Exception as error:  # noqa: BLE001 - whatever the expression raised, shown as text
        return f"{type(error).__name__}: {error}"
    finally:
        interpreter.node, interpreter.deadline = saved_node, saved_deadline


def _program_map(text: str) -> tuple[set[int], dict[int, str]]:
    """The lines where a statement starts, and each line's innermost enclosing def."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return set(), {}
    starts: set[int] = set()
    functions: dict[int, str] = {}
    for node in ast.walk(tree):  # breadth first: an outer def before the defs inside it
        if isinstance(node, ast.stmt):
            starts.add(node.lineno)
        if isinstance(node, ast.FunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.stmt) and inner is not node:
                    functions[inner.lineno] = node.name
    return starts, functions


def text_tree(graph: Any) -> str:
    """The forward model as a tree in the terminal: each output, the op that made it, its
    inputs, and so on back to the leaves; a tensor already shown is named, not repeated."""
    nodes = {node.id: node for node in graph.nodes}
    producer: dict[str, str] = {}
    inputs: dict[str, list[str]] = {}
    consumed: set[str] = set()
    for edge in graph.edges:
        if edge.kind not in ("data", "path"):
            continue
        source, target = nodes.get(edge.src), nodes.get(edge.dst)
        if source is None or target is None:
            continue
        if source.kind == "op":
            producer[edge.dst] = edge.src
        else:
            inputs.setdefault(edge.dst, []).append(edge.src)
            consumed.add(edge.src)
    roots = [n.id for n in graph.nodes if n.kind == "tensor" and n.id not in consumed]
    if not roots:
        return "(no tensors yet)\n"
    lines: list[str] = []
    shown: set[str] = set()
    # explicit stack of (node id, prefix for its line, prefix for its children)
    stack: list[tuple[str, str, str]] = [(root, "", "") for root in reversed(roots)]
    while stack and len(lines) < TREE_LINES:
        node_id, first, rest = stack.pop()
        node = nodes[node_id]
        label = "  ".join(node.label)
        if node.kind == "tensor" and node_id in shown and node_id in producer:
            lines.append(f"{first}{node.label[0]} (shown above)")
            continue
        shown.add(node_id)
        tag = f"  [{node.role}]" if node.kind == "tensor" and node.role in (
            "leaf", "no_grad", "anomaly", "retained") else ""
        lines.append(f"{first}{label}{tag}")
        children = [producer[node_id]] if node_id in producer else inputs.get(node_id, [])
        for index in range(len(children) - 1, -1, -1):
            last = index == len(children) - 1
            stack.append((children[index], rest + ("└─ " if last else "├─ "),
                          rest + ("   " if last else "│  ")))
    if stack:
        lines.append(f"... (more than {TREE_LINES} lines; draw it with `graph out.svg`)")
    return "\n".join(lines) + "\n"
