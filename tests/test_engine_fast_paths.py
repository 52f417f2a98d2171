"""The engine's short ways (in-place updates without a graph, grad.zero_(), the backward walk on
arrays and the ops' derivatives on arrays) must give exactly what the general path gives. An
installed observer turns every short way off, so each case runs twice, once each way, and the
results must be bit-identical: values, dtypes, version counters, grads, grad_fn names and error
messages. (The general path itself is checked against PyTorch by the golden cases.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from engine import api, recording
from engine.tensor import Tensor

torch: Any = type("torch", (), api.TORCH)
torch.nn = type("nn", (), dict(api.members("NN")))
torch.nn.functional = type("functional", (), dict(api.members("FUNCTIONAL")))


class Watcher:
    """An observer that sees everything and changes nothing."""

    def on_op(self, *args: Any) -> None:
        pass

    def on_backward_node(self, *args: Any) -> None:
        pass


def snapshot(value: Any) -> Any:
    if isinstance(value, Tensor):
        grad = value._grad
        return ("tensor", value.array.dtype.str, value.array.shape, value.array.tobytes(),
                value._version[0], value._requires_grad,
                value.grad_fn.name() if value.grad_fn is not None else None,
                snapshot(grad) if grad is not None else None)
    if isinstance(value, (list, tuple)):
        return [snapshot(v) for v in value]
    return value


def both_ways(program: Callable[[], Any]) -> tuple[Any, Any]:
    def outcome() -> Any:
        try:
            return snapshot(program())
        except Exception as error:  # the message must match too
            return ("error", type(error).__name__, str(error))

    short = outcome()
    previous = recording.set_observer(Watcher())
    try:
        general = outcome()
    finally:
        recording.set_observer(previous)
    return short, general


def sgd_update() -> Any:
    w = torch.tensor([[1.1046, -0.5], [0.25, 3.0]], requires_grad=True)
    b = torch.zeros(2, requires_grad=True)
    x = torch.linspace(-1, 1, 6).reshape(3, 2)
    for _ in range(3):
        loss = ((x @ w + b) ** 2).sum()
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
            b -= 0.01 * b.grad
            w.grad.zero_()
            b.grad.zero_()
    return [w, b]


def broadcast_operand() -> Any:
    a = torch.arange(6.0).reshape(3, 2)
    a += torch.tensor([0.5, -1.0])
    a *= torch.tensor(3.0)
    a -= 1
    return a


def aliasing() -> Any:
    a = torch.tensor([1.5, 2.5, -3.0])
    a -= a
    b = torch.arange(5.0)
    b[1:] += b[:-1]
    return [a, b]


def mixed_dtypes() -> Any:
    a = torch.ones(3)
    a -= torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64)
    n = torch.tensor([1, 2, 3])
    n *= 2
    n += 1
    return [a, n]


def int_tensor_float_scalar() -> Any:
    n = torch.tensor([1, 2, 3])
    n *= 1.5
    return n


def leaf_in_place_with_grad() -> Any:
    w = torch.ones(2, requires_grad=True)
    w -= 1
    return w


def view_of_leaf_under_no_grad() -> Any:
    w = torch.ones(2, 3, requires_grad=True)
    with torch.no_grad():
        row = w[0]
        row -= 2
    return [w, row]


def saved_tensor_modified() -> Any:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    c = b * b
    with torch.no_grad():
        b += 1
    c.sum().backward()
    return a


def zero_cases() -> Any:
    a = torch.ones(3, requires_grad=True)
    (a * 2).sum().backward()
    grad = a.grad
    grad.zero_()
    plain = torch.arange(4.0)
    view = plain[1:3]
    view.zero_()
    b = a * 3
    b.zero_()
    return [a, grad, plain, view, b]


def elementwise_derivatives() -> Any:
    a = torch.tensor([[0.5, -1.25, 3.0]], requires_grad=True)
    b = torch.tensor([[2.0], [-0.75]], requires_grad=True)
    c = torch.tensor([1.5, 2.5, -0.5], dtype=torch.float64, requires_grad=True)
    n = torch.tensor([1, 2, 3])
    y = (a * b - b * 3 - 2.5 * a).sum(dim=1, keepdim=True) * (a - b).sum(0)
    y = y.sum() + (a * n).sum() + (c * a).sum() + (1 - a).sum()
    y.backward()
    return [a, b, c, y]


def mlp_step() -> Any:
    """The walk on arrays through nn.Linear (addmm, t), relu and mse_loss, twice."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.ReLU(), torch.nn.Linear(5, 1))
    x, y = torch.randn(4, 3), torch.randn(4, 1)
    for _ in range(2):
        model.zero_grad()
        torch.nn.MSELoss()(model(x), y).backward()
    return [p.grad for p in model.parameters()]


def shared_and_mixed() -> Any:
    """A node that gets two gradients, 0-dim arithmetic, a float64 scalar tensor times a
    float32 one, ops without an array derivative (sin, cos) and a second walk kept by
    retain_graph."""
    a = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
    s = torch.tensor(1.25, requires_grad=True)
    d = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    h = a * s
    y = (h * h).sum() + (h.sin() * d).sum() + (s * s * 3) + h.cos().sum() * s
    y.backward(retain_graph=True)
    y.backward()
    return [a, s, d, y]


def mean_div_neg_view() -> Any:
    """mean (whole and along a dim), division by tensors and numbers, negation and views."""
    a = torch.tensor([[0.5, -1.5, 2.0], [3.25, 0.75, -0.125]], requires_grad=True)
    b = torch.tensor([1.5, -2.0, 0.25], requires_grad=True)
    c = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
    y = ((a / b).view(3, 2) ** 2).mean() + (-a / 3).mean(dim=0).sum() + (a.sum() / c)
    y = y + (a.reshape(-1) / 7).mean(0, keepdim=True).sum() + (b / 2).mean()
    y.backward()
    return [a, b, c, y]


def exp_log_tanh_sigmoid() -> Any:
    """The pointwise derivatives on arrays, in float32 and float64."""
    out = []
    for dtype in (torch.float32, torch.float64):
        a = (torch.linspace(-3.1, 2.9, 97, dtype=dtype) ** 3 / 7).requires_grad_()
        y = (a.exp() * 0.5).sum() + (a * a + 1).log().sum() + a.tanh().sum() * 3
        y = y + (torch.sigmoid(a) * a).sum() + a.sigmoid().tanh().exp().sum()
        y.backward()
        out += [a, y]
    return out


def softmax_and_cross_entropy() -> Any:
    """softmax and log_softmax along each dim, cross_entropy and nll_loss with each reduction,
    class weights and an ignored target, in float32 and float64: their derivatives on arrays."""
    out = []
    for dtype in (torch.float32, torch.float64):
        x = (torch.linspace(-3.1, 2.9, 60, dtype=dtype).reshape(6, 10) ** 3 / 7).requires_grad_()
        target = torch.tensor([1, 0, 9, 3, 3, 7])
        weight = torch.linspace(0.5, 2.0, 10, dtype=dtype)
        F = torch.nn.functional
        y = (F.softmax(x, -1) * torch.linspace(0, 1, 10, dtype=dtype)).sum()
        y = y + (F.softmax(x, 0) ** 2).sum() + (F.log_softmax(x, 0) * 0.25).sum()
        for factor, reduction in ((0.37, "mean"), (1.3, "sum"), (0.71, "none")):
            y = y + F.cross_entropy(x, target, reduction=reduction).sum() * factor
            y = y + F.cross_entropy(x, target, weight=weight, ignore_index=3,
                                    reduction=reduction).sum() * (factor + 0.1)
            y = y + F.nll_loss(F.log_softmax(x, 1), target, reduction=reduction).sum() * 0.3
        y.backward()
        out += [x, y]
    return out


def transposes_and_squeezes() -> Any:
    """transpose (and transpose_), squeeze with and without dims, indexing (select, slices,
    integer and mask indices, repeated) and abs (at 0 too), of float32 and float64 tensors,
    0-dim ones included: their derivatives on arrays."""
    out = []
    for dtype in (torch.float32, torch.float64):
        a = torch.linspace(-2, 3, 24, dtype=dtype).reshape(2, 1, 3, 4).requires_grad_()
        s = torch.tensor(1.5, dtype=dtype, requires_grad=True)
        y = (a.transpose(0, 3) * torch.linspace(0, 1, 4, dtype=dtype).reshape(4, 1, 1, 1)).sum()
        y = y + (a.squeeze() ** 2).sum() + a.squeeze(1).transpose(-1, 0).sum() * 0.3
        y = y + (a * 2).transpose_(1, 2).sum() + s.transpose(0, 0) * s.squeeze() * 3
        y = y + a[1].sum() * 0.5 + (a[:, :, 1:3] ** 2).sum() + a[0, 0, [0, 2, 2]].sum()
        y = y + a[a > 0].abs().sum() + (a - 0.5).abs().sum() + torch.tensor(0.0, dtype=dtype)
        y.backward()
        out += [a, s, y]
    return out


def binary_cross_entropy() -> Any:
    """binary_cross_entropy with each reduction, probabilities at and near 0 and 1, a weight,
    and a target that requires grad (those two take the Tensor path), in float32 and float64."""
    out = []
    for dtype in (torch.float32, torch.float64):
        p = torch.tensor([[0.0, 1e-7, 0.3], [0.999, 1.0, 0.5]], dtype=dtype, requires_grad=True)
        t = torch.tensor([[0.0, 1.0, 0.25], [1.0, 0.0, 0.5]], dtype=dtype)
        s = torch.tensor([[0.2, 0.9, 0.4], [0.7, 0.1, 0.6]], dtype=dtype, requires_grad=True)
        F = torch.nn.functional
        y = torch.tensor(0.0, dtype=dtype)
        for factor, reduction in ((0.37, "mean"), (1.3, "sum"), (0.71, "none")):
            y = y + F.binary_cross_entropy(p, t, reduction=reduction).sum() * factor
            y = y + F.binary_cross_entropy(torch.sigmoid(p * 3), t, reduction=reduction).sum()
        y = y + F.binary_cross_entropy(p, t, weight=torch.tensor([2.0, 0.5, 1.0], dtype=dtype))
        y = y + F.binary_cross_entropy(torch.sigmoid(p), s) * 0.5
        y.backward()
        out += [p, s, y]
    return out


@pytest.mark.parametrize("exponent", [2, 3, 0.5, -1, -2, 1, 0, 2.5, -0.5, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_derivative_short_way_is_exact(exponent: Any, dtype: str) -> None:
    def program() -> Any:
        x = torch.tensor([0.3, 1.7, 2.9, 0.0, 5.5], dtype=getattr(torch, dtype),
                         requires_grad=True)
        (x ** exponent * torch.tensor([1.0, -2.0, 0.5, 3.0, 1.25])).sum().backward()
        return x

    short, general = both_ways(program)
    assert short == general


PROGRAMS = [sgd_update, elementwise_derivatives, broadcast_operand, aliasing, mixed_dtypes,
            int_tensor_float_scalar, leaf_in_place_with_grad, view_of_leaf_under_no_grad,
            saved_tensor_modified, zero_cases, mlp_step, shared_and_mixed, mean_div_neg_view,
            exp_log_tanh_sigmoid, softmax_and_cross_entropy, binary_cross_entropy,
            transposes_and_squeezes]


# the programs whose outcome is PyTorch's error (each raises it on purpose)
RAISE = {int_tensor_float_scalar, leaf_in_place_with_grad, saved_tensor_modified}


@pytest.mark.parametrize("program", PROGRAMS)
def test_short_ways_match_the_general_path(program: Callable[[], Any]) -> None:
    short, general = both_ways(program)
    assert short == general
    raised = isinstance(short, tuple) and short[0] == "error"
    assert raised == (program in RAISE), short  # no program passes by failing both ways


def test_the_errors_are_pytorchs() -> None:
    short, _ = both_ways(leaf_in_place_with_grad)
    assert short[0] == "error" and "a leaf Variable that requires grad" in short[2]
    short, _ = both_ways(saved_tensor_modified)
    assert short[0] == "error" and "modified by an inplace operation" in short[2]


def test_sgd_update_values() -> None:
    """One step by hand: w - lr * dL/dw, in float32."""
    w = torch.tensor([2.0], requires_grad=True)
    (w * w).sum().backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    assert w.array.tolist() == [np.float32(2.0) - np.float32(0.1) * np.float32(4.0)]
    assert w._version[0] == 1


@pytest.mark.parametrize("exponent", [4, 5, 6])
def test_small_float32_powers_round_as_numpys_pow(exponent: int) -> None:
    """`x ** 4` .. `x ** 6` on float32 come from float64 products, not pow: every float32
    significand in [1, 2), and a sample of them at other signs and scales (zeros, subnormal
    results and overflows too), must round to what numpy's float64 pow rounds to."""
    from engine.ops.arith import _float_power

    significands = (np.arange(1 << 23, dtype=np.uint32) | np.uint32(0x3F800000)).view(np.float32)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38], dtype=np.float32)
    with np.errstate(all="ignore"):
        for scale, every in ((1.0, 1), (-1.0, 97), (2.0**-40, 97), (-(2.0**-120), 97),
                             (2.0**25, 97), (2.0**31, 97)):
            x = np.concatenate([significands[::every] * np.float32(scale), specials])
            expected = np.power(x.astype(np.float64), float(exponent)).astype(np.float32)
            assert _float_power(x, exponent).tobytes() == expected.tobytes()
