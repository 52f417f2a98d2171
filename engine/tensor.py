"""`Tensor`: a numpy array plus PyTorch's autograd state and its observable behaviour.

The math lives in engine/ops/ (one op, one place); this class is the PyTorch-shaped front:
attributes, operators, methods, in-place ops with their version counter, printing.
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from engine import budget, dtypes, grad_mode
from engine.autograd import AccumulateGrad, Node, run_backward

NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation.")


class Size(tuple):  # type: ignore[type-arg]
    """`torch.Size`: a tuple of ints that prints as `torch.Size([2, 3])`."""

    PUBLIC_ATTRS = frozenset({"numel", "count", "index"})

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(d) for d in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64)) if self else 1


class Tensor:
    """A tensor as PyTorch shows it: data, requires_grad, grad, grad_fn, is_leaf, version."""

    PUBLIC_ATTRS = frozenset("""
        data grad requires_grad is_leaf grad_fn shape dtype ndim T mT device is_cuda
        retains_grad output_nr
        dim size numel item tolist backward retain_grad register_hook detach detach_
        requires_grad_ clone zero_ fill_ copy_ add_ sub_ mul_ div_ clamp_ pow_ neg_ abs_
        exp_ sqrt_ relu_ sigmoid_ tanh_ clamp_min_ clamp_max_ uniform_ normal_
        add sub mul div pow neg abs exp log sqrt sin cos tanh sigmoid relu softmax log_softmax
        clamp clamp_min clamp_max clip sum mean max min prod argmax argmin cumsum
        matmul mm mv dot t transpose permute reshape view view_as reshape_as flatten squeeze
        unsqueeze expand expand_as repeat
        float double long int bool half to type type_as cpu numpy_dtype is_floating_point
        element_size nelement norm square log1p expm1 reciprocal rsqrt sign floor ceil round
        std var maximum minimum where masked_fill eq ne lt le gt ge equal allclose isnan isinf
        any all unbind split chunk contiguous is_contiguous storage_offset stride
        true_divide floor_divide remainder fmod logsumexp
        new_zeros new_ones new_full new_tensor zeros_like ones_like sort topk diag trace
        """.split())
    SETTABLE_ATTRS = frozenset({"requires_grad", "data", "grad"})

    __slots__ = ("array", "_requires_grad", "_grad", "grad_fn", "output_nr", "_version",
                 "_retains_grad", "_accumulator", "_base", "__weakref__")

    def __init__(self, *args: Any, dtype: Any = None, requires_grad: bool = False) -> None:
        """`torch.Tensor(list)` or `torch.Tensor(2, 3)`: float32 (the legacy constructor)."""
        from engine.creation import array_from_data

        if len(args) == 1 and not isinstance(args[0], int):
            array = array_from_data(args[0], dtypes.float32)
        else:
            shape = tuple(args)
            budget.check_shape(shape, 4)
            array = np.zeros(shape, dtype=np.float32)
        self._init(array)
        if requires_grad:
            self.requires_grad_(True)

    def _init(self, array: np.ndarray) -> None:
        self.array = array
        self._requires_grad = False
        self._grad: Tensor | None = None
        self.grad_fn: Node | None = None
        self.output_nr = 0
        self._version = [0]
        self._retains_grad = False
        self._accumulator: weakref.ref[AccumulateGrad] | None = None
        self._base: Tensor | None = None

    @classmethod
    def _wrap(cls, array: Any) -> Tensor:
        """A new tensor over `array` (no copy); the one way ops make their outputs."""
        tensor = Tensor.__new__(Tensor)
        if not isinstance(array, np.ndarray):
            array = np.asarray(array)
        tensor._init(array)
        return tensor

    # --- autograd state ---------------------------------------------------------------------

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad(self) -> Tensor | None:
        if self.grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of "
                                f"type {type(value).__name__}")
            if value.shape_tuple != self.shape_tuple:
                raise RuntimeError("assigned grad has data of a different size")
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    @property
    def version(self) -> int:
        return self._version[0]

    def bump_version(self) -> None:
        self._version[0] += 1

    def accumulator(self) -> AccumulateGrad:
        """The AccumulateGrad node of this leaf, the same one while the graph holds it."""
        node = self._accumulator() if self._accumulator is not None else None
        if node is None:
            node = AccumulateGrad(self)
            self._accumulator = weakref.ref(node)
        return node

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if not self.is_leaf:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to "
                    "use a computed variable in a subgraph that doesn't require differentiation "
                    "use var_no_grad = var.detach().")
            return self
        self.requires_grad = requires_grad
        return self

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self.grad_fn is not None and not value:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to "
                "use a computed variable in a subgraph that doesn't require differentiation "
                "use var_no_grad = var.detach().")
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self._requires_grad = bool(value)

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        self.grad_fn.retained[self.output_nr] = weakref.ref(self)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> None:
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        node = self.grad_fn if self.grad_fn is not None else self.accumulator()
        node.pre_hooks.setdefault(self.output_nr, []).append(hook)

    def backward(self, gradient: Tensor | None = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Any = None) -> None:
        from engine import functional

        functional.backward([self], None if gradient is None else [gradient],
                            retain_graph=retain_graph, create_graph=create_graph, inputs=inputs)

    def detach(self) -> Tensor:
        out = Tensor._wrap(self.array)
        out._version = self._version  # shares storage and version counter, as in PyTorch
        return out

    def detach_(self) -> Tensor:
        if self._base is not None and self._base.requires_grad:
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        self.grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> Tensor:
        return Tensor._wrap(self.array)  # shares storage, not the version counter

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError("data must be a Tensor")
        self.array = value.array

    # --- metadata ----------------------------------------------------------------------------

    @property
    def shape_tuple(self) -> tuple[int, ...]:
        return self.array.shape  # type: ignore[no-any-return]

    @property
    def shape(self) -> Size:
        return Size(self.array.shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self.array.shape)
        return self.array.shape[normalize_dim(dim, self.array.ndim)]

    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.of_array(self.array)

    @property
    def ndim(self) -> int:
        return int(self.array.ndim)

    def dim(self) -> int:
        return int(self.array.ndim)

    def numel(self) -> int:
        return int(self.array.size)

    nelement = numel

    def element_size(self) -> int:
        return int(self.array.itemsize)

    @property
    def device(self) -> str:
        return "cpu"

    is_cuda = False

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_contiguous(self) -> bool:
        return bool(self.array.flags.c_contiguous)

    def contiguous(self) -> Tensor:
        return self

    def cpu(self) -> Tensor:
        return self

    def item(self) -> Any:
        if self.array.size != 1:
            raise RuntimeError(f"a Tensor with {self.array.size} elements cannot be converted "
                               "to Scalar")
        return self.array.reshape(()).item()

    def tolist(self) -> Any:
        return self.array.tolist()

    def __len__(self) -> int:
        if self.array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return int(self.array.shape[0])

    def __iter__(self) -> Iterator[Tensor]:
        if self.array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        from engine.ops.shape import unbind

        return iter(unbind(self, 0))

    def __bool__(self) -> bool:
        if self.array.size != 1:
            raise RuntimeError(f"Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.array.reshape(()))

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self.array.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    __hash__ = object.__hash__

    # --- printing ------------------------------------------------------------------------------

    def __repr__(self) -> str:
        from engine.printing import tensor_repr

        return tensor_repr(self.array, requires_grad=self.requires_grad and self.is_leaf,
                           grad_fn_name=None if self.grad_fn is None
                           else self.grad_fn.grad_fn_name,
                           is_parameter=isinstance(self, Parameter))

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        from engine.printing import format_scalar_tensor

        if self.array.ndim == 0:
            return format_scalar_tensor(self.array, spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    # --- conversions -------------------------------------------------------------------------

    def to_numpy_dtype(self, dtype: np.dtype) -> Tensor:
        from engine.ops.shape import ToCopy

        return ToCopy.apply(self, dtype=np.dtype(dtype))

    def to(self, *args: Any, dtype: Any = None, **kwargs: Any) -> Tensor:
        for arg in args:
            if isinstance(arg, (dtypes.DType, type)):
                dtype = arg
            elif isinstance(arg, Tensor):
                dtype = arg.dtype
        if dtype is None:
            return self
        target = dtypes.resolve(dtype)
        return self if target is self.dtype else self.to_numpy_dtype(target.np)

    def type(self, dtype: Any = None) -> Any:
        if dtype is None:
            return f"torch.{self.dtype.legacy_name}"
        return self.to(dtype)

    def type_as(self, other: Tensor) -> Tensor:
        return self.to(other.dtype)

    def float(self) -> Tensor:
        return self.to(dtypes.float32)

    def double(self) -> Tensor:
        return self.to(dtypes.float64)

    def half(self) -> Tensor:
        return self.to(dtypes.float16)

    def long(self) -> Tensor:
        return self.to(dtypes.int64)

    def int(self) -> Tensor:
        return self.to(dtypes.int32)

    def bool(self) -> Tensor:
        return self.to(dtypes.bool_)

    # --- math: thin methods over engine.functional (where each op lives) --------------------

    def __add__(self, other: Any) -> Tensor:
        return F.add(self, other)

    def __radd__(self, other: Any) -> Tensor:
        return F.add(self, other)

    def __sub__(self, other: Any) -> Tensor:
        return F.sub(self, other)

    def __rsub__(self, other: Any) -> Tensor:
        return F.rsub(self, other)

    def __mul__(self, other: Any) -> Tensor:
        return F.mul(self, other)

    def __rmul__(self, other: Any) -> Tensor:
        return F.mul(self, other)

    def __truediv__(self, other: Any) -> Tensor:
        return F.div(self, other)

    def __rtruediv__(self, other: Any) -> Tensor:
        return F.rdiv(self, other)

    def __floordiv__(self, other: Any) -> Tensor:
        return F.floor_divide(self, other)

    def __mod__(self, other: Any) -> Tensor:
        return F.remainder(self, other)

    def __pow__(self, other: Any) -> Tensor:
        return F.pow(self, other)

    def __rpow__(self, other: Any) -> Tensor:
        return F.rpow(self, other)

    def __matmul__(self, other: Any) -> Tensor:
        return F.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        return F.matmul(other, self)

    def __neg__(self) -> Tensor:
        return F.neg(self)

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return F.abs(self)

    def __iadd__(self, other: Any) -> Tensor:
        return self.add_(other)

    def __isub__(self, other: Any) -> Tensor:
        return self.sub_(other)

    def __imul__(self, other: Any) -> Tensor:
        return self.mul_(other)

    def __itruediv__(self, other: Any) -> Tensor:
        return self.div_(other)

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return F.eq(self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return F.ne(self, other)

    def __lt__(self, other: Any) -> Tensor:
        return F.lt(self, other)

    def __le__(self, other: Any) -> Tensor:
        return F.le(self, other)

    def __gt__(self, other: Any) -> Tensor:
        return F.gt(self, other)

    def __ge__(self, other: Any) -> Tensor:
        return F.ge(self, other)

    def __invert__(self) -> Tensor:
        return F.logical_not(self)

    def __and__(self, other: Any) -> Tensor:
        return F.logical_and(self, other)

    def __or__(self, other: Any) -> Tensor:
        return F.logical_or(self, other)

    def __getattr__(self, name: str) -> Any:
        """Methods that are plain torch functions (`t.exp()`, `t.sum(dim=0)`, `t.add_(1)`)."""
        if name in Tensor.PUBLIC_ATTRS:
            if name.endswith("_") and hasattr(F, name[:-1]):
                function = getattr(F, name[:-1])
                return lambda *args, **kwargs: self.assign_inplace(function(self, *args,
                                                                            **kwargs))
            function = getattr(F, name, None)
            if function is not None:
                return lambda *args, **kwargs: function(self, *args, **kwargs)
        raise AttributeError(f"'Tensor' object has no attribute '{name}'")

    @property
    def T(self) -> Tensor:  # noqa: N802 - PyTorch's name
        return F.permute(self, *reversed(range(self.ndim)))

    @property
    def mT(self) -> Tensor:  # noqa: N802 - PyTorch's name
        return F.transpose(self, -2, -1)

    # --- in place ------------------------------------------------------------------------------

    def check_inplace(self) -> None:
        """PyTorch refuses in-place ops on leaves (and their views) that require grad."""
        if not grad_mode.is_grad_enabled():
            return
        if self.requires_grad and self.grad_fn is None:
            if self._base is not None:
                raise RuntimeError(VIEW_OF_LEAF_INPLACE)
            raise RuntimeError(LEAF_INPLACE)
        if self._base is not None and self._base.requires_grad and self._base.is_leaf:
            raise RuntimeError(VIEW_OF_LEAF_INPLACE)

    def assign_inplace(self, result: Tensor) -> Tensor:
        """Make `self` hold `result` in place: same storage, the new history, version + 1."""
        self.check_inplace()
        if not np.can_cast(result.array.dtype, self.array.dtype, casting="same_kind") and not (
                self.array.dtype.kind == "f" and result.array.dtype.kind in "iub"):
            raise RuntimeError(f"result type {_type_word(result.array.dtype)} can't be cast to "
                               f"the desired output type {_type_word(self.array.dtype)}")
        if result.array.shape != self.array.shape:
            try:
                np.broadcast_to(result.array, self.array.shape)
            except ValueError:
                raise RuntimeError(
                    f"output with shape {list(self.array.shape)} doesn't match the broadcast "
                    f"shape {list(result.array.shape)}") from None
        if self.array.flags.writeable:
            self.array[...] = result.array
        else:
            self.array = np.array(np.broadcast_to(result.array, self.array.shape),
                                  dtype=self.array.dtype)
        self.bump_version()
        if result.grad_fn is not None:
            retained = self._retains_grad
            if retained and self.grad_fn is not None:
                self.grad_fn.retained.pop(self.output_nr, None)
            self.grad_fn = result.grad_fn
            self.output_nr = result.output_nr
            self._requires_grad = True
            if retained:
                self.grad_fn.retained[self.output_nr] = weakref.ref(self)
            result.grad_fn.output_meta = (self.shape_tuple, self.array.dtype)  # type: ignore
        return self

    def zero_(self) -> Tensor:
        return self.fill_(0)

    def fill_(self, value: Any) -> Tensor:
        from engine.ops.shape import Fill

        value_tensor = value if isinstance(value, Tensor) else None
        return self.assign_inplace(Fill.apply(self, value_tensor if value_tensor is not None
                                              else value))

    def copy_(self, source: Tensor) -> Tensor:
        from engine.ops.shape import Copy

        return self.assign_inplace(Copy.apply(self, source))

    def uniform_(self, a: float = 0.0, b: float = 1.0) -> Tensor:
        from engine import random

        with grad_mode.no_grad():
            return self.copy_(Tensor._wrap(random.uniform(self.shape_tuple, a, b,
                                                          self.array.dtype)))

    def normal_(self, mean: float = 0.0, std: float = 1.0) -> Tensor:
        from engine import random

        with grad_mode.no_grad():
            return self.copy_(Tensor._wrap(random.normal(self.shape_tuple, mean, std,
                                                         self.array.dtype)))

    # --- indexing ------------------------------------------------------------------------------

    def __getitem__(self, index: Any) -> Tensor:
        from engine.ops.shape import getitem

        return getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        from engine.ops.shape import setitem

        setitem(self, index, value)


def _type_word(dtype: np.dtype) -> str:
    return dtypes.of_array(np.empty(0, dtype)).legacy_name.removesuffix("Tensor")


def normalize_dim(dim: int, ndim: int) -> int:
    """A dim in [-ndim, ndim) as PyTorch accepts it (0-dim tensors accept 0 and -1)."""
    bound = max(ndim, 1)
    if not -bound <= dim < bound:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-bound}, {bound - 1}], but got {dim})")
    return dim % bound


def prepare_operands(args: tuple[Any, ...]) -> list[np.ndarray]:
    """Cast tensors and python scalars to PyTorch's result dtype, check the broadcast size."""
    operands = [(a.dtype, a.array.ndim) for a in args if isinstance(a, Tensor)]
    scalars = [a for a in args if not isinstance(a, Tensor)]
    for s in scalars:
        if not isinstance(s, (int, float, bool)):
            raise TypeError(f"unsupported operand type: '{type(s).__name__}'")
    result = dtypes.result_type(operands, scalars).np
    arrays = [a.array if isinstance(a, Tensor) else np.asarray(a) for a in args]
    shape = np.broadcast_shapes(*(x.shape for x in arrays)) if len(arrays) > 1 else None
    if shape is not None:
        budget.check_shape(shape, result.itemsize)
    return [x if x.dtype == result else x.astype(result) for x in arrays]


class Parameter(Tensor):
    """`nn.Parameter`: a leaf that requires grad and prints as `Parameter containing:`."""

    __slots__ = ()

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        array = data.array if data is not None else np.zeros(0, dtype=np.float32)
        self._init(array)
        if requires_grad:
            self.requires_grad_(True)


from engine import functional as F  # noqa: E402  (functional imports Tensor: a cycle by design)
