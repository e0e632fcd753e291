"""``mx.np.random``: NumPy-style random sampling returning ``mx.np.ndarray`` (MXNet 1.9.1's
``mxnet.numpy.random``).

Samples are drawn by the ``_npi_*`` registry operators from the generators seeded by
``mx.random.seed`` / ``npx.random.seed``. Distribution parameters may be Python numbers or
``mx.np.ndarray`` (broadcast to ``size``).

Examples
--------
>>> import mxnet as mx
>>> from mxnet import np
>>> mx.random.seed(0)
>>> np.random.uniform(size=(2, 3)).shape
(2, 3)
"""

from __future__ import annotations

import numpy as _onp

from .._op import _np_random  # noqa: F401  (registers the operators)
from ..base import MXNetNotSupportedError
from ..context import current_context
from ..ndarray.ndarray import NDArray
from .multiarray import np_call

__all__ = ["randint", "uniform", "normal", "lognormal", "logistic", "gumbel", "multinomial",
           "multivariate_normal", "choice", "rayleigh", "rand", "exponential", "weibull",
           "pareto", "power", "shuffle", "gamma", "beta", "chisquare", "randn"]


def _is_arr(x) -> bool:
    if isinstance(x, NDArray):
        return True
    from ..symbol import Symbol

    return isinstance(x, Symbol)


def _size(size):
    return None if size == () else size


def _two(opname, names, p1, p2, size, ctx, out, dtype=None):
    """Call a two-parameter sampler: array parameters become inputs (their attr None)."""
    attrs = {"size": _size(size), "ctx": ctx if ctx is not None else current_context()}
    if dtype is not None:
        attrs["dtype"] = dtype
    inputs = []
    for n, v in zip(names, (p1, p2)):
        if _is_arr(v):
            inputs.append(v)
            attrs[n] = None
        else:
            attrs[n] = v
    return np_call(opname, inputs, attrs, out=out)


def _one(opname, name, p, size, ctx, out, with_ctx=True):
    attrs = {"size": _size(size)}
    if with_ctx:
        attrs["ctx"] = ctx if ctx is not None else current_context()
    if _is_arr(p):
        attrs[name] = None
        return np_call(opname, [p], attrs, out=out)
    attrs[name] = p
    return np_call(opname, [], attrs, out=out)


def randint(low, high=None, size=None, dtype=None, ctx=None, out=None):
    """Random integers in ``[low, high)`` (``[0, low)`` without ``high``); int64 by default.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.randint(5, size=(2,)).dtype
    dtype('int64')
    """
    if dtype is None:
        dtype = "int64"
    dtype = _onp.dtype(dtype).name if not isinstance(dtype, str) or dtype == "int" else dtype
    if high is None:
        low, high = 0, low
    return np_call("_npi_random_randint", [], {
        "low": low, "high": high, "shape": () if size is None else size, "dtype": dtype,
        "ctx": ctx if ctx is not None else current_context()}, out=out)


def uniform(low=0.0, high=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from the uniform distribution on ``[low, high)``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.uniform(-1, 1, size=(2, 2)).shape
    (2, 2)
    """
    return _two("_npi_uniform", ("low", "high"), low, high, size, ctx, out,
                "float32" if dtype is None else dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from the normal distribution with mean ``loc`` and deviation ``scale``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.normal(0, 1, size=(3,)).dtype
    dtype('float32')
    """
    return _two("_npi_normal", ("loc", "scale"), loc, scale, size, ctx, out,
                "float32" if dtype is None else dtype)


def lognormal(mean=0.0, sigma=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples whose logarithm is normal with ``mean`` and ``sigma``.

    Examples
    --------
    >>> from mxnet import np
    >>> bool((np.random.lognormal(size=(3,)) > 0).all())
    True
    """
    res = normal(mean, sigma, size=size, dtype=dtype, ctx=ctx, out=out)
    return _exp(res)


def _exp(x):
    from .._op import has_op
    from .multiarray import wrap

    if has_op("_npi_exp"):
        return np_call("_npi_exp", [x], {})
    return wrap(x.exp())


def logistic(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the logistic distribution.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.logistic(0, 1, size=(2,)).shape
    (2,)
    """
    return _two("_npi_logistic", ("loc", "scale"), loc, scale, size, ctx, out)


def gumbel(loc=0.0, scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Gumbel distribution.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.gumbel(0, 1, size=(2,)).shape
    (2,)
    """
    return _two("_npi_gumbel", ("loc", "scale"), loc, scale, size, ctx, out)


def gamma(shape, scale=1.0, size=None, dtype=None, ctx=None, out=None):
    """Samples from the gamma distribution with ``shape`` (k) and ``scale`` (theta).

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.gamma(2.0, size=(3,)).shape
    (3,)
    """
    if out is not None:
        size = out.shape
    return _two("_npi_gamma", ("shape", "scale"), shape, scale, size, ctx, out,
                "float32" if dtype is None else dtype)


def beta(a, b, size=None, dtype=None, ctx=None):
    """Samples from the beta distribution (ratio of gamma samples).

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.beta(2.0, 3.0, size=(3,)).shape
    (3,)
    """
    dtype = "float32" if dtype is None else dtype
    x = gamma(a, 1, size=size, dtype="float64", ctx=ctx)
    y = gamma(b, 1, size=size, dtype="float64", ctx=ctx)
    return (x / (x + y)).astype(dtype)


def chisquare(df, size=None, dtype=None, ctx=None):
    """Samples from the chi-square distribution with ``df`` degrees of freedom.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.chisquare(2.0, size=(3,)).shape
    (3,)
    """
    return gamma(df / 2, 1 / 2, size=size, dtype="float32" if dtype is None else dtype,
                 ctx=ctx)


def exponential(scale=1.0, size=None, ctx=None, out=None):
    """Samples from the exponential distribution with ``scale`` (1 / rate).

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.exponential(2.0, size=(3,)).shape
    (3,)
    """
    return _one("_npi_exponential", "scale", scale, size, ctx, out)


def rayleigh(scale=1.0, size=None, ctx=None, out=None):
    """Samples from the Rayleigh distribution.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.rayleigh(1.0, size=(3,)).shape
    (3,)
    """
    return _one("_npi_rayleigh", "scale", scale, size, ctx, out)


def weibull(a, size=None, ctx=None, out=None):
    """Samples from the Weibull distribution with shape ``a``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.weibull(2.0, size=(3,)).shape
    (3,)
    """
    return _one("_npi_weibull", "a", a, size, ctx, out)


def pareto(a, size=None, ctx=None, out=None):
    """Samples from the Pareto II (Lomax) distribution with shape ``a``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.pareto(2.0, size=(3,)).shape
    (3,)
    """
    return _one("_npi_pareto", "a", a, size, ctx, out)


def power(a, size=None):
    """Samples in [0, 1] from the power distribution with exponent ``a - 1``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.power(2.0, size=(3,)).shape
    (3,)
    """
    return _one("_npi_powerd", "a", a, size, None, None, with_ctx=False)


def multinomial(n, pvals, size=None, **kwargs):
    """Counts of ``n`` draws over outcomes with probabilities ``pvals`` (int64).

    Examples
    --------
    >>> from mxnet import np
    >>> int(np.random.multinomial(5, [0.2, 0.8]).sum())
    5
    """
    if _is_arr(pvals):
        return np_call("_npi_multinomial", [pvals], {"pvals": None, "n": n, "size": size})
    if isinstance(pvals, _onp.ndarray):
        raise ValueError("numpy ndarray is not supported!")
    if any(isinstance(i, list) for i in pvals):
        raise ValueError("object too deep for desired array")
    return np_call("_npi_multinomial", [], {"n": n, "pvals": tuple(pvals), "size": size})


def multivariate_normal(mean, cov, size=None, check_valid=None, tol=None):
    """Samples from a multivariate normal distribution (float32).

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.multivariate_normal(np.zeros(2), np.eye(2), size=(3,)).shape
    (3, 2)
    """
    if check_valid is not None:
        raise MXNetNotSupportedError("Parameter `check_valid` is not supported")
    if tol is not None:
        raise MXNetNotSupportedError("Parameter `tol` is not supported")
    return np_call("_npi_mvn_fallback", [mean, cov], {"size": size})


def choice(a, size=None, replace=True, p=None, ctx=None, out=None):
    """Random samples of ``a`` (an array) or of ``arange(a)`` (an int), optionally weighted
    by ``p``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.choice(5, size=(3,)).dtype
    dtype('int64')
    """
    ctx = ctx if ctx is not None else current_context()
    size = _size(size)
    if _is_arr(a):
        ins = [a] if p is None else [a, p]
        idx = np_call("_npi_choice", ins, {"a": None, "size": size, "replace": replace,
                                           "weighted": p is not None})
        from .multiarray import wrap

        if isinstance(a, NDArray):
            return wrap(a.reshape(-1)[idx])
        return np_call("_npi_take", [a, idx], {})
    if p is None:
        return np_call("_npi_choice", [], {"a": a, "size": size, "replace": replace,
                                           "ctx": ctx, "weighted": False}, out=out)
    return np_call("_npi_choice", [p], {"a": a, "size": size, "replace": replace, "ctx": ctx,
                                        "weighted": True}, out=out)


def rand(*size, **kwargs):
    """Uniform samples on [0, 1) of shape ``size``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.rand(2, 3).shape
    (2, 3)
    """
    return uniform(0, 1, size=tuple(size), **kwargs)


def randn(*size, **kwargs):
    """Standard normal samples of shape ``size``.

    Examples
    --------
    >>> from mxnet import np
    >>> np.random.randn(2, 3).shape
    (2, 3)
    """
    return normal(0, 1, size=tuple(size), **kwargs)


def shuffle(x):
    """Shuffle ``x`` in place along its first axis.

    Examples
    --------
    >>> from mxnet import np
    >>> x = np.arange(5)
    >>> np.random.shuffle(x)
    >>> sorted(x.tolist())
    [0.0, 1.0, 2.0, 3.0, 4.0]
    """
    np_call("_npi_shuffle", [x], {}, out=x)
