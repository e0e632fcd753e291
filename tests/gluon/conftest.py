# TEMPORARY (development only): stand-in for mxnet.initializer until it lands.
import os
import sys

try:
    import mxnet.initializer  # noqa: F401
except ImportError:
    sys.path.insert(0, "/tmp/shim")
    import initshim  # noqa: F401
