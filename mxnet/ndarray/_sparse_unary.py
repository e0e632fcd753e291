"""Zero-preserving element-wise operators on sparse arrays (``mx.nd.sparse.sqrt`` ...).

For an operator ``f`` with ``f(0) == 0`` MXNet keeps the input's storage type: ``f`` is
applied to the stored values only and the indices are kept. The same functions back the
fluent methods of the sparse classes (``csr.sqrt()``). Dense inputs, or extra arguments,
go to the generated dense operator.
"""

from __future__ import annotations

from ._namespace import function_for
from ._sparse_base import BaseSparseNDArray, new_sparse
from .ndarray import NDArray

__all__ = ["ZERO_PRESERVING", "make_unary", "zeros_like", "attach_sparse_fluent"]

# operators whose sparse form MXNet 1.9.1 keeps (checked with the oracle); make_loss and
# stop_gradient are identities in the forward pass
ZERO_PRESERVING = tuple(
    "abs arcsin arcsinh arctan arctanh cbrt ceil degrees expm1 fix floor log1p negative "
    "radians relu rint round sign sin sinh sqrt square tan tanh trunc make_loss "
    "stop_gradient".split())


def make_unary(name: str):
    """The ``mx.nd.sparse`` function for the zero-preserving operator ``name``."""
    dense_fn = function_for(name)

    def fn(data, out=None, name=None, **kwargs):
        if isinstance(data, BaseSparseNDArray) and not kwargs:
            vals = dense_fn(NDArray._wrap(data._sdata.detach(), data._ctx))._t
            res = new_sparse(data.stype, vals, [a.clone() for a in data._saux], data.shape,
                             data._ctx)
            if out is not None:
                res.copyto(out)
                return out
            return res
        return dense_fn(data, out=out, **kwargs)

    fn.__name__ = fn.__qualname__ = dense_fn.__name__
    fn.__module__ = "mxnet.ndarray.sparse"
    fn.__doc__ = (f"``{name}`` keeping the storage type of a sparse input (applied to the "
                  f"stored values); dense inputs use :func:`mxnet.ndarray.{name}`.")
    return fn


def zeros_like(data, out=None, name=None, **kwargs):
    """An all-zero array with the shape, dtype and storage type of ``data``."""
    if isinstance(data, BaseSparseNDArray):
        from ._sparse_ops import zeros

        res = zeros(data.stype, data.shape, data._ctx, data.dtype)
        if out is not None:
            res.copyto(out)
            return out
        return res
    return function_for("zeros_like")(data, out=out, **kwargs)


def attach_sparse_fluent(cls) -> None:
    """Give ``cls`` storage-keeping fluent methods (``csr.sqrt()``, ``rsp.zeros_like()``)."""
    from .._op._gen import FLUENT_METHODS

    for name in ZERO_PRESERVING + ("zeros_like",):
        if name not in FLUENT_METHODS:
            continue
        fn = zeros_like if name == "zeros_like" else make_unary(name)

        def method(self, *args, _fn=fn, **kwargs):
            return _fn(self, *args, **kwargs)

        method.__name__ = name
        method.__doc__ = f"Fluent form of :func:`mxnet.ndarray.sparse.{name}`."
        setattr(cls, name, method)
