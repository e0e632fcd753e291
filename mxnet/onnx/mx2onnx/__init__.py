"""``mxnet.onnx.mx2onnx``: MXNet 1.9.1's module path of the ONNX exporter.

Examples
--------
>>> from mxnet.onnx.mx2onnx import export_model
>>> callable(export_model)
True
"""

from ...contrib.onnx._export import export_model, get_operator_support

__all__ = ["export_model", "get_operator_support"]
