"""NumPy's dispatch protocols for ``mx.np.ndarray`` (``__array_ufunc__``,
``__array_function__``): as in MXNet 1.9.1, official NumPy functions and ufuncs called on
``mx.np`` arrays run the ``mx.np`` function of the same name and return ``mx.np`` arrays
(``numpy.exp(a)``, ``numpy.concatenate([a, a])``); functions ``mx.np`` lacks run in NumPy on
copies and their array results come back as ``mx.np`` arrays.
"""

from __future__ import annotations

import numpy as _onp

__all__ = ["array_ufunc", "array_function"]

# ufuncs that are Python operators of the array (scalars on either side keep MXNet's rules)
_OPERATOR_UFUNCS = {
    "add": "add", "subtract": "sub", "multiply": "mul", "true_divide": "div",
    "divide": "div", "remainder": "mod", "mod": "mod", "power": "pow", "equal": "eq",
    "not_equal": "ne", "greater": "gt", "greater_equal": "ge", "less": "lt",
    "less_equal": "le",
}


def _mx_np():
    from .. import numpy as mnp

    return mnp


def _to_onp(x):
    from ..ndarray.ndarray import NDArray

    if isinstance(x, NDArray):
        return x.asnumpy()
    if isinstance(x, (list, tuple)):
        return type(x)(_to_onp(v) for v in x)
    if isinstance(x, dict):
        return {k: _to_onp(v) for k, v in x.items()}
    return x


def _from_onp(x, ctx):
    if isinstance(x, _onp.ndarray):
        from .multiarray import array

        return array(x, dtype=x.dtype, ctx=ctx)
    if isinstance(x, (list, tuple)):
        return type(x)(_from_onp(v, ctx) for v in x)
    return x


def array_ufunc(arr, ufunc, method: str, *inputs, **kwargs):
    """``arr.__array_ufunc__``: run the ``mx.np`` counterpart of ``ufunc``."""
    if method != "__call__" or kwargs.get("out") is not None:
        return NotImplemented
    name = ufunc.__name__
    kind = _OPERATOR_UFUNCS.get(name)
    if kind is not None and len(inputs) == 2 and not kwargs:
        a, b = (x[()] if isinstance(x, _onp.ndarray) and x.ndim == 0 else x for x in inputs)
        return arr._binary(kind, b) if a is arr else arr._binary(kind, a, reflected=True)
    fn = getattr(_mx_np(), name, None)
    if fn is None or not callable(fn):
        return NotImplemented
    return fn(*inputs, **kwargs)


def array_function(arr, func, types, args, kwargs):
    """``arr.__array_function__``: the ``mx.np`` function of the same name, else NumPy's on
    copies (array results converted back)."""
    ns = _mx_np()
    for sub in ("linalg", "random", "fft"):
        if getattr(func, "__module__", "").startswith(f"numpy.{sub}"):
            ns = getattr(ns, sub, None)
            break
    fn = getattr(ns, func.__name__, None) if ns is not None else None
    if fn is not None and callable(fn) and fn is not func and \
            getattr(fn, "__module__", "").startswith("mxnet"):
        return fn(*args, **kwargs)
    res = func(*_to_onp(list(args)), **_to_onp(dict(kwargs)))
    return _from_onp(res, arr.ctx)
