"""Where tensors and grad_fn nodes come from: the names a program gave them and the places of
the ops that made them. The tracer, `explain`, the anomaly detector and the linter share one.

An observer (see engine/recording.py and autograd_cli/language/interpreter.py): `on_start`
hands it the interpreter, whose current node is the exact expression being evaluated (an
operator or a call), so places are precise to the column. It holds tensors and nodes only
weakly: what the program drops is forgotten, so a long loop keeps only what is alive.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from autograd_cli.graph.recorder import named_tensors, op_display_name, snake_case
from engine import recording
from engine.tensor import Tensor

V = TypeVar("V")
SWEEP_SIZE = 4096  # a WeakIdMap sweeps its dead entries past this size (and past twice its live)


@dataclass(frozen=True)
class Place:
    """A position in the program: 1-based line and column, `end_col` past the expression."""

    line: int | None
    col: int | None = None
    end_col: int | None = None

    def __str__(self) -> str:
        return "?" if self.line is None else f"line {self.line}"


@dataclass(frozen=True)
class Origin:
    """How a grad_fn node was made: by which op (`add`), at which place."""

    op: str
    place: Place


class WeakIdMap(Generic[V]):
    """Values about objects the map holds weakly, by identity (optionally with a number, for
    a node's output); an entry whose object died reads as absent, even if its id is reused.

    Dead entries are swept when the map has doubled since the last sweep: no callback per
    object, which matters for an observer called on every op of a million-node graph.
    """

    def __init__(self) -> None:
        self._entries: dict[Any, tuple[weakref.ref[Any], V]] = {}
        self._sweep_at = SWEEP_SIZE

    def get(self, owner: Any, number: int | None = None) -> V | None:
        entry = self._entries.get(id(owner) if number is None else (id(owner), number))
        return entry[1] if entry is not None and entry[0]() is owner else None

    def set(self, owner: Any, value: V, number: int | None = None) -> None:
        self._entries[id(owner) if number is None else (id(owner), number)] = (
            weakref.ref(owner), value)
        if len(self._entries) > self._sweep_at:
            self._entries = {key: entry for key, entry in self._entries.items()
                             if entry[0]() is not None}
            self._sweep_at = max(SWEEP_SIZE, 2 * len(self._entries))

    def by_key(self, key: Any) -> tuple[Any, V] | None:
        """(object, value) for a key as `get` makes it (`id(owner)`), if the object lives."""
        entry = self._entries.get(key)
        owner = entry[0]() if entry is not None else None
        return None if owner is None or entry is None else (owner, entry[1])

    def items(self) -> list[tuple[Any, V]]:
        """(object, value) for every object still alive."""
        alive = [(entry[0](), entry[1]) for entry in self._entries.values()]
        return [(owner, value) for owner, value in alive if owner is not None]


class Provenance:
    """Names of tensors (the first name each was bound to) and origins of grad_fn nodes.

    A computed tensor's name is kept with its grad_fn (and output number), so the node keeps
    its name after the program drops the tensor (`loss = loss.sum()`); a leaf's with itself.
    Origins are recorded only when asked (`origins=True`): the linter alone does without, and
    runs stay fast.
    """

    def __init__(self, origins: bool = True) -> None:
        self.interpreter: Any = None
        self._names: WeakIdMap[str] = WeakIdMap()  # leaf -> name
        self._node_names: WeakIdMap[str] = WeakIdMap()  # (grad_fn, output_nr) -> name
        self._origins: WeakIdMap[Origin] = WeakIdMap()
        self._latest: dict[str, int] = {}  # name -> id of what it is bound to now
        if origins:
            self.on_op = self._record_origin

    # --- observer events ---------------------------------------------------------------------

    def on_start(self, interpreter: Any) -> None:
        self.interpreter = interpreter

    def on_bind(self, name: str, value: Any, line: int) -> None:
        for label, tensor in named_tensors(name, value):
            node = tensor._grad_fn
            # a tensor keeps the first name it was bound to (`y = x` does not rename x)
            if node is None:
                if self._names.get(tensor) is None:
                    self._names.set(tensor, label)
                self._latest[label] = id(tensor)
            else:
                if self._node_names.get(node, tensor.output_nr) is None:
                    self._node_names.set(node, label, tensor.output_nr)
                self._latest[label] = id(node)

    def _record_origin(self, op_name: str, grad_fn: Any, inputs: Any, output: Any) -> None:
        if grad_fn is not None:
            self._origins.set(grad_fn, Origin(op_display_name(grad_fn.grad_fn_name),
                                              self.here()))

    # --- queries -----------------------------------------------------------------------------

    def here(self) -> Place:
        """The expression the program is evaluating now (the op's call or operator)."""
        node = getattr(self.interpreter, "node", None)
        line = getattr(node, "lineno", None)
        if line is None:
            line, col = recording.location
            return Place(line or None, col or None)
        col = node.col_offset + 1  # type: ignore[union-attr]
        end = getattr(node, "end_col_offset", None)
        same_line = getattr(node, "end_lineno", line) == line
        return Place(line, col, end + 1 if end is not None and same_line else None)

    def name_of(self, tensor: Any) -> str | None:
        node = getattr(tensor, "_grad_fn", None)
        if node is not None:
            return self._node_names.get(node, tensor.output_nr)
        return self._names.get(tensor)

    def origin_of(self, node: Any) -> Origin | None:
        return self._origins.get(node)

    def node_label(self, node: Any, output_nr: int = 0) -> str:
        """`y` (the name of the node's output), `loss (line 27)` when the name has been bound
        to something else since, or `(add, line 12)` for a result that was never named."""
        variable = getattr(node, "variable", None)
        if isinstance(variable, Tensor):  # AccumulateGrad: its leaf
            return self.name_of(variable) or "(leaf)"
        name = self._node_names.get(node, output_nr)
        origin = self.origin_of(node)
        if name is not None:
            if self._latest.get(name) == id(node) or origin is None:
                return name
            return f"{name} ({origin.place})"
        if origin is None:
            return f"({snake_case(getattr(node, 'grad_fn_name', type(node).__name__))})"
        return f"({origin.op}, {origin.place})"


# --- small facts about arrays that several tools print -------------------------------------------

def nonfinite_kind(array: np.ndarray) -> str | None:
    """'nan' or 'inf' if a float array holds one (nan first, as PyTorch's check), else None."""
    if array.dtype.kind not in "fc" or bool(np.isfinite(array).all()):
        return None
    return "nan" if bool(np.isnan(array).any()) else "inf"


def shape_text(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def number_text(value: float) -> str:
    """A number as short as it reads well: 5, 0.25, 1.153e+18, nan."""
    if value != value:
        return "nan"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def norm_of(array: np.ndarray) -> float:
    """The Euclidean norm (what PyTorch's `.norm()` gives), in float64."""
    if array.dtype.kind not in "fciub":
        return float("nan")
    return float(np.linalg.norm(np.asarray(array, dtype=np.float64).ravel()))


def value_text(array: np.ndarray) -> str:
    """One element: its value; more: shape and norm (values of a big tensor do not fit)."""
    if array.size == 1:
        return number_text(float(np.asarray(array, dtype=np.float64).reshape(())))
    return f"{shape_text(array.shape)} norm {number_text(norm_of(array))}"
