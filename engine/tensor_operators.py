"""Tensor's Python operators (`a + b`, `a @ b`, `a == b`, `t -= x` ...), each a thin method over
the torch-level function that does the work (engine/functional/), which sits above Tensor: it
binds itself here as `F` when it is imported (engine/functional/methods.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from engine.tensor import Tensor

F: Any = None  # engine.functional, bound by engine/functional/methods.py


def _binary(name: str, swapped: bool = False, tensors_only: bool = False
            ) -> Callable[[Any, Any], Any]:
    """An operator method: the torch function NAME of (self, other), or of (other, self) when
    SWAPPED; NotImplemented for an operand that is not a tensor or a number (not a tensor, with
    TENSORS_ONLY), so that Python falls back as with torch."""

    def operator(self: Any, other: Any) -> Any:
        if not isinstance(other, TensorOperators if tensors_only else _OPERANDS):
            return NotImplemented
        function = getattr(F, name)
        return function(other, self) if swapped else function(self, other)

    return operator


class TensorOperators:
    """The operators of Tensor (its base class)."""

    __slots__ = ()

    if TYPE_CHECKING:  # Tensor's, used by the in-place operators below
        def assign_inplace(self, result: Tensor) -> Tensor: ...
        def _update_in_place(self, ufunc: np.ufunc, other: Any) -> bool: ...

    __add__ = __radd__ = _binary("add")
    __sub__ = _binary("sub")
    __rsub__ = _binary("rsub")
    __mul__ = __rmul__ = _binary("mul")
    __truediv__ = _binary("div")
    __rtruediv__ = _binary("rdiv")
    __floordiv__ = _binary("floor_divide")
    __rfloordiv__ = _binary("floor_divide", swapped=True)
    __mod__ = _binary("remainder")
    __rmod__ = _binary("remainder", swapped=True)
    __pow__ = _binary("pow")
    __rpow__ = _binary("rpow")
    __matmul__ = _binary("matmul", tensors_only=True)
    __rmatmul__ = _binary("matmul", swapped=True, tensors_only=True)
    __eq__ = _binary("eq")  # type: ignore[assignment]
    __ne__ = _binary("ne")  # type: ignore[assignment]
    __lt__ = _binary("lt")
    __le__ = _binary("le")
    __gt__ = _binary("gt")
    __ge__ = _binary("ge")
    __and__ = __rand__ = _binary("bitwise_and")
    __or__ = __ror__ = _binary("bitwise_or")
    __xor__ = __rxor__ = _binary("bitwise_xor")

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

    def __invert__(self) -> Tensor:
        if self.dtype.category > 1:  # type: ignore[attr-defined]
            raise TypeError("~ (operator.invert) is only implemented on integer and "
                            "Boolean-type tensors")
        return F.bitwise_not(self)


# What an operator takes besides a tensor; anything else (None, a str, a list) is
# NotImplemented, so Python falls back as with torch: `t == None` is False, `t + None` a TypeError
_OPERANDS = (TensorOperators, int, float)
