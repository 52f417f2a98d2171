"""`copy`: `copy` and `deepcopy` of the values a program holds, as Python and PyTorch copy them.

`deepcopy` walks an allow-list: numbers, strings and other immutables (kept), containers
(copied item by item, a value reached twice copied once), tensors (a leaf's data and
`requires_grad` copied, its grad and a plain tensor's own attributes too, as
`Tensor.__deepcopy__`; a non-leaf refused with PyTorch's error), parameters, numpy arrays,
nn.Modules and a program's own objects (their attributes copied). Functions, classes and
modules are kept, as Python keeps them. Anything else is refused by name rather than copied
blindly.
"""

from __future__ import annotations

import collections
from typing import Any

import numpy as np

from autograd_cli.language import classes
from autograd_cli.language.memory import charge_result, check_copy
from autograd_cli.language.objects import (
    BoundMethod,
    BuiltinType,
    HostCallable,
    Namespace,
    UserFunction,
)
from autograd_cli.library.collections_module import DefaultDict
from engine import budget
from engine.device import Device
from engine.dtypes import DType
from engine.ndarray import NumpyArray
from engine.nn.module import Module
from engine.size import Size
from engine.tensor import Parameter, Tensor

NON_LEAF = ("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
            "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
            "because of a torch.nn.utils.weight_norm usage, see "
            "https://github.com/pytorch/pytorch/pull/103001")
_KEPT = (type(None), bool, int, float, complex, str, bytes, range, slice, type, DType, Size, Device,
         UserFunction,
         BoundMethod, HostCallable, BuiltinType, Namespace, classes.ClassView)


def _copied_array(array: np.ndarray) -> np.ndarray:
    budget.check_shape(array.shape, array.itemsize)
    return np.array(array, copy=True)


def deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
    memo = {} if memo is None else memo
    key = id(value)
    if key in memo:
        return memo[key]
    if isinstance(value, _KEPT) or classes.is_program_class(value):
        return value
    result: Any
    if isinstance(value, Tensor):
        if not value.is_leaf:
            raise RuntimeError(NON_LEAF)
        data = Tensor._wrap(_copied_array(value.array))
        result = Parameter(data, value.requires_grad) if isinstance(value, Parameter) else data
        if not isinstance(value, Parameter) and value.requires_grad:
            result.requires_grad_(True)
        memo[key] = result
        if value.grad is not None:
            result.grad = deepcopy(value.grad, memo)
        if not isinstance(value, Parameter):  # Parameter.__deepcopy__ leaves them behind
            for name, item in value.program_attributes.items():
                result.program_attributes[name] = deepcopy(item, memo)
        return result
    if isinstance(value, NumpyArray):
        result = memo[key] = NumpyArray(_copied_array(value._array))
        return result
    if type(value) in (tuple, list, dict, set, frozenset, collections.OrderedDict):
        check_copy(value)  # each container copied once: within the memory left, first
    if type(value) is tuple:
        items = tuple(deepcopy(item, memo) for item in value)
        unchanged = all(a is b for a, b in zip(items, value, strict=True))
        result = memo[key] = value if unchanged else items
        charge_result(result)
        return result
    if type(value) is list:
        result = memo[key] = []
        result.extend(deepcopy(item, memo) for item in value)
        charge_result(result)  # copies made deeper down were checked before this one grew
        return result
    if isinstance(value, (dict, collections.OrderedDict)) and type(value) in (
            dict, collections.OrderedDict, DefaultDict):
        result = memo[key] = (DefaultDict(value.default_factory) if isinstance(value, DefaultDict)
                              else type(value)())
        for item_key, item in value.items():
            result[deepcopy(item_key, memo)] = deepcopy(item, memo)
        charge_result(result)
        return result
    if type(value) in (set, frozenset):
        result = memo[key] = type(value)(deepcopy(item, memo) for item in value)
        charge_result(result)
        return result
    if isinstance(value, Module) or classes.is_plain_program_object(value):
        result = memo[key] = object.__new__(type(value))
        for name, item in value.__dict__.items():
            object.__setattr__(result, name, deepcopy(item, memo))
        return result
    raise TypeError(f"deepcopy of a {type(value).__name__} is not supported by agraph")


def copy(value: Any) -> Any:
    """A shallow copy: a new container (or object) holding the same items."""
    if isinstance(value, _KEPT) or type(value) in (tuple, frozenset):
        return value
    if type(value) in (list, dict, set, collections.OrderedDict):
        return type(value)(value)
    if isinstance(value, Module) or classes.is_plain_program_object(value):
        result = object.__new__(type(value))
        for name, item in value.__dict__.items():
            object.__setattr__(result, name, item)
        return result
    if isinstance(value, Tensor):
        return deepcopy(value)  # PyTorch's Tensor has no shallow copy: its reduction copies
    raise TypeError(f"copy of a {type(value).__name__} is not supported by agraph")


def namespace(runtime: Any, name: str) -> Namespace:
    return Namespace(name, {"copy": copy, "deepcopy": deepcopy})
