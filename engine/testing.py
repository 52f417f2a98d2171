"""`torch.testing.assert_close`: PyTorch's comparison of tensors, numbers and containers of them,
with its default tolerances per dtype and its messages (the mismatch count, the greatest
absolute and relative differences and where they are, the item of a container that failed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import dtypes
from engine.tensor import Tensor

# (rtol, atol) by dtype (agraph has no bfloat16); every other dtype is compared for equality
TOLERANCES = {dtypes.float16: (1e-3, 1e-5),
              dtypes.float32: (1.3e-6, 1e-5), dtypes.float64: (1e-7, 1e-7)}


class _Mismatch(Exception):
    def __init__(self, message: str, path: tuple[Any, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


MAX_DEPTH = 1000  # nested containers compared (a list holding itself never ends)


def _type_text(value: Any) -> str:
    """PyTorch's `<class '...'>` of a value, never the module path of an agraph class."""
    if isinstance(value, Tensor):
        return "<class 'torch.Tensor'>"
    kind = type(value)
    if kind.__module__ == "__main__":  # the program's own class
        return f"<class '__main__.{kind.__qualname__}'>"
    return f"<class '{kind.__name__}'>"


def assert_close(actual: Any, expected: Any, *, allow_subclasses: Any = True, rtol: Any = None,
                 atol: Any = None, equal_nan: Any = False, check_device: Any = True,
                 check_dtype: Any = True, check_layout: Any = True, check_stride: Any = False,
                 msg: Any = None) -> None:
    if (rtol is None) != (atol is None):
        missing = "atol" if atol is None else "rtol"
        raise ValueError("Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {missing}.")
    tolerance = None if rtol is None else (float(rtol), float(atol))
    try:
        _compare(actual, expected, (), tolerance, bool(equal_nan), bool(check_dtype))
    except _Mismatch as mismatch:
        message = mismatch.message
        if msg is not None:
            message = msg if isinstance(msg, str) else msg(message)
        elif mismatch.path:
            where = "".join(f"[{step!r}]" for step in mismatch.path)
            message += f"\n\nThe failure occurred for item {where}"
        raise AssertionError(message) from None


def _compare(actual: Any, expected: Any, path: tuple[Any, ...], tolerance: Any, equal_nan: bool,
             check_dtype: bool) -> None:
    sequences = (list, tuple)
    if len(path) > MAX_DEPTH:
        raise RecursionError("maximum recursion depth exceeded while comparing nested "
                             "containers")
    if isinstance(actual, sequences) and isinstance(expected, sequences):
        if len(actual) != len(expected):
            raise _Mismatch(f"The length of the sequences mismatch: {len(actual)} != "
                            f"{len(expected)}", path)
        for index, (a, e) in enumerate(zip(actual, expected, strict=True)):
            _compare(a, e, (*path, index), tolerance, equal_nan, check_dtype)
        return
    if isinstance(actual, dict) and isinstance(expected, dict):
        if set(actual) != set(expected):
            missing = sorted(set(expected) - set(actual))
            extra = sorted(set(actual) - set(expected))
            raise _Mismatch(f"The keys of the mappings do not match:\nMissing keys in the actual "
                            f"mapping: {missing}\nExtra keys in the actual mapping: {extra}", path)
        for key in expected:
            _compare(actual[key], expected[key], (*path, key), tolerance, equal_nan,
                     check_dtype)
        return
    numbers = (bool, int, float)
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        scalar = False
        a, e = actual.array, expected.array
        a_dtype, e_dtype = actual.dtype, expected.dtype
    elif type(actual) in numbers and type(expected) in numbers:
        scalar = True
        a, e = np.asarray(actual), np.asarray(expected)
        a_dtype, e_dtype = dtypes.of_array(a), dtypes.of_array(e)
    else:
        raise TypeError(f"No comparison pair was able to handle inputs of type "
                        f"{_type_text(actual)} and {_type_text(expected)}.")
    if a.shape != e.shape:
        raise _Mismatch(f"The values for attribute 'shape' do not match: "
                        f"torch.Size({list(a.shape)}) != torch.Size({list(e.shape)}).", path)
    if check_dtype and a_dtype is not e_dtype:
        raise _Mismatch(f"The values for attribute 'dtype' do not match: {a_dtype} != "
                        f"{e_dtype}.", path)
    if tolerance is None:
        tolerances = [TOLERANCES.get(d, (0.0, 0.0)) for d in (a_dtype, e_dtype)]
        tolerance = (max(t[0] for t in tolerances), max(t[1] for t in tolerances))
    common = np.result_type(a, e)
    if common == np.bool_:
        a, e = a.astype(np.int64), e.astype(np.int64)
    else:
        a, e = a.astype(common, copy=False), e.astype(common, copy=False)
    rtol, atol = tolerance
    with np.errstate(all="ignore"):
        if np.issubdtype(a.dtype, np.floating):
            close = np.abs(a - e) <= atol + rtol * np.abs(e)
            close |= a == e  # infinities of one sign
            if equal_nan:
                close |= np.isnan(a) & np.isnan(e)
        else:
            close = np.abs(a - e) <= atol + rtol * np.abs(e)
        if close.all():
            return
        raise _Mismatch(_message(a, e, close, rtol, atol, scalar or a.ndim == 0), path)


def _message(a: np.ndarray, e: np.ndarray, close: np.ndarray, rtol: float, atol: float,
             scalar: bool) -> str:
    abs_diff = np.abs(a - e)
    relative_dtype = a.dtype if np.issubdtype(a.dtype, np.floating) else np.float32
    rel_diff = (abs_diff.astype(relative_dtype) / np.abs(e).astype(relative_dtype))
    if not scalar:  # only the mismatches count for the greatest differences
        abs_diff[close] = 0
        rel_diff[close] = 0
    exact = not (rtol or atol)
    allowed = ("", "") if exact else (f" (up to {atol!r} allowed)", f" (up to {rtol!r} allowed)")
    if scalar:
        return (f"Scalars are not {'equal' if exact else 'close'}!\n\n"
                f"Expected {e.item()!r} but got {a.item()!r}.\n"
                f"Absolute difference: {abs_diff.item()!r}{allowed[0]}\n"
                f"Relative difference: {rel_diff.item()!r}{allowed[1]}")
    total = a.size
    mismatched = int(total - np.count_nonzero(close))

    def greatest(diff: np.ndarray) -> tuple[Any, tuple[int, ...]]:
        flat = diff.reshape(-1)
        floating = np.issubdtype(flat.dtype, np.floating)
        nans = np.flatnonzero(np.isnan(flat)) if floating else np.empty(0, dtype=np.int64)
        index = int(nans[0]) if len(nans) else int(np.argmax(flat))  # a NaN is the greatest
        return flat[index].item(), tuple(int(i) for i in np.unravel_index(index, diff.shape))

    abs_value, abs_index = greatest(abs_diff)
    rel_value, rel_index = greatest(rel_diff)
    return (f"Tensor-likes are not {'equal' if exact else 'close'}!\n\n"
            f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})\n"
            f"Greatest absolute difference: {abs_value!r} at index {abs_index}{allowed[0]}\n"
            f"Greatest relative difference: {rel_value!r} at index {rel_index}{allowed[1]}")


TESTING: dict[str, Any] = {"assert_close": assert_close}
