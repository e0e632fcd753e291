"""``mx.onnx``: MXNet 1.9.1's home of the ONNX exporter (``mx.contrib.onnx`` holds the same
functions plus ``import_model``).

Examples
--------
>>> from mxnet import onnx as mx_onnx
>>> callable(mx_onnx.export_model)
True
"""

from ..contrib.onnx._export import export_model, get_operator_support

__all__ = ["export_model", "get_operator_support"]
