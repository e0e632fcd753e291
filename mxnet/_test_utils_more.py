"""More of ``mx.test_utils``: helpers MXNet's own test suites import (private module)."""

from __future__ import annotations

import json  # noqa: F401  (MXNet's test_utils exports these modules through ``import *``)
import logging  # noqa: F401
import os
import sys
import time  # noqa: F401
from collections import OrderedDict  # noqa: F401
from contextlib import contextmanager

import numpy as np
from numpy.testing import assert_allclose  # noqa: F401

import mxnet as mx  # noqa: F401

from .ndarray import array  # noqa: F401
from .runtime import Features  # noqa: F401
from .symbol import Symbol
from .util import use_np  # noqa: F401


def download(url, fname=None, dirname=None, overwrite=False, retries=5):
    """Download ``url`` (see :func:`mxnet.gluon.utils.download`)."""
    from .gluon.utils import download as _download

    path = os.path.join(dirname, fname) if dirname and fname else fname
    return _download(url, path=path, overwrite=overwrite, retries=retries)


@contextmanager
def discard_stderr():
    """Silence everything written to file descriptor 2 inside the scope."""
    try:
        stderr_fileno = sys.stderr.fileno()
        old_stderr = os.dup(stderr_fileno)
        with open(os.devnull, "w") as bit_bucket:
            os.dup2(bit_bucket.fileno(), stderr_fileno)
            try:
                yield
            finally:
                os.dup2(old_stderr, stderr_fileno)
                os.close(old_stderr)
    except (AttributeError, OSError, ValueError):
        yield


def setenv(name, value):
    """Set (or with ``None`` unset) an environment variable; return the previous value."""
    prev = os.environ.get(name)
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = str(value)
    return prev


def getenv(name):
    """The value of an environment variable (``None`` when unset)."""
    return os.environ.get(name)


def random_uniform_arrays(*shapes, **kwargs):
    """NumPy arrays of uniform values in ``[low, high)`` for each shape."""
    low, high = kwargs.pop("low", 0.0), kwargs.pop("high", 1.0)
    dtype = kwargs.pop("dtype", "float32")
    arrays = [np.random.uniform(low, high, size=s).astype(dtype) for s in shapes]
    return arrays[0] if len(arrays) == 1 else arrays


def create_2d_tensor(rows, columns, dtype=np.int64):
    """A (rows, columns) NDArray whose row i holds the value i."""
    a = np.arange(0, rows, dtype=dtype).reshape(rows, 1)
    return mx.nd.array(np.broadcast_to(a, (rows, columns)), dtype=dtype)


def mean_check(generator, mu, sigma, nsamples=1000000):
    """Whether the sample mean of ``generator(nsamples)`` is within 3 sigma/sqrt(n) of mu."""
    samples = np.array(generator(nsamples))
    return abs(np.mean(samples) - mu) < 3 * sigma / np.sqrt(nsamples)


def var_check(generator, sigma, nsamples=1000000):
    """Whether the sample variance of ``generator(nsamples)`` is close to sigma**2."""
    samples = np.array(generator(nsamples))
    return abs(np.var(samples) - sigma ** 2) < 3 * np.sqrt(2 * sigma ** 4 / (nsamples - 1))


def same_symbol_structure(sym1, sym2):
    """Whether two symbols have the same graph structure (ops and connections)."""
    j1, j2 = json.loads(sym1.tojson()), json.loads(sym2.tojson())
    if len(j1["nodes"]) != len(j2["nodes"]):
        return False
    for a, b in zip(j1["nodes"], j2["nodes"]):
        if a["op"] != b["op"] or [i[:2] for i in a["inputs"]] != [i[:2] for i in b["inputs"]]:
            return False
    return True


def is_op_runnable():
    """Whether operators can run here (always true: no GPU-only build)."""
    return True


class DummyIter(mx.io.DataIter):
    """An iterator that returns the first batch of ``real_iter`` forever (for benchmarks)."""

    def __init__(self, real_iter):
        super().__init__()
        self.real_iter = real_iter
        self.provide_data = real_iter.provide_data
        self.provide_label = real_iter.provide_label
        self.batch_size = real_iter.batch_size
        self.the_batch = next(real_iter)

    def __iter__(self):
        return self

    def next(self):
        return self.the_batch

    __next__ = next


def compare_optimizer(opt1, opt2, shape, dtype, w_stype="default", g_stype="default",
                      rtol=1e-4, atol=1e-5, compare_states=True):
    """Run one update of two optimizers on the same data and compare weights and states."""
    from .test_utils import assert_almost_equal

    w1 = mx.nd.random.uniform(shape=shape, dtype=dtype)
    g1 = mx.nd.random.uniform(shape=shape, dtype=dtype)
    w2, g2 = w1.copy(), g1.copy()
    s1 = opt1.create_state_multi_precision(0, w1)
    s2 = opt2.create_state_multi_precision(0, w2)
    opt1.update_multi_precision(0, w1, g1, s1)
    opt2.update_multi_precision(0, w2, g2, s2)
    if compare_states:
        flat1 = s1 if isinstance(s1, (list, tuple)) else [s1]
        flat2 = s2 if isinstance(s2, (list, tuple)) else [s2]
        for a, b in zip(flat1, flat2):
            if a is not None and b is not None:
                assert_almost_equal(a.asnumpy(), b.asnumpy(), rtol=rtol, atol=atol)
    assert_almost_equal(w1.asnumpy(), w2.asnumpy(), rtol=rtol, atol=atol)


__all__ = ["download", "discard_stderr", "setenv", "getenv", "random_uniform_arrays",
           "create_2d_tensor", "mean_check", "var_check", "same_symbol_structure",
           "is_op_runnable", "DummyIter", "compare_optimizer", "Symbol", "array", "Features",
           "use_np", "OrderedDict", "assert_allclose", "mx", "json", "logging", "time"]
