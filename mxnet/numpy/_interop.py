"""NumPy's dispatch protocols for ``mx.np.ndarray`` (``__array_ufunc__``,
``__array_function__``): as in MXNet 1.9.1, the official NumPy functions and ufuncs listed
in :mod:`mxnet.numpy_dispatch_protocol` called on ``mx.np`` arrays run the ``mx.np`` function
of the same name and return ``mx.np`` arrays (``numpy.exp(a)``, ``numpy.concatenate([a, a])``);
the others run in NumPy on copies and their array results come back as ``mx.np`` arrays
(refused while autograd records, as MXNet).
"""

from __future__ import annotations

import numpy as _onp

__all__ = ["array_ufunc", "array_function"]

# ufuncs that are Python operators of the array (scalars on either side keep MXNet's rules)
_OPERATOR_UFUNCS = {
    "add": "add",
    "subtract": "sub",
    "multiply": "mul",
    "true_divide": "div",
    "divide": "div",
    "remainder": "mod",
    "mod": "mod",
    "power": "pow",
    "equal": "eq",
    "not_equal": "ne",
    "greater": "gt",
    "greater_equal": "ge",
    "less": "lt",
    "less_equal": "le",
}


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


def _check_not_recording(name) -> None:
    from .._op._state import state

    if state.is_recording:
        raise ValueError(
            f"Falling back to NumPy operator {name} with autograd active is not "
            "supported.Please consider moving the operator to the outside of the "
            "autograd scope."
        )


def array_ufunc(arr, ufunc, method: str, *inputs, **kwargs):
    """``arr.__array_ufunc__``: the ``mx.np`` counterpart of a ufunc MXNet dispatches, else
    the NumPy ufunc on copies (array results converted back)."""
    from ..numpy_dispatch_protocol import ufunc_for

    if method != "__call__":
        return NotImplemented
    if "out" in kwargs:
        out = kwargs["out"]
        if isinstance(out, tuple):
            if len(out) != 1:
                raise ValueError("The `out` parameter must have exactly one ndarray")
            kwargs["out"] = out[0]
    name = ufunc.__name__
    fn = ufunc_for(name)
    if fn is None:
        _check_not_recording(name)
        res = ufunc(*_to_onp(list(inputs)), **_to_onp(kwargs))
        return _from_onp(res, arr.ctx)
    kind = _OPERATOR_UFUNCS.get(name)
    if kind is not None and len(inputs) == 2 and not kwargs:
        a, b = (x[()] if isinstance(x, _onp.ndarray) and x.ndim == 0 else x for x in inputs)
        return arr._binary(kind, b) if a is arr else arr._binary(kind, a, reflected=True)
    return fn(*inputs, **kwargs)


def array_function(arr, func, types, args, kwargs):
    """``arr.__array_function__``: the ``mx.np`` function MXNet dispatches ``func`` to, else
    ``func`` itself on NumPy copies (array results converted back)."""
    from ..numpy_dispatch_protocol import function_for

    fn = function_for(func)
    if fn is not None:
        from .multiarray import ndarray

        if not all(issubclass(t, ndarray) for t in types):
            return NotImplemented  # other array types (NumPy's) mixed in: NumPy raises TypeError
        return fn(*args, **kwargs)
    _check_not_recording(func)
    res = func(*_to_onp(list(args)), **_to_onp(dict(kwargs)))
    return _from_onp(res, arr.ctx)
