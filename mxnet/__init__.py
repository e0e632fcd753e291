"""mxnet-ng: the Apache MXNet 1.x Python API on PyTorch kernels.

Examples
--------
>>> import mxnet as mx
>>> (mx.nd.ones((2, 3)) * 2).asnumpy()
array([[2., 2., 2.],
       [2., 2., 2.]], dtype=float32)
"""

__version__ = "1.9.1"

from . import base
from .base import MXNetError
from . import _op
from . import context
from .context import Context, cpu, cpu_pinned, current_context, gpu
from . import ndarray
from . import ndarray as nd
from . import autograd
