"""Symbolic graphs: ``mx.sym``.

Examples
--------
>>> import mxnet as mx
>>> x = mx.sym.Variable('x')
>>> (x * 2).eval(x=mx.nd.ones((2,)))[0].asnumpy()
array([2., 2.], dtype=float32)
"""

from . import _internal, contrib, image, linalg, op, random, sparse
from ._create import Group, Variable, var
from ._frontend import (arange, eye, full, histogram, hypot, linspace, maximum, minimum, ones,
                        pow, power, split_v2, zeros)
from ._frontend import attach as _attach_frontends
from ._json import load, load_json
from ._namespace import attach_fluent as _attach_fluent
from .op import *  # noqa: F403
from .symbol import NotImplementedForSymbol, Symbol

_attach_fluent(Symbol)
_attach_frontends(Symbol)


def __getattr__(attr):
    """Operators registered after import (``mx.sym.<op>``) resolve lazily."""
    from ._namespace import lazy_getattr

    return lazy_getattr("op", __name__)(attr)
