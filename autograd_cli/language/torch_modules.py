"""`torch` and its submodules as a program imports them (read-only namespaces built once from
engine/api.py), and setting the engine up for a run (PyTorch's defaults, the run's limits)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from functools import cached_property, lru_cache
from types import ModuleType

from autograd_cli.language.limits import Limits
from autograd_cli.language.objects import Namespace
from engine import api

TORCH_FUNCTIONAL = """atleast_1d atleast_2d atleast_3d block_diag broadcast_shapes
    broadcast_tensors cartesian_prod cdist chain_matmul einsum lu meshgrid norm split stft istft
    tensordot unique unique_consecutive unravel_index pca_lowrank svd_lowrank""".split()


# torch.distributions' submodules and the names each defines
DISTRIBUTION_MODULES = {"normal": ("Normal",), "uniform": ("Uniform",),
                        "bernoulli": ("Bernoulli",), "categorical": ("Categorical",),
                        "exponential": ("Exponential",), "independent": ("Independent",),
                        "distribution": ("Distribution",), "kl": ("kl_divergence",)}


class _Deferred(Mapping[str, object]):
    """A submodule's table of names, made when a program first uses it (from engine/api.py's
    submodules, which load on first use: `import torch` must not load torch.nn)."""

    def __init__(self, make: Callable[[], Mapping[str, object]]) -> None:
        self.make = make

    @cached_property
    def table(self) -> Mapping[str, object]:
        return self.make()

    def __getitem__(self, name: str) -> object:
        return self.table[name]

    def __contains__(self, name: object) -> bool:
        return name in self.table

    def __iter__(self) -> Iterator[str]:
        return iter(self.table)

    def __len__(self) -> int:
        return len(self.table)


def _picked(submodule: str, names: tuple[str, ...]) -> _Deferred:
    """Some members of an engine/api.py submodule."""
    return _Deferred(lambda: {name: api.members(submodule)[name] for name in names})


def _public(find: Callable[[], object]) -> _Deferred:
    """The public attributes of an engine object that stands for a module (nn.init,
    torch.backends)."""
    def table() -> dict[str, object]:
        engine_module = find()
        names = sorted(getattr(engine_module, "PUBLIC_ATTRS"))  # noqa: B009 - any such object
        return {name: getattr(engine_module, name) for name in names}
    return _Deferred(table)


@lru_cache(maxsize=1)
def torch_namespaces() -> dict[str, Namespace]:
    """`torch` and its importable submodules, from engine/api.py (built once, read-only)."""
    # the submodules are built when a program first reads them (engine/api.py, members)
    functional = Namespace("torch.nn.functional", api.members("FUNCTIONAL"))
    rnn = Namespace("torch.nn.utils.rnn", api.members("NN_UTILS_RNN"))
    # torch.nn.utils.clip_grad: the module torch.nn.utils takes its clipping functions from
    clip_grad = Namespace("torch.nn.utils.clip_grad",
                          _picked("NN_UTILS", ("clip_grad_norm_", "clip_grad_value_")))
    utils = Namespace("torch.nn.utils", api.members("NN_UTILS", rnn=rnn, clip_grad=clip_grad))
    nn = Namespace("torch.nn", api.members("NN", functional=functional, utils=utils))
    lr_scheduler = Namespace("torch.optim.lr_scheduler", api.members("LR_SCHEDULER"))
    optim = Namespace("torch.optim", api.members("OPTIM", lr_scheduler=lr_scheduler))
    autograd_functional = Namespace("torch.autograd.functional", api.members("AUTOGRAD_FUNCTIONAL"))
    function = Namespace("torch.autograd.function", api.members("AUTOGRAD_FUNCTION"))
    autograd_graph = Namespace("torch.autograd.graph", api.members("AUTOGRAD_GRAPH"))
    autograd = Namespace("torch.autograd", {**api.AUTOGRAD, "functional": autograd_functional,
                                            "function": function, "graph": autograd_graph})
    func = Namespace("torch.func", api.members("FUNC"))
    # torch.distributions and the modules its classes are defined in (`from
    # torch.distributions.normal import Normal`)
    distribution_modules = {
        f"torch.distributions.{module}": Namespace(f"torch.distributions.{module}",
                                                   _picked("DISTRIBUTIONS", names))
        for module, names in DISTRIBUTION_MODULES.items()}
    distributions = Namespace("torch.distributions", api.members(
        "DISTRIBUTIONS", **{name.rpartition(".")[2]: module
                            for name, module in distribution_modules.items()}))
    data = Namespace("torch.utils.data", api.members("DATA"))
    backcompat = Namespace("torch.utils.backcompat", api.members("BACKCOMPAT"))
    torch_utils = Namespace("torch.utils", {"data": data, "backcompat": backcompat})
    # torch.functional: the tensor functions PyTorch defines in that module (tutorials import
    # it, often mistaking it for torch.nn.functional), those agraph has
    functional_module = Namespace("torch.functional", {
        name: api.TORCH[name] for name in TORCH_FUNCTIONAL if name in api.TORCH})
    torch = Namespace("torch", {**api.TORCH, "nn": nn, "optim": optim, "autograd": autograd,
                                "utils": torch_utils, "functional": functional_module,
                                "func": func, "vmap": _vmap, "distributions": distributions})
    return {"torch": torch, "torch.nn": nn, "torch.nn.functional": functional,
            # `import torch.nn.init as init`, `import torch.backends`: their attributes, as
            # tables a `from ... import` reads
            **{module.name: module for module in (
                Namespace("torch.nn.init", _public(lambda: nn.members["init"])),
                Namespace("torch.backends", _public(lambda: api.TORCH["backends"])))},
            "torch.functional": functional_module,
            "torch.nn.utils": utils, "torch.nn.utils.rnn": rnn,
            "torch.nn.utils.clip_grad": clip_grad,
            "torch.optim": optim, "torch.autograd": autograd,
            "torch.autograd.functional": autograd_functional,
            "torch.autograd.function": function,
            "torch.optim.lr_scheduler": lr_scheduler,
            "torch.linalg": Namespace("torch.linalg", api.members("LINALG")),
            "torch.utils": torch_utils, "torch.utils.data": data,
            "torch.utils.backcompat": backcompat,
            "torch.autograd.graph": autograd_graph, "torch.func": func,
            "torch.distributions": distributions, **distribution_modules}


def _vmap(*args: object, **kwargs: object) -> object:
    """torch.vmap, torch.func's vmap (built when first called)."""
    return api.members("FUNC")["vmap"](*args, **kwargs)


def torch_class(kind: type) -> bool:
    """Whether a torch namespace holds this class itself (torch.Tensor, nn.Linear, ...)."""
    return any(member is kind for namespace in torch_namespaces().values()
               for member in namespace.members.values())


def engine_module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"engine.{name}")
    except ImportError:
        return None


def configure_engine(limits: Limits) -> None:
    """Start from PyTorch's defaults (one process may run many programs: tests, a docs build)
    and hand the engine's limits to engine/budget.py."""
    torch = torch_namespaces()["torch"].members
    if "set_grad_enabled" in torch:
        torch["set_grad_enabled"](True)
    if "set_printoptions" in torch:
        torch["set_printoptions"](profile="default")
    api.reset_switches()
    configure_budget(limits)


def configure_budget(limits: Limits) -> None:
    """Hand the engine's limits to engine/budget.py (the keys it knows): tensors and the
    arrays of library modules (numpy) are counted against them."""
    budget = engine_module("budget")
    if budget is None:
        return
    values = {"max_elements": limits.max_tensor_elements,
              "max_bytes": limits.max_total_tensor_bytes,
              "max_total_bytes": limits.max_total_tensor_bytes,
              "max_graph_nodes": limits.max_graph_nodes}
    for key, value in values.items():
        if key in budget.limits:
            budget.limits[key] = value
