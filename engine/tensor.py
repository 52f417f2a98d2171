"""`Tensor`: a numpy array plus PyTorch's autograd state and its observable behaviour.

The math lives in engine/ops/ (one op, one place); this class is the PyTorch-shaped front:
attributes, operators, methods, in-place ops with their version counter, printing.
"""

from __future__ import annotations

import builtins
import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from engine import budget, dtypes, grad_mode, recording
from engine import device as devices
from engine.autograd import (
    AccumulateGrad,
    CopySlices,
    Node,
    RemovableHandle,
    gradient_edge,
    post_accumulate_hooks,
)
from engine.late_imports import late
from engine.printing import format_scalar_tensor, tensor_repr
from engine.size import Size
from engine.tensor_operators import TensorOperators

NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)
DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
    "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
    "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
    "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
SCALAR_WITH_GRAD = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first.")
ONE_ELEMENT_SCALARS = "only one element tensors can be converted to Python scalars"
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")
NOGRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
    "be tracked).")
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation.")


class Tensor(TensorOperators):
    """A tensor as PyTorch shows it: data, requires_grad, grad, grad_fn, is_leaf, version."""

    # what a program may read; engine/functional/methods.py adds the methods that are torch
    # functions (`t.sum()`, `t.add_(1)`), as engine/registry.py declares them
    PUBLIC_ATTRS = frozenset("""
        data grad requires_grad is_leaf grad_fn shape dtype ndim T mT device is_cuda
        retains_grad output_nr is_inference dim size numel item tolist backward
        retain_grad register_hook detach detach_ register_post_accumulate_grad_hook
        requires_grad_ zero_ fill_ copy_ uniform_ normal_ float double long int bool half
        to type type_as cpu cuda get_device is_floating_point numpy element_size nelement
        new_zeros new_ones new_full new_tensor new_empty stride contiguous is_contiguous
        byte char short ndimension nbytes itemsize
        """.split())
    SETTABLE_ATTRS = frozenset({"requires_grad", "data", "grad"})
    # a program may set attributes of its own on a tensor (`inp.g = grad`), which PyTorch keeps
    # in the tensor's __dict__: they live in `program_attributes`
    OPEN_ATTRS = True

    __slots__ = ("array", "_requires_grad", "_grad", "_grad_fn", "output_nr", "_version",
                 "_retains_grad", "_accumulator", "_base", "_view_version", "_hooks",
                 "_inference", "_nograd_view", "_attributes", "__weakref__")

    def __init__(self, *args: Any, dtype: Any = None, requires_grad: bool = False) -> None:
        """`torch.Tensor(list)` or `torch.Tensor(2, 3)`: float32 (the legacy constructor)."""
        from engine.creation import array_from_data  # lazy: engine.creation imports this module

        if len(args) == 1 and isinstance(args[0], Size):  # torch.Tensor(x.size()): a shape
            args = tuple(args[0])
        if len(args) == 1 and not isinstance(args[0], int):
            array = array_from_data(args[0], dtypes.default_float())
        else:
            shape = tuple(args)
            budget.check_shape(shape, 4)
            array = np.zeros(shape, dtype=dtypes.default_float().np)
        self._init(array)
        if requires_grad:
            self.requires_grad_(True)

    @property
    def program_attributes(self) -> dict[str, Any]:
        """The attributes the program set on this tensor (made on first use: most have none)."""
        try:
            return self._attributes
        except AttributeError:
            self._attributes: dict[str, Any] = {}
            return self._attributes

    def _init(self, array: np.ndarray) -> None:
        self.array = array
        self._requires_grad = False
        self._grad: Tensor | None = None
        self._grad_fn: Node | None = None
        self.output_nr = 0
        self._version = [0]  # shared by views and detach(): one counter per storage
        self._retains_grad = False
        self._accumulator: weakref.ref[AccumulateGrad] | None = None
        self._base: Tensor | None = None  # the tensor this one is a view of
        self._view_version = 0  # the version at which a view's grad_fn was last made
        self._hooks: list[Callable[[Tensor], Tensor | None]] | None = None  # a leaf's hooks
        self._inference = grad_mode.state["inference"]  # made inside torch.inference_mode()
        self._nograd_view = False  # a view made under no_grad of a tensor that requires grad

    @staticmethod
    def _wrap(array: Any) -> Tensor:
        """A new tensor over `array` (no copy); the one way ops make their outputs."""
        tensor = _new_tensor(Tensor)
        tensor.array = array if array.__class__ is np.ndarray else np.asarray(array)
        tensor._requires_grad = False
        tensor._grad = None
        tensor._grad_fn = None
        tensor.output_nr = 0
        tensor._version = [0]
        tensor._retains_grad = False
        tensor._accumulator = None
        tensor._base = None
        tensor._view_version = 0
        tensor._hooks = None
        tensor._inference = _MODE["inference"]
        tensor._nograd_view = False
        return tensor

    # --- autograd state ---------------------------------------------------------------------

    @property
    def grad_fn(self) -> Node | None:
        if self._base is not None and self._view_version != self._version[0]:
            self._regenerate_view_history()
        return self._grad_fn

    @grad_fn.setter
    def grad_fn(self, node: Node | None) -> None:
        self._grad_fn = node

    def _regenerate_view_history(self) -> None:
        """A view whose base changed in place takes its history from the base again."""
        self._view_version = self._version[0]
        base = self._base
        assert base is not None
        if base._requires_grad:
            from engine.ops.index import AsStrided  # lazy: engine.ops.index imports this module

            AsStrided.attach(base, self)

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
            if value.array.dtype != self.array.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_c_type(value.array.dtype)}' "
                    f"to a tensor with grad_dtype '{_type_word(self.array.dtype)}'. The gradient "
                    "must match the tensor's grad_dtype (defaults to the tensor's dtype). You can "
                    "set the tensor's grad_dtype attribute with a specific dtype, or None to allow "
                    "any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and "
                    "its gradient may break downstream systems that assume they match.")
            if value.shape_tuple != self.shape_tuple:
                raise RuntimeError(f"attempting to assign a gradient of size "
                                   f"'{list(value.shape_tuple)}' to a tensor of size "
                                   f"'{list(self.shape_tuple)}'. Please ensure that the gradient "
                                   "and the tensor are the same size")
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
        if requires_grad.__class__ is not builtins.bool:
            raise TypeError(f"requires_grad_(): argument 'requires_grad' (position 1) must be "
                            f"bool, not {type(requires_grad).__name__}")
        if not self.is_leaf:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to "
                    "use a computed variable in a subgraph that doesn't require differentiation "
                    "use var_no_grad = var.detach().")
            return self
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value.__class__ is not builtins.bool:
            raise RuntimeError("requires_grad must be a bool")
        if self.grad_fn is not None and value:
            raise RuntimeError("you can only change requires_grad flags of leaf variables.")
        if self.grad_fn is not None and not value:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to "
                "use a computed variable in a subgraph that doesn't require differentiation "
                "use var_no_grad = var.detach().")
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")
        if value and self._inference and not grad_mode.state["inference"]:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = bool(value)

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        grad_fn = self.grad_fn
        if grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        grad_fn.retain(self.output_nr, self)

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """A hook on the gradient of this tensor; it may return a replacement gradient."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        grad_fn = self.grad_fn
        if grad_fn is None:  # a leaf keeps its hooks itself (its AccumulateGrad comes and goes)
            if self._hooks is None:
                self._hooks = []
            self._hooks.append(hook)
            return RemovableHandle(self._hooks, hook)
        grad_fn.add_tensor_hook(self.output_nr, hook)
        return RemovableHandle(grad_fn.tensor_hooks(self.output_nr), hook)

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]
                                           ) -> RemovableHandle:
        """A hook run with this leaf after backward has accumulated into its .grad."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        hooks = post_accumulate_hooks(self)
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def backward(self, gradient: Tensor | None = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Any = None) -> None:
        backward = late("engine.functional.gradients", "backward")
        backward([self], None if gradient is None else [gradient], retain_graph=retain_graph,
                 create_graph=create_graph, inputs=inputs)

    def detach(self) -> Tensor:
        out = Tensor._wrap(self.array)
        out._version = self._version  # shares storage and version counter, as in PyTorch
        out._inference = self._inference
        return out

    def detach_(self) -> Tensor:
        if self._base is not None:
            raise RuntimeError(DETACH_VIEW)
        self._grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> Tensor:
        return Tensor._wrap(self.array)  # shares storage, not the version counter

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and not value.dtype.is_floating_point:
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self.array = value.array

    # --- metadata ----------------------------------------------------------------------------

    @property
    def shape_tuple(self) -> tuple[int, ...]:
        return self.array.shape  # type: ignore[no-any-return]

    @property
    def shape(self) -> Size:
        return _new_size(Size, self.array.shape)  # numpy's shape: ints, nothing to check

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return _new_size(Size, self.array.shape)
        return self.array.shape[normalize_dim(dim, self.array.ndim)]

    @property
    def dtype(self) -> dtypes.DType:
        return dtypes.of_array(self.array)

    @property
    def ndim(self) -> int:
        return int(self.array.ndim)

    def dim(self) -> int:
        return int(self.array.ndim)

    ndimension = dim

    def numel(self) -> int:
        return int(self.array.size)

    nelement = numel

    def stride(self, dim: Any = None) -> Any:
        strides = tuple(s // self.array.itemsize for s in self.array.strides)
        if dim is None:
            return strides
        return strides[normalize_dim(dim, self.ndim)] if self.ndim else 1

    def _new(self, maker: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Tensor:
        kwargs.setdefault("dtype", self.dtype)
        return maker(*args, **kwargs)  # type: ignore[no-any-return]

    def new_zeros(self, *size: Any, **kwargs: Any) -> Tensor:
        from engine import creation  # lazy: engine.creation imports this module
        return self._new(creation.zeros, size, kwargs)

    def new_ones(self, *size: Any, **kwargs: Any) -> Tensor:
        from engine import creation  # lazy: engine.creation imports this module
        return self._new(creation.ones, size, kwargs)

    def new_empty(self, *size: Any, **kwargs: Any) -> Tensor:
        from engine import creation  # lazy: engine.creation imports this module
        return self._new(creation.empty, size, kwargs)

    def new_full(self, size: Any, fill_value: Any, **kwargs: Any) -> Tensor:
        from engine import creation  # lazy: engine.creation imports this module
        return self._new(creation.full, (size, fill_value), kwargs)

    def new_tensor(self, data: Any, **kwargs: Any) -> Tensor:
        from engine import creation  # lazy: engine.creation imports this module
        return self._new(creation.tensor, (data,), kwargs)

    def element_size(self) -> int:
        return int(self.array.itemsize)

    @property
    def itemsize(self) -> int:
        return int(self.array.itemsize)

    @property
    def nbytes(self) -> int:
        return int(self.array.nbytes)

    @property
    def device(self) -> devices.Device:
        return devices.CPU

    is_cuda = False

    def is_inference(self) -> bool:
        return self._inference

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    def is_contiguous(self) -> bool:
        return bool(self.array.flags.c_contiguous)

    def contiguous(self, memory_format: Any = None) -> Tensor:
        return late("engine.ops.shape", "contiguous")(self)  # type: ignore[no-any-return]

    def cpu(self) -> Tensor:
        return self

    def item(self) -> Any:
        if self.array.size != 1:
            raise RuntimeError(f"a Tensor with {self.array.size} elements cannot be converted "
                               "to Scalar")
        return self.array.reshape(()).item()

    def numpy(self, *, force: builtins.bool = False) -> Any:
        """A read-only stand-in for the numpy array over this tensor's memory."""
        from engine.numpy_bridge import to_numpy  # lazy: engine.numpy_bridge imports this module

        return to_numpy(self, force)

    def tolist(self) -> Any:
        return budget.tolist(self.array, "a tensor")

    def __len__(self) -> int:
        if self.array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return int(self.array.shape[0])

    def __iter__(self) -> Iterator[Tensor]:
        if self.array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        # lazy: engine.ops.shape imports this module
        from engine.ops.shape import check_pieces, unbind

        check_pieces(self, self.array.shape[0], "iterating over each row")
        return iter(unbind(self, 0))

    def __bool__(self) -> bool:
        if self.array.size != 1:
            raise RuntimeError(f"Boolean value of Tensor with "
                               f"{'no values' if not self.array.size else 'more than one value'}"
                               " is ambiguous")
        return bool(self.array.reshape(()))

    def __float__(self) -> float:
        if self.array.size != 1:
            raise ValueError(ONE_ELEMENT_SCALARS)
        if self._requires_grad and grad_mode.is_grad_enabled():
            warnings.warn(SCALAR_WITH_GRAD, UserWarning, stacklevel=2)
        return float(self.item())

    def __int__(self) -> int:
        if self.array.size != 1:
            raise ValueError(ONE_ELEMENT_SCALARS)
        return int(self.item())

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self.array.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    __hash__ = object.__hash__

    # --- printing ------------------------------------------------------------------------------

    def __repr__(self) -> str:
        return tensor_repr(self.array, requires_grad=self.requires_grad and self.is_leaf,
                           grad_fn_name=None if self.grad_fn is None
                           else self.grad_fn.grad_fn_name,
                           is_parameter=isinstance(self, Parameter))

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self.array.ndim == 0:
            return format_scalar_tensor(self.array, spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    # --- conversions -------------------------------------------------------------------------

    def to_numpy_dtype(self, dtype: np.dtype) -> Tensor:
        from engine.ops.shape import ToCopy  # lazy: engine.ops.shape imports this module

        return ToCopy.apply(self, dtype=np.dtype(dtype))

    def to(self, *args: Any, dtype: Any = None, device: Any = None, copy: builtins.bool = False,
           **kwargs: Any) -> Tensor:
        for arg in args:
            if isinstance(arg, (dtypes.DType, type)):
                dtype = arg
            elif isinstance(arg, Tensor):
                dtype = arg.dtype
            elif devices.is_device(arg):
                device = arg
        devices.check(device)  # the CPU, or torch's error for CUDA on a CPU-only build
        target = self.dtype if dtype is None else dtypes.resolve(dtype)
        if target is self.dtype and not copy:
            return self
        return self.to_numpy_dtype(target.np)

    def cuda(self, device: Any = None, non_blocking: builtins.bool = False) -> Tensor:
        if device is not None and devices.Device(device).type != "cuda":
            raise RuntimeError("Invalid device, must be cuda device")
        raise AssertionError(devices.NO_CUDA)

    def get_device(self) -> int:
        return -1  # the CPU

    def type(self, dtype: Any = None, non_blocking: builtins.bool = False) -> Any:
        if dtype is None:
            return f"torch.{self.dtype.legacy_name}"
        return self.to(dtypes.type_target(dtype, Tensor))

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

    def byte(self) -> Tensor:
        return self.to(dtypes.uint8)

    def char(self) -> Tensor:
        return self.to(dtypes.int8)

    def short(self) -> Tensor:
        return self.to(dtypes.int16)

    # --- in place, the short way ------------------------------------------------------------

    def _update_in_place(self, ufunc: np.ufunc, other: Any) -> builtins.bool:
        """`self <op>= other` computed straight into self's array, when that is all it is: no
        graph is built (grad mode off, or nothing requires grad), nobody observes ops, and
        `other` has self's dtype and a shape that broadcasts to self's. The values are those
        of the op followed by the copy. Returns False (nothing done) otherwise."""
        if recording.observer is not None:
            return False
        array = self.array
        kind = other.__class__
        if kind is Tensor:
            operand = other.array
            if operand.dtype != array.dtype:
                return False
            shape = operand.shape
            if shape != array.shape and (len(shape) > array.ndim or any(
                    n != 1 and n != m for n, m in zip(shape, array.shape[array.ndim - len(shape):],
                                                      strict=True))):
                return False  # not a shape that broadcasts to self's
            needs_graph = other._requires_grad
        elif (kind is float and array.dtype.kind == "f") or (
                kind is int and array.dtype.kind in "fiu"):
            operand, needs_graph = other, False
        else:
            return False
        if grad_mode.state["enabled"] and (needs_graph or self._requires_grad
                                            or self._base is not None):
            return False
        if not array.flags.writeable:
            return False
        ufunc(array, operand, out=array)
        self._version[0] += 1
        return True

    def __getattr__(self, name: str) -> Any:
        """Reached only for a name Tensor does not have: the methods that are torch functions
        are on the class (engine/functional/methods.py installs them; this also tells mypy
        that they exist)."""
        raise AttributeError(f"'Tensor' object has no attribute '{name}'")

    @property
    def T(self) -> Tensor:  # noqa: N802 - PyTorch's name
        if self.ndim == 0:
            warnings.warn("Tensor.T is deprecated on 0-D tensors. This function is the identity "
                          "in these cases.", UserWarning, stacklevel=2)
        elif self.ndim != 2:
            warnings.warn("The use of `x.T` on tensors of dimension other than 2 to reverse "
                          "their shape is deprecated and it will throw an error in a future "
                          "release. Consider `x.mT` to transpose batches of matrices or "
                          "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the "
                          "dimensions of a tensor.", UserWarning, stacklevel=2)
        return late("engine.ops.shape", "permute")(  # type: ignore[no-any-return]
            self, *reversed(range(self.ndim)))

    @property
    def mT(self) -> Tensor:  # noqa: N802 - PyTorch's name
        if self.ndim < 2:
            raise RuntimeError(f"tensor.mT is only supported on matrices or batches of "
                               f"matrices. Got {self.ndim}-D tensor.")
        return late("engine.ops.shape", "transpose")(self, -2, -1)  # type: ignore[no-any-return]

    # --- in place ------------------------------------------------------------------------------

    def check_inplace(self) -> None:
        """PyTorch refuses in-place ops on leaves (and their views) that require grad."""
        if not grad_mode.is_grad_enabled():
            return
        if self._nograd_view:
            raise RuntimeError(NOGRAD_VIEW_INPLACE)
        base = self._base
        if base is not None and base._requires_grad and base.grad_fn is None:
            raise RuntimeError(VIEW_OF_LEAF_INPLACE)
        if self._requires_grad and self.grad_fn is None:
            raise RuntimeError(LEAF_INPLACE)

    def assign_inplace(self, result: Tensor) -> Tensor:
        """Make `self` hold `result` in place: same storage, the new history, version + 1.

        `result` was computed from `self` by an ordinary op; its node becomes self's grad_fn
        (or, for a view, part of the base's CopySlices).
        """
        if self._inference and not grad_mode.state["inference"]:
            if self.array.flags.writeable:  # PyTorch writes first, then refuses
                try:
                    np.copyto(self.array, result.array, casting="unsafe")
                except ValueError:
                    pass
            raise RuntimeError(INFERENCE_INPLACE)
        self.check_inplace()
        array = self.array
        if result.array.dtype != array.dtype and not np.can_cast(
                result.array.dtype, array.dtype, casting="same_kind") and not (
                array.dtype.kind == "f" and result.array.dtype.kind in "iub"):
            raise RuntimeError(f"result type {_type_word(result.array.dtype)} can't be cast to "
                               f"the desired output type {_type_word(array.dtype)}")
        if result.array.shape != array.shape:
            try:
                np.broadcast_to(result.array, array.shape)
            except ValueError:
                raise RuntimeError(
                    f"output with shape {list(array.shape)} doesn't match the broadcast "
                    f"shape {list(result.array.shape)}") from None
        if not array.flags.writeable:
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers "
                "to a single memory location. Please clone() the tensor before performing the "
                "operation.")
        node = result._grad_fn
        if node is not None:
            node.keep_original(self)  # type: ignore[attr-defined]
        array[...] = result.array
        self.bump_version()
        if node is None:
            return self
        node.output_meta = ((array.shape, array.dtype),)  # type: ignore[attr-defined]
        if node.saved_output is not None:  # type: ignore[attr-defined]
            node.saved_output = (array, self._version, self._version[0])  # type: ignore
        if self._base is not None:
            self._rebase_view(node)
            return self
        old = self._grad_fn
        if self._retains_grad and old is not None and old.retained:
            old.retained.pop(self.output_nr, None)
            node.retain(0, self)
        self._grad_fn, self.output_nr, self._requires_grad = node, 0, True
        return self

    def _rebase_view(self, node: Node) -> None:
        """An in-place op on a view: the base gets CopySlices, the view its new history."""
        # lazy: engine.ops.index imports this module
        from engine.ops.index import AsStrided, view_positions

        base = self._base
        assert base is not None
        positions = view_positions(self.array, base.array)
        copy_slices = CopySlices(gradient_edge(base), (base.array.shape, base.array.dtype),
                                 positions, node)
        base._grad_fn, base.output_nr, base._requires_grad = copy_slices, 0, True
        self._requires_grad = True
        AsStrided.attach(base, self)

    def zero_(self) -> Tensor:
        if (recording.observer is None and not self._requires_grad and self._base is None
                and self.array.flags.writeable):  # no graph either way: fill (grad.zero_())
            self.array.fill(0)
            self._version[0] += 1
            return self
        return self.assign_inplace(late("engine.ops.shape", "Zero").apply(self, value=0))

    def fill_(self, value: Any) -> Tensor:
        from engine.ops.shape import Fill, FillTensor  # lazy: engine.ops.shape imports this module

        if isinstance(value, Tensor):
            return self.assign_inplace(FillTensor.apply(self, value))
        return self.assign_inplace(Fill.apply(self, value=value))

    def copy_(self, source: Tensor) -> Tensor:
        from engine.ops.shape import Copy  # lazy: engine.ops.shape imports this module

        if not isinstance(source, Tensor):
            raise TypeError(f"copy_(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(source).__name__}")
        return self.assign_inplace(Copy.apply(self, source))

    def uniform_(self, a: Any = 0.0, b: Any = 1.0, *, generator: Any = None) -> Tensor:
        from engine import random  # lazy: engine.random imports this module

        with grad_mode.no_grad():
            return self.copy_(Tensor._wrap(random.uniform_values(self, a, b, generator)))

    def normal_(self, mean: Any = 0.0, std: Any = 1.0, *, generator: Any = None) -> Tensor:
        from engine import random  # lazy: engine.random imports this module

        with grad_mode.no_grad():
            return self.copy_(Tensor._wrap(random.normal_values(self, mean, std, generator)))

    # --- indexing ------------------------------------------------------------------------------

    def __getitem__(self, index: Any) -> Tensor:
        return late("engine.ops.index", "getitem")(self, index)  # type: ignore[no-any-return]

    def __setitem__(self, index: Any, value: Any) -> None:
        late("engine.ops.index", "setitem")(self, index, value)


NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}


def numpy_names(kwargs: dict[str, Any]) -> dict[str, Any]:
    """torch's argument parser takes numpy's names for two arguments: axis=, keepdims=."""
    if "axis" not in kwargs and "keepdims" not in kwargs:
        return kwargs
    return {NUMPY_NAMES.get(key, key): value for key, value in kwargs.items()}


# the C++ names of the dtypes, as PyTorch's messages spell them ('long int' for int64)
_C_TYPE = {np.dtype(np.float32): "float", np.dtype(np.float64): "double",
           np.dtype(np.float16): "c10::Half", np.dtype(np.int64): "long int",
           np.dtype(np.int32): "int", np.dtype(np.int16): "short int",
           np.dtype(np.int8): "signed char", np.dtype(np.uint8): "unsigned char",
           np.dtype(np.bool_): "bool"}


def _c_type(dtype: np.dtype) -> str:
    return _C_TYPE.get(dtype, str(dtype))


def _type_word(dtype: np.dtype) -> str:
    return dtypes.scalar_name(dtypes.of_array(np.empty(0, dtype)))


def normalize_dim(dim: int, ndim: int) -> int:
    """A dim in [-ndim, ndim) as PyTorch accepts it (0-dim tensors accept 0 and -1)."""
    bound = max(ndim, 1)
    if not -bound <= dim < bound:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-bound}, {bound - 1}], but got {dim})")
    return dim % bound


# What an operator takes besides a tensor; anything else (None, a str, a list) is
# NotImplemented, so Python falls back as with torch: `t == None` is False, `t + None` a TypeError
_OPERANDS = (Tensor, int, float)


class Parameter(Tensor):
    """`nn.Parameter`: a leaf that requires grad and prints as `Parameter containing:`."""

    __slots__ = ()

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        devices.check_factory(None)  # a layer's parameters are made on the default device
        array = data.array if data is not None else np.zeros(0, dtype=np.float32)
        self._init(array)
        if requires_grad:
            self.requires_grad_(True)


Parameter.__module__ = "torch.nn.parameter"  # what type(p) shows: torch.nn.parameter.Parameter
_new_tensor = object.__new__
_MODE = grad_mode.state  # read by _wrap, which every op calls
_new_size = tuple.__new__
