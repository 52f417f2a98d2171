"""Python's operators for programs, with the size of a result checked before C builds it.

`10 ** 10 ** 10`, `'a' * 10 ** 10` or `n * n` in a loop each run as one C call that no time
limit can interrupt, so the bits of an integer result and the length of a string, list or tuple
result are estimated from the operands first. An estimate within a few bits of max_int_bits is
settled by computing the (then cheap) result and measuring it, so the limit is exact:
`2 ** 65535` (65,536 bits) is allowed, `2 ** 65536` is not. `//`, `%` and the bit operations
refuse operands over the limit (long division takes time quadratic in the bits). `str % args`
is formatted by script_format, which checks widths and the converted values the same way.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterable
from typing import Any

from autograd_cli.language.formatting import TextFormatter
from autograd_cli.language.limits import LimitExceeded, Limits
from autograd_cli.language.memory import check_container, check_text, size_argument
from autograd_cli.language.objects import is_engine_object
from engine import memory
from engine.tensor import Tensor

BINARY_OPERATORS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.MatMult: operator.matmul, ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_,
}
# `x += y` calls x.__iadd__ when it has one, as Python does: tensors change in place.
# operator's in-place twin of each is the same name with an `i` (add: iadd, or_: ior).
INPLACE_OPERATORS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    node: getattr(operator, "i" + function.__name__.rstrip("_"))
    for node, function in BINARY_OPERATORS.items()
}
UNARY_OPERATORS: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert,
    ast.Not: operator.not_,
}
COMPARISONS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}
_INTEGERS = (int, bool)
_SEQUENCES = (str, bytes, list, tuple)  # bytes: what graphviz's pipe() returns
# operands (and subclasses, like torch.Size) whose result an operator can blow up: big
# integers, repeated sequences, % formats
_SIZED = (int, str, list, tuple, bytes)
# what a tensor on the left of an operator can take without a size check: never a sequence
# (`t * [1]` repeats the list t.__index__() times)
_TENSOR_OPERANDS = frozenset({Tensor, int, float, bool})
# Integer results this close to max_int_bits (estimated from the operands' bits) are computed
# and then measured: the estimate can be a bit off, the computation is then cheap.
_MARGIN_BITS = 64
# Integer results from this size on are charged to the memory account (smaller ones are seen
# by the interpreter's sampling).
_CHARGED_BITS = 4096


class CheckedOperators:
    """Binary and in-place operators under the run's limits."""

    def __init__(self, limits: Limits, formatter: TextFormatter,
                 bounded_list: Callable[[Iterable[Any]], list[Any]]) -> None:
        self.limits = limits
        # below this, an estimate of an integer result's bits needs no second look
        self.safe_bits = limits.max_int_bits - _MARGIN_BITS
        self.formatter = formatter
        self.bounded_list = bounded_list
        # Each check raises for a result that is too big, and returns True for an integer
        # result whose size it cannot tell exactly, to be measured once computed.
        self.size_checks: dict[type[ast.operator], Callable[[Any, Any], bool | None]] = {
            ast.Add: self._check_add, ast.Sub: self._check_subtract, ast.Mult: self._check_multiply,
            ast.Pow: self._check_power, ast.LShift: self._check_shift,
            ast.FloorDiv: self._check_operands, ast.Mod: self._check_operands,
            ast.RShift: self._check_operands, ast.BitOr: self._check_operands,
            ast.BitXor: self._check_operands, ast.BitAnd: self._check_operands,
        }

    def binary(self, operation: type[ast.operator], left: Any, right: Any) -> Any:
        """`left <op> right`."""
        if not isinstance(left, _SIZED) and not isinstance(right, _SIZED) or (
                left.__class__ is Tensor and right.__class__ in _TENSOR_OPERANDS):
            return BINARY_OPERATORS[operation](left, right)  # tensors, floats: nothing to check
        if operation is ast.Mod and type(left) is str:
            return self.formatter.percent(left, right)
        return self._checked(BINARY_OPERATORS[operation], operation, left, right)

    def inplace(self, operation: type[ast.operator], left: Any, right: Any) -> Any:
        """`left <op>= right`: the object's in-place method if it has one."""
        if left.__class__ is Tensor and right.__class__ in _TENSOR_OPERANDS:  # `w -= lr * g`
            return INPLACE_OPERATORS[operation](left, right)
        if operation is ast.Mod and type(left) is str:
            return self.formatter.percent(left, right)
        if type(left) is list and operation is ast.Add:
            # list += iterable extends from any iterable in C: take the items counted.
            right = self.bounded_list(right)
            self.check_list_length(len(left) + len(right))
            check_container(list, len(left) + len(right))
            return operator.iadd(left, right)
        return self._checked(INPLACE_OPERATORS[operation], operation, left, right)

    def _checked(self, function: Callable[[Any, Any], Any], operation: type[ast.operator],
                 left: Any, right: Any) -> Any:
        """`function(left, right)` after OPERATION's size check (a repeat's count read once)."""
        if operation is ast.Mult:
            left, right = _repeat_operands(left, right)
        check = self.size_checks.get(operation)
        if check is not None and check(left, right):
            return self._measured(function(left, right))
        return function(left, right)

    def check_list_length(self, size: int) -> None:
        if size > self.limits.max_list_len:
            raise LimitExceeded("max_list_len", f"a list of {size} items is more than "
                                f"{self.limits.max_list_len}")

    def _check_add(self, left: Any, right: Any) -> bool | None:
        if type(left) in _INTEGERS and type(right) in _INTEGERS:
            return self._check_int_bits(max(left.bit_length(), right.bit_length()) + 1)
        if isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES):
            self._check_length(_base_sequence(left), len(left) + len(right), left, right)
        return None

    def _check_subtract(self, left: Any, right: Any) -> bool | None:
        if type(left) in _INTEGERS and type(right) in _INTEGERS:
            return self._check_int_bits(max(left.bit_length(), right.bit_length()) + 1)
        return None

    def _check_multiply(self, left: Any, right: Any) -> bool | None:
        if type(left) in _INTEGERS and type(right) in _INTEGERS:
            if not left or not right:
                return None
            return self._check_int_bits(left.bit_length() + right.bit_length())
        if isinstance(left, _SEQUENCES):
            self._check_repeat(left, right)
        elif isinstance(right, _SEQUENCES):
            self._check_repeat(right, left)
        return None

    def _check_repeat(self, sequence: Any, times: Any) -> None:
        try:
            count = operator.index(times)
        except TypeError:
            return  # Python raises its own TypeError
        self._check_length(_base_sequence(sequence), len(sequence) * max(count, 0), sequence)

    def _check_power(self, base: Any, exponent: Any) -> bool | None:
        if type(base) in _INTEGERS and type(exponent) in _INTEGERS and exponent > 0:
            magnitude = abs(base)
            if magnitude > 1:
                if magnitude & (magnitude - 1) == 0:  # 2**k: exactly k * exponent + 1 bits
                    return self._check_int_bits((magnitude.bit_length() - 1) * exponent + 1,
                                                exact=True)
                # floor(exponent * log2(base)) + 1 bits, up to the float's rounding
                return self._check_int_bits(math.floor(exponent * math.log2(magnitude)) + 1)
        return None

    def _check_shift(self, left: Any, right: Any) -> bool | None:
        if type(left) in _INTEGERS and type(right) in _INTEGERS and right > 0 and left:
            return self._check_int_bits(left.bit_length() + right, exact=True)
        return None

    def _check_operands(self, left: Any, right: Any) -> None:
        """`//`, `%`, `>>`, `&`, ...: the result is no bigger than the operands, but they must
        be within the limit (division takes time quadratic in their bits)."""
        if type(left) in _INTEGERS and type(right) in _INTEGERS:
            bits = max(left.bit_length(), right.bit_length())
            if bits > self.limits.max_int_bits:
                raise LimitExceeded("max_int_bits", f"an operand has {bits} bits, more than "
                                    f"{self.limits.max_int_bits}")

    def _check_int_bits(self, bits: int, exact: bool = False) -> bool:
        """Refuse an integer result of about `bits` bits over the limit; True if it is too
        close to tell, so that the result must be measured."""
        if bits >= _CHARGED_BITS:
            memory.charge(bits // 8, "big integers")
        if bits <= self.safe_bits:
            return False
        limit = self.limits.max_int_bits
        if exact or bits > limit + _MARGIN_BITS:
            if bits > limit:
                raise LimitExceeded("max_int_bits", f"the integer result would have about "
                                    f"{bits} bits, more than {limit}")
            return False
        return True

    def _measured(self, result: Any) -> Any:
        if type(result) is int and result.bit_length() > self.limits.max_int_bits:
            raise LimitExceeded("max_int_bits", f"the integer result has {result.bit_length()} "
                                f"bits, more than {self.limits.max_int_bits}")
        return result

    def _check_length(self, kind: type, length: int, *parts: Any) -> None:
        """A str/list/tuple of `length` items made of `parts`: within its limit, and its
        memory within --max-memory, before it is built."""
        if kind is str or kind is bytes:
            if length > self.limits.max_str_len:
                raise LimitExceeded("max_str_len", f"a string of {length} characters is more "
                                    f"than {self.limits.max_str_len}")
            check_text(length, *parts)
        else:
            self.check_list_length(length)
            check_container(kind, length)


def _repeat_operands(left: Any, right: Any) -> tuple[Any, Any]:
    """`sequence * n`, `n * sequence`: the count as an int, asked for once (a program's
    object could answer `__index__` differently the second time); a tensor keeps its own
    `*` (it multiplies a list elementwise)."""
    if isinstance(left, _SEQUENCES) and right.__class__ not in _INTEGERS and not (
            is_engine_object(right)):
        return left, size_argument(right)
    if isinstance(right, _SEQUENCES) and left.__class__ not in _INTEGERS and not (
            is_engine_object(left)):
        return size_argument(left), right
    return left, right


def _base_sequence(value: Any) -> type:
    """str, bytes, list or tuple: the built-in type a sequence (say a torch.Size) is made of."""
    for kind in _SEQUENCES:
        if isinstance(value, kind):
            return kind
    return tuple
