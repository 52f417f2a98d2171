"""Regenerate printing_cases.json: what real PyTorch prints for a few hundred tensors.

Needs torch 2.13 (CPU), which agraph itself never imports; run it from a scratch venv:

    $TORCH_PYTHON tests/golden/make_printing_cases.py

Each case holds its input (nested lists as ``tolist()`` gives them, with nan and infinities as
the strings "nan", "inf", "-inf", plus shape, dtype, flags and print options) and torch's text.
tests/test_printing.py replays them against engine/printing.py. The output is deterministic.
"""

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import torch

OUTPUT = Path(__file__).with_name("printing_cases.json")
rng = np.random.default_rng(20240613)
cases: list[dict[str, Any]] = []

# Ops that keep every value (nan and -0. too) and give the result a grad_fn of their own.
GRAD_FN_OPS = {
    "clone": lambda leaf: leaf.clone(),
    "mul": lambda leaf: leaf * 1,
    "view": lambda leaf: leaf.view(leaf.shape),
    "expand": lambda leaf: leaf.expand(leaf.shape),
    "squeeze": lambda leaf: leaf.unsqueeze(0).squeeze(0),
    "as_strided": lambda leaf: leaf.as_strided(leaf.shape, leaf.stride()),
}


def encode(value: Any, scalar_type: type) -> Any:
    """tolist() data for JSON; a float32/float16 value as its shortest text (it reads back
    to the same value, checked in add) to keep the file small."""
    if isinstance(value, list):
        return [encode(item, scalar_type) for item in value]
    if isinstance(value, float):
        return float(str(scalar_type(value))) if math.isfinite(value) else str(value)
    return value


def decode(value: Any) -> Any:
    if isinstance(value, list):
        return [decode(item) for item in value]
    return float(value) if isinstance(value, str) else value


def encode_array(array: np.ndarray) -> Any:
    data = encode(array.tolist(), array.dtype.type)
    assert np.array(decode(data), dtype=array.dtype).tobytes() == array.tobytes()
    return data


def add(
    name: str,
    array: Any,
    dtype: str = "float32",
    *,
    requires_grad: bool = False,
    grad_fn_op: str | None = None,
    parameter: bool = False,
    options: dict[str, Any] | None = None,
) -> None:
    array = np.asarray(array, dtype=dtype)
    tensor = torch.from_numpy(array.copy())
    if grad_fn_op is not None:
        tensor = GRAD_FN_OPS[grad_fn_op](tensor.requires_grad_())
        assert tensor.detach().numpy().tobytes() == array.tobytes()
    elif parameter:
        tensor = torch.nn.Parameter(tensor, requires_grad=requires_grad)
    elif requires_grad:
        tensor.requires_grad_()
    grad_fn_name = type(tensor.grad_fn).__name__ if tensor.grad_fn is not None else None
    if options:
        torch.set_printoptions(**options)
    try:
        expected = repr(tensor)
        assert str(tensor) == expected
    finally:
        torch.set_printoptions(profile="default")
    cases.append({
        "name": name,
        "kind": "repr",
        "data": encode_array(array),
        "shape": list(array.shape),
        "dtype": dtype,
        "requires_grad": tensor.requires_grad,
        "grad_fn_name": grad_fn_name,
        "is_parameter": parameter,
        "options": options,
        "expected": expected,
    })


def add_format(name: str, value: Any, dtype: str, spec: str) -> None:
    array = np.asarray(value, dtype=dtype)
    tensor = torch.from_numpy(array.copy())
    expected: str | None = None
    error: str | None = None
    try:
        expected = format(tensor, spec)
    except (TypeError, ValueError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    cases.append({
        "name": name,
        "kind": "format",
        "data": encode_array(array),
        "shape": list(array.shape),
        "dtype": dtype,
        "spec": spec,
        "expected": expected,
        "error": error,
    })


nan, inf = math.nan, math.inf

# 0-dim tensors
for index, value in enumerate([2.5, 5.0, 0.0, -0.0, nan, inf, -inf, 1e-5, 1e10, 0.1, 123456.789,
                               -3.14159, 1e8, 1.5e8, 9.05, 1e-4, 12.0, -1.0, 3e38]):
    add(f"scalar_float32_{index}", value)
for index, value in enumerate([0.1, 1 / 3, 1e-300, 1e300, -2.0, 5.0, nan]):
    add(f"scalar_float64_{index}", value, "float64")
for index, value in enumerate([0, -7, 123456789012, 2**62]):
    add(f"scalar_int64_{index}", value, "int64")
add("scalar_int32", -12, "int32")
add("scalar_bool_true", True, "bool")
add("scalar_bool_false", False, "bool")
add("scalar_float16", 0.1, "float16")
add("scalar_grad_fn", 12.0, grad_fn_op="mul")
add("scalar_nan_grad_fn", nan, grad_fn_op="clone")
add("scalar_requires_grad", -4.5, requires_grad=True)
add("scalar_float64_grad_fn", 5.0, "float64", grad_fn_op="clone")
add("scalar_float64_requires_grad", 5.0, "float64", requires_grad=True)

# 1-d tensors: formatter choices
vectors_1d: dict[str, list[Any]] = {
    "one": [5.0],
    "two_ints": [1.0, 2.0],
    "halves": [1.5, 2.5, 3.5],
    "mixed_sign": [1.0, 0.0, -2.0],
    "neg_zero": [-0.0, 0.0, 1.0],
    "only_zeros": [0.0, -0.0],
    "all_zero": [0.0, 0.0, 0.0],
    "nan": [nan],
    "inf_pair": [inf, -inf],
    "int_nan": [1.0, nan],
    "frac_nan_inf": [1.5, nan, -inf],
    "log_like": [-inf, 0.0, nan, 0.6931],
    "sqrt_like": [inf, 0.5, 0.25],
    "inf_frac": [inf, 1.0, -1.0, 0.5],
    "nan_frac": [nan, 0.1667],
    "tiny": [1e-5, 1.0],
    "large": [1e8, 1.0],
    "huge_single": [1e9],
    "index_put": [100, 1000, 1, 1101, 1, 1000, 100, 1000, 0, 110],
    "ratio_1000": [1.0, 1000.0],
    "ratio_1001": [1.0, 1001.0],
    "border_1e-4": [1e-4, 1.0],
    "int_sci": [1.0, 1e10],
    "neg_sci": [-1e-7, 3.0, -250.0],
    "sci_nan_inf": [1e-6, nan, inf, -inf, 0.0],
    "sci_neg_zero": [-0.0, 1e-9],
    "round_up": [0.99996, 9.99996, 99.99996],
    "long_ints": [123456.0, -7.0, 3.0],
    "exactly_1e8": [1e8, 3.0],
    "tenth": [0.1, 0.2, 0.3],
    "neg_tiny_fixed": [-0.00012, 0.5],
    "adam": [0.9858, -0.9238],
    "clamp": [-1.0, -1.0, -0.5, 0.0, 0.5, 1.0, 1.0],
    "max_float32": [3.4028234e38, -1.0],
}
for name, values in vectors_1d.items():
    add(f"vec_{name}", values)
add("vec_float64_third", [1 / 3, 2 / 3], "float64")
add("vec_float64_extremes", [1e-300, 1e300], "float64")
add("vec_float64_big_exponents", [1e100, -1e-100, 5.0], "float64")
add("vec_float64_border_1e-4", [1e-4, 1.0], "float64")
add("vec_float64_ints", [1.0, 2.0, 3.0], "float64")
add("vec_float16", [0.1, 1.5, -2.25, 1000.0], "float16")
add("vec_float16_int", [1.0, 2.0], "float16")
add("vec_int64", [1, 2], "int64")
add("vec_int64_neg", [-1, 100, 7], "int64")
add("vec_int64_wide", [10**12, -5, 0], "int64")
add("vec_int32", [1, -2, 300], "int32")
add("vec_int16", [1, -2, 300], "int16")
add("vec_int8", [1, -2, 100], "int8")
add("vec_uint8", [1, 2, 255], "uint8")
add("vec_bool", [True, False], "bool")
add("vec_bool_true", [True], "bool")
add("vec_bool_false", [False, False], "bool")

# Random values over many scales and shapes (1-d to 4-d)
shapes = [(4,), (7,), (2, 3), (3, 1), (1, 4), (2, 2, 2), (2, 3, 4), (1, 2, 1, 3), (2, 2, 2, 2),
          (2, 1, 3, 2), (3, 2, 2)]
for scale_index, scale in enumerate([1e-6, 1e-3, 1.0, 10.0, 1e3, 1e5, 1e9]):
    for shape in shapes[scale_index % 3::2]:
        values = rng.standard_normal(shape) * scale
        add(f"random_{scale:g}_{'x'.join(map(str, shape))}", values)
for shape in shapes[::2]:
    add(f"random_float64_{'x'.join(map(str, shape))}", rng.standard_normal(shape), "float64")
    add(f"random_int_valued_{'x'.join(map(str, shape))}",
        np.round(rng.standard_normal(shape) * 20))
    add(f"random_int64_{'x'.join(map(str, shape))}",
        rng.integers(-1000, 1000, size=shape), "int64")
    add(f"random_bool_{'x'.join(map(str, shape))}", rng.random(shape) > 0.5, "bool")
add("matrix_with_nan", [[1.0, nan], [-inf, 2.5]])
add("matrix_neg_zero", [[-0.0, 1.0], [2.0, -3.0]])
add("matrix_column", [[6.0], [22.0], [38.0]])
add("batch_3d", [[[7.84, 7.84], [9.16, 9.16]], [[69.76, 69.76], [73.96, 73.96]]])
add("int_4d", np.arange(24).reshape(2, 3, 2, 2), "int64")

# Empty tensors
for shape in [(0,), (0, 3), (3, 0), (2, 0, 4), (1, 0)]:
    for dtype in ["float32", "float64", "int64", "int32", "bool"]:
        add(f"empty_{'x'.join(map(str, shape))}_{dtype}", np.zeros(shape), dtype)
add("empty_requires_grad", np.zeros((0,)), requires_grad=True)
add("empty_2d_grad_fn", np.zeros((0, 3)), grad_fn_op="clone")
add("empty_float64_grad_fn", np.zeros((2, 0)), "float64", grad_fn_op="view")
add("empty_parameter", np.zeros((0,)), parameter=True, requires_grad=True)

# Rows wider than the line wrap at 80 columns, with continuation indent
add("wrap_arange_30", np.arange(30.0))
add("wrap_arange_30_neg", np.arange(-15.0, 15.0))
add("wrap_random_20", rng.standard_normal(20))
add("wrap_matrix_3x20", rng.standard_normal((3, 20)))
add("wrap_3d_2x2x15", rng.standard_normal((2, 2, 15)))
add("wrap_4d_2x1x2x13", np.round(rng.standard_normal((2, 1, 2, 13)) * 100))
add("wrap_int_50", np.arange(50) * 7, "int64")
add("wrap_bool_40", rng.random(40) > 0.5, "bool")
add("wrap_sci_12", rng.standard_normal(12) * 1e-6)
add("wrap_float64_16", rng.standard_normal(16), "float64")
add("wrap_float64_grad_fn_16", rng.standard_normal(16), "float64", grad_fn_op="clone")

# Suffixes that stay on the line or move to the next one, depending on the length so far
for length in range(1, 13):
    values = rng.standard_normal(length)
    add(f"suffix_grad_fn_{length}", values, grad_fn_op="expand")
    add(f"suffix_requires_grad_{length}", values, requires_grad=True)
    add(f"suffix_float64_grad_fn_{length}", values, "float64", grad_fn_op="as_strided")
    add(f"suffix_int32_{length}", np.arange(length) * 1111111, "int32")
for length in [8, 9, 10]:
    add(f"suffix_matrix_{length}", rng.standard_normal((2, length)), "float64",
        grad_fn_op="squeeze")

# More than `threshold` elements: summarized with "..." (values with few digits, for a small file)
def short_normal(shape: Any) -> np.ndarray:
    return np.round(rng.standard_normal(shape), 3)


add("summary_arange_1001", np.arange(1001.0))
add("summary_arange_2000_int", np.arange(2000), "int64")
add("summary_bool_1001", np.arange(1001) % 3 == 0, "bool")
add("summary_2d_40x30", short_normal((40, 30)))
add("summary_2d_2x600", short_normal((2, 600)))
add("summary_2d_600x2", short_normal((600, 2)))
add("summary_3d_12x10x10", short_normal((12, 10, 10)))
add("summary_3d_11x11x11_int", np.arange(1331).reshape(11, 11, 11), "int64")
add("summary_3d_2x3x200", np.arange(1200.0).reshape(2, 3, 200))
add("summary_4d_6x6x6x6", np.arange(1296.0).reshape(6, 6, 6, 6) / 8)
huge_middle = np.arange(2000.0)
huge_middle[1000] = 1e10
add("summary_hidden_huge", huge_middle)
nan_middle = np.arange(1500.0) / 1000 - 0.75
nan_middle[700] = nan
add("summary_hidden_nan", nan_middle)
add("summary_float64_grad_fn", short_normal(1200), "float64", grad_fn_op="clone")
add("summary_parameter", short_normal((50, 30)), parameter=True, requires_grad=True)

# Grad flags, float64 and parameters
add("grad_fn_mul", [6.0], grad_fn_op="mul")
add("grad_fn_matrix", [[0.7, -0.4, 6.1, 0.5], [0.5, -0.65, 1.6, 0.7]], grad_fn_op="clone")
add("requires_grad_matrix", [[1.1046]], requires_grad=True)
add("requires_grad_zero", [[0.0]], requires_grad=True)
add("float64_grad_fn", [1.0, 2.5], "float64", grad_fn_op="mul")
add("float64_requires_grad", [[1.0, 2.0], [3.0, 4.0]], "float64", requires_grad=True)
add("float16_grad_fn", [0.5, 1.0], "float16", grad_fn_op="clone")
add("parameter_row", [[0.7528, -0.0776]], parameter=True, requires_grad=True)
add("parameter_vec", [0.4273], parameter=True, requires_grad=True)
add("parameter_float64", [[1.5, 2.0]], "float64", parameter=True, requires_grad=True)
add("parameter_no_grad", [1.0, 2.0], parameter=True, requires_grad=False)
add("parameter_int", [1, 2], "int64", parameter=True, requires_grad=False)
add("parameter_scalar", 0.5, parameter=True, requires_grad=True)
add("parameter_3d", rng.standard_normal((2, 2, 3)), parameter=True, requires_grad=True)

# Print options
option_inputs = {
    "frac": [1.12345, -2.5, 0.001],
    "ints": [1.0, 2.0, 300.0],
    "tiny": [1e-6, 0.5],
    "huge": [1e10, 3.0],
    "mixed": [nan, 1e-5, -inf, 2.0],
    "matrix": [[1.12345, 22.5], [-3.75, 0.0625]],
    "zeros": [0.0, -0.0],
}
option_sets: dict[str, dict[str, Any]] = {
    "precision2": {"precision": 2},
    "precision0": {"precision": 0},
    "precision6": {"precision": 6},
    "sci_off": {"sci_mode": False},
    "sci_on": {"sci_mode": True},
    "short": {"profile": "short"},
    "precision2_sci_off": {"precision": 2, "sci_mode": False},
}
for option_name, options in option_sets.items():
    for input_name, values in option_inputs.items():
        add(f"options_{option_name}_{input_name}", values, options=options)
add("options_sci_on_int64", [1, 2], "int64", options={"sci_mode": True})
add("options_threshold5", np.arange(10), "int64", options={"threshold": 5})
add("options_threshold5_float", np.arange(10.0) / 3, options={"threshold": 5})
add("options_threshold0_scalar", 2.5, options={"threshold": 0})
add("options_edgeitems1", np.arange(20.0).reshape(4, 5), options={"threshold": 5, "edgeitems": 1})
add("options_edgeitems0", np.arange(10.0), options={"threshold": 5, "edgeitems": 0})
add("options_edgeitems0_2d", np.arange(20.0).reshape(4, 5),
    options={"threshold": 5, "edgeitems": 0}, grad_fn_op="clone")
add("options_edgeitems0_small", [1.0, 2.0], options={"edgeitems": 0})
add("options_linewidth40", rng.standard_normal(12), options={"linewidth": 40},
    grad_fn_op="clone")
add("options_linewidth40_matrix", rng.standard_normal((2, 8)), options={"linewidth": 40})
add("options_linewidth120", rng.standard_normal(20), options={"linewidth": 120},
    requires_grad=True)
add("options_linewidth5", [1.5, 2.5], options={"linewidth": 5})
add("options_short_summary", np.arange(1100.0), options={"profile": "short"})
add("options_full", np.arange(1100), "int64", options={"profile": "full"})
add("options_full_precision2", short_normal(1005), options={"profile": "full",
                                                                   "precision": 2})
add("options_edgeitems0_scalar", 2.5, options={"threshold": 0, "edgeitems": 0})
add("options_edgeitems0_3d", np.arange(24.0).reshape(2, 3, 4), options={"threshold": 5,
                                                                       "edgeitems": 0})
add("options_edgeitems_large", np.arange(30.0).reshape(5, 6), options={"threshold": 10,
                                                                      "edgeitems": 4})
add("options_edgeitems2_3d", np.arange(120.0).reshape(4, 5, 6) * 1e-5,
    options={"threshold": 10, "edgeitems": 2})
add("options_precision0_sci", [1e-6, 2.5e10], options={"precision": 0})
add("options_precision1_float16", [0.1, 1e-5], "float16", options={"precision": 1})
add("options_linewidth1_matrix", [[1.5, 2.5], [3.0, 4.0]], options={"linewidth": 1},
    grad_fn_op="clone")
add("options_default_after_precision", [1.12345], options={"profile": "default"})

# format(tensor, spec)
format_values = [("float32", 2.5), ("float32", 0.1), ("float32", -1234.5678), ("float32", nan),
                 ("float32", -inf), ("float64", 1 / 3), ("int64", 42), ("int64", -7),
                 ("bool", True), ("float16", 0.1)]
for dtype, value in format_values:
    for spec in [".4f", ".2e", ">10.3f", "d", "g", "", ".3g", "+.1f", "08.2f", "x"]:
        add_format(f"format_{dtype}_{value}_{spec}", value, dtype, spec)
add_format("format_vector_spec", [5.0], "float32", ".3f")
add_format("format_vector_empty_spec", [5.0], "float32", "")
add_format("format_matrix_empty_spec", [[1.5, 2.0]], "float64", "")
add_format("format_int_vector_spec", [1, 2], "int64", "d")

# One case per line: readable diffs without one line per number.
lines = ",\n".join(json.dumps(case) for case in cases)
OUTPUT.write_text(f'{{"torch": "{torch.__version__}", "cases": [\n{lines}\n]}}\n')
print(f"wrote {len(cases)} cases to {OUTPUT}")
