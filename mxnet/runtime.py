"""Run-time feature detection: ``mx.runtime.Features()`` and ``feature_list()``.

MXNet reported how its binary was compiled. mxnet-ng answers the same questions about the
PyTorch build and the machine it runs on: ``CUDA`` is whether torch was built with CUDA,
``MKLDNN`` whether oneDNN is available, ``DIST_KVSTORE`` whether ``torch.distributed`` is,
``CPU_*``/``F16C`` come from the CPU's flags, ``BLAS_*`` from torch's build configuration.
"""

from __future__ import annotations

import collections
import functools
import importlib.util
import platform
import re

import torch

__all__ = ["Feature", "Features", "feature_list"]

_NAMES = ["CUDA", "CUDNN", "NCCL", "CUDA_RTC", "TENSORRT", "CPU_SSE", "CPU_SSE2", "CPU_SSE3",
          "CPU_SSE4_1", "CPU_SSE4_2", "CPU_SSE4A", "CPU_AVX", "CPU_AVX2", "OPENMP", "SSE",
          "F16C", "JEMALLOC", "BLAS_OPEN", "BLAS_ATLAS", "BLAS_MKL", "BLAS_APPLE", "LAPACK",
          "MKLDNN", "OPENCV", "CAFFE", "PROFILER", "DIST_KVSTORE", "CXX14",
          "INT64_TENSOR_SIZE", "SIGNAL_HANDLER", "DEBUG", "TVM_OP"]


class Feature:
    """One feature: ``name`` and ``enabled``; prints as ``✔ NAME`` or ``✖ NAME``.

    Examples
    --------
    >>> mx.runtime.Feature("CUDA", False)
    ✖ CUDA
    """

    __slots__ = ("_name", "_enabled")

    def __init__(self, name: str, enabled: bool):
        self._name = name
        self._enabled = bool(enabled)

    @property
    def name(self) -> str:
        """Feature name."""
        return self._name

    @property
    def enabled(self) -> bool:
        """Whether the feature is available."""
        return self._enabled

    def __repr__(self) -> str:
        return f"{'✔' if self._enabled else '✖'} {self._name}"


def _cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    flags: set[str] = set()
    if platform.machine().lower() in ("x86_64", "amd64", "i386", "i686"):
        flags |= {"sse", "sse2"}
        cap = torch.backends.cpu.get_cpu_capability().upper()
        if cap in ("AVX2", "AVX512"):
            flags |= {"pni", "ssse3", "sse4_1", "sse4_2", "avx", "avx2", "f16c"}
    return flags


def _blas() -> str:
    try:
        cfg = torch.__config__.show().lower()
    except Exception:  # noqa: BLE001  (a missing config string only loses BLAS detail)
        return ""
    m = re.search(r"blas_info=([a-z0-9_]+)", cfg)
    if m:
        return m.group(1)
    if "mkl" in cfg and torch.backends.mkl.is_available():
        return "mkl"
    return ""


def _dist() -> tuple[bool, bool]:
    import torch.distributed as dist

    if not dist.is_available():
        return False, False
    return True, bool(dist.is_nccl_available())


@functools.lru_cache(maxsize=1)
def _detect() -> dict[str, bool]:
    flags = _cpu_flags()
    blas = _blas()
    dist_ok, nccl = _dist()
    cuda = bool(torch.backends.cuda.is_built())
    return {
        "CUDA": cuda, "CUDNN": bool(cuda and torch.backends.cudnn.is_available()),
        "NCCL": nccl, "CUDA_RTC": cuda, "TENSORRT": False,
        "CPU_SSE": "sse" in flags, "CPU_SSE2": "sse2" in flags, "CPU_SSE3": "pni" in flags,
        "CPU_SSE4_1": "sse4_1" in flags, "CPU_SSE4_2": "sse4_2" in flags,
        "CPU_SSE4A": "sse4a" in flags, "CPU_AVX": "avx" in flags, "CPU_AVX2": "avx2" in flags,
        "OPENMP": bool(torch.backends.openmp.is_available()), "SSE": "sse" in flags,
        "F16C": "f16c" in flags, "JEMALLOC": False,
        "BLAS_OPEN": "open" in blas, "BLAS_ATLAS": "atlas" in blas,
        "BLAS_MKL": "mkl" in blas or bool(torch.backends.mkl.is_available()),
        "BLAS_APPLE": "accelerate" in blas or "apple" in blas,
        "LAPACK": bool(getattr(torch._C, "has_lapack", False)),
        "MKLDNN": bool(torch.backends.mkldnn.is_available()),
        "OPENCV": importlib.util.find_spec("cv2") is not None, "CAFFE": False,
        "PROFILER": True, "DIST_KVSTORE": dist_ok, "CXX14": True, "INT64_TENSOR_SIZE": True,
        "SIGNAL_HANDLER": False, "DEBUG": bool(getattr(torch.version, "debug", False)),
        "TVM_OP": False,
    }


def feature_list() -> list[Feature]:
    """All features, in MXNet's order.

    Examples
    --------
    >>> [f.name for f in mx.runtime.feature_list()][:2]
    ['CUDA', 'CUDNN']
    """
    found = _detect()
    return [Feature(n, found[n]) for n in _NAMES]


class Features(collections.OrderedDict):
    """Name -> :class:`Feature` map of what this installation supports.

    Examples
    --------
    >>> features = mx.runtime.Features()
    >>> features.is_enabled('CUDA') in (True, False)
    True
    """

    instance = None

    def __new__(cls):
        if cls.instance is None:
            cls.instance = super().__new__(cls)
            super().__init__(cls.instance, [(f.name, f) for f in feature_list()])
        return cls.instance

    def __init__(self):  # filled once in __new__ (a singleton, as in MXNet)
        pass

    def __repr__(self) -> str:
        return str(list(self.values()))

    def is_enabled(self, feature_name: str) -> bool:
        """Whether ``feature_name`` (case-insensitive) is enabled; ``RuntimeError`` if unknown."""
        feature_name = feature_name.upper()
        if feature_name not in self:
            raise RuntimeError(f"Feature '{feature_name}' is unknown, known features are: "
                               f"{list(self.keys())}")
        return self[feature_name].enabled
