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


def _two_n(opname, names, p1, p2, batch_shape, dtype, ctx):
    """MXNet's ``_npi_*_n`` sampler: array (or symbol) parameters become inputs."""
    from ..context import current_context

    attrs = {"size": _batch(batch_shape), "ctx": ctx if ctx is not None else current_context(),
             "dtype": "float32" if dtype is None else _onp.dtype(dtype).name}
    inputs = []
    for n, v in zip(names, (p1, p2)):
        if isinstance(v, NDArray) or hasattr(v, "_outputs"):
            inputs.append(v)
            attrs[n] = None
        else:
            attrs[n] = float(v)
    return np_call(opname, inputs, attrs)


def uniform_n(low=0.0, high=1.0, batch_shape=None, dtype=None, ctx=None):
    """Uniform samples on ``[low, high)`` of shape ``batch_shape + broadcast(low, high)``.

    Examples
    --------
    >>> npx.random.uniform_n(0, 1, batch_shape=(2,)).shape
    (2,)
    """
    return _two_n("_npi_uniform_n", ("low", "high"), low, high, batch_shape, dtype, ctx)


def normal_n(loc=0.0, scale=1.0, batch_shape=None, dtype=None, ctx=None):
    """Normal samples of shape ``batch_shape + broadcast(loc, scale)``.

    Examples
    --------
    >>> npx.random.normal_n(0, 1, batch_shape=(2, 3)).shape
    (2, 3)
    """
    return _two_n("_npi_normal_n", ("loc", "scale"), loc, scale, batch_shape, dtype, ctx)


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
    if prob is not None and not hasattr(prob, "_outputs"):  # MXNet's kernel check
        t = prob._t if isinstance(prob, NDArray) else _onp.asarray(prob, dtype=_onp.float64)
        if bool(((t < 0) | (t > 1)).any()):
            raise ValueError("Check failed: probs >= 0 && probs <= 1 : expect probs >= 0 && "
                             "probs <= 1")
    if logit is not None:
        p = (1.0 / (1.0 + _onp.exp(-logit)) if not isinstance(logit, NDArray)
             else np_call("_npx_sigmoid", [logit]))
    shape = _batch(size) if size is not None else _param_shape(p)
    # MXNet 1.9.1 draws these uniforms from its kRandom engine, as mx.np.random.uniform
    attrs = {"size": shape or (1,), "low": 0.0, "high": 1.0}
    if ctx is not None:
        attrs["ctx"] = ctx
    u = np_call("_npi_uniform", [], attrs)
    if not shape:
        u = u.reshape(())
    res = (u < p).astype(dtype or "float32")
    if out is not None:
        out[...] = res
        return out
    return res
