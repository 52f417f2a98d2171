"""pixel_shuffle and pixel_unshuffle: channels moved into space, (*, C r^2, H, W) to
(*, C, H r, W r), and back; each is the other's derivative (PixelShuffleBackward0,
PixelUnshuffleBackward0)."""

from __future__ import annotations

import numpy as np

from engine.autograd import Function


def shuffle(a: np.ndarray, factor: int) -> np.ndarray:
    *batch, channels, height, width = a.shape
    blocks = a.reshape(*batch, channels // factor ** 2, factor, factor, height, width)
    n = len(batch)
    moved = blocks.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)  # C, H, r, W, r
    return moved.reshape(*batch, channels // factor ** 2, height * factor, width * factor)


def unshuffle(a: np.ndarray, factor: int) -> np.ndarray:
    *batch, channels, height, width = a.shape
    blocks = a.reshape(*batch, channels, height // factor, factor, width // factor, factor)
    n = len(batch)
    moved = blocks.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)  # C, r, r, H, W
    return moved.reshape(*batch, channels * factor ** 2, height // factor, width // factor)


class PixelShuffle(Function):
    grad_fn_name = "PixelShuffleBackward0"

    def forward(self, a, factor):
        self.factor = factor
        return np.ascontiguousarray(shuffle(a, factor))

    def backward(self, grad, inputs, output):
        return (PixelUnshuffle.apply(grad, factor=self.factor),)


class PixelUnshuffle(Function):
    grad_fn_name = "PixelUnshuffleBackward0"

    def forward(self, a, factor):
        self.factor = factor
        return np.ascontiguousarray(unshuffle(a, factor))

    def backward(self, grad, inputs, output):
        return (PixelShuffle.apply(grad, factor=self.factor),)
