"""`importlib.metadata.version`: the version of an installed distribution, which notebooks print
first ("torch version: 2.13.0+cpu").

agraph knows one version, torch's: the PyTorch whose behaviour it reproduces. A distribution not
installed where PyTorch's results are recorded (tiktoken, ...) raises PackageNotFoundError, as
it does there; the version of any other package installed there (numpy, matplotlib, ...) is
refused. Nothing else of importlib is offered.
"""

from __future__ import annotations

import re
from typing import Any

from autograd_cli.language.objects import Namespace
from autograd_cli.library import ORACLE_ENVIRONMENT
from engine import device


class PackageNotFoundError(ModuleNotFoundError):
    """importlib.metadata's error for a distribution that is not installed (a
    ModuleNotFoundError), with Python's message."""

    def __init__(self, name: str) -> None:
        super().__init__(f"No package metadata was found for {name}")
        self.name = name


PackageNotFoundError.__module__ = "builtins"  # named PackageNotFoundError in the program's errors


def _normalized(name: str) -> str:
    """A distribution name as importlib.metadata compares them ("Typing-Extensions" is
    "typing_extensions")."""
    return re.sub(r"[-_.]+", "_", name).lower()


def version(distribution_name: Any) -> str:
    if not isinstance(distribution_name, str):
        raise TypeError(f"expected str, not {type(distribution_name).__name__}")
    name = _normalized(distribution_name)
    if name == "torch":
        return str(device.VERSION["__version__"])
    if name not in {_normalized(installed) for installed in ORACLE_ENVIRONMENT}:
        raise PackageNotFoundError(distribution_name)
    raise NotImplementedError(f"importlib.metadata.version({distribution_name!r}) is not "
                              "supported by agraph: it knows torch's version only")


def namespace(runtime: Any, name: str) -> Namespace:
    submodule = Namespace("importlib.metadata", {
        "version": version, "PackageNotFoundError": PackageNotFoundError})
    return Namespace(name, {"metadata": submodule})
