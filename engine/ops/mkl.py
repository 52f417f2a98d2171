"""PyTorch's CPU math library, Intel MKL 2024.2, called as torch 2.13 calls it.

torch's CPU build sends float matrix products to MKL (sgemm/dgemm, sgemv/dgemv, sdot) and
sin, cos, tan, tanh, exp, log, log2, log10, sqrt, erf, erfinv, asin, acos and atan of a float
tensor to MKL's vector math (VML, high-accuracy mode). Their results differ in the last bits from
numpy's OpenBLAS and libm, and a training loop that prints `loss.item()` shows it within a few
steps. The `mkl` wheel of the same version (a dependency of agraph on x86-64 Linux) gives
torch's bits exactly when called with torch's arguments:

- the product C = A @ B as ATen's `addmm_impl_cpu_` lays it out for a column-major BLAS:
  a row-major C is computed as C^T = B^T A^T; each operand passes as 'N' or 'T' by its
  memory layout (or as a contiguous copy); `addmm` starts C from the broadcast bias (beta 1);
- `mv` as ATen's `gemv`, `dot` of float32 vectors as `sdot`;
- MKL's threads: as many as torch takes (OMP_NUM_THREADS, then MKL_NUM_THREADS, else the
  machine's physical cores), dynamic adjustment off, as `at::set_num_threads` leaves it. How
  MKL splits a long dot product or a large product depends on that count, as in torch.

Without the library (another platform, or AGRAPH_NO_MKL=1) every function here returns None
and the callers use their numpy emulation of the same orders (gemm_order, dot_order).
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from typing import Any

import numpy as np

from engine.threads import torch_threads

try:  # the gemm call without ctypes (engine/ops/mkl_gemm.c); optional, built with a C compiler
    from engine.ops._mkl_gemm import gemm as compiled_gemm
except ImportError:  # pragma: no cover - ctypes makes the same call
    compiled_gemm = None

LIBRARY = "libmkl_rt.so.2"
INTEL_THREADS = 0  # MKL_Set_Threading_Layer: the OpenMP runtime the wheel ships
VML_DOMAIN = 3  # MKL_DOMAIN_VML: vector functions are elementwise, one thread gives the same bits
VML_MODE = 0x2 | 0x140000 | 0x100  # VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE, as ATen's vml.h
VML_NAMES = {"sin": "Sin", "cos": "Cos", "tan": "Tan", "tanh": "Tanh", "exp": "Exp",
             "log": "Ln", "log2": "Log2", "log10": "Log10", "sqrt": "Sqrt", "erf": "Erf",
             "asin": "Asin", "acos": "Acos", "atan": "Atan", "erfinv": "ErfInv"}
COLUMN_MAJOR, NO_TRANSPOSE, TRANSPOSE = 102, 111, 112  # CBLAS's enums
_INT, _SIZE, _POINTER = ctypes.c_int, ctypes.c_longlong, ctypes.c_void_p
_REAL: dict[np.dtype, tuple[str, Any]] = {np.dtype(np.float32): ("s", ctypes.c_float),
                                          np.dtype(np.float64): ("d", ctypes.c_double)}
FLOATS = tuple(_REAL)  # the dtypes MKL computes here


def _candidates() -> list[str]:
    places = [os.path.join(sys.prefix, "lib", LIBRARY)]
    try:
        from importlib import metadata  # lazy: only when the prefix does not hold it

        places += [str(f.locate()) for f in metadata.files("mkl") or () if f.name == LIBRARY]
    except Exception:  # noqa: BLE001 - no wheel, no metadata: no MKL
        pass
    return places


@functools.cache
def library() -> Any:
    """MKL, loaded and set up as torch leaves it; None where it is not installed."""
    if os.environ.get("AGRAPH_NO_MKL") or not sys.platform.startswith("linux"):
        return None
    # MKL's threads spin 1 ms after a product, not OpenMP's 200 ms: long enough for the next
    # product of a training step to find them awake (with 0 each one waited ~100 us for a
    # thread to wake), short enough not to compete with the numpy work between steps. Read
    # when its OpenMP runtime starts; the user's setting wins.
    os.environ.setdefault("KMP_BLOCKTIME", "1")
    for place in _candidates():
        if os.path.exists(place):
            try:
                mkl = ctypes.CDLL(place)
                mkl.MKL_Set_Threading_Layer(_INT(INTEL_THREADS))
                set_threads(torch_threads(), mkl)
                mkl.MKL_Domain_Set_Num_Threads(_INT(1), _INT(VML_DOMAIN))
                _declare(mkl)
            except (OSError, AttributeError):  # an incomplete installation: numpy's way
                continue
            return mkl
    return None


_GEMM: dict[np.dtype, Any] = {}  # dtype -> the typed MKL function, filled by _declare
_GEMM_ADDRESS: dict[np.dtype, int] = {}  # dtype -> where that function is, for compiled_gemm
_GEMM_BATCH: dict[np.dtype, Any] = {}  # the same for cblas_?gemm_batch_strided
_GEMV: dict[np.dtype, Any] = {}
_DOT: dict[np.dtype, Any] = {}


def _declare(mkl: Any) -> None:
    """Argument types of the functions called here (ctypes then converts without wrappers)."""
    for dtype, (letter, real) in _REAL.items():
        gemm = _GEMM[dtype] = getattr(mkl, f"cblas_{letter}gemm")
        gemm.argtypes = [_INT] * 6 + [real, _POINTER, _INT, _POINTER, _INT, real, _POINTER, _INT]
        gemm.restype = None
        _GEMM_ADDRESS[dtype] = ctypes.cast(gemm, ctypes.c_void_p).value or 0
        batch = _GEMM_BATCH[dtype] = getattr(mkl, f"cblas_{letter}gemm_batch_strided")
        batch.argtypes = ([_INT] * 6 + [real, _POINTER, _INT, _INT, _POINTER, _INT, _INT, real,
                                        _POINTER, _INT, _INT, _INT])
        batch.restype = None
        gemv = _GEMV[dtype] = getattr(mkl, f"cblas_{letter}gemv")
        gemv.argtypes = [_INT] * 4 + [real, _POINTER, _INT, _POINTER, _INT, real, _POINTER, _INT]
        gemv.restype = None
        dot = _DOT[dtype] = getattr(mkl, f"cblas_{letter}dot")
        dot.argtypes = [_INT, _POINTER, _INT, _POINTER, _INT]
        dot.restype = real
        for name in VML_NAMES.values():
            function = getattr(mkl, f"vm{letter}{name}")
            function.argtypes = [_SIZE, _POINTER, _POINTER, _SIZE]
            function.restype = None


def set_threads(count: int, mkl: Any = None) -> None:
    """torch.set_num_threads: MKL takes that many threads, dynamic adjustment off."""
    mkl = mkl or library()
    if mkl is not None:
        mkl.MKL_Set_Num_Threads(_INT(count))
        mkl.MKL_Set_Dynamic(_INT(0))


def vml(name: str, a: np.ndarray) -> np.ndarray | None:
    """MKL's vector function `name` of a float array, or None without MKL."""
    mkl = library()
    if mkl is None or a.dtype not in _REAL or name not in VML_NAMES:
        return None
    source = np.asarray(a, order="C")
    out = np.empty_like(source)
    if source.size:
        function = getattr(mkl, f"vm{_REAL[a.dtype][0]}{VML_NAMES[name]}")
        function(source.size, source.ctypes.data, out.ctypes.data, VML_MODE)
    return out


def _operand(x: np.ndarray, rows: int, depth: int, swapped: bool) -> tuple[int, np.ndarray, int]:
    """How ATen passes the rows x depth matrix `x` to a column-major BLAS: ('N', memory, ld)
    when it is column-major, ('T', ...) when row-major, else a contiguous copy of the tensor
    it came from (`x` itself, or its transpose when the product was swapped)."""
    size = x.itemsize
    s0, s1 = x.strides
    if s0 % size == 0 and s1 % size == 0:
        s0, s1 = s0 // size, s1 // size
        if s0 == 1 and s1 >= rows and s1 >= 1:
            return NO_TRANSPOSE, x, s1
        if s1 == 1 and s0 >= depth and s0 >= 1:
            return TRANSPOSE, x, s0
    if swapped:
        return NO_TRANSPOSE, np.asfortranarray(x), max(1, rows)
    return TRANSPOSE, np.asarray(x, order="C"), max(1, depth)


def gemm(a: np.ndarray, b: np.ndarray, bias: np.ndarray | None = None, alpha: float = 1.0,
         beta: float = 1.0) -> np.ndarray | None:
    """`beta * bias + alpha * a @ b` (bias broadcast to the result, or none) for 2-D arrays of
    one float dtype, as torch computes it (MKL scales inside the product); None without MKL."""
    product = _GEMM.get(a.dtype) if library() is not None else None  # filled on loading
    if product is None or b.dtype != a.dtype or a.ndim != 2 or b.ndim != 2:
        return None
    m, k = a.shape
    n = b.shape[1]
    if bias is None:  # beta 0: MKL writes every entry without reading it
        out = np.zeros((m, n), dtype=a.dtype) if k == 0 else np.empty((m, n), dtype=a.dtype)
    else:
        out = np.empty((m, n), dtype=a.dtype)
        out[...] = bias  # broadcast, in a's dtype
    if m == 0 or n == 0 or k == 0:
        return out
    swapped = n != 1  # a one-column result is column-major already: C = A B as is;
    if swapped:  # else the row-major C is computed as its transpose, C^T = B^T A^T
        rows, cols, first, second, ldc = n, m, b.T, a.T, n
    else:
        rows, cols, first, second, ldc = m, n, a, b, m
    trans_a, mem_a, lda = _operand(first, rows, k, swapped)
    trans_b, mem_b, ldb = _operand(second, k, cols, swapped)
    if compiled_gemm is not None:
        compiled_gemm(_GEMM_ADDRESS[a.dtype], trans_a, trans_b, rows, cols, k, alpha, mem_a, lda,
                      mem_b, ldb, 0.0 if bias is None else beta, out, ldc)
        return out
    product(
        COLUMN_MAJOR, trans_a, trans_b, rows, cols, k, alpha, address(mem_a), lda,
        address(mem_b), ldb, 0.0 if bias is None else beta, address(out), ldc)
    return out


def gemm_batch(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """`a @ b` for batches (batch, m, k) and (batch, k, n) of one float dtype as ATen's bmm
    computes them with MKL: one cblas_?gemm_batch_strided call over the batch, whose kernels
    round some small products differently from one gemm per matrix. None without MKL, or
    when an operand's matrices are neither row- nor column-major (ATen then runs one gemm per
    matrix)."""
    product = _GEMM_BATCH.get(a.dtype) if library() is not None else None
    if product is None or b.dtype != a.dtype or a.ndim != 3 or b.ndim != 3 or len(a) != len(b):
        return None
    count, m, k = a.shape
    n = b.shape[2]
    operand_a, operand_b = _batch_operand(a), _batch_operand(b)
    if operand_a is None or operand_b is None:
        return None
    out = np.zeros((count, m, n), dtype=a.dtype)
    if not (count and m and n and k):
        return out
    # column-major, so C^T = B^T A^T: b first, then a, as ATen's baddbmm_with_gemm_
    (trans_b, ldb, stride_b), (trans_a, lda, stride_a) = operand_b, operand_a
    product(COLUMN_MAJOR, trans_b, trans_a, n, m, k, 1.0, address(b), ldb, stride_b,
            address(a), lda, stride_a, 0.0, address(out), n, m * n, count)
    return out


def _batch_operand(x: np.ndarray) -> tuple[int, int, int] | None:
    """How ATen hands one operand of a batched product to MKL (transpose flag, leading
    dimension, batch stride, in elements; a broadcast batch keeps its stride 0): 'T' when
    each matrix is column-major, 'N' when row-major; None when neither."""
    size = x.itemsize
    if any(s % size or s < 0 for s in x.strides):
        return None
    s0, s1, s2 = (s // size for s in x.strides)
    rows, columns = x.shape[1:]
    if s1 == 1 and s2 >= max(1, rows):
        return TRANSPOSE, s2, s0
    if s2 == 1 and s1 >= max(1, columns):
        return NO_TRANSPOSE, s1, s0
    return None


_BYTE = ctypes.c_char * 1


def address(x: np.ndarray) -> int:
    """Where the first element of a C- or Fortran-contiguous array is: a ctypes view of its
    buffer gives it three times faster than `x.ctypes.data` (a product makes three)."""
    try:
        return ctypes.addressof(_BYTE.from_buffer(x if x.flags.c_contiguous else x.T))  # type: ignore[arg-type]
    except (TypeError, ValueError, BufferError):  # read-only, or empty
        return x.ctypes.data  # type: ignore[no-any-return]


def gemv(a: np.ndarray, v: np.ndarray, start: np.ndarray | None = None, alpha: float = 1.0,
         beta: float = 0.0) -> np.ndarray | None:
    """`beta * start + alpha * a @ v` for a 2-D `a` and a 1-D `v` of one float dtype (start: the
    result's first values, written over), as ATen's gemv; None without MKL."""
    mkl = library()
    if mkl is None or a.dtype not in _REAL or v.dtype != a.dtype:
        return None
    m, k = a.shape
    out = np.zeros(m, dtype=a.dtype) if start is None else start
    if m == 0 or k == 0:
        return out * a.dtype.type(beta) if start is not None and beta != 0 else np.zeros(
            m, dtype=a.dtype)
    size = a.itemsize
    s0, s1 = a.strides[0] // size, a.strides[1] // size
    if a.strides[0] % size == 0 and s0 == 1 and s1 >= max(1, m):  # column-major a
        trans, memory, rows, cols, lda = NO_TRANSPOSE, a, m, k, s1
    elif a.strides[1] % size == 0 and s1 == 1 and s0 >= max(1, k):  # row-major: a^T's 'T'
        trans, memory, rows, cols, lda = TRANSPOSE, a, k, m, s0
    else:
        memory = np.asarray(a, order="C")
        trans, rows, cols, lda = TRANSPOSE, k, m, max(1, k)
    vector = np.asarray(v, order="C")
    _GEMV[a.dtype](
        COLUMN_MAJOR, trans, rows, cols, alpha, memory.ctypes.data, lda, vector.ctypes.data, 1,
        beta if start is not None else 0.0, out.ctypes.data, 1)
    return out


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """`torch.dot` of two float vectors of one dtype as a 0-d array; None without MKL."""
    mkl = library()
    if mkl is None or a.dtype not in _REAL or b.dtype != a.dtype:
        return None
    left, right = np.asarray(a, order="C"), np.asarray(b, order="C")
    value = _DOT[a.dtype](
        a.shape[0], left.ctypes.data, 1, right.ctypes.data, 1)
    return np.asarray(value, dtype=a.dtype)


def qr(a: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The reduced QR factorisation of a 2-D float array as torch.linalg.qr computes it on the
    CPU: LAPACK's geqrf on a column-major copy, R the upper triangle of its first min(m, n)
    rows, Q from orgqr on the reflectors; each call's workspace the size LAPACK asks for in a
    first query call, as ATen's apply_geqrf / apply_orgqr. None without MKL."""
    mkl = library()
    if mkl is None or a.dtype not in _REAL or a.ndim != 2:
        return None
    letter = _REAL[a.dtype][0]
    m, n = a.shape
    k = min(m, n)
    factored = np.array(a, order="F", copy=True)
    tau = np.zeros(max(k, 1), dtype=a.dtype)
    _lapack(getattr(mkl, f"{letter}geqrf_"), (m, n), factored, m, tau)
    q = np.array(factored[:, :k], order="F", copy=True)
    _lapack(getattr(mkl, f"{letter}orgqr_"), (m, k, k), q, m, tau)
    return q, np.triu(factored[:k])


def _lapack(function: Any, sizes: tuple[int, ...], matrix: np.ndarray, lda: int,
            tau: np.ndarray) -> None:
    """A Fortran LAPACK call (sizes..., A, lda, tau, work, lwork, info): a workspace query
    (lwork -1), then the call with the workspace it asked for."""
    if not matrix.size:
        return
    info = _INT(0)

    def call(work: np.ndarray, lwork: int) -> None:
        function(*(ctypes.byref(_INT(s)) for s in sizes), _POINTER(matrix.ctypes.data),
                 ctypes.byref(_INT(max(1, lda))), _POINTER(tau.ctypes.data),
                 _POINTER(work.ctypes.data), ctypes.byref(_INT(lwork)), ctypes.byref(info))

    query = np.zeros(1, dtype=matrix.dtype)
    call(query, -1)
    work = np.zeros(max(1, int(query[0])), dtype=matrix.dtype)
    call(work, work.size)


def column_major_batch(x: np.ndarray) -> np.ndarray:
    """A copy of a batch of matrices laid out as ATen's cloneBatchedColumnMajor leaves it: each
    matrix column-major, one after another, in a buffer 64-byte aligned as torch's CPU
    allocator gives. MKL's kernels take paths by alignment: the second 17 x 17 float matrix of
    a batch starts 1156 bytes in, and its LU differs in the last bits from a lone one's."""
    out = _aligned_columns(x.shape, x.dtype)
    out[...] = x
    return out


def _aligned_columns(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Zeros of `shape`, a batch of column-major matrices (a vector, for a 1-D shape) in a
    64-byte aligned buffer: where ATen's LAPACK calls read and write."""
    count = int(np.prod(shape))
    raw = np.zeros(max(1, count) * dtype.itemsize + 64, dtype=np.uint8)
    start = -raw.ctypes.data % 64
    memory = raw[start:start + count * dtype.itemsize].view(dtype)
    if len(shape) < 2:
        return memory.reshape(shape)
    return memory.reshape(shape[:-2] + (shape[-1], shape[-2])).swapaxes(-1, -2)


def lu_solve(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """X with A X = B for batches of square float matrices A (..., n, n) and right-hand sides
    B (..., n, k) of A's dtype and batch, as ATen's linalg_solve (and linalg_inv, B the
    identity) computes it on the CPU: LAPACK's getrf on each A of a column-major copy of the
    batch, then getrs on each B of a column-major copy of theirs, which becomes X (laid out
    as ATen leaves it: a sum over it adds in that order). None without MKL, and for a
    singular A (the caller reports it)."""
    mkl = library()
    if mkl is None or a.dtype not in _REAL or b.dtype != a.dtype:
        return None
    letter = _REAL[a.dtype][0]
    n, k = a.shape[-1], b.shape[-1]
    factored, solved = column_major_batch(a), column_major_batch(b)
    pivots = np.zeros(max(n, 1), dtype=np.int32)
    info, size, rhs = _INT(0), ctypes.byref(_INT(n)), ctypes.byref(_INT(k))
    lead = ctypes.byref(_INT(max(1, n)))
    if not (n and k):
        return solved
    for index in np.ndindex(a.shape[:-2]):
        lu, x = _POINTER(address_of(factored[index])), _POINTER(address_of(solved[index]))
        getattr(mkl, f"{letter}getrf_")(size, size, lu, lead, _POINTER(pivots.ctypes.data),
                                        ctypes.byref(info))
        if info.value != 0:
            return None
        getattr(mkl, f"{letter}getrs_")(ctypes.c_char_p(b"N"), size, rhs, lu, lead,
                                        _POINTER(pivots.ctypes.data), x, lead,
                                        ctypes.byref(info))
    return solved


def lu_factor(a: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """LAPACK's getrf of each matrix of a batch of square float matrices (..., n, n), on a
    column-major copy as ATen's linalg_lu_factor makes it: the LU factors (L's unit diagonal
    left out) and the 1-based pivot rows. A singular matrix is factored too (its U has a zero
    on the diagonal). None without MKL."""
    mkl = library()
    if mkl is None or a.dtype not in _REAL:
        return None
    letter = _REAL[a.dtype][0]
    n = a.shape[-1]
    factored = column_major_batch(a)
    pivots = np.zeros(a.shape[:-2] + (n,), dtype=np.int32)
    info, size, lead = _INT(0), ctypes.byref(_INT(n)), ctypes.byref(_INT(max(1, n)))
    if n:
        for index in np.ndindex(a.shape[:-2]):
            getattr(mkl, f"{letter}getrf_")(size, size, _POINTER(address_of(factored[index])),
                                            lead, _POINTER(pivots[index].ctypes.data),
                                            ctypes.byref(info))
    return factored, pivots


def address_of(matrix: np.ndarray) -> int:
    """The address of a matrix's first element (a view into a batch's buffer)."""
    return int(matrix.__array_interface__["data"][0])


def svd(a: np.ndarray, full_matrices: bool, vectors: bool = True
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """U, S, Vh of a batch of float matrices as ATen's linalg_svd computes them on the CPU:
    LAPACK's gesdd (jobz 'A' or 'S', or 'N' for the values alone, as linalg.svdvals) on a
    column-major copy of the batch, its workspace the size a first query call asks for; U
    and Vh column-major as ATen leaves them. None without MKL or when LAPACK fails."""
    mkl = library()
    if mkl is None or a.dtype not in _REAL:
        return None
    function = getattr(mkl, f"{_REAL[a.dtype][0]}gesdd_")
    m, n = a.shape[-2:]
    k = min(m, n)
    rows, cols = (m, n) if full_matrices else (k, k) if vectors else (1, 1)
    batch = a.shape[:-2]
    u = _aligned_columns(batch + (m if vectors else 1, rows), a.dtype)
    s = _aligned_columns(batch + (k, 1), a.dtype)[..., 0]  # each one's values contiguous
    vh = _aligned_columns(batch + (cols, n), a.dtype)
    if not a.size:
        return u, s, vh
    info, iwork = _INT(0), np.zeros(max(1, 8 * k), dtype=np.int32)
    jobz = ctypes.c_char_p(b"A" if full_matrices else b"S" if vectors else b"N")
    copy = column_major_batch(a)

    def call(index: tuple[int, ...], work: np.ndarray, lwork: int) -> None:
        function(jobz, ctypes.byref(_INT(m)), ctypes.byref(_INT(n)),
                 _POINTER(address_of(copy[index])), ctypes.byref(_INT(max(1, m))),
                 _POINTER(address_of(s[index])), _POINTER(address_of(u[index])),
                 ctypes.byref(_INT(u.shape[-2])), _POINTER(address_of(vh[index])),
                 ctypes.byref(_INT(max(1, cols))), _POINTER(work.ctypes.data),
                 ctypes.byref(_INT(lwork)), _POINTER(iwork.ctypes.data), ctypes.byref(info))

    first = (0,) * len(batch)
    query = np.zeros(1, dtype=a.dtype)
    call(first, query, -1)  # one workspace for the batch, as ATen's apply_svd
    work = _aligned_columns((max(1, int(query[0])),), a.dtype)
    for index in np.ndindex(batch):
        call(index, work, work.size)
        if info.value != 0:
            return None
    return u, s, vh
