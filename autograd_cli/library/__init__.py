"""The modules a program can import, and where each is built.

`torch` and its submodules come from engine/api.py (built by the interpreter once per process);
every other module a tutorial imports is built by one module of this package, on its first
import in a run, so `agraph run` starts no slower for programs that do not import it. What a
module offers is an allow-list (a read-only Namespace); a function in it that would reach the
host (files, processes, network, the interpreter) is a `Refused` placeholder that raises a
clear error when it is *used*, so an unused `import os` costs nothing.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

TORCH_MODULES = frozenset({
    "torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.functional",
    "torch.nn.utils", "torch.backends",
    "torch.nn.utils.rnn", "torch.nn.utils.clip_grad",
    "torch.optim", "torch.autograd",
    "torch.autograd.functional", "torch.autograd.function", "torch.optim.lr_scheduler",
    "torch.linalg", "torch.utils", "torch.utils.data", "torch.autograd.graph", "torch.func",
    "torch.distributions", "torch.distributions.normal", "torch.distributions.uniform",
    "torch.distributions.bernoulli", "torch.distributions.categorical",
    "torch.distributions.distribution", "torch.distributions.kl",
    "torch.distributions.exponential", "torch.distributions.independent",
})

# Module name -> the module of this package whose `namespace(runtime, name)` builds it.
LIBRARY_MODULES: dict[str, str] = {
    "math": "math_module",
    "random": "random_module",
    "time": "time_module",
    "datetime": "datetime_module",
    "timeit": "time_module",
    "functools": "functools_module",
    "itertools": "itertools_module",
    "collections": "collections_module",
    "typing": "typing_module",
    "dataclasses": "dataclasses_module",
    "string": "string_module",
    "pprint": "pprint_module",
    "copy": "copy_module",
    "gc": "gc_module",
    "argparse": "argparse_module",
    "logging": "logging_module",
    "threading": "threading_module",
    "os": "host",
    "sys": "host",
    "pdb": "host",
    "numpy": "numpy_module",
    "matplotlib": "pyplot_module",
    "torchviz": "torchviz_module",
    "graphviz": "graphviz_module",
    "warnings": "warnings_module",
    "IPython": "ipython_module",
    "importlib": "importlib_module",
}
# Submodules: members of their package's namespace (`import numpy.random` is `numpy`'s).
SUBMODULES = frozenset({"os.path", "numpy.random", "numpy.linalg", "numpy.fft",
                        "matplotlib.pyplot", "matplotlib.ticker", "matplotlib.patches",
                        "matplotlib.cm",
                        "IPython.display",
                        "importlib.metadata"})

# Modules whose values are arrays: their first import hands the run's limits to the engine's
# budget (engine/budget.py), as `import torch` does.
ALLOCATING_MODULES = frozenset({"numpy"})

IMPORTABLE_MODULES = TORCH_MODULES | frozenset(LIBRARY_MODULES) | SUBMODULES

# What PyTorch's results are recorded with: torch 2.13 (and what it installs), numpy,
# matplotlib (and what it installs), torchviz and graphviz. A program importing a package
# outside it (sklearn, pandas, scipy, tqdm, torchvision, ...) stops there, in PyTorch too, with
# ModuleNotFoundError; a module inside it that agraph does not offer is refused instead.
ORACLE_ENVIRONMENT = frozenset("""
    torch numpy matplotlib torchviz graphviz PIL sympy mpmath networkx jinja2 markupsafe
    filelock fsspec typing_extensions contourpy cycler fonttools kiwisolver packaging pyparsing
    mpl_toolkits
    dateutil tzdata IPython pip setuptools pkg_resources _distutils_hack
""".split())


def missing_module(name: str) -> bool:
    """Whether `import name` fails in PyTorch's environment itself (ModuleNotFoundError)."""
    top = name.partition(".")[0]
    return bool(top) and top not in sys.stdlib_module_names and top not in ORACLE_ENVIRONMENT


def load(name: str, runtime: Any) -> Any:
    """The namespace of top-level library module `name` for this run (its functions may use
    `runtime`: the interpreter's limits and counted iteration)."""
    module = importlib.import_module(f"autograd_cli.library.{LIBRARY_MODULES[name]}")
    return module.namespace(runtime, name)
