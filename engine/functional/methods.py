"""The Tensor methods that are torch functions (`t.sum()`, `t.pow(2)`, `t.add_(1)`), installed
on the class from engine/registry.py when engine.functional is imported; Tensor's operators
(`a + b`) reach engine.functional through the module global this binds in engine/tensor.py."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from engine import registry, tensor_operators
from engine.tensor import Tensor, numpy_names


def install(functional: ModuleType) -> None:
    """A real method for each registered method name (no failed lookup through __getattr__),
    the names added to what a program may read, and `functional` bound for the operators."""
    for name, function in registry.METHODS.items():
        if name not in Tensor.__dict__:
            setattr(Tensor, name, _method(function))
    for name, function in registry.INPLACE.items():
        if name not in Tensor.__dict__:
            setattr(Tensor, name, _inplace_method(function))
    Tensor.PUBLIC_ATTRS = (Tensor.PUBLIC_ATTRS | frozenset(registry.METHODS)
                           | frozenset(registry.INPLACE))
    tensor_operators.F = functional


def _method(function: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return function(self, *args, **numpy_names(kwargs) if kwargs else kwargs)
    method.__name__ = method.__qualname__ = function.__name__
    return method


def _inplace_method(function: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        kwargs = numpy_names(kwargs) if kwargs else kwargs
        return self.assign_inplace(function(self, *args, **kwargs))
    method.__name__ = method.__qualname__ = function.__name__ + "_"
    return method
