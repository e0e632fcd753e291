"""Imperative arrays: ``mx.nd``."""

from .ndarray import NDArray
from .ndarray import _DTYPE_MX_TO_NP, _DTYPE_NP_TO_MX, _GRAD_REQ_MAP
from . import _internal, contrib, image, linalg, op, random, sparse
from .op import *
# the Python front ends win over same-named generated operators
from .ndarray import (arange, array, concatenate, empty, from_dlpack, from_numpy, full,
                      moveaxis, onehot_encode, ones, waitall, zeros)
from .utils import load, load_frombuffer, save
# storage-aware (MXNet returns a CSRNDArray / RowSparseNDArray here)
from ._sparse_ops import cast_storage
from ._imdecode import imdecode  # the legacy (deprecated) decoder
from ._cached_op import CachedOp
from ._namespace import attach_fluent as _attach_fluent
from ._frontends import attach as _attach_frontends
from ._frontends import *

_attach_fluent(NDArray)
_attach_frontends(NDArray)
