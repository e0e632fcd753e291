"""``mx.np``: MXNet's NumPy-compatible array interface (MXNet 1.9.1's ``mxnet.numpy``).

Arrays are :class:`mxnet.numpy.ndarray` (a subclass of ``mx.nd.NDArray`` sharing its
storage, contexts and autograd); every function runs registry operators (``_npi_*`` /
``_np_*``), so the same calls build symbols inside hybridized blocks (``F.np``).

Examples
--------
>>> from mxnet import np, npx
>>> npx.set_np()
>>> x = np.arange(6).reshape(2, 3)
>>> (x * 2).sum()
array(30.)
"""

import numpy as _onp

from .multiarray import (arange, array, asarray, empty, empty_like, full, full_like,  # noqa: F401
                         ndarray, ones, ones_like, zeros, zeros_like)
from ._shape import *  # noqa: F401,F403  (B: shape, joining, selection, creation)
from ._math import *  # noqa: F401,F403  (A: element-wise math, reductions, products)
from ._scalars import *  # noqa: F401,F403  (E: np.bool, finfo, NAN/NINF/PINF)
from ._sort import *  # noqa: F401,F403  (C: sort/search/statistics)
from . import linalg, random  # noqa: F401,E402  (C: np.linalg, np.random)
from ._printing import genfromtxt, set_printoptions  # noqa: F401,E402

# NumPy's scalar types and constants, as mx.np re-exports them
bool_ = _onp.bool_
int8, int32, int64, uint8 = _onp.int8, _onp.int32, _onp.int64, _onp.uint8
float16, float32, float64 = _onp.float16, _onp.float32, _onp.float64
dtype = _onp.dtype
newaxis = None
pi, e, inf, nan, euler_gamma = _onp.pi, _onp.e, _onp.inf, _onp.nan, _onp.euler_gamma
PZERO, NZERO = 0.0, -0.0
from . import _internal  # noqa: F401,E402  (mx.nd.np._internal: _npi_* operators)
