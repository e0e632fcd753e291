"""``mx.npx``: MXNet's extensions of the NumPy interface (neural-network operators, context
and mode helpers) for ``mx.np`` arrays (MXNet 1.9.1's ``mxnet.numpy_extension``).

Examples
--------
>>> from mxnet import np, npx
>>> npx.set_np()
>>> npx.relu(np.array([-1., 2.]))
array([0., 2.])
"""

from ..context import cpu, cpu_pinned, current_context, gpu, num_gpus  # noqa: F401
from ..util import (is_np_array, is_np_shape, np_array, np_shape, reset_np,  # noqa: F401
                    set_np, use_np, use_np_array, use_np_shape)
from . import image, random  # noqa: F401
from ._ops import *  # noqa: F401,F403
from ._utils import get_cuda_compute_capability, load, save, waitall  # noqa: F401
