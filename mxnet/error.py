"""Structured error classes (MXNet's ``mxnet.error``).

Examples
--------
>>> import mxnet as mx
>>> try:
...     raise mx.error.InternalError("boom")
... except mx.MXNetError as e:
...     print(type(e).__name__)
InternalError
"""

from __future__ import annotations

from .base import MXNetError, register_error

__all__ = ["MXNetError", "InternalError", "register", "register_error"]

register = register_error


@register_error
class InternalError(MXNetError):
    """An error inside the framework itself (a bug, not a usage error)."""
