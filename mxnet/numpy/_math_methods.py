"""NumPy-semantics math methods of ``mx.np.ndarray`` (``a.sum()``, ``a.max(axis=0)``,
``a.clip(0, 1)``, ``a @ b``, ``a & b``, ``round(a)``...), installed with ``attach_methods``.

Like MXNet 1.9.1, the classic element-wise NDArray methods (``a.exp()``, ``a.sqrt()``...)
exist on ``mx.np.ndarray`` but raise AttributeError: use the ``mx.np`` functions instead.
"""

from __future__ import annotations

import numpy as _onp

from . import _math as m
from . import _reduce as r
from . import _shape
from .multiarray import NDArray, attach_methods

__all__: list[str] = []


def _sum(self, axis=None, dtype=None, out=None, keepdims=False):
    return r.sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)


def _mean(self, axis=None, dtype=None, out=None, keepdims=False):
    return r.mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)


def _prod(self, axis=None, dtype=None, out=None, keepdims=False):
    return r.prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims)


def _max(self, axis=None, out=None, keepdims=False):
    return r.max(self, axis=axis, out=out, keepdims=keepdims)


def _min(self, axis=None, out=None, keepdims=False):
    return r.min(self, axis=axis, out=out, keepdims=keepdims)


def _std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return r.std(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)


def _var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return r.var(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)


def _argmax(self, axis=None, out=None):
    return r.argmax(self, axis=axis, out=out)


def _argmin(self, axis=None, out=None):
    return r.argmin(self, axis=axis, out=out)


def _cumsum(self, axis=None, dtype=None, out=None):
    return r.cumsum(self, axis=axis, dtype=dtype, out=out)


def _all(self, axis=None, out=None, keepdims=False):
    return r.all(self, axis=axis, out=out, keepdims=keepdims)


def _any(self, axis=None, out=None, keepdims=False):
    return r.any(self, axis=axis, out=out, keepdims=keepdims)


def _clip(self, min=None, max=None, out=None):  # noqa: A002  (MXNet's names)
    return m.clip(self, min, max, out=out)


def _round(self, decimals=0, out=None, **kwargs):
    return m.around(self, decimals, out=out, **kwargs)


def _dot(self, b, out=None):
    return r.dot(self, b, out=out)


def _matmul(self, other):
    return r.matmul(self, other)


def _rmatmul(self, other):
    return r.matmul(other, self)


def _imatmul(self, other):
    return r.matmul(self, other, out=self)


def _bitwise(name: str, inplace: bool = False):
    fn = getattr(m, name)

    def method(self, other):
        if not isinstance(other, (NDArray, int, float, bool, _onp.generic)):
            return NotImplemented
        return fn(self, other, out=self) if inplace else fn(self, other)

    return method


def _invert(self):
    return m.invert(self)


def _dunder_round(self, n=0):
    return m.around(self, n)


def _no_method(name: str):
    def method(self, *args, **kwargs):
        raise AttributeError(f"mxnet.numpy.ndarray object has no attribute {name}")

    method.__name__ = name
    return method


_CLASSIC = ("abs", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt",
            "ceil", "cos", "cosh", "degrees", "exp", "expm1", "fix", "floor", "log", "log10",
            "log1p", "log2", "nanprod", "nansum", "norm", "radians", "rcbrt", "reciprocal",
            "rint", "rsqrt", "sign", "sin", "sinh", "sqrt", "square", "tan", "tanh", "trunc",
            # legacy NDArray fluent methods MXNet 1.9.1's np.ndarray refuses
            "asscalar", "reshape_like", "zeros_like", "ones_like", "broadcast_like", "pad",
            "split", "split_v2", "slice", "slice_axis", "slice_like", "one_hot", "pick", "topk",
            "argmax_channel", "shape_array", "size_array", "expand_dims", "tile", "flip",
            "depth_to_space", "space_to_depth", "diag", "relu", "sigmoid", "softmax",
            "log_softmax", "softmin", "broadcast_axes")

attach_methods({
    "sum": _sum, "mean": _mean, "prod": _prod, "max": _max, "min": _min, "std": _std,
    "var": _var, "argmax": _argmax, "argmin": _argmin, "cumsum": _cumsum, "all": _all,
    "any": _any, "clip": _clip, "round": _round, "dot": _dot, "__matmul__": _matmul,
    "__rmatmul__": _rmatmul, "__imatmul__": _imatmul,
    "__and__": _bitwise("bitwise_and"), "__or__": _bitwise("bitwise_or"),
    "__xor__": _bitwise("bitwise_xor"), "__iand__": _bitwise("bitwise_and", True),
    "__ior__": _bitwise("bitwise_or", True), "__ixor__": _bitwise("bitwise_xor", True),
    "__invert__": _invert, "__round__": _dunder_round,
    "__floor__": lambda self: m.floor(self), "__ceil__": lambda self: m.ceil(self),
    "__trunc__": lambda self: m.trunc(self),
    **{n: _no_method(n) for n in _CLASSIC},
})


def _sym_reshape(self, *args, **kwargs):
    order = kwargs.pop("order", "C")
    if kwargs:
        raise TypeError(f"reshape() got unexpected keyword arguments {sorted(kwargs)}")
    if not args:
        raise TypeError("reshape() takes exactly 1 argument (0 given)")
    shape = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
    return _shape.reshape(self, shape, order=order)


def _sym_transpose(self, *axes):
    if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (list, tuple))):
        axes = axes[0]
    return _shape.transpose(self, axes if axes else None)


def _sym_flatten(self, order="C"):
    return _shape.reshape(self, (-1,), order=order)


def _attach_symbol_methods() -> None:
    """The same NumPy-semantics methods on ``mx.sym.np._Symbol`` (``F.np`` graphs)."""
    from ..symbol.numpy import _Symbol

    for name, fn in {"sum": _sum, "mean": _mean, "prod": _prod, "max": _max, "min": _min,
                     "std": _std, "var": _var, "argmax": _argmax, "argmin": _argmin,
                     "cumsum": _cumsum, "all": _all, "any": _any, "clip": _clip,
                     "round": _round, "dot": _dot, "__matmul__": _matmul,
                     "__rmatmul__": _rmatmul, "reshape": _sym_reshape,
                     "transpose": _sym_transpose, "flatten": _sym_flatten}.items():
        setattr(_Symbol, name, fn)


_attach_symbol_methods()
