"""The backward graph; engine/backward.py walks it.

A `Node` is what PyTorch calls a grad_fn. Ops subclass `Function` (engine/ops/) and give
their forward on numpy arrays and their backward on Tensors, side by side; backward written
on Tensors is what makes `create_graph=True` give higher-order derivatives for free.

The engine, not each op, undoes broadcasting (`fit_gradient`) and casts gradients back to the
input's dtype. Walks are loops over explicit stacks and queues, never recursion.
"""

from __future__ import annotations

import itertools
import re
import sys
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from engine import budget, grad_mode, recording
from engine.addresses import address_of
from engine.late_imports import late

if TYPE_CHECKING:
    from engine.operands import prepare_operands
    from engine.tensor import Tensor


def bind_tensor_type(tensor_type: Any, prepare: Any) -> None:
    """engine.tensor imports this module, then hands back Tensor and prepare_operands once it
    has defined them (module globals: the per-op code reads them without an import)."""
    globals().update(Tensor=tensor_type, prepare_operands=prepare)


# PyTorch computes 1/0, log(0), 0*inf quietly (inf, -inf, nan); so do we.
np.seterr(all="ignore")

_sequence = itertools.count()
next_sequence = _sequence.__next__  # creation order: PyTorch's sequence_nr
_ndarray = np.ndarray
_LARGE_RESULT = budget.LARGE
_grad_state = grad_mode.state

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)
# (pack, unpack) of the torch.autograd.graph.saved_tensors_hooks contexts in force, innermost
# last (engine/autograd_graph.py)
SAVED_TENSORS_HOOKS: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = []
SAVED_SLOTS = ("self", "other")  # PyTorch's names of a node's saved first and second input
INPLACE_HINT = (
    "Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
    "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)

Edge = tuple["Node | None", int]
NO_EDGE: Edge = (None, 0)


class RemovableHandle:
    """What register_hook returns: `handle.remove()` takes the hook away again."""

    PUBLIC_ATTRS = frozenset({"remove"})

    def __init__(self, hooks: list[Any], hook: Any) -> None:
        self.hooks, self.hook = hooks, hook

    def remove(self) -> None:
        if self.hook in self.hooks:
            self.hooks.remove(self.hook)


class Node:
    """A node of the backward graph (a `grad_fn`).

    Hook and retain_grad containers are created on first use: most nodes never need them,
    and a graph can hold a million nodes.
    """

    PUBLIC_ATTRS = frozenset({"next_functions", "name", "register_hook", "register_prehook",
                              "metadata"})
    grad_fn_name = "Node"
    next_functions: tuple[Edge, ...] = ()
    pre_hooks: dict[int, list[Callable[[Any], Any]]] | None = None  # tensor hooks, by output_nr
    node_pre_hooks: list[Callable[..., Any]] | None = None  # grad_fn.register_prehook
    post_hooks: list[Callable[..., Any]] | None = None  # grad_fn.register_hook
    retained: dict[int, weakref.ref[Tensor]] | None = None  # retain_grad() tensors, by output_nr
    saved_something = False  # whether a second walk after release must fail
    released = False
    hooked = False  # any of the four above is set: the backward walk looks at them

    def __init__(self) -> None:
        self.sequence_nr = next(_sequence)

    def name(self) -> str:
        return self.grad_fn_name

    @property
    def metadata(self) -> dict[str, Any]:
        if "_metadata" not in self.__dict__:
            self._metadata: dict[str, Any] = {}
        return self._metadata

    def __repr__(self) -> str:
        return f"<{self.grad_fn_name} object at {address_of(self)}>"

    def register_hook(self, hook: Callable[..., Any]) -> Any:
        """hook(grad_inputs, grad_outputs) after this node ran; may return new grad_inputs."""
        if self.post_hooks is None:
            self.post_hooks = []
            self.hooked = True
        self.post_hooks.append(hook)
        return RemovableHandle(self.post_hooks, hook)

    def register_prehook(self, hook: Callable[..., Any]) -> Any:
        """hook(grad_outputs) before this node runs; may return new grad_outputs."""
        if self.node_pre_hooks is None:
            self.node_pre_hooks = []
            self.hooked = True
        self.node_pre_hooks.append(hook)
        return RemovableHandle(self.node_pre_hooks, hook)

    def add_tensor_hook(self, output_nr: int, hook: Callable[..., Any]) -> None:
        if self.pre_hooks is None:
            self.pre_hooks = {}
            self.hooked = True
        self.pre_hooks.setdefault(output_nr, []).append(hook)

    def tensor_hooks(self, output_nr: int) -> list[Callable[..., Any]]:
        return self.pre_hooks.get(output_nr, []) if self.pre_hooks else []

    def retain(self, output_nr: int, tensor: Tensor) -> None:
        if self.retained is None:
            self.retained = {}
            self.hooked = True
        self.retained[output_nr] = weakref.ref(tensor)

    def apply_backward(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        raise NotImplementedError

    def apply_arrays(self, grads: list[Any]) -> Sequence[Any]:
        """`apply_backward` on numpy arrays (None where no gradient), for the backward walk
        that nothing watches (engine/backward.py): by default through the Tensor path."""
        wrap = Tensor._wrap
        results = self.apply_backward([None if g is None else wrap(g) for g in grads])
        return [None if r is None else r.array for r in results]

    def keep_original(self, tensor: Tensor) -> None:
        """`tensor` is about to change in place; keep what backward needs of its old value."""

    def release(self) -> None:
        """Free what was saved for backward (called after a backward without retain_graph)."""
        self.released = True

    def check_not_released(self) -> None:
        if self.released and self.saved_something:
            raise RuntimeError(SECOND_BACKWARD)


class AccumulateGrad(Node):
    """The sink at a leaf that requires grad: adds the incoming gradient into `leaf.grad`."""

    PUBLIC_ATTRS = Node.PUBLIC_ATTRS | {"variable"}
    grad_fn_name = "AccumulateGrad"

    def __init__(self, variable: Tensor) -> None:
        self.sequence_nr = sys.maxsize  # PyTorch runs a leaf's accumulation as soon as ready
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def tensor_hooks(self, output_nr: int) -> list[Callable[..., Any]]:
        return self.variable._hooks or []  # a leaf keeps its own hooks, as in PyTorch

    def apply_backward(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        grad = grads[0]
        if grad is not None:
            accumulate_into(self.variable, grad)
            for hook in list(post_accumulate_hooks(self.variable, create=False)):
                hook(self.variable)
        return ()

    def apply_arrays(self, grads: list[Any]) -> Sequence[Any]:
        """The walk on arrays runs only where no leaf has hooks: `leaf.grad += grad`."""
        grad = grads[0]
        if grad is not None:
            tensor = self.variable
            if tensor._grad is None:
                tensor._grad = Tensor._wrap(np.array(grad, dtype=tensor.array.dtype, copy=True))
            else:
                tensor._grad.array += grad
                tensor._grad.bump_version()
        return ()


# register_post_accumulate_grad_hook: per leaf, run with the leaf after its .grad was updated.
# Keyed by id (a Tensor's == is elementwise), each entry dropped when its leaf is collected.
_POST_ACCUMULATE_HOOKS: dict[int, list[Callable[[Tensor], Any]]] = {}


def post_accumulate_hooks(tensor: Tensor, create: bool = True) -> list[Callable[[Tensor], Any]]:
    key = id(tensor)
    hooks = _POST_ACCUMULATE_HOOKS.get(key)
    if hooks is None:
        if not create:
            return []
        hooks = _POST_ACCUMULATE_HOOKS[key] = []
        weakref.finalize(tensor, _POST_ACCUMULATE_HOOKS.pop, key, None)
    return hooks


def clear_post_accumulate_hooks() -> None:
    """Forget every leaf's post-accumulate hooks (a hook can keep its own leaf alive through
    the program's variables, so the weak finalizer would never drop it)."""
    _POST_ACCUMULATE_HOOKS.clear()


def accumulate_into(tensor: Tensor, grad: Tensor) -> None:
    """`tensor.grad += grad`, PyTorch's way.

    Building a graph (create_graph): the first gradient is copied into a fresh tensor
    (CopyBackwards), later ones are added out of place (AddBackward0). Otherwise the first is
    stored as a copy and later ones are added in place.
    """
    if tensor._grad is None:
        if _grad_state["enabled"] and grad._requires_grad:
            from engine.ops.shape import Copy  # lazy: engine.ops.shape imports this module

            empty = Tensor._wrap(np.empty(tensor.array.shape, dtype=tensor.array.dtype))
            tensor._grad = Copy.apply(empty, grad)
        else:
            tensor._grad = Tensor._wrap(np.array(grad.array, dtype=tensor.array.dtype, copy=True))
    elif _grad_state["enabled"]:
        tensor._grad = tensor._grad + grad
    else:
        tensor._grad.array += grad.array
        tensor._grad.bump_version()


def retain_into(tensor: Tensor, grad: Tensor) -> None:
    """What retain_grad() keeps: a clone of the first gradient, then out-of-place sums."""
    if tensor._grad is None:
        tensor._grad = grad.clone() if _grad_state["enabled"] else grad.detach().clone()
    else:
        tensor._grad = tensor._grad + grad


class Function(Node):
    """An op: `forward` on numpy arrays, `backward` on Tensors, and PyTorch's grad_fn name.

    Subclasses set `grad_fn_name`, `saves` (indices of the inputs that backward reads) and
    `saves_output`; they keep non-tensor state (dims, shapes) as attributes set in `forward`.
    `backward(grad, inputs, output)` returns one gradient per input (None where there is none);
    inputs that are not saved arrive as None. Ops with several outputs (`multi_output`) return
    a tuple of arrays from forward and get a list of gradients (zeros where none came).
    """

    saves: tuple[int, ...] = ()
    saves_output = False
    saved: tuple[Any, ...] | None = None  # the inputs backward reads (connect sets them)
    saved_versions: tuple[int, ...] = ()
    saved_output: tuple[Any, ...] | None = None  # the output's data and version counter
    saves_other_first = False  # PyTorch's order: `other` before `self` (mul, div, mm, ...)
    unpack_hook: Callable[[Any], Any] | None = None  # set when saved_tensors_hooks packed
    packed_output: Any = None  # the output as a saved_tensors_hooks pack hook returned it
    packed: tuple[bool, ...] | None = None  # which saved inputs a pack hook holds
    saves_state = False  # keeps tensors of its own (indices) that a second walk cannot reuse
    promotes = False  # elementwise ops: inputs are cast to PyTorch's result dtype first
    differentiable = True
    multi_output = False
    counts_scalars = False  # binary ops list a python scalar operand as (None, 0), as PyTorch does

    # The derivative on numpy arrays, for when no graph is built and nothing watches:
    # array_backward(grad, inputs, output) -> one array (or None) per input, or None to take
    # the Tensor path (`backward`) this time. Its values are the Tensor path's, bit for bit.
    array_backward: Callable[..., Any] | None = None

    def forward(self, *arrays: Any) -> Any:
        raise NotImplementedError

    def backward(self, grad: Any, inputs: tuple[Any, ...], output: Tensor | None
                 ) -> Sequence[Tensor | None]:
        raise NotImplementedError

    def saved_indices(self, needs: Sequence[bool]) -> tuple[int, ...]:
        """Which inputs to keep for backward; ops whose needs depend on `needs` override this."""
        return self.saves

    @classmethod
    def apply(cls, *args: Any, **params: Any) -> Any:
        fn = cls.__new__(cls)
        if cls.promotes:
            arrays = prepare_operands(args)
        else:
            arrays = [a.array if isinstance(a, Tensor) else a for a in args]
        result = fn.forward(*arrays, **params) if params else fn.forward(*arrays)
        if result.__class__ is _ndarray and result.nbytes >= _LARGE_RESULT and result.base is None:
            budget.check_in_use()  # a big new array (of a legal shape): the total still fits?
        wrap = Tensor._wrap
        out = tuple(wrap(r) for r in result) if cls.multi_output else wrap(result)
        if _grad_state["enabled"] and cls.differentiable:
            for a in args:
                if isinstance(a, Tensor) and a._requires_grad:
                    fn.connect(args, out)
                    break
        if recording.observer is not None:
            first: Any = out[0] if cls.multi_output else out
            recording.observer.on_op(cls.__name__, first.grad_fn, args, out)
        return out

    def connect(self, args: Sequence[Any], out: Any) -> None:
        """Record this node in the graph: edges to the inputs, what backward needs, grad_fn.

        This runs for every recorded op, so it is written for speed (a graph may hold a
        million nodes): plain loops, nothing allocated that backward does not read.
        """
        self.sequence_nr = next(_sequence)
        needs: list[bool] = []
        edges: list[Edge] = []
        meta: list[Any] = []
        for a in args:
            if isinstance(a, Tensor):
                array = a.array
                meta.append((array.shape, array.dtype))
                if a._requires_grad:
                    needs.append(True)
                    grad_fn = a._grad_fn if a._base is None else a.grad_fn
                    if grad_fn is not None:
                        edges.append((grad_fn, a.output_nr))
                    elif a._nograd_view:
                        edges.append(NO_EDGE)
                    else:  # a leaf: its AccumulateGrad, while the graph holds it
                        ref = a._accumulator
                        sink = ref() if ref is not None else None
                        edges.append((sink if sink is not None else a.accumulator(), 0))
                    continue
            else:
                meta.append(None)
                if not self.counts_scalars:
                    needs.append(False)
                    continue
            needs.append(False)
            edges.append(NO_EDGE)
        # tuples, not lists: a tuple of plain values drops out of the cyclic GC's sight
        self.needs = tuple(needs)
        self.next_functions = tuple(edges)
        self.input_meta = tuple(meta)
        indices = self.saved_indices(self.needs)
        if indices:
            saved: list[Any] = [None] * len(args)
            versions: list[int] = [0] * len(args)
            for i in indices:
                value = saved[i] = args[i]
                if isinstance(value, Tensor):
                    if value._inference:
                        raise RuntimeError(INFERENCE_SAVED)
                    versions[i] = value._version[0]
            if SAVED_TENSORS_HOOKS and any(isinstance(v, Tensor) for v in saved):
                # torch.autograd.graph.saved_tensors_hooks(pack, unpack): only tensors packed
                pack, self.unpack_hook = SAVED_TENSORS_HOOKS[-1]
                self.packed = tuple(isinstance(value, Tensor) for value in saved)
                for i in self._packing_order(len(saved)):
                    if self.packed[i]:
                        saved[i] = _packed(pack, saved[i])
                versions = [0] * len(saved)
            self.saved = tuple(saved)
            self.saved_versions = tuple(versions)
            self.saved_something = True
        if self.saves_output:
            # the output's data and version counter, not the Tensor: no reference cycle
            self.saved_output = (out.array, out._version, out._version[0])
            self.saved_something = True
        if self.multi_output:
            self.output_meta = tuple((o.array.shape, o.array.dtype) for o in out)
            for nr, o in enumerate(out):
                o._requires_grad, o._grad_fn, o.output_nr = True, self, nr
        else:
            self.output_meta = ((out.array.shape, out.array.dtype),)
            out._requires_grad, out._grad_fn = True, self
        if self.saves_state:
            self.saved_something = True
        if self.saves_output and SAVED_TENSORS_HOOKS and not self.multi_output:
            pack, self.unpack_hook = SAVED_TENSORS_HOOKS[-1]
            self.packed_output = _packed(pack, out)  # after the inputs, with its grad_fn
            self.saved_output = None

    def _packing_order(self, count: int) -> range:
        return range(count - 1, -1, -1) if self.saves_other_first else range(count)

    def keep_original(self, tensor: Tensor) -> None:
        """An in-place op saved `tensor` itself: save a copy of its old values instead (as
        PyTorch does), so writing the result into `tensor` does not invalidate this node."""
        if self.saved is None or not any(value is tensor for value in self.saved):
            return
        original = Tensor._wrap(tensor.array.copy())
        original._grad_fn, original.output_nr = tensor.grad_fn, tensor.output_nr
        original._requires_grad = tensor._requires_grad
        # Only `self` (input 0) is replaced: `h.mul_(h)` also saved h as `other`, and PyTorch
        # then finds it modified at backward (the version-counter error), so must we.
        self.saved_versions = tuple(0 if value is tensor and i == 0 else version
                                    for i, (value, version)
                                    in enumerate(zip(self.saved, self.saved_versions,
                                                     strict=True)))
        self.saved = tuple(original if value is tensor and i == 0 else value
                           for i, value in enumerate(self.saved))

    def saved_attribute(self, name: str) -> Any:
        """`grad_fn._saved_self`, `_saved_other`, `_saved_result`: what this node saved, as
        PyTorch documents them (the input tensors themselves; the result with this grad_fn)."""
        slot = name.removeprefix("_saved_")
        if slot not in SAVED_SLOTS and slot != "result":
            raise AttributeError(f"'{self.grad_fn_name}' object has no attribute '{name}'")
        if self.released and self.saved_something:
            raise RuntimeError(SECOND_BACKWARD)
        if slot == "result":
            if self.packed_output is not None and self.unpack_hook is not None:
                return self.unpack_hook(self.packed_output)
            if self.saved_output is None:
                raise AttributeError(f"'{self.grad_fn_name}' object has no attribute '{name}'")
            result = Tensor._wrap(self.saved_output[0])
            result._version = self.saved_output[1]
            result._requires_grad = True
            result._grad_fn = self
            return result
        index = SAVED_SLOTS.index(slot)
        if self.saved is None or index >= len(self.saved) or self.saved[index] is None:
            raise AttributeError(f"'{self.grad_fn_name}' object has no attribute '{name}'")
        value = self.saved[index]
        if self.packed is not None and self.packed[index] and self.unpack_hook is not None:
            return self.unpack_hook(value)
        return value

    def release(self) -> None:
        # only what is set: a name new to this node's __dict__ would grow it
        if self.saved is not None:
            self.saved = None
        if self.saved_output is not None:
            self.saved_output = None
        if self.packed_output is not None:
            self.packed_output = None
        self.released = True
        for name in self.released_state:
            setattr(self, name, None)

    released_state: tuple[str, ...] = ()  # attributes holding arrays to drop on release

    def unpack(self) -> tuple[tuple[Any, ...], Tensor | None]:
        """The saved inputs and output, checked: not freed, not modified in place since."""
        if self.released:
            self.check_not_released()
        if self.saved is None:
            inputs: tuple[Any, ...] = (None,) * len(self.input_meta)
        elif self.packed is not None and self.unpack_hook is not None:  # theirs to check
            unpacked: list[Any] = [None] * len(self.saved)
            for i in self._packing_order(len(self.saved)):  # in the order they were packed
                value = self.saved[i]
                unpacked[i] = self.unpack_hook(value) if self.packed[i] else value
            inputs = tuple(unpacked)
        else:
            for value, version in zip(self.saved, self.saved_versions, strict=True):
                if isinstance(value, Tensor) and value._version[0] != version:
                    raise RuntimeError(modified_message(value, version, value.grad_fn,
                                                        value.output_nr))
            inputs = tuple(self.saved)
        output = None
        if self.packed_output is not None and self.unpack_hook is not None:
            output = self.unpack_hook(self.packed_output)
        elif self.saved_output is not None:
            array, counter, version = self.saved_output
            output = Tensor._wrap(array)
            output._version = counter
            if counter[0] != version:
                raise RuntimeError(modified_message(output, version, self, 0))
            output._requires_grad = True
            output._grad_fn = self
        return inputs, output

    def _inputs_and_output(self) -> tuple[tuple[Any, ...], Tensor | None]:
        if (self.saved is None and self.saved_output is None and self.packed_output is None
                and not self.released):
            return (None,) * len(self.input_meta), None  # nothing saved: nothing to check
        return self.unpack()

    def apply_backward(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        """Run `backward`, then fit each gradient to its input (shape, dtype): one per edge."""
        inputs, out = self._inputs_and_output()
        if self.multi_output:
            grads = grads + [None] * (len(self.output_meta) - len(grads))
            grad: Any = [g if g is not None else zeros_of(*meta)
                         for g, meta in zip(grads, self.output_meta, strict=True)]
            results: Any = self.backward(grad, inputs, out)
        else:
            grad = grads[0] if grads[0] is not None else zeros_of(*self.output_meta[0])
            results = None
            if self.array_backward is not None and arrays_suffice():
                results = self.array_backward(grad.array, inputs, out)
                if results is not None:
                    wrap = Tensor._wrap
                    results = [None if r is None else wrap(r) for r in results]
            if results is None:
                results = self.backward(grad, inputs, out)
        return self._fitted(results, _fit_tensor)

    def apply_arrays(self, grads: list[Any]) -> Sequence[Any]:
        """`apply_backward` on arrays, through `array_backward` when the op has one."""
        if self.array_backward is None or self.multi_output:
            return Node.apply_arrays(self, grads)
        inputs, out = self._inputs_and_output()
        grad = grads[0]
        if grad is None:
            shape, dtype = self.output_meta[0]
            grad = np.zeros(shape, dtype=dtype)
        results = self.array_backward(grad, inputs, out)
        if results is None:  # not this time (mixed dtypes): the Tensor path
            return Node.apply_arrays(self, grads)
        return self._fitted(results, _fit_array)

    def _fitted(self, results: Sequence[Any], fit: Callable[[Any, Any], Any]) -> list[Any]:
        """One gradient per edge, each fitted to its input's (shape, dtype) by `fit`."""
        if len(results) < len(self.input_meta):  # none for the inputs that need none
            results = [*results, *[None] * (len(self.input_meta) - len(results))]
        fitted: list[Any] = []
        for g, meta, need in zip(results, self.input_meta, self.needs, strict=False):
            if meta is None:  # a python number: an edge only where PyTorch lists one
                if self.counts_scalars:
                    fitted.append(None)
            else:
                fitted.append(fit(g, meta) if need and g is not None else None)
        return fitted


class IncompatibleGradient(Exception):
    """A gradient whose shape the input's does not broadcast to (a custom Function's backward
    returned it): PyTorch's engine refuses it, naming the node and the input's index."""

    def __init__(self, shape: tuple[int, ...], expected: tuple[int, ...]) -> None:
        super().__init__()
        self.shape, self.expected = shape, expected

    def at(self, name: str, index: int) -> RuntimeError:
        return RuntimeError(f"Function {name} returned an invalid gradient at index {index} - "
                            f"got {list(self.shape)} but expected shape compatible with "
                            f"{list(self.expected)}")


def _check_expandable(shape: tuple[int, ...], expected: tuple[int, ...]) -> None:
    """A gradient of `shape` for an input of shape `expected` is summed back to it when the
    input broadcasts to it; anything else is refused."""
    if len(expected) > len(shape) or any(
            size not in (want, 1)
            for size, want in zip(expected[::-1], shape[::-1], strict=False)):
        raise IncompatibleGradient(shape, expected)


def _fit_tensor(grad: Tensor, meta: tuple[tuple[int, ...], np.dtype]) -> Tensor:
    array = grad.array
    return grad if array.shape == meta[0] and array.dtype == meta[1] else fit_gradient(grad, *meta)


def _fit_array(grad: Any, meta: tuple[tuple[int, ...], np.dtype]) -> np.ndarray:
    """fit_gradient on an array (numpy's arithmetic on 0-dim arrays gives scalars)."""
    if grad.__class__ is not _ndarray:
        grad = np.asarray(grad)
    if grad.shape != meta[0]:  # (an op's own array derivative: always of a broadcast shape)
        grad = late("engine.ops.shape", "sum_to_array")(grad, meta[0])
    return grad if grad.dtype == meta[1] else grad.astype(meta[1])


def _packed(pack: Callable[[Any], Any], tensor: Tensor) -> Any:
    """A pack hook's value for `tensor`; the hook runs with grad mode off, as in PyTorch."""
    enabled, _grad_state["enabled"] = _grad_state["enabled"], False
    try:
        return pack(tensor)
    finally:
        _grad_state["enabled"] = enabled


def arrays_suffice() -> bool:
    """Whether a derivative may be computed on numpy arrays directly: no graph is being built
    (no create_graph) and no observer watches the ops. It must give the Tensor path's values."""
    return not _grad_state["enabled"] and recording.observer is None


def plain_arrays(grad: np.ndarray, *values: Any) -> list[Any] | None:
    """`grad` and the arrays of `values` (numbers and None as they are) for an
    `array_backward`, when the tensors have grad's float dtype, so that numpy's arithmetic
    gives exactly what the Tensor ops would; None means: take the Tensor path."""
    dtype = grad.dtype
    if dtype.kind != "f":
        return None
    arrays: list[Any] = [grad]
    for value in values:
        if isinstance(value, Tensor):
            array = value.array
            if array.dtype != dtype:
                return None
            arrays.append(array)
        elif value is None or value.__class__ is float or value.__class__ is int:
            arrays.append(value)
        else:
            return None
    return arrays


def other_operands(needs: Sequence[bool]) -> tuple[int, ...]:
    """For a product: the gradient of each operand reads the other, so keep only those."""
    if needs[0]:
        return (0, 1) if needs[1] else (1,)
    return (0,) if needs[1] else ()


def zeros_of(shape: tuple[int, ...], dtype: np.dtype) -> Tensor:
    return Tensor._wrap(np.zeros(shape, dtype=dtype))


INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


def modified_message(tensor: Tensor, expected: int, creator: Node | None, output_nr: int) -> str:
    what = f"[torch.{tensor.dtype.legacy_name} {list(tensor.array.shape)}]"
    if creator is not None:
        name = re.sub(r"Backward\d+$", "", creator.grad_fn_name)
        what += f", which is output {output_nr} of {name},"
    return ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: {what} is at version {tensor._version[0]}; expected version "
            f"{expected} instead. {INPLACE_HINT}")


def fit_gradient(grad: Tensor, shape: tuple[int, ...], dtype: np.dtype) -> Tensor:
    """Undo broadcasting (sum back to the input's shape) and cast to the input's dtype."""
    if grad.array.shape != shape:
        _check_expandable(grad.array.shape, shape)
        grad = late("engine.ops.shape", "sum_to")(grad, shape)
    if grad.array.dtype != dtype:
        grad = grad.to_numpy_dtype(dtype)
    return grad


def gradient_edge(tensor: Tensor) -> Edge:
    """Where a gradient for `tensor` goes: its grad_fn, its AccumulateGrad, or nowhere."""
    if not tensor._requires_grad:
        return NO_EDGE
    grad_fn = tensor.grad_fn
    if grad_fn is not None:
        return (grad_fn, tensor.output_nr)
    if tensor._nograd_view:
        return NO_EDGE
    return (tensor.accumulator(), 0)


class CopySlices(Node):
    """An in-place op on a view, seen from the view's base (PyTorch's CopySlices).

    The op's own node (`inner`) computed the new values of the view's elements; the base's
    other elements pass their gradient through unchanged. `positions` are the view's elements
    as indices into the base's elements (C order).
    """

    grad_fn_name = "CopySlices"

    def __init__(self, base_edge: Edge, base_meta: tuple[Any, ...], positions: np.ndarray,
                 inner: Node) -> None:
        super().__init__()
        self.inner = inner
        self.positions = positions
        self.base_meta = base_meta
        self.next_functions = (base_edge,) + inner.next_functions[1:]
        self.saved_something = inner.saved_something

    def apply_backward(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        from engine.ops.index import put_flat, take_flat  # lazy: engine.ops.index imports us

        grad = grads[0] if grads[0] is not None else zeros_of(*self.base_meta)
        inner_grads = list(self.inner.apply_backward([take_flat(grad, self.positions)]))
        view_grad = inner_grads[0]
        if view_grad is None:
            view_grad = zeros_of(self.positions.shape, grad.array.dtype)
        base_grad = put_flat(grad, self.positions, view_grad)
        return [base_grad] + inner_grads[1:]

    def release(self) -> None:
        self.inner.release()
        self.released = True
