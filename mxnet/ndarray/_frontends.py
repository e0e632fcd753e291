"""Hand-written ``mx.nd`` front ends that wrap registry operators (as MXNet's Python does)."""

from __future__ import annotations

from .._op._slice import split_v2_indices
from ._namespace import function_for

__all__ = ["split_v2"]


def split_v2(ary, indices_or_sections, axis: int = 0, squeeze_axis: bool = False):
    """Split an array into sub-arrays by section count or split points.

    Examples
    --------
    >>> a = mx.nd.arange(24).reshape((2, 3, 4))
    >>> [x.shape for x in mx.nd.split_v2(a, 2, axis=2)]
    [(2, 3, 2), (2, 3, 2)]
    """
    indices = split_v2_indices(ary.shape, indices_or_sections, axis)
    res = function_for("_split_v2")(ary, indices=indices, axis=axis, squeeze_axis=squeeze_axis,
                                    sections=0)
    return res if isinstance(res, list) else [res]


def _split_v2_method(self, indices_or_sections, axis=0, squeeze_axis=False):
    return split_v2(self, indices_or_sections, axis, squeeze_axis)


def attach(cls) -> None:
    """Install front-end based methods on NDArray (overriding generated ones)."""
    cls.split_v2 = _split_v2_method


# -- MXNet's scalar-or-array binary front ends (mx.nd.add, mx.nd.maximum, ...) ------------

# name: (array-array op, array-scalar op, scalar-array op, python fallback for two scalars)
_UFUNCS = {
    "add": ("broadcast_add", "_plus_scalar", "_plus_scalar", lambda a, b: a + b),
    "subtract": ("broadcast_sub", "_minus_scalar", "_rminus_scalar", lambda a, b: a - b),
    "multiply": ("broadcast_mul", "_mul_scalar", "_mul_scalar", lambda a, b: a * b),
    "divide": ("broadcast_div", "_div_scalar", "_rdiv_scalar", lambda a, b: a / b),
    "true_divide": ("broadcast_div", "_div_scalar", "_rdiv_scalar", lambda a, b: a / b),
    "modulo": ("broadcast_mod", "_mod_scalar", "_rmod_scalar", lambda a, b: a % b),
    "power": ("broadcast_power", "_power_scalar", "_rpower_scalar", lambda a, b: a ** b),
    "maximum": ("broadcast_maximum", "_maximum_scalar", "_maximum_scalar", max),
    "minimum": ("broadcast_minimum", "_minimum_scalar", "_minimum_scalar", min),
    "equal": ("broadcast_equal", "_equal_scalar", "_equal_scalar",
              lambda a, b: 1 if a == b else 0),
    "not_equal": ("broadcast_not_equal", "_not_equal_scalar", "_not_equal_scalar",
                  lambda a, b: 1 if a != b else 0),
    "greater": ("broadcast_greater", "_greater_scalar", "_lesser_scalar",
                lambda a, b: 1 if a > b else 0),
    "greater_equal": ("broadcast_greater_equal", "_greater_equal_scalar",
                      "_lesser_equal_scalar", lambda a, b: 1 if a >= b else 0),
    "lesser": ("broadcast_lesser", "_lesser_scalar", "_greater_scalar",
               lambda a, b: 1 if a < b else 0),
    "lesser_equal": ("broadcast_lesser_equal", "_lesser_equal_scalar",
                     "_greater_equal_scalar", lambda a, b: 1 if a <= b else 0),
    "logical_and": ("broadcast_logical_and", "_logical_and_scalar", "_logical_and_scalar",
                    lambda a, b: 1 if a and b else 0),
    "logical_or": ("broadcast_logical_or", "_logical_or_scalar", "_logical_or_scalar",
                   lambda a, b: 1 if a or b else 0),
    "logical_xor": ("broadcast_logical_xor", "_logical_xor_scalar", "_logical_xor_scalar",
                    lambda a, b: 1 if bool(a) != bool(b) else 0),
}


def _make_ufunc(name: str, ops):
    both, right, left, pyfn = ops

    def fn(lhs, rhs):
        from ..base import numeric_types
        from .ndarray import NDArray

        if isinstance(lhs, numeric_types) and isinstance(rhs, numeric_types):
            return pyfn(lhs, rhs)
        if isinstance(rhs, numeric_types):
            return function_for(right)(lhs, scalar=float(rhs))
        if isinstance(lhs, numeric_types):
            return function_for(left)(rhs, scalar=float(lhs))
        if isinstance(lhs, NDArray) and isinstance(rhs, NDArray):
            return function_for(both)(lhs, rhs)
        raise TypeError(f"type {type(rhs) if isinstance(lhs, NDArray) else type(lhs)} "
                        "not supported")

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``{name}`` of two arrays (broadcasting) or of an array and a scalar.\n\n"
                  f"Examples\n--------\n>>> mx.nd.{name}(mx.nd.ones((2,)), 2)  # doctest: +SKIP\n")
    return fn


for _name, _ops in _UFUNCS.items():
    globals()[_name] = _make_ufunc(_name, _ops)
__all__ += list(_UFUNCS)
_power_lr = globals()["power"]


def power(base, exp):
    """``base`` raised to ``exp`` (arrays broadcast; either may be a scalar).

    Examples
    --------
    >>> mx.nd.power(mx.nd.array([2, 3]), 2).asnumpy()
    array([4., 9.], dtype=float32)
    """
    return _power_lr(base, exp)


def eye(N, M=0, k=0, ctx=None, dtype="float32", **kwargs):
    """A 2-D array with ones on the ``k``-th diagonal."""
    from ._create import _resolve_ctx

    return function_for("_eye")(N=N, M=M, k=k, ctx=_resolve_ctx(ctx), dtype=dtype, **kwargs)


def linspace(start, stop, num, endpoint=True, ctx=None, dtype="float32"):
    """``num`` evenly spaced numbers over ``[start, stop]``."""
    from ._create import _resolve_ctx

    return function_for("_linspace")(start=start, stop=stop, num=num, endpoint=endpoint,
                                     ctx=_resolve_ctx(ctx), dtype=dtype)


def to_dlpack_for_read(data):
    """DLPack capsule of ``data`` for reading."""
    return data.to_dlpack_for_read()


def to_dlpack_for_write(data):
    """DLPack capsule of ``data`` for writing."""
    return data.to_dlpack_for_write()


__all__ += ["eye", "linspace", "to_dlpack_for_read", "to_dlpack_for_write"]


def histogram(a, bins=10, range=None):  # noqa: A002  (MXNet's argument name)
    """Histogram of ``a``: ``(counts, bin_edges)``.

    ``bins`` is a count (then ``range`` gives the interval; without it NumPy's result is
    used, as MXNet does) or an NDArray of bin edges.
    """
    import warnings

    import numpy as np

    from ..base import integer_types
    from .ndarray import NDArray

    if isinstance(bins, NDArray):
        return function_for("_histogram")(a, bins)
    if isinstance(bins, integer_types):
        if range is None:
            warnings.warn("range is not specified, using numpy's result to ensure consistency "
                          "with numpy", stacklevel=2)
            from ._create import array

            data = a.asnumpy()
            # edges in float64, then the data's type: what NumPy 1.x (MXNet's) computes;
            # NumPy 2 would compute float32 data's edges in float32
            wide = data.astype(np.float64) if data.dtype.kind == "f" else data
            res, edges = np.histogram(wide, bins=bins)
            if data.dtype.kind == "f":
                edges = edges.astype(data.dtype)
            return array(res), array(edges)
        return function_for("_histogram")(a, bin_cnt=bins, range=range)
    raise ValueError("bins argument should be either an integer or an NDArray")


__all__ += ["histogram"]
