"""Scalar-type aliases and constants of ``mx.np`` that MXNet 1.9.1 exposes beyond NumPy's
basic dtypes (``np.bool`` is Python's ``bool``, as in MXNet).

Examples
--------
>>> from mxnet import np
>>> np.array([1, 0], dtype=np.bool).dtype
dtype('bool')
"""

import builtins

import numpy as _onp

__all__ = ["bool", "finfo", "NAN", "NaN", "NINF", "PINF"]

bool = builtins.bool  # noqa: A001  (MXNet's name)
finfo = _onp.finfo
NAN = NaN = float("nan")
NINF = float("-inf")
PINF = float("inf")
