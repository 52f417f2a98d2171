"""`Refused`: what a program gets for a library function that would reach the host.

(The engine's own objects use it too: `ndarray.tofile`; the libraries of autograd_cli/library
bind their refused names to it.)

Importing a module is always allowed; a name in it that would touch files, processes, the
network or the interpreter is bound to a `Refused` that raises PermissionError, naming the
function and why, at the line that *uses* it (a call, an attribute, an item, iteration, a
print). It holds only two strings, so there is nothing behind it to reach.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NoReturn

WHY = {
    "files": "it would read or write files on the host",
    "process": "it would start or control a process on the host",
    "network": "it would open a network connection",
    "interpreter": "it would reach the Python interpreter that runs agraph",
    "environment": "it would read the host's environment or file system",
    "memory": "it would hand the program the raw memory of an array",
}


class Refused:
    """A placeholder for `qualified_name`; any use of it raises PermissionError."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("qualified_name", "reason")

    def __init__(self, qualified_name: str, reason: str) -> None:
        self.qualified_name = qualified_name
        self.reason = reason

    def error(self) -> PermissionError:
        return PermissionError(
            f"{self.qualified_name} is not available in agraph: {WHY[self.reason]}; an agraph "
            "program cannot reach files, processes, the network or the interpreter")

    def refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise self.error()

    __call__ = refuse
    __getitem__ = refuse
    __setitem__ = refuse
    __contains__ = refuse
    __len__ = refuse
    __bool__ = refuse
    __str__ = refuse
    # comparisons and arithmetic, either side (`sys.version_info >= (3, 8)`, `2 * x`)
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = refuse  # type: ignore[assignment]
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = refuse
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = refuse
    __pow__ = __rpow__ = __matmul__ = __rmatmul__ = __neg__ = __pos__ = __abs__ = refuse
    __int__ = __float__ = __index__ = refuse

    def __iter__(self) -> Iterator[Any]:
        raise self.error()

    def __hash__(self) -> int:
        return hash(self.qualified_name)

    def __repr__(self) -> str:
        return f"<refused {self.qualified_name}>"


def refused(module: str, reasons: dict[str, str]) -> dict[str, Refused]:
    """`{name: Refused("module.name()", reason)}` for a module's refused functions
    (`reasons` maps each name to a key of WHY)."""
    return {name: Refused(f"{module}.{name}()", reason) for name, reason in reasons.items()}
