"""MXNet 1.9.1's NumPy fallback operators: ``Custom`` operators (``op_type``
``resize_fallback``, ``unravel_index_fallback``, ``empty_like_fallback``) that compute with
official NumPy on the host. ``mx.np.resize`` / ``unravel_index`` / ``empty_like`` use them
when given symbols (``F.np`` in a hybridized block), so graphs and their JSON match MXNet's;
on arrays those functions call NumPy directly. They have no gradient.

Examples
--------
>>> import mxnet as mx
>>> x = mx.sym.var('x').as_np_ndarray()
>>> y = mx.sym.np.resize(x, (2, 3))
>>> y.infer_shape(x=(4,))[1]
[(2, 3)]
"""

from __future__ import annotations

import ast

import numpy as _onp

from . import operator
from .base import MXNetError

__all__: list[str] = []


def _literal(text):
    return ast.literal_eval(text) if isinstance(text, str) else text


class _Fallback(operator.CustomOp):
    def __init__(self, fn):
        super().__init__()
        self._fn = fn

    def forward(self, is_train, req, in_data, out_data, aux):
        from . import numpy as mx_np

        res = _onp.asarray(self._fn(in_data[0].asnumpy()))
        self.assign(out_data[0], req[0],
                    mx_np.array(res.astype(out_data[0].dtype), ctx=out_data[0].context))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        raise MXNetError(f"Operator {self._name} does not support gradient computation")


def _op(name, fn):
    op = _Fallback(fn)
    op._name = name
    return op


@operator.register("resize_fallback")
class ResizeProp(operator.CustomOpProp):
    """``numpy.resize(a, new_shape)``."""

    def __init__(self, new_shape):
        super().__init__(need_top_grad=True)
        shape = _literal(new_shape)
        self._new_shape = (shape,) if _onp.isscalar(shape) else tuple(shape)

    def list_arguments(self):
        return ["a"]

    def infer_shape(self, in_shape):
        return [in_shape[0]], [self._new_shape], []

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _op("resize", lambda a: _onp.resize(a, self._new_shape))


@operator.register("unravel_index_fallback")
class UnravelIndexProp(operator.CustomOpProp):
    """``numpy.unravel_index(indices, shape)`` stacked into one array (``len(shape), ...``)."""

    def __init__(self, shape):
        super().__init__(need_top_grad=True)
        shape = _literal(shape)
        self._shape = (shape,) if _onp.isscalar(shape) else tuple(shape)

    def list_arguments(self):
        return ["indices"]

    def infer_shape(self, in_shape):
        return [in_shape[0]], [(len(self._shape),) + tuple(in_shape[0])], []

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _op("unravel_index",
                   lambda a: _onp.stack(_onp.unravel_index(a.astype(_onp.int64), self._shape)))


@operator.register("empty_like_fallback")
class EmptyLikeProp(operator.CustomOpProp):
    """``numpy.empty_like(prototype, dtype)`` (the values are unspecified)."""

    def __init__(self, dtype="None", order="C", subok="False", shape="None"):
        super().__init__(need_top_grad=True)
        self._dtype = None if dtype in ("None", None) else dtype

    def list_arguments(self):
        return ["prototype"]

    def infer_shape(self, in_shape):
        return [in_shape[0]], [in_shape[0]], []

    def infer_type(self, in_type):
        out = in_type[0] if self._dtype is None else _onp.dtype(self._dtype).type
        return [in_type[0]], [out], []

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _op("empty_like", lambda a: _onp.zeros_like(a))


def custom_symbol(op_type: str, data, **attrs):
    """A ``Custom`` node of fallback operator ``op_type`` on ``data`` (an ``mx.sym.np``
    symbol), returned as ``_Symbol``."""
    from .symbol import Custom
    from .symbol.numpy import _as_np_sym

    return _as_np_sym(Custom(data, op_type=op_type, **{k: str(v) for k, v in attrs.items()}))
