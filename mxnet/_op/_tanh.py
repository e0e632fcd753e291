"""Hyperbolic tangent through oneDNN's element-wise kernel for large float32 CPU arrays.

torch's own ``tanh`` kernel on CPU is several times slower than its other transcendental
functions on some x86 machines (3.9 ms for LeNet's first activation, 128x20x24x24, where
``sigmoid`` takes 0.7 ms); oneDNN's jit ``eltwise_tanh`` (what MXNet 1.9.1's CPU
``Activation`` runs) takes 0.85 ms plus two copies in and out of torch's oneDNN tensors.
Both are within 1-2 ulp of the exact value. Small arrays, other dtypes and devices, strided
arrays (channels-last 4-D ones excepted: the same memory, seen as NHWC) and traced graphs
(``torch.compile``) use ``torch.tanh``.

Examples
--------
>>> import torch
>>> from mxnet._op._tanh import tanh
>>> bool(torch.allclose(tanh(torch.zeros(70000) + 0.5), torch.tanh(torch.tensor(0.5))))
True
"""

from __future__ import annotations

import functools
import os

import torch

__all__ = ["tanh"]

# below this many elements the two copies cost more than oneDNN saves (measured: 10k
# elements 27 vs 34 us, 100k elements 259 vs 109 us)
_MIN_NUMEL = 32768


@functools.lru_cache(maxsize=1)
def _enabled() -> bool:
    return torch.backends.mkldnn.is_available() and os.environ.get(
        "MXNET_NG_ONEDNN_TANH", "1") not in ("0", "false", "False")


def _onednn_tanh(x: torch.Tensor) -> torch.Tensor:
    if not x.is_contiguous():  # channels-last 4-D: the same memory, seen as dense NHWC
        return torch.tanh(x.permute(0, 2, 3, 1).to_mkldnn()).to_dense().permute(0, 3, 1, 2)
    return torch.tanh(x.to_mkldnn()).to_dense()


class _OneDNNTanh(torch.autograd.Function):
    """``tanh`` forward through oneDNN; backward ``g * (1 - y * y)`` (torch's kernel)."""

    @staticmethod
    def forward(ctx, x):
        y = _onednn_tanh(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return torch.ops.aten.tanh_backward(g, y)


def tanh(x: torch.Tensor) -> torch.Tensor:
    """``torch.tanh(x)``, through oneDNN where that is faster (see the module notes)."""
    dense = x.is_contiguous() or (
        x.dim() == 4 and x.is_contiguous(memory_format=torch.channels_last))
    if (x.dtype != torch.float32 or x.device.type != "cpu" or x.numel() < _MIN_NUMEL
            or not dense or torch.compiler.is_compiling() or not _enabled()):
        return torch.tanh(x)
    if x.requires_grad and torch.is_grad_enabled():
        return _OneDNNTanh.apply(x)
    return _onednn_tanh(x)
