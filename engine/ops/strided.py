"""Read-only views of numpy arrays with given strides, built directly: numpy's `as_strided`
and `broadcast_to` spend microseconds in their Python wrappers, and a training loop makes these
views at every step (the expanded gradient of a sum, the strided walk of a cascade sum)."""

from __future__ import annotations

import numpy as np


def strided_view(a: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray:
    """`as_strided(a, shape, strides, writeable=False)`: over a's buffer when it is
    C-contiguous, else through numpy."""
    if not a.flags.c_contiguous:
        return np.lib.stride_tricks.as_strided(a, shape=shape, strides=strides, writeable=False)
    view = np.ndarray(shape, a.dtype, buffer=a, strides=strides)
    view.flags.writeable = False
    return view


def broadcast_view(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """np.broadcast_to(a, shape) (a read-only view), its strides kept per layout."""
    key = (a.shape, a.strides, shape)
    strides = _BROADCAST_STRIDES.get(key)
    if strides is None:  # () for a layout numpy must handle (not C-contiguous)
        if len(_BROADCAST_STRIDES) > 4096:
            _BROADCAST_STRIDES.clear()
        lead = len(shape) - a.ndim
        strides = _BROADCAST_STRIDES[key] = (0,) * lead + tuple(
            0 if size == 1 and n != 1 else stride for size, n, stride
            in zip(a.shape, shape[lead:], a.strides, strict=True)) if a.flags.c_contiguous else ()
    if not strides and shape:
        return np.broadcast_to(a, shape)
    return strided_view(a, shape, strides)


_BROADCAST_STRIDES: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}
