"""The `eval` builtin: a string of program text, evaluated as an expression where it is called.

Python's own `eval` would run the string outside the sandbox; this one never compiles it.
The string is parsed (`mode="eval"`), checked by the same checker as the program itself (the
same refusals, names, depth limit), and evaluated by the same evaluator in the caller's scope,
under the same time, memory and step budget; the string is held to `--max-source-bytes`, as a
program file is (parsing takes hundreds of times the text's size). Tutorials use it to
rebuild a tensor from its repr (`eval("torch." + repr(x))` in PyTorch's saved-tensor-hooks
tutorial). Every node of the
string takes the position of the `eval(...)` call, so an error in it points there. `globals`
and `locals` arguments are not supported.
"""

from __future__ import annotations

import ast
import warnings
from typing import Any

from autograd_cli.language import checker
from autograd_cli.language.errors import ScriptError
from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.source import check_fstrings
from engine import memory

PARSE_BYTES = 250  # about the memory ast.parse takes per byte of text (a long `1+1+...+1`)


class _Eval:
    """The `eval` builtin's value: the interpreter runs it (it knows the caller's scope)."""

    def __repr__(self) -> str:
        return "<built-in function eval>"


EVAL = _Eval()
WHITESPACE = " \t"  # what Python's eval strips from the start of the string


def parse(args: list[Any], kwargs: dict[str, Any], call: ast.AST | None,
          limits: Any) -> ast.expr:
    """The checked expression tree of `eval(*args, **kwargs)`, placed at the call."""
    if kwargs:
        raise TypeError("eval() takes no keyword arguments")
    if not args:
        raise TypeError("eval expected at least 1 argument, got 0")
    if len(args) > 3:
        raise TypeError(f"eval expected at most 3 arguments, got {len(args)}")
    source = args[0]
    if any(value is not None for value in args[1:]):
        raise TypeError("eval() with globals or locals is not supported by agraph")
    if not isinstance(source, str):
        raise TypeError("eval() arg 1 must be a string, bytes or code object")
    text = source.lstrip(WHITESPACE)
    size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_source_bytes:
        raise LimitExceeded("max_source_bytes", f"the text given to eval() has {size} bytes, "
                            f"more than {limits.max_source_bytes}")
    memory.check(PARSE_BYTES * size, f"parsing {size} bytes of text given to eval()")
    try:
        check_fstrings(text)
    except ScriptError as error:
        raise SyntaxError(f"{error.message} (<string>, line {error.line})") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename="<string>", mode="eval")
    except SyntaxError as exc:  # as Python prints it: "invalid syntax (<string>, line 1)"
        raise SyntaxError(f"{exc.msg} (<string>, line {exc.lineno or 1})") from None
    except (MemoryError, RecursionError):
        raise SyntaxError("too many nested parentheses") from None
    except ValueError as exc:
        raise SyntaxError(str(exc)) from None
    module = ast.Module(body=[ast.Expr(value=tree.body)], type_ignores=[])
    if call is not None:
        for node in ast.walk(module):
            for field in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                if field in node._attributes:
                    setattr(node, field, getattr(call, field))
    problems = checker.find_problems(module, text, limits)
    if problems:
        first = problems[0]
        kind = NameError if first.type_name == "NameError" else SyntaxError
        raise kind(first.message)
    return tree.body
