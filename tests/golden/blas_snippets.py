"""Cases for the products, vector functions and LAPACK routines (LU solves, SVD) PyTorch's CPU
build sends to MKL, written
against a `torch` namespace so that real torch (make_blas_cases.py) and agraph's engine
(tests/test_engine_blas.py) run the same code. Inputs come from a seeded torch.Generator,
which agraph reproduces bit for bit; each case gives the tensors whose bytes must agree.
"""

from collections.abc import Callable
from typing import Any

THREADS = 2  # both sides run MKL on this many threads (a long dot product splits by it)
PRODUCTS = [(1, 5, 7), (3, 5, 7), (4, 12, 16), (10, 64, 100), (64, 1000, 100), (64, 100, 10),
            (20, 300, 300), (2000, 3, 1), (17, 33, 9), (300, 300, 1), (1, 300, 300)]
VECTOR_FUNCTIONS = {"sin": (-10, 10), "cos": (-10, 10), "tan": (-1.5, 1.5), "tanh": (-5, 5),
                    "exp": (-20, 20), "log": (0.001, 100), "log2": (0.001, 100),
                    "log10": (0.001, 100), "sqrt": (0, 100), "erf": (-3, 3), "asin": (-1, 1),
                    "acos": (-1, 1), "atan": (-10, 10)}
CASES: dict[str, Callable[[Any], list[Any]]] = {}


def _case(name: str, function: Callable[[Any], list[Any]]) -> None:
    CASES[name] = function


def _randn(torch: Any, seed: int, *shape: int, dtype: Any) -> Any:
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=generator, dtype=dtype)


def _products(m: int, k: int, n: int, dtype_name: str) -> None:
    def run(torch: Any) -> list[Any]:
        dtype = getattr(torch, dtype_name)
        a = _randn(torch, 1, m, k, dtype=dtype)
        b = _randn(torch, 2, k, n, dtype=dtype)
        bias = _randn(torch, 3, n, dtype=dtype)
        a_columns = _randn(torch, 1, k, m, dtype=dtype).t()  # stored column by column
        b_columns = _randn(torch, 2, n, k, dtype=dtype).t()
        x = a.clone().requires_grad_(True)
        w = _randn(torch, 4, n, k, dtype=dtype).requires_grad_(True)  # nn.Linear's weight
        y = torch.addmm(bias, x, w.t())
        (y * y).sum().backward()
        return [a @ b, a_columns @ b, a @ b_columns, a_columns @ b_columns,
                torch.addmm(bias, a, b), y, x.grad, w.grad]
    _case(f"mm_{m}x{k}x{n}_{dtype_name}", run)


def _vectors(n: int, dtype_name: str) -> None:
    def run(torch: Any) -> list[Any]:
        dtype = getattr(torch, dtype_name)
        a = _randn(torch, 5, n, dtype=dtype)
        b = _randn(torch, 6, n, dtype=dtype)
        matrix = _randn(torch, 7, 7, n, dtype=dtype)
        return [torch.dot(a, b), matrix @ a, matrix.t().contiguous().t() @ a, a @ matrix.t()]
    _case(f"dot_mv_{n}_{dtype_name}", run)


def _batched(batch: int, m: int, k: int, n: int) -> None:
    def run(torch: Any) -> list[Any]:
        a = _randn(torch, 8, batch, m, k, dtype=torch.float32)
        b = _randn(torch, 9, batch, k, n, dtype=torch.float32)
        c = _randn(torch, 10, k, n, dtype=torch.float32)
        return [torch.bmm(a, b), a @ c, torch.matmul(a, b.transpose(1, 2).contiguous()
                                                     .transpose(1, 2))]
    _case(f"bmm_{batch}x{m}x{k}x{n}", run)


def _vector_function(name: str, low: float, high: float, dtype_name: str) -> None:
    def run(torch: Any) -> list[Any]:
        dtype = getattr(torch, dtype_name)
        generator = torch.Generator().manual_seed(11)
        out = []
        for n in (1, 17, 5000):
            x = torch.rand(n, generator=generator, dtype=dtype) * (high - low) + low
            out.append(getattr(torch, name)(x))
        return out
    _case(f"{name}_{dtype_name}", run)


def _lapack(m: int, n: int, dtype_name: str) -> None:
    """getrf + getrs (inverse, solve) for a square m x m, gesdd (svd with 'A' and 'S',
    svdvals with 'N') and the pseudo-inverse built on it for an m x n matrix."""
    def run(torch: Any) -> list[Any]:
        dtype = getattr(torch, dtype_name)
        square = _randn(torch, 12, 2, m, m, dtype=dtype)
        b = _randn(torch, 13, 2, m, 3, dtype=dtype)
        a = _randn(torch, 14, m, n, dtype=dtype)
        return [torch.inverse(square[0]), torch.linalg.inv(square), torch.linalg.solve(square, b),
                torch.linalg.solve(square[1], b[1, :, 0]), *torch.linalg.svd(a),
                *torch.linalg.svd(a, full_matrices=False), torch.linalg.svdvals(a),
                torch.pinverse(a), *torch.linalg.svd(square), torch.linalg.svdvals(square)]
    _case(f"lapack_{m}x{n}_{dtype_name}", run)


for _dtype in ("float32", "float64"):
    for _shape in ((1, 1), (2, 3), (5, 5), (7, 4), (33, 20)):
        _lapack(*_shape, _dtype)
    for _shape in PRODUCTS:
        _products(*_shape, _dtype)
    for _n in (3, 17, 5000, 8192, 20000):
        _vectors(_n, _dtype)
    for _name, (_low, _high) in VECTOR_FUNCTIONS.items():
        _vector_function(_name, _low, _high, _dtype)
for _shape in ((2, 3, 4, 5), (3, 10, 10, 10), (4, 16, 32, 16), (3, 64, 100, 10), (8, 5, 5, 64),
               (8, 5, 64, 5)):  # the last two: a Transformer's attention, 8 heads
    _batched(*_shape)
