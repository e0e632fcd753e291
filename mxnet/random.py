"""Random number interface: ``mx.random.seed`` and the samplers of ``mx.nd.random``.

Examples
--------
>>> import mxnet as mx
>>> mx.random.seed(42)
>>> a = mx.nd.random.uniform(shape=(2,)).asnumpy()
>>> mx.random.seed(42)
>>> bool((a == mx.nd.random.uniform(shape=(2,)).asnumpy()).all())
True
"""

from __future__ import annotations

import torch

from .base import integer_types
from .context import Context
from .ndarray.random import (
    exponential,
    gamma,
    generalized_negative_binomial,
    multinomial,
    negative_binomial,
    normal,
    poisson,
    randint,
    randn,
    shuffle,
    uniform,
)

__all__ = ["seed", "uniform", "normal", "randn", "poisson", "exponential", "gamma",
           "multinomial", "negative_binomial", "generalized_negative_binomial", "shuffle",
           "randint"]


def seed(seed_state, ctx="all") -> None:
    """Seed the random number generators (samplers, Dropout, initializers...).

    Parameters
    ----------
    seed_state : int
        The seed.
    ctx : Context or "all", optional
        Seed only the generator of this device; by default every device's generator.

    Examples
    --------
    >>> mx.random.seed(128)
    >>> mx.random.seed(128, ctx=mx.cpu(0))
    """
    if not isinstance(seed_state, integer_types):
        raise ValueError("seed_state must be int")
    from . import _mxrng

    s = int(seed_state)
    if ctx == "all":
        torch.manual_seed(s)  # CPU and every CUDA device
        _mxrng.seed(s)  # MXNet's CPU uniform/normal stream
        return
    ctx = Context(ctx)
    if ctx.device_type == "gpu":
        if torch.cuda.is_available():
            torch.cuda.default_generators[ctx.device_id].manual_seed(s)
    else:
        torch.default_generator.manual_seed(s)
        _mxrng.seed(s)  # one stream serves every CPU context, as in MXNet
