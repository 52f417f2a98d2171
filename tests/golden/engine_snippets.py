"""Small programs that run unchanged against real `torch` and against agraph's engine.

Each case is a function `case(torch, out)`: `torch` is either the real module or a namespace
over engine/api.py's dicts, and `out[name] = value` records what the program shows at that
moment (a tensor's values, dtype, flags, grad, grad_fn chain and printed text; python values;
grad_fn nodes). A case may end in an exception: its type and message are recorded too.

make_engine_cases.py runs every case under torch 2.13 and writes engine_cases.json;
tests/test_engine.py runs them on the engine and compares. Neither side imports the other.
Keep cases deterministic (no random values) and small.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

CASES: dict[str, Callable[[Any, Any], None]] = {}


def case(function: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    CASES[function.__name__] = function
    return function


# --- the recorder: one encoding for both sides ----------------------------------------------

class Recorder(dict):  # type: ignore[type-arg]
    """`out[name] = value` encodes the value at once (so later changes do not leak in)."""

    def __init__(self, side: Side) -> None:
        super().__init__()
        self.side = side

    def __setitem__(self, name: str, value: Any) -> None:
        super().__setitem__(name, self.side.encode(value))

    def version(self, name: str, tensor: Any) -> None:
        """Record a tensor's version counter (PyTorch's private `_version`)."""
        super().__setitem__(name, {"version": self.side.version(tensor)})


class Side:
    """What differs between torch and the engine when reading a value: set by each driver."""

    def __init__(self, tensor_type: type, version: Callable[[Any], int],
                 node_name: Callable[[Any], str]) -> None:
        self.tensor_type = tensor_type
        self.version = version
        self.node_name = node_name

    def encode(self, value: Any, depth: int = 0) -> Any:
        """A tensor with its flags, grad_fn chain (3 levels) and .grad (whose own grad_fn is
        shown 1 level deep: PyTorch's derivative graphs use internal ops we do not mirror)."""
        if isinstance(value, self.tensor_type):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                grad = value.grad
            encoded = self.plain(value)
            encoded.update({
                "requires_grad": value.requires_grad, "is_leaf": value.is_leaf,
                "retains_grad": value.retains_grad,
                "grad_fn": self.node(value.grad_fn, 1 if depth else 3),
                "grad": None if grad is None or depth else self.encode(grad, depth + 1),
                "repr": repr(value),
                "class": type(value).__name__,
            })
            return encoded
        if value is None or isinstance(value, (bool, int, float, str)):
            return {"py": type(value).__name__, "value": _json_number(value)}
        if type(value).__name__ == "Size":
            return {"size": list(value)}
        if isinstance(value, (list, tuple)):
            return {"seq": [self.encode(item, depth) for item in value]}
        if type(value).__name__ == "dtype" or type(value).__name__ == "DType":
            return {"dtype": str(value)}
        if hasattr(value, "next_functions"):
            return {"node": self.node(value, 3),
                    "repr": re.sub(r" at 0x[0-9a-fA-F]+", " at 0x?", repr(value))}
        raise TypeError(f"cannot record a {type(value).__name__}")

    def plain(self, tensor: Any) -> dict[str, Any]:
        return {"dtype": str(tensor.dtype), "shape": list(tensor.shape),
                "data": _json_number(tensor.detach().tolist())}

    def node(self, node: Any, depth: int) -> Any:
        """A grad_fn as [name, [child, output_nr], ...], `depth` levels down."""
        if node is None:
            return None
        if depth == 0:
            return self.node_name(node)
        return [self.node_name(node)] + [[self.node(child, depth - 1), nr]
                                         for child, nr in node.next_functions]


def run_case(function: Callable[[Any, Any], None], torch: Any, side: Side) -> dict[str, Any]:
    """What one case records on one side: its values, the error it ends in (type and first
    line), the warnings it gave; grad mode is back on afterwards whatever the case did."""
    out = Recorder(side)
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            function(torch, out)
        except Exception as exc:  # the case's own error is what we record
            error = {"type": type(exc).__name__, "message": _first_line(exc)}
        finally:
            torch.set_grad_enabled(True)
    return {"values": dict(out), "error": error,
            "warnings": [[w.category.__name__, _first_line(w.message)] for w in caught]}


def _first_line(message: Any) -> str:
    """A message's first line, without torch's "(Triggered internally at ...)" note."""
    return re.sub(r" \(Triggered internally at .*\)$", "", str(message).split("\n")[0])


def _json_number(value: Any) -> Any:
    """nan and infinities as strings, so the JSON stays strict."""
    if isinstance(value, list):
        return [_json_number(item) for item in value]
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return value


# --- helpers for the cases ----------------------------------------------------------------

X23 = [[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]]
V3 = [0.5, -1.0, 2.0]


def leaf(torch: Any, data: Any, dtype: Any = None) -> Any:
    return torch.tensor(data, dtype=dtype, requires_grad=True)


def upstream(torch: Any, y: Any) -> Any:
    """A gradient of y's shape with distinct entries, so a wrong scatter shows."""
    n = 1
    for size in y.shape:
        n *= size
    return (torch.arange(n, dtype=y.dtype) * 0.5 + 1).reshape(y.shape)


def run_op(torch: Any, out: Any, function: Callable[..., Any], *inputs: Any) -> None:
    """Leaves from `inputs`, y = function(*leaves), y.backward(upstream); record all."""
    leaves = [leaf(torch, data) if isinstance(data, list) or isinstance(data, float) else data
              for data in inputs]
    y = function(torch, *leaves)
    out["y"] = y
    y.backward(upstream(torch, y))
    for index, x in enumerate(leaves):
        out[f"x{index}"] = x


# --- ops: values, gradients, grad_fn names -------------------------------------------------
# (name, function, inputs): each becomes a case `op_<name>`.

OPS: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
    ("add", lambda t, a, b: a + b, (X23, V3)),
    ("add_fn_alpha", lambda t, a, b: t.add(a, b, alpha=2), (X23, V3)),
    ("radd_scalar", lambda t, a: 2 + a, (X23,)),
    ("add_scalar", lambda t, a: a + 2.5, (X23,)),
    ("sub", lambda t, a, b: a - b, (X23, V3)),
    ("sub_scalar", lambda t, a: a - 1, (X23,)),
    ("rsub_scalar", lambda t, a: 1 - a, (X23,)),
    ("sub_fn_alpha", lambda t, a, b: t.sub(a, b, alpha=3), (X23, V3)),
    ("mul", lambda t, a, b: a * b, (X23, V3)),
    ("mul_scalar", lambda t, a: a * 3, (X23,)),
    ("rmul_scalar", lambda t, a: 3 * a, (X23,)),
    ("mul_self", lambda t, a: a * a, (X23,)),
    ("div", lambda t, a, b: a / b, (X23, V3)),
    ("div_scalar", lambda t, a: a / 4, (X23,)),
    ("rdiv_scalar", lambda t, a: 2 / a, (X23,)),
    ("div_fn", lambda t, a, b: t.div(a, b), (X23, V3)),
    ("neg", lambda t, a: -a, (X23,)),
    ("neg_fn", lambda t, a: t.neg(a), (X23,)),
    ("pow_scalar", lambda t, a: a ** 2, (X23,)),
    ("pow_scalar_float", lambda t, a: a ** 2.5, ([[1.0, 2.0], [0.5, 3.0]],)),
    ("pow_scalar_neg", lambda t, a: a ** -1, (X23,)),
    ("pow_zero", lambda t, a: a ** 0, (X23,)),
    ("pow_tensor", lambda t, a, b: a ** b, ([[1.0, 2.0, 0.5], [3.0, 0.25, 1.5]], V3)),
    ("rpow", lambda t, a: 2 ** a, (X23,)),
    ("pow_fn", lambda t, a: t.pow(a, 3), (X23,)),
    ("square", lambda t, a: a.square(), (X23,)),
    ("matmul_mm", lambda t, a, b: a @ b, (X23, [[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]])),
    ("mm", lambda t, a, b: t.mm(a, b), (X23, [[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]])),
    ("mm_method", lambda t, a, b: a.mm(b), (X23, [[1.0, 2.0], [0.0, -1.0], [3.0, 0.5]])),
    ("matmul_mv", lambda t, a, b: a @ b, (X23, V3)),
    ("mv", lambda t, a, b: t.mv(a, b), (X23, V3)),
    ("matmul_dot", lambda t, a, b: a @ b, (V3, [1.0, 2.0, 3.0])),
    ("dot", lambda t, a, b: t.dot(a, b), (V3, [1.0, 2.0, 3.0])),
    ("matmul_vm", lambda t, a, b: a @ b, ([1.0, 2.0], X23)),
    ("matmul_batch", lambda t, a, b: t.matmul(a, b),
     ([[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 0.0]]], [[[1.0, 0.0], [2.0, 1.0]],
                                                              [[-1.0, 1.0], [0.5, 2.0]]])),
    ("matmul_batch_mat", lambda t, a, b: a @ b,
     ([[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 0.0]]], [[1.0, 0.0, 2.0], [2.0, 1.0, -1.0]])),
    ("matmul_batch_vec", lambda t, a, b: a @ b,
     ([[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 0.0]]], [1.0, -2.0])),
    ("matmul_bcast_batch", lambda t, a, b: a @ b,
     ([[[[1.0, 2.0], [3.0, 4.0]]]], [[[1.0, 0.0], [2.0, 1.0]], [[-1.0, 1.0], [0.5, 2.0]]])),
    ("abs", lambda t, a: a.abs(), ([[1.0, -2.0, 0.0], [0.5, -4.0, 3.0]],)),
    ("exp", lambda t, a: a.exp(), (X23,)),
    ("exp_fn", lambda t, a: t.exp(a), (X23,)),
    ("log", lambda t, a: a.log(), ([[1.0, 2.0, 3.0], [0.5, 4.0, 1.5]],)),
    ("sqrt", lambda t, a: a.sqrt(), ([[1.0, 2.0, 9.0], [0.25, 4.0, 1.5]],)),
    ("rsqrt", lambda t, a: a.rsqrt(), ([[1.0, 2.0, 9.0], [0.25, 4.0, 1.5]],)),
    ("reciprocal", lambda t, a: a.reciprocal(), (X23,)),
    ("sin", lambda t, a: a.sin(), (X23,)),
    ("cos", lambda t, a: t.cos(a), (X23,)),
    ("tanh", lambda t, a: a.tanh(), (X23,)),
    ("sigmoid", lambda t, a: t.sigmoid(a), (X23,)),
    ("sigmoid_method", lambda t, a: a.sigmoid(), (X23,)),
    ("relu", lambda t, a: a.relu(), ([[1.0, -2.0, 0.0], [0.5, -4.0, 3.0]],)),
    ("relu_fn", lambda t, a: t.relu(a), (X23,)),
    ("relu_functional", lambda t, a: t.nn.functional.relu(a), (X23,)),
    ("sigmoid_functional", lambda t, a: t.nn.functional.sigmoid(a), (X23,)),
    ("tanh_functional", lambda t, a: t.nn.functional.tanh(a), (X23,)),
    ("softmax", lambda t, a: a.softmax(dim=1), (X23,)),
    ("softmax_dim0", lambda t, a: t.softmax(a, 0), (X23,)),
    ("softmax_functional", lambda t, a: t.nn.functional.softmax(a, dim=-1), (X23,)),
    ("log_softmax", lambda t, a: a.log_softmax(1), (X23,)),
    ("log_softmax_functional", lambda t, a: t.nn.functional.log_softmax(a, dim=0), (X23,)),
    ("clamp", lambda t, a: a.clamp(-1, 2), ([[1.0, -2.0, 3.0], [-1.0, 2.0, 0.5]],)),
    ("clamp_min_kw", lambda t, a: t.clamp(a, min=0.5), (X23,)),
    ("clamp_max_kw", lambda t, a: a.clamp(max=1.0), (X23,)),
    ("clamp_min", lambda t, a: a.clamp_min(0.0), (X23,)),
    ("clamp_max", lambda t, a: t.clamp_max(a, 0.0), (X23,)),
    ("clamp_tensor_bounds", lambda t, a, lo: t.clamp(a, min=lo),
     (X23, [0.0, -1.0, 3.0])),
    ("clamp_tensor_both", lambda t, a: a.clamp(t.tensor([0.0, -1.0, 3.0]), t.tensor(2.0)),
     (X23,)),
    ("clip", lambda t, a: t.clip(a, -1, 1), (X23,)),
    ("mse_loss", lambda t, a, b: t.nn.functional.mse_loss(a, b), (X23, [[0.0] * 3, [1.0] * 3])),
    ("mse_loss_sum", lambda t, a, b: t.nn.functional.mse_loss(a, b, reduction="sum"),
     (X23, [[0.0] * 3, [1.0] * 3])),
    ("mse_loss_none", lambda t, a, b: t.nn.functional.mse_loss(a, b, reduction="none"),
     (X23, [[0.0] * 3, [1.0] * 3])),
    ("mse_loss_target_plain", lambda t, a: t.nn.functional.mse_loss(a, t.ones(2, 3)), (X23,)),
    ("sum", lambda t, a: a.sum(), (X23,)),
    ("sum_dim0", lambda t, a: a.sum(0), (X23,)),
    ("sum_dim1_keepdim", lambda t, a: a.sum(dim=1, keepdim=True), (X23,)),
    ("sum_dims_tuple", lambda t, a: t.sum(a, (0, 1)), (X23,)),
    ("sum_neg_dim", lambda t, a: a.sum(-1), (X23,)),
    ("mean", lambda t, a: a.mean(), (X23,)),
    ("mean_dim", lambda t, a: a.mean(0), (X23,)),
    ("mean_dim_keepdim", lambda t, a: t.mean(a, 1, keepdim=True), (X23,)),
    ("prod", lambda t, a: a.prod(), (X23,)),
    ("prod_dim", lambda t, a: a.prod(1), (X23,)),
    ("prod_zero", lambda t, a: a.prod(), ([1.0, 0.0, 3.0],)),
    ("prod_two_zeros", lambda t, a: a.prod(), ([1.0, 0.0, 3.0, 0.0],)),
    ("prod_dim_zero", lambda t, a: a.prod(0, keepdim=True), ([[1.0, 0.0], [3.0, 2.0]],)),
    ("max_all", lambda t, a: a.max(), (X23,)),
    ("min_all", lambda t, a: t.min(a), (X23,)),
    ("max_dim", lambda t, a: a.max(1)[0], (X23,)),
    ("max_dim_values", lambda t, a: a.max(dim=0).values, (X23,)),
    ("min_dim_keepdim", lambda t, a: a.min(1, keepdim=True)[0], (X23,)),
    ("maximum", lambda t, a, b: t.maximum(a, b), (X23, V3)),
    ("minimum", lambda t, a, b: t.minimum(a, b), (X23, V3)),
    ("max_binary", lambda t, a, b: t.max(a, b), (X23, V3)),
    ("norm", lambda t, a: a.norm(), (X23,)),
    ("norm_fn", lambda t, a: t.norm(a), (X23,)),
    ("norm_dim", lambda t, a: a.norm(dim=1), (X23,)),
    ("norm_p1", lambda t, a: a.norm(p=1), (X23,)),
    ("reshape", lambda t, a: a.reshape(3, 2), (X23,)),
    ("reshape_tuple", lambda t, a: t.reshape(a, (6,)), (X23,)),
    ("reshape_minus_one", lambda t, a: a.reshape(-1, 2), (X23,)),
    ("view", lambda t, a: a.view(3, 2), (X23,)),
    ("view_minus_one", lambda t, a: a.view(-1), (X23,)),
    ("view_as", lambda t, a, b: a.view_as(b), (X23, [[0.0] * 2] * 3)),
    ("reshape_noncontiguous", lambda t, a: a.t().reshape(6), (X23,)),
    ("flatten", lambda t, a: a.flatten(), (X23,)),
    ("flatten_fn", lambda t, a: t.flatten(a), (X23,)),
    ("flatten_noncontiguous", lambda t, a: a.t().flatten(), (X23,)),
    ("contiguous", lambda t, a: a.t().contiguous(), (X23,)),
    ("t", lambda t, a: a.t(), (X23,)),
    ("t_fn", lambda t, a: t.t(a), (X23,)),
    ("T", lambda t, a: a.T, (X23,)),
    ("transpose", lambda t, a: a.transpose(0, 1), (X23,)),
    ("transpose_fn", lambda t, a: t.transpose(a, 1, 0), (X23,)),
    ("permute", lambda t, a: a.permute(1, 0), (X23,)),
    ("permute_3d", lambda t, a: a.reshape(1, 2, 3).permute(2, 0, 1), (X23,)),
    ("squeeze", lambda t, a: a.reshape(1, 2, 1, 3).squeeze(), (X23,)),
    ("squeeze_dim", lambda t, a: a.reshape(1, 2, 3).squeeze(0), (X23,)),
    ("squeeze_noop_dim", lambda t, a: a.squeeze(0), (X23,)),
    ("unsqueeze", lambda t, a: a.unsqueeze(1), (X23,)),
    ("unsqueeze_neg", lambda t, a: t.unsqueeze(a, -1), (X23,)),
    ("expand", lambda t, a: a.expand(2, 3), (V3,)),
    ("expand_minus_one", lambda t, a: a.expand(4, -1, -1), (X23,)),
    ("expand_as", lambda t, a, b: a.expand_as(b), (V3, X23)),
    ("repeat", lambda t, a: a.repeat(2, 1), (X23,)),
    ("cat", lambda t, a, b: t.cat([a, b]), (X23, [[7.0, 8.0, 9.0]])),
    ("cat_dim1", lambda t, a, b: t.cat((a, b), dim=1), (X23, [[7.0], [8.0]])),
    ("stack", lambda t, a, b: t.stack([a, b]), (V3, [1.0, 2.0, 3.0])),
    ("stack_dim1", lambda t, a, b: t.stack([a, b], dim=1), (V3, [1.0, 2.0, 3.0])),
    ("clone", lambda t, a: a.clone(), (X23,)),
    ("clone_fn", lambda t, a: t.clone(a), (X23,)),
    ("to_double", lambda t, a: a.double(), (X23,)),
    ("to_dtype", lambda t, a: a.to(t.float64), (X23,)),
    ("to_same", lambda t, a: a.to(t.float32) * 1, (X23,)),
    ("where", lambda t, a: t.where(a > 0, a, 0.0), (X23,)),
    ("where_both", lambda t, a, b: t.where(a > 0, a, b), (X23, V3)),
    ("select_int", lambda t, a: a[1], (X23,)),
    ("select_neg", lambda t, a: a[-1], (X23,)),
    ("select_col", lambda t, a: a[:, 1], (X23,)),
    ("select_both", lambda t, a: a[1, 2], (X23,)),
    ("select_chain", lambda t, a: a[0][1], (X23,)),
    ("select_method", lambda t, a: a.select(1, 0), (X23,)),
    ("slice", lambda t, a: a[0:1], (X23,)),
    ("slice_step", lambda t, a: a[:, ::2], (X23,)),
    ("slice_full", lambda t, a: a[:], (X23,)),
    ("slice_both", lambda t, a: a[1:, :2], (X23,)),
    ("slice_int", lambda t, a: a[0, 1:], (X23,)),
    ("index_ellipsis", lambda t, a: a[..., 1], (X23,)),
    ("index_ellipsis_only", lambda t, a: a[...], (X23,)),
    ("index_full_tuple", lambda t, a: a[:, :], (X23,)),
    ("index_none", lambda t, a: a[None], (X23,)),
    ("index_none_mid", lambda t, a: a[:, None, 1:], (X23,)),
    ("index_list", lambda t, a: a[[0, 1, 1]], (X23,)),
    ("index_list_col", lambda t, a: a[:, [2, 0, 2]], (X23,)),
    ("index_two_lists", lambda t, a: a[[0, 1], [2, 0]], (X23,)),
    ("index_int_list", lambda t, a: a[0, [0, 2]], (X23,)),
    ("index_tensor", lambda t, a: a[t.tensor([1, 0])], (X23,)),
    ("index_tensor_0d", lambda t, a: a[t.tensor(1)], (X23,)),
    ("index_mask", lambda t, a: a[a > 0], (X23,)),
    ("index_bool_list", lambda t, a: a[[True, False]], (X23,)),
    ("unbind_item", lambda t, a: a.unbind(1)[2], (X23,)),
    ("iter_item", lambda t, a: list(a)[1], (X23,)),
    ("split_item", lambda t, a: a.split(2, dim=1)[1], (X23,)),
    ("split_sizes_item", lambda t, a: t.split(a, [1, 2], dim=1)[1], (X23,)),
    ("chunk_item", lambda t, a: a.chunk(2)[1], (X23,)),
    ("add_int_tensor", lambda t, a: a + t.tensor([1, 2, 3]), (X23,)),
    ("mul_bool_tensor", lambda t, a: a * t.tensor([True, False, True]), (X23,)),
    ("add_double_0dim", lambda t, a: a + t.tensor(2.0, dtype=t.float64), (X23,)),
    ("add_double_leaf", lambda t, a, b: a + b, (X23, 2.0)),
    ("scalar_chain", lambda t, a: (a * 2 + 1) ** 2 / 3 - a, (3.0,)),
    ("broadcast_col_row", lambda t, a, b: a * b, ([[1.0], [2.0]], V3)),
    ("broadcast_0dim", lambda t, a, b: a * b + a, (X23, 2.0)),
    ("broadcast_3d", lambda t, a, b: a + b,
     ([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]], [[1.0], [2.0]])),
]


def _op_case(function: Callable[..., Any], inputs: tuple[Any, ...]) -> Callable[[Any, Any], None]:
    def run(torch: Any, out: Any) -> None:
        run_op(torch, out, function, *inputs)
    return run


for _name, _function, _inputs in OPS:
    CASES[f"op_{_name}"] = _op_case(_function, _inputs)


# --- creation and dtypes --------------------------------------------------------------------

@case
def create_tensor_dtypes(torch, out):
    out["float"] = torch.tensor([1.0, 2.0])
    out["int"] = torch.tensor([1, 2])
    out["bool"] = torch.tensor([True, False])
    out["mixed"] = torch.tensor([1, 2.5, True])
    out["int_bool"] = torch.tensor([1, True])
    out["scalar"] = torch.tensor(3)
    out["scalar_float"] = torch.tensor(3.5)
    out["nested"] = torch.tensor([[1, 2], [3, 4]])
    out["empty"] = torch.tensor([])
    out["py_float"] = torch.tensor([1, 2], dtype=float)
    out["py_int"] = torch.tensor([1.7, -2.7], dtype=int)
    out["py_bool"] = torch.tensor([0, 2], dtype=bool)
    out["float64"] = torch.tensor([1, 2], dtype=torch.float64)
    out["double"] = torch.tensor([1.5], dtype=torch.double)
    out["long"] = torch.tensor([1.0], dtype=torch.long)
    out["requires_grad"] = torch.tensor([1.0, 2.0], requires_grad=True)
    out["requires_grad_double"] = torch.tensor(2.0, dtype=float, requires_grad=True)


@case
def create_from_tensor_list(torch, out):
    out["t"] = torch.tensor([torch.tensor(1.5), torch.tensor(2.0)])


@case
def create_factories(torch, out):
    out["ones"] = torch.ones(2, 3)
    out["ones_tuple"] = torch.ones((2,))
    out["zeros"] = torch.zeros(2, dtype=torch.int64)
    out["zeros_float64"] = torch.zeros(1, 2, dtype=float)
    out["ones_rg"] = torch.ones(2, requires_grad=True)
    out["full_int"] = torch.full((2,), 3)
    out["full_float"] = torch.full((2, 2), 1.5)
    out["full_bool"] = torch.full((1,), True)
    out["full_dtype"] = torch.full((2,), 3, dtype=torch.float32)
    out["ones_like"] = torch.ones_like(torch.tensor([1, 2]))
    out["zeros_like"] = torch.zeros_like(torch.tensor([[1.0, 2.0]]))
    out["zeros_like_rg"] = torch.zeros_like(torch.tensor([1.0]), requires_grad=True)
    out["ones_like_dtype"] = torch.ones_like(torch.tensor([1, 2]), dtype=torch.float64)
    out["eye"] = torch.eye(3)
    out["eye_rect"] = torch.eye(2, 3)
    out["eye_dtype"] = torch.eye(2, dtype=torch.int64)


@case
def create_ranges(torch, out):
    out["arange_int"] = torch.arange(5)
    out["arange_float"] = torch.arange(5.0)
    out["arange_start"] = torch.arange(1, 4)
    out["arange_step"] = torch.arange(0, 1, 0.25)
    out["arange_neg_step"] = torch.arange(3, 0, -1)
    out["arange_dtype"] = torch.arange(3, dtype=torch.float64)
    out["arange_rg"] = torch.arange(3.0, requires_grad=True)
    out["linspace"] = torch.linspace(0, 1, 5)
    out["linspace_neg"] = torch.linspace(-1, 1, 7)
    out["linspace_one"] = torch.linspace(2, 3, 1)
    out["linspace_float64"] = torch.linspace(0, 1, 3, dtype=torch.float64)


@case
def create_legacy(torch, out):
    out["Tensor"] = torch.Tensor([1, 2])
    out["Tensor_nested"] = torch.Tensor([[1.5], [2]])
    out["FloatTensor"] = torch.FloatTensor([1, 2])
    out["Tensor_shape"] = torch.Tensor(2, 3).shape
    out["Variable"] = torch.autograd.Variable(torch.ones(2), requires_grad=True)
    out["Variable_plain"] = torch.autograd.Variable(torch.ones(2))


@case
def create_ragged_error(torch, out):
    torch.tensor([[1, 2], [3]])


@case
def create_int_requires_grad_error(torch, out):
    torch.tensor([1, 2], requires_grad=True)


@case
def create_int_requires_grad_method_error(torch, out):
    torch.tensor([1, 2]).requires_grad_()


@case
def create_int_requires_grad_attr_error(torch, out):
    t = torch.tensor([1, 2])
    t.requires_grad = True


@case
def create_arange_int_requires_grad_error(torch, out):
    torch.arange(3, requires_grad=True)


@case
def create_ones_long_requires_grad_error(torch, out):
    torch.ones(2, dtype=torch.long, requires_grad=True)


@case
def create_bool_requires_grad_error(torch, out):
    torch.tensor(True, requires_grad=True)


@case
def create_full_int_requires_grad_error(torch, out):
    torch.full((2,), 3, requires_grad=True)


@case
def dtype_attributes(torch, out):
    t = torch.ones(2, 3, dtype=float)
    out["dtype"] = t.dtype
    out["shape"] = t.shape
    out["size"] = t.size()
    out["size1"] = t.size(1)
    out["dim"] = t.dim()
    out["ndim"] = t.ndim
    out["numel"] = t.numel()
    out["is_float"] = t.is_floating_point()
    out["int_is_float"] = torch.tensor([1]).is_floating_point()
    out["dtypes"] = [torch.float32, torch.float, torch.float64, torch.double, torch.int64,
                     torch.long, torch.bool, torch.int32]
    out["eq"] = torch.float == torch.float32
    out["item_int"] = torch.tensor([7]).item()
    out["item_float"] = torch.tensor(2.5).item()
    out["item_bool"] = torch.tensor(True).item()
    out["tolist"] = torch.tensor([[1, 2], [3, 4]]).tolist()
    out["tolist_float"] = torch.tensor([1.5, 2.0]).tolist()
    out["tolist_0dim"] = torch.tensor(2.0).tolist()
    out["len"] = len(torch.ones(4, 2))


@case
def dtype_conversions(torch, out):
    t = torch.tensor([1.7, -2.2, 0.0])
    out["long"] = t.long()
    out["int"] = t.int()
    out["bool"] = t.bool()
    out["double"] = t.double()
    out["float"] = torch.tensor([1, 2]).float()
    out["to"] = t.to(torch.float64)
    out["to_dtype_kw"] = t.to(dtype=torch.int64)
    out["type"] = t.type(torch.float64)
    out["type_str"] = t.type()


@case
def dtype_item_error(torch, out):
    torch.ones(2).item()


# --- promotion -------------------------------------------------------------------------------

@case
def promote_python_scalars(torch, out):
    i = torch.tensor([1, 2])
    f = torch.tensor([1.0, 2.0])
    b = torch.tensor([True, False])
    out["int_plus_float"] = i + 1.5
    out["int_times_int"] = i * 2
    out["int_div_int"] = i / 2
    out["int_floordiv"] = i // 2
    out["int_pow_float"] = i ** 0.5
    out["int_pow_int"] = i ** 2
    out["rpow_int"] = 2 ** i
    out["rpow_float"] = 2.0 ** i
    out["float_plus_int"] = f + 1
    out["bool_plus_bool"] = b + True
    out["bool_plus_int"] = b + 1
    out["bool_times_float"] = b * 1.5
    out["int_plus_bool"] = i + True
    out["double_plus_float"] = torch.tensor([1.0], dtype=float) + 1.5


@case
def promote_tensors(torch, out):
    i = torch.tensor([1, 2])
    f = torch.tensor([1.0, 2.0])
    d = torch.tensor([1.0, 2.0], dtype=torch.float64)
    b = torch.tensor([True, False])
    i32 = torch.tensor([1, 2], dtype=torch.int32)
    out["int_float"] = i + f
    out["float_double"] = f + d
    out["int_double"] = i * d
    out["bool_int"] = b + i
    out["bool_float"] = b * f
    out["int32_int64"] = i32 + i
    out["int32_scalar"] = i32 + 1
    out["float_0dim_double"] = f + torch.tensor(2.0, dtype=torch.float64)
    out["int_0dim_float"] = i + torch.tensor(2.5)
    out["int_0dim_double"] = i + torch.tensor(2.5, dtype=torch.float64)
    out["int32_0dim_int64"] = i32 + torch.tensor(3)
    out["0dim_0dim"] = torch.tensor(1.0) + torch.tensor(2.0, dtype=torch.float64)
    out["0dim_int_float"] = torch.tensor(1) + torch.tensor(2.0)
    out["int_div_int"] = i / i
    out["sum_int"] = i.sum()
    out["sum_bool"] = b.sum()
    out["mean_float"] = i.float().mean()
    out["sqrt_int"] = i.sqrt()
    out["exp_int"] = i.exp()
    out["sum_dtype"] = d.sum(dtype=torch.float32)
    out["cat_mixed"] = torch.cat([i, f])
    out["stack_mixed"] = torch.stack([f, d])
    out["where_mixed"] = torch.where(b, f, 2.0)
    out["compare"] = i > 1
    out["compare_float"] = f == torch.tensor([1.0, 0.0])
    out["neg_int"] = -i
    out["abs_int"] = torch.tensor([-1, 2]).abs()
    out["max_int"] = i.max()


@case
def promote_grad_dtype_back(torch, out):
    w = leaf(torch, [1.0, 2.0])
    d = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
    y = (w * d).sum()
    out["y"] = y
    y.backward()
    out["w"] = w
    out["d"] = d


@case
def promote_mean_int_error(torch, out):
    torch.tensor([1, 2]).mean()


@case
def promote_mm_dtype_error(torch, out):
    torch.ones(2, 2).mm(torch.ones(2, 2, dtype=torch.float64))


@case
def promote_bool_sub_error(torch, out):
    torch.tensor([True]) - torch.tensor([False])


@case
def promote_bool_neg_error(torch, out):
    -torch.tensor([True])


# --- errors of ops ---------------------------------------------------------------------------

@case
def error_mm_shapes(torch, out):
    torch.ones(2, 3).mm(torch.ones(2, 3))


@case
def error_mm_one_arg(torch, out):
    torch.mm(torch.ones(2, 2))


@case
def error_matmul_0dim(torch, out):
    torch.matmul(torch.tensor(1.0), torch.ones(2))


@case
def error_view_size(torch, out):
    torch.ones(2, 3).view(4)


@case
def error_view_noncontiguous(torch, out):
    torch.ones(2, 3).t().view(6)


@case
def error_broadcast(torch, out):
    torch.ones(2, 3) + torch.ones(2)


@case
def error_index_out_of_range(torch, out):
    torch.ones(2, 3)[2]


@case
def error_dim_out_of_range(torch, out):
    torch.ones(2, 3).sum(2)


@case
def error_cat_sizes(torch, out):
    torch.cat([torch.ones(2, 3), torch.ones(2, 2)])


@case
def error_stack_sizes(torch, out):
    torch.stack([torch.ones(2), torch.ones(3)])


@case
def error_expand(torch, out):
    torch.ones(2).expand(3, 3)


@case
def error_float_index(torch, out):
    torch.ones(3)[torch.tensor([0.0])]


@case
def error_bool_ambiguous(torch, out):
    bool(torch.ones(2))


# --- reductions ------------------------------------------------------------------------------

@case
def reduce_keepdim_shapes(torch, out):
    x = torch.arange(24.0).reshape(2, 3, 4)
    out["sum0"] = x.sum(0)
    out["sum1k"] = x.sum(1, keepdim=True)
    out["sum02"] = x.sum((0, 2))
    out["sum_neg"] = x.sum(dim=-1)
    out["mean2k"] = x.mean(2, keepdim=True)
    out["mean01"] = x.mean(dim=(0, 1))
    out["prod1"] = x.prod(1)
    out["max1"] = x.max(1)
    out["min2k"] = x.min(2, keepdim=True)
    out["argmax"] = x.argmax()
    out["argmax1"] = x.argmax(1)
    out["argmin0k"] = x.argmin(0, keepdim=True)


@case
def reduce_keepdim_grads(torch, out):
    x = leaf(torch, [[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])
    y = x.sum(1, keepdim=True) * torch.tensor([[1.0, 2.0]]) + x.mean((0, 2)).reshape(1, 2, 1)
    y.backward(upstream(torch, y))
    out["y"] = y
    out["x"] = x


@case
def reduce_max_dim_tuple(torch, out):
    x = leaf(torch, X23)
    result = x.max(dim=1)
    out["result"] = result
    out["values"] = result.values
    out["indices"] = result.indices
    result.values.sum().backward()
    out["x"] = x


@case
def reduce_max_ties_all(torch, out):
    x = leaf(torch, [[1.0, 3.0, 3.0], [0.0, 3.0, -1.0]])
    y = x.max()
    y.backward()
    out["y"] = y
    out["x"] = x


@case
def reduce_min_ties_all(torch, out):
    x = leaf(torch, [2.0, -1.0, -1.0, 5.0])
    y = x.min() * 4
    y.backward()
    out["x"] = x


@case
def reduce_max_ties_dim(torch, out):
    x = leaf(torch, [[1.0, 3.0, 3.0], [2.0, 2.0, -1.0]])
    values, indices = x.max(1)
    values.sum().backward()
    out["values"] = values
    out["indices"] = indices
    out["x"] = x


@case
def reduce_min_ties_dim(torch, out):
    x = leaf(torch, [[1.0, 1.0], [0.0, 0.0]])
    result = x.min(dim=0)
    result[0].sum().backward()
    out["indices"] = result[1]
    out["x"] = x


@case
def reduce_maximum_ties(torch, out):
    a = leaf(torch, [1.0, 2.0, 3.0])
    b = leaf(torch, [1.0, 5.0, 3.0])
    y = torch.maximum(a, b)
    y.backward(torch.tensor([1.0, 1.0, 4.0]))
    out["a"] = a
    out["b"] = b


@case
def reduce_minimum_ties(torch, out):
    a = leaf(torch, [1.0, 2.0, 3.0])
    b = leaf(torch, [1.0, 5.0, 0.0])
    torch.minimum(a, b).sum().backward()
    out["a"] = a
    out["b"] = b


@case
def reduce_clamp_boundaries(torch, out):
    x = leaf(torch, [-1.0, 0.0, 0.5, 1.0, 2.0])
    x.clamp(0.0, 1.0).sum().backward()
    out["x"] = x


@case
def reduce_relu_at_zero(torch, out):
    x = leaf(torch, [-1.0, 0.0, 2.0])
    x.relu().sum().backward()
    out["x"] = x


@case
def reduce_abs_at_zero(torch, out):
    x = leaf(torch, [-1.0, 0.0, 2.0])
    x.abs().sum().backward()
    out["x"] = x


@case
def reduce_sqrt_at_zero(torch, out):
    x = leaf(torch, [0.0, 4.0])
    x.sqrt().sum().backward()
    out["x"] = x


@case
def reduce_log_at_zero(torch, out):
    x = leaf(torch, [0.0, -1.0, 1.0])
    y = x.log()
    y.sum().backward()
    out["y"] = y
    out["x"] = x


@case
def reduce_pow_tensor_zero_base(torch, out):
    a = leaf(torch, [0.0, 0.0, 2.0])
    b = leaf(torch, [2.0, 0.0, 3.0])
    (a ** b).sum().backward()
    out["a"] = a
    out["b"] = b


@case
def reduce_mean_empty(torch, out):
    out["mean"] = torch.tensor([]).mean()
    out["sum"] = torch.tensor([]).sum()


@case
def reduce_max_empty_error(torch, out):
    torch.tensor([]).max()


# --- broadcasting ------------------------------------------------------------------------------

@case
def broadcast_row_col_grads(torch, out):
    a = leaf(torch, [[1.0], [2.0], [3.0]])
    b = leaf(torch, [10.0, 20.0])
    y = a * b + a
    y.backward(upstream(torch, y))
    out["y"] = y
    out["a"] = a
    out["b"] = b


@case
def broadcast_scalar_leaf(torch, out):
    s = leaf(torch, 2.0)
    x = leaf(torch, X23)
    y = (x * s).sum() + (s / x).sum()
    y.backward()
    out["s"] = s
    out["x"] = x


@case
def broadcast_keep_one_dims(torch, out):
    a = leaf(torch, [[[1.0, 2.0]]])
    b = leaf(torch, [[1.0], [2.0], [3.0]])
    y = a - b
    out["y"] = y
    y.sum().backward()
    out["a"] = a
    out["b"] = b


@case
def broadcast_int_tensor_with_leaf(torch, out):
    w = leaf(torch, [0.5, 1.5])
    y = w * torch.tensor([[1], [2]])
    y.sum().backward()
    out["y"] = y
    out["w"] = w


# --- grad_fn and next_functions -----------------------------------------------------------

@case
def graph_leaf_flags(torch, out):
    a = torch.tensor([2.0], requires_grad=True)
    b = torch.tensor([3.0])
    c = a * b
    d = c + b
    out["a"] = a
    out["b"] = b
    out["c"] = c
    out["d"] = d
    out["grad_fn"] = d.grad_fn
    out["next"] = d.grad_fn.next_functions
    out["acc"] = d.grad_fn.next_functions[0][0].next_functions[0][0]
    out["acc_variable_is_a"] = d.grad_fn.next_functions[0][0].next_functions[0][0].variable is a
    out["b_grad_fn"] = b.grad_fn


@case
def graph_node_names(torch, out):
    a = torch.tensor([2.0], requires_grad=True)
    y = (a * 2).sum()
    out["name"] = y.grad_fn.name()
    out["mul_name"] = y.grad_fn.next_functions[0][0].name()


@case
def graph_requires_grad_propagation(torch, out):
    a = torch.ones(2)
    b = torch.ones(2, requires_grad=True)
    out["plain"] = a * 2
    out["mixed"] = a * b
    out["int_result"] = (b > 0)
    out["argmax"] = b.argmax()
    out["detached"] = (a * b).detach()
    out["shape_only"] = b.shape


@case
def graph_scalar_operands_in_next_functions(torch, out):
    x = leaf(torch, [1.0])
    out["add"] = (x + 1).grad_fn
    out["radd"] = (1 + x).grad_fn
    out["mul"] = (x * 2).grad_fn
    out["sub"] = (x - 2).grad_fn
    out["rsub"] = (2 - x).grad_fn
    out["div"] = (x / 2).grad_fn
    out["rdiv"] = (2 / x).grad_fn
    out["pow"] = (x ** 2).grad_fn
    out["rpow"] = (2 ** x).grad_fn
    out["plain_other"] = (x * torch.ones(1)).grad_fn


@case
def graph_unbind_shares_node(torch, out):
    x = leaf(torch, X23)
    a, b = x.unbind()
    out["same"] = a.grad_fn is b.grad_fn
    out["nrs"] = [a.output_nr, b.output_nr]
    (a * 2 + b).sum().backward()
    out["x"] = x


@case
def graph_split_shares_node(torch, out):
    x = leaf(torch, [1.0, 2.0, 3.0, 4.0, 5.0])
    parts = x.split(2)
    out["same"] = parts[0].grad_fn is parts[2].grad_fn
    out["nrs"] = [p.output_nr for p in parts]
    (parts[0].sum() * 3 + parts[2].sum()).backward()
    out["x"] = x
    out["chunks"] = x.chunk(2)


# --- backward and autograd.grad -------------------------------------------------------------

@case
def backward_gradient_arg(torch, out):
    x = leaf(torch, [1.0, 2.0, 3.0])
    y = x * x
    y.backward(gradient=torch.tensor([1.0, 0.1, 0.01]))
    out["x"] = x


@case
def backward_nonscalar_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    (x * 2).backward()


@case
def backward_gradient_shape_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    (x * 2).backward(torch.ones(3))


@case
def backward_no_grad_error(torch, out):
    torch.tensor([1.0]).sum().backward()


@case
def backward_int_output_error(torch, out):
    torch.tensor([1, 2]).sum().backward()


@case
def backward_twice_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x * x).sum()
    y.backward()
    out["x"] = x
    y.backward()


@case
def backward_twice_nothing_saved(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x + 1).sum()
    y.backward()
    y.backward()
    out["x"] = x


@case
def backward_twice_scalar_mul_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x * 3).sum()
    y.backward()
    y.backward()


@case
def backward_retain_graph(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x * x).sum()
    y.backward(retain_graph=True)
    out["first"] = x
    y.backward()
    out["second"] = x


@case
def backward_retain_graph_then_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x.exp()).sum()
    y.backward(retain_graph=True)
    y.backward()
    out["x"] = x
    y.backward()


@case
def backward_shared_subgraph_freed_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    h = x * x
    a = h.sum()
    b = (h * 2).sum()
    a.backward()
    out["x"] = x
    b.backward()


@case
def backward_create_graph(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x ** 4).sum()
    y.backward(create_graph=True)
    g = x.grad
    out["g"] = g
    first = g.clone()
    g.sum().backward()
    out["x"] = x
    out["first"] = first


@case
def backward_create_graph_linear_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    (x * 3).sum().backward(create_graph=True)
    out["x"] = x


@case
def backward_create_graph_accumulate(torch, out):
    x = leaf(torch, [1.0, 2.0])
    (x * x).sum().backward(create_graph=True)
    (x * x).sum().backward(create_graph=True)
    out["x"] = x


@case
def backward_inputs_leaf(torch, out):
    a = leaf(torch, [1.0, 2.0])
    b = leaf(torch, [3.0, 4.0])
    (a * b).sum().backward(inputs=[a])
    out["a"] = a
    out["b"] = b


@case
def backward_inputs_single_tensor(torch, out):
    a = leaf(torch, [1.0, 2.0])
    b = leaf(torch, [3.0, 4.0])
    (a * b).sum().backward(inputs=b)
    out["a"] = a
    out["b"] = b


@case
def backward_inputs_nonleaf(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    z = (y * y).sum()
    z.backward(inputs=[y])
    out["x"] = x
    out["y"] = y


@case
def backward_inputs_nonleaf_retained(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.retain_grad()
    (y * y).sum().backward(inputs=[y, x])
    out["x"] = x
    out["y"] = y


@case
def backward_inputs_empty_error(torch, out):
    x = leaf(torch, [1.0])
    x.sum().backward(inputs=[])


@case
def backward_inputs_unreached(torch, out):
    a = leaf(torch, [1.0, 2.0])
    b = leaf(torch, [3.0])
    (a * 2).sum().backward(inputs=[a, b])
    out["a"] = a
    out["b"] = b


@case
def backward_autograd_backward(torch, out):
    x = leaf(torch, [1.0, 2.0])
    torch.autograd.backward([x.sum(), (x * 2).sum()], [torch.tensor(1.0), torch.tensor(3.0)])
    out["x"] = x
    y = x * x
    torch.autograd.backward(y, grad_tensors=torch.ones(2))
    out["x_again"] = x


@case
def backward_autograd_backward_inputs(torch, out):
    a = leaf(torch, [1.0, 2.0])
    b = leaf(torch, [3.0, 4.0])
    torch.autograd.backward((a * b).sum(), inputs=[b])
    out["a"] = a
    out["b"] = b


@case
def backward_scalar_gradient(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.sum().backward(torch.tensor(2.0))
    out["x"] = x


@case
def backward_diamond(torch, out):
    x = leaf(torch, [1.0, 2.0])
    a = x * 2
    b = x.exp()
    c = a * b
    d = c + a
    d.sum().backward()
    out["x"] = x


@case
def backward_leaf_used_twice(torch, out):
    x = leaf(torch, 3.0)
    y = x * x * x + x
    y.backward()
    out["x"] = x


@case
def backward_on_leaf(torch, out):
    x = leaf(torch, 3.0)
    x.backward()
    out["x"] = x


@case
def backward_float64(torch, out):
    x = leaf(torch, [1.0, 2.0], torch.float64)
    (x * x).sum().backward()
    out["x"] = x


@case
def grad_basic(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x ** 3).sum()
    (g,) = torch.autograd.grad(y, x)
    out["g"] = g
    out["x"] = x


@case
def grad_two_inputs(torch, out):
    a = leaf(torch, [1.0, 2.0])
    b = leaf(torch, [3.0, 4.0])
    out["grads"] = torch.autograd.grad((a * b).sum(), [a, b])
    out["a"] = a


@case
def grad_outputs_arg(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * x
    out["g"] = torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 10.0]),
                                  retain_graph=True)
    out["g_list"] = torch.autograd.grad([y], [x], [torch.ones(2)], retain_graph=True)


@case
def grad_nonscalar_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    torch.autograd.grad(x * 2, x)


@case
def grad_unused_error(torch, out):
    a = leaf(torch, [1.0])
    b = leaf(torch, [2.0])
    torch.autograd.grad((a * 2).sum(), [a, b])


@case
def grad_allow_unused(torch, out):
    a = leaf(torch, [1.0])
    b = leaf(torch, [2.0])
    out["grads"] = torch.autograd.grad((a * 2).sum(), [a, b], allow_unused=True)


@case
def grad_input_no_grad_error(torch, out):
    a = leaf(torch, [1.0])
    torch.autograd.grad((a * 2).sum(), torch.ones(1))


@case
def grad_output_no_grad_error(torch, out):
    a = leaf(torch, [1.0])
    torch.autograd.grad(torch.ones(1).sum(), a)


@case
def grad_nonleaf_input(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    z = (y * y).sum()
    out["g"] = torch.autograd.grad(z, y)
    out["x"] = x
    out["y"] = y


@case
def grad_nonleaf_and_leaf(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    z = (y * y).sum()
    out["g"] = torch.autograd.grad(z, [y, x])


@case
def grad_does_not_touch_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.retain_grad()
    torch.autograd.grad((y * y).sum(), x)
    out["x"] = x
    out["y"] = y


@case
def grad_frees_graph_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x * x).sum()
    torch.autograd.grad(y, x)
    torch.autograd.grad(y, x)


@case
def grad_retain_graph(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x * x).sum()
    out["g1"] = torch.autograd.grad(y, x, retain_graph=True)
    out["g2"] = torch.autograd.grad(y, x)


@case
def grad_create_graph_second_order(torch, out):
    x = leaf(torch, 3.0)
    y = x ** 3
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    out["g"] = g
    (g2,) = torch.autograd.grad(g, x, create_graph=True)
    out["g2"] = g2
    (g3,) = torch.autograd.grad(g2, x)
    out["g3"] = g3
    out["x"] = x


@case
def grad_create_graph_then_backward(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = (x.sin() * x).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    out["g"] = g
    g.sum().backward()
    out["x"] = x


@case
def grad_hessian_vector(torch, out):
    x = leaf(torch, [1.0, 2.0, 3.0])
    y = (x[0] * x[1] ** 2 + x[2].exp() * x[0]).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    v = torch.tensor([1.0, 0.5, -1.0])
    (hv,) = torch.autograd.grad((g * v).sum(), x)
    out["g"] = g
    out["hv"] = hv


@case
def grad_second_order_mixed(torch, out):
    a = leaf(torch, 2.0)
    b = leaf(torch, 3.0)
    y = a * a * b + b.exp() * a
    ga, gb = torch.autograd.grad(y, [a, b], create_graph=True)
    out["ga"] = ga
    out["gb"] = gb
    out["gab"] = torch.autograd.grad(ga, b, retain_graph=True)
    out["gaa"] = torch.autograd.grad(ga, a)


@case
def grad_second_order_through_ops(torch, out):
    x = leaf(torch, [0.5, -1.0, 2.0])
    y = (x.tanh() * x.sigmoid() + x.exp().log() * x.cos() + (x * x).sqrt()).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    out["g"] = g
    out["h"] = h


@case
def grad_second_order_matmul(torch, out):
    w = leaf(torch, [[1.0, 2.0], [0.5, -1.0]])
    x = torch.tensor([[1.0, -1.0], [2.0, 0.5]])
    y = ((x @ w).softmax(1) * torch.tensor([[1.0, 2.0]])).sum()
    (g,) = torch.autograd.grad(y, w, create_graph=True)
    (h,) = torch.autograd.grad((g * g).sum(), w)
    out["g"] = g
    out["h"] = h


@case
def grad_is_grads_not_accumulated(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.grad = torch.tensor([5.0, 5.0])
    out["g"] = torch.autograd.grad((x * 3).sum(), x)
    out["x"] = x


# --- .grad: accumulation, retain_grad, zero_, hooks ----------------------------------------

@case
def grad_accumulates(torch, out):
    x = leaf(torch, [1.0, 2.0])
    (x * 2).sum().backward()
    out["first"] = x
    (x * 3).sum().backward()
    out["second"] = x
    x.grad.zero_()
    out["zeroed"] = x
    (x * x).sum().backward()
    out["third"] = x
    x.grad = None
    out["none"] = x


@case
def grad_nonleaf_warning(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.sum().backward()
    out["y_grad"] = y.grad


@case
def grad_retain_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.retain_grad()
    z = y * y
    z.sum().backward()
    out["y"] = y
    out["z"] = z
    out["retains"] = [x.retains_grad, y.retains_grad, z.retains_grad]


@case
def grad_retain_grad_accumulates(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.retain_grad()
    z = (y * y).sum()
    z.backward(retain_graph=True)
    z.backward()
    out["y"] = y
    out["x"] = x


@case
def grad_retain_grad_on_leaf(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.retain_grad()
    out["x"] = x


@case
def grad_retain_grad_no_requires_error(torch, out):
    torch.ones(2).retain_grad()


@case
def grad_retain_grad_after_inplace(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.retain_grad()
    y.add_(1)
    (y * y).sum().backward()
    out["y"] = y
    out["x"] = x


@case
def grad_retain_grad_create_graph(torch, out):
    x = leaf(torch, [1.0, 2.0])
    h = x * 2
    h.retain_grad()
    (h * h).sum().backward(create_graph=True)
    out["h"] = h
    out["x"] = x


@case
def grad_set_manually(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.grad = torch.tensor([1.0, 1.0])
    (x * 2).sum().backward()
    out["x"] = x


@case
def grad_set_wrong_shape_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.grad = torch.ones(3)


@case
def hook_modifies_grad(torch, out):
    x = leaf(torch, [1.0, -3.0, 0.25])
    x.register_hook(lambda g: g * 2)
    h = x * x * 3
    h.register_hook(lambda g: g.clamp(min=-1.0, max=1.0))
    (h.sum() * 5).backward()
    out["x"] = x


@case
def hook_leaf_registered_before_graph(torch, out):
    v = leaf(torch, [0.0, 0.0, 0.0])
    v.register_hook(lambda g: g * 2)
    v.backward(torch.tensor([1.0, 2.0, 3.0]))
    out["v"] = v


@case
def hook_order_and_retain_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(g.clone()))
    y.retain_grad()
    y.register_hook(lambda g: g * 10)
    y.register_hook(lambda g: seen.append(g.clone()))
    (y * y).sum().backward()
    out["seen"] = seen
    out["y"] = y
    out["x"] = x


@case
def hook_sees_grad_of_old_value_after_inplace(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(g.clone()))
    y.mul_(3)
    (y * y).sum().backward()
    out["seen"] = seen
    out["x"] = x


@case
def hook_leaf_runs_each_backward(torch, out):
    x = leaf(torch, [1.0, 2.0])
    calls = []
    x.register_hook(lambda g: calls.append(g.sum().item()))
    (x * 2).sum().backward()
    (x * 3).sum().backward()
    out["calls"] = calls
    out["x"] = x


@case
def hook_returns_none_keeps_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 3
    y.register_hook(lambda g: None)
    y.sum().backward()
    out["x"] = x


@case
def hook_no_requires_grad_error(torch, out):
    torch.ones(2).register_hook(lambda g: g)


@case
def hook_in_autograd_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.register_hook(lambda g: g * 100)
    out["g"] = torch.autograd.grad(y.sum(), x)


# --- grad modes ----------------------------------------------------------------------------

@case
def mode_no_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    with torch.no_grad():
        y = x * 2
        out["inside"] = torch.is_grad_enabled()
    out["y"] = y
    out["after"] = torch.is_grad_enabled()
    out["z"] = x * 2


@case
def mode_enable_grad_inside_no_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    with torch.no_grad():
        with torch.enable_grad():
            y = x * 2
        z = x * 2
    out["y"] = y
    out["z"] = z


@case
def mode_set_grad_enabled(torch, out):
    x = leaf(torch, [1.0])
    with torch.set_grad_enabled(False):
        out["off"] = x * 2
    with torch.set_grad_enabled(True):
        out["on"] = x * 2
    torch.set_grad_enabled(False)
    out["function_off"] = x * 2
    torch.set_grad_enabled(True)
    out["function_on"] = x * 2


@case
def mode_no_grad_update_loop(torch, out):
    w = leaf(torch, [1.0, -1.0])
    for _ in range(3):
        loss = ((w - torch.tensor([3.0, 2.0])) ** 2).sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
        w.grad.zero_()
    out["w"] = w
    out["loss"] = loss


@case
def mode_no_grad_factory(torch, out):
    with torch.no_grad():
        out["t"] = torch.ones(2, requires_grad=True)
        out["y"] = out_of(torch)


def out_of(torch):
    x = torch.ones(2, requires_grad=True)
    return x * 2


@case
def mode_no_grad_inplace_on_leaf(torch, out):
    x = leaf(torch, [1.0, 2.0])
    with torch.no_grad():
        x.add_(1)
        x.mul_(2)
        x[0] = 10.0
    out["x"] = x


# --- detach, requires_grad_, data, clone, item ----------------------------------------------

@case
def detach_basics(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    d = y.detach()
    out["d"] = d
    d.add_(1)
    out["y_after"] = y
    out.version("y_version", y)


@case
def detach_stops_gradient(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * x
    z = y.detach() * x
    z.sum().backward()
    out["x"] = x


@case
def detach_inplace(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.detach_()
    out["y"] = y
    out["x_detach_"] = torch.ones(2, requires_grad=True).detach_()


@case
def detach_inplace_view_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x[0].detach_()


@case
def requires_grad_method(torch, out):
    a = torch.tensor([1.0, 2.0])
    out["returned"] = a.requires_grad_()
    out["off"] = torch.tensor([1.0]).requires_grad_(False)
    b = torch.ones(2)
    b.requires_grad = True
    out["attr"] = b
    y = a * 2
    out["nonleaf_true"] = y.requires_grad_(True)


@case
def requires_grad_nonleaf_error(torch, out):
    y = leaf(torch, [1.0]) * 2
    y.requires_grad_(False)


@case
def requires_grad_nonleaf_attr_error(torch, out):
    y = leaf(torch, [1.0]) * 2
    y.requires_grad = False


@case
def data_attribute(torch, out):
    x = leaf(torch, [1.0, 2.0])
    out["data"] = x.data
    x.data.mul_(3)
    out["x"] = x
    x.data = torch.tensor([5.0, 6.0])
    out["x_set"] = x
    y = x * 2
    out["y_data"] = y.data


@case
def data_hides_inplace_from_autograd(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x.exp()
    y.data.add_(1)
    y.sum().backward()
    out["x"] = x
    out["y"] = y


@case
def clone_keeps_graph(torch, out):
    x = leaf(torch, [1.0, 2.0])
    c = x.clone()
    out["c"] = c
    (c * 3).sum().backward()
    out["x"] = x
    d = torch.ones(2).clone()
    out["d"] = d


@case
def item_and_tolist(torch, out):
    x = leaf(torch, [[1.5, 2.0]])
    y = (x * 2).sum()
    out["item"] = y.item()
    out["tolist"] = (x * 2).tolist()
    out["float"] = float(y)
    out["int"] = int(torch.tensor(3.7))
    out["format"] = f"{y:.3f}"
    out["float_leaf"] = float(x.sum())
    with torch.no_grad():
        out["float_no_grad"] = float(y)
    out["float_detached"] = float(y.detach())


# --- in-place ops and the version counter ---------------------------------------------------

@case
def inplace_methods(torch, out):
    t = torch.tensor([1.0, 2.0, 3.0])
    t.add_(1)
    out["add_"] = t
    t.sub_(0.5)
    out["sub_"] = t
    t.mul_(2)
    out["mul_"] = t
    t.div_(4)
    out["div_"] = t
    t.clamp_(1.0, 1.5)
    out["clamp_"] = t
    t.fill_(7)
    out["fill_"] = t
    t.copy_(torch.tensor([3, 2, 1]))
    out["copy_"] = t
    t.zero_()
    out["zero_"] = t
    t += 2
    t -= 1
    t *= 3
    t /= 2
    out["operators"] = t
    t.add_(torch.ones(3), alpha=2)
    out["add_alpha"] = t


@case
def inplace_returns_self(torch, out):
    t = torch.ones(2)
    out["same"] = [t.add_(1) is t, t.mul_(2) is t, t.zero_() is t, t.fill_(1) is t]


@case
def inplace_tensor_operands(torch, out):
    t = torch.ones(2, 3)
    t.add_(torch.tensor([1.0, 2.0, 3.0]))
    t.mul_(torch.tensor([[2.0], [3.0]]))
    out["t"] = t


@case
def inplace_dtype_error(torch, out):
    t = torch.tensor([1, 2])
    t.add_(1.5)


@case
def inplace_int_ops(torch, out):
    t = torch.tensor([1, 2])
    t += 3
    t *= 2
    out["t"] = t


@case
def inplace_shape_error(torch, out):
    t = torch.ones(2)
    t.add_(torch.ones(2, 2))


@case
def inplace_on_nonleaf(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.add_(1)
    out["y"] = y
    y.mul_(x)
    out["y2"] = y
    y.sum().backward()
    out["x"] = x


@case
def inplace_iadd_nonleaf(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 1
    y += x
    y *= 2
    y -= 1
    y /= 4
    out["y"] = y
    y.sum().backward()
    out["x"] = x


@case
def inplace_leaf_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.add_(1)


@case
def inplace_leaf_iadd_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x += 1


@case
def inplace_leaf_zero_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.zero_()


@case
def inplace_leaf_fill_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.fill_(1)


@case
def inplace_leaf_copy_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.copy_(torch.ones(2))


@case
def inplace_leaf_clamp_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.clamp_(0, 1)


@case
def inplace_view_of_leaf_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x[0].add_(1)


@case
def inplace_view_of_leaf_t_error(torch, out):
    x = leaf(torch, [[1.0, 2.0]])
    x.t().mul_(2)


@case
def inplace_setitem_leaf_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x[0] = 5.0


@case
def inplace_setitem_leaf_advanced_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x[[0]] = 5.0


@case
def inplace_detached_leaf_ok(torch, out):
    x = leaf(torch, [1.0, 2.0])
    x.detach().add_(1)
    out["x"] = x
    x.data.mul_(2)
    out["x_data"] = x


@case
def inplace_version_counter(torch, out):
    t = torch.ones(3)
    out.version("v0", t)
    t.add_(1)
    t[0] = 5.0
    t += 1
    out.version("v3", t)
    v = t[1:]
    out.version("view_starts_shared", v)
    v.mul_(2)
    out["base_after_view"] = t
    out.version("base_version", t)
    out.version("view_version", v)
    d = t.detach()
    d.zero_()
    out.version("after_detach", t)
    e = t.data
    e.fill_(1)
    out["after_data"] = t
    out.version("after_data_version", t)
    out.version("data_version", e)
    with torch.no_grad():
        t.mul_(2)
    out.version("no_grad", t)


@case
def inplace_versions_with_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    out.version("y0", y)
    y.add_(1)
    y[0] = 3.0
    out.version("y2", y)
    z = y.exp_()
    out.version("z_is_y", z)
    out.version("x", x)


@case
def inplace_saved_input_error(torch, out):
    x = leaf(torch, [1.0, 2.0, 3.0])
    y = x * 2
    z = y * y
    y.add_(1)
    z.sum().backward()


@case
def inplace_saved_input_pow_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    a = x + 0
    b = a ** 2
    a.mul_(2)
    b.sum().backward()


@case
def inplace_saved_output_error(torch, out):
    x = leaf(torch, [[1.0, 2.0], [3.0, 4.0]])
    y = x.exp()
    y.add_(1)
    y.sum().backward()


@case
def inplace_saved_output_twice_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    a = x * 1
    a.exp_()
    a.add_(1)
    a.sum().backward()


@case
def inplace_saved_clone_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    a = x.clone()
    y = a * x
    a.add_(1)
    y.sum().backward()


@case
def inplace_saved_double_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    a = x.double()
    y = a * a
    a.add_(1)
    y.sum().backward()


@case
def inplace_saved_leaf_detach_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x.sin()
    x.detach().mul_(2)
    y.sum().backward()


@case
def inplace_saved_via_view_error(torch, out):
    x = leaf(torch, [[1.0, 2.0], [3.0, 4.0]])
    a = x * 1
    y = a.sigmoid()
    a[0].mul_(2)
    y.sum().backward()


@case
def inplace_unsaved_is_fine(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x + 1
    z = y + 2
    y.mul_(5)
    z.sum().backward()
    out["x"] = x
    out["y"] = y


@case
def inplace_mul_saves_original(torch, out):
    x = leaf(torch, [1.0, 2.0])
    b = leaf(torch, 2.0)
    a = x * 1
    a.mul_(b)
    out["a"] = a
    a.sum().backward()
    out["b"] = b
    out["x"] = x


@case
def inplace_exp_then_backward(torch, out):
    x = leaf(torch, [0.0, 1.0])
    a = x * 1
    a.exp_()
    out["a"] = a
    a.sum().backward()
    out["x"] = x


@case
def inplace_methods_with_grad(torch, out):
    x = leaf(torch, [-1.0, 0.5, 2.0])
    y = x * 1
    y.clamp_(0, 1)
    out["clamp_"] = y
    z = x * 1
    z.sub_(x, alpha=2)
    out["sub_"] = z
    w = x * 1
    w.div_(2)
    out["div_"] = w
    (y.sum() + z.sum() + w.sum()).backward()
    out["x"] = x


@case
def inplace_fill_zero_copy_with_grad(torch, out):
    x = leaf(torch, [1.0, 2.0])
    a = x * 2
    a.fill_(3)
    out["fill_"] = a
    b = x * 2
    b.zero_()
    out["zero_"] = b
    src = leaf(torch, [5.0, 6.0])
    c = x * 2
    c.copy_(src * 2)
    out["copy_"] = c
    (a.sum() + b.sum() + c.sum()).backward()
    out["x"] = x
    out["src"] = src


@case
def inplace_copy_into_plain(torch, out):
    src = leaf(torch, [5.0, 6.0])
    c = torch.zeros(2)
    c.copy_(src)
    out["c"] = c
    c.sum().backward()
    out["src"] = src


@case
def inplace_fill_tensor_value(torch, out):
    v = leaf(torch, 3.0)
    a = torch.zeros(2)
    a.fill_(v)
    out["a"] = a


@case
def inplace_expanded_error(torch, out):
    t = torch.ones(3).expand(2, 3)
    t.add_(1)


# --- setitem and views ---------------------------------------------------------------------

@case
def setitem_plain(torch, out):
    t = torch.zeros(2, 3)
    t[0] = 1.0
    t[1, 2] = 5
    t[:, 0] = torch.tensor([7.0, 8.0])
    t[t > 6] = -1.0
    t[[0, 1], [1, 1]] = torch.tensor([3.0, 4.0])
    out["t"] = t


@case
def setitem_tensor_value_grad(torch, out):
    x = leaf(torch, X23)
    v = leaf(torch, [7.0, 8.0, 9.0])
    y = x.clone()
    y[0] = v * 2
    out["y"] = y
    y.backward(upstream(torch, y))
    out["x"] = x
    out["v"] = v


@case
def setitem_scalar_grad(torch, out):
    x = leaf(torch, X23)
    y = x * 1
    y[:, 1] = 0.0
    out["y"] = y
    y.backward(upstream(torch, y))
    out["x"] = x


@case
def setitem_advanced_grad(torch, out):
    x = leaf(torch, X23)
    v = leaf(torch, [1.0, 2.0, 3.0])
    y = x.clone()
    y[[1, 0]] = v
    out["y"] = y
    y.backward(upstream(torch, y))
    out["x"] = x
    out["v"] = v


@case
def setitem_advanced_scalar_after_int(torch, out):
    x = leaf(torch, X23)
    y = x.clone()
    y[[0, 1], 0] = 5.0
    out["y"] = y
    y.sum().backward()
    out["x"] = x


@case
def setitem_mask_grad(torch, out):
    x = leaf(torch, X23)
    y = x * 2
    y[y < 0] = 0.0
    out["y"] = y
    y.sum().backward()
    out["x"] = x


@case
def setitem_into_plain_tensor(torch, out):
    w = leaf(torch, [1.0, 2.0, 3.0])
    z = torch.zeros(3)
    z[0:2] = w[:2] * 2
    out["z"] = z
    z.sum().backward()
    out["w"] = w


@case
def setitem_slice_iadd(torch, out):
    x = leaf(torch, X23)
    y = x.clone()
    y[:] += 1
    out["y"] = y
    y.sum().backward()
    out["x"] = x


@case
def setitem_select_iadd(torch, out):
    x = leaf(torch, X23)
    y = x.clone()
    y[0] += x[1]
    out["y"] = y
    y.backward(upstream(torch, y))
    out["x"] = x


@case
def setitem_full_slice_assign(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 1
    y[:] = torch.tensor([5.0, 6.0])
    out["y"] = y
    y[...] = 3.0
    out["y2"] = y


@case
def view_inplace_updates_base(torch, out):
    x = leaf(torch, X23)
    y = x.clone()
    v = y[0]
    v.mul_(2)
    out["y"] = y
    out["v"] = v
    y.backward(upstream(torch, y))
    out["x"] = x


@case
def view_of_view_inplace(torch, out):
    x = leaf(torch, X23)
    y = x.clone()
    v = y[0]
    w = v[1:]
    w.mul_(3)
    out["y"] = y
    out["v"] = v
    out["w"] = w
    y.backward(upstream(torch, y))
    out["x"] = x


@case
def view_regenerated_after_base_inplace(torch, out):
    x = leaf(torch, X23)
    y = x.clone()
    v = y[0]
    y.mul_(2)
    out["v"] = v
    (v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    out["x"] = x


@case
def view_transpose_inplace(torch, out):
    x = leaf(torch, X23)
    y = x.clone()
    v = y.t()
    v.add_(torch.tensor([[1.0, 2.0]]))
    out["y"] = y
    y.backward(upstream(torch, y))
    out["x"] = x


@case
def view_reshape_inplace(torch, out):
    x = leaf(torch, X23)
    y = x * 1
    v = y.view(6)
    v.mul_(torch.arange(6.0))
    out["y"] = y
    y.sum().backward()
    out["x"] = x


@case
def view_inplace_with_grad_operand(torch, out):
    x = leaf(torch, X23)
    s = leaf(torch, 2.0)
    y = x.clone()
    y[1].mul_(s)
    out["y"] = y
    y.sum().backward()
    out["x"] = x
    out["s"] = s


@case
def view_inplace_on_plain_base(torch, out):
    s = leaf(torch, [1.0, 2.0])
    base = torch.zeros(2, 2)
    base[1].add_(s)
    out["base"] = base
    base.sum().backward()
    out["s"] = s


@case
def view_shares_storage(torch, out):
    t = torch.arange(6.0)
    v = t.view(2, 3)
    v[0, 0] = 100.0
    s = t[2:4]
    s.fill_(-1)
    out["t"] = t
    out["v"] = v


@case
def view_of_leaf_no_grad_setitem(torch, out):
    x = leaf(torch, [1.0, 2.0, 3.0])
    with torch.no_grad():
        x[1:] = 0.0
    out["x"] = x
    (x * 2).sum().backward()
    out["x_after"] = x


# --- printing -------------------------------------------------------------------------------

@case
def print_reprs(torch, out):
    x = torch.tensor([[1.1046]], requires_grad=True)
    out["leaf"] = repr(x)
    out["mul"] = repr(x * 3)
    out["scalar"] = repr(torch.tensor(2.5))
    out["double"] = repr(torch.tensor([1.0], dtype=torch.float64))
    out["double_grad"] = repr(torch.tensor([1.0], dtype=torch.float64, requires_grad=True) * 2)
    out["int"] = repr(torch.tensor([1, 2]))
    out["int32"] = repr(torch.tensor([1, 2], dtype=torch.int32))
    out["bool"] = repr(torch.tensor([True]))
    out["str"] = str(x.sum())
    out["node"] = (x * 2).grad_fn
    out["acc"] = (x * 2).grad_fn.next_functions[0][0]
    out["size"] = repr(x.shape)
    out["dtype"] = repr(x.dtype)
    out["empty"] = repr(torch.tensor([]))
    out["no_grad"] = repr(x.detach() * 2)


# --- engine order, node hooks, warnings -----------------------------------------------------

@case
def order_hooks_across_leaves_and_nodes(torch, out):
    x = leaf(torch, [1.0, 2.0])
    w = leaf(torch, [3.0, 4.0])
    seen = []
    x.register_hook(lambda g: seen.append("x"))
    w.register_hook(lambda g: seen.append("w"))
    a = x * w
    b = a.exp()
    c = x + b
    a.register_hook(lambda g: seen.append("a"))
    b.register_hook(lambda g: seen.append("b"))
    c.register_hook(lambda g: seen.append("c"))
    (c.sum() + a.sum()).backward()
    out["order"] = seen


@case
def order_second_walk_through_released_mul_error(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    y.exp().sum().backward()
    out["x"] = x
    y.sum().backward()


@case
def node_hooks(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 3
    seen = []
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        [grad_inputs, grad_outputs]))
    y.grad_fn.register_prehook(lambda grad_outputs: seen.append([grad_outputs]))
    y.sum().backward()
    out["seen"] = seen
    out["x"] = x


@case
def node_hooks_replace(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 3
    y.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 10,))
    z = x * 5
    z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] + 1, None))
    (y.sum() + z.sum()).backward()
    out["x"] = x


@case
def hook_handle_remove(torch, out):
    x = leaf(torch, [1.0, 2.0])
    y = x * 2
    handle = y.register_hook(lambda g: g * 100)
    handle.remove()
    y.sum().backward()
    out["x"] = x


@case
def warn_tensor_from_tensor(torch, out):
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    out["copy"] = torch.tensor(t)


@case
def warn_softmax_implicit_dim(torch, out):
    x = leaf(torch, [[1.0, 2.0], [3.0, 0.5]])
    out["softmax"] = torch.nn.functional.softmax(x)
    out["log_softmax"] = torch.nn.functional.log_softmax(x)


@case
def warn_mse_target_size(torch, out):
    x = leaf(torch, X23)
    out["loss"] = torch.nn.functional.mse_loss(x, torch.tensor([1.0, 0.0, 2.0]))


@case
def warn_T_on_3d(torch, out):
    out["T"] = torch.ones(1, 2, 3, requires_grad=True).T


@case
def scalar_edge_cases(torch, out):
    x = leaf(torch, 2.0)
    y = x * x
    out["y_item"] = y.item()
    out["shape"] = y.shape
    out["dim"] = y.dim()
    out["numel"] = y.numel()
    y.backward()
    out["x"] = x
    out["sum_scalar"] = torch.tensor(3.0).sum()
    out["mean_keepdim"] = torch.ones(2, 3).mean(1, keepdim=True)
    out["max_scalar_dim"] = torch.tensor(5.0).max(0)


@case
def view_of_plain_base_after_grad_inplace(torch, out):
    w = leaf(torch, [1.0, 2.0, 3.0])
    base = torch.zeros(3)
    v = base[0:2]
    base.add_(w)
    out["base"] = base
    out["v"] = v
    (v * v).sum().backward()
    out["w"] = w


@case
def view_detach_and_data_versions(torch, out):
    x = leaf(torch, [1.0, 2.0, 3.0])
    y = x * 2
    v = y[1:]
    d = v.detach()
    d.mul_(10)
    out["y"] = y
    out["v"] = v
    out.version("y_version", y)
    y.sum().backward()
    out["x"] = x


@case
def inplace_on_view_then_base_backward_error(torch, out):
    x = leaf(torch, [1.0, 2.0, 3.0])
    y = x.exp()
    y[0].mul_(2)
    y.sum().backward()


@case
def second_walk_max_dim_error(torch, out):
    x = leaf(torch, [[1.0, 3.0], [2.0, 0.5]])
    y = x.max(1)[0].sum()
    y.backward()
    y.backward()


@case
def second_walk_where_error(torch, out):
    x = leaf(torch, [1.0, -3.0])
    y = torch.where(x > 0, x, 0.0).sum()
    y.backward()
    y.backward()


@case
def second_walk_views_and_cat_ok(torch, out):
    x = leaf(torch, [[1.0, 3.0], [2.0, 0.5]])
    y = torch.cat([x[0], x.t()[1], x.reshape(4)]).sum()
    y.backward()
    y.backward()
    out["x"] = x
