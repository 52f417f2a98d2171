"""`typing`: the names annotations use (`List[int]`, `Optional[Tensor]`, ...).

agraph does not check annotations; these names only have to exist, be subscriptable and
combine with `|`, as they do in Python.
"""

from __future__ import annotations

from typing import Any

from autograd_cli.language.objects import Namespace

_NAMES = """Any List Dict Tuple Set FrozenSet Optional Union Callable Iterable Iterator
Sequence Mapping MutableMapping Type TypeVar Generic NamedTuple Literal Final ClassVar Protocol
Generator Deque DefaultDict Counter OrderedDict Hashable Sized Container Collection""".split()


class TypingName:
    """`typing.List` and friends: subscript and `|` give another TypingName."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __getitem__(self, item: Any) -> TypingName:
        return TypingName(self.text)

    def __or__(self, other: Any) -> TypingName:
        return TypingName(self.text)

    __ror__ = __or__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.text in ("typing.TypeVar",) and args:
            return TypingName(str(args[0]))
        raise TypeError(f"{self.text} cannot be called in agraph")

    def __repr__(self) -> str:
        return self.text


def cast(kind: Any, value: Any) -> Any:
    return value


def namespace(runtime: Any, name: str) -> Namespace:
    members: dict[str, Any] = {item: TypingName(f"typing.{item}") for item in _NAMES}
    members.update(cast=cast, TYPE_CHECKING=False)
    return Namespace(name, members)
