"""Scaled dot-product attention as ATen's CPU flash kernel computes it (one node,
ScaledDotProductFlashAttentionForCpuBackward0), and _safe_softmax (SafeSoftmaxBackward0), the
softmax of SDPA's math path.

The flash kernel (aten/src/ATen/native/cpu/FlashAttentionKernel.cpp, AVX512 build) walks
each (batch, head) in blocks of query rows (32, 64 or 256 by the query length) and of keys
(512): an MKL gemm for q @ k.T, the scale (and the mask) applied in float, the row max, exp
by ATen's exp_u20 on whole vectors of lanes and a scalar exp on the rest, their sum
lane by lane then as a halving tree, a second gemm for the exp'd block @ v, the running
maximum and sum rescaled between key blocks (an online softmax), and at the end the rows
multiplied by 1 / sum. The backward recomputes each block's probabilities from the saved
logsumexp with SLEEF's exp and accumulates each gradient with gemms, as the kernel does.
"""

from __future__ import annotations

import numpy as np

from engine.autograd import Function
from engine.float_math import fma32, libm
from engine.ops import mkl, numerics
from engine.ops.linalg import _matmul
from engine.ops.reduce import Softmax
from engine.tensor import Tensor

KV_SPLIT = 512
_U20 = tuple(np.float32(c) for c in (0.00828929059, 0.0418978221, 0.166676521, 0.499991506,
                                     0.999999701))
_LOG2E = np.uint32(0x3FB8AA3B).view(np.float32)
_LN2 = np.uint32(0x3F317218).view(np.float32)
_LN_FLT_MIN = np.uint32(0xC2AEAC50).view(np.float32)
_LN_FLT_MAX = np.uint32(0x42B17218).view(np.float32)


def q_split(length: int) -> int:
    """The kernel's block of query rows, chosen by the query length."""
    return 256 if length >= 768 else 64 if length >= 192 else 32


def _lanes(dtype: np.dtype) -> int:
    return 64 // dtype.itemsize  # Vectorized<T> of the AVX512 build


def exp_u20(x: np.ndarray) -> np.ndarray:
    """Vectorized<float>::exp_u20: exp(x) = 2^n * p(r), p a degree-5 polynomial, fused."""
    f32 = np.float32
    below = x < _LN_FLT_MIN
    src = np.maximum(np.minimum(x, _LN_FLT_MAX), _LN_FLT_MIN)
    fx = np.floor(fma32(src, _LOG2E, f32(0.5))).astype(f32)
    r = fma32(-fx, _LN2, src)
    poly = fma32(r, _U20[0], _U20[1])
    for coefficient in (*_U20[2:], f32(1)):
        poly = fma32(r, poly, coefficient)
    power = ((fx - f32(1)).astype(np.int32) + 127) << 23
    scale = np.where(below, f32(0), power.astype(np.int32).view(f32))
    return (poly * scale * f32(2)).astype(f32)  # type: ignore[no-any-return]


def _exp(x: np.ndarray) -> np.ndarray:
    """The kernel's scalar exp of a float as torch's build computes it: the float64 exp rounded
    once (measured against torch 2.13; the C library's expf, as ctypes reaches it, differs
    from that in the last bit now and then)."""
    return np.exp(x.astype(np.float64)).astype(x.dtype)  # type: ignore[no-any-return]


def _exp_rows_sum(shifted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """_exp_reduce_sum_fusion_kernel on each row: exp (exp_u20 on whole vectors, the scalar exp
    on the rest) and the sum (lane-wise accumulators, a halving tree, then the rest in order)."""
    lanes = _lanes(shifted.dtype)
    size = shifted.shape[-1]
    full = size - size % lanes
    out = np.empty_like(shifted)
    float32 = shifted.dtype == np.float32
    if full:
        out[:, :full] = exp_u20(shifted[:, :full]) if float32 else np.exp(shifted[:, :full])
        acc = out[:, :lanes].copy()
        for start in range(lanes, full, lanes):
            acc = acc + out[:, start:start + lanes]
        while acc.shape[-1] > 1:
            half = acc.shape[-1] // 2
            acc = acc[:, :half] + acc[:, half:]
        total = acc[:, 0]
    else:
        total = np.zeros(shifted.shape[0], dtype=shifted.dtype)
    if size > full:
        out[:, full:] = _exp(shifted[:, full:])
        for column in range(full, size):
            total = total + out[:, column]
    return out, total


def _gemm(a: np.ndarray, b: np.ndarray, c: np.ndarray | None = None, alpha: float = 1.0
          ) -> np.ndarray:
    """c + alpha * a @ b (c None: alpha * a @ b) through MKL as cpublas::gemm calls it."""
    product = mkl.gemm(a, b, c, alpha, 1.0)
    if product is not None:
        return product
    kind = a.dtype.type
    product = _matmul(a, b) if alpha == 1 else _matmul(a, b) * kind(alpha)
    return product if c is None else c + product


def _mask_rows(mask: np.ndarray | None, b: int, h: int) -> np.ndarray | None:
    if mask is None:
        return None
    return mask[b if mask.shape[0] > 1 else 0, h if mask.shape[1] > 1 else 0]


def _causal_limit(rows: int, start: int, n: int, width: int) -> np.ndarray:
    """Which entries of a block of rows lie above the diagonal (key index past the query's)."""
    keys = np.arange(width)[None, :] + n
    return keys > (np.arange(rows)[:, None] + start)


def _forward_block(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
                   scale: np.ndarray, start: int, causal: bool) -> tuple[np.ndarray, np.ndarray]:
    """One block of query rows against every key block: (output rows, logsumexp)."""
    dtype = q.dtype
    rows, kv_size = q.shape[0], v.shape[0]
    running_max = np.full(rows, -np.inf, dtype=dtype)
    running_sum = np.zeros(rows, dtype=dtype)
    dst = np.zeros((rows, v.shape[1]), dtype=dtype)
    num_keys = min(start + rows, kv_size) if causal else kv_size
    split = min(KV_SPLIT, kv_size)
    for n in range(0, num_keys, split):
        width = min(split, kv_size - n)
        qk = _gemm(q, k[n:n + width].T)
        if causal and num_keys - n <= split:
            qk[_causal_limit(rows, start, n, width)] = -np.inf
        if mask is not None:
            qk = fma32(qk, scale, mask[:, n:n + width].astype(dtype)) if dtype == np.float32 \
                else qk * scale + mask[:, n:n + width]
        else:
            qk = qk * scale
        block_max = np.maximum(qk.max(axis=1), running_max)
        live = block_max != -np.inf
        shifted = np.where(live[:, None], qk - np.where(live, block_max, 0)[:, None], 0)
        probabilities, block_sum = _exp_rows_sum(shifted.astype(dtype))
        probabilities[~live] = 0
        rescale = _exp((running_max - block_max).astype(dtype))
        running_sum = np.where(live, fma32(rescale, running_sum, block_sum) if dtype == np.float32
                               else block_sum + rescale * running_sum, running_sum)
        if n > 0:
            dst = np.where(live[:, None], dst * rescale[:, None], dst)
        running_max = np.where(live, block_max, running_max)
        dst = _gemm(probabilities, v[n:n + width], dst if n > 0 else None)
    running_max = np.where(running_max == -np.inf, dtype.type(0), running_max)
    running_sum = np.where(running_sum == 0, dtype.type(1), running_sum)
    out = dst * (dtype.type(1) / running_sum)[:, None]
    return out, running_max + libm("log", running_sum)


class ScaledDotProductFlashAttentionForCpu(Function):
    """_scaled_dot_product_flash_attention_for_cpu: q (batch, heads, L, dim), k and v (batch,
    heads or a divisor of it (grouped-query attention: query head h reads key head
    h // (heads / key heads)), S, dim); the mask (float, broadcast to (batch or 1, heads or 1,
    L, S)) is not differentiable."""

    grad_fn_name = "ScaledDotProductFlashAttentionForCpuBackward0"
    saves = (0, 1, 2)
    saves_output = True

    def forward(self, q, k, v, mask=None, causal=False, scale=1.0):
        self.mask, self.causal = mask, causal
        self.scale = q.dtype.type(scale)
        batches, heads, length = q.shape[:3]
        out = np.empty(q.shape[:3] + v.shape[3:], dtype=q.dtype)
        self.logsumexp = np.empty((batches, heads, length), dtype=q.dtype)
        split = min(q_split(length), length)
        group = heads // k.shape[1]  # grouped-query attention: query heads per key head
        for b in range(batches):
            for h in range(heads):
                rows = _mask_rows(mask, b, h)
                for m in range(0, length, split):
                    block = slice(m, m + split)
                    out[b, h, block], self.logsumexp[b, h, block] = _forward_block(
                        q[b, h, block], k[b, h // group], v[b, h // group],
                        None if rows is None else rows[block], self.scale, m, causal)
        return out

    def backward(self, grad, inputs, output):
        q, k, v = (t.array for t in inputs)
        # grad_out.transpose(1, 2).contiguous(): rows (batch, query, head), as the kernel
        # reads them (MKL's result depends on the operand's leading dimension)
        rows = np.ascontiguousarray(grad.array.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)
        grads = self.gradients(rows, q, k, v, output.array)
        return tuple(Tensor._wrap(g) if need else None
                     for g, need in zip(grads, self.needs, strict=True))

    def gradients(self, grad_out: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                  out: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """cpu_flash_attention_backward: per (batch, head), query block and key block."""
        dtype = q.dtype
        grad_q, grad_k, grad_v = np.zeros_like(q), np.zeros_like(k), np.zeros_like(v)
        length, kv_size = q.shape[2], v.shape[2]
        split, kv_split = min(q_split(length), length), min(KV_SPLIT, kv_size)
        group = q.shape[1] // k.shape[1]
        for b in range(q.shape[0]):
            for h in range(q.shape[1]):
                rows, g = _mask_rows(self.mask, b, h), h // group
                for m in range(0, length, split):
                    block = slice(m, m + split)
                    count = min(split, length - m)
                    go, qb = grad_out[b, h, block], q[b, h, block]
                    dsum = numerics.reduce_all_sum(go * out[b, h, block])
                    num_keys = min(m + count, kv_size) if self.causal else kv_size
                    for n in range(0, num_keys, kv_split):
                        keys = slice(n, n + min(kv_split, kv_size - n))
                        attn = _gemm(qb, k[b, g, keys].T, alpha=float(self.scale))
                        if rows is not None:
                            attn = (attn + rows[block, keys].astype(dtype)).astype(dtype)
                        shifted = attn - self.logsumexp[b, h, block][:, None]
                        attn = (numerics.sleef_expf(shifted) if dtype == np.float32
                                else np.exp(shifted))
                        if self.causal and num_keys - n <= kv_split:
                            attn[_causal_limit(count, m, n, attn.shape[1])] = 0
                        grad_v[b, g, keys] = _gemm(attn.T, go, grad_v[b, g, keys])
                        grad_attn = _gemm(go, v[b, g, keys].T)
                        grad_attn = attn * (grad_attn - dsum[:, None])
                        grad_q[b, h, block] = _gemm(grad_attn, k[b, g, keys], grad_q[b, h, block],
                                                    float(self.scale))
                        grad_k[b, g, keys] = _gemm(grad_attn.T, qb, grad_k[b, g, keys],
                                                   float(self.scale))
        return grad_q, grad_k, grad_v


class SafeSoftmax(Softmax):
    """_safe_softmax: softmax, with rows that are all -inf giving zeros instead of NaN; its
    derivative is softmax's (derivatives.yaml: _softmax_backward_data of the result)."""

    grad_fn_name = "SafeSoftmaxBackward0"

    def forward(self, a, dim):
        result = super().forward(a, dim)
        masked = np.all(a == -np.inf, axis=dim, keepdims=True)
        return np.where(masked, result.dtype.type(0), result)
