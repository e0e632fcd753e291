"""Native CPU kernels that PyTorch has no fused equivalent for, compiled once per machine.

Some of MXNet's CPU operators are faster than the PyTorch compositions that replace them
because oneDNN fuses what eager PyTorch runs as separate passes over memory (BatchNorm with
its relu, one-pass statistics). The C sources in this folder implement those few kernels;
they are compiled on first use with the system C compiler (``$CC``, else ``cc``/``gcc``/
``clang``) into ``~/.cache/mxnet-ng/kernels`` (``MXNET_NG_KERNEL_CACHE`` overrides it),
keyed by the source, the compiler and the CPU, and loaded with :mod:`ctypes`. They share
PyTorch's OpenMP runtime and thread count.

Where no compiler is found, the build fails, or ``MXNET_NG_NATIVE=0`` is set, :func:`library`
returns ``None`` and the operators run their PyTorch composition: the same results, only
slower. :func:`status` says which happened.

Examples
--------
>>> from mxnet import _kernels
>>> lib = _kernels.library("norm")
>>> lib is None or hasattr(lib, "mxng_bn_stats")
True
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

__all__ = ["library", "ready", "status", "enabled", "threads"]

_HERE = os.path.dirname(os.path.abspath(__file__))
_P = ctypes.c_void_p
_I = ctypes.c_int64
_N = ctypes.c_int
_D = ctypes.c_double
# C signatures of the exported functions, per source file: argument types, or
# (argument types, result type) for a function that returns a value
_SIGNATURES = {
    "norm": {
        "mxng_bn_stats": [_P, _I, _I, _I, _N, _P, _P, _N],
        "mxng_bn_apply": [_P, _P, _I, _I, _I, _N, _P, _P, _N, _N],
        "mxng_bn_apply_add_relu": [_P, _P, _P, _I, _I, _I, _N, _P, _P, _N],
        "mxng_bn_grad_sums": [_P, _P, _I, _I, _I, _N, _P, _P, _P, _N, _P, _P, _N],
        "mxng_bn_grad_sums_relu_out": [_P, _P, _P, _P, _I, _I, _I, _N, _P, _P, _P, _N],
        "mxng_bn_grad_apply": [_P, _P, _P, _I, _I, _I, _N, _P, _P, _P, _P, _P, _N, _N],
        "mxng_relu": [_P, _P, _I, _N, _N],
        "mxng_relu_bwd": [_P, _P, _P, _I, _N, _N],
        "mxng_bn_fwd": [_P, _P, _P, _I, _I, _I, _N, _P, _P, _D, _N, _N, _P, _P, _P, _P, _N],
        "mxng_bn_bwd": [_P, _P, _P, _P, _P, _I, _I, _I, _N, _P, _N, _N, _P, _P, _P, _P, _P, _N],
    },
    "gemm": {
        "mxng_wgrad_1x1": [_P, _P, _P, _I, _I, _I, _I, _I, _I, _I, _I, _N],
        "mxng_wgrad_tile": ([], _I),
        "mxng_rows_gemm": ([_P, _P, _P, _I, _I, _I, _I, _I, _I, _I, _I, _N, _N], _I),
    },
    "smallconv": {
        "mxng_small_dgrad": ([_P, _P, _P] + [_I] * 11 + [_N], _I),
    },
    "wino": {
        "mxng_wino_weights": [_P, _P, _I, _I, _N],
        "mxng_wino_conv": ([_P, _P, _P, _I, _I, _I, _I, _I, _P, _P, _N, _N], _I),
        "mxng_wino_wgrad": ([_P, _P, _P, _I, _I, _I, _I, _I, _N], _I),
    },
    "dwconv": {
        "mxng_dw_fwd": ([_P, _P, _P, _P] + [_I] * 12, _I),
        "mxng_dw_bwd": ([_P, _P, _P, _P, _P] + [_I] * 12, _I),
    },
    "rng": {
        "mxng_mt_seed": [_P, _I, _I],
        "mxng_rng_fill": [_P, _P, _P, _P, _P, _I, _I, _P, _D, _D, _I, _I],
        "mxng_rng_np": [_P, _P, _P, _P, _P, _I, _I, _P],
    },
}
_status: dict[str, str] = {}
_PID = os.getpid()


def threads() -> int:
    """OpenMP threads for a kernel call: torch's count, but one in a process forked from the
    one that imported mxnet (GNU OpenMP's thread pool does not survive a fork: a parallel
    region there can hang, e.g. in DataLoader workers); the kernels then run serially."""
    if os.getpid() != _PID:
        return 1
    import torch

    return torch.get_num_threads()


def enabled() -> bool:
    """Whether native kernels may be used (``MXNET_NG_NATIVE=0`` turns them off)."""
    return os.environ.get("MXNET_NG_NATIVE", "1") not in ("0", "false", "False", "")


def status() -> dict[str, str]:
    """What became of each kernel library asked for: ``'loaded <path>'`` or why not."""
    return dict(_status)


def _compiler() -> str | None:
    cc = os.environ.get("CC")
    if cc and shutil.which(cc.split()[0]):
        return cc
    for name in ("cc", "gcc", "clang"):
        if shutil.which(name):
            return name
    return None


def _cpu_key() -> str:
    """The CPU's model and feature flags: a library built with ``-march=native`` on one
    machine must not be loaded on another (a shared home directory)."""
    try:
        with open("/proc/cpuinfo") as f:
            lines = [ln for ln in f if ln.startswith(("flags", "model name", "Features"))]
        return "".join(sorted(set(lines)))
    except OSError:
        import platform

        return platform.machine() + platform.processor()


def _cache_dir() -> str:
    d = os.environ.get("MXNET_NG_KERNEL_CACHE")
    if not d:
        d = os.path.join(os.path.expanduser("~"), ".cache", "mxnet-ng", "kernels")
    os.makedirs(d, exist_ok=True)
    return d


def _build(name: str, cc: str) -> str:
    """Compile ``<name>.c`` into the cache (atomically: a temporary file, then a rename)."""
    src = os.path.join(_HERE, name + ".c")
    with open(src, "rb") as f:
        code = f.read()
    for h in sorted(os.listdir(_HERE)):  # the shared headers it may include
        if h.endswith(".h"):
            with open(os.path.join(_HERE, h), "rb") as f:
                code += f.read()
    flags = ["-O3", "-march=native", "-ffp-contract=off", "-fopenmp", "-shared", "-fPIC", "-std=c99"]
    key = hashlib.sha256(code + cc.encode() + " ".join(flags).encode() + _cpu_key().encode())
    out = os.path.join(_cache_dir(), f"{name}-{key.hexdigest()[:16]}.so")
    if os.path.exists(out):
        return out
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=os.path.dirname(out))
    os.close(fd)
    try:
        r = subprocess.run([*cc.split(), *flags, "-o", tmp, src, "-lm"],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise OSError(f"{cc} failed: {r.stderr.strip()[:500]}")
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return out


@functools.cache
def _load(name: str):
    if not sys.platform.startswith("linux"):
        _status[name] = "native kernels are built on Linux only"
        return None
    cc = _compiler()
    if cc is None:
        _status[name] = "no C compiler found (set CC)"
        return None
    try:
        import torch  # noqa: F401  (its OpenMP runtime is the one the library binds to)

        lib = ctypes.CDLL(_build(name, cc))
        for fn, spec in _SIGNATURES[name].items():
            f = getattr(lib, fn)
            f.argtypes, f.restype = spec if isinstance(spec, tuple) else (spec, None)
    except (OSError, subprocess.SubprocessError, AttributeError) as e:
        _status[name] = f"build failed: {e}"
        return None
    _status[name] = "loaded " + lib._name
    return lib


_ready: dict[str, bool] = {}


def ready(name: str) -> bool:
    """Whether :func:`library` serves ``name``: decided (built, loaded) on the first call
    outside ``torch.compile``; while it traces, only that earlier answer is read (so a
    compiled graph never triggers a build or reads the environment)."""
    if name not in _ready:
        import torch

        if torch.compiler.is_compiling():
            return False
        _ready[name] = library(name) is not None
    return _ready[name]


def library(name: str):
    """The loaded ``ctypes`` library of ``<name>.c``, or ``None`` (see the module notes)."""
    if not enabled():
        return None
    return _load(name)
