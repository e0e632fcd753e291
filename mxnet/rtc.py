"""Run-time compiled CUDA kernels (MXNet's ``mxnet.rtc``).

MXNet compiled CUDA source with NVRTC into kernels launched on NDArrays. mxnet-ng does not
ship a CUDA compiler binding: constructing a :class:`CudaModule` raises
:class:`~mxnet.base.MXNetError` (on machines without a GPU it also says so).
"""

from __future__ import annotations

from .base import MXNetError

__all__ = ["CudaModule", "CudaKernel"]


class CudaModule:
    """A CUDA module compiled from source at run time: not supported by mxnet-ng.

    Examples
    --------
    >>> mx.rtc.CudaModule("extern \\"C\\" __global__ void k() {}")  # doctest: +SKIP
    Traceback (most recent call last):
    MXNetError: ...
    """

    def __init__(self, source, options=(), exports=()):
        raise MXNetError("mx.rtc.CudaModule: run-time compilation of CUDA source (NVRTC) is "
                         "not supported by mxnet-ng; write the computation with mx.nd "
                         "operators or a Python mx.operator.CustomOp")


class CudaKernel:
    """A kernel of a :class:`CudaModule` (never created: see ``CudaModule``)."""

    def __init__(self, *args, **kwargs):
        raise MXNetError("mx.rtc.CudaKernel: run-time compiled CUDA kernels are not supported "
                         "by mxnet-ng")
