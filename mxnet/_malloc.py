"""Keep freed CPU tensor memory in the process, as MXNet's pooled storage manager does.

PyTorch allocates CPU tensors with ``malloc``. glibc serves large blocks (above 128 KiB to
32 MiB, adapting) with fresh ``mmap`` regions and gives them back on ``free``, so every
training step touches its activations and gradients for the first time again: one page
fault per 4 KiB, 10-20% of a CPU training step. MXNet never paid this: its storage manager
pools freed blocks for reuse. On glibc we ask ``malloc`` for the same behaviour at import:
large blocks come from the heap and freed memory stays there for the next step
(``mallopt(M_MMAP_MAX, 0)``, no trimming, 64 MiB heap growth steps).

The resident size then stays at the peak the program reached, as with MXNet's pool.
``MXNET_NG_MALLOC_POOL=0`` leaves glibc's defaults, and so does any ``MALLOC_*`` tuning
variable set by the user (glibc has already applied it).

Examples
--------
>>> from mxnet import _malloc
>>> _malloc.pool_enabled() in (True, False)
True
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

__all__ = ["pool_enabled"]

_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_MAX = -4
_USER_VARS = ("MALLOC_MMAP_MAX_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_",
              "MALLOC_TOP_PAD_", "GLIBC_TUNABLES")

_state = {"enabled": False}


def _apply() -> bool:
    if os.environ.get("MXNET_NG_MALLOC_POOL", "1") == "0":
        return False
    if not sys.platform.startswith("linux") or any(v in os.environ for v in _USER_VARS):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # musl and other libcs: nothing to tune
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    ok = mallopt(_M_MMAP_MAX, 0) == 1
    ok = mallopt(_M_TRIM_THRESHOLD, -1) == 1 and ok  # -1 reads as SIZE_MAX: never trim
    ok = mallopt(_M_TOP_PAD, 64 << 20) == 1 and ok
    return ok


def pool_enabled() -> bool:
    """Whether freed CPU memory is kept in the process for reuse (see the module notes)."""
    return _state["enabled"]


_state["enabled"] = _apply()
