"""Loading compiled operator libraries (MXNet's ``mxnet.library``).

MXNet 1.9.1 could load ``.so`` files of custom C++ operators built against its C API;
mxnet-ng has no C API, so such libraries cannot be loaded: Python custom operators
(``mx.operator.CustomOp``) are the way to add operators.
"""

from __future__ import annotations

import os

from .base import MXNetError

__all__ = ["load"]


def load(path, verbose=True):
    """Load a compiled operator library: not supported here (raises :class:`MXNetError`).

    Examples
    --------
    >>> mx.library.load('libcustom_op.so')  # doctest: +SKIP
    Traceback (most recent call last):
    MXNetError: ...
    """
    if not os.path.exists(path):
        raise MXNetError(f"load path {path} does NOT exist")
    if not os.path.isabs(path):
        raise MXNetError(f"load path {path} is not an absolute path")
    raise MXNetError(f"mx.library.load({path!r}): compiled MXNet operator libraries need "
                     "MXNet's C API, which mxnet-ng does not have; write the operator with "
                     "mx.operator.CustomOp instead")
