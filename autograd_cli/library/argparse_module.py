"""`argparse`: the parsers scripts build for their hyperparameters, parsed by Python's argparse.

A program gets no command-line arguments of its own, so `parser.parse_args()` gives every
default, as `python script.py` does; `parse_args(["--lr", "0.1"])` parses the list given (the
notebook idiom `parse_args(args=[])` included). What would reach the host is not offered:
`argparse.FileType` (it opens files) is refused when used, an `action=` or `type=` must be one of
argparse's own actions by name or a callable of the program, and a parse error or `--help`
ends the program with `SystemExit` as Python's does (the usage goes to the program's output)
instead of exiting agraph. `argparse.Namespace` is an object of the program's own attributes.

argparse builds its help, usage and error texts in plain Python, out of the program's strings:
each `%(name)s` of a help, usage, version, description or epilog is filled in by agraph's own
`%` (widths and values sized first, values shown as the program's str), and the text a parser
shows (names, metavars, choices, helps) is counted as arguments are added and held to
`--max-str-len`, so a metavar shared by a thousand arguments cannot make a usage of gigabytes.
Usage and errors go to stderr under the output cap.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from autograd_cli.language.exceptions import ProgramExit
from autograd_cli.language.limits import LimitExceeded
from autograd_cli.language.objects import Namespace, display_repr, display_str
from engine.addresses import address_of
from engine.refused import Refused

PROG = "program"
ACTIONS = frozenset({"store", "store_const", "store_true", "store_false", "append",
                     "append_const", "extend", "count", "help", "version"})
_FORMATTERS = {name: getattr(argparse, name) for name in (
    "HelpFormatter", "RawDescriptionHelpFormatter", "RawTextHelpFormatter",
    "ArgumentDefaultsHelpFormatter", "MetavarTypeHelpFormatter")}


class ArgumentNamespace:
    """`argparse.Namespace`: attributes of the program's own, shown as Python shows them."""

    OPEN_ATTRS = True
    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("program_attributes",)

    def __init__(self, **attributes: Any) -> None:
        self.program_attributes: dict[str, Any] = dict(attributes)

    def __contains__(self, name: Any) -> bool:
        return name in self.program_attributes

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, ArgumentNamespace)
                and self.program_attributes == other.program_attributes)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={display_repr(value)}" if name.isidentifier()
                          else f"**{{{name!r}: {display_repr(value)}}}"
                          for name, value in self.program_attributes.items())
        return f"Namespace({shown})"


ArgumentNamespace.__name__ = ArgumentNamespace.__qualname__ = "Namespace"
ArgumentNamespace.__module__ = "argparse"


class _Exit(Exception):
    """argparse asked to exit (it printed why): the status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _HostParser(argparse.ArgumentParser):
    """Python's parser, kept away from the host: help goes to the program's output, usage
    and errors to agraph's stderr (Python's to the process's), and it raises, never exits."""

    def __init__(self, runtime: Any, write: Any, **options: Any) -> None:
        self.runtime = runtime
        self.write = write
        self.shown = sum(len(text) for text in options.values() if isinstance(text, str))
        super().__init__(**options)

    def _print_message(self, message: str, file: Any = None) -> None:
        if message:
            if file is sys.stderr:
                self.runtime.write_error(message)
            else:
                self.write(message)

    def count_shown(self, length: int) -> None:
        """Add `length` characters to what the parser's help and usage show."""
        self.shown += length
        limit = self.runtime.limits.max_str_len
        if self.shown > limit:
            raise LimitExceeded("max_str_len", f"the help of this parser would be longer than "
                                f"{limit} characters")

    def exit(self, status: int = 0, message: str | None = None) -> Any:  # type: ignore[override]
        if message:
            self._print_message(message, sys.stderr)
        raise _Exit(status)

    def error(self, message: str) -> Any:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


MAX_NARGS = 10_000  # argparse builds a pattern as long as an int nargs


def _bounded_text(runtime: Any) -> type[str]:
    """The str type of the texts argparse fills in with `%`: filled in by agraph's `%`."""

    class BoundedText(str):
        __slots__ = ()

        def __mod__(self, values: Any) -> str:
            return runtime.formatter.percent(str(self), values)  # type: ignore[no-any-return]

    return BoundedText


def _bounded_formatter(base: type[argparse.HelpFormatter], text: type[str]) -> type:
    """`base` whose help strings are filled in with agraph's `%`."""

    class BoundedFormatter(base):  # type: ignore[valid-type, misc]
        def _get_help_string(self, action: argparse.Action) -> Any:
            help_text = super()._get_help_string(action)
            return text(help_text) if isinstance(help_text, str) else help_text

    BoundedFormatter.__name__ = BoundedFormatter.__qualname__ = base.__name__
    return BoundedFormatter


def _shown_length(names: tuple[Any, ...], kwargs: dict[str, Any], max_len: int) -> int:
    """About the characters an argument adds to its parser's help, usage and errors."""
    length = sum(len(name) for name in names)
    for key in ("help", "metavar", "dest", "version", "default", "const"):
        value = kwargs.get(key)
        texts = value if isinstance(value, tuple) else (value,)
        length += sum(len(text) for text in texts if isinstance(text, str))
    for choice in kwargs.get("choices") or ():
        length += len(display_str(choice, max_len)) + 2
    return length


def _checked_argument(kwargs: dict[str, Any], runtime: Any) -> dict[str, Any]:
    action = kwargs.get("action")
    if action is not None and (not isinstance(action, str) or action not in ACTIONS):
        raise ValueError(f"argparse action {action!r} is not supported by agraph: use one of "
                         f"{', '.join(sorted(ACTIONS))}")
    kind = kwargs.get("type")
    if kind is not None and not callable(kind):
        raise ValueError(f"{kind!r} is not callable")
    nargs = kwargs.get("nargs")
    if type(nargs) is int and nargs > MAX_NARGS:
        raise ValueError(f"nargs={nargs} is over agraph's limit of {MAX_NARGS}")
    if kwargs.get("choices") is not None:  # help and usage list every choice
        kwargs["choices"] = runtime.bounded_list(kwargs["choices"])
    if isinstance(kwargs.get("version"), str):
        kwargs["version"] = _bounded_text(runtime)(kwargs["version"])
    return kwargs


class _Adder:
    """What `add_argument` is called on: a parser, an argument group or an exclusive group."""

    PUBLIC_ATTRS = frozenset({"add_argument", "add_argument_group",
                              "add_mutually_exclusive_group", "set_defaults", "get_default"})
    __slots__ = ("target", "parser", "runtime")

    def __init__(self, target: Any, parser: _HostParser, runtime: Any) -> None:
        self.target = target
        self.parser = parser
        self.runtime = runtime

    def add_argument(self, *names: Any, **kwargs: Any) -> None:
        if not all(isinstance(name, str) for name in names):
            raise TypeError("argument names must be strings")
        checked = _checked_argument(kwargs, self.runtime)
        self.parser.count_shown(_shown_length(names, checked, self.runtime.limits.max_str_len))
        self.target.add_argument(*names, **checked)

    def add_argument_group(self, *args: Any, **kwargs: Any) -> _Adder:
        self.parser.count_shown(sum(len(text) for text in (*args, *kwargs.values())
                                    if isinstance(text, str)))
        return _Adder(self.target.add_argument_group(*args, **kwargs), self.parser,
                      self.runtime)

    def add_mutually_exclusive_group(self, required: bool = False) -> _Adder:
        return _Adder(self.target.add_mutually_exclusive_group(required=bool(required)),
                      self.parser, self.runtime)

    def set_defaults(self, **defaults: Any) -> None:
        self.target.set_defaults(**defaults)

    def get_default(self, dest: Any) -> Any:
        return self.parser.get_default(dest)

    def __repr__(self) -> str:
        return f"<argparse._ArgumentGroup object at {address_of(self)}>"


def namespace(runtime: Any, name: str) -> Namespace:
    def write(text: str) -> None:
        runtime.check_output(len(text))
        runtime.write(text)

    bounded = _bounded_text(runtime)

    def arguments(args: Any) -> list[str]:
        if args is None:
            return []  # a program has no command line of its own
        given = runtime.bounded_list(args)
        if not all(isinstance(arg, str) for arg in given):
            raise TypeError("the arguments to parse must be strings")
        return given

    class ArgumentParser(_Adder):
        """`argparse.ArgumentParser(...)`."""

        PUBLIC_ATTRS = _Adder.PUBLIC_ATTRS | frozenset({
            "parse_args", "parse_known_args", "print_help", "format_help", "print_usage",
            "format_usage", "description", "prog", "epilog"})
        __slots__ = ()

        def __init__(self, prog: Any = None, usage: Any = None, description: Any = None,
                     epilog: Any = None, formatter_class: Any = None, prefix_chars: Any = "-",
                     argument_default: Any = None, conflict_handler: Any = "error",
                     add_help: Any = True, allow_abbrev: Any = True, exit_on_error: Any = True
                     ) -> None:
            for text in (prog, usage, description, epilog):
                if text is not None and type(text) is not str:
                    raise TypeError("prog, usage, description and epilog must be strings")
            formatter = argparse.HelpFormatter
            if formatter_class is not None:
                if formatter_class not in _FORMATTERS.values():
                    raise ValueError("formatter_class must be one of argparse's formatters")
                formatter = formatter_class
            usage, description, epilog = (None if value is None else bounded(value)
                                          for value in (usage, description, epilog))
            parser = _HostParser(runtime, write, prog=PROG if prog is None else prog,
                                 usage=usage, description=description, epilog=epilog,
                                 formatter_class=_bounded_formatter(formatter, bounded),
                                 prefix_chars=prefix_chars,
                                 argument_default=argument_default,
                                 conflict_handler=conflict_handler, add_help=bool(add_help),
                                 allow_abbrev=bool(allow_abbrev))
            super().__init__(parser, parser, runtime)

        @property
        def description(self) -> Any:
            return _plain(self.parser.description)

        @property
        def prog(self) -> Any:
            return self.parser.prog

        @property
        def epilog(self) -> Any:
            return _plain(self.parser.epilog)

        def parse_args(self, args: Any = None, namespace: Any = None) -> ArgumentNamespace:
            parsed, extras = self.parse_known_args(args, namespace)
            if extras:
                try:
                    self.parser.error(f"unrecognized arguments: {' '.join(extras)}")
                except _Exit as stop:
                    raise ProgramExit(stop.status) from None
            return parsed  # type: ignore[no-any-return]

        def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[Any, Any]:
            start = argparse.Namespace(**namespace.program_attributes) if isinstance(
                namespace, ArgumentNamespace) else None
            try:
                result, extras = self.parser.parse_known_args(arguments(args), start)
            except _Exit as stop:
                raise ProgramExit(stop.status) from None
            return _merged(result, namespace), extras

        def print_help(self, file: Any = None) -> None:
            write(self.parser.format_help())

        def format_help(self) -> str:
            return self.parser.format_help()

        def print_usage(self, file: Any = None) -> None:
            write(self.parser.format_usage())

        def format_usage(self) -> str:
            return self.parser.format_usage()

        def __repr__(self) -> str:
            shown = ", ".join(f"{key}={_plain(getattr(self.parser, key))!r}" for key in (
                "prog", "usage", "description"))
            formatter = getattr(self.parser.formatter_class, "__name__", "HelpFormatter")
            return (f"ArgumentParser({shown}, formatter_class=<class 'argparse.{formatter}'>, "
                    f"conflict_handler={self.parser.conflict_handler!r}, "
                    f"add_help={self.parser.add_help!r})")

    ArgumentParser.__module__ = "argparse"
    return Namespace(name, {
        "ArgumentParser": ArgumentParser, "Namespace": ArgumentNamespace,
        "SUPPRESS": argparse.SUPPRESS, "OPTIONAL": argparse.OPTIONAL,
        "ZERO_OR_MORE": argparse.ZERO_OR_MORE, "ONE_OR_MORE": argparse.ONE_OR_MORE,
        "REMAINDER": argparse.REMAINDER, "ArgumentError": argparse.ArgumentError,
        "ArgumentTypeError": argparse.ArgumentTypeError,
        "FileType": Refused("argparse.FileType", "files"),
        **_FORMATTERS,
    })


def _plain(text: Any) -> Any:
    """A text the parser holds as the program gave it (a plain str)."""
    return None if text is None else str(text)


def _merged(result: argparse.Namespace, into: Any) -> ArgumentNamespace:
    """The parse as the program's Namespace (`namespace=` given: that one, updated)."""
    target = into if isinstance(into, ArgumentNamespace) else ArgumentNamespace()
    target.program_attributes.update(vars(result))
    return target
