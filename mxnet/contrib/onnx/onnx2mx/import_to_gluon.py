"""``mxnet.contrib.onnx.onnx2mx.import_to_gluon``: ``import_to_gluon`` (MXNet 1.9.1's path).

Examples
--------
>>> from mxnet.contrib.onnx.onnx2mx.import_to_gluon import import_to_gluon
>>> callable(import_to_gluon)
True
"""

from .._import import import_to_gluon

__all__ = ["import_to_gluon"]
