"""``mx.contrib``: experimental APIs. ``mx.contrib.nd``/``sym`` are the contrib operators."""

import sys as _sys

from ..ndarray import contrib as nd
from ..ndarray import contrib as ndarray
from ..symbol import contrib as sym
from ..symbol import contrib as symbol
from . import autograd, io, onnx, tensorboard, text

# MXNet 1.x also has the modules ``mxnet.contrib.ndarray`` / ``mxnet.contrib.symbol``
# (``from mxnet.contrib.ndarray import MultiBoxPrior``): the same namespaces as
# ``mx.nd.contrib`` / ``mx.sym.contrib``
_sys.modules[__name__ + ".ndarray"] = ndarray
_sys.modules[__name__ + ".symbol"] = symbol

__all__ = ["nd", "ndarray", "sym", "symbol", "autograd", "io", "onnx", "tensorboard", "text"]


def __getattr__(name: str):
    # ``mx.contrib.amp`` (it pulls in gluon and module) and ``quantization`` (MXNet also
    # names it ``mx.contrib.quant``) load on first use
    if name in ("amp", "quantization", "quant"):
        import importlib

        mod = importlib.import_module("." + ("quantization" if name == "quant" else name), __name__)
        globals()[name] = mod
        return mod
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
