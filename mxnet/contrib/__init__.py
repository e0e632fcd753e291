"""``mx.contrib``: experimental APIs. ``mx.contrib.nd``/``sym`` are the contrib operators."""

from ..ndarray import contrib as nd
from ..ndarray import contrib as ndarray
from ..symbol import contrib as sym
from ..symbol import contrib as symbol
from . import autograd, io, onnx, text

__all__ = ["nd", "ndarray", "sym", "symbol", "autograd", "io", "onnx", "text"]
