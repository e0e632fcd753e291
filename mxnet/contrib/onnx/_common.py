"""Shared helpers of the ONNX converters: lazy ``onnx`` import and the emit context."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["require_onnx", "ExportContext", "OPSET", "IR_VERSION"]

#: Opset written into exported files. MXNet 1.9.1 writes the installed onnx's newest opset
#: with its opset-13 translations; 15 keeps those op forms and makes BatchNormalization run in
#: inference mode by default (``training_mode=0``) in every runtime.
OPSET = 15
#: IR version matching :data:`OPSET`.
IR_VERSION = 8


def require_onnx() -> Any:
    """Import the optional ``onnx`` package, raising a clear error when it is missing.

    Examples
    --------
    >>> onnx = require_onnx()  # doctest: +SKIP
    """
    try:
        import onnx
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "Onnx and protobuf need to be installed. Instructions to install "
            "- https://github.com/onnx/onnx (pip install onnx)"
        ) from e
    return onnx


class ExportContext:
    """Collects ONNX nodes and constant initializers while a graph is converted.

    Parameters
    ----------
    onnx : module
        The imported ``onnx`` package.
    """

    def __init__(self, onnx: Any):
        self.onnx = onnx
        self.nodes: list = []
        self.initializers: list = []
        self._names: set[str] = set()
        #: element types of the current node's inputs / outputs (set by the graph walker)
        self.in_dtypes: list = []
        self.out_dtypes: list = []

    def in_dtype(self, i: int = 0) -> Any:
        """NumPy dtype of the current node's ``i``-th input (float32 when unknown)."""
        return self.in_dtypes[i] if i < len(self.in_dtypes) else np.dtype(np.float32)

    def out_dtype(self, i: int = 0) -> Any:
        """NumPy dtype of the current node's ``i``-th output (float32 when unknown)."""
        return self.out_dtypes[i] if i < len(self.out_dtypes) else np.dtype(np.float32)

    def onnx_type(self, dtype: Any) -> int:
        """ONNX TensorProto element type of a NumPy dtype."""
        return int(self.onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dtype)))

    def node(
        self, op_type: str, inputs: list[str], outputs: list[str], name: str = "", **attrs: Any
    ) -> str:
        """Append one ONNX node; returns its first output name."""
        self.nodes.append(self.onnx.helper.make_node(op_type, inputs, outputs, name=name, **attrs))
        self._names.update(outputs)
        return outputs[0]

    def const(self, name: str, value: Any, dtype: Any = np.int64) -> str:
        """Add a constant initializer (unique name derived from ``name``); returns its name."""
        base, i = name, 0
        while name in self._names:
            i += 1
            name = f"{base}{i}"
        self._names.add(name)
        arr = np.asarray(value, dtype=dtype)
        self.initializers.append(self.onnx.numpy_helper.from_array(arr, name))
        return name
