"""ATen's CPU group-norm backward kernel (group_norm_kernel.cpp) in its order of roundings.

Per sample and channel: ds = sum(dy * x) and db = sum(dy) over the plane, as vec's
map2_reduce_all and reduce_all (engine/ops/vector_reduce.py; double planes fuse the products of
their partial last vector). Per group, the channels' ds and db
weighted by gamma (fused, in vectors, then lane after lane and the rest one by one) give
c2 = (db * mean - ds) * rstd^3 / (D * HxW) and c3 = -(db * rstd / (D * HxW)) - c2 * mean, and
dx = fma(rstd * gamma, dy, c2 * x) + c3. dgamma adds (ds - db * mean) * rstd sample after
sample, dbeta adds db, fused where the compiled kernel fuses.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.float_math import fma
from engine.ops.vector_reduce import lanes, map_reduce_all


def _weighted_by_gamma(values: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """CalcDsDb: sum over a group's channels of values * gamma, (N, G, D) -> (N, G)."""
    dtype = values.dtype
    width, channels = lanes(dtype), values.shape[-1]
    vectored = channels // width * width
    acc = np.zeros(values.shape[:-1] + (width,), dtype)
    for j in range(0, vectored, width):
        acc = fma(values[..., j:j + width], gamma[:, j:j + width], acc, dtype)
    total = np.zeros(values.shape[:-1], dtype)
    for lane in range(width):
        total = total + acc[..., lane]
    for j in range(vectored, channels):
        total = fma(values[..., j], gamma[:, j], total, dtype)
    return total


def backward(dy: np.ndarray, x: np.ndarray, mean: np.ndarray, rstd: np.ndarray, gamma: Any,
             groups: int, needs: tuple[bool, ...]) -> tuple[Any, Any, Any]:
    """(dx, dgamma, dbeta) of native_group_norm, each None where not needed."""
    batch, channels = x.shape[:2]
    dtype = x.dtype
    kind = dtype.type
    per_group = channels // groups
    planes_dy = dy.reshape(batch, channels, -1)
    planes_x = x.reshape(batch, channels, -1)
    fused_tail = dtype == np.float64  # the compiled float kernel adds its tail unfused
    ds = map_reduce_all((planes_dy, planes_x), fused_tail).reshape(batch, groups, per_group)
    db = map_reduce_all((planes_dy,), fused_tail).reshape(batch, groups, per_group)
    mean, rstd = mean.reshape(batch, groups), rstd.reshape(batch, groups)
    scale = np.ones((groups, per_group), dtype) if gamma is None else gamma.reshape(groups, -1)
    dx = dgamma = dbeta = None
    if needs[0]:
        count = kind(1) / kind(per_group * planes_x.shape[-1])
        ds_val, db_val = _weighted_by_gamma(ds, scale), _weighted_by_gamma(db, scale)
        c2 = fma(db_val, mean, -ds_val, dtype) * rstd * rstd * rstd * count
        c3 = fma(-(db_val * rstd), count, -c2 * mean, dtype)
        c1 = rstd[:, :, None] * scale[None]
        grads = dy.reshape(batch, groups, per_group, -1)
        inputs = x.reshape(grads.shape)
        dx = (fma(c1[..., None], grads, c2[:, :, None, None] * inputs, dtype)
              + c3[:, :, None, None]).reshape(x.shape)
    if len(needs) > 1 and needs[1]:
        acc = np.zeros((groups, per_group), dtype)
        for n in range(batch):
            centered = fma(-db[n], mean[n][:, None], ds[n], dtype)
            acc = fma(centered, rstd[n][:, None], acc, dtype)
        dgamma = acc.reshape(channels)
    if len(needs) > 2 and needs[2]:
        total = np.zeros(channels, dtype)
        for n in range(batch):
            total = total + db[n].reshape(channels)
        dbeta = total
    return dx, dgamma, dbeta
