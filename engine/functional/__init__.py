"""The torch-level functions (`torch.add`, `torch.sum`, `t.mean(dim=0)` ...) over the ops, one
module per family. Argument handling that PyTorch does before an op runs (python scalars, `dim=`
spellings, which grad_fn variant applies) lives here; the math and derivatives live in
engine/ops/.

`engine.functional.NAME` is every function registered with `@public` (engine/registry.py);
importing this package also installs the Tensor methods (engine/functional/methods.py).
"""

from __future__ import annotations

import sys
from typing import Any

from engine import random, registry, storage  # noqa: F401  (they declare t.random_(), t.storage(), ...)
from engine.functional import (  # noqa: F401  (each module registers its functions)
    arith,
    compare,
    convolution,
    gradients,
    index,
    linalg,
    methods,
    pointwise,
    reduce,
    shape,
)

registry.add_aliases()
globals().update(registry.FUNCTIONS)
methods.install(sys.modules[__name__])


def __getattr__(name: str) -> Any:
    """Only for a name that is not registered (the registered ones are module globals above);
    it also tells mypy that `functional.NAME` is one of them."""
    raise AttributeError(f"module 'engine.functional' has no attribute '{name}'")
