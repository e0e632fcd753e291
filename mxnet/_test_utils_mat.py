"""Array builders of ``mx.test_utils``: sparse test arrays, special matrices and the
Gluon hybridize-consistency check (private module)."""

from __future__ import annotations

import numpy as np

from . import ndarray as _nd

__all__ = [
    "shuffle_csr_column_indices",
    "create_sparse_array",
    "create_sparse_array_zd",
    "get_identity_mat",
    "get_identity_mat_batch",
    "new_matrix_with_real_eigvals_2d",
    "new_matrix_with_real_eigvals_nd",
    "new_orthonormal_matrix_2d",
    "new_sym_matrix_with_real_eigvals_2d",
    "new_sym_matrix_with_real_eigvals_nd",
    "check_gluon_hybridize_consistency",
]


def check_csr_inputs(num_rows, num_cols, density, distribution="uniform") -> None:
    """Raise ValueError (as MXNet) for a density outside [0, 1], an empty shape, or a
    powerlaw request with fewer than two non-zeros per row."""
    if density < 0 or density > 1:
        raise ValueError("density has to be between 0 and 1")
    if num_rows <= 0 or num_cols <= 0:
        raise ValueError("num_rows or num_cols should be greater than 0")
    if distribution == "powerlaw" and int(num_rows * num_cols * density) < 2 * num_rows:
        raise ValueError(
            f"not supported for this density: {density} for this shape ({num_rows}, "
            f"{num_cols}) Please keep : num_rows * num_cols * density >= 2 * num_rows"
        )


def powerlaw_csr(num_rows, num_cols, density=0.1, dtype=None, ctx=None):
    """A CSRNDArray whose rows hold exponentially more values (1, 2, 4, ... per row after
    a first value in every row; full rows once ``num_cols`` is reached), values in
    (1, 3), ``int(num_rows * num_cols * density)`` values in all.

    Examples
    --------
    >>> powerlaw_csr(5, 16, 0.5).indptr.asnumpy().tolist()
    [0, 2, 6, 14, 30, 40]
    """
    check_csr_inputs(num_rows, num_cols, density, "powerlaw")
    left = int(num_rows * num_cols * density)
    dense = np.zeros((num_rows, num_cols), dtype=dtype)

    def done():
        return _nd.array(dense, ctx=ctx).tostype("csr")

    for row in range(num_rows):  # one value per row first: no empty row
        dense[row][0] = 1 + np.random.uniform(0.001, 2)
        left -= 1
        if left <= 0:
            return done()
    width = 2
    for row in range(num_rows):
        limit = min(num_cols, width)
        if limit == num_cols and left > limit:
            dense[row] = 1 + np.random.uniform(0.001, 2)
            left -= limit - 1
            if left <= 0:
                return done()
            continue
        for col in range(1, limit):
            dense[row][col] = 1 + np.random.uniform(0.001, 2)
            left -= 1
            if left <= 0:
                return done()
        width *= 2
    if left > 0:
        raise ValueError(
            f"not supported for this density: {density} for this shape ({num_rows},{num_cols})"
        )
    return done()


def shuffle_csr_column_indices(csr) -> None:
    """Shuffle, in place, the column indices stored for each row of a CSRNDArray
    (the values stay where they are), to exercise unsorted-index code paths.

    Examples
    --------
    >>> a = mx.nd.sparse.csr_matrix(np.eye(3, dtype='float32'))
    >>> shuffle_csr_column_indices(a)
    """
    indptr = csr.indptr.asnumpy()
    for row in range(len(indptr) - 1):
        lo, hi = int(indptr[row]), int(indptr[row + 1])
        if hi - lo < 2:
            continue
        part = csr.indices[lo:hi].asnumpy()
        np.random.shuffle(part)
        csr.indices[lo:hi] = part


def create_sparse_array(
    shape,
    stype,
    data_init=None,
    rsp_indices=None,
    dtype=None,
    modifier_func=None,
    density=0.5,
    shuffle_csr_indices=False,
):
    """A random sparse array of storage type ``stype`` ('csr' or 'row_sparse').

    For 'row_sparse', ``rsp_indices`` (sorted here) choose the stored rows.

    Examples
    --------
    >>> create_sparse_array((3, 4), 'csr').stype
    'csr'
    """
    from ._test_utils_more import rand_sparse_ndarray

    if stype == "row_sparse":
        rows = None
        if rsp_indices is not None:
            rows = np.asarray(rsp_indices)
            rows.sort()
        arr, _ = rand_sparse_ndarray(
            shape,
            stype,
            density=density,
            data_init=data_init,
            rsp_indices=rows,
            dtype=dtype,
            modifier_func=modifier_func,
        )
    elif stype == "csr":
        arr, _ = rand_sparse_ndarray(
            shape,
            stype,
            density=density,
            data_init=data_init,
            dtype=dtype,
            modifier_func=modifier_func,
            shuffle_csr_indices=shuffle_csr_indices,
        )
    else:
        raise AssertionError("Unknown storage type: " + stype)
    return arr


def create_sparse_array_zd(
    shape,
    stype,
    density,
    data_init=None,
    rsp_indices=None,
    dtype=None,
    modifier_func=None,
    shuffle_csr_indices=False,
):
    """Like :func:`create_sparse_array`; for 'row_sparse' only ``rsp_indices`` decide
    which rows are stored (density 0 otherwise).

    Examples
    --------
    >>> create_sparse_array_zd((5, 2), 'row_sparse', 0.5, rsp_indices=[3, 1]).indices
    <BLANKLINE>
    [1 3]
    <NDArray 2 @cpu(0)>
    """
    if stype == "row_sparse":
        density = 0.0
        if rsp_indices is not None:
            assert len(rsp_indices) <= shape[0]
    return create_sparse_array(
        shape,
        stype,
        data_init=data_init,
        rsp_indices=rsp_indices,
        dtype=dtype,
        modifier_func=modifier_func,
        density=density,
        shuffle_csr_indices=shuffle_csr_indices,
    )


def get_identity_mat(size):
    """A float32 ``(size, size)`` identity NDArray.

    Examples
    --------
    >>> get_identity_mat(2).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    mat = _nd.zeros((size, size))
    mat[:] = np.eye(size, dtype=np.float32)
    return mat


def get_identity_mat_batch(size):
    """Two stacked identity matrices, shape ``(2, size, size)``.

    Examples
    --------
    >>> get_identity_mat_batch(3).shape
    (2, 3, 3)
    """
    eye = get_identity_mat(size).asnumpy()
    return _nd.array([eye, eye])


def new_matrix_with_real_eigvals_2d(n):
    """A random well-conditioned ``(n, n)`` float64 matrix whose eigenvalues are real
    (uniform in [-10, 10]).

    Examples
    --------
    >>> new_matrix_with_real_eigvals_2d(3).shape
    (3, 3)
    """
    eye = np.eye(n)
    while True:
        diag = np.diag(np.random.uniform(-1.0, 1.0, n))
        v = np.random.uniform(-1.0, 1.0, n).reshape(n, 1)
        v = v / np.linalg.norm(v, axis=-2, keepdims=True)
        basis = np.matmul(eye - 2 * np.matmul(v, v.T), diag)  # Householder times diagonal
        if np.linalg.cond(basis, 2) < 3:
            break
    eig = np.diag(np.random.uniform(-10.0, 10.0, n))
    return np.matmul(np.matmul(np.linalg.inv(basis), eig), basis)


def new_matrix_with_real_eigvals_nd(shape):
    """A stack of :func:`new_matrix_with_real_eigvals_2d` matrices of ``shape``.

    Examples
    --------
    >>> new_matrix_with_real_eigvals_nd((2, 3, 3)).shape
    (2, 3, 3)
    """
    count = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_matrix_with_real_eigvals_2d(shape[-1]) for _ in range(count)]).reshape(
        shape
    )


def new_orthonormal_matrix_2d(n):
    """A random ``(n, n)`` orthonormal float64 matrix.

    Examples
    --------
    >>> q = new_orthonormal_matrix_2d(3)
    >>> bool(np.allclose(q @ q.T, np.eye(3)))
    True
    """
    x = np.random.randn(n, n)
    return np.linalg.qr(np.matmul(x.T, x))[0]


def new_sym_matrix_with_real_eigvals_2d(n):
    """A random symmetric ``(n, n)`` float64 matrix (eigenvalues uniform in [-10, 10]).

    Examples
    --------
    >>> m = new_sym_matrix_with_real_eigvals_2d(3)
    >>> bool(np.allclose(m, m.T))
    True
    """
    q = new_orthonormal_matrix_2d(n)
    eig = np.diag(np.random.uniform(-10.0, 10.0, n))
    return np.matmul(np.matmul(q.T, eig), q)


def new_sym_matrix_with_real_eigvals_nd(shape):
    """A stack of :func:`new_sym_matrix_with_real_eigvals_2d` matrices of ``shape``.

    Examples
    --------
    >>> new_sym_matrix_with_real_eigvals_nd((2, 2, 2)).shape
    (2, 2, 2)
    """
    count = int(np.prod(shape[:-2])) if len(shape) > 2 else 1
    return np.array([new_sym_matrix_with_real_eigvals_2d(shape[-1]) for _ in range(count)]).reshape(
        shape
    )


def check_gluon_hybridize_consistency(
    net_builder, data_l, numpy_func=None, test_grad=True, rtol=1e-4, atol=1e-4
):
    """Check that a HybridBlock gives the same outputs (and input gradients) with and
    without ``hybridize()``, and optionally that they match ``numpy_func``.

    ``net_builder(prefix=...)`` builds the block; the parameters of the first build are
    reused for every later one. The block must not draw random numbers.

    Examples
    --------
    >>> from mxnet.gluon import nn
    >>> check_gluon_hybridize_consistency(lambda prefix: nn.Dense(2, prefix=prefix),
    ...                                   [mx.nd.ones((1, 3))])
    """
    from . import autograd
    from . import initializer as _init
    from .test_utils import assert_almost_equal

    class _FromNumpy(_init.Initializer):
        def __init__(self, values):
            super().__init__()
            self._values = values

        def _init_weight(self, name, arr):
            arr[:] = self._values[name]

    saved_out = None
    saved_grads = None
    params_init = None
    for hybridize in (False, True):
        for use_autograd in (False, True) if test_grad else (False,):
            net = net_builder(prefix="net_")
            net.initialize() if params_init is None else net.initialize(params_init)
            if hybridize:
                net.hybridize()
            inputs = [x.copy() for x in data_l]
            if use_autograd:
                for x in inputs:
                    x.attach_grad()
                with autograd.record():
                    out = net(*inputs)
                out.backward(out)
            else:
                out = net(*inputs)
            if params_init is None:
                params_init = _FromNumpy(
                    {k: v.data().asnumpy() for k, v in net.collect_params().items()}
                )
            if saved_out is None:
                saved_out = out.asnumpy()
            else:
                assert_almost_equal(out.asnumpy(), saved_out, rtol=rtol, atol=atol)
            if use_autograd:
                grads = [x.grad.asnumpy() for x in inputs]
                if saved_grads is None:
                    saved_grads = grads
                else:
                    for got, want in zip(grads, saved_grads):
                        assert_almost_equal(got, want, rtol=rtol, atol=atol)
    if numpy_func is not None:
        expected = numpy_func(*[x.asnumpy() for x in data_l])
        assert_almost_equal(saved_out, expected, rtol=rtol, atol=atol)
