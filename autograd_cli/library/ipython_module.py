"""`IPython.display`: what notebook tutorials call to show progress, as IPython behaves outside
a notebook (a program run by agraph is a plain script).

`display(*objs)` prints them as `print` does; `clear_output(wait=...)` writes the two "erase the
line" escapes IPython writes to a terminal. Everything else of IPython is left out.
"""

from __future__ import annotations

from typing import Any

from autograd_cli.language.builtins import _Builtins
from autograd_cli.language.objects import Namespace

ERASE_LINE = "\033[2K\r"


def namespace(runtime: Any, name: str) -> Namespace:
    builtins = _Builtins(runtime)

    def display(*objs: Any, **options: Any) -> None:
        builtins.print(*objs)

    def clear_output(wait: bool = False) -> None:
        builtins.print(ERASE_LINE, end="")
        builtins.print(ERASE_LINE, end="")

    submodule = Namespace("IPython.display", {"display": display, "clear_output": clear_output})
    return Namespace(name, {"display": submodule})
