"""``mx.contrib.onnx``: ONNX import/export, not available in mxnet-ng.

Each entry point raises :class:`~mxnet.base.MXNetError` saying so; export the model with
``HybridBlock.export`` (MXNet's own JSON + params), which mxnet-ng reads and writes.
"""

from __future__ import annotations

from ..base import MXNetError

__all__ = ["export_model", "import_model", "get_model_metadata", "import_to_gluon"]


def _unsupported(name: str):
    def fn(*args, **kwargs):
        raise MXNetError(f"mx.contrib.onnx.{name}: ONNX conversion is not supported by "
                         "mxnet-ng; use HybridBlock.export / SymbolBlock.imports instead")

    fn.__name__ = name
    fn.__doc__ = f"Not supported: raises MXNetError (ONNX ``{name}``)."
    return fn


export_model = _unsupported("export_model")
import_model = _unsupported("import_model")
get_model_metadata = _unsupported("get_model_metadata")
import_to_gluon = _unsupported("import_to_gluon")
