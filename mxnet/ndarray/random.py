"""Random sampling front ends of ``mx.nd.random``.

Scalar distribution parameters draw from ``_random_*`` operators (one distribution for the
whole output); NDArray parameters draw from ``_sample_*`` operators (``shape`` samples for
each parameter element), as MXNet 1.9.1 does.

Examples
--------
>>> import mxnet as mx
>>> mx.nd.random.uniform(-1, 1, shape=(2,)).shape
(2,)
"""

from __future__ import annotations

from ..base import _Null, numeric_types
from ..context import current_context
from ._namespace import function_for as _fn
from ._namespace import populate as _populate
from .ndarray import NDArray

_GENERATED = _populate(globals(), "random")  # *_like ops; the front ends below override

__all__ = ["uniform", "normal", "randn", "poisson", "exponential", "gamma", "multinomial",
           "negative_binomial", "generalized_negative_binomial", "shuffle", "randint"]
__all__ += [n for n in _GENERATED if n not in __all__]


def _random_helper(random: str, sampler: str | None, params, shape, dtype, ctx, out, kwargs):
    """Dispatch to ``random`` (scalar params) or ``sampler`` (NDArray params)."""
    if isinstance(params[0], NDArray):
        for p in params[1:]:
            assert isinstance(p, NDArray), (
                "Distribution parameters must all have the same type, but got both "
                f"{type(params[0])} and {type(p)}.")
        if sampler is None:
            raise TypeError(f"{random[len('_random_'):]}: distribution parameters must be "
                            "numbers, not NDArray")
        names = _SAMPLE_INPUTS[sampler]
        if dtype is _Null and out is not None:  # MXNet infers the dtype from out=
            dtype = out.dtype
        return _fn(sampler)(**dict(zip(names, params)), shape=shape, dtype=dtype, out=out,
                            **kwargs)
    if isinstance(params[0], numeric_types):
        if ctx is None:
            ctx = current_context()
        if shape is _Null:
            shape = out.shape if out is not None else 1
        if dtype is _Null and out is not None:
            dtype = out.dtype
        for p in params[1:]:
            assert isinstance(p, numeric_types), (
                "Distribution parameters must all have the same type, but got both "
                f"{type(params[0])} and {type(p)}.")
        names = _RANDOM_PARAMS[random]
        return _fn(random)(**dict(zip(names, params)), shape=shape, dtype=dtype, ctx=ctx,
                           out=out, **kwargs)
    raise ValueError("Distribution parameters must be either NDArray or numbers, but got "
                     f"{type(params[0])}.")


_RANDOM_PARAMS = {
    "_random_uniform": ("low", "high"), "_random_normal": ("loc", "scale"),
    "_random_poisson": ("lam",), "_random_exponential": ("lam",),
    "_random_gamma": ("alpha", "beta"), "_random_negative_binomial": ("k", "p"),
    "_random_generalized_negative_binomial": ("mu", "alpha"), "_random_randint": ("low", "high"),
}
_SAMPLE_INPUTS = {
    "_sample_uniform": ("low", "high"), "_sample_normal": ("mu", "sigma"),
    "_sample_poisson": ("lam",), "_sample_exponential": ("lam",),
    "_sample_gamma": ("alpha", "beta"), "_sample_negative_binomial": ("k", "p"),
    "_sample_generalized_negative_binomial": ("mu", "alpha"),
}


def uniform(low=0, high=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw samples from a uniform distribution on ``[low, high)``.

    Parameters
    ----------
    low, high : float or NDArray
        Bounds of the interval. With NDArrays, ``shape`` samples are drawn for each element
        pair and the output shape is ``low.shape + shape``.
    shape : int or tuple of ints, optional
        Number of samples (default 1 for scalar bounds).
    dtype : {'float16', 'float32', 'float64'}, optional
        Output data type (default float32).
    ctx : Context, optional
        Device of the output (default: the current context).
    out : NDArray, optional
        Store the output in this array.

    Examples
    --------
    >>> mx.nd.random.uniform(0, 1, shape=(2, 3)).shape
    (2, 3)
    """
    return _random_helper("_random_uniform", "_sample_uniform", [low, high], shape, dtype, ctx,
                          out, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw samples from a normal distribution with mean ``loc`` and deviation ``scale``.

    Examples
    --------
    >>> mx.nd.random.normal(0, 1, shape=(2,)).shape
    (2,)
    """
    return _random_helper("_random_normal", "_sample_normal", [loc, scale], shape, dtype, ctx,
                          out, kwargs)


def randn(*shape, **kwargs):
    """Draw samples from a normal distribution; the shape is given positionally.

    Examples
    --------
    >>> mx.nd.random.randn(2, 3).shape
    (2, 3)
    """
    loc = kwargs.pop("loc", 0)
    scale = kwargs.pop("scale", 1)
    dtype = kwargs.pop("dtype", _Null)
    ctx = kwargs.pop("ctx", None)
    out = kwargs.pop("out", None)
    assert isinstance(loc, (int, float, NDArray))
    assert isinstance(scale, (int, float, NDArray))
    return _random_helper("_random_normal", "_sample_normal", [loc, scale], shape, dtype, ctx,
                          out, kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw samples from a Poisson distribution of rate ``lam`` (floating-point output).

    Examples
    --------
    >>> mx.nd.random.poisson(4, shape=(2,)).dtype
    <class 'numpy.float32'>
    """
    return _random_helper("_random_poisson", "_sample_poisson", [lam], shape, dtype, ctx, out,
                          kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw samples from an exponential distribution of mean ``scale``.

    Examples
    --------
    >>> mx.nd.random.exponential(2, shape=(3,)).shape
    (3,)
    """
    return _random_helper("_random_exponential", "_sample_exponential", [1.0 / scale], shape,
                          dtype, ctx, out, kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw samples from a gamma distribution of shape ``alpha`` and scale ``beta``.

    Examples
    --------
    >>> mx.nd.random.gamma(2, 1, shape=(2,)).shape
    (2,)
    """
    return _random_helper("_random_gamma", "_sample_gamma", [alpha, beta], shape, dtype, ctx,
                          out, kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw samples from a negative binomial distribution (failures before ``k`` successes).

    Examples
    --------
    >>> mx.nd.random.negative_binomial(10, 0.5, shape=(2,)).shape
    (2,)
    """
    return _random_helper("_random_negative_binomial", "_sample_negative_binomial", [k, p],
                          shape, dtype, ctx, out, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null, ctx=None, out=None,
                                  **kwargs):
    """Draw samples from a generalized negative binomial distribution (mean ``mu``).

    Examples
    --------
    >>> mx.nd.random.generalized_negative_binomial(10, 0.5, shape=(2,)).shape
    (2,)
    """
    return _random_helper("_random_generalized_negative_binomial",
                          "_sample_generalized_negative_binomial", [mu, alpha], shape, dtype,
                          ctx, out, kwargs)


def multinomial(data, shape=_Null, get_prob=False, out=None, dtype="int32", **kwargs):
    """Draw category indices from the distributions given by the last axis of ``data``.

    Examples
    --------
    >>> probs = mx.nd.array([[0.0, 1.0], [1.0, 0.0]])
    >>> mx.nd.random.multinomial(probs).asnumpy().tolist()
    [1, 0]
    """
    return _fn("_sample_multinomial")(data, shape=shape, get_prob=get_prob, out=out,
                                      dtype=dtype, **kwargs)


def shuffle(data, **kwargs):
    """Shuffle the array randomly along its first axis.

    Examples
    --------
    >>> mx.nd.random.shuffle(mx.nd.array([1, 2, 3])).shape
    (3,)
    """
    return _fn("_shuffle")(data, **kwargs)


def randint(low, high, shape=_Null, dtype=_Null, ctx=None, out=None, **kwargs):
    """Draw integers uniformly from ``[low, high)`` (int32 unless ``dtype`` says int64).

    Examples
    --------
    >>> mx.nd.random.randint(0, 5, shape=(3,)).dtype
    <class 'numpy.int32'>
    """
    return _random_helper("_random_randint", None, [low, high], shape, dtype, ctx, out, kwargs)
