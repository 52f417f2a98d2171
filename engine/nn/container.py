"""The containers: `nn.Sequential`, `nn.ModuleList`, `nn.ModuleDict`, `nn.ParameterList` and
`nn.ParameterDict`."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from engine.nn.module import Module, indent, typename
from engine.tensor import Parameter, Tensor


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

    def __repr__(self) -> str:
        """torch's: runs of modules that print alike shown once, as `(0-2): 3 x Linear(...)`."""
        reprs = [repr(item) for item in self._modules.values()]
        if not reprs:
            return type(self).__name__ + "()"
        runs: list[list[Any]] = []  # [first index, last index, text]
        for position, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = position
            else:
                runs.append([position, position, text])
        lines = [indent(f"({first}): {text}" if first == last
                        else f"({first}-{last}): {last - first + 1} x {text}", 2)
                 for first, last, text in runs]
        return type(self).__name__ + "(\n  " + "\n  ".join(lines) + "\n)"


class _Keyed(Module):
    """What ModuleDict and ParameterDict share: the dict protocol over one registration table
    (`_modules` or `_parameters`), in insertion order; `__setitem__` registers."""

    TABLE = "_modules"
    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"keys", "values", "items", "update", "pop", "clear",
                                          "get"}

    def _table(self) -> dict[str, Any]:
        return self.__dict__[self.TABLE]  # type: ignore[no-any-return]

    def __getitem__(self, key: str) -> Any:
        return self._table()[key]

    def __setitem__(self, key: str, value: Any) -> None:
        raise NotImplementedError

    def __delitem__(self, key: str) -> None:
        del self._table()[key]

    def __len__(self) -> int:
        return len(self._table())

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._table()))

    def __contains__(self, key: str) -> bool:
        return key in self._table()

    def keys(self) -> list[str]:
        return list(self._table())

    def values(self) -> list[Any]:
        return list(self._table().values())

    def items(self) -> list[tuple[str, Any]]:
        return list(self._table().items())

    def get(self, key: str, default: Any = None) -> Any:
        return self._table().get(key, default)

    def update(self, pairs: Any) -> None:
        for key, value in pairs.items() if isinstance(pairs, (dict, _Keyed)) else pairs:
            self[key] = value

    def pop(self, key: str) -> Any:
        return self._table().pop(key)

    def clear(self) -> None:
        self._table().clear()


class ModuleDict(_Keyed):
    """Modules registered under string keys, in insertion order; no forward of its own."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)


def _as_parameter(value: Any) -> Any:
    """What ParameterList/ParameterDict store: a tensor becomes a Parameter, as in torch."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _parameter_line(key: Any, value: Any, legacy: bool = False) -> str:
    """One line of ParameterList/ParameterDict's repr, as torch's extra_repr writes it (the
    dict names the type the legacy way, `torch.FloatTensor`)."""
    if isinstance(value, Tensor):
        size = "x".join(str(s) for s in value.shape_tuple)
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        type_name = f"torch.{value.dtype.legacy_name}" if legacy else str(value.dtype)
        return f"  ({key}): {kind} containing: [{type_name} of size {size}]"
    return f"  ({key}): Object of type: {typename(value)}"


class ParameterList(Module):
    """Parameters registered as "0", "1", ...: `params[0]`, `append`, `extend`, iteration."""

    PUBLIC_ATTRS = Module.PUBLIC_ATTRS | {"append", "extend"}

    def __init__(self, values: Any = None) -> None:
        super().__init__()
        if values is not None:
            self.extend(values)

    def __getitem__(self, index: Any) -> Any:
        items = list(self._parameters.values())
        if isinstance(index, slice):
            return ParameterList(items[index])
        position = index.__index__()
        if not -len(items) <= position < len(items):
            raise IndexError(f"index {position} is out of range")
        return items[position]

    def __setitem__(self, index: int, value: Any) -> None:
        position = index.__index__() % max(1, len(self))
        self.register_parameter(str(position), _as_parameter(value))

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._parameters.values()))

    def append(self, value: Any) -> ParameterList:
        self.register_parameter(str(len(self)), _as_parameter(value))
        return self

    def extend(self, values: Any) -> ParameterList:
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(i, p) for i, p in enumerate(self))


class ParameterDict(_Keyed):
    """Parameters registered under string keys, in insertion order."""

    TABLE = "_parameters"

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __setitem__(self, key: str, value: Any) -> None:
        self.register_parameter(key, _as_parameter(value))

    def update(self, pairs: Any) -> None:
        """As torch's: a plain dict's keys are taken in sorted order (an OrderedDict's, a
        ParameterDict's and a sequence of pairs in theirs)."""
        if isinstance(pairs, dict) and not isinstance(pairs, OrderedDict):
            pairs = sorted(pairs.items())
        super().update(pairs)

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(k, p, True) for k, p in self._parameters.items())
