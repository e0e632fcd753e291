"""``npx.save`` / ``npx.load`` / ``npx.waitall``: files of ``mx.np`` arrays (MXNet's
NDArray list format, readable by ``mx.nd.load`` and by MXNet 1.9.1)."""

from __future__ import annotations

from ..ndarray import waitall as _nd_waitall
from ..ndarray._serial import load_file, save_file
from ..numpy.multiarray import ndarray, wrap

__all__ = ["save", "load", "waitall", "get_cuda_compute_capability"]


def save(file, arr) -> None:
    """Save an ``mx.np`` array, a list of them or a ``str -> array`` dict to ``file``.

    Examples
    --------
    >>> from mxnet import np, npx
    >>> npx.save('x.npy', {'w': np.ones((2,))})  # doctest: +SKIP
    """
    bad = ValueError("data needs to either be a ndarray, dict of (str, ndarray) pairs or a "
                     "list of ndarrays.")
    if isinstance(arr, ndarray):
        arr = [arr]
    elif isinstance(arr, dict):
        if not all(isinstance(k, str) and isinstance(v, ndarray) for k, v in arr.items()):
            raise bad
    elif isinstance(arr, (list, tuple)):
        if not all(isinstance(v, ndarray) for v in arr):
            raise bad
        arr = list(arr)
    else:
        raise bad
    save_file(file, arr)


def load(file):
    """Load what :func:`save` (or ``mx.nd.save``) wrote: a list or a dict of ``mx.np``
    arrays (a single saved array comes back as a one-element list).

    Examples
    --------
    >>> npx.load('x.npy')  # doctest: +SKIP
    {'w': array([1., 1.])}
    """
    res = load_file(file)
    if isinstance(res, dict):
        return {k: wrap(v) for k, v in res.items()}
    return [wrap(v) for v in res]


def waitall() -> None:
    """Wait until every pending computation has finished (MXNet's engine barrier)."""
    _nd_waitall()


def get_cuda_compute_capability(ctx):
    """The CUDA compute capability of GPU context ``ctx`` as an int (70 for ``sm_70``)."""
    if ctx.device_type != "gpu":
        raise ValueError("Expecting a gpu context to get cuda compute capability, while "
                         f"received ctx {ctx}")
    import torch

    if not torch.cuda.is_available():
        raise OSError("could not load any of: libcuda.so libcuda.dylib cuda.dll")
    major, minor = torch.cuda.get_device_capability(ctx.device_id)
    return major * 10 + minor
