"""``mx.init``: an alias of :mod:`mxnet.initializer`."""

from .initializer import *  # noqa: F403
from .initializer import __all__  # noqa: F401
