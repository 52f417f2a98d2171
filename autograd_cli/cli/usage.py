"""How the command line reads values and shows its help, the way agraph wants it.

- usage lines name arguments as `FILE`, not typer's `{file}`;
- `--help` lists the command's own options first and the `--max-...` limits in a section of
  their own ("Limits"), so `agraph check --help` is not fifteen limits long;
- a value that cannot be read is refused with agraph's own words (`'gif' is not one of: svg,
  png, ...`), never a library's (`Value error, ...`, `Input should be a valid integer`).

Imported by app.py only (typer is loaded by then).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import typer
from typer.core import TyperCommand

LIMITS_PANEL = "Limits"
_BRACED = re.compile(r"\{([^{}]*)\}")


class AgraphCommand(TyperCommand):
    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [_BRACED.sub(r"\1", piece) for piece in super().collect_usage_pieces(ctx)]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        sections: dict[str, list[tuple[str, str]]] = {"Arguments": [], "Options": [],
                                                      LIMITS_PANEL: []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                sections["Arguments"].append(record)
            elif getattr(param, "rich_help_panel", None) == LIMITS_PANEL:
                sections[LIMITS_PANEL].append(record)
            else:
                sections["Options"].append(record)
        for title, records in sections.items():
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


def choice_parser(words: Sequence[str]) -> Callable[[str], str]:
    """A parser that takes exactly one of `words`."""
    def parse(text: str) -> str:
        if text not in words:
            raise typer.BadParameter(f"{text!r} is not one of: {', '.join(words)}")
        return text
    return parse


def number_parser(kind: type) -> Callable[[str], Any]:
    """A parser for a whole number (`int`) or a number (`float`)."""
    def parse(text: Any) -> Any:
        if isinstance(text, kind):
            return text
        try:
            return kind(text)
        except (TypeError, ValueError):
            what = "a whole number" if kind is int else "a number"
            raise typer.BadParameter(f"{text!r} is not {what}") from None
    return parse
