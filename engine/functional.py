"""The torch-level functions (`torch.add`, `torch.sum`, `t.mean(dim=0)` ...) over the ops.

Argument handling that PyTorch does before an op runs (python scalars, `dim=` spellings,
which grad_fn variant applies) lives here; the math and derivatives live in engine/ops/.
"""

from __future__ import annotations

import builtins
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine import budget, dtypes
from engine.autograd import run_backward
from engine.ops import arith, linalg, loss, pointwise, reduce
from engine.ops import shape as shape_ops
from engine.ops.index import select  # noqa: F401  (re-exported as a torch function)
from engine.ops.shape import (  # noqa: F401  (re-exported as torch functions)
    UnsafeView,
    cat,
    chunk,
    clone,
    contiguous,
    expand,
    expand_as,
    flatten,
    flip,
    permute,
    repeat,
    reshape,
    reshape_as,
    split,
    squeeze,
    stack,
    t,
    transpose,
    unbind,
    unsqueeze,
    view,
    view_as,
    view_of,
)
from engine.tensor import Tensor, broadcast_error, normalize_dim

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
    "creating the graph to avoid this. If you have to use this function, make sure to reset the "
    ".grad fields of your parameters to None after use to break the cycle and avoid the leak.")


def _tensor(value: Any, name: str = "input") -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(value).__name__}")
    return value


# --- arithmetic ---------------------------------------------------------------------------------

def add(a: Any, b: Any, alpha: Any = 1) -> Tensor:
    if not isinstance(a, Tensor):
        a, b = b, a
    return arith.Add.apply(a, b) if alpha == 1 else arith.Add.apply(a, b, alpha=alpha)


def sub(a: Any, b: Any, alpha: Any = 1) -> Tensor:
    if not isinstance(a, Tensor):
        return rsub(b, a)
    return arith.Sub.apply(a, b, alpha=alpha)


def rsub(a: Tensor, b: Any) -> Tensor:
    """`b - a` where b is a python number (a tensor b is an ordinary subtraction)."""
    if isinstance(b, Tensor):
        return arith.Sub.apply(b, a)
    return arith.Rsub.apply(a, arith.as_tensor_operand(b))


def mul(a: Any, b: Any) -> Tensor:
    if not isinstance(a, Tensor):
        a, b = b, a
    return arith.Mul.apply(a, b)


multiply = mul


def div(a: Any, b: Any, rounding_mode: str | None = None) -> Tensor:
    if not isinstance(a, Tensor):
        return rdiv(b, a)
    return arith.Div.apply(a, b, rounding_mode=rounding_mode)


divide = true_divide = div


def rdiv(a: Tensor, b: Any) -> Tensor:
    """`b / a` for a python number b: PyTorch computes reciprocal(a) * b."""
    if isinstance(b, Tensor):
        return div(b, a)
    return mul(reciprocal(a), arith.as_tensor_operand(b))


def floor_divide(a: Any, b: Any) -> Tensor:
    return arith.Div.apply(a, arith.as_tensor_operand(b), rounding_mode="floor")


def remainder(a: Any, b: Any) -> Tensor:
    return sub(a, mul(floor_divide(a, b), b))


def reciprocal(a: Tensor) -> Tensor:
    return arith.Reciprocal.apply(a)


def neg(a: Tensor) -> Tensor:
    return arith.Neg.apply(_tensor(a, "neg"))


negative = neg


def pow(a: Any, exponent: Any) -> Tensor:  # noqa: A001 - torch.pow
    if not isinstance(a, Tensor):
        return rpow(exponent, a)
    if isinstance(exponent, Tensor):
        return arith.PowTensor.apply(a, exponent)
    return arith.PowScalar.apply(a, exponent=arith.as_tensor_operand(exponent))


def rpow(a: Tensor, base: Any) -> Tensor:
    """`base ** a` for a python number base."""
    return arith.RPow.apply(a, arith.as_tensor_operand(base))


def square(a: Tensor) -> Tensor:
    return pow(a, 2)


def matmul(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002 - PyTorch's keywords
    """torch.matmul, decomposed into the ops PyTorch itself records (dot, mm, mv, bmm)."""
    a, b = _tensor(input, "matmul"), _tensor(other, "matmul")
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a.ndim}D and {b.ndim}D")
    if a.ndim <= 2 and b.ndim <= 2:
        if a.ndim == 1 and b.ndim == 1:
            return dot(a, b)
        if a.ndim == 2 and b.ndim == 1:
            return mv(a, b)
        if a.ndim == 1:
            product = mm(unsqueeze(a, 0), b)
            return view_of(product, shape_ops.SqueezeInplaceDim.apply(product, dims=(0,)))
        return mm(a, b)
    if a.ndim >= 3 and b.ndim <= 2:  # fold a's batch dims into the rows of one mm / mv
        rows = reshape(a, -1, a.shape_tuple[-1])
        product = mv(rows, b) if b.ndim == 1 else mm(rows, b)
        shape = a.shape_tuple[:-1] + b.shape_tuple[1:]
        return UnsafeView.apply(product, shape=shape, array=product.array.reshape(shape))
    left = unsqueeze(a, 0) if a.ndim == 1 else a
    right = unsqueeze(b, -1) if b.ndim == 1 else b
    (n, m), (m2, p) = left.shape_tuple[-2:], right.shape_tuple[-2:]
    try:
        batch = np.broadcast_shapes(left.shape_tuple[:-2], right.shape_tuple[:-2])
    except ValueError:
        raise broadcast_error(left.shape_tuple[:-2], right.shape_tuple[:-2]) from None
    left = reshape(expand(left, batch + (n, m)), -1, n, m)
    right = reshape(expand(right, batch + (m2, p)), -1, m2, p)
    product = linalg.Bmm.apply(left, right)
    shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    return UnsafeView.apply(product, shape=shape, array=product.array.reshape(shape))


def mm(a: Any, b: Any = None) -> Tensor:
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        got = ", ".join(type(x).__name__ for x in (a, b) if x is not None)
        raise TypeError(f"mm() received an invalid combination of arguments - got ({got}), but "
                        "expected one of:\n * (Tensor input, Tensor mat2, *, Tensor out = None)")
    return linalg.Mm.apply(a, b)


def mv(a: Tensor, v: Tensor) -> Tensor:
    return linalg.Mv.apply(_tensor(a, "mv"), _tensor(v, "mv"))


def dot(a: Tensor, b: Tensor) -> Tensor:
    return linalg.Dot.apply(_tensor(a, "dot"), _tensor(b, "dot"))


def bmm(a: Tensor, b: Tensor) -> Tensor:
    a, b = _tensor(a, "bmm"), _tensor(b, "bmm")
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if a.ndim != 3 else
                           "batch2 must be a 3D tensor")
    return linalg.Bmm.apply(a, b)


def addmm(bias: Tensor, a: Tensor, b: Tensor) -> Tensor:
    return linalg.Addmm.apply(bias, a, b)


# --- pointwise ----------------------------------------------------------------------------------

def exp(a: Tensor) -> Tensor:
    return pointwise.Exp.apply(_tensor(a, "exp"))


def log(a: Tensor) -> Tensor:
    return pointwise.Log.apply(_tensor(a, "log"))


def sqrt(a: Tensor) -> Tensor:
    return pointwise.Sqrt.apply(_tensor(a, "sqrt"))


def rsqrt(a: Tensor) -> Tensor:
    return pointwise.Rsqrt.apply(_tensor(a, "rsqrt"))


def sin(a: Tensor) -> Tensor:
    return pointwise.Sin.apply(_tensor(a, "sin"))


def cos(a: Tensor) -> Tensor:
    return pointwise.Cos.apply(_tensor(a, "cos"))


def tanh(a: Tensor) -> Tensor:
    return pointwise.Tanh.apply(_tensor(a, "tanh"))


def sigmoid(a: Tensor) -> Tensor:
    return pointwise.Sigmoid.apply(_tensor(a, "sigmoid"))


def relu(a: Tensor) -> Tensor:
    return pointwise.Relu.apply(_tensor(a, "relu"))


def abs(a: Tensor) -> Tensor:  # noqa: A001 - torch.abs
    return pointwise.Abs.apply(_tensor(a, "abs"))


def sign(a: Tensor) -> Tensor:
    return pointwise.Sign.apply(a)


def clamp(a: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    """PyTorch's two overloads: any python-number bound picks the Scalar one (ClampBackward1,
    0-dim tensor bounds read as numbers); tensor bounds only pick the Tensor one."""
    a = _tensor(a, "clamp")
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    bounds = [bound for bound in (min, max) if bound is not None]
    if builtins.all(isinstance(bound, Tensor) for bound in bounds):
        return pointwise.ClampTensor.apply(a, min, max)
    if builtins.any(isinstance(bound, Tensor) and bound.ndim for bound in bounds):
        raise TypeError("clamp() received an invalid combination of arguments - got (Tensor, "
                        "Tensor, number), but expected one of: (Tensor input, Tensor min, "
                        "Tensor max) or (Tensor input, Number min, Number max)")
    low = min.item() if isinstance(min, Tensor) else min
    high = max.item() if isinstance(max, Tensor) else max
    return pointwise.Clamp.apply(a, low=low, high=high)


clip = clamp


def clamp_min(a: Tensor, min: Any) -> Tensor:  # noqa: A002
    return pointwise.ClampMin.apply(a, low=min)


def clamp_max(a: Tensor, max: Any) -> Tensor:  # noqa: A002
    return pointwise.ClampMax.apply(a, high=max)


# --- reductions ---------------------------------------------------------------------------------

def _dim_arg(dim: Any, axis: Any) -> Any:
    return axis if dim is None else dim


def sum(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None,  # noqa: A001
        axis: Any = None) -> Tensor:
    dim = _dim_arg(dim, axis)
    np_dtype = None if dtype is None else dtypes.resolve(dtype).np
    if dim is None:
        return reduce.Sum.apply(_tensor(a, "sum"), dtype=np_dtype)
    dims = reduce._dims(dim, a.ndim)
    return reduce.SumDim.apply(a, dims=dims, keepdim=keepdim, dtype=np_dtype)


def mean(a: Tensor, dim: Any = None, keepdim: bool = False, dtype: Any = None,
         axis: Any = None) -> Tensor:
    dim = _dim_arg(dim, axis)
    np_dtype = None if dtype is None else dtypes.resolve(dtype).np
    if dim is None:
        return reduce.Mean.apply(_tensor(a, "mean"), dtype=np_dtype)
    dims = reduce._dims(dim, a.ndim)
    return reduce.MeanDim.apply(a, dims=dims, keepdim=keepdim, dtype=np_dtype)


def prod(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        return reduce.Prod.apply(_tensor(a, "prod"))
    return reduce.ProdDim.apply(a, dim=normalize_dim(dim, a.ndim), keepdim=keepdim)


class ReturnTypes(tuple):  # type: ignore[type-arg]
    """`torch.return_types.max(values=..., indices=...)`: a named pair."""

    PUBLIC_ATTRS = frozenset({"values", "indices"})
    kind = "max"

    @property
    def values(self) -> Tensor:
        return self[0]  # type: ignore[no-any-return]

    @property
    def indices(self) -> Tensor:
        return self[1]  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return (f"torch.return_types.{self.kind}(\nvalues={self[0]!r},\nindices={self[1]!r})")


def _extreme(a: Tensor, dim: Any, keepdim: bool, other: Any, is_max: bool) -> Any:
    if isinstance(dim, Tensor) and other is None:
        other, dim = dim, None
    if other is not None:
        return maximum(a, other) if is_max else minimum(a, other)
    if dim is None:
        return (reduce.MaxAll if is_max else reduce.MinAll).apply(_tensor(a))
    d = normalize_dim(dim, a.ndim)
    values = (reduce.MaxDim if is_max else reduce.MinDim).apply(a, dim=d, keepdim=keepdim)
    fn = values.grad_fn
    indices_array = (fn.indices if fn is not None and hasattr(fn, "indices") else
                     (np.argmax if is_max else np.argmin)(a.array, axis=d, keepdims=True)
                     if a.ndim else np.zeros((), dtype=np.int64))
    if a.ndim and not keepdim:
        indices_array = np.squeeze(indices_array, axis=d)
    result = ReturnTypes((values, Tensor._wrap(np.asarray(indices_array, dtype=np.int64))))
    result.kind = "max" if is_max else "min"
    return result


def max(a: Tensor, dim: Any = None, keepdim: bool = False, other: Any = None) -> Any:  # noqa: A001
    return _extreme(a, dim, keepdim, other, True)


def min(a: Tensor, dim: Any = None, keepdim: bool = False, other: Any = None) -> Any:  # noqa: A001
    return _extreme(a, dim, keepdim, other, False)


def maximum(a: Tensor, b: Tensor) -> Tensor:
    return reduce.Maximum.apply(a, b)


def minimum(a: Tensor, b: Tensor) -> Tensor:
    return reduce.Minimum.apply(a, b)


def argmax(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        return Tensor._wrap(np.asarray(np.argmax(a.array), dtype=np.int64))
    return Tensor._wrap(np.argmax(a.array, axis=normalize_dim(dim, a.ndim), keepdims=keepdim))


def argmin(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    if dim is None:
        return Tensor._wrap(np.asarray(np.argmin(a.array), dtype=np.int64))
    return Tensor._wrap(np.argmin(a.array, axis=normalize_dim(dim, a.ndim), keepdims=keepdim))


def _softmax_input(a: Tensor, dim: Any, dtype: Any, name: str) -> tuple[Tensor, int]:
    """The input cast to `dtype` if given (as torch does first); integers have no kernel."""
    if dim is _NO_DIM:  # only torch.nn.functional's softmax has an implicit dim
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
    if dim is None:
        raise TypeError(f"{name}(): argument 'dim' must be int, not NoneType")
    dim = normalize_dim(dim, a.ndim)
    if dtype is not None:
        a = a.to(dtype)
    elif not a.dtype.is_floating_point:
        kernel = f"{name}_lastdim_kernel_impl" if dim == builtins.max(a.ndim - 1, 0) else (
            f"{name}_kernel_impl")
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{a.dtype.legacy_name.removesuffix('Tensor')}'")
    return a, dim


_NO_DIM: Any = object()


def softmax(a: Tensor, dim: Any = _NO_DIM, dtype: Any = None) -> Tensor:
    a, dim = _softmax_input(a, dim, dtype, "softmax")
    return reduce.Softmax.apply(a, dim=dim)


def log_softmax(a: Tensor, dim: Any = _NO_DIM, dtype: Any = None) -> Tensor:
    a, dim = _softmax_input(a, dim, dtype, "log_softmax")
    return reduce.LogSoftmax.apply(a, dim=dim)


def norm(a: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         dtype: Any = None) -> Tensor:
    a = _tensor(a, "norm")
    if not a.dtype.is_floating_point:
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {a.dtype.legacy_name.removesuffix('Tensor')}")
    if isinstance(p, str) and p != "fro":
        if p == "nuc":
            raise NotImplementedError("norm with p='nuc' (the nuclear norm) is not supported by "
                                      "agraph")
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    order = 2 if p in ("fro", None) else float(p)
    dims = None if dim is None else reduce._dims(dim, a.ndim)
    return reduce.LinalgVectorNorm.apply(a, ord=order, dims=dims, keepdim=keepdim)


def mse_loss(a: Tensor, b: Tensor, reduction: str = "mean") -> Tensor:
    return loss.MseLoss.apply(a, b, reduction=reduction)


# --- comparisons (not differentiable) ----------------------------------------------------------

def _compare(a: Any, b: Any, op: Any) -> Tensor:
    left = a.array if isinstance(a, Tensor) else _operand(a, b, op)
    right = b.array if isinstance(b, Tensor) else _operand(b, a, op)
    if left.__class__ is np.ndarray and right.__class__ is np.ndarray and (
            left.shape != right.shape):
        budget.check_broadcast((left.shape, right.shape), 1)  # a bool result, maybe far bigger
    return _fresh(np.asarray(op(left, right)))


def _fresh(array: np.ndarray) -> Tensor:
    """A tensor over a new array made here rather than by a Function: after a big one the
    memory in use is measured again, as Function.apply does."""
    if array.nbytes >= budget.LARGE:
        budget.check_in_use()
    return Tensor._wrap(array)


_COMPARE_NAMES = {np.equal: "eq", np.not_equal: "ne", np.less: "lt", np.less_equal: "le",
                  np.greater: "gt", np.greater_equal: "ge", np.logical_and: "logical_and",
                  np.logical_or: "logical_or"}


def _operand(value: Any, other: Any, op: Any) -> Any:
    """A comparison's operand that is not a tensor: a python number (torch's Number); torch's
    argument parser refuses anything else (None, a str, a list)."""
    if isinstance(value, (bool, int, float)):
        return value
    got = ", ".join(type(x).__name__ for x in (other, value))
    raise TypeError(f"{_COMPARE_NAMES.get(op, 'eq')}() received an invalid combination of "
                    f"arguments - got ({got}), but expected one of:\n"
                    " * (Tensor input, Tensor other, *, Tensor out = None)\n"
                    " * (Tensor input, Number other, *, Tensor out = None)\n")


def eq(a: Any, b: Any) -> Tensor:
    return _compare(a, b, np.equal)


def ne(a: Any, b: Any) -> Tensor:
    return _compare(a, b, np.not_equal)


def lt(a: Any, b: Any) -> Tensor:
    return _compare(a, b, np.less)


def le(a: Any, b: Any) -> Tensor:
    return _compare(a, b, np.less_equal)


def gt(a: Any, b: Any) -> Tensor:
    return _compare(a, b, np.greater)


def ge(a: Any, b: Any) -> Tensor:
    return _compare(a, b, np.greater_equal)


def logical_and(a: Any, b: Any) -> Tensor:
    return _compare(a, b, np.logical_and)


def logical_or(a: Any, b: Any) -> Tensor:
    return _compare(a, b, np.logical_or)


def logical_not(a: Tensor) -> Tensor:
    return _fresh(np.logical_not(a.array) if a.array.dtype == np.bool_ else ~a.array)


def isnan(a: Tensor) -> Tensor:
    return _fresh(np.isnan(a.array))


def isinf(a: Tensor) -> Tensor:
    return _fresh(np.isinf(a.array))


def equal(a: Tensor, b: Tensor) -> bool:
    return a.shape_tuple == b.shape_tuple and bool(np.array_equal(a.array, b.array))


def allclose(a: Tensor, b: Tensor, rtol: float = 1e-05, atol: float = 1e-08) -> bool:
    # numpy makes a few arrays of the broadcast shape on the way (|a - b|, a tolerance each)
    itemsize = builtins.max(a.array.itemsize, b.array.itemsize)
    budget.check_broadcast((a.shape_tuple, b.shape_tuple), ALLCLOSE_TEMPORARIES * itemsize)
    return bool(np.allclose(a.array, b.array, rtol=rtol, atol=atol))


ALLCLOSE_TEMPORARIES = 3


def _bool_reduce(reduce_fn: Any, a: Tensor, dim: Any, keepdim: bool) -> Tensor:
    if dim is None or a.ndim == 0:
        if dim is not None:
            for d in dim if isinstance(dim, (tuple, list)) else (dim,):
                normalize_dim(d, 0)
        result = reduce_fn(a.array)
        if keepdim and dim is None:
            result = np.reshape(result, (1,) * a.ndim)
        return Tensor._wrap(np.asarray(result))
    dims = tuple(normalize_dim(d, a.ndim) for d in (dim if isinstance(dim, (tuple, list))
                                                     else (dim,)))
    return Tensor._wrap(np.asarray(reduce_fn(a.array, axis=dims, keepdims=keepdim)))


def any(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    return _bool_reduce(np.any, a, dim, keepdim)


def all(a: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    return _bool_reduce(np.all, a, dim, keepdim)


def isclose(a: Tensor, b: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    other = b.array if isinstance(b, Tensor) else np.asarray(b)
    if isinstance(b, Tensor) and a.array.dtype != other.dtype:
        raise RuntimeError(f"{dtypes.of_array(a.array)} did not match "
                           f"{dtypes.of_array(other)}")
    budget.check_broadcast((a.shape_tuple, tuple(other.shape)),
                           ALLCLOSE_TEMPORARIES * a.array.itemsize)
    return Tensor._wrap(np.asarray(np.isclose(a.array, other, rtol=rtol, atol=atol,
                                              equal_nan=equal_nan)))


def where(condition: Tensor, a: Any, b: Any) -> Tensor:
    return pointwise.where(condition, a, b)


# --- autograd -----------------------------------------------------------------------------------

def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _default_grads(outputs: Sequence[Tensor], grads: Sequence[Any] | None,
                   create_graph: bool) -> list[Tensor]:
    result = []
    for index, output in enumerate(outputs):
        grad = grads[index] if grads is not None and index < len(grads) else None
        if grad is None:
            if output.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if not output.dtype.is_floating_point:
                raise RuntimeError("grad can be implicitly created only for real scalar outputs "
                                   f"but got {output.dtype}")
            ones = np.empty(output.shape_tuple, dtype=output.array.dtype)
            ones.fill(1)  # np.ones, without its Python-level wrapper (once per backward)
            grad = Tensor._wrap(ones)
        elif not isinstance(grad, Tensor):
            grad = Tensor._wrap(np.asarray(grad, dtype=output.array.dtype))
        elif grad.shape_tuple != output.shape_tuple:
            raise RuntimeError(f"Mismatch in shape: grad_output[{index}] has a shape of "
                               f"{grad.shape} and output[{index}] has a shape of "
                               f"{output.shape}.")
        result.append(grad)
    return result


def _check_outputs(outputs: Sequence[Tensor]) -> None:
    for index, output in enumerate(outputs):
        if not isinstance(output, Tensor):
            raise TypeError(f"expected Tensor as element {index} in argument 0, but got "
                            f"{type(output).__name__}")
        if not output.requires_grad:
            raise RuntimeError(f"element {index} of tensors does not require grad and does not "
                               "have a grad_fn")


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Any = None) -> None:
    outputs = _as_list(tensors)
    input_list = _as_list(inputs) if inputs is not None else None
    if input_list is not None and not input_list:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    _check_outputs(outputs)
    grads = _default_grads(outputs, _as_list(grad_tensors) or None, create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=3)
    for tensor in input_list or ():
        if tensor.grad_fn is not None:
            tensor.retain_grad()  # a non-leaf input gets its .grad as a retained gradient
    run_backward(outputs, grads, retain_graph, create_graph, inputs=input_list)


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple[Any, ...]:
    output_list = _as_list(outputs)
    input_list = _as_list(inputs)
    _check_outputs(output_list)
    for index, tensor in enumerate(input_list):
        if not isinstance(tensor, Tensor):
            raise TypeError(f"expected Tensor as element {index} in argument 1, but got "
                            f"{type(tensor).__name__}")
        if not tensor.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grads = _default_grads(output_list, _as_list(grad_outputs) or None, create_graph)
    if retain_graph is None:
        retain_graph = create_graph
    results = run_backward(output_list, grads, retain_graph, create_graph, inputs=input_list,
                           capture=True, allow_unused=bool(allow_unused) or materialize_grads)
    if materialize_grads:
        results = [Tensor._wrap(np.zeros(t.shape_tuple, dtype=t.array.dtype)) if r is None
                   else r for r, t in zip(results, input_list, strict=True)]
    if not create_graph:
        results = [None if r is None else r.detach() for r in results]
    return tuple(results)


# torch functions beyond the first set (statistics, selection, roundings), re-exported here so
# that they are tensor methods as well
from engine.functional_extra import (  # noqa: E402,F401
    amax,
    amin,
    argsort,
    ceil,
    cumsum,
    expm1,
    floor,
    gather,
    index_select,
    log1p,
    logsumexp,
    masked_fill,
    round,
    sort,
    std,
    topk,
    trunc,
    var,
)
from engine.functional_more import (  # noqa: E402,F401  (engine/functional_more.py)
    acos,
    arctan2,
    argwhere,
    asin,
    atan,
    atan2,
    broadcast_to,
    column_stack,
    cosh,
    count_nonzero,
    cross,
    cumprod,
    diag,
    diagonal,
    diff,
    einsum,
    erf,
    exp2,
    frac,
    ger,
    hstack,
    hypot,
    index_add,
    kron,
    lerp,
    log2,
    log10,
    masked_select,
    median,
    meshgrid,
    moveaxis,
    movedim,
    narrow,
    nonzero,
    outer,
    repeat_interleave,
    roll,
    row_stack,
    scatter,
    scatter_add,
    sgn,
    sinh,
    swapaxes,
    swapdims,
    take,
    tan,
    tile,
    trace,
    tril,
    triu,
    vstack,
)
