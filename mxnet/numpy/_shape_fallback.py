"""``mx.np`` shape/selection functions that MXNet 1.9.1 runs through official NumPy (its
"fallback" operators): the arrays go to NumPy and the results come back as ``mx.np``
arrays (dtypes kept); they record no gradient."""

from __future__ import annotations

import numpy as _onp

from .multiarray import NDArray, array

__all__ = ["resize", "take_along_axis", "tril_indices_from", "triu_indices_from",
           "trim_zeros", "ix_", "compress", "extract", "choose", "select", "vander"]


def _to_onp(x):
    if isinstance(x, NDArray):
        return x.asnumpy()
    if isinstance(x, (list, tuple)):
        return type(x)(_to_onp(v) for v in x)
    return x


def _from_onp(x, ctx):
    if isinstance(x, _onp.ndarray):
        return array(x, dtype=x.dtype, ctx=ctx)
    if isinstance(x, (list, tuple)):
        return type(x)(_from_onp(v, ctx) for v in x)
    return x


def _first_ctx(values):
    for v in values:
        if isinstance(v, NDArray):
            return v.ctx
        if isinstance(v, (list, tuple)):
            c = _first_ctx(v)
            if c is not None:
                return c
    return None


def _fallback(name: str):
    fn = getattr(_onp, name)

    def wrapper(*args, **kwargs):
        ctx = _first_ctx(list(args) + list(kwargs.values()))
        res = fn(*_to_onp(args), **{k: _to_onp(v) for k, v in kwargs.items()})
        # MXNet 1.9.1 binds these names to NumPy's functions: plain inputs give NumPy results
        return res if ctx is None else _from_onp(res, ctx)

    wrapper.__name__ = name
    wrapper.__doc__ = (f"NumPy's ``{name}`` on ``mx.np`` arrays (computed by NumPy, as MXNet "
                       f"1.9.1 does).\n\n    Examples\n    --------\n    >>> from mxnet import "
                       f"np\n    >>> callable(np.{name})\n    True\n")
    return wrapper


_resize = _fallback("resize")


def resize(a, new_shape):
    """``a`` repeated or cut to ``new_shape`` (NumPy's ``resize``; a ``resize_fallback``
    Custom node for symbols, as MXNet 1.9.1).

    Examples
    --------
    >>> from mxnet import np
    >>> np.resize(np.array([1., 2., 3.]), (2, 2))
    array([[1., 2.],
           [3., 1.]])
    """
    if hasattr(a, "_outputs"):
        from ..numpy_op_fallback import custom_symbol

        return custom_symbol("resize_fallback", a, new_shape=new_shape)
    return _resize(a, new_shape)
take_along_axis = _fallback("take_along_axis")
tril_indices_from = _fallback("tril_indices_from")
triu_indices_from = _fallback("triu_indices_from")
trim_zeros = _fallback("trim_zeros")
ix_ = _fallback("ix_")
compress = _fallback("compress")
extract = _fallback("extract")
choose = _fallback("choose")
select = _fallback("select")


def vander(x, N=None, increasing=False):  # noqa: N803  (NumPy's name)
    """The Vandermonde matrix of ``x`` (float64 for float input, int64 for integers, as
    MXNet 1.9.1's NumPy fallback gives).

    Examples
    --------
    >>> from mxnet import np
    >>> np.vander(np.array([1., 2.]), 3)
    array([[1., 1., 1.],
           [4., 2., 1.]], dtype=float64)
    """
    a = _to_onp(x)
    a = _onp.asarray(a)
    a = a.astype(_onp.float64 if a.dtype.kind == "f" else _onp.int64)
    return _from_onp(_onp.vander(a, N, increasing), x.ctx if isinstance(x, NDArray) else None)
