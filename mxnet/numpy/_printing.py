"""``mx.np.set_printoptions`` and ``mx.np.genfromtxt``."""

from __future__ import annotations

import numpy as _onp

from ..base import MXNetNotSupportedError

__all__ = ["set_printoptions", "genfromtxt"]


def set_printoptions(precision=None, threshold=None, **kwarg):
    """Set how ``mx.np`` arrays print: ``precision`` (digits) and ``threshold`` (element
    count above which the output is summarised); other NumPy options are not supported,
    as in MXNet.

    Examples
    --------
    >>> from mxnet import np
    >>> np.set_printoptions(precision=2)  # doctest: +SKIP
    """
    if kwarg:
        raise MXNetNotSupportedError("mxnet.numpy.set_printoptions only supports parameters "
                                  "precision and threshold for now.")
    _onp.set_printoptions(precision=precision, threshold=threshold)


def genfromtxt(*args, **kwargs):
    """Load data from a text file (NumPy's ``genfromtxt``) into an ``mx.np`` array."""
    from .multiarray import array

    return array(_onp.genfromtxt(*args, **kwargs))
