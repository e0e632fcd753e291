"""Testing helpers with MXNet 1.9.1's names, signatures and tolerance tables.

Comparison helpers (``assert_almost_equal``...) take NumPy arrays, NDArrays or scalars.
The symbol checkers (``check_numeric_gradient``, ``check_symbolic_forward``/``backward``,
``check_consistency``, ``numeric_grad``, ``simple_forward``) live in
``mxnet._test_utils_sym`` and are re-exported from here when that module is present.

Examples
--------
>>> from mxnet.test_utils import assert_almost_equal
>>> assert_almost_equal(mx.nd.array([1., 2.]), np.array([1., 2.00001]))
"""

from __future__ import annotations

import importlib.util
import numbers
import os
from contextlib import contextmanager

import numpy as np
import numpy.testing as npt

from . import ndarray as _nd
from .base import MXNetError
from .context import Context, current_context

__all__ = ["default_context", "set_default_context", "default_dtype", "default_rtols",
           "default_atols", "default_numeric_eps", "effective_dtype", "get_tolerance",
           "get_tols", "get_rtol", "get_atol", "get_etol", "almost_equal",
           "assert_almost_equal", "assert_almost_equal_with_err",
           "assert_almost_equal_ignore_nan", "locationError", "checkShapes", "same",
           "same_array", "assert_exception", "random_arrays", "random_sample", "rand_ndarray",
           "rand_shape_2d", "rand_shape_3d", "rand_shape_nd", "rand_coord_2d", "retry",
           "environment", "list_gpus", "np_reduce", "collapse_sum_like", "create_vector",
           "assign_each", "assign_each2", "compare_ndarray_tuple", "is_cd_run",
           "check_numeric_gradient", "check_symbolic_forward", "check_symbolic_backward",
           "check_consistency", "numeric_grad", "simple_forward", "check_speed"]

_rnd = np.random


# ---------------------------------------------------------------------------------------
# defaults and tolerance tables


def default_context() -> Context:
    """The context tests run on (the current default context)."""
    return current_context()


def set_default_context(ctx: Context) -> None:
    """Make ``ctx`` the default context of this thread."""
    Context._default_ctx.value = ctx


def default_dtype():
    """The dtype tests use by default: ``numpy.float32``."""
    return np.float32


_INT_TYPES = (np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64)


def default_rtols() -> dict:
    """Relative tolerance per dtype (float16 1e-2, float32 1e-4, float64 1e-5, ints 0)."""
    table = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4,
             np.dtype(np.float64): 1e-5}
    table.update({np.dtype(t): 0 for t in _INT_TYPES})
    return table


def default_atols() -> dict:
    """Absolute tolerance per dtype (float16 1e-1, float32 1e-3, float64 1e-20, ints 0)."""
    table = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3,
             np.dtype(np.float64): 1e-20}
    table.update({np.dtype(t): 0 for t in _INT_TYPES})
    return table


def default_numeric_eps() -> dict:
    """Finite-difference step per dtype for numeric gradients."""
    return {np.dtype(np.float16): 1.0 / 2 ** 6, np.dtype(np.float32): 1.0 / 2 ** 9,
            np.dtype(np.float64): 1.0 / 2 ** 14}


def effective_dtype(dat) -> np.dtype:
    """Dtype that decides the tolerance for ``dat`` (float32 on TF32 GPUs counts as float16)."""
    dtype = np.dtype(dat.dtype)
    ctx = getattr(dat, "ctx", None)
    if dtype == np.float32 and isinstance(ctx, Context) and ctx.device_type == "gpu":
        try:
            import torch

            tf32 = (torch.backends.cuda.matmul.allow_tf32
                    and torch.cuda.get_device_capability(ctx.device_id)[0] >= 8
                    and os.environ.get("NVIDIA_TF32_OVERRIDE") != "0")
        except (RuntimeError, AssertionError):
            tf32 = False
        if tf32:
            return np.dtype(np.float16)
    return dtype


def get_tolerance(dat, tol, default_tol):
    """``tol`` if it is a number, else its (or the default table's) entry for ``dat``'s dtype."""
    if isinstance(tol, numbers.Number):
        return tol
    dtype = effective_dtype(dat)
    tol = {} if tol is None else tol
    return tol.get(dtype, default_tol[dtype])


def get_tols(x, y, rtol, atol) -> tuple:
    """The (rtol, atol) for comparing ``x`` and ``y``: the looser of the two dtypes'."""
    if isinstance(x, numbers.Number):
        x = np.array(x)
    if isinstance(y, numbers.Number):
        y = np.array(y)
    rtol = max(get_tolerance(x, rtol, default_rtols()), get_tolerance(y, rtol, default_rtols()))
    atol = max(get_tolerance(x, atol, default_atols()), get_tolerance(y, atol, default_atols()))
    return rtol, atol


def get_rtol(rtol=None, dtype=np.dtype(np.float64)):
    """``rtol``, or the default relative tolerance of ``dtype``."""
    return default_rtols()[np.dtype(dtype)] if rtol is None else rtol


def get_atol(atol=None, dtype=np.dtype(np.float64)):
    """``atol``, or the default absolute tolerance of ``dtype``."""
    return default_atols()[np.dtype(dtype)] if atol is None else atol


def get_etol(etol=None):
    """``etol`` (allowed fraction of mismatching elements), default 0."""
    return 0 if etol is None else etol


# ---------------------------------------------------------------------------------------
# comparisons


def _np(x):
    if isinstance(x, _nd.NDArray):
        return x.asnumpy()
    return x


def checkShapes(a, b) -> None:
    """Raise ``AssertionError`` when the shapes of ``a`` and ``b`` differ."""
    if a.shape != b.shape:
        raise AssertionError(npt.build_err_msg(
            [_np(a), _np(b)], err_msg=f"a.shape = {a.shape} and b.shape = {b.shape} are not "
                                      "equal"))


def almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True) -> bool:
    """Whether ``|a - b| <= atol + rtol * |b|`` everywhere (``numpy.allclose``)."""
    if not use_broadcast:
        checkShapes(a, b)
    return bool(np.allclose(_np(a), _np(b), rtol=get_rtol(rtol), atol=get_atol(atol),
                            equal_nan=equal_nan))


def _find_max_violation(a, b, rtol, atol):
    with np.errstate(invalid="ignore", over="ignore"):
        absdiff = np.where(np.equal(a, b), 0, np.abs(a - b))
        violation = absdiff / (atol + rtol * np.abs(b) + 1e-20)
    loc = np.argmax(violation)
    return np.unravel_index(loc, violation.shape), np.max(violation)


def locationError(a, b, index, names, maxError=False) -> str:
    """Text naming the location and both values of a mismatch."""
    maximum = "maximum " if maxError else ""
    return (f"Location of {maximum}error: {index}, {names[0]}={a[index]:.8f}, "
            f"{names[1]}={b[index]:.8f}")


def assert_almost_equal(a, b, rtol=None, atol=None, names=("a", "b"), equal_nan=False,
                        use_broadcast=True, mismatches=(10, 10)) -> None:
    """Raise ``AssertionError`` unless ``a`` and ``b`` are close (tolerances by dtype).

    Examples
    --------
    >>> assert_almost_equal(mx.nd.ones((2,)), np.ones(2), rtol=1e-5, atol=0)
    """
    if not use_broadcast:
        checkShapes(a, b)
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = _np(a), _np(b)
    a = np.asarray(a)
    b = np.asarray(b)
    if a.dtype == np.bool_ and b.dtype == np.bool_:
        npt.assert_equal(a, b)
        return
    if almost_equal(a, b, rtol, atol, equal_nan=equal_nan):
        return
    a, b = np.broadcast_arrays(a, b)
    index, rel = _find_max_violation(a, b, rtol, atol)
    if index != ():
        a_tmp, b_tmp = a.copy(), b.copy()
        count = 1
        while count <= a.size:
            a_tmp[index] = b_tmp[index] = 0
            if almost_equal(a_tmp, b_tmp, rtol, atol, equal_nan=equal_nan):
                break
            count += 1
            if count <= mismatches[1] or mismatches[1] <= 0:
                index, _ = _find_max_violation(a_tmp, b_tmp, rtol, atol)
            else:
                break
        index0, _ = _find_max_violation(a, b, rtol, atol)
        degree = "at least " if mismatches[1] > 0 and count > mismatches[1] else ""
        err = (f"Error {rel:f} exceeds tolerance rtol={rtol:e}, atol={atol:e} (mismatch "
               f"{degree}{100 * count / a.size:f}%).\n"
               f"{locationError(a, b, index0, names, maxError=True)}")
    else:
        err = f"Error {rel:f} exceeds tolerance rtol={rtol:e}, atol={atol:e}.\n"
    with np.printoptions(threshold=4, suppress=True):
        msg = npt.build_err_msg([a, b], err_msg=err)
    raise AssertionError(msg)


def assert_almost_equal_with_err(a, b, rtol=None, atol=None, etol=None, names=("a", "b"),
                                 equal_nan=False, mismatches=(10, 10)) -> None:
    """Like :func:`assert_almost_equal` but allow a fraction ``etol`` of mismatches."""
    etol = get_etol(etol)
    if etol <= 0:
        assert_almost_equal(a, b, rtol, atol, names, equal_nan, mismatches=mismatches)
        return
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = np.asarray(_np(a)), np.asarray(_np(b))
    with np.errstate(invalid="ignore"):
        close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    frac = 1.0 - float(np.mean(close)) if close.size else 0.0
    if frac > etol:
        raise AssertionError(f"Error rate {frac:f} exceeds etol={etol:f} with rtol={rtol:e}, "
                             f"atol={atol:e} ({names[0]} vs {names[1]})")


def assert_almost_equal_ignore_nan(a, b, rtol=None, atol=None, names=("a", "b")) -> None:
    """:func:`assert_almost_equal` after zeroing positions where either side is NaN."""
    a = np.copy(_np(a))
    b = np.copy(_np(b))
    nan_mask = np.logical_or(np.isnan(a), np.isnan(b))
    a[nan_mask] = 0
    b[nan_mask] = 0
    assert_almost_equal(a, b, rtol, atol, names)


def same(a, b) -> bool:
    """Whether ``a`` and ``b`` have equal shapes and elements."""
    return bool(np.array_equal(_np(a), _np(b)))


def same_array(array1, array2) -> bool:
    """Whether two NDArrays share memory (checked by writing through ``array1``)."""
    array1[:] += 1
    if not same(array1.asnumpy(), array2.asnumpy()):
        array1[:] -= 1
        return False
    array1[:] -= 1
    return same(array1.asnumpy(), array2.asnumpy())


def compare_ndarray_tuple(t1, t2, rtol=None, atol=None) -> None:
    """Assert two (possibly nested) tuples of NDArrays are almost equal."""
    if t1 is None or t2 is None:
        return
    if isinstance(t1, tuple):
        for s1, s2 in zip(t1, t2):
            compare_ndarray_tuple(s1, s2, rtol, atol)
    else:
        assert_almost_equal(t1, t2, rtol=rtol, atol=atol)


def assert_exception(f, exception_type, *args, **kwargs) -> None:
    """Assert that ``f(*args, **kwargs)`` raises ``exception_type``."""
    try:
        f(*args, **kwargs)
    except exception_type:
        return
    raise AssertionError(f"{getattr(f, '__name__', f)} did not raise "
                         f"{getattr(exception_type, '__name__', exception_type)}")


# ---------------------------------------------------------------------------------------
# random data


def random_arrays(*shapes):
    """Standard-normal float32 NumPy arrays of ``shapes`` (one array when one shape)."""
    arrays = [np.array(np.random.randn(), dtype=default_dtype()) if len(s) == 0
              else np.random.randn(*s).astype(default_dtype()) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def random_sample(population, k):
    """``k`` elements of ``population`` in random order."""
    assert 0 <= k <= len(population)
    population_copy = population[:]
    np.random.shuffle(population_copy)
    return population_copy[0:k]


def rand_shape_2d(dim0=10, dim1=10, allow_zero_size=False) -> tuple:
    """A random 2-D shape with dims in ``[1, dim]`` (``[0, dim]`` with zero sizes allowed)."""
    low = 0 if allow_zero_size else 1
    return _rnd.randint(low, dim0 + 1), _rnd.randint(low, dim1 + 1)


def rand_shape_3d(dim0=10, dim1=10, dim2=10, allow_zero_size=False) -> tuple:
    """A random 3-D shape."""
    low = 0 if allow_zero_size else 1
    return _rnd.randint(low, dim0 + 1), _rnd.randint(low, dim1 + 1), _rnd.randint(low, dim2 + 1)


def rand_shape_nd(num_dim, dim=10, allow_zero_size=False) -> tuple:
    """A random ``num_dim``-D shape."""
    low = 0 if allow_zero_size else 1
    return tuple(_rnd.randint(low, dim + 1, size=num_dim))


def rand_coord_2d(x_low, x_high, y_low, y_high) -> tuple:
    """A random integer point in the given box."""
    return _rnd.randint(x_low, x_high), _rnd.randint(y_low, y_high)


def rand_ndarray(shape, stype="default", density=None, dtype=None, modifier_func=None,
                 shuffle_csr_indices=False, distribution=None, ctx=None):
    """A random NDArray of ``shape`` (standard normal values, dtype float32 by default).

    Examples
    --------
    >>> rand_ndarray((2, 3)).shape
    (2, 3)
    """
    ctx = ctx if ctx else default_context()
    if stype == "default":
        return _nd.array(random_arrays(shape), dtype=dtype, ctx=ctx)
    if stype not in ("csr", "row_sparse"):
        raise MXNetError(f"rand_ndarray: unknown storage type '{stype}'")
    # sparse: the same sampler as rand_sparse_ndarray (MXNet draws both the same way)
    from ._test_utils_more import rand_sparse_ndarray

    arr, _ = rand_sparse_ndarray(shape, stype, density=density, modifier_func=modifier_func,
                                 dtype=dtype, shuffle_csr_indices=shuffle_csr_indices,
                                 distribution=distribution, ctx=ctx)
    return arr


def create_vector(size, dtype=np.int64):
    """``arange(size)`` as an NDArray of ``dtype``."""
    return _nd.arange(0, size, dtype=dtype)


def assign_each(the_input, function):
    """Apply ``function`` element-wise to a NumPy array (``np.vectorize``)."""
    if function is None:
        return np.array(the_input)
    return np.vectorize(function)(the_input)


def assign_each2(input1, input2, function):
    """Apply the binary ``function`` element-wise."""
    if function is None:
        return np.array(input1)
    return np.vectorize(function)(input1, input2)


def np_reduce(dat, axis, keepdims, numpy_reduce_func):
    """Reduce ``dat`` over ``axis`` (int, tuple or None) with a NumPy reducer."""
    if isinstance(axis, int):
        axis = [axis]
    else:
        axis = list(axis) if axis is not None else list(range(len(dat.shape)))
    ret = dat
    for i in reversed(sorted(axis)):
        ret = numpy_reduce_func(ret, axis=i)
    if keepdims:
        shape = list(dat.shape)
        for i in axis:
            shape[i] = 1
        ret = ret.reshape(tuple(shape))
    return ret


def collapse_sum_like(a, shape):
    """Sum ``a`` down to the broadcastable ``shape``."""
    assert len(a.shape) >= len(shape)
    if np.prod(shape) == 0 or a.size == 0:
        return np.zeros(shape, dtype=a.dtype)
    axes = []
    ndim_diff = len(a.shape) - len(shape)
    for i in range(ndim_diff):
        axes.append(i)
    for i, s in enumerate(shape):
        if s != a.shape[i + ndim_diff]:
            assert s == 1
            axes.append(i + ndim_diff)
    return np.sum(a, axis=tuple(axes)).reshape(shape)


# ---------------------------------------------------------------------------------------
# running tests


def retry(n: int):
    """Decorator: rerun a stochastic test up to ``n`` times before failing."""
    assert n > 0

    def decorate(f):
        def wrapper(*args, **kwargs):
            for i in range(n):
                try:
                    f(*args, **kwargs)
                    return
                except AssertionError:
                    if i == n - 1:
                        raise
                    _nd.waitall()

        wrapper.__name__ = f.__name__
        return wrapper

    return decorate


@contextmanager
def environment(*args):
    """Set environment variables for a ``with`` block (``name, value`` or a dict).

    Examples
    --------
    >>> with environment('MXNET_ENGINE_TYPE', 'NaiveEngine'):
    ...     pass
    """
    if len(args) == 1 and isinstance(args[0], dict):
        env_vars = args[0]
    else:
        assert len(args) == 2, "Expecting one dict arg or two args: env var name and value"
        env_vars = {args[0]: args[1]}
    snapshot = {k: os.environ.get(k) for k in env_vars}

    def apply(values):
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    apply(env_vars)
    try:
        yield
    finally:
        _nd.waitall()
        apply(snapshot)


def list_gpus():
    """``range(number of GPUs)``."""
    from .util import get_gpu_count

    return range(get_gpu_count())


def is_cd_run() -> bool:
    """Whether this runs in MXNet's CD pipeline (``CD_JOB`` set)."""
    return os.environ.get("CD_JOB", "0") == "1"


# ---------------------------------------------------------------------------------------
# symbol checkers: provided by mxnet._test_utils_sym


def _missing(name: str):
    def fn(*args, **kwargs):
        raise MXNetError(f"mxnet.test_utils.{name} needs the symbol test helpers "
                         "(mxnet._test_utils_sym), which are not available")

    fn.__name__ = name
    return fn


if importlib.util.find_spec(f"{__package__}._test_utils_sym") is not None:
    from . import _test_utils_sym as _sym_helpers
else:
    _sym_helpers = None


def _sym(name: str):
    return getattr(_sym_helpers, name, None) or _missing(name)


check_numeric_gradient = _sym("check_numeric_gradient")
check_symbolic_forward = _sym("check_symbolic_forward")
check_symbolic_backward = _sym("check_symbolic_backward")
check_consistency = _sym("check_consistency")
numeric_grad = _sym("numeric_grad")
simple_forward = _sym("simple_forward")
check_speed = _sym("check_speed")
_parse_location = _sym("_parse_location")
_parse_aux_states = _sym("_parse_aux_states")
_sorted_items = _sym("_sorted_items")
_sorted_dict = _sym("_sorted_dict")

# the rest of MXNet's helpers, and the names ``from mxnet.test_utils import *`` gave users
from ._test_utils_data import *  # noqa: E402,F401,F403
from ._test_utils_data import __all__ as _data_names  # noqa: E402
from ._test_utils_mat import *  # noqa: E402,F401,F403
from ._test_utils_mat import __all__ as _mat_names  # noqa: E402
from ._test_utils_more import *  # noqa: E402,F401,F403
from ._test_utils_more import __all__ as _more_names  # noqa: E402
from ._test_utils_stats import *  # noqa: E402,F401,F403
from ._test_utils_stats import __all__ as _stats_names  # noqa: E402

_more_names = _more_names + _stats_names + _data_names + _mat_names

__all__ = __all__ + _more_names + ["np", "npt", "os", "numbers", "Context", "current_context"]

from ._test_utils_data import lazy_module as _lazy_module  # noqa: E402
from ._test_utils_data import lazy_names as _lazy_names  # noqa: E402

__all__ += _lazy_names()  # ``ss`` / ``requests``: imported on first access


def __getattr__(name: str):
    if name in ("ss", "requests"):
        value = _lazy_module(name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
