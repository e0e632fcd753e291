"""``mxnet.contrib.onnx.onnx2mx``: MXNet 1.9.1's module path of the ONNX importer
(``onnx2mx.import_model.import_model``, ``onnx2mx.import_to_gluon.import_to_gluon``)."""

from . import import_model, import_to_gluon

__all__ = ["import_model", "import_to_gluon"]
