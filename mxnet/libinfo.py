"""Library information (``mx.libinfo``): mxnet-ng has no native MXNet library."""

from __future__ import annotations

import logging
import os

from .base import MXNetError

__version__ = "1.9.1"
__all__ = ["find_lib_path", "find_include_path", "find_conf_path"]


def find_lib_path(prefix: str = "libmxnet"):
    """MXNet's shared library path; there is none: mxnet-ng runs on PyTorch."""
    raise MXNetError(
        "mxnet-ng has no libmxnet shared library: operators run on PyTorch "
        f"(torch is at {os.path.dirname(__import__('torch').__file__)})"
    )


def find_include_path() -> str:
    """Folder of the package's include files.

    ``MXNET_INCLUDE_PATH`` (an absolute path to an existing folder) wins, as in MXNet;
    otherwise the package's ``include/`` folder is returned. mxnet-ng has no C/C++ API, so
    that folder holds no MXNet headers (only a note saying so).

    Returns
    -------
    str
        The include folder, ending with a path separator.

    Examples
    --------
    >>> import os, mxnet as mx
    >>> os.path.isdir(mx.libinfo.find_include_path())
    True
    """
    env = os.environ.get("MXNET_INCLUDE_PATH")
    if env:
        if not os.path.isdir(env):
            logging.warning("MXNET_INCLUDE_PATH '%s' doesn't exist", env)
        elif not os.path.isabs(env):
            logging.warning("MXNET_INCLUDE_PATH should be an absolute path, instead of: %s", env)
        else:
            return env
    here = os.path.dirname(os.path.abspath(os.path.expanduser(__file__)))
    incl = os.path.join(here, "include/")
    if os.path.isdir(incl):
        return incl
    raise RuntimeError("Cannot find the MXNet include path in " + incl + "\n")


def find_conf_path(prefix: str = "tvmop"):
    """MXNet's TVM op config; not shipped by mxnet-ng."""
    raise MXNetError("mxnet-ng ships no TVM operator configuration")
