"""Signatures of MXNet's built-in ``_np_*`` operators as ``mx.np`` presents them.

Each function here only carries a signature (and a one-line description);
:mod:`mxnet.numpy_op_signature` copies the signatures onto the ``mx.np`` functions, as
MXNet 1.9.1 does, so ``inspect.signature(mx.np.sum)`` reads the same.
"""

# ruff: noqa: A002, ARG001


def _np_all(a, axis=None, keepdims=False, out=None):
    """Whether all elements are true."""


def _np_any(a, axis=None, keepdims=False, out=None):
    """Whether any element is true."""


def _np_sometrue(a, axis=None, keepdims=False, out=None):
    """Whether any element is true (``any``)."""


def _np_max(a, axis=None, keepdims=False, out=None):
    """The maximum along an axis."""


def _np_amax(a, axis=None, keepdims=False, out=None):
    """The maximum along an axis (``max``)."""


def _np_min(a, axis=None, keepdims=False, out=None):
    """The minimum along an axis."""


def _np_amin(a, axis=None, keepdims=False, out=None):
    """The minimum along an axis (``min``)."""


def _np_atleast_1d(*arys):
    """Arrays with at least one dimension."""


def _np_atleast_2d(*arys):
    """Arrays with at least two dimensions."""


def _np_atleast_3d(*arys):
    """Arrays with at least three dimensions."""


def _np_copy(a, out=None):
    """A copy of the array."""


def _np_cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along an axis."""


def _np_diag(array, k=0):
    """A diagonal, or a diagonal matrix."""


def _np_diagflat(array, k=0):
    """A 2-D array with the flattened input on a diagonal."""


def _np_diagonal(a, offset=0, axis1=0, axis2=1):
    """The chosen diagonals."""


def _np_dot(a, b, out=None):
    """Dot product of two arrays."""


def _np_moveaxis(a, source, destination):
    """Axes moved to new positions."""


def _np_prod(a, axis=None, dtype=None, out=None, keepdims=False):
    """Product over the given axes."""


def _np_product(a, axis=None, dtype=None, out=None, keepdims=False):
    """Product over the given axes (``prod``)."""


def _np_repeat(a, repeats, axis=None):
    """Elements repeated."""


def _np_reshape(a, newshape, order="C", out=None):
    """The array with a new shape."""


def _np_roll(a, shift, axis=None):
    """Elements rolled along axes."""


def _np_squeeze(a, axis=None, out=None):
    """Length-one axes removed."""


def _np_sum(a, axis=None, dtype=None, keepdims=False, initial=None, out=None):
    """Sum over the given axes."""


def _np_trace(a, offset=0, axis1=0, axis2=1, out=None):
    """Sum along diagonals."""


def _np_transpose(a, axes=None):
    """Axes permuted."""
