"""Tensor's Python operators (`a + b`, `a @ b`, `a == b`, `t -= x` ...), each a thin method over
the torch-level function that does the work (engine/functional/), which sits above Tensor: it
binds itself here as `F` when it is imported (engine/functional/methods.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from engine.tensor import Tensor

F: Any = None  # engine.functional, bound by engine/functional/methods.py


class TensorOperators:
    """The operators of Tensor (its base class)."""

    __slots__ = ()

    if TYPE_CHECKING:  # Tensor's, used by the in-place operators below
        def assign_inplace(self, result: Tensor) -> Tensor: ...
        def _update_in_place(self, ufunc: np.ufunc, other: Any) -> bool: ...

    def __add__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.add(self, other)

    def __radd__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.add(self, other)

    def __sub__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.sub(self, other)

    def __rsub__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.rsub(self, other)

    def __mul__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.mul(self, other)

    def __rmul__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.mul(self, other)

    def __truediv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.div(self, other)

    def __rtruediv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.rdiv(self, other)

    def __floordiv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.floor_divide(self, other)

    def __mod__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.remainder(self, other)

    def __rfloordiv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.floor_divide(other, self)

    def __rmod__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.remainder(other, self)

    def __pow__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.pow(self, other)

    def __rpow__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.rpow(self, other)

    def __matmul__(self, other: Any) -> Tensor:
        if not isinstance(other, TensorOperators):
            return NotImplemented
        return F.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        if not isinstance(other, TensorOperators):
            return NotImplemented
        return F.matmul(other, self)

    def __neg__(self) -> Tensor:
        return F.neg(self)

    def __pos__(self) -> Any:  # self (a Tensor)
        return self

    def __abs__(self) -> Tensor:
        return F.abs(self)

    # `t -= x` is `t.sub_(x)`; the SGD update of a training loop takes the short way
    def __iadd__(self, other: Any) -> Any:  # self (a Tensor)
        return self._in_place(other, np.add, "add")

    def __isub__(self, other: Any) -> Any:  # self (a Tensor)
        return self._in_place(other, np.subtract, "sub")

    def __imul__(self, other: Any) -> Any:  # self (a Tensor)
        return self._in_place(other, np.multiply, "mul")

    def _in_place(self, other: Any, ufunc: np.ufunc, name: str) -> Any:
        """`self <op>= other`: straight into self's array when that is all it is, else the
        torch function NAME and its result written into self."""
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        if self._update_in_place(ufunc, other):
            return self
        return self.assign_inplace(getattr(F, name)(self, other))

    def __itruediv__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return self.assign_inplace(F.div(self, other))

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.eq(self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.ne(self, other)

    def __lt__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.lt(self, other)

    def __le__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.le(self, other)

    def __gt__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.gt(self, other)

    def __ge__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.ge(self, other)

    def __invert__(self) -> Tensor:
        return F.logical_not(self)

    def __and__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.logical_and(self, other)

    def __or__(self, other: Any) -> Tensor:
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return F.logical_or(self, other)


# What an operator takes besides a tensor; anything else (None, a str, a list) is
# NotImplemented, so Python falls back as with torch: `t == None` is False, `t + None` a TypeError
_OPERANDS = (TensorOperators, int, float)
