"""`torch.save` / `torch.load` inside one run: files that exist only for the program.

Tutorials end by saving a checkpoint and loading it back. agraph never writes the host's
files, so `torch.save(obj, "model.pt")` keeps a copy of `obj` in a store of the run (gone when
the run ends; nothing reaches the disk) and `torch.load("model.pt")` hands back a fresh copy of
it, as unpickling the file would: tensors come back as leaves with their data, dtype and
`requires_grad` (no `.grad`), parameters as parameters, modules and the program's objects with
their attributes copied. `torch.load` checks what PyTorch 2.13's default `weights_only=True`
accepts and raises its UnpicklingError for the first class it would refuse (a module, an
optimizer, a numpy array, ...); `weights_only=False` loads anything saved. A name never saved
in the run is Python's FileNotFoundError.
"""

from __future__ import annotations

import collections
import pickle
import posixpath
from typing import Any

from autograd_cli.language import classes
from autograd_cli.library import copy_module
from engine.device import Device
from engine.dtypes import DType
from engine.ndarray import NumpyArray
from engine.nn.module import Module
from engine.size import Size
from engine.tensor import Tensor

STORE: dict[str, Any] = {}  # the run's saved files: path -> the object as saved


def reset() -> None:
    """A run starts with no saved files."""
    STORE.clear()


def save(obj: Any, f: Any, pickle_module: Any = None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    STORE[_path(f, "save")] = copy_module.snapshot(obj)


def load(f: Any, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: Any = None, mmap: Any = None, **pickle_load_args: Any) -> Any:
    path = _path(f, "load")
    if path not in STORE:
        raise FileNotFoundError(2, "No such file or directory", f)
    saved = STORE[path]
    if weights_only is None or weights_only:
        _check_weights_only(saved)
    return copy_module.snapshot(saved)


def _path(f: Any, function: str) -> str:
    if type(f) is not str:
        raise TypeError(f"torch.{function} in agraph takes a file name (a str), not "
                        f"{type(f).__name__}: the files it saves live in the run")
    return posixpath.normpath(f)


# What weights_only=True unpickles (torch.serialization's default allow-list, the part agraph
# has): plain values, containers, tensors and parameters, sizes, dtypes, devices.
_PLAIN = (type(None), bool, int, float, complex, str, bytes, bytearray, DType, Device, Size)
_CONTAINERS = (list, tuple, dict, collections.OrderedDict, set, frozenset)


def _check_weights_only(value: Any) -> None:
    """Raise PyTorch's UnpicklingError for the first object (in pickling order) whose class
    weights_only=True refuses."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (Tensor, *_PLAIN)):
            continue
        if type(item) in _CONTAINERS:
            items = (list(sum(item.items(), ())) if isinstance(item, dict)  # type: ignore[arg-type]
                     else list(item))
            stack.extend(reversed(items))
            continue
        name = _global_name(item)
        raise pickle.UnpicklingError(WEIGHTS_ONLY.format(name=name))


def _global_name(value: Any) -> str:
    """The global pickle would name for `value`'s class, as PyTorch's message shows it."""
    kind = type(value)
    if classes.is_plain_program_object(value) or (
            isinstance(value, Module) and classes.is_program_class(kind)):
        return f"__main__.{kind.__name__}"
    if isinstance(value, NumpyArray):
        return "numpy._core.multiarray._reconstruct"
    if isinstance(value, Module):
        return f"torch.nn.modules.{_module_file(kind.__name__)}.{kind.__name__}"
    if kind.__name__ in _OPTIMIZER_FILES:
        return f"torch.optim.{_OPTIMIZER_FILES[kind.__name__]}.{kind.__name__}"
    if kind in (range, slice):
        return kind.__name__
    return kind.__name__


_OPTIMIZER_FILES = {"SGD": "sgd", "Adam": "adam", "AdamW": "adamw", "RMSprop": "rmsprop",
                    "Adagrad": "adagrad", "Adadelta": "adadelta", "Adamax": "adamax",
                    "NAdam": "nadam", "RAdam": "radam", "LBFGS": "lbfgs"}
# torch.nn.modules' file for each module class agraph has (the rest are found by their name)
_MODULE_FILES = {
    "linear": "Linear Bilinear Identity LazyLinear",
    "container": "Sequential ModuleList ModuleDict ParameterList ParameterDict",
    "batchnorm": "BatchNorm1d BatchNorm2d BatchNorm3d LazyBatchNorm1d LazyBatchNorm2d",
    "normalization": "LayerNorm GroupNorm RMSNorm LocalResponseNorm",
    "sparse": "Embedding EmbeddingBag",
    "rnn": "RNN LSTM GRU RNNCell LSTMCell GRUCell RNNBase",
    "flatten": "Flatten Unflatten",
    "pixelshuffle": "PixelShuffle PixelUnshuffle",
    "distance": "CosineSimilarity PairwiseDistance",
    "module": "Module",
}
_MODULE_FILE = {name: file for file, names in _MODULE_FILES.items() for name in names.split()}


def _module_file(name: str) -> str:
    if name in _MODULE_FILE:
        return _MODULE_FILE[name]
    for prefix, file in (("Conv", "conv"), ("LazyConv", "conv"), ("MaxPool", "pooling"),
                         ("AvgPool", "pooling"), ("Adaptive", "pooling"), ("LPPool", "pooling"),
                         ("Dropout", "dropout"), ("AlphaDropout", "dropout"),
                         ("FeatureAlphaDropout", "dropout"), ("ZeroPad", "padding"),
                         ("ConstantPad", "padding"), ("ReflectionPad", "padding"),
                         ("ReplicationPad", "padding"), ("Upsample", "upsampling")):
        if name.startswith(prefix):
            return file
    return "loss" if name.endswith("Loss") else "activation"


WEIGHTS_ONLY = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, "
    "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In "
    "PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please "
    "check the recommended steps in the following error message.\n\tWeightsUnpickler error: "
    "Unsupported global: GLOBAL {name} was not an allowed global by default. Please use "
    "`torch.serialization.add_safe_globals([{name}])` or the "
    "`torch.serialization.safe_globals([{name}])` context manager to allowlist this global if "
    "you trust this class/function.\n\nCheck the documentation of torch.load to learn more "
    "about types accepted by default with weights_only "
    "https://pytorch.org/docs/stable/generated/torch.load.html.")
