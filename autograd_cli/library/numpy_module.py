"""`numpy`: a curated namespace over real numpy (`import numpy as np`).

Every function is numpy's own, called on unwrapped arguments, its result wrapped again
(engine/ndarray.py): a program only ever holds agraph's `ndarray`. Each function belongs to a
family that says how its result is sized before numpy allocates it (engine/budget.py):

- `pointwise`: the broadcast of the array arguments (`sin`, `add`, `where`, ...);
- `reducing`: never bigger than its input (`sum`, `mean`, `argmax`, `dot` of vectors, ...);
- `copying`: as big as its first argument (`sort`, `reshape`, `cumsum`, `fft`, ...);
- the rest name their size in their arguments and have an estimate each (`zeros(shape)`,
  `arange`, `linspace`, `eye`, `meshgrid`, `outer`, `concatenate`, `tile`, ...).

What would reach files or memory (`save`, `load`, `fromfile`, `memmap`, `loadtxt`, `ctypeslib`,
`lib`, `frombuffer`, ...) is Refused when used. `np.random` and `np.linalg`/`np.fft` are in
numpy_random.py and here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from autograd_cli.language.memory import check_text
from autograd_cli.language.objects import BuiltinType, Namespace
from autograd_cli.library import numpy_printing, numpy_random
from engine import budget
from engine.addresses import address_of
from engine.ndarray import (
    NumpyArray,
    ScalarType,
    check_broadcast,
    check_result,
    matmul_checked,
    unwrap,
    unwrap_all,
    wrap,
)
from engine.refused import Refused

POINTWISE = """
    abs absolute add subtract multiply divide true_divide floor_divide power float_power mod
    remainder fmod negative positive sign sqrt cbrt square exp exp2 expm1 log log2 log10 log1p
    sin cos tan arcsin arccos arctan arctan2 sinh cosh tanh arcsinh arccosh arctanh degrees
    radians deg2rad rad2deg hypot maximum minimum fmax fmin floor ceil trunc rint round around
    clip isnan isinf isfinite equal not_equal less less_equal greater greater_equal logical_and
    logical_or logical_not logical_xor where heaviside sinc reciprocal conj conjugate real imag
    angle nan_to_num isclose signbit copysign
""".split()
REDUCING = """
    sum mean std var max min amax amin argmax argmin prod median percentile quantile average
    all any count_nonzero nansum nanmean nanmax nanmin nanstd nanvar ptp trace allclose
    array_equal shape ndim size argwhere nonzero flatnonzero searchsorted unique vdot
""".split()
COPYING = """
    copy sort argsort reshape ravel transpose swapaxes moveaxis squeeze expand_dims flip
    fliplr flipud roll rot90 cumsum cumprod diff gradient atleast_1d atleast_2d atleast_3d
    zeros_like ones_like empty_like full_like tril triu asarray ascontiguousarray array
    convolve interp sort_complex take_along_axis
""".split()
REFUSED = {
    **{name: "files" for name in (
        "save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "genfromtxt",
        "fromfile", "memmap", "fromregex", "DataSource", "tofile")},
    **{name: "memory" for name in ("frombuffer", "ctypeslib", "lib", "from_dlpack",
                                   "asarray_chkfinite_buffer", "byte_bounds")},
    **{name: "interpreter" for name in ("show_config", "show_runtime", "info", "source",
                                        "get_include", "testing", "f2py", "distutils",
                                        "vectorize", "frompyfunc", "fromfunction",
                                        "apply_along_axis", "apply_over_axes",
                                        "seterr", "seterrcall", "setbufsize")},
}
DTYPES = """float16 float32 float64 int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool_
    complex64 complex128 intp double single half longlong""".split()


def _family(function: Callable[..., Any], size: Callable[..., None]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        args, kwargs = unwrap_all(args, kwargs)
        if kwargs.get("like") is not None:
            raise TypeError("like= is not supported by agraph")
        size(*args, **kwargs)
        result = function(*args, **kwargs)
        if isinstance(result, np.ndarray) and result.nbytes >= budget.LARGE:
            budget.check_in_use()
        return wrap(result)

    call.__name__ = call.__qualname__ = function.__name__
    return call


def _pointwise(*args: Any, **kwargs: Any) -> None:
    # a str counts with its item size: `np.where(mask, "a" * 10**4, "b")` is 40 kB an item
    check_broadcast(*[np.asarray(arg) if isinstance(arg, (list, tuple, str, bytes)) else arg
                      for arg in args])


def _reducing(*args: Any, **kwargs: Any) -> None:
    return None


def _copying(*args: Any, **kwargs: Any) -> None:
    if args:  # `np.array(["a"], dtype="U300000000")`: items of the dtype's size
        shape = kwargs.get("shape")  # `np.zeros_like(a, shape=(10**5, 10**5))`
        check_result(np.shape(args[0]) if shape is None else _shape_argument(shape), max(
            _item_size(args[0]), _dtype_bytes([*args[1:], *kwargs.values()])))


def _dtype_bytes(values: Any) -> int:
    """The size of the items of a dtype among `values` (a dtype, a type or its name), at
    least 16."""
    size = 16
    for value in values:
        if isinstance(value, (np.dtype, type)) or (isinstance(value, str) and len(value) <= 16):
            try:
                size = max(size, np.dtype(value).itemsize)
            except (TypeError, ValueError, SyntaxError):
                pass  # a mode or an order, not a dtype
    return size


def _shape_argument(shape: Any) -> tuple[int, ...]:
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    if not all(isinstance(n, (int, np.integer)) for n in shape):
        raise TypeError("expected a sequence of integers or a single integer")
    return tuple(int(n) for n in shape)


def _item_bytes(values: Any) -> int:
    """The bytes of one item that a fill value or a dtype argument asks for: a str of 10,000
    characters makes items of 40,000 bytes (`np.full(n, "a" * 10**4)`), `dtype="U100000"`
    400,000; at least 16 (complex128)."""
    size = 16
    for value in values:
        if isinstance(value, (str, bytes)):
            size = max(size, len(value) * (4 if isinstance(value, str) else 1))
        if isinstance(value, (str, np.dtype, type)):
            try:
                size = max(size, np.dtype(value).itemsize)
            except (TypeError, ValueError):
                pass  # a fill value, not a dtype
    return size


def _filled(shape: Any, *args: Any, **kwargs: Any) -> None:
    check_result(_shape_argument(shape), _item_bytes([*args, *kwargs.values()]))


def _eye(n: Any, m: Any = None, *args: Any, **kwargs: Any) -> None:
    check_result((int(n), int(n if m is None else m)), 16)


def _arange(*args: Any, **kwargs: Any) -> None:
    bounds = [a for a in args if not isinstance(a, (np.dtype, type, str))]
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (
        bounds[0], bounds[1], bounds[2] if len(bounds) > 2 else 1)
    start, stop, step = kwargs.get("start", start), kwargs.get("stop", stop), kwargs.get(
        "step", step)
    if all(isinstance(v, (int, float, np.number)) for v in (start, stop, step)) and step:
        check_result((max(0, math.ceil((stop - start) / step)),), 16)


def _counted(count_name: str, position: int, default: int) -> Callable[..., None]:
    def size(*args: Any, **kwargs: Any) -> None:
        count = kwargs.get(count_name, args[position] if len(args) > position else default)
        check_result((int(count),), 16)
    return size


def _item_size(*arrays: Any) -> int:
    """The bytes of one item of the result made of `arrays`: text arrays have big items
    (`np.tile(np.array(["a" * 10**7]), 60)` is 2.4 GB); at least 16."""
    return max([16, *(np.asarray(a).itemsize for a in arrays)])


def _meshgrid(*arrays: Any, **kwargs: Any) -> None:
    total = math.prod(int(np.size(a)) for a in arrays)
    check_result((total * max(len(arrays), 1),), _item_size(*arrays))


def _outer(a: Any, b: Any, *args: Any, **kwargs: Any) -> None:
    check_result((int(np.size(a)) * int(np.size(b)),), 16)


def _joined(arrays: Any, *args: Any, **kwargs: Any) -> None:
    if isinstance(arrays, (list, tuple)):
        check_result((sum(int(np.size(a)) for a in arrays),), _item_size(*arrays))


def _split(array: Any, sections: Any, *args: Any, **kwargs: Any) -> None:
    """`split`/`array_split`/`hsplit`/...: views of the array, one array object per piece."""
    count = int(sections) if np.ndim(sections) == 0 else int(np.size(sections)) + 1
    check_result((count,), 128)


def _tile(array: Any, reps: Any, *args: Any, **kwargs: Any) -> None:
    counts = _shape_argument(reps)
    check_result((int(np.size(array)) * math.prod(counts),), _item_size(array))


def _repeat(array: Any, repeats: Any, *args: Any, **kwargs: Any) -> None:
    counts = np.asarray(repeats)
    total = int(counts.sum()) if counts.ndim else int(counts) * int(np.size(array))
    check_result((max(total, int(np.size(array))),), _item_size(array))


def _diag(array: Any, k: int = 0) -> None:
    n = int(np.size(array)) + abs(int(k))
    check_result((n, n) if np.ndim(array) == 1 else (n,), _item_size(array))


def _fft(array: Any, n: Any = None, *args: Any, **kwargs: Any) -> None:
    count = kwargs.get("n", n)
    check_result((int(np.size(array)) if count is None else int(count) * max(
        1, int(np.size(array)) // max(1, int(np.shape(array)[-1]) if np.ndim(array) else 1)),),
        16)


def _svd(array: Any, full_matrices: bool = True, *args: Any, **kwargs: Any) -> None:
    shape = np.shape(array)
    if len(shape) >= 2 and kwargs.get("full_matrices", full_matrices):
        check_result((shape[-2] * shape[-2] + shape[-1] * shape[-1],), 16)


def _broadcast_to(array: Any, shape: Any, *args: Any, **kwargs: Any) -> None:
    check_result(_shape_argument(shape), _item_size(array))  # a view, which any op copies


def _pad(array: Any, pad_width: Any, *args: Any, **kwargs: Any) -> None:
    widths = np.broadcast_to(np.asarray(pad_width), (np.ndim(array), 2))
    shape = [int(n) + int(w.sum()) for n, w in zip(np.shape(array), widths, strict=True)]
    check_result(tuple(shape), _item_size(array))


def _histogram(a: Any, bins: Any = 10, *args: Any, **kwargs: Any) -> None:
    bins = kwargs.get("bins", bins)
    if np.ndim(bins) == 0 and not isinstance(bins, str):
        check_result((int(bins) + 1,), 16)  # the edges and the counts


def _bincount(x: Any, weights: Any = None, minlength: Any = 0) -> None:
    """One count for every value up to the largest (`np.bincount([10**9])`)."""
    top = int(np.max(x)) + 1 if np.size(x) and np.asarray(x).dtype.kind in "iub" else 0
    check_result((max(top, int(minlength)),), 16)


def _variables(m: Any, y: Any = None, rowvar: bool = True, *args: Any, **kwargs: Any) -> None:
    """`cov`/`corrcoef`: a variables x variables matrix (the rows of m and y, or columns)."""
    rowvar = kwargs.get("rowvar", rowvar)
    count = 0
    for array in (m, kwargs.get("y", y)):
        if array is not None:
            shape = np.shape(array)
            count += 1 if len(shape) < 2 else int(shape[0] if rowvar else shape[1])
    check_result((count, count), 16)


def _inner(a: Any, b: Any, *args: Any, **kwargs: Any) -> None:
    check_result(tuple(np.shape(a)[:-1]) + tuple(np.shape(b)[:-1]), 16)


def _multi_dot(arrays: Any, *args: Any, **kwargs: Any) -> None:
    """The product: the first array's rows by the last one's columns."""
    shapes = [np.shape(a) for a in arrays] if isinstance(arrays, (list, tuple)) else []
    if shapes:
        check_result((int(shapes[0][0]) if len(shapes[0]) == 2 else 1,
                      int(shapes[-1][-1]) if len(shapes[-1]) == 2 else 1), 16)


def _polyfit(x: Any, y: Any, deg: Any, *args: Any, **kwargs: Any) -> None:
    check_result((int(np.size(x)), int(deg) + 1), 16)  # its Vandermonde matrix


def _polyval(p: Any, x: Any, *args: Any, **kwargs: Any) -> None:
    check_result(np.shape(x), 16)


SIZED: dict[str, Callable[..., None]] = {
    "zeros": _filled, "ones": _filled, "empty": _filled, "full": _filled, "identity": _eye,
    "eye": _eye, "tri": _eye, "arange": _arange, "linspace": _counted("num", 2, 50),
    "logspace": _counted("num", 2, 50), "geomspace": _counted("num", 2, 50),
    "meshgrid": _meshgrid, "outer": _outer, "kron": _outer, "concatenate": _joined,
    "stack": _joined, "vstack": _joined, "hstack": _joined, "dstack": _joined,
    "column_stack": _joined, "tile": _tile, "repeat": _repeat, "diag": _diag,
    "diagflat": _diag, "broadcast_to": _broadcast_to, "pad": _pad, "polyfit": _polyfit,
    "polyval": _polyval, "histogram": _histogram, "bincount": _bincount, "cov": _variables,
    "corrcoef": _variables, "inner": _inner, **{name: _split for name in (
        "split", "array_split", "hsplit", "vsplit", "dsplit")},
}


def _matmul(a: Any, b: Any) -> Any:
    args, _ = unwrap_all((a, b), {})
    return matmul_checked(np.matmul, *args)


def _dot(a: Any, b: Any) -> Any:
    args, _ = unwrap_all((a, b), {})
    return matmul_checked(np.dot, *args)


def _append(array: Any, values: Any, axis: Any = None) -> Any:
    (array, values), _ = unwrap_all((array, values), {})
    _joined([array, values])
    return wrap(np.append(array, values, axis=axis))


class Polynomial:
    """`np.poly1d(coefficients)`: numpy's own polynomial, called on unwrapped arguments; it
    prints as numpy prints it (the powers on the line above the terms)."""

    PUBLIC_ATTRS = frozenset({"coeffs", "c", "coef", "coefficients", "order", "o", "roots", "r",
                              "variable", "deriv", "integ"})
    __slots__ = ("_poly",)
    _poly: np.poly1d

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, Polynomial):
            c_or_r = c_or_r._poly
        (c_or_r,), _ = unwrap_all((c_or_r,), {})
        _copying(c_or_r)
        if variable is not None and not isinstance(variable, str):
            raise TypeError("variable must be a string")
        self._poly = np.poly1d(c_or_r, r=bool(r), variable=variable)

    def __call__(self, x: Any) -> Any:
        (x,), _ = unwrap_all((x,), {})
        _polyval(self._poly.coeffs, x)
        return wrap(self._poly(x))

    @property
    def coeffs(self) -> Any:
        return wrap(self._poly.coeffs.copy())

    c = coef = coefficients = coeffs

    @property
    def order(self) -> int:
        return int(self._poly.order)

    o = order

    @property
    def roots(self) -> Any:
        return wrap(self._poly.roots)

    r = roots

    @property
    def variable(self) -> str:
        return str(self._poly.variable)

    # numpy's polyder/polyint recurse once per order, each level holding its coefficients
    # (integ(10**5) took gigabytes): here one order at a time, numpy's own step each time.
    def deriv(self, m: int = 1) -> Polynomial:
        m = int(m)
        if m < 0:
            raise ValueError("Order of derivative must be positive (see polyint)")
        coeffs = self._poly.coeffs
        for _ in range(min(m, len(coeffs) + 1)):  # past the constant it stays empty
            coeffs = np.polyder(coeffs)
        return Polynomial(coeffs)  # numpy names its variable x again

    def integ(self, m: int = 1, k: Any = 0) -> Polynomial:
        (k,), _ = unwrap_all((k,), {})
        m = int(m)
        if m < 0:
            raise ValueError("Order of integral must be positive (see polyder)")
        coeffs = self._poly.coeffs
        check_result((len(coeffs) + m,), 16)
        constants = np.atleast_1d(0.0 if k is None else k)
        if len(constants) == 1 and m > 1:
            constants = constants[0] * np.ones(m, float)
        if len(constants) < m:
            raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
        for index in range(m):
            coeffs = np.polyint(coeffs, 1, constants[index:index + 1])
        return Polynomial(coeffs)

    def _check_text(self) -> None:
        """numpy builds the text term by term (each term the variable, a power, a number)."""
        terms = len(self._poly.coeffs)
        check_text(4 * terms * (len(self._poly.variable) + 60), self._poly.variable)

    def __str__(self) -> str:
        self._check_text()
        return str(self._poly)

    def __repr__(self) -> str:
        self._check_text()
        return repr(self._poly)


class NdEnumerate:
    """`np.ndenumerate(a)`: each element with its index tuple, in C order, as numpy yields them
    (its elements numpy scalars; a list or number is an array first)."""

    PUBLIC_ATTRS: frozenset[str] = frozenset()

    def __init__(self, array: Any) -> None:
        self._pairs = np.ndenumerate(np.asarray(unwrap(array)))

    def __iter__(self) -> NdEnumerate:
        return self

    def __next__(self) -> tuple[tuple[int, ...], Any]:
        index, value = next(self._pairs)
        return index, wrap(value)

    def __repr__(self) -> str:
        return f"<numpy.ndenumerate object at {address_of(self)}>"


def _functions(module: Any, families: dict[str, Callable[..., None]]) -> dict[str, Any]:
    return {name: _family(getattr(module, name), size) for name, size in families.items()
            if hasattr(module, name)}


def _linalg() -> Namespace:
    families: dict[str, Callable[..., None]] = {name: _copying for name in (
        "inv", "pinv", "cholesky", "qr", "eig", "eigh", "eigvals", "eigvalsh", "solve",
        "lstsq", "matrix_power", "tensorinv")}
    families.update({name: _reducing for name in ("det", "slogdet", "norm", "matrix_rank",
                                                  "cond", "trace")})
    families["multi_dot"] = _multi_dot
    families["svd"] = _svd
    members = _functions(np.linalg, families)
    members["LinAlgError"] = BuiltinType(np.linalg.LinAlgError, np.linalg.LinAlgError)
    return Namespace("numpy.linalg", members)


def _fft_namespace() -> Namespace:
    families: dict[str, Callable[..., None]] = {name: _fft for name in (
        "fft", "ifft", "rfft", "irfft", "hfft", "ihfft")}
    families.update({name: _copying for name in ("fft2", "ifft2", "fftn", "ifftn", "rfft2",
                                                 "irfft2", "rfftn", "irfftn", "fftshift",
                                                 "ifftshift")})
    families.update({name: _counted("n", 0, 0) for name in ("fftfreq", "rfftfreq")})
    return Namespace("numpy.fft", _functions(np.fft, families))


def namespace(runtime: Any, name: str) -> Namespace:
    families: dict[str, Callable[..., None]] = {}
    families.update({function: _pointwise for function in POINTWISE})
    families.update({function: _reducing for function in REDUCING})
    families.update({function: _copying for function in COPYING})
    families.update(SIZED)
    members: dict[str, Any] = _functions(np, families)
    members.update({"matmul": _matmul, "dot": _dot, "append": _append,
                    "poly1d": BuiltinType(Polynomial, Polynomial),
                    "ndenumerate": BuiltinType(NdEnumerate, NdEnumerate)})
    members.update({dtype: ScalarType(getattr(np, dtype)) for dtype in DTYPES})
    members.update({"float_": ScalarType(np.float64), "int_": ScalarType(np.int64),
                    "pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan, "newaxis": None,
                    "euler_gamma": np.euler_gamma,
                    "ndarray": BuiltinType(NumpyArray, members["array"]),
                    "dtype": lambda spec: wrap(np.dtype(unwrap_all((), {"dtype": spec})[1][
                        "dtype"]))})
    members.update({key: Refused(f"numpy.{key}()" if key not in ("lib", "ctypeslib", "testing")
                                 else f"numpy.{key}", reason)
                    for key, reason in REFUSED.items()})
    members.update({"set_printoptions": numpy_printing.set_printoptions,
                    "get_printoptions": numpy_printing.get_printoptions,
                    "printoptions": numpy_printing.PrintOptions})
    members["linalg"] = _linalg()
    members["fft"] = _fft_namespace()
    members["random"] = numpy_random.namespace(runtime)
    return Namespace(name, members)
