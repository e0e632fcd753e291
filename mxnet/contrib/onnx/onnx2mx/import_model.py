"""``mxnet.contrib.onnx.onnx2mx.import_model``: ``import_model`` and ``get_model_metadata``
without the deprecation notes ``mx.contrib.onnx`` prints (as MXNet 1.9.1).

Examples
--------
>>> from mxnet.contrib.onnx.onnx2mx.import_model import import_model
>>> callable(import_model)
True
"""

from .._import import get_model_metadata, import_model

__all__ = ["import_model", "get_model_metadata"]
