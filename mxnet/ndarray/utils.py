"""``mx.nd.save`` / ``mx.nd.load``: MXNet's binary NDArray list files."""

from __future__ import annotations

__all__ = ["save", "load", "load_frombuffer"]


def save(fname: str, data) -> None:
    """Save an NDArray, a list of NDArrays or a str->NDArray dict to ``fname``.

    The file is MXNet 1.9.1's binary list format; it is written to a temporary file in the
    same folder and renamed into place, so an interrupted save never leaves a torn file.

    Examples
    --------
    >>> mx.nd.save('/tmp/x.params', {'w': mx.nd.ones((2,))})
    >>> mx.nd.load('/tmp/x.params')['w'].shape
    (2,)
    """
    from ._serial import save_file

    save_file(fname, data)


def load(fname: str):
    """Load a file written by :func:`save` (or by real MXNet): a list or a dict."""
    from ._serial import load_file

    return load_file(fname)


def load_frombuffer(buf: bytes):
    """Load NDArrays from the bytes of a file written by :func:`save`."""
    from ._serial import load_bytes

    return load_bytes(buf, "<buffer>")


def __getattr__(name: str):
    """``zeros``, ``empty`` and ``array`` also live here in MXNet 1.9.1 (with ``stype``)."""
    if name in ("zeros", "empty", "array"):
        from . import _create

        return getattr(_create, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
