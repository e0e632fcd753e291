"""Random sampling front ends of ``mx.sym.random``.

Scalar distribution parameters use the ``_random_*`` operators; Symbol parameters use the
``_sample_*`` operators (``shape`` samples per parameter element), as MXNet 1.9.1 does.

Examples
--------
>>> import mxnet as mx
>>> mx.sym.random.uniform(-1, 1, shape=(2,)).eval()[0].shape
(2,)
"""

from __future__ import annotations

from numbers import Number

from ..base import _Null
from ._namespace import function_for as _fn
from ._namespace import lazy_getattr as _lazy_getattr
from ._namespace import populate as _populate
from .symbol import Symbol

_GENERATED = _populate(globals(), "random")  # *_like ops; the front ends below override
__all__ = ["uniform", "normal", "randn", "poisson", "exponential", "gamma", "multinomial",
           "negative_binomial", "generalized_negative_binomial", "shuffle", "randint"]
__all__ += [n for n in _GENERATED if n not in __all__]
__getattr__ = _lazy_getattr("random", __name__)


def _helper(random: str, sampler: str | None, names, params, shape, dtype, kwargs):
    if isinstance(params[0], Symbol):
        for p in params[1:]:
            if not isinstance(p, Symbol):
                raise TypeError("Distribution parameters must all have the same type, but got "
                                f"both {type(params[0])} and {type(p)}.")
        if sampler is None:
            raise TypeError("distribution parameters must be numbers, not Symbol")
        return _fn(sampler)(*params, shape=shape, dtype=dtype, **kwargs)
    if isinstance(params[0], Number):
        for p in params[1:]:
            if not isinstance(p, Number):
                raise TypeError("Distribution parameters must all have the same type, but got "
                                f"both {type(params[0])} and {type(p)}.")
        return _fn(random)(**dict(zip(names, params)), shape=shape, dtype=dtype, **kwargs)
    raise ValueError(f"Distribution parameters must be either Symbol or numbers, but got "
                     f"{type(params[0])}.")


def uniform(low=0, high=1, shape=_Null, dtype=_Null, **kwargs) -> Symbol:
    """Samples from ``U[low, high)``."""
    return _helper("_random_uniform", "_sample_uniform", ["low", "high"], [low, high], shape,
                   dtype, kwargs)


def normal(loc=0, scale=1, shape=_Null, dtype=_Null, **kwargs) -> Symbol:
    """Samples from ``N(loc, scale)``."""
    return _helper("_random_normal", "_sample_normal", ["loc", "scale"], [loc, scale], shape,
                   dtype, kwargs)


def randn(*shape, **kwargs) -> Symbol:
    """Standard normal samples of the given shape (``loc``/``scale`` as keywords)."""
    loc = kwargs.pop("loc", 0)
    scale = kwargs.pop("scale", 1)
    dtype = kwargs.pop("dtype", _Null)
    return _helper("_random_normal", "_sample_normal", ["loc", "scale"], [loc, scale], shape,
                   dtype, kwargs)


def poisson(lam=1, shape=_Null, dtype=_Null, **kwargs) -> Symbol:
    """Poisson samples."""
    return _helper("_random_poisson", "_sample_poisson", ["lam"], [lam], shape, dtype, kwargs)


def exponential(scale=1, shape=_Null, dtype=_Null, **kwargs) -> Symbol:
    """Exponential samples with mean ``scale``."""
    return _helper("_random_exponential", "_sample_exponential", ["lam"], [1.0 / scale], shape,
                   dtype, kwargs)


def gamma(alpha=1, beta=1, shape=_Null, dtype=_Null, **kwargs) -> Symbol:
    """Gamma samples."""
    return _helper("_random_gamma", "_sample_gamma", ["alpha", "beta"], [alpha, beta], shape,
                   dtype, kwargs)


def negative_binomial(k=1, p=1, shape=_Null, dtype=_Null, **kwargs) -> Symbol:
    """Negative binomial samples."""
    return _helper("_random_negative_binomial", "_sample_negative_binomial", ["k", "p"],
                   [k, p], shape, dtype, kwargs)


def generalized_negative_binomial(mu=1, alpha=1, shape=_Null, dtype=_Null,
                                  **kwargs) -> Symbol:
    """Generalized negative binomial samples."""
    return _helper("_random_generalized_negative_binomial",
                   "_sample_generalized_negative_binomial", ["mu", "alpha"], [mu, alpha],
                   shape, dtype, kwargs)


def multinomial(data, shape=_Null, get_prob=True, dtype="int32", **kwargs) -> Symbol:
    """Samples from the categorical distributions in ``data``."""
    return _fn("_sample_multinomial")(data, shape=shape, get_prob=get_prob, dtype=dtype,
                                      **kwargs)


def shuffle(data, **kwargs) -> Symbol:
    """Shuffle ``data`` along its first axis."""
    return _fn("_shuffle")(data, **kwargs)


def randint(low, high, shape=_Null, dtype=_Null, **kwargs) -> Symbol:
    """Integers from ``[low, high)``."""
    return _helper("_random_randint", None, ["low", "high"], [low, high], shape, dtype, kwargs)
