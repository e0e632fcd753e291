"""``mx.sym.npx``: the ``npx`` operators on NumPy-interface symbols (``_Symbol``).

The front ends are those of :mod:`mxnet.numpy_extension`: they dispatch on their inputs and
build ``_Symbol`` graphs when given symbols, so ``mx.sym.npx.relu(x)`` and ``npx.relu(x)``
are the same function.

Examples
--------
>>> import mxnet as mx
>>> from mxnet.symbol.numpy import _as_np_sym
>>> x = _as_np_sym(mx.sym.var('x'))
>>> mx.sym.npx.relu(x).list_arguments()  # doctest: +SKIP
['x']
"""

from ...numpy_extension import image  # noqa: F401  (its front ends take symbol inputs)
from ...numpy_extension._ops import *  # noqa: F401,F403
from ...numpy_extension._ops import __all__ as _ops_all
from ...util import is_np_array, is_np_shape, reset_np, set_np  # noqa: F401
from ..numpy import _SymbolicRandom

# samplers with scalar parameters build graph nodes (F.npx.random in hybridized blocks)
random = _SymbolicRandom("mxnet.numpy_extension.random")

__all__ = list(_ops_all) + ["set_np", "reset_np", "is_np_array", "is_np_shape", "image",
                            "random"]
