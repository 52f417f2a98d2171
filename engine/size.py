"""`torch.Size`: a tuple of ints whose slices, sums and products are torch.Sizes."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from engine import budget


class Size(tuple):  # type: ignore[type-arg]
    """`torch.Size`: a tuple of ints that prints as `torch.Size([2, 3])`."""

    PUBLIC_ATTRS = frozenset({"numel", "count", "index"})

    def __new__(cls, sizes: Any = ()) -> Size:
        items = sizes if sizes.__class__ is tuple else budget.bounded_tuple(sizes, "torch.Size")
        if any(item.__class__ is not int for item in items):
            items = tuple(_size_item(item, index) for index, item in enumerate(items))
        return tuple.__new__(cls, items)

    # slices, `+` and `*` of a torch.Size are torch.Sizes (`x.shape[1:]`, `(1,) + x.shape`)
    def __getitem__(self, index: Any) -> Any:
        item = tuple.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other: Any) -> Size:  # type: ignore[override]
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to "
                            "torch.Size")
        return Size(tuple.__add__(self, other))

    def __radd__(self, other: Any) -> Size:
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, times: Any) -> Size:  # type: ignore[override]
        return Size(tuple.__mul__(self, times))

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(d) for d in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64)) if self else 1


def _size_item(item: Any, index: int) -> int:
    """One dimension of a torch.Size: an int (a bool or a one-element integer tensor counts)."""
    try:
        return operator.index(item)
    except TypeError:
        raise TypeError(f"torch.Size() takes an iterable of 'int' (item {index} is "
                        f"'{type(item).__name__}')") from None
