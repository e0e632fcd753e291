"""Engine settings: ``MXNET_ENGINE_TYPE`` and bulk execution (``bulk``/``set_bulk_size``).

mxnet-ng runs operators eagerly on PyTorch (CUDA work is asynchronous on its streams), so
bulking is a recorded setting with no effect on results. ``MXNET_ENGINE_TYPE=NaiveEngine``
makes every operator synchronous (``engine_type()`` reports it), which helps debugging.
"""

from __future__ import annotations

import os

__all__ = ["set_bulk_size", "bulk", "engine_type", "is_naive"]

_bulk_size = [0]  # MXNet 1.9.1 starts imperative bulking at 0 (off)


def engine_type() -> str:
    """The engine named by ``MXNET_ENGINE_TYPE`` (default ``ThreadedEnginePerDevice``)."""
    return os.environ.get("MXNET_ENGINE_TYPE", "ThreadedEnginePerDevice")


def is_naive() -> bool:
    """Whether ``MXNET_ENGINE_TYPE=NaiveEngine`` asks for synchronous execution."""
    return engine_type() == "NaiveEngine"


def set_bulk_size(size: int) -> int:
    """Set the maximum number of operators bundled in a bulk; return the previous size.

    Examples
    --------
    >>> prev = mx.engine.set_bulk_size(10)
    >>> mx.engine.set_bulk_size(prev)
    10
    """
    prev = _bulk_size[0]
    _bulk_size[0] = int(size)
    return prev


class _BulkScope:
    """Scope that sets the bulk size and restores the previous one on exit."""

    def __init__(self, size: int):
        self._size = size
        self._old_size = None

    def __enter__(self):
        self._old_size = set_bulk_size(self._size)
        return self

    def __exit__(self, ptype, value, trace):
        set_bulk_size(self._old_size)


def bulk(size: int) -> _BulkScope:
    """Scope in which up to ``size`` operators may be bundled together.

    Examples
    --------
    >>> with mx.engine.bulk(10):
    ...     x = mx.nd.zeros((1,))
    ...     for _ in range(3):
    ...         x += 1
    """
    return _BulkScope(size)


def _apply_engine_type() -> None:
    """NaiveEngine: make CUDA launches synchronous, so errors surface at the failing op."""
    if is_naive() and "CUDA_LAUNCH_BLOCKING" not in os.environ:
        os.environ["CUDA_LAUNCH_BLOCKING"] = "1"  # read by CUDA at initialisation


_apply_engine_type()


def _default_threads() -> int:
    """MXNet's default operator thread count: the processors without hyper-threads.

    MXNet 1.x uses ``omp_get_num_procs()`` halved on x86 unless ``OMP_NUM_THREADS`` is set
    (``MXNET_OMP_MAX_THREADS`` caps it). Matching it also avoids oversubscribing small
    machines, where two busy intra-op threads per process slow tiny kernels down by orders
    of magnitude.
    """
    import platform

    n = os.cpu_count() or 1
    if platform.machine().lower() in ("x86_64", "amd64", "i386", "i686"):
        n = max(1, n // 2)
    cap = os.environ.get("MXNET_OMP_MAX_THREADS")
    if cap and cap.isdigit():
        n = min(n, max(1, int(cap)))
    return n


def _configure_threads() -> None:
    if "OMP_NUM_THREADS" in os.environ:
        return  # torch already follows it
    import torch

    torch.set_num_threads(_default_threads())


_configure_threads()


def _configure_tensor_cores() -> None:
    """Tensor-core math on float32, as MXNet 1.9.1 (cuDNN 8, cuBLAS 11) had it on Ampere+.

    MXNet left cuDNN at its default math, which runs float32 convolutions in TF32 on Ampere
    and newer GPUs, while its cuBLAS calls kept full float32; PyTorch's defaults are the same.
    ``MXNET_CUDA_ALLOW_TENSOR_CORE=0`` turns tensor-core math off for convolutions too (full
    float32 everywhere), and NVIDIA's own ``NVIDIA_TF32_OVERRIDE=0`` is honoured by the
    libraries themselves.
    """
    if os.environ.get("MXNET_CUDA_ALLOW_TENSOR_CORE", "1").strip() == "0":
        import torch

        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_tf32 = False


_configure_tensor_cores()
