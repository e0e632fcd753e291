"""Library information (``mx.libinfo``): mxnet-ng has no native MXNet library."""

from __future__ import annotations

import os

from .base import MXNetError

__version__ = "1.9.1"
__all__ = ["find_lib_path", "find_include_path", "find_conf_path"]


def find_lib_path(prefix: str = "libmxnet"):
    """MXNet's shared library path; there is none: mxnet-ng runs on PyTorch."""
    raise MXNetError("mxnet-ng has no libmxnet shared library: operators run on PyTorch "
                     f"(torch is at {os.path.dirname(__import__('torch').__file__)})")


def find_include_path():
    """MXNet's C++ headers; not shipped by mxnet-ng."""
    raise MXNetError("mxnet-ng ships no MXNet C++ headers")


def find_conf_path(prefix: str = "tvmop"):
    """MXNet's TVM op config; not shipped by mxnet-ng."""
    raise MXNetError("mxnet-ng ships no TVM operator configuration")
