"""``npx.random``: MXNet's extra samplers for ``mx.np`` (``seed``, ``uniform_n``,
``normal_n``, ``bernoulli``), drawing from the same generators as ``mx.nd.random``."""

from __future__ import annotations

import numpy as _onp

from .. import random as _mx_random
from ..ndarray import NDArray
from ..numpy.multiarray import np_call

__all__ = ["seed", "uniform_n", "normal_n", "bernoulli"]


def seed(seed, ctx="all") -> None:  # noqa: A001  (MXNet's name)
    """Seed the random generators (same as ``mx.random.seed``)."""
    _mx_random.seed(seed, ctx)


def _param_shape(*vals) -> tuple:
    shapes = [tuple(v.shape) for v in vals if isinstance(v, NDArray)]
    return tuple(_onp.broadcast_shapes(*shapes)) if shapes else ()


def _batch(batch_shape) -> tuple:
    if batch_shape is None:
        return ()
    if isinstance(batch_shape, int):
        return (batch_shape,)
    return tuple(batch_shape)


def _draw(opname, a, b, names, batch_shape, dtype, ctx):
    shape = _batch(batch_shape) + _param_shape(a, b)
    attrs = {"shape": shape or (1,), names[0]: 0.0, names[1]: 1.0}
    if dtype is not None:
        attrs["dtype"] = _onp.dtype(dtype).name
    if ctx is not None:
        attrs["ctx"] = ctx
    base = np_call(opname, [], attrs)
    if not shape:
        base = base.reshape(())
    return base


def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):
    """Uniform samples on ``[low, high)`` of shape ``batch_shape + broadcast(low, high)``.

    Examples
    --------
    >>> npx.random.uniform_n(0, 1, batch_shape=(2,)).shape
    (2,)
    """
    u = _draw("_random_uniform", low, high, ("low", "high"), batch_shape, dtype, ctx)
    if isinstance(low, NDArray) or isinstance(high, NDArray) or low != 0.0 or high != 1.0:
        u = u * (high - low) + low
    return u


def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):
    """Normal samples of shape ``batch_shape + broadcast(loc, scale)``.

    Examples
    --------
    >>> npx.random.normal_n(0, 1, batch_shape=(2, 3)).shape
    (2, 3)
    """
    z = _draw("_random_normal", loc, scale, ("loc", "scale"), batch_shape, dtype, ctx)
    if isinstance(loc, NDArray) or isinstance(scale, NDArray) or loc != 0.0 or scale != 1.0:
        z = z * scale + loc
    return z


def bernoulli(prob=None, logit=None, size=None, dtype=None, ctx=None, out=None):
    """Samples that are 1 with probability ``prob`` (or ``sigmoid(logit)``), else 0.

    Examples
    --------
    >>> npx.random.bernoulli(0.5, size=(2, 3)).dtype
    dtype('float32')
    """
    if (prob is None) == (logit is None):
        raise ValueError("Either `prob` or `logit` must be specified, but not both. "
                         f"Received prob={prob}, logit={logit}")
    p = prob
    if logit is not None:
        p = (1.0 / (1.0 + _onp.exp(-logit)) if not isinstance(logit, NDArray)
             else np_call("_npx_sigmoid", [logit]))
    shape = _batch(size) if size is not None else _param_shape(p)
    attrs = {"shape": shape or (1,), "low": 0.0, "high": 1.0}
    if ctx is not None:
        attrs["ctx"] = ctx
    u = np_call("_random_uniform", [], attrs)
    if not shape:
        u = u.reshape(())
    res = (u < p).astype(dtype or "float32")
    if out is not None:
        out[...] = res
        return out
    return res
