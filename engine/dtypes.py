"""PyTorch's dtypes over numpy's, and PyTorch's type-promotion rules."""

from __future__ import annotations

import warnings

import numpy as np


class DType:
    """`torch.float32` and friends: a name, a numpy dtype and a category."""

    PUBLIC_ATTRS = frozenset({"is_floating_point", "itemsize", "is_complex", "is_signed"})

    def __init__(self, name: str, np_dtype: type, legacy_name: str) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self.legacy_name = legacy_name  # torch.FloatTensor, as error messages spell it
        self.is_floating_point = self.np.kind == "f"
        self.is_complex = False
        self.is_signed = self.np.kind in "fi"
        self.itemsize = self.np.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    @property
    def category(self) -> int:
        """0 bool, 1 integer, 2 floating point: the order in which PyTorch promotes."""
        return 2 if self.is_floating_point else 0 if self.np.kind == "b" else 1


DType.__name__ = DType.__qualname__ = "dtype"  # torch.dtype, as a program sees the class

float16 = DType("float16", np.float16, "HalfTensor")
float32 = DType("float32", np.float32, "FloatTensor")
float64 = DType("float64", np.float64, "DoubleTensor")
int8 = DType("int8", np.int8, "CharTensor")
uint8 = DType("uint8", np.uint8, "ByteTensor")
int16 = DType("int16", np.int16, "ShortTensor")
int32 = DType("int32", np.int32, "IntTensor")
int64 = DType("int64", np.int64, "LongTensor")
bool_ = DType("bool", np.bool_, "BoolTensor")

ALL = (float16, float32, float64, int8, uint8, int16, int32, int64, bool_)
_BY_NUMPY = {d.np: d for d in ALL}

# The names torch binds to dtypes: torch.float, torch.double, torch.long, ...
TORCH_NAMES: dict[str, DType] = {
    "float16": float16, "half": float16,
    "float32": float32, "float": float32,
    "float64": float64, "double": float64,
    "int8": int8, "uint8": uint8, "int16": int16, "short": int16,
    "int32": int32, "int": int32,
    "int64": int64, "long": int64,
    "bool": bool_,
}


# torch.FloatTensor, torch.LongTensor, ...: the constructor objects a program can hand to
# `Tensor.type(...)`, each with its dtype (engine/creation.py registers them).
LEGACY_TYPES: list[tuple[object, DType]] = []


def of_legacy_type(kind: object) -> DType | None:
    """The dtype `tensor.type(kind)` converts to, for torch.LongTensor or 'torch.LongTensor'."""
    if isinstance(kind, str):
        return next((d for d in ALL if kind == f"torch.{d.legacy_name}"), None)
    return next((d for constructor, d in LEGACY_TYPES if constructor is kind), None)


def type_target(kind: object, tensor_class: type) -> DType:
    """What `tensor.type(kind)` converts to: a dtype, torch.Tensor itself (`x.type(type(y))`:
    the default type), torch.LongTensor or 'torch.LongTensor'; anything else is refused."""
    if isinstance(kind, DType):
        return kind
    found = default_float() if kind is tensor_class else of_legacy_type(kind)
    if found is None:
        name = kind if isinstance(kind, str) else getattr(kind, "__name__", kind)
        raise ValueError(f"invalid type: '{name}'")
    return found


# torch.set_default_dtype's choice for this run (None: float32); whether this run was warned
# that set_default_tensor_type is deprecated (PyTorch warns once)
_DEFAULT: dict[str, DType | None] = {"float": None}
_WARNED: set[str] = set()


def reset() -> None:
    """A run's start: float32 by default, no warning given yet."""
    _DEFAULT["float"] = None
    _WARNED.clear()


def default_float() -> DType:
    """torch.get_default_dtype(): the dtype of float data given without one."""
    return _DEFAULT["float"] or float32


def set_default_float(dtype: object) -> None:
    """torch.set_default_dtype (engine/api.py resets it to float32 for each run)."""
    chosen = resolve(dtype)
    if not chosen.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _DEFAULT["float"] = chosen


def set_default_tensor_type(kind: object) -> None:
    """torch.set_default_tensor_type (deprecated): a legacy float type, as a class or a name."""
    if "set_default_tensor_type" not in _WARNED:
        _WARNED.add("set_default_tensor_type")
        warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please "
                      "use torch.set_default_dtype() and torch.set_default_device() as "
                      "alternatives.", UserWarning, stacklevel=2)
    chosen = of_legacy_type(kind)
    if chosen is None:
        raise TypeError(f"invalid type: '{kind}'" if isinstance(kind, str) else
                        f"invalid type: {kind!r}")
    if not chosen.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _DEFAULT["float"] = chosen


def promote_types(type1: object, type2: object) -> DType:
    return promote(resolve(type1), resolve(type2))


def can_cast(from_: object, to: object) -> bool:
    """torch.can_cast: no float to an integer type, nothing but bool to bool."""
    source, target = resolve(from_), resolve(to)
    if source.is_floating_point and not target.is_floating_point:
        return False
    return source is bool_ or target is not bool_


def of_array(array: np.ndarray | np.generic) -> DType:
    """The dtype of a numpy array, or of one of its elements."""
    return _BY_NUMPY[array.dtype]


def resolve(dtype: object) -> DType:
    """Accept what torch accepts as `dtype=`: a torch dtype, or the python types float/int/bool."""
    if isinstance(dtype, DType):
        return dtype
    if dtype is float:
        return float64
    if dtype is int:
        return int64
    if dtype is bool:
        return bool_
    raise TypeError(f"dtype must be torch.dtype, not {type(dtype).__name__}")


def of_python_scalar(value: object) -> DType:
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    return default_float()


def promote(a: DType, b: DType) -> DType:
    """torch.promote_types for the dtypes we have."""
    if a is b:
        return a
    if a.category != b.category:
        return a if a.category > b.category else b
    return _BY_NUMPY[np.promote_types(a.np, b.np)]


def result_type(operands: list[tuple[DType, int]], scalars: list[object]) -> DType:
    """PyTorch's result dtype: operands are (dtype, ndim) of tensors, scalars are python numbers.

    Dimensioned tensors win over zero-dim tensors, which win over python scalars, unless a
    lower-priority operand is of a higher category (bool < int < float): then its category
    decides (a python float with an int tensor gives the default float dtype).
    """
    dim_result: DType | None = None
    zero_dim_result: DType | None = None
    for dtype, ndim in operands:
        if ndim > 0:
            dim_result = dtype if dim_result is None else promote(dim_result, dtype)
        else:
            zero_dim_result = dtype if zero_dim_result is None else promote(zero_dim_result, dtype)
    result = dim_result
    if zero_dim_result is not None:
        if result is None or zero_dim_result.category > result.category:
            result = zero_dim_result
    for scalar in scalars:
        scalar_type = of_python_scalar(scalar)
        if result is None:
            result = scalar_type
        elif scalar_type.category > result.category:
            result = default_float() if scalar_type.category == 2 else scalar_type
    assert result is not None
    return result


def scalar_name(dtype: DType) -> str:
    """PyTorch's name of the scalar type ('Float', 'Long'), as its messages spell it."""
    return dtype.legacy_name.removesuffix("Tensor")


class FInfo:
    """torch.finfo(dtype): the limits of a floating point dtype (its repr is torch's %g text)."""

    PUBLIC_ATTRS = frozenset({"bits", "eps", "max", "min", "tiny", "smallest_normal",
                              "resolution", "dtype"})
    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")

    def __init__(self, dtype: DType) -> None:
        info = np.finfo(dtype.np)
        self.bits, self.dtype = int(info.bits), dtype.name
        self.eps, self.max, self.min = float(info.eps), float(info.max), float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -int(info.precision)

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class IInfo:
    """torch.iinfo(dtype): the limits of an integer dtype."""

    PUBLIC_ATTRS = frozenset({"bits", "max", "min", "dtype"})
    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, dtype: DType) -> None:
        info = np.iinfo(dtype.np.name)
        self.bits, self.max, self.min, self.dtype = int(info.bits), int(info.max), int(
            info.min), dtype.name

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def finfo(type: object = None) -> FInfo:  # noqa: A002 - torch's keyword
    dtype = default_float() if type is None else resolve(type)
    if not dtype.is_floating_point:
        raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo "
                        "to handle 'torch.finfo'")
    return FInfo(dtype)


def iinfo(type: object) -> IInfo:  # noqa: A002 - torch's keyword
    dtype = resolve(type)
    if dtype.is_floating_point or dtype is bool_:
        raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                        "handle 'torch.iinfo'")
    return IInfo(dtype)
