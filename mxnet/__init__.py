"""mxnet-ng: the Apache MXNet 1.x Python API on PyTorch kernels.

Examples
--------
>>> import mxnet as mx
>>> (mx.nd.ones((2, 3)) * 2).asnumpy()
array([[2., 2., 2.],
       [2., 2., 2.]], dtype=float32)
"""

__version__ = "1.9.1"

from . import _malloc  # noqa: F401  (keeps freed CPU memory pooled, as MXNet does)
from . import base
from .base import MXNetError
from . import _op
from . import context
from .context import Context, cpu, cpu_pinned, current_context, gpu
from . import engine
from . import ndarray
from . import ndarray as nd
from . import autograd
from . import random
from . import random as rnd
from . import name
from . import attribute
from .attribute import AttrScope
from . import symbol
from . import symbol as sym
from . import executor
from . import operator
from . import io
from . import recordio
from . import image
from . import image as img
from . import initializer
from . import initializer as init
from . import optimizer
from . import optimizer as opt
from . import lr_scheduler
from . import metric
from . import callback
from . import kvstore
from . import kvstore as kv
from . import model
from . import monitor
from . import monitor as mon
from . import module
from . import module as mod
from . import gluon
from . import profiler
from . import runtime
from . import util
from .util import (is_np_array, is_np_shape, np_array, np_shape, set_np_shape, use_np,
                   use_np_array, use_np_shape)
from . import numpy
from . import numpy as np
from . import numpy_extension
from . import numpy_extension as npx
from .symbol import numpy as _sym_np  # noqa: E402
from .symbol import numpy_extension as _sym_npx  # noqa: E402

# MXNet's other paths to the NumPy interface: mx.nd.np / mx.nd.npx (the array functions) and
# mx.sym.np / mx.sym.npx (symbols, what F.np / F.npx are in a hybridized block)
ndarray.np = ndarray.numpy = numpy
ndarray.npx = ndarray.numpy_extension = numpy_extension
symbol.np = symbol.numpy = _sym_np
symbol.npx = symbol.numpy_extension = _sym_npx
import sys as _sys  # noqa: E402

_sys.modules.setdefault(__name__ + ".ndarray.numpy", numpy)
_sys.modules.setdefault(__name__ + ".ndarray.numpy_extension", numpy_extension)
del _sys
from . import test_utils
from . import symbol_doc
from . import visualization
from . import visualization as viz
from . import libinfo
from . import log
from . import contrib
from . import error
from . import library
from . import rtc
from . import onnx
from . import rnn
from . import numpy_op_signature  # noqa: E402,F401  (MXNet signatures of mx.np built-ins)
from . import numpy_op_fallback  # noqa: E402,F401  (resize/unravel_index fallback Custom ops)

