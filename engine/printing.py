"""Tensor printing exactly as PyTorch 2.13 does it (``torch/_tensor_str.py``), on numpy arrays.

Pure functions of an array plus a few flags, so the Tensor class only hands over its data.
The facts reproduced here, which users compare character by character against PyTorch:

- one formatter for the whole tensor, chosen from its nonzero finite values (only the
  ones left visible when the tensor is summarized): integer-valued floats print as ``1.``,
  others with ``precision`` decimals, scientific notation when max/min > 1000,
  max > 1e8 or min < 1e-4; every element right-aligned to the widest one;
- rows wrap at ``linewidth``; higher dimensions are separated by ``dim - 1`` newlines;
- more than ``threshold`` elements print ``edgeitems`` per side around ``...``;
- suffixes ``size=``, ``dtype=``, then ``grad_fn=`` or ``requires_grad=True``, each moved to
  its own line when it would pass ``linewidth``.
"""

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import budget, dtypes

__all__ = [
    "PrintOptions",
    "format_scalar_tensor",
    "get_printoptions",
    "set_printoptions",
    "tensor_repr",
]


class PrintOptions:
    """torch's print options (what `vars()` of one holds is what get_printoptions returns)."""

    def __init__(self) -> None:
        self.precision: int = 4
        self.threshold: float = 1000
        self.edgeitems: int = 3
        self.linewidth: int = 80
        self.sci_mode: bool | None = None


PRINT_OPTIONS = PrintOptions()

# precision, threshold, edgeitems, linewidth; torch ignores any other profile name.
_PROFILES: dict[str, tuple[int, float, int, int]] = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}

# Dtypes whose repr carries no ``dtype=`` suffix when the tensor has elements (with the
# default float dtype, torch.get_default_dtype()).
_UNMARKED_DTYPES = frozenset({"int64", "bool"})

ElementFormatter = Callable[[Any], str]


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """``torch.set_printoptions``: a profile first, then the explicit options over it."""
    if profile in _PROFILES:
        values = _PROFILES[profile]
        (PRINT_OPTIONS.precision, PRINT_OPTIONS.threshold,
         PRINT_OPTIONS.edgeitems, PRINT_OPTIONS.linewidth) = values
    if precision is not None:
        PRINT_OPTIONS.precision = precision
    if threshold is not None:
        PRINT_OPTIONS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTIONS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTIONS.linewidth = linewidth
    # Not a typo: like torch, every call resets sci_mode, to automatic when not given.
    PRINT_OPTIONS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """``torch.get_printoptions``: the options as keyword arguments for set_printoptions."""
    return dict(vars(PRINT_OPTIONS))


def tensor_repr(
    array: np.ndarray,
    *,
    requires_grad: bool = False,
    grad_fn_name: str | None = None,
    is_parameter: bool = False,
) -> str:
    """What ``repr(t)``, ``str(t)`` and ``print(t)`` show in torch, e.g. ``tensor([5.])``,
    ``tensor([6.], grad_fn=<MulBackward0>)``, ``tensor([], size=(0, 3))``; parameters get
    torch's ``Parameter containing:`` line first."""
    if array.dtype.kind == "c":
        raise NotImplementedError("printing complex tensors is not supported")
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    dtype_name = array.dtype.name
    if array.size == 0:
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
        # No element shows whether an empty tensor is an integer one, so only the default
        # float dtype is implied.
        if dtype_name != dtypes.default_float().name:
            suffixes.append(f"dtype=torch.{dtype_name}")
        body = "[]"
    else:
        if not PRINT_OPTIONS.edgeitems:
            suffixes.append(f"size={tuple(array.shape)}")
        if dtype_name not in _UNMARKED_DTYPES and dtype_name != dtypes.default_float().name:
            suffixes.append(f"dtype=torch.{dtype_name}")
        body = _tensor_body(array, indent)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    text = _add_suffixes(prefix + body, suffixes, indent)
    return "Parameter containing:\n" + text if is_parameter else text


def format_scalar_tensor(array: np.ndarray, spec: str) -> str:
    """``format(t, spec)`` / ``f'{t:.4f}'``: a 0-dim tensor formats its python item
    (float, int or bool, so ``f'{t}'`` of float32 0.1 is ``0.10000000149011612`` and a bad
    code raises python's ValueError). Any other tensor refuses a non-empty spec; with an
    empty spec torch prints ``str(t)``, returned here without the grad flags, which the
    caller adds by using its own ``repr`` instead.
    (torch's ``nn.Parameter`` refuses every non-empty spec, 0-dim too: the caller's job.)"""
    if array.ndim == 0:
        return format(array.item(), spec)
    if spec:
        raise TypeError("unsupported format string passed to Tensor.__format__")
    return tensor_repr(array)


def _tensor_body(array: np.ndarray, indent: int) -> str:
    edge = PRINT_OPTIONS.edgeitems
    summarize = array.size > PRINT_OPTIONS.threshold
    if summarize and array.ndim and not edge:
        return "[...]"
    # Summarizing keeps `edge` items at each end of every axis longer than 2 * edge and puts
    # "..." between them; the formatter sees only the kept items.
    cut_axes = [summarize and length > 2 * edge for length in array.shape]
    shown = [max(0, 2 * edge) if cut else length for cut, length in zip(cut_axes, array.shape,
                                                                        strict=True)]
    shape = array.shape
    _check_text_size(shape, shown, cut_axes, 1, indent)  # before the values are looked at
    if any(cut_axes):  # all axes at once: no intermediate keeps a whole axis of a big tensor
        kept = [np.r_[0:edge, length - edge:length] if cut else np.arange(length)
                for cut, length in zip(cut_axes, shape, strict=True)]
        array = array[np.ix_(*kept)]
    element_formatter, width = _make_formatter(array)
    _check_text_size(shape, shown, cut_axes, width, indent)  # now with the elements' width
    if array.ndim == 0:
        return element_formatter(array.item())
    return _nested_str(array.tolist(), cut_axes, edge, indent, element_formatter, width)


# What printing builds besides its text: the numbers and lists tolist() makes, then per element
# shown its formatted str (an object header and a list slot).
_STR_BYTES = 57
_TEXT_COPIES = 4  # the text exists a few times over while lines and blocks are joined


def _check_text_size(shape: tuple[int, ...], shown: list[int], cut_axes: list[bool],
                     width: int, indent: int) -> None:
    """Refuse, before formatting, to print more than the memory budget allows: print options
    (threshold, edgeitems, precision) can ask for the text of every element of a big tensor,
    or for a million digits of each."""
    text = _text_length(shown, cut_axes, width, indent)
    nbytes = (budget.python_list_bytes(shown) + math.prod(shown) * (_STR_BYTES + width)
              + _TEXT_COPIES * text)
    if nbytes >= 1 << 20:
        budget.check_bytes(int(nbytes), f"printing a tensor of shape {list(shape)} makes a text "
                           f"of about {int(text)} characters and a string per element shown")


def _text_length(shown: list[int], cut_axes: list[bool], width: int, indent: int) -> int:
    """The length of _nested_str's text for `shown` items per axis, each `width` wide."""
    ndim = len(shown)
    if not ndim:
        return width
    total = 0
    blocks = 1  # the bracketed lists at the current depth
    for depth, (count, cut) in enumerate(zip(shown, cut_axes, strict=True)):
        entries = count + (1 if cut else 0)  # "..." is an entry of its own
        spaces = indent + depth + 1
        if depth < ndim - 1:
            each = 2 + 3 * cut + max(entries - 1, 0) * (1 + (ndim - depth - 1) + spaces)
        else:
            per_line = max(1, (PRINT_OPTIONS.linewidth - indent - depth) // (width + 2))
            lines = math.ceil(entries / per_line)
            each = (2 + count * width + 4 * cut + max(entries - lines, 0) * 2
                    + max(lines - 1, 0) * (2 + spaces))
        total += blocks * each
        blocks *= count
    return total


def _make_formatter(values: np.ndarray) -> tuple[ElementFormatter, int]:
    """The one formatter shared by all elements, and the width it pads them to.

    The widest text belongs to an extreme: the largest magnitude of either sign (longest
    integer part) or, in scientific notation, also the smallest (a three-digit exponent).
    """
    if values.dtype.kind != "f":
        # int and bool: str() of the item, padded to the longest
        extremes = [values.max().item(), values.min().item()] if values.size else []
        width = max([1, *(len(str(value)) for value in extremes)])
        return (lambda value: str(value).rjust(width)), width

    precision = PRINT_OPTIONS.precision
    int_mode, sci_mode, width = True, False, 1
    nonzero_finite = values[np.isfinite(values) & (values != 0)]
    if nonzero_finite.size:  # otherwise torch keeps integer style and width 1
        # float() of a float32 or float16 value is exact: torch also compares doubles
        lowest, highest = float(nonzero_finite.min()), float(nonzero_finite.max())
        smallest, largest = float(np.abs(nonzero_finite).min()), max(-lowest, highest)
        int_mode = bool((nonzero_finite == np.ceil(nonzero_finite)).all())
        if PRINT_OPTIONS.sci_mode is None:
            sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        else:
            sci_mode = PRINT_OPTIONS.sci_mode
        if sci_mode:
            extremes = [
                float(bound)
                for part in (nonzero_finite[nonzero_finite > 0], nonzero_finite[nonzero_finite < 0])
                if part.size
                for bound in (part.min(), part.max())
            ]
            width = max(_formatted_length(value, precision, "e") for value in extremes)
        else:
            extremes = [lowest, highest]
            if int_mode:
                width = max(len(f"{value:.0f}") + 1 for value in extremes)  # + 1 for the "."
            else:
                width = max(_formatted_length(value, precision, "f") for value in extremes)

    if sci_mode:
        sci_spec = f"{width}.{precision}e"
        return (lambda value: format(value, sci_spec)), width
    if int_mode:
        # The trailing "." marks a float tensor; nan and inf have no room for it.
        return (
            lambda value: (
                f"{value:.0f}." if math.isfinite(value) else f"{value:.0f}"
            ).rjust(width)
        ), width
    fixed_spec = f".{precision}f"
    return (lambda value: format(value, fixed_spec).rjust(width)), width


_EXACT_DECIMALS = 40


def _formatted_length(value: float, precision: int, kind: str) -> int:
    """len(format(value, f".{precision}{kind}")), without making a string of a million digits
    for a huge precision: past 40 decimals a double's digits only add to the length (rounding
    there cannot carry into the digits before them)."""
    if precision <= _EXACT_DECIMALS:
        return len(format(value, f".{precision}{kind}"))
    return len(format(value, f".{_EXACT_DECIMALS}{kind}")) + precision - _EXACT_DECIMALS


def _nested_str(
    rows: list[Any],
    cut_axes: list[bool],
    edge: int,
    indent: int,
    element_formatter: ElementFormatter,
    width: int,
) -> str:
    """Brackets within brackets; each level indents one more column than its parent."""
    if len(cut_axes) == 1:
        items = list(map(element_formatter, rows))
        if cut_axes[0]:
            items.insert(edge, " ...")
        per_line = max(1, (PRINT_OPTIONS.linewidth - indent) // (width + 2))
        lines = [", ".join(items[start:start + per_line])
                 for start in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    blocks = [
        _nested_str(row, cut_axes[1:], edge, indent + 1, element_formatter, width) for row in rows
    ]
    if cut_axes[0]:
        blocks.insert(edge, "...")
    return "[" + ("," + "\n" * (len(cut_axes) - 1) + " " * (indent + 1)).join(blocks) + "]"


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` pieces, starting a new indented line when one would not fit."""
    # torch's own arithmetic, off by one or two on purpose: it decides where lines break.
    last_line_length = len(text) - text.rfind("\n") + 1
    parts = [text]
    for suffix in suffixes:
        if last_line_length + len(suffix) + 2 > PRINT_OPTIONS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_length = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_length += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
