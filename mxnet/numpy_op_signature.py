"""Give the ``mx.np`` functions of MXNet's built-in ``_np_*`` operators the signatures listed
in :mod:`mxnet._numpy_op_doc` (what ``inspect.signature`` reports in MXNet 1.9.1).

Examples
--------
>>> import inspect
>>> from mxnet.numpy_op_signature import _get_builtin_op
>>> str(inspect.signature(_get_builtin_op('_np_sum')))
'(a, axis=None, dtype=None, keepdims=False, initial=None, out=None)'
"""

from __future__ import annotations

import inspect

from . import _numpy_op_doc
from . import numpy as _mx_np
from . import numpy_extension as _mx_npx

__all__: list[str] = []


def _get_builtin_op(op_name: str):
    """The ``mx.np`` (``_np_*``) or ``mx.npx`` (``_npx_*``) function of a built-in operator;
    None for other names."""
    for prefix, module in (("_np_", _mx_np), ("_npx_", _mx_npx)):
        if op_name.startswith(prefix):
            name = op_name[len(prefix):]
            for sub in ("linalg", "random"):  # submodule prefixes, as MXNet's
                if name.startswith(sub + "_"):
                    module, name = getattr(module, sub), name[len(sub) + 1:]
                    break
            op = getattr(module, name, None)
            if op is None:
                raise ValueError(f"Cannot find operator {name} in module {module.__name__}")
            return op
    return None


def _register_op_signatures() -> None:
    for op_name in dir(_numpy_op_doc):
        if not op_name.startswith(("_np_", "_npx_")):
            continue
        op = _get_builtin_op(op_name)
        if op is not None:
            op.__signature__ = inspect.signature(getattr(_numpy_op_doc, op_name))


_register_op_signatures()
