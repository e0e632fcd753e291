"""``mx.np`` math functions that MXNet 1.9.1 serves by falling back to official NumPy
(``isclose``, ``allclose``, ``nanmax``, ``float_power``, ``modf``...).

As in MXNet, the arguments are copied to NumPy arrays, the official NumPy function runs on
the CPU, and array results come back as ``mx.np.ndarray`` on the context of the first array
argument (NumPy scalars, Python values and tuples are returned as NumPy gives them, with
arrays inside tuples converted).
"""

from __future__ import annotations

import numpy as _onp

from .multiarray import NDArray, array

_NAMES = ("allclose", "alltrue", "array_equal", "array_equiv", "divmod", "float_power",
          "frexp", "heaviside", "i0", "isclose", "modf", "nanargmax", "nanargmin",
          "nancumprod", "nancumsum", "nanmax", "nanmin", "nanprod", "positive", "real",
          "signbit", "spacing", "trapz", "unwrap", "interp", "correlate", "apply_along_axis",
          "apply_over_axes", "packbits", "unpackbits", "piecewise", "poly", "polyadd",
          "polydiv", "polyfit", "polyint", "polymul", "polysub", "roots", "promote_types",
          "result_type", "min_scalar_type")

__all__ = list(_NAMES)


def _to_numpy(x):
    if isinstance(x, NDArray):
        return x.asnumpy()
    if isinstance(x, (list, tuple)):
        return type(x)(_to_numpy(v) for v in x)
    return x


def _first_ctx(args, kwargs):
    for v in list(args) + list(kwargs.values()):
        if isinstance(v, NDArray):
            return v.ctx
        if isinstance(v, (list, tuple)):
            c = _first_ctx(v, {})
            if c is not None:
                return c
    return None


def _to_mx(r, ctx):
    if isinstance(r, _onp.ndarray):
        return array(r, dtype=r.dtype, ctx=ctx)
    if isinstance(r, tuple):
        return tuple(_to_mx(v, ctx) for v in r)
    return r


def _numpy_function(name: str):
    if name == "alltrue":
        return _onp.all
    if name == "trapz":
        return getattr(_onp, "trapz", None) or _onp.trapezoid
    return getattr(_onp, name)


def _make(name: str):
    ref = _numpy_function(name)

    def fn(*args, **kwargs):
        from ..symbol import Symbol

        if any(isinstance(v, Symbol) for v in list(args) + list(kwargs.values())):
            raise TypeError(f"{name}: this function falls back to official NumPy and does not "
                            "accept symbols")
        ctx = _first_ctx(args, kwargs)
        res = ref(*[_to_numpy(a) for a in args], **{k: _to_numpy(v) for k, v in kwargs.items()})
        # as MXNet 1.9.1 (these names are NumPy's own functions there), only mx.np array
        # arguments bring the result back as mx.np arrays; plain inputs give NumPy results
        return res if ctx is None else _to_mx(res, ctx)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"NumPy's ``{name}``, computed by official NumPy on copies of the inputs "
                  f"(MXNet's fallback).\n\nExamples\n--------\n>>> from mxnet import np\n"
                  f">>> np.isclose(np.array([1.0]), np.array([1.0])).tolist()\n[True]\n")
    return fn


for _n in _NAMES:
    globals()[_n] = _make(_n)
