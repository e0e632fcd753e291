"""NumPy's dispatch protocols for ``mx.np`` arrays (MXNet 1.9.1's
``mxnet.numpy_dispatch_protocol``).

Official NumPy functions named in :data:`_NUMPY_ARRAY_FUNCTION_LIST` and ufuncs named in
:data:`_NUMPY_ARRAY_UFUNC_LIST`, called on ``mx.np.ndarray`` arguments, run the ``mx.np``
function of the same name (``numpy.sum(a)`` is ``mx.np.sum(a)``). Every other NumPy
function or ufunc runs in NumPy on copies of the arrays and its array results come back as
``mx.np`` arrays on the inputs' context (not while autograd is recording).

Examples
--------
>>> import numpy as onp
>>> from mxnet import np
>>> type(onp.sum(np.ones((2, 2)))).__name__
'ndarray'
"""

from __future__ import annotations

import functools

import numpy as _np

__all__ = [
    "with_array_function_protocol",
    "with_array_ufunc_protocol",
    "_NUMPY_ARRAY_FUNCTION_LIST",
    "_NUMPY_ARRAY_UFUNC_LIST",
]

# the NumPy functions MXNet 1.9.1 dispatches to mx.np (by dotted name under ``numpy``)
_NUMPY_ARRAY_FUNCTION_LIST = (
    "all any sometrue argmin argmax around round round_ argsort sort append broadcast_arrays "
    "broadcast_to clip concatenate copy cumsum diag diagonal diagflat dot expand_dims fix flip "
    "flipud fliplr inner insert max amax mean min amin nonzero ones_like atleast_1d atleast_2d "
    "atleast_3d prod product ravel repeat reshape roll split array_split hsplit vsplit dsplit "
    "squeeze stack std sum swapaxes take tensordot tile transpose unique unravel_index "
    "diag_indices_from delete var vdot vstack column_stack hstack dstack zeros_like "
    "linalg.norm linalg.cholesky linalg.inv linalg.solve linalg.tensorinv linalg.tensorsolve "
    "linalg.pinv linalg.eigvals linalg.eig linalg.eigvalsh linalg.eigh shape trace tril "
    "meshgrid outer einsum polyval shares_memory may_share_memory quantile percentile diff "
    "ediff1d resize where full_like bincount empty_like nan_to_num isnan isfinite isposinf "
    "isneginf isinf pad"
).split()

# the NumPy ufuncs (by ``ufunc.__name__``) MXNet 1.9.1 dispatches to mx.np
_NUMPY_ARRAY_UFUNC_LIST = (
    "abs fabs add arctan2 copysign degrees hypot lcm subtract multiply true_divide negative "
    "power mod matmul absolute rint sign exp log log2 log10 expm1 sqrt square cbrt reciprocal "
    "invert bitwise_not remainder sin cos tan sinh cosh tanh arcsin arccos arctan arcsinh "
    "arccosh arctanh maximum minimum ceil trunc floor bitwise_and bitwise_xor bitwise_or "
    "logical_not equal not_equal less less_equal greater greater_equal"
).split()

# ``numpy.true_divide.__name__`` is 'divide', which the list lacks: as in MXNet 1.9.1,
# ``numpy.divide(a, b)`` on mx.np arrays runs in NumPy (integer arrays give float64)

_FUNCTIONS: dict = {}
_UFUNCS: dict = {}


def _lookup(root, dotted: str):
    for part in dotted.split("."):
        root = getattr(root, part, None)
        if root is None:
            return None
    return root


def _build() -> None:
    from . import numpy as mx_np

    for name in _NUMPY_ARRAY_FUNCTION_LIST:
        onp_fn, mx_fn = _lookup(_np, name), _lookup(mx_np, name)
        if onp_fn is not None and mx_fn is not None:  # NumPy 2 dropped round_/product/...
            _FUNCTIONS[onp_fn] = mx_fn
    for name in _NUMPY_ARRAY_UFUNC_LIST:
        mx_fn = getattr(mx_np, name, None)
        if mx_fn is not None:
            _UFUNCS[name] = mx_fn


def function_for(func):
    """The ``mx.np`` function that NumPy function ``func`` dispatches to, or None."""
    if not _FUNCTIONS:
        _build()
    return _FUNCTIONS.get(func)


def ufunc_for(name: str):
    """The ``mx.np`` function that the NumPy ufunc called ``name`` dispatches to, or None."""
    if not _UFUNCS:
        _build()
    return _UFUNCS.get(name)


def _guarded(func, what: str):
    @functools.wraps(func)
    def run(*args, **kwargs):
        try:
            func(*args, **kwargs)
        except Exception as e:
            raise RuntimeError(
                f"Running function {func.__name__} with NumPy array {what} "
                f"protocol failed with exception {e}"
            ) from e

    return run


def with_array_function_protocol(func):
    """Decorate a function that relies on ``__array_function__`` (NumPy >= 1.17, always true
    here): a failure inside is raised as ``RuntimeError``."""
    return _guarded(func, "function")


def with_array_ufunc_protocol(func):
    """Decorate a function that relies on ``__array_ufunc__``: a failure inside is raised as
    ``RuntimeError``."""
    return _guarded(func, "ufunc")
