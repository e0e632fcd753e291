"""``mx.contrib.onnx``: convert models between MXNet and ONNX.

``export_model`` writes an ONNX file from a symbol and its parameters; ``import_model``,
``get_model_metadata`` and ``import_to_gluon`` read one back. The optional ``onnx`` package
(``pip install mxnet-ng[onnx]``) is imported only when a function is called.

Examples
--------
>>> import mxnet as mx
>>> mx.contrib.onnx.export_model(sym, params, [(1, 3, 224, 224)])  # doctest: +SKIP
'model.onnx'
"""

from __future__ import annotations

from . import _export, _import
from ._export import get_operator_support

__all__ = [
    "export_model",
    "import_model",
    "get_model_metadata",
    "import_to_gluon",
    "get_operator_support",
]

_IMPORT_NOTE = (
    "Please be advised that importing ONNX models into MXNet is going to be "
    "deprecated in the upcoming MXNet v1.10 release. The following apis will be "
    "deleted: mxnet.contrib.onnx.import_model/get_model_metadata/import_to_gluon."
)


def export_model(*args, **kwargs):
    """Export a symbol and params to ONNX (see :func:`mxnet.onnx.export_model`).

    Examples
    --------
    >>> export_model('net-symbol.json', 'net-0000.params', [(1, 4)])  # doctest: +SKIP
    'model.onnx'
    """
    print("Calling mxnet.contrib.onnx.export_model...")
    print(
        "Please be advised that the ONNX module has been moved to mxnet.onnx and "
        "mxnet.onnx.export_model is the preferred path. The current path will be deprecated "
        "in the upcoming MXNet v1.10 release."
    )
    return _export.export_model(*args, **kwargs)


def import_model(*args, **kwargs):
    """Load an ONNX file as ``(sym, arg_params, aux_params)``.

    Examples
    --------
    >>> sym, arg, aux = import_model('model.onnx')  # doctest: +SKIP
    """
    print("Calling mxnet.contrib.onnx.import_model...")
    print(_IMPORT_NOTE)
    return _import.import_model(*args, **kwargs)


def get_model_metadata(*args, **kwargs):
    """Input and output names/shapes of an ONNX file.

    Examples
    --------
    >>> get_model_metadata('model.onnx')['input_tensor_data']  # doctest: +SKIP
    [('data', (1, 4))]
    """
    print("Calling mxnet.contrib.onnx.get_model_metadata...")
    print(_IMPORT_NOTE)
    return _import.get_model_metadata(*args, **kwargs)


def import_to_gluon(*args, **kwargs):
    """Load an ONNX file as a Gluon ``SymbolBlock``.

    Examples
    --------
    >>> net = import_to_gluon('model.onnx', mx.cpu())  # doctest: +SKIP
    """
    print("Calling mxnet.contrib.onnx.import_to_gluon...")
    print(_IMPORT_NOTE)
    return _import.import_to_gluon(*args, **kwargs)
