"""The containers: `nn.Sequential` and `nn.ModuleList`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.nn.module import Module


class _Children(Module):
    """What Sequential and ModuleList share: len() and iteration over the children, in order."""

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules.values()))  # type: ignore[arg-type]


class Sequential(_Children):
    """Modules applied in order; `model[0]`, `model[-1]`, `model[1:]`, `len`, iteration."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"append"}

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input: Any) -> Any:  # noqa: A002
        for module in self:
            input = module(input)
        return input

    def __getitem__(self, index: Any) -> Any:
        items = list(self._modules.items())
        if isinstance(index, slice):
            return Sequential(dict(items[index]))
        position = index.__index__()
        if not -len(items) <= position < len(items):
            raise IndexError(f"index {position} is out of range")
        return items[position][1]

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self


class ModuleList(_Children):
    """A list of modules registered as children "0", "1", ...; no forward of its own."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"append", "extend", "insert"}

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, index: Any) -> Any:
        items = list(self._modules.values())
        if isinstance(index, slice):
            return ModuleList(items[index])
        position = index.__index__()
        if not -len(items) <= position < len(items):
            raise IndexError(f"index {position} is out of range")
        return items[position]

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Any) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        items = list(self._modules.values())
        items.insert(index, module)
        self._modules.clear()
        for position, item in enumerate(items):
            self.add_module(str(position), item)
