"""engine.nn and engine.optim against what PyTorch 2.13 gives for the same programs.

Each `case_*` function below is written against a `torch`-like namespace and returns what it
observed (values, gradients, grad_fn names and graphs, printed text, warnings, errors). The
test runs it on agraph's engine and compares with GOLDEN, which is what the same function gave
on real torch. This module never imports torch during the tests; to regenerate GOLDEN (torch
2.13 and pytest in a scratch venv):

    /work/torchenv/bin/python tests/test_nn_optim.py > /tmp/golden.py

and paste the printed `GOLDEN = {...}` over the one at the end of this file.
"""

from __future__ import annotations

import math
import re
import warnings
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

W23 = [[0.5, -0.25, 0.125], [-1.0, 0.75, 0.3]]
B2 = [0.1, -0.2]


# --- describing what a case observed, the same way for torch and the engine -------------------

def _node_name(node: Any) -> str:
    return getattr(node, "grad_fn_name", None) or type(node).__name__


def graph(tensor: Any) -> list[Any]:
    """The backward graph below `tensor` as nested [name, [children]] (None for no edge)."""
    def walk(node: Any) -> Any:
        if node is None:
            return None
        return [_node_name(node), [walk(child) for child, _ in node.next_functions]]
    return walk(tensor.grad_fn)


def describe(value: Any) -> Any:
    """Tensors as [class, dtype, shape, data, flags, grad_fn name]; text without addresses."""
    if hasattr(value, "grad_fn") and hasattr(value, "tolist"):
        return [type(value).__name__, str(value.dtype), list(value.shape), value.tolist(),
                f"requires_grad={value.requires_grad}", f"is_leaf={value.is_leaf}",
                None if value.grad_fn is None else _node_name(value.grad_fn)]
    if isinstance(value, dict):
        return {key: describe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [describe(item) for item in value]
    if isinstance(value, str):
        return re.sub(r" at 0x[0-9a-f]+", " at 0x?", value)
    return value


def caught(function: Any) -> list[str]:
    """The exception a call raises, as [type, first line of the message]."""
    try:
        function()
    except Exception as error:  # any error is the observation
        return [type(error).__name__, str(error).split("\n")[0]]
    return ["no error", ""]


def warned(function: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        result = function()
    return result, [str(record.message) for record in records]


def set_weights(torch: Any, layer: Any, weight: list[Any], bias: list[float] | None) -> None:
    with torch.no_grad():
        layer.weight.copy_(torch.tensor(weight))
        if bias is not None:
            layer.bias.copy_(torch.tensor(bias))


# --- the cases ----------------------------------------------------------------------------------

def case_linear_ranks(torch: Any) -> dict[str, Any]:
    """Linear on 1-D, 2-D, 3-D inputs, with and without bias: values, grads, graphs."""
    result = {}
    inputs = {1: [1.0, -2.0, 0.5],
              2: [[1.0, -2.0, 0.5], [0.0, 3.0, -1.5]],
              3: [[[1.0, -2.0, 0.5], [0.0, 3.0, -1.5]], [[2.0, 1.0, 1.0], [-1.0, 0.5, 4.0]]]}
    for bias in (True, False):
        for rank, data in inputs.items():
            layer = torch.nn.Linear(3, 2, bias=bias)
            set_weights(torch, layer, W23, B2 if bias else None)
            x = torch.tensor(data, requires_grad=True)
            y = layer(x)
            (y * y).sum().backward()
            result[f"bias={bias} rank={rank}"] = {
                "y": y, "graph": graph(y), "x.grad": x.grad, "weight.grad": layer.weight.grad,
                "bias.grad": None if layer.bias is None else layer.bias.grad}
    plain = torch.nn.Linear(3, 2)
    set_weights(torch, plain, W23, B2)
    y = plain(torch.tensor([[1.0, 2.0, 3.0]]))
    result["input without grad"] = {"y": y, "graph": graph(y)}
    double = torch.nn.Linear(3, 2, dtype=torch.float64)
    result["float64"] = {"weight.dtype": str(double.weight.dtype),
                         "bias.dtype": str(double.bias.dtype)}
    result["functional"] = torch.nn.functional.linear(
        torch.tensor([[1.0, 2.0, 3.0]]), torch.tensor(W23), torch.tensor(B2))
    return result


def case_sequential(torch: Any) -> dict[str, Any]:
    nn = torch.nn
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1), nn.Sigmoid())
    set_weights(torch, model[0], [[0.5, -1.0], [1.5, 0.25], [-0.5, 0.75]], [0.1, -0.3, 0.2])
    set_weights(torch, model[2], [[1.0, -2.0, 0.5]], [0.05])
    x = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.7], [2.0, 1.0]])
    target = torch.tensor([[1.0], [0.0], [1.0], [0.0]])
    out = model(x)
    loss = nn.MSELoss()(out, target)
    loss.backward()
    return {
        "repr": repr(model), "slice": repr(model[1:]), "last": repr(model[-1]),
        "len": len(model), "iter": [repr(m) for m in model],
        "out": out, "loss": loss, "graph": graph(loss),
        "names": [name for name, _ in model.named_parameters()],
        "grads": [p.grad for p in model.parameters()],
        "params": list(model.parameters()),
        "modules": [name for name, _ in model.named_modules()],
        "children": len(list(model.children())),
        "nested": repr(nn.Sequential(nn.Sequential(nn.Linear(1, 1), nn.Tanh()), nn.Identity())),
        "empty": repr(nn.Sequential()),
        "index error": caught(lambda: model[4]),
    }


def case_relu_inplace(torch: Any) -> dict[str, Any]:
    layer = torch.nn.Linear(3, 2)
    set_weights(torch, layer, W23, B2)
    x = torch.tensor([[1.0, -2.0, 0.5], [0.0, 3.0, -1.5]], requires_grad=True)
    y = layer(x)
    z = torch.nn.ReLU(inplace=True)(y)
    z.sum().backward()
    leaf = torch.tensor([1.0, -1.0], requires_grad=True)
    return {"same object": z is y, "z": z, "graph": graph(z), "x.grad": x.grad,
            "repr": repr(torch.nn.ReLU(inplace=True)),
            "leaf error": caught(lambda: torch.nn.ReLU(inplace=True)(leaf)),
            "functional": torch.nn.functional.relu(torch.tensor([-1.0, 2.0]), inplace=True)}


def case_activations(torch: Any) -> dict[str, Any]:
    nn = torch.nn
    result: dict[str, Any] = {}
    data = [[0.5, -1.0, 2.0], [0.0, 3.0, -0.25]]
    layers = {"Sigmoid": nn.Sigmoid(), "Tanh": nn.Tanh(), "Softmax": nn.Softmax(dim=1),
              "LogSoftmax": nn.LogSoftmax(dim=0), "Identity": nn.Identity(),
              "ReLU": nn.ReLU()}
    for name, layer in layers.items():
        x = torch.tensor(data, requires_grad=True)
        y = layer(x)
        (y * torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.25]])).sum().backward()
        result[name] = {"y": y, "x.grad": x.grad, "repr": repr(layer), "same": y is x}
    cube = torch.tensor([[[1.0, 2.0], [3.0, 4.0]]], requires_grad=True)
    result["Flatten"] = {"y": nn.Flatten()(cube), "repr": repr(nn.Flatten()),
                         "start 0": nn.Flatten(0)(cube), "repr 0": repr(nn.Flatten(0, 1))}
    x = torch.tensor(data)
    result["implicit softmax"] = warned(lambda: nn.Softmax()(x))
    result["implicit F.softmax"] = warned(lambda: torch.nn.functional.softmax(x))
    result["implicit F.log_softmax"] = warned(lambda: torch.nn.functional.log_softmax(x))
    result["F.softmax dtype"] = torch.nn.functional.softmax(x, dim=1, dtype=torch.float64)
    result["repr softmax"] = [repr(nn.Softmax()), repr(nn.LogSoftmax(dim=1))]
    functional = torch.nn.functional
    result["functional"] = [functional.sigmoid(x), functional.tanh(x), functional.relu(x)]
    return result


def case_mse(torch: Any) -> dict[str, Any]:
    nn = torch.nn
    result: dict[str, Any] = {}
    for reduction in ("mean", "sum", "none"):
        a = torch.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)
        b = torch.tensor([[0.5, 2.5], [1.0, 0.0]], requires_grad=True)
        loss = nn.MSELoss(reduction=reduction)(a, b)
        loss.sum().backward()
        result[reduction] = {"loss": loss, "a.grad": a.grad, "b.grad": b.grad,
                             "graph": graph(loss),
                             "repr": repr(nn.MSELoss(reduction=reduction))}
    legacy, messages = warned(lambda: nn.MSELoss(size_average=False))
    result["legacy"] = {"reduction": legacy.reduction, "warnings": messages}
    column = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
    row = torch.tensor([0.0, 1.0, 4.0])
    loss, messages = warned(lambda: nn.MSELoss()(column, row))
    loss.backward()
    result["broadcast"] = {"loss": loss, "warnings": messages, "graph": graph(loss),
                           "grad": column.grad}
    result["bad reduction"] = caught(
        lambda: nn.MSELoss(reduction="bad")(torch.ones(2), torch.ones(2)))
    result["F"] = torch.nn.functional.mse_loss(torch.tensor([1.0, 2.0]),
                                               torch.tensor([0.0, 0.0]), reduction="sum")
    return result


def case_zero_grad(torch: Any) -> dict[str, Any]:
    layer = torch.nn.Linear(2, 1)
    set_weights(torch, layer, [[1.0, -1.0]], [0.5])
    layer(torch.tensor([[1.0, 2.0]])).sum().backward()
    before = [layer.weight.grad, layer.bias.grad]
    layer.zero_grad()
    after_none = [layer.weight.grad, layer.bias.grad]
    layer(torch.tensor([[1.0, 2.0]])).sum().backward()
    kept = layer.weight.grad
    layer.zero_grad(set_to_none=False)
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    optimizer = torch.optim.SGD([p], lr=0.1)
    with warnings.catch_warnings():  # torch's (and agraph's) note on create_graph cycles
        warnings.simplefilter("ignore")
        (p * p).sum().backward(create_graph=True)
    graph_grad = p.grad
    optimizer.zero_grad(set_to_none=False)
    return {"before": before, "after set_to_none": after_none,
            "zeroed": [layer.weight.grad, layer.bias.grad], "same grad object":
            layer.weight.grad is kept, "create_graph grad": graph_grad, "detached": p.grad,
            "after optimizer default": (optimizer.zero_grad(), p.grad)}


SGD_CONFIGS = [
    {"lr": 0.1},
    {"lr": 0.05, "momentum": 0.9},
    {"lr": 0.05, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01},
    {"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1},
    {"lr": 0.03, "momentum": 0.5, "maximize": True},
]
ADAM_CONFIGS = [
    {},
    {"lr": 0.1},
    {"lr": 0.01, "betas": (0.8, 0.99), "eps": 1e-6, "weight_decay": 0.1},
    {"lr": 0.01, "amsgrad": True},
    {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True},
    {"lr": 0.02, "betas": (0.3, 0.6), "maximize": True},
]


def _train(torch: Any, optimizer_class: Any, config: dict[str, Any], steps: int = 6
           ) -> dict[str, Any]:
    """A 2->1 linear model fit by MSE on fixed data; the parameters after each step."""
    model = torch.nn.Linear(2, 1)
    set_weights(torch, model, [[0.3, -0.6]], [0.05])
    x = torch.tensor([[1.0, 2.0], [-0.5, 1.5], [2.0, -1.0], [0.25, 0.75]])
    y = torch.tensor([[1.0], [-2.0], [3.5], [0.5]])
    optimizer = optimizer_class(model.parameters(), **config)
    trajectory, losses = [], []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        trajectory.append([model.weight.tolist(), model.bias.tolist()])
    state = optimizer.state[model.weight]
    return {"trajectory": trajectory, "losses": losses, "repr": repr(optimizer),
            "state": {key: state[key] for key in sorted(state)},
            "weight": model.weight, "grad": model.weight.grad}


def case_sgd(torch: Any) -> dict[str, Any]:
    return {repr(config): _train(torch, torch.optim.SGD, config) for config in SGD_CONFIGS}


def case_adam(torch: Any) -> dict[str, Any]:
    return {repr(config): _train(torch, torch.optim.Adam, config) for config in ADAM_CONFIGS}


GRADIENTS = [[0.5, -1.25, 2.0, 0.001, -0.3, 7.5], [-0.2, 0.4, 1.0, -3.0, 0.25, 0.1],
             [1.5, 1.5, -0.75, 0.3, 0.0, -2.2], [0.05, -0.6, 0.9, 1.1, -1.7, 0.33]] * 2


def _steps(torch: Any, optimizer_class: Any, config: dict[str, Any]) -> list[Any]:
    """The optimizer's arithmetic alone: gradients are given, not computed."""
    p = torch.tensor([0.3, -0.7, 1.1, 0.0, 2.5, -0.05], requires_grad=True)
    optimizer = optimizer_class([p], **config)
    values = []
    for gradient in GRADIENTS:
        p.grad = torch.tensor(gradient)
        optimizer.step()
        values.append(p.tolist())
    return values


def case_sgd_arithmetic(torch: Any) -> dict[str, Any]:
    return {repr(config): _steps(torch, torch.optim.SGD, config) for config in SGD_CONFIGS}


def case_adam_arithmetic(torch: Any) -> dict[str, Any]:
    return {repr(config): _steps(torch, torch.optim.Adam, config) for config in ADAM_CONFIGS}


def case_optimizer_api(torch: Any) -> dict[str, Any]:
    a = torch.tensor([1.0, -2.0], requires_grad=True)
    b = torch.tensor([0.5], requires_grad=True)
    optimizer = torch.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1,
                                momentum=0.9)
    (a * a).sum().backward()
    (b * 3).sum().backward()
    optimizer.step()
    optimizer.param_groups[0]["lr"] = 0.01
    (a * a).sum().backward()
    optimizer.step()
    c = torch.tensor([2.0], requires_grad=True)
    frozen = torch.tensor([2.0], requires_grad=True)
    closure_optimizer = torch.optim.SGD([c, frozen], lr=0.25)

    def closure() -> Any:
        closure_optimizer.zero_grad()
        loss = (c * c).sum()
        loss.backward()
        return loss

    returned = closure_optimizer.step(closure)
    adam = torch.optim.Adam([torch.tensor([1.0], requires_grad=True)], lr=0.1, amsgrad=True)
    return {"a": a, "b": b, "repr": repr(optimizer), "lr": optimizer.param_groups[1]["lr"],
            "keys": sorted(optimizer.param_groups[0]), "closure loss": returned, "c": c,
            "frozen": frozen, "adam repr": repr(adam),
            "adam keys": sorted(adam.param_groups[0]),
            "sgd nesterov": repr(torch.optim.SGD([c], lr=0.1, momentum=0.9, nesterov=True))}


def case_errors(torch: Any) -> dict[str, Any]:
    nn, optim = torch.nn, torch.optim
    layer = nn.Linear(3, 2)
    leaf = torch.tensor([1.0], requires_grad=True)

    def assign_tensor() -> None:
        layer.weight = torch.ones(2, 3)

    def assign_child() -> None:
        model = nn.Sequential(nn.Linear(1, 1))
        model.extra = nn.ReLU()
        model.extra = 3

    return {
        "double input": caught(lambda: layer(torch.ones(2, 3, dtype=torch.float64))),
        "wrong width": caught(lambda: layer(torch.ones(2, 4))),
        "wrong width 1-D": caught(lambda: layer(torch.ones(4))),
        "wrong width 3-D": caught(lambda: layer(torch.ones(2, 5, 4))),
        "no attribute": caught(lambda: layer.foo),
        "assign tensor": caught(assign_tensor),
        "assign child": caught(assign_child),
        "train mode": caught(lambda: layer.train("yes")),
        "no forward": caught(lambda: nn.Module()(1)),
        "empty params": caught(lambda: optim.SGD([], lr=0.1)),
        "tensor params": caught(lambda: optim.SGD(torch.ones(1), lr=0.1)),
        "non-leaf": caught(lambda: optim.SGD([leaf * 2], lr=0.1)),
        "non-tensor": caught(lambda: optim.SGD([1.0], lr=0.1)),
        "negative lr": caught(lambda: optim.SGD([leaf], lr=-0.1)),
        "negative momentum": caught(lambda: optim.SGD([leaf], lr=0.1, momentum=-1.0)),
        "nesterov": caught(lambda: optim.SGD([leaf], lr=0.1, nesterov=True)),
        "beta": caught(lambda: optim.Adam([leaf], betas=(0.9, 1.0))),
        "beta 0": caught(lambda: optim.Adam([leaf], betas=(-0.1, 0.9))),
        "int betas": caught(lambda: optim.Adam([leaf], betas=(0, 0.9))),
        "eps": caught(lambda: optim.Adam([leaf], eps=-1.0)),
        "adam lr": caught(lambda: optim.Adam([leaf], lr=-1.0)),
        "overlap": caught(lambda: optim.SGD([{"params": [leaf]}, {"params": [leaf]}], lr=1.0)),
        "duplicate": warned(lambda: len(optim.SGD([leaf, leaf], lr=1.0).param_groups))[1],
        "set params": caught(lambda: optim.SGD({leaf}, lr=1.0)),
    }


def case_step_bumps_version(torch: Any) -> dict[str, Any]:
    """A step between forward and backward: the saved weight was modified in place."""
    layer = torch.nn.Linear(2, 1)
    set_weights(torch, layer, [[1.0, -1.0]], [0.5])
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    loss = layer(x).sum()
    loss.backward(retain_graph=True)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    optimizer.step()
    error_type, message = caught(loss.backward)
    # torch names the saved view's creator AsStrided here (it replays views of a base that was
    # modified in place); that is the engine's view tracking, not the optimizer's business.
    message = re.sub(r"which is output 0 of \w+, ", "", message)
    return {"error": [error_type, message], "weight": layer.weight}


def case_module_api(torch: Any) -> dict[str, Any]:
    nn = torch.nn
    model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1, bias=False))
    shared = nn.Linear(1, 1)
    twice = nn.Sequential(shared, shared)
    model.head = nn.Linear(1, 1)
    parameters = model.parameters()
    return {
        "parameters repr": repr(parameters),
        "count": len(list(parameters)), "exhausted": len(list(parameters)),
        "names": [name for name, _ in model.named_parameters()],
        "recurse": len(list(model.parameters(recurse=False))),
        "shared": [len(list(twice.parameters())), len(list(twice.modules())),
                   [name for name, _ in twice.named_modules()]],
        "with head": repr(model),
        "train returns self": model.train() is model,
        "eval": [model.eval() is model, model.training, model[0].training],
        "train": [model.train().training, model[2].training],
        "module repr": repr(nn.Module()),
        "bias none": model[2].bias is None,
        "linear attrs": [model[0].in_features, model[0].out_features],
        "relu attr": model[1].inplace,
        "requires_grad_": [p.requires_grad for p in model.requires_grad_(False).parameters()],
        "parameter": [repr(nn.Parameter(torch.tensor([1.0, 2.0]))),
                      repr(nn.Parameter(torch.tensor([1.0]), requires_grad=False)),
                      repr(nn.Parameter(torch.tensor([1.0])) * 2)],
        "children": [repr(child) for child in model.children()],
        "named children": [name for name, _ in model.named_children()],
    }


def case_init(torch: Any) -> dict[str, Any]:
    init = torch.nn.init
    layer = torch.nn.Linear(3, 2)
    init.zeros_(layer.weight)
    zeros = layer.weight.clone()
    init.ones_(layer.bias)
    init.constant_(layer.weight, 0.25)
    return {"zeros": zeros, "ones": layer.bias, "constant": layer.weight,
            "gain": [init.calculate_gain("relu"), init.calculate_gain("tanh"),
                     init.calculate_gain("leaky_relu", math.sqrt(5))],
            "fan error": caught(lambda: init.xavier_uniform_(torch.ones(3)))}


CASES = {name: function for name, function in globals().items() if name.startswith("case_")}


# --- running on the engine ---------------------------------------------------------------------

def engine_torch() -> SimpleNamespace:
    """The engine's public surface shaped like the `torch` module."""
    from engine import api

    nn = SimpleNamespace(**api.NN, functional=SimpleNamespace(**api.FUNCTIONAL))
    return SimpleNamespace(**api.TORCH, nn=nn, optim=SimpleNamespace(**api.OPTIM),
                           autograd=SimpleNamespace(**api.AUTOGRAD))


def assert_matches(got: Any, want: Any, path: str, bit_exact: bool) -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), path
        for key in want:
            assert_matches(got[key], want[key], f"{path}.{key}", bit_exact)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got} != {want}"
        for index, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_matches(g, w, f"{path}[{index}]", bit_exact)
    elif isinstance(want, float) and not isinstance(got, bool):
        if bit_exact:
            same = got == want or (math.isnan(got) and math.isnan(want))
            assert same, f"{path}: {got!r} != {want!r}"
        else:
            assert got == pytest.approx(want, rel=2e-6, abs=1e-7, nan_ok=True), (
                f"{path}: {got!r} != {want!r}")
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


# Cases whose float32 values must equal torch's bit for bit. The rest allow a few ulp: matmul
# goes through another BLAS (so do gradients in a training loop), and torch's float32 sqrt (in
# Adam) is not always correctly rounded.
BIT_EXACT = {"case_sgd_arithmetic", "case_zero_grad", "case_optimizer_api",
             "case_step_bumps_version", "case_init"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_torch(name: str) -> None:
    got = describe(CASES[name](engine_torch()))
    assert_matches(got, GOLDEN[name], name, bit_exact=name in BIT_EXACT)


def test_every_case_has_a_golden() -> None:
    assert sorted(CASES) == sorted(GOLDEN)


# --- engine-only properties (no torch counterpart to compare with) -----------------------------

def test_linear_init_is_seeded_and_within_kaiming_bounds() -> None:
    torch = engine_torch()
    torch.manual_seed(7)
    first = torch.nn.Linear(16, 4)
    torch.manual_seed(7)
    second = torch.nn.Linear(16, 4)
    assert first.weight.tolist() == second.weight.tolist()
    assert first.bias.tolist() == second.bias.tolist()
    assert np.abs(first.weight.array).max() <= 0.25 and np.abs(first.bias.array).max() <= 0.25
    assert first.weight.array.std() > 0.05  # not constant
    assert type(first.weight).__name__ == "Parameter" and first.weight.is_leaf


def test_attribute_names_for_the_language() -> None:
    """The language reads PUBLIC_ATTRS / SETTABLE_ATTRS on the class; every name must work."""
    from types import SimpleNamespace

    from engine import optim
    from engine.nn import NN

    nn = SimpleNamespace(**NN)

    layers = [nn.Linear(2, 2), nn.ReLU(), nn.Sigmoid(), nn.Tanh(), nn.Softmax(1),
              nn.LogSoftmax(1), nn.Identity(), nn.Flatten(), nn.MSELoss(),
              nn.Sequential(nn.Linear(1, 1)), nn.Module()]
    for layer in layers:
        public = type(layer).PUBLIC_ATTRS
        assert isinstance(public, frozenset) and isinstance(type(layer).SETTABLE_ATTRS, frozenset)
        assert {"parameters", "zero_grad", "train", "eval", "forward", "training"} <= public
        assert not any(name.startswith("_") for name in public)
        for name in public:
            getattr(layer, name)
    assert {"weight", "bias", "in_features", "out_features"} <= nn.Linear.PUBLIC_ATTRS
    assert nn.Linear.SETTABLE_ATTRS == {"weight", "bias"}
    assert "inplace" in nn.ReLU.PUBLIC_ATTRS and "reduction" in nn.MSELoss.PUBLIC_ATTRS
    optimizer = optim.SGD(layers[0].parameters(), lr=0.1)
    for name in optim.SGD.PUBLIC_ATTRS:
        getattr(optimizer, name)
    for name in type(nn.init).PUBLIC_ATTRS:
        getattr(nn.init, name)
    assert type(layers[0].parameters()).PUBLIC_ATTRS == frozenset()


def test_step_updates_parameters_in_place() -> None:
    torch = engine_torch()
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    alias = p.data
    version = p.version
    optimizer = torch.optim.SGD([p], lr=0.5)
    (p * p).sum().backward()
    optimizer.step()
    assert alias.tolist() == [0.0, 0.0] and p.version == version + 1
    assert p.grad_fn is None and p.requires_grad


def test_deep_sequential_walks_without_recursion() -> None:
    torch = engine_torch()
    model = torch.nn.Identity()
    for _ in range(3000):
        model = torch.nn.Sequential(model)
    assert len(list(model.modules())) == 3001


def test_api_dicts_hold_the_nn_and_optim_names() -> None:
    from engine import api

    assert {"Linear", "ReLU", "Sigmoid", "Tanh", "Sequential", "MSELoss", "Parameter", "Module",
            "Softmax", "LogSoftmax", "Identity", "Flatten", "init"} <= set(api.NN)
    assert {"relu", "sigmoid", "tanh", "mse_loss", "softmax", "log_softmax", "linear"} <= set(
        api.FUNCTIONAL)
    assert {"SGD", "Adam", "Optimizer"} <= set(api.OPTIM)


def literal(value: Any, indent: int = 0, used: int = 0, width: int = 99) -> str:
    """`value` as Python source in lines of at most `width` characters; the first line starts
    `used` columns right of `indent`."""
    text = repr(value)
    if indent + used + len(text) <= width or not isinstance(value, (str, dict, list, tuple)):
        return text
    pad = " " * (indent + 4)
    if isinstance(value, str):
        chunks, chunk = [], ""
        for character in value:  # a chunk ends at a newline or where it would not fit
            if len(repr(chunk + character)) > width - indent - 6:
                chunks.append(chunk)
                chunk = ""
            chunk += character
            if character == "\n":
                chunks.append(chunk)
                chunk = ""
        chunks += [chunk] if chunk else []
        return "(\n" + "".join(f"{pad}{chunk!r}\n" for chunk in chunks) + " " * indent + ")"
    if isinstance(value, dict):
        items = [f"{key!r}: " + literal(item, indent + 4, len(repr(key)) + 2, width)
                 for key, item in value.items()]
        return "{\n" + "".join(f"{pad}{item},\n" for item in items) + " " * indent + "}"
    lines, line = [], ""
    for item in value:
        part = literal(item, indent + 4, 0, width) + ","
        if "\n" in part or len(pad) + len(line) + len(part) + 1 > width:
            if line:
                lines.append(line)
            line = part
        else:
            line = f"{line} {part}" if line else part
    lines.append(line)
    opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
    return opening + "\n" + "".join(f"{pad}{item}\n" for item in lines) + " " * indent + closing


def _regenerate() -> None:
    import torch  # only here: real torch makes the goldens

    golden = {name: describe(function(torch)) for name, function in sorted(CASES.items())}
    print("GOLDEN: dict[str, Any] = " + literal(golden, 0, 25))


if __name__ == "__main__":
    _regenerate()


GOLDEN: dict[str, Any] = {
    'case_activations': {
        'Sigmoid': {
            'y': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [0.622459352016449, 0.2689414322376251, 0.8807970285415649],
                    [0.5, 0.9525741338729858, 0.43782350420951843],
                ],
                'requires_grad=True', 'is_leaf=False', 'SigmoidBackward0',
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [0.23500370979309082, 0.3932238817214966, 0.3149808645248413],
                    [-0.25, 0.022588327527046204, 0.06153351813554764],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'repr': 'Sigmoid()',
            'same': False,
        },
        'Tanh': {
            'y': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [0.46211716532707214, -0.7615941762924194, 0.9640275835990906],
                    [0.0, 0.9950547814369202, -0.24491865932941437],
                ],
                'requires_grad=True', 'is_leaf=False', 'TanhBackward0',
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [0.7864477038383484, 0.8399485945701599, 0.21195244789123535],
                    [-1.0, 0.00493299076333642, 0.23500370979309082],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'repr': 'Tanh()',
            'same': False,
        },
        'Softmax': {
            'y': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [0.17529039084911346, 0.03911257162690163, 0.785597026348114],
                    [0.04573657736182213, 0.9186437129974365, 0.03561968356370926],
                ],
                'requires_grad=True', 'is_leaf=False', 'SoftmaxBackward0',
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [-0.28227126598358154, -0.02387065626680851, 0.30614206194877625],
                    [-0.0650598332285881, 0.07120388001203537, -0.006144046783447266],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'repr': 'Softmax(dim=1)',
            'same': False,
        },
        'LogSoftmax': {
            'y': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [-0.4740769863128662, -4.0181498527526855, -0.10020658373832703],
                    [-0.9740769863128662, -0.018149960786104202, -2.3502066135406494],
                ],
                'requires_grad=True', 'is_leaf=False', 'LogSoftmaxBackward0',
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [1.0, 1.9550344944000244, 0.059885844588279724],
                    [-1.0, -1.9550343751907349, -0.059885747730731964],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'repr': 'LogSoftmax(dim=0)',
            'same': False,
        },
        'Identity': {
            'y': [
                'Tensor', 'torch.float32', [2, 3], [[0.5, -1.0, 2.0], [0.0, 3.0, -0.25]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 3], [[1.0, 2.0, 3.0], [-1.0, 0.5, 0.25]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'repr': 'Identity()',
            'same': True,
        },
        'ReLU': {
            'y': [
                'Tensor', 'torch.float32', [2, 3], [[0.5, 0.0, 2.0], [0.0, 3.0, 0.0]],
                'requires_grad=True', 'is_leaf=False', 'ReluBackward0',
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 3], [[1.0, 0.0, 3.0], [0.0, 0.5, 0.0]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'repr': 'ReLU()',
            'same': False,
        },
        'Flatten': {
            'y': [
                'Tensor', 'torch.float32', [1, 4], [[1.0, 2.0, 3.0, 4.0]], 'requires_grad=True',
                'is_leaf=False', 'ViewBackward0',
            ],
            'repr': 'Flatten(start_dim=1, end_dim=-1)',
            'start 0': [
                'Tensor', 'torch.float32', [4], [1.0, 2.0, 3.0, 4.0], 'requires_grad=True',
                'is_leaf=False', 'ViewBackward0',
            ],
            'repr 0': 'Flatten(start_dim=0, end_dim=1)',
        },
        'implicit softmax': [
            [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [0.17529039084911346, 0.03911257162690163, 0.785597026348114],
                    [0.04573657736182213, 0.9186437129974365, 0.03561968356370926],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            [
                (
                    'Implicit dimension choice for softmax has been deprecated. Change the call '
                    'to include dim=X as an argument.'
                ),
            ],
        ],
        'implicit F.softmax': [
            [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [0.17529039084911346, 0.03911257162690163, 0.785597026348114],
                    [0.04573657736182213, 0.9186437129974365, 0.03561968356370926],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            [
                (
                    'Implicit dimension choice for softmax has been deprecated. Change the call '
                    'to include dim=X as an argument.'
                ),
            ],
        ],
        'implicit F.log_softmax': [
            [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [-1.7413113117218018, -3.2413113117218018, -0.24131132662296295],
                    [-3.0848569869995117, -0.08485691249370575, -3.3348569869995117],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            [
                (
                    'Implicit dimension choice for log_softmax has been deprecated. Change the c'
                    'all to include dim=X as an argument.'
                ),
            ],
        ],
        'F.softmax dtype': [
            'Tensor', 'torch.float64', [2, 3],
            [
                [0.1752903921400367, 0.039112573270687456, 0.7855970345892759],
                [0.04573657859820431, 0.9186437381745075, 0.035619683227288375],
            ],
            'requires_grad=False', 'is_leaf=True', None,
        ],
        'repr softmax': ['Softmax(dim=None)', 'LogSoftmax(dim=1)'],
        'functional': [
            [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [0.622459352016449, 0.2689414322376251, 0.8807970285415649],
                    [0.5, 0.9525741338729858, 0.43782350420951843],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [0.46211716532707214, -0.7615941762924194, 0.9640275835990906],
                    [0.0, 0.9950547814369202, -0.24491865932941437],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            [
                'Tensor', 'torch.float32', [2, 3], [[0.5, 0.0, 2.0], [0.0, 3.0, 0.0]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        ],
    },
    'case_adam': {
        '{}': {
            'trajectory': [
                [[[0.3009999990463257, -0.5990000367164612]], [0.050999999046325684]],
                [[[0.3019999861717224, -0.5980005860328674]], [0.051999930292367935]],
                [[[0.30299991369247437, -0.5970020294189453]], [0.05299974977970123]],
                [[[0.30399978160858154, -0.5960047245025635]], [0.053999412804841995]],
                [[[0.30499956011772156, -0.5950090885162354]], [0.05499887466430664]],
                [[[0.3059992492198944, -0.5940154790878296]], [0.05599809065461159]],
            ],
            'losses': [
                2.5414061546325684, 2.5356385707855225, 2.5298843383789062, 2.5241458415985107,
                2.5184214115142822, 2.512712001800537,
            ],
            'repr': (
                'Adam (\n'
                'Parameter Group 0\n'
                '    amsgrad: False\n'
                '    betas: (0.9, 0.999)\n'
                '    capturable: False\n'
                '    decoupled_weight_decay: False\n'
                '    differentiable: False\n'
                '    eps: 1e-08\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.001\n'
                '    maximize: False\n'
                '    weight_decay: 0\n'
                ')'
            ),
            'state': {
                'exp_avg': [
                    'Tensor', 'torch.float32', [1, 2],
                    [[-1.6482057571411133, -0.12635211646556854]], 'requires_grad=False',
                    'is_leaf=True', None,
                ],
                'exp_avg_sq': [
                    'Tensor', 'torch.float32', [1, 2],
                    [[0.07410392165184021, 0.00044082378735765815]], 'requires_grad=False',
                    'is_leaf=True', None,
                ],
                'step': [
                    'Tensor', 'torch.float32', [], 6.0, 'requires_grad=False', 'is_leaf=True',
                    None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[0.3059992492198944, -0.5940154790878296]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[-3.5093750953674316, -0.2581622004508972]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        "{'lr': 0.1}": {
            'trajectory': [
                [[[0.4000000059604645, -0.5]], [0.15000000596046448]],
                [[[0.4995507299900055, -0.4969402849674225]], [0.24819788336753845]],
                [[[0.5981999039649963, -0.5411719679832458]], [0.343849241733551]],
                [[[0.6953806281089783, -0.6028928160667419]], [0.4362725615501404]],
                [[[0.7904087901115417, -0.6701210141181946]], [0.5246437191963196]],
                [[[0.8824778199195862, -0.7335183620452881]], [0.6079553365707397]],
            ],
            'losses': [
                2.5414061546325684, 2.0339064598083496, 1.6137995719909668, 1.2507615089416504,
                0.9545620679855347, 0.7295858263969421,
            ],
            'repr': (
                'Adam (\n'
                'Parameter Group 0\n'
                '    amsgrad: False\n'
                '    betas: (0.9, 0.999)\n'
                '    capturable: False\n'
                '    decoupled_weight_decay: False\n'
                '    differentiable: False\n'
                '    eps: 1e-08\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.1\n'
                '    maximize: False\n'
                '    weight_decay: 0\n'
                ')'
            ),
            'state': {
                'exp_avg': [
                    'Tensor', 'torch.float32', [1, 2], [[-1.1366935968399048, 0.0818454772233963]],
                    'requires_grad=False', 'is_leaf=True', None,
                ],
                'exp_avg_sq': [
                    'Tensor', 'torch.float32', [1, 2],
                    [[0.041552480310201645, 0.000454343477031216]], 'requires_grad=False',
                    'is_leaf=True', None,
                ],
                'step': [
                    'Tensor', 'torch.float32', [], 6.0, 'requires_grad=False', 'is_leaf=True',
                    None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[0.8824778199195862, -0.7335183620452881]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[-1.5531200170516968, 0.07508336007595062]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        "{'lr': 0.01, 'betas': (0.8, 0.99), 'eps': 1e-06, 'weight_decay': 0.1}": {
            'trajectory': [
                [[[0.3100000023841858, -0.5900000333786011]], [0.059999994933605194]],
                [[[0.3199939727783203, -0.5801244378089905]], [0.06998512148857117]],
                [[[0.3299778699874878, -0.5704894661903381]], [0.0799451619386673]],
                [[[0.3399477005004883, -0.5612427592277527]], [0.0898699164390564]],
                [[[0.3498995006084442, -0.5525661110877991]], [0.09974938631057739]],
                [[[0.3598294258117676, -0.5446738004684448]], [0.10957403481006622]],
            ],
            'losses': [
                2.5414061546325684, 2.48435640335083, 2.428776979446411, 2.3746936321258545,
                2.322108030319214, 2.270991086959839,
            ],
            'repr': (
                'Adam (\n'
                'Parameter Group 0\n'
                '    amsgrad: False\n'
                '    betas: (0.8, 0.99)\n'
                '    capturable: False\n'
                '    decoupled_weight_decay: False\n'
                '    differentiable: False\n'
                '    eps: 1e-06\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.01\n'
                '    maximize: False\n'
                '    weight_decay: 0.1\n'
                ')'
            ),
            'state': {
                'exp_avg': [
                    'Tensor', 'torch.float32', [1, 2],
                    [[-2.4921255111694336, -0.13375058770179749]], 'requires_grad=False',
                    'is_leaf=True', None,
                ],
                'exp_avg_sq': [
                    'Tensor', 'torch.float32', [1, 2], [[0.6770311594009399, 0.00308700418099761]],
                    'requires_grad=False', 'is_leaf=True', None,
                ],
                'step': [
                    'Tensor', 'torch.float32', [], 6.0, 'requires_grad=False', 'is_leaf=True',
                    None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[0.3598294258117676, -0.5446738004684448]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[-3.340514659881592, -0.032277822494506836]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        "{'lr': 0.01, 'amsgrad': True}": {
            'trajectory': [
                [[[0.3100000023841858, -0.5900000333786011]], [0.06000000238418579]],
                [[[0.31999707221984863, -0.5801041126251221]], [0.06999244540929794]],
                [[[0.3299892246723175, -0.5704232454299927]], [0.07997205853462219]],
                [[[0.33997443318367004, -0.5611135959625244]], [0.08993346244096756]],
                [[[0.3499506711959839, -0.552386462688446]], [0.09987123310565948]],
                [[[0.3599158525466919, -0.5445082783699036]], [0.10978001356124878]],
            ],
            'losses': [
                2.5414061546325684, 2.48435640335083, 2.4287493228912354, 2.3745977878570557,
                2.3218953609466553, 2.2706055641174316,
            ],
            'repr': (
                'Adam (\n'
                'Parameter Group 0\n'
                '    amsgrad: True\n'
                '    betas: (0.9, 0.999)\n'
                '    capturable: False\n'
                '    decoupled_weight_decay: False\n'
                '    differentiable: False\n'
                '    eps: 1e-08\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.01\n'
                '    maximize: False\n'
                '    weight_decay: 0\n'
                ')'
            ),
            'state': {
                'exp_avg': [
                    'Tensor', 'torch.float32', [1, 2],
                    [[-1.603789210319519, -0.06576014310121536]], 'requires_grad=False',
                    'is_leaf=True', None,
                ],
                'exp_avg_sq': [
                    'Tensor', 'torch.float32', [1, 2],
                    [[0.07060906291007996, 0.0001899359340313822]], 'requires_grad=False',
                    'is_leaf=True', None,
                ],
                'max_exp_avg_sq': [
                    'Tensor', 'torch.float32', [1, 2],
                    [[0.07060906291007996, 0.0001899359340313822]], 'requires_grad=False',
                    'is_leaf=True', None,
                ],
                'step': [
                    'Tensor', 'torch.float32', [], 6.0, 'requires_grad=False', 'is_leaf=True',
                    None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[0.3599158525466919, -0.5445082783699036]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[-3.340261936187744, -0.03139263391494751]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        "{'lr': 0.01, 'weight_decay': 0.1, 'decoupled_weight_decay': True}": {
            'trajectory': [
                [[[0.30970001220703125, -0.589400053024292]], [0.059950001537799835]],
                [[[0.3193874657154083, -0.5789225101470947]], [0.06988241523504257]],
                [[[0.32906046509742737, -0.5686888098716736]], [0.07979194819927216]],
                [[[0.3387170732021332, -0.5588723421096802]], [0.08967321366071701]],
                [[[0.34835535287857056, -0.5497092008590698]], [0.09952079504728317]],
                [[[0.35797327756881714, -0.541496217250824]], [0.10932940989732742]],
            ],
            'losses': [
                2.5414061546325684, 2.485360622406006, 2.430850028991699, 2.3778810501098633,
                2.326437473297119, 2.2764697074890137,
            ],
            'repr': (
                'Adam (\n'
                'Parameter Group 0\n'
                '    amsgrad: False\n'
                '    betas: (0.9, 0.999)\n'
                '    capturable: False\n'
                '    decoupled_weight_decay: True\n'
                '    differentiable: False\n'
                '    eps: 1e-08\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.01\n'
                '    maximize: False\n'
                '    weight_decay: 0.1\n'
                ')'
            ),
            'state': {
                'exp_avg': [
                    'Tensor', 'torch.float32', [1, 2],
                    [[-1.6052066087722778, -0.06290851533412933]], 'requires_grad=False',
                    'is_leaf=True', None,
                ],
                'exp_avg_sq': [
                    'Tensor', 'torch.float32', [1, 2],
                    [[0.07071840763092041, 0.00018370650650467724]], 'requires_grad=False',
                    'is_leaf=True', None,
                ],
                'step': [
                    'Tensor', 'torch.float32', [], 6.0, 'requires_grad=False', 'is_leaf=True',
                    None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[0.35797327756881714, -0.541496217250824]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[-3.3457343578338623, -0.021055102348327637]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        "{'lr': 0.02, 'betas': (0.3, 0.6), 'maximize': True}": {
            'trajectory': [
                [[[0.2800000011920929, -0.6200000047683716]], [0.030000001192092896]],
                [[[0.259940505027771, -0.6406487226486206]], [0.009863302111625671]],
                [[[0.2398071587085724, -0.6619077920913696]], [-0.01043885387480259]],
                [[[0.2196037471294403, -0.6835864186286926]], [-0.03089269809424877]],
                [[[0.1993432193994522, -0.7054877281188965]], [-0.0514640212059021]],
                [[[0.17904052138328552, -0.7274647951126099]], [-0.07211538404226303]],
            ],
            'losses': [
                2.5414061546325684, 2.6597063541412354, 2.784442186355591, 2.9159746170043945,
                3.054389476776123, 3.199591636657715,
            ],
            'repr': (
                'Adam (\n'
                'Parameter Group 0\n'
                '    amsgrad: False\n'
                '    betas: (0.3, 0.6)\n'
                '    capturable: False\n'
                '    decoupled_weight_decay: False\n'
                '    differentiable: False\n'
                '    eps: 1e-08\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.02\n'
                '    maximize: True\n'
                '    weight_decay: 0\n'
                ')'
            ),
            'state': {
                'exp_avg': [
                    'Tensor', 'torch.float32', [1, 2], [[3.870344877243042, 0.7846046090126038]],
                    'requires_grad=False', 'is_leaf=True', None,
                ],
                'exp_avg_sq': [
                    'Tensor', 'torch.float32', [1, 2], [[13.878260612487793, 0.4867480993270874]],
                    'requires_grad=False', 'is_leaf=True', None,
                ],
                'step': [
                    'Tensor', 'torch.float32', [], 6.0, 'requires_grad=False', 'is_leaf=True',
                    None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[0.17904052138328552, -0.7274647951126099]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[-3.905339479446411, -0.8330058455467224]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
    },
    'case_adam_arithmetic': {
        '{}': [
            [
                0.2990000247955322, -0.6990000009536743, 1.0989999771118164,
                -0.0009999898029491305, 2.500999927520752, -0.050999999046325684,
            ],
            [
                0.2986544072628021, -0.6985887289047241, 1.0980677604675293,
                -0.0002560761640779674, 2.501038074493408, -0.05167992413043976,
            ],
            [
                0.29796290397644043, -0.6988604664802551, 1.0975879430770874, 0.000252518686465919,
                2.501067638397217, -0.052004262804985046,
            ],
            [
                0.2973785102367401, -0.6989059448242188, 1.0970133543014526,
                0.00044449249980971217, 2.5016393661499023, -0.05229425057768822,
            ],
            [
                0.29674386978149414, -0.698657751083374, 1.0962938070297241, 0.000606583955232054,
                2.5022082328796387, -0.05284889042377472,
            ],
            [
                0.2962629199028015, -0.6985316872596741, 1.0955466032028198, 0.0010654510697349906,
                2.5026204586029053, -0.05333172157406807,
            ],
            [
                0.2956123352050781, -0.6987016797065735, 1.095019817352295, 0.001430697157047689,
                2.5029804706573486, -0.05364399403333664,
            ],
            [
                0.2950279414653778, -0.6987471580505371, 1.0944452285766602, 0.001622671028599143,
                2.503552198410034, -0.05393398180603981,
            ],
        ],
        "{'lr': 0.1}": [
            [
                0.20000001788139343, -0.5999999642372131, 1.0, -0.09999898821115494,
                2.5999999046325684, -0.14999999105930328,
            ],
            [
                0.1654394268989563, -0.5588747262954712, 0.9067820310592651, -0.025607630610466003,
                2.6038122177124023, -0.21799243986606598,
            ],
            [
                0.09628936648368835, -0.5860491991043091, 0.8588016033172607, 0.025251850485801697,
                2.6067590713500977, -0.25042617321014404,
            ],
            [
                0.03785036876797676, -0.5905968546867371, 0.8013455867767334, 0.04444923251867294,
                2.663940191268921, -0.27942487597465515,
            ],
            [
                -0.025614310055971146, -0.5657796263694763, 0.7293961644172668,
                0.06065838038921356, 2.720822334289551, -0.33488887548446655,
            ],
            [
                -0.07371008396148682, -0.5531753301620483, 0.654678225517273, 0.106545090675354,
                2.762054443359375, -0.38317209482192993,
            ],
            [
                -0.13876762986183167, -0.57017582654953, 0.6020014882087708, 0.14306969940662384,
                2.798062801361084, -0.41439947485923767,
            ],
            [
                -0.19720663130283356, -0.574723482131958, 0.5445454120635986, 0.16226708889007568,
                2.8552439212799072, -0.4433981776237488,
            ],
        ],
        "{'lr': 0.01, 'betas': (0.8, 0.99), 'eps': 1e-06, 'weight_decay': 0.1}": [
            [
                0.2900000214576721, -0.6899999976158142, 1.090000033378601, -0.009990010410547256,
                2.5099997520446777, -0.06000000238418579,
            ],
            [
                0.2864234149456024, -0.6858050227165222, 1.0807678699493408, -0.002155027352273464,
                2.5028235912323, -0.06639952212572098,
            ],
            [
                0.2788999378681183, -0.6888638734817505, 1.0761641263961792, 0.002788431942462921,
                2.4950151443481445, -0.06883122771978378,
            ],
            [
                0.2728240489959717, -0.6889036893844604, 1.0703372955322266, 0.004014093428850174,
                2.4991490840911865, -0.07097282260656357,
            ],
            [
                0.26622825860977173, -0.685375452041626, 1.0626357793807983, 0.004976307041943073,
                2.5026156902313232, -0.07678087800741196,
            ],
            [
                0.2616463303565979, -0.6834626197814941, 1.0547242164611816, 0.010055625811219215,
                2.503228187561035, -0.08148705959320068,
            ],
            [
                0.2544727027416229, -0.68546462059021, 1.0496225357055664, 0.013696370646357536,
                2.502704381942749, -0.08387056738138199,
            ],
            [
                0.248412624001503, -0.6855076551437378, 1.0438058376312256, 0.014917362481355667,
                2.50683856010437, -0.08600938320159912,
            ],
        ],
        "{'lr': 0.01, 'amsgrad': True}": [
            [
                0.2900000214576721, -0.6899999976158142, 1.090000033378601, -0.009999899193644524,
                2.509999990463257, -0.06000000238418579,
            ],
            [
                0.28654396533966064, -0.6858874559402466, 1.0806782245635986,
                -0.002560763619840145, 2.5103812217712402, -0.0667964518070221,
            ],
            [
                0.2796289622783661, -0.6886048913002014, 1.0758801698684692, 0.00252518430352211,
                2.5106756687164307, -0.07003982365131378,
            ],
            [
                0.2737851142883301, -0.6890596747398376, 1.0701345205307007, 0.00444492232054472,
                2.5163938999176025, -0.07293969392776489,
            ],
            [
                0.2674386501312256, -0.6865779757499695, 1.0629395246505737, 0.006065026391297579,
                2.5220820903778076, -0.07848609238862991,
            ],
            [
                0.26262906193733215, -0.6853175163269043, 1.0554677248001099, 0.010653696954250336,
                2.52620530128479, -0.08331220597028732,
            ],
            [
                0.25612330436706543, -0.687017560005188, 1.05020010471344, 0.01430615782737732,
                2.529804229736328, -0.08643494546413422,
            ],
            [
                0.25028088688850403, -0.6874723434448242, 1.0444544553756714, 0.016225896775722504,
                2.5355224609375, -0.08933465927839279,
            ],
        ],
        "{'lr': 0.01, 'weight_decay': 0.1, 'decoupled_weight_decay': True}": [
            [
                0.2897000312805176, -0.689300000667572, 1.088900089263916, -0.009999899193644524,
                2.507499933242798, -0.059950001537799835,
            ],
            [
                0.2859542667865753, -0.6844981908798218, 1.0784894227981567,
                -0.0025507640093564987, 2.50537371635437, -0.06668929755687714,
            ],
            [
                0.2787533104419708, -0.686531126499176, 1.0726128816604614, 0.0025377345737069845,
                2.5031630992889404, -0.06986597925424576,
            ],
            [
                0.2726306617259979, -0.6862993836402893, 1.065794587135315, 0.004454934969544411,
                2.506378173828125, -0.07269598543643951,
            ],
            [
                0.2660115659236908, -0.6831313967704773, 1.057533860206604, 0.006071394309401512,
                2.5095601081848145, -0.07816968858242035,
            ],
            [
                0.2609359622001648, -0.6811878085136414, 1.0490045547485352, 0.010653994046151638,
                2.511173725128174, -0.08291983604431152,
            ],
            [
                0.2541692852973938, -0.6822066903114319, 1.0426878929138184, 0.014295801520347595,
                2.512263536453247, -0.08595965802669525,
            ],
            [
                0.24807122349739075, -0.6819792985916138, 1.0358995199203491, 0.016201244667172432,
                2.515469551086426, -0.08877357095479965,
            ],
        ],
        "{'lr': 0.02, 'betas': (0.3, 0.6), 'maximize': True}": [
            [
                0.320000022649765, -0.7199999690055847, 1.1200000047683716, 0.019999800249934196,
                2.4800000190734863, -0.029999999329447746,
            ],
            [
                0.31776779890060425, -0.7195355892181396, 1.1368860006332397,
                0.0005415789783000946, 2.4891223907470703, -0.022129300981760025,
            ],
            [
                0.33722347021102905, -0.7017295956611633, 1.133514642715454, -0.004615966230630875,
                2.492779493331909, -0.02814079076051712,
            ],
            [
                0.34587815403938293, -0.7038497924804688, 1.144587516784668, 0.004409941844642162,
                2.4722836017608643, -0.028774317353963852,
            ],
            [
                0.359042227268219, -0.7202582359313965, 1.165137529373169, 0.008000766858458519,
                2.459657907485962, -0.00909763015806675,
            ],
            [
                0.3589026629924774, -0.7200723886489868, 1.1826897859573364, -0.011357614770531654,
                2.4598236083984375, -0.0010182419791817665,
            ],
            [
                0.3789159655570984, -0.7021763324737549, 1.1796238422393799, -0.016295434907078743,
                2.459888458251953, -0.007158018182963133,
            ],
            [
                0.38757064938545227, -0.7042965292930603, 1.1906967163085938,
                -0.007269526831805706, 2.439392566680908, -0.007791545707732439,
            ],
        ],
    },
    'case_errors': {
        'double input': [
            'RuntimeError', 'mat1 and mat2 must have the same dtype, but got Double and Float',
        ],
        'wrong width': ['RuntimeError', 'mat1 and mat2 shapes cannot be multiplied (2x4 and 3x2)'],
        'wrong width 1-D': [
            'RuntimeError', 'mat1 and mat2 shapes cannot be multiplied (1x4 and 3x2)',
        ],
        'wrong width 3-D': [
            'RuntimeError', 'mat1 and mat2 shapes cannot be multiplied (10x4 and 3x2)',
        ],
        'no attribute': ['AttributeError', "'Linear' object has no attribute 'foo'"],
        'assign tensor': [
            'TypeError',
            (
                "cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or "
                'None expected)'
            ),
        ],
        'assign child': [
            'TypeError',
            "cannot assign 'int' as child module 'extra' (torch.nn.Module or None expected)",
        ],
        'train mode': ['ValueError', 'training mode is expected to be boolean'],
        'no forward': [
            'NotImplementedError', 'Module [Module] is missing the required "forward" function',
        ],
        'empty params': ['ValueError', 'optimizer got an empty parameter list'],
        'tensor params': [
            'TypeError',
            (
                'params argument given to the optimizer should be an iterable of Tensors or dict'
                's, but got torch.FloatTensor'
            ),
        ],
        'non-leaf': ['ValueError', "can't optimize a non-leaf Tensor"],
        'non-tensor': [
            'TypeError', 'optimizer can only optimize Tensors, but one of the params is float',
        ],
        'negative lr': ['ValueError', 'Invalid learning rate: -0.1'],
        'negative momentum': ['ValueError', 'Invalid momentum value: -1.0'],
        'nesterov': ['ValueError', 'Nesterov momentum requires a momentum and zero dampening'],
        'beta': ['ValueError', 'Invalid beta parameter at index 1: 1.0'],
        'beta 0': ['ValueError', 'Invalid beta parameter at index 0: -0.1'],
        'int betas': ['ValueError', 'betas must be either both floats or both Tensors'],
        'eps': ['ValueError', 'Invalid epsilon value: -1.0'],
        'adam lr': ['ValueError', 'Invalid learning rate: -1.0'],
        'overlap': ['ValueError', 'some parameters appear in more than one parameter group'],
        'duplicate': [
            (
                'optimizer contains a parameter group with duplicate parameters; in future, this'
                ' will cause an error; see github.com/pytorch/pytorch/issues/40967 for more info'
                'rmation'
            ),
        ],
        'set params': ['no error', ''],
    },
    'case_init': {
        'zeros': [
            'Tensor', 'torch.float32', [2, 3], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
            'requires_grad=True', 'is_leaf=False', 'CloneBackward0',
        ],
        'ones': [
            'Parameter', 'torch.float32', [2], [1.0, 1.0], 'requires_grad=True', 'is_leaf=True',
            None,
        ],
        'constant': [
            'Parameter', 'torch.float32', [2, 3], [[0.25, 0.25, 0.25], [0.25, 0.25, 0.25]],
            'requires_grad=True', 'is_leaf=True', None,
        ],
        'gain': [1.4142135623730951, 1.6666666666666667, 0.5773502691896257],
        'fan error': [
            'ValueError',
            'Fan in and fan out can not be computed for tensor with fewer than 2 dimensions',
        ],
    },
    'case_linear_ranks': {
        'bias=True rank=1': {
            'y': [
                'Tensor', 'torch.float32', [2], [1.162500023841858, -2.549999952316284],
                'requires_grad=True', 'is_leaf=False', 'ViewBackward0',
            ],
            'graph': [
                'ViewBackward0',
                [
                    [
                        'AddmmBackward0',
                        [
                            ['AccumulateGrad', []], ['ViewBackward0', [['AccumulateGrad', []]]],
                            ['TBackward0', [['AccumulateGrad', []]]],
                        ],
                    ],
                ],
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [3], [6.262499809265137, -4.40625, -1.239375114440918],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'weight.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [2.325000047683716, -4.650000095367432, 1.162500023841858],
                    [-5.099999904632568, 10.199999809265137, -2.549999952316284],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'bias.grad': [
                'Tensor', 'torch.float32', [2], [2.325000047683716, -5.099999904632568],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        'bias=True rank=2': {
            'y': [
                'Tensor', 'torch.float32', [2, 2],
                [
                    [1.162500023841858, -2.549999952316284],
                    [-0.8374999761581421, 1.5999999046325684],
                ],
                'requires_grad=True', 'is_leaf=False', 'AddmmBackward0',
            ],
            'graph': [
                'AddmmBackward0',
                [
                    ['AccumulateGrad', []], ['AccumulateGrad', []],
                    ['TBackward0', [['AccumulateGrad', []]]],
                ],
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [6.262499809265137, -4.40625, -1.239375114440918],
                    [-4.037499904632568, 2.8187499046325684, 0.7506250143051147],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'weight.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [2.325000047683716, -9.674999237060547, 3.674999713897705],
                    [-5.099999904632568, 19.799999237060547, -7.34999942779541],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'bias.grad': [
                'Tensor', 'torch.float32', [2], [0.6500000953674316, -1.9000000953674316],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        'bias=True rank=3': {
            'y': [
                'Tensor', 'torch.float32', [2, 2, 2],
                [
                    [
                        [1.162500023841858, -2.549999952316284],
                        [-0.8374999761581421, 1.5999999046325684],
                    ],
                    [[0.9750000238418579, -1.149999976158142], [-0.02499999850988388, 2.375]],
                ],
                'requires_grad=True', 'is_leaf=False', 'ViewBackward0',
            ],
            'graph': [
                'ViewBackward0',
                [
                    [
                        'AddmmBackward0',
                        [
                            ['AccumulateGrad', []], ['ViewBackward0', [['AccumulateGrad', []]]],
                            ['TBackward0', [['AccumulateGrad', []]]],
                        ],
                    ],
                ],
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 2, 3],
                [
                    [
                        [6.262499809265137, -4.40625, -1.239375114440918],
                        [-4.037499904632568, 2.8187499046325684, 0.7506250143051147],
                    ],
                    [
                        [3.2750000953674316, -2.2124998569488525, -0.44624999165534973],
                        [-4.775000095367432, 3.575000047683716, 1.4187500476837158],
                    ],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'weight.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [6.27500057220459, -7.749999523162842, 5.425000190734863],
                    [-14.449999809265137, 19.875, 9.350000381469727],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'bias.grad': [
                'Tensor', 'torch.float32', [2], [2.5500001907348633, 0.5500001907348633],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        'bias=False rank=1': {
            'y': [
                'Tensor', 'torch.float32', [2], [1.0625, -2.3499999046325684],
                'requires_grad=True', 'is_leaf=False', 'SqueezeBackward4',
            ],
            'graph': [
                'SqueezeBackward4',
                [
                    [
                        'MmBackward0',
                        [
                            ['UnsqueezeBackward0', [['AccumulateGrad', []]]],
                            ['TBackward0', [['AccumulateGrad', []]]],
                        ],
                    ],
                ],
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [3],
                [5.762499809265137, -4.056249618530273, -1.144374966621399], 'requires_grad=False',
                'is_leaf=True', None,
            ],
            'weight.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [2.125, -4.25, 1.0625],
                    [-4.699999809265137, 9.399999618530273, -2.3499999046325684],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'bias.grad': None,
        },
        'bias=False rank=2': {
            'y': [
                'Tensor', 'torch.float32', [2, 2],
                [[1.0625, -2.3499999046325684], [-0.9375, 1.7999999523162842]],
                'requires_grad=True', 'is_leaf=False', 'MmBackward0',
            ],
            'graph': [
                'MmBackward0', [['AccumulateGrad', []], ['TBackward0', [['AccumulateGrad', []]]]],
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [5.762499809265137, -4.056249618530273, -1.144374966621399],
                    [-4.537499904632568, 3.1687498092651367, 0.8456250429153442],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'weight.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [
                    [2.125, -9.875, 3.875],
                    [-4.699999809265137, 20.19999885559082, -7.749999523162842],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'bias.grad': None,
        },
        'bias=False rank=3': {
            'y': [
                'Tensor', 'torch.float32', [2, 2, 2],
                [
                    [[1.0625, -2.3499999046325684], [-0.9375, 1.7999999523162842]],
                    [[0.875, -0.949999988079071], [-0.125, 2.575000047683716]],
                ],
                'requires_grad=True', 'is_leaf=False', 'UnsafeViewBackward0',
            ],
            'graph': [
                'UnsafeViewBackward0',
                [
                    [
                        'MmBackward0',
                        [
                            ['ViewBackward0', [['AccumulateGrad', []]]],
                            ['TBackward0', [['AccumulateGrad', []]]],
                        ],
                    ],
                ],
            ],
            'x.grad': [
                'Tensor', 'torch.float32', [2, 2, 3],
                [
                    [
                        [5.762499809265137, -4.056249618530273, -1.144374966621399],
                        [-4.537499904632568, 3.1687498092651367, 0.8456250429153442],
                    ],
                    [
                        [2.7750000953674316, -1.8624999523162842, -0.3512499928474426],
                        [-5.275000095367432, 3.9250001907348633, 1.5137500762939453],
                    ],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'weight.grad': [
                'Tensor', 'torch.float32', [2, 3],
                [[5.875, -8.25, 4.625], [-13.649999618530273, 20.875, 10.950000762939453]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'bias.grad': None,
        },
        'input without grad': {
            'y': [
                'Tensor', 'torch.float32', [1, 2], [[0.4749999940395355, 1.2000000476837158]],
                'requires_grad=True', 'is_leaf=False', 'AddmmBackward0',
            ],
            'graph': [
                'AddmmBackward0',
                [['AccumulateGrad', []], None, ['TBackward0', [['AccumulateGrad', []]]]],
            ],
        },
        'float64': {'weight.dtype': 'torch.float64', 'bias.dtype': 'torch.float64'},
        'functional': [
            'Tensor', 'torch.float32', [1, 2], [[0.4749999940395355, 1.2000000476837158]],
            'requires_grad=False', 'is_leaf=True', None,
        ],
    },
    'case_module_api': {
        'parameters repr': '<generator object Module.parameters at 0x?>',
        'count': 5,
        'exhausted': 0,
        'names': ['0.weight', '0.bias', '2.weight', 'head.weight', 'head.bias'],
        'recurse': 0,
        'shared': [2, 2, ['', '0']],
        'with head': (
            'Sequential(\n'
            '  (0): Linear(in_features=2, out_features=2, bias=True)\n'
            '  (1): ReLU()\n'
            '  (2): Linear(in_features=2, out_features=1, bias=False)\n'
            '  (head): Linear(in_features=1, out_features=1, bias=True)\n'
            ')'
        ),
        'train returns self': True,
        'eval': [True, False, False],
        'train': [True, True],
        'module repr': 'Module()',
        'bias none': True,
        'linear attrs': [2, 2],
        'relu attr': False,
        'requires_grad_': [False, False, False, False, False],
        'parameter': [
            'Parameter containing:\ntensor([1., 2.], requires_grad=True)',
            'Parameter containing:\ntensor([1.])', 'tensor([2.], grad_fn=<MulBackward0>)',
        ],
        'children': [
            'Linear(in_features=2, out_features=2, bias=True)', 'ReLU()',
            'Linear(in_features=2, out_features=1, bias=False)',
            'Linear(in_features=1, out_features=1, bias=True)',
        ],
        'named children': ['0', '1', '2', 'head'],
    },
    'case_mse': {
        'mean': {
            'loss': [
                'Tensor', 'torch.float32', [], 1.375, 'requires_grad=True', 'is_leaf=False',
                'MseLossBackward0',
            ],
            'a.grad': [
                'Tensor', 'torch.float32', [2, 2], [[0.25, -0.25], [1.0, -0.5]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'b.grad': [
                'Tensor', 'torch.float32', [2, 2], [[-0.25, 0.25], [-1.0, 0.5]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'graph': ['MseLossBackward0', [['AccumulateGrad', []], ['AccumulateGrad', []]]],
            'repr': 'MSELoss()',
        },
        'sum': {
            'loss': [
                'Tensor', 'torch.float32', [], 5.5, 'requires_grad=True', 'is_leaf=False',
                'MseLossBackward0',
            ],
            'a.grad': [
                'Tensor', 'torch.float32', [2, 2], [[1.0, -1.0], [4.0, -2.0]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'b.grad': [
                'Tensor', 'torch.float32', [2, 2], [[-1.0, 1.0], [-4.0, 2.0]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'graph': ['MseLossBackward0', [['AccumulateGrad', []], ['AccumulateGrad', []]]],
            'repr': 'MSELoss()',
        },
        'none': {
            'loss': [
                'Tensor', 'torch.float32', [2, 2], [[0.25, 0.25], [4.0, 1.0]],
                'requires_grad=True', 'is_leaf=False', 'MseLossBackward0',
            ],
            'a.grad': [
                'Tensor', 'torch.float32', [2, 2], [[1.0, -1.0], [4.0, -2.0]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'b.grad': [
                'Tensor', 'torch.float32', [2, 2], [[-1.0, 1.0], [-4.0, 2.0]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            'graph': ['MseLossBackward0', [['AccumulateGrad', []], ['AccumulateGrad', []]]],
            'repr': 'MSELoss()',
        },
        'legacy': {
            'reduction': 'sum',
            'warnings': [
                (
                    "size_average and reduce args will be deprecated, please use reduction='sum'"
                    ' instead.'
                ),
            ],
        },
        'broadcast': {
            'loss': [
                'Tensor', 'torch.float32', [], 3.6666667461395264, 'requires_grad=True',
                'is_leaf=False', 'MseLossBackward0',
            ],
            'warnings': [
                (
                    'Using a target size (torch.Size([3])) that is different to the input size ('
                    'torch.Size([3, 1])). This will likely lead to incorrect results due to broa'
                    'dcasting. Please ensure they have the same size.'
                ),
            ],
            'graph': ['MseLossBackward0', [['ExpandBackward0', [['AccumulateGrad', []]]], None]],
            'grad': [
                'Tensor', 'torch.float32', [3, 1],
                [[-0.444444477558136], [0.222222238779068], [0.888888955116272]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        'bad reduction': ['ValueError', 'bad is not a valid value for reduction'],
        'F': ['Tensor', 'torch.float32', [], 5.0, 'requires_grad=False', 'is_leaf=True', None],
    },
    'case_optimizer_api': {
        'a': [
            'Tensor', 'torch.float32', [2], [0.7459999918937683, -1.4919999837875366],
            'requires_grad=True', 'is_leaf=True', None,
        ],
        'b': [
            'Tensor', 'torch.float32', [1], [-3.8499999046325684], 'requires_grad=True',
            'is_leaf=True', None,
        ],
        'repr': (
            'SGD (\n'
            'Parameter Group 0\n'
            '    dampening: 0\n'
            '    differentiable: False\n'
            '    foreach: None\n'
            '    fused: None\n'
            '    lr: 0.01\n'
            '    maximize: False\n'
            '    momentum: 0.9\n'
            '    nesterov: False\n'
            '    weight_decay: 0\n'
            '\n'
            'Parameter Group 1\n'
            '    dampening: 0\n'
            '    differentiable: False\n'
            '    foreach: None\n'
            '    fused: None\n'
            '    lr: 0.5\n'
            '    maximize: False\n'
            '    momentum: 0.9\n'
            '    nesterov: False\n'
            '    weight_decay: 0\n'
            ')'
        ),
        'lr': 0.5,
        'keys': [
            'dampening', 'differentiable', 'foreach', 'fused', 'lr', 'maximize', 'momentum',
            'nesterov', 'params', 'weight_decay',
        ],
        'closure loss': [
            'Tensor', 'torch.float32', [], 4.0, 'requires_grad=True', 'is_leaf=False',
            'SumBackward0',
        ],
        'c': ['Tensor', 'torch.float32', [1], [1.0], 'requires_grad=True', 'is_leaf=True', None],
        'frozen': [
            'Tensor', 'torch.float32', [1], [2.0], 'requires_grad=True', 'is_leaf=True', None,
        ],
        'adam repr': (
            'Adam (\n'
            'Parameter Group 0\n'
            '    amsgrad: True\n'
            '    betas: (0.9, 0.999)\n'
            '    capturable: False\n'
            '    decoupled_weight_decay: False\n'
            '    differentiable: False\n'
            '    eps: 1e-08\n'
            '    foreach: None\n'
            '    fused: None\n'
            '    lr: 0.1\n'
            '    maximize: False\n'
            '    weight_decay: 0\n'
            ')'
        ),
        'adam keys': [
            'amsgrad', 'betas', 'capturable', 'decoupled_weight_decay', 'differentiable', 'eps',
            'foreach', 'fused', 'lr', 'maximize', 'params', 'weight_decay',
        ],
        'sgd nesterov': (
            'SGD (\n'
            'Parameter Group 0\n'
            '    dampening: 0\n'
            '    differentiable: False\n'
            '    foreach: None\n'
            '    fused: None\n'
            '    lr: 0.1\n'
            '    maximize: False\n'
            '    momentum: 0.9\n'
            '    nesterov: True\n'
            '    weight_decay: 0\n'
            ')'
        ),
    },
    'case_relu_inplace': {
        'same object': True,
        'z': [
            'Tensor', 'torch.float32', [2, 2],
            [[1.162500023841858, 0.0], [0.0, 1.5999999046325684]], 'requires_grad=True',
            'is_leaf=False', 'ReluBackward0',
        ],
        'graph': [
            'ReluBackward0',
            [
                [
                    'AddmmBackward0',
                    [
                        ['AccumulateGrad', []], ['AccumulateGrad', []],
                        ['TBackward0', [['AccumulateGrad', []]]],
                    ],
                ],
            ],
        ],
        'x.grad': [
            'Tensor', 'torch.float32', [2, 3],
            [[0.5, -0.25, 0.125], [-1.0, 0.75, 0.30000001192092896]], 'requires_grad=False',
            'is_leaf=True', None,
        ],
        'repr': 'ReLU(inplace=True)',
        'leaf error': [
            'RuntimeError',
            'a leaf Variable that requires grad is being used in an in-place operation.',
        ],
        'functional': [
            'Tensor', 'torch.float32', [2], [0.0, 2.0], 'requires_grad=False', 'is_leaf=True',
            None,
        ],
    },
    'case_sequential': {
        'repr': (
            'Sequential(\n'
            '  (0): Linear(in_features=2, out_features=3, bias=True)\n'
            '  (1): ReLU()\n'
            '  (2): Linear(in_features=3, out_features=1, bias=True)\n'
            '  (3): Sigmoid()\n'
            ')'
        ),
        'slice': (
            'Sequential(\n'
            '  (1): ReLU()\n'
            '  (2): Linear(in_features=3, out_features=1, bias=True)\n'
            '  (3): Sigmoid()\n'
            ')'
        ),
        'last': 'Sigmoid()',
        'len': 4,
        'iter': [
            'Linear(in_features=2, out_features=3, bias=True)', 'ReLU()',
            'Linear(in_features=3, out_features=1, bias=True)', 'Sigmoid()',
        ],
        'out': [
            'Tensor', 'torch.float32', [4, 1],
            [
                [0.06008663773536682], [0.6427913308143616], [0.7310585975646973],
                [0.003172682598233223],
            ],
            'requires_grad=True', 'is_leaf=False', 'SigmoidBackward0',
        ],
        'loss': [
            'Tensor', 'torch.float32', [], 0.3422393500804901, 'requires_grad=True',
            'is_leaf=False', 'MseLossBackward0',
        ],
        'graph': [
            'MseLossBackward0',
            [
                [
                    'SigmoidBackward0',
                    [
                        [
                            'AddmmBackward0',
                            [
                                ['AccumulateGrad', []],
                                [
                                    'ReluBackward0',
                                    [
                                        [
                                            'AddmmBackward0',
                                            [
                                                ['AccumulateGrad', []], None,
                                                ['TBackward0', [['AccumulateGrad', []]]],
                                            ],
                                        ],
                                    ],
                                ],
                                ['TBackward0', [['AccumulateGrad', []]]],
                            ],
                        ],
                    ],
                ],
                None,
            ],
        ],
        'names': ['0.weight', '0.bias', '2.weight', '2.bias'],
        'grads': [
            [
                'Tensor', 'torch.float32', [3, 2],
                [
                    [-0.00792152900248766, 0.018511995673179626],
                    [0.05306269973516464, 0.10615549981594086],
                    [-0.05016862228512764, -0.008092418313026428],
                ],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            [
                'Tensor', 'torch.float32', [3],
                [-0.02643352746963501, 0.0530727356672287, 0.02362724021077156],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            [
                'Tensor', 'torch.float32', [1, 3],
                [[-0.02511611580848694, -0.04510555416345596, 0.04748089239001274]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
            [
                'Tensor', 'torch.float32', [1], [0.02082095295190811], 'requires_grad=False',
                'is_leaf=True', None,
            ],
        ],
        'params': [
            [
                'Parameter', 'torch.float32', [3, 2], [[0.5, -1.0], [1.5, 0.25], [-0.5, 0.75]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            [
                'Parameter', 'torch.float32', [3],
                [0.10000000149011612, -0.30000001192092896, 0.20000000298023224],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            [
                'Parameter', 'torch.float32', [1, 3], [[1.0, -2.0, 0.5]], 'requires_grad=True',
                'is_leaf=True', None,
            ],
            [
                'Parameter', 'torch.float32', [1], [0.05000000074505806], 'requires_grad=True',
                'is_leaf=True', None,
            ],
        ],
        'modules': ['', '0', '1', '2', '3'],
        'children': 4,
        'nested': (
            'Sequential(\n'
            '  (0): Sequential(\n'
            '    (0): Linear(in_features=1, out_features=1, bias=True)\n'
            '    (1): Tanh()\n'
            '  )\n'
            '  (1): Identity()\n'
            ')'
        ),
        'empty': 'Sequential()',
        'index error': ['IndexError', 'index 4 is out of range'],
    },
    'case_sgd': {
        "{'lr': 0.1}": {
            'trajectory': [
                [[[0.6528125405311584, -0.5715625286102295]], [0.24625001847743988]],
                [[[0.8857246041297913, -0.5762012004852295]], [0.35011720657348633]],
                [[[1.0423572063446045, -0.5893556475639343]], [0.401939332485199]],
                [[[1.1498887538909912, -0.6013874411582947]], [0.4239976406097412]],
                [[[1.2254858016967773, -0.609279453754425]], [0.4288138747215271]],
                [[[1.2801182270050049, -0.6127451062202454]], [0.4235547184944153]],
            ],
            'losses': [
                2.5414061546325684, 1.2102774381637573, 0.6753613352775574, 0.44767794013023376,
                0.3450548052787781, 0.2953924536705017,
            ],
            'repr': (
                'SGD (\n'
                'Parameter Group 0\n'
                '    dampening: 0\n'
                '    differentiable: False\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.1\n'
                '    maximize: False\n'
                '    momentum: 0\n'
                '    nesterov: False\n'
                '    weight_decay: 0\n'
                ')'
            ),
            'state': {},
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[1.2801182270050049, -0.6127451062202454]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[-0.5463243722915649, 0.034656815230846405]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        "{'lr': 0.05, 'momentum': 0.9}": {
            'trajectory': [
                [[[0.4764062762260437, -0.5857812762260437]], [0.14812500774860382]],
                [[[0.7816030383110046, -0.5670346617698669]], [0.3114668130874634]],
                [[[1.1512112617492676, -0.5568541884422302]], [0.49466410279273987]],
                [[[1.5172494649887085, -0.5660586953163147]], [0.6511738896369934]],
                [[[1.820570707321167, -0.5984809994697571]], [0.7435966730117798]],
                [[[2.0203518867492676, -0.6487106680870056]], [0.7508798241615295]],
            ],
            'losses': [
                2.5414061546325684, 1.7991255521774292, 0.8809676170349121, 0.35826146602630615,
                0.41661325097084045, 0.8181365728378296,
            ],
            'repr': (
                'SGD (\n'
                'Parameter Group 0\n'
                '    dampening: 0\n'
                '    differentiable: False\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.05\n'
                '    maximize: False\n'
                '    momentum: 0.9\n'
                '    nesterov: False\n'
                '    weight_decay: 0\n'
                ')'
            ),
            'state': {
                'momentum_buffer': [
                    'Tensor', 'torch.float32', [1, 2], [[-3.9956233501434326, 1.0045936107635498]],
                    'requires_grad=False', 'is_leaf=True', None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[2.0203518867492676, -0.6487106680870056]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[1.4641592502593994, 0.4209926128387451]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        "{'lr': 0.05, 'momentum': 0.9, 'dampening': 0.1, 'weight_decay': 0.01}": {
            'trajectory': [
                [[[0.47625625133514404, -0.5854812860488892]], [0.14810000360012054]],
                [[[0.7664838433265686, -0.5668489933013916]], [0.3038393259048462]],
                [[[1.1150633096694946, -0.5555133819580078]], [0.47804707288742065]],
                [[[1.4637006521224976, -0.561069667339325]], [0.6307220458984375]],
                [[[1.7610431909561157, -0.5876014232635498]], [0.7290424704551697]],
                [[[1.970125436782837, -0.6317617893218994]], [0.7530927658081055]],
            ],
            'losses': [
                2.5414061546325684, 1.7995668649673462, 0.9157378077507019, 0.38293173909187317,
                0.37693366408348083, 0.7197319269180298,
            ],
            'repr': (
                'SGD (\n'
                'Parameter Group 0\n'
                '    dampening: 0.1\n'
                '    differentiable: False\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.05\n'
                '    maximize: False\n'
                '    momentum: 0.9\n'
                '    nesterov: False\n'
                '    weight_decay: 0.01\n'
                ')'
            ),
            'state': {
                'momentum_buffer': [
                    'Tensor', 'torch.float32', [1, 2], [[-4.18164587020874, 0.8832072615623474]],
                    'requires_grad=False', 'is_leaf=True', None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[1.970125436782837, -0.6317617893218994]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[1.2829673290252686, 0.4565824568271637]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        "{'lr': 0.05, 'momentum': 0.9, 'nesterov': True, 'weight_decay': 0.1}": {
            'trajectory': [
                [[[0.6323218941688538, -0.5672844052314758]], [0.23596251010894775]],
                [[[0.9958841800689697, -0.5529016852378845]], [0.41564422845840454]],
                [[[1.3215904235839844, -0.5632264018058777]], [0.544644296169281]],
                [[[1.5668443441390991, -0.591939389705658]], [0.6018708944320679]],
                [[[1.7157409191131592, -0.6251057982444763]], [0.587069571018219]],
                [[[1.774298906326294, -0.6474897265434265]], [0.5145497918128967]],
            ],
            'losses': [
                2.5414061546325684, 1.2698287963867188, 0.5050784349441528, 0.30313149094581604,
                0.3883378505706787, 0.484870046377182,
            ],
            'repr': (
                'SGD (\n'
                'Parameter Group 0\n'
                '    dampening: 0\n'
                '    differentiable: False\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.05\n'
                '    maximize: False\n'
                '    momentum: 0.9\n'
                '    nesterov: True\n'
                '    weight_decay: 0.1\n'
                ')'
            ),
            'state': {
                'momentum_buffer': [
                    'Tensor', 'torch.float32', [1, 2], [[-2.5785584449768066, 0.4645257592201233]],
                    'requires_grad=False', 'is_leaf=True', None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[1.774298906326294, -0.6474897265434265]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[0.9779685139656067, 0.09211643785238266]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
        "{'lr': 0.03, 'momentum': 0.5, 'maximize': True}": {
            'trajectory': [
                [[[0.19415625929832458, -0.6085312962532043]], [-0.008875001221895218]],
                [[[0.02459961175918579, -0.624305009841919]], [-0.10550194978713989]],
                [[[-0.1941778063774109, -0.648828387260437]], [-0.23456566035747528]],
                [[[-0.4601164162158966, -0.685046374797821]], [-0.3978116810321808]],
                [[[-0.7772558927536011, -0.7370703220367432]], [-0.6006792187690735]],
                [[[-1.153197169303894, -0.8103077411651611]], [-0.8511477112770081]],
            ],
            'losses': [
                2.5414061546325684, 3.06042218208313, 4.014348030090332, 5.476404190063477,
                7.619970321655273, 10.726584434509277,
            ],
            'repr': (
                'SGD (\n'
                'Parameter Group 0\n'
                '    dampening: 0\n'
                '    differentiable: False\n'
                '    foreach: None\n'
                '    fused: None\n'
                '    lr: 0.03\n'
                '    maximize: True\n'
                '    momentum: 0.5\n'
                '    nesterov: False\n'
                '    weight_decay: 0\n'
                ')'
            ),
            'state': {
                'momentum_buffer': [
                    'Tensor', 'torch.float32', [1, 2], [[12.531375885009766, 2.4412474632263184]],
                    'requires_grad=False', 'is_leaf=True', None,
                ],
            },
            'weight': [
                'Parameter', 'torch.float32', [1, 2], [[-1.153197169303894, -0.8103077411651611]],
                'requires_grad=True', 'is_leaf=True', None,
            ],
            'grad': [
                'Tensor', 'torch.float32', [1, 2], [[-7.245718479156494, -1.5741817951202393]],
                'requires_grad=False', 'is_leaf=True', None,
            ],
        },
    },
    'case_sgd_arithmetic': {
        "{'lr': 0.1}": [
            [
                0.25, -0.574999988079071, 0.9000000357627869, -0.00010000000474974513,
                2.5299999713897705, -0.800000011920929,
            ],
            [
                0.27000001072883606, -0.6150000095367432, 0.800000011920929, 0.29989999532699585,
                2.504999876022339, -0.8100000023841858,
            ],
            [
                0.12000000476837158, -0.7649999856948853, 0.875, 0.26989999413490295,
                2.504999876022339, -0.5899999737739563,
            ],
            [
                0.11500000208616257, -0.7049999833106995, 0.7850000262260437, 0.1598999947309494,
                2.674999952316284, -0.6229999661445618,
            ],
            [
                0.06499999761581421, -0.5799999833106995, 0.5850000381469727, 0.1597999930381775,
                2.7049999237060547, -1.3730000257492065,
            ],
            [
                0.08500000089406967, -0.6200000047683716, 0.48500004410743713, 0.45980000495910645,
                2.679999828338623, -1.3830000162124634,
            ],
            [
                -0.06499999761581421, -0.7699999809265137, 0.5600000619888306, 0.42980000376701355,
                2.679999828338623, -1.1629999876022339,
            ],
            [
                -0.07000000029802322, -0.7099999785423279, 0.4700000584125519, 0.3197999894618988,
                2.8499999046325684, -1.1959999799728394,
            ],
        ],
        "{'lr': 0.05, 'momentum': 0.9}": [
            [
                0.2750000059604645, -0.637499988079071, 1.0, -5.0000002374872565e-05,
                2.515000104904175, -0.42500001192092896,
            ],
            [
                0.26250001788139343, -0.6012499928474426, 0.8600000143051147, 0.1499049961566925,
                2.5160000324249268, -0.7674999833106995,
            ],
            [
                0.17625001072883606, -0.643625020980835, 0.7714999914169312, 0.2698644995689392,
                2.516900062561035, -0.965749979019165,
            ],
            [
                0.09612501412630081, -0.6517625451087952, 0.6468499898910522, 0.3228280544281006,
                2.602710008621216, -1.1606749296188354,
            ],
            [
                -0.0009874820243567228, -0.596586287021637, 0.4346649944782257,
                0.37044525146484375, 2.694939136505127, -1.7111073732376099,
            ],
            [
                -0.07838872075080872, -0.5669276714324951, 0.1936984807252884, 0.5633007287979126,
                2.7654452323913574, -2.211496591567993,
            ],
            [
                -0.2230498343706131, -0.615234911441803, 0.014328623190522194, 0.7218706607818604,
                2.8289008140563965, -2.551846981048584,
            ],
            [
                -0.3557448387145996, -0.6287114024162292, -0.1921042501926422, 0.8095836043357849,
                2.971010684967041, -2.874662160873413,
            ],
        ],
        "{'lr': 0.05, 'momentum': 0.9, 'dampening': 0.1, 'weight_decay': 0.01}": [
            [
                0.2748500108718872, -0.63714998960495, 0.9994500279426575, -5.0000002374872565e-05,
                2.5137500762939453, -0.4249750077724457,
            ],
            [
                0.26109132170677185, -0.5982982516288757, 0.8635053038597107, 0.13490501046180725,
                2.5137438774108887, -0.766761302947998,
            ],
            [
                0.18109101057052612, -0.6305624842643738, 0.7745164632797241, 0.24280381202697754,
                2.5126070976257324, -0.9750238656997681,
            ],
            [
                0.10675925016403198, -0.632316529750824, 0.653577983379364, 0.29030346870422363,
                2.5869534015655518, -1.176871418952942,
            ],
            [
                0.017312627285718918, -0.5773606300354004, 0.4544392228126526, 0.332877516746521,
                2.666200876235962, -1.6955045461654663,
            ],
            [
                -0.054197121411561966, -0.5456405282020569, 0.23000985383987427,
                0.5060443878173828, 2.72507381439209, -2.166011333465576,
            ],
            [
                -0.1860315054655075, -0.5843468904495239, 0.06166991963982582, 0.648166835308075,
                2.7768332958221436, -2.489492893218994,
            ],
            [
                -0.3068487346172333, -0.5919196605682373, -0.13036376237869263, 0.7262853384017944,
                2.898667097091675, -2.794355869293213,
            ],
        ],
        "{'lr': 0.05, 'momentum': 0.9, 'nesterov': True, 'weight_decay': 0.1}": [
            [
                0.2496500015258789, -0.5745999813079834, 0.8995500206947327,
                -9.500000305706635e-05, 2.5047500133514404, -0.762024998664856,
            ],
            [
                0.24481332302093506, -0.5536812543869019, 0.7105492949485779, 0.2848654091358185,
                2.4592299461364746, -1.0678331851959229,
            ],
            [
                0.08775801211595535, -0.656680166721344, 0.6539964079856873, 0.37512311339378357,
                2.4174206256866455, -1.1228452920913696,
            ],
            [
                0.009426195174455643, -0.6211322546005249, 0.4808333218097687, 0.3630732595920563,
                2.529393196105957, -1.2968443632125854,
            ],
            [
                -0.10601707547903061, -0.49444344639778137, 0.17386162281036377,
                0.3998722434043884, 2.5690176486968994, -2.1438262462615967,
            ],
            [
                -0.16736643016338348, -0.47277140617370605, -0.10690084099769592,
                0.7158713936805725, 2.55440616607666, -2.5635793209075928,
            ],
            [
                -0.3729679584503174, -0.5755002498626709, -0.2415391206741333, 0.8317692875862122,
                2.539799690246582, -2.7131505012512207,
            ],
            [
                -0.49246928095817566, -0.5401164293289185, -0.4801500141620636, 0.8403970003128052,
                2.675520658493042, -2.9638755321502686,
            ],
        ],
        "{'lr': 0.03, 'momentum': 0.5, 'maximize': True}": [
            [
                0.3149999976158142, -0.737500011920929, 1.159999966621399, 3.000000106112566e-05,
                2.490999937057495, 0.17499999701976776,
            ],
            [
                0.3165000081062317, -0.7442499995231628, 1.21999990940094, -0.08995500206947327,
                2.49399995803833, 0.2904999852180481,
            ],
            [
                0.3622500002384186, -0.7026249766349792, 1.2274999618530273, -0.125947505235672,
                2.495499849319458, 0.28224998712539673,
            ],
            [
                0.3866249918937683, -0.6998124718666077, 1.2582499980926514, -0.1109437569975853,
                2.4452497959136963, 0.28802499175071716,
            ],
            [
                0.4138124883174896, -0.7359062433242798, 1.3336249589920044, -0.10341188311576843,
                2.4111247062683105, 0.5159124732017517,
            ],
            [
                0.42140623927116394, -0.7419531345367432, 1.4013124704360962, -0.1896459460258484,
                2.401562213897705, 0.6328561902046204,
            ],
            [
                0.47020310163497925, -0.6999765634536743, 1.4126561880111694, -0.22376297414302826,
                2.3967809677124023, 0.6253280639648438,
            ],
            [
                0.4961015284061432, -0.6969882845878601, 1.4453281164169312, -0.20782148838043213,
                2.3433902263641357, 0.6314640045166016,
            ],
        ],
    },
    'case_step_bumps_version': {
        'error': [
            'RuntimeError',
            (
                'one of the variables needed for gradient computation has been modified by an in'
                'place operation: [torch.FloatTensor [2, 1]], is at version 3; expected version '
                '2 instead. Hint: enable anomaly detection to find the operation that failed to '
                'compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=Fa'
                'lse).'
            ),
        ],
        'weight': [
            'Parameter', 'torch.float32', [1, 2], [[0.8999999761581421, -1.2000000476837158]],
            'requires_grad=True', 'is_leaf=True', None,
        ],
    },
    'case_zero_grad': {
        'before': [
            [
                'Tensor', 'torch.float32', [1, 2], [[1.0, 2.0]], 'requires_grad=False',
                'is_leaf=True', None,
            ],
            ['Tensor', 'torch.float32', [1], [1.0], 'requires_grad=False', 'is_leaf=True', None],
        ],
        'after set_to_none': [None, None],
        'zeroed': [
            [
                'Tensor', 'torch.float32', [1, 2], [[0.0, 0.0]], 'requires_grad=False',
                'is_leaf=True', None,
            ],
            ['Tensor', 'torch.float32', [1], [0.0], 'requires_grad=False', 'is_leaf=True', None],
        ],
        'same grad object': True,
        'create_graph grad': [
            'Tensor', 'torch.float32', [2], [0.0, 0.0], 'requires_grad=False', 'is_leaf=True',
            None,
        ],
        'detached': [
            'Tensor', 'torch.float32', [2], [0.0, 0.0], 'requires_grad=False', 'is_leaf=True',
            None,
        ],
        'after optimizer default': [None, None],
    },
}
