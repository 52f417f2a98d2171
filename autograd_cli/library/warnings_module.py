"""`warnings`: the filters tutorials set (`warnings.filterwarnings("ignore")`) and `warn`.

A run records warnings inside its own `warnings.catch_warnings()` (language/interpreter.py), so
a filter a program adds lasts until the run ends and never reaches agraph or another run. The
action "error" (a warning raised as an exception from inside a torch function) is not
supported.
"""

from __future__ import annotations

import warnings
from typing import Any, Literal

from autograd_cli.language.objects import Namespace

Action = Literal["default", "ignore", "always", "module", "once"]
ACTIONS: dict[str, Action] = {"default": "default", "ignore": "ignore", "always": "always",
                              "module": "module", "once": "once"}


def _action(action: Any) -> Action:
    if action == "error":
        raise ValueError("warnings action 'error' is not supported by agraph")
    if not isinstance(action, str) or action not in ACTIONS:
        raise ValueError(f"invalid action: {action!r}")
    return ACTIONS[action]


def _category(category: Any) -> type[Warning]:
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError("category must be a Warning subclass")
    return category


def filterwarnings(action: Any, message: Any = "", category: Any = Warning, module: Any = "",
                   lineno: Any = 0, append: bool = False) -> None:
    if not isinstance(message, str) or not isinstance(module, str):
        raise TypeError("message and module must be strings")
    if not isinstance(lineno, int) or lineno < 0:
        raise ValueError("lineno must be an int >= 0")
    warnings.filterwarnings(_action(action), message, _category(category), module, lineno,
                            bool(append))


def simplefilter(action: Any, category: Any = Warning, lineno: Any = 0,
                 append: bool = False) -> None:
    if not isinstance(lineno, int) or lineno < 0:
        raise ValueError("lineno must be an int >= 0")
    warnings.simplefilter(_action(action), _category(category), lineno, bool(append))


def warn(message: Any, category: Any = None, stacklevel: Any = 1) -> None:
    if isinstance(message, Warning):
        category, message = type(message), str(message)
    if not isinstance(message, str):
        raise TypeError(f"expected a str message, not {type(message).__name__}")
    warnings.warn(message, UserWarning if category is None else _category(category),
                  stacklevel=2)


def namespace(runtime: Any, name: str) -> Namespace:
    return Namespace(name, {"filterwarnings": filterwarnings, "simplefilter": simplefilter,
                            "warn": warn})
