"""More of ``mx.test_utils``: helpers MXNet's own test suites import (private module)."""

from __future__ import annotations

import json  # noqa: F401  (MXNet's test_utils exports these modules through ``import *``)
import logging
import os
import sys
import time  # noqa: F401
from collections import OrderedDict  # noqa: F401
from contextlib import contextmanager

import numpy as np
import numpy.random as rnd  # noqa: F401  (exported as MXNet does)
from numpy.testing import assert_allclose  # noqa: F401

import mxnet as mx  # noqa: F401

from .ndarray import array  # noqa: F401
from .runtime import Features  # noqa: F401
from .symbol import Symbol
from .util import use_np  # noqa: F401


def download(url, fname=None, dirname=None, overwrite=False, retries=5):
    """Download ``url`` to ``fname`` (default: its last path component, in ``dirname``).

    As MXNet 1.9.1's ``test_utils.download``: progress goes to the *root* logger
    (``logging.info``, which configures it on first use), an existing file is kept unless
    ``overwrite``, and each failed attempt prints how many attempts are left.
    """
    assert retries >= 0, "Number of retries should be at least 0"
    if fname is None:
        fname = url.split("/")[-1]
    if dirname is None:
        dirname = os.path.dirname(fname)
    else:
        fname = os.path.join(dirname, fname)
    if dirname != "" and not os.path.exists(dirname):
        logging.info("create directory %s", dirname)
        try:
            os.makedirs(dirname)
        except FileExistsError:
            pass
        except OSError:
            raise OSError("failed to create " + dirname) from None
    if not overwrite and os.path.exists(fname):
        logging.info("%s exists, skipping download", fname)
        return fname
    while retries + 1 > 0:
        try:
            _fetch_to(url, fname)
            break
        except Exception:
            retries -= 1
            if retries <= 0:
                raise
            print(f"download failed, retrying, {retries} attempt{'s' if retries > 1 else ''} left")
    logging.info("downloaded %s into %s successfully", url, fname)
    return fname


def _fetch_to(url, fname):
    try:
        import requests
    except ImportError:  # pragma: no cover - requests is a dependency of MXNet's helper
        requests = None
    if requests is None:
        import urllib.request

        with urllib.request.urlopen(url) as r, open(fname, "wb") as f:
            f.write(r.read())
        return
    r = requests.get(url, stream=True)
    assert r.status_code == 200, f"failed to open {url}"
    with open(fname, "wb") as f:
        for chunk in r.iter_content(chunk_size=1024):
            if chunk:
                f.write(chunk)


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
    """A list of NumPy arrays of uniform values in ``[low, high)``, one per shape."""
    low, high = kwargs.pop("low", 0.0), kwargs.pop("high", 1.0)
    dtype = kwargs.pop("dtype", "float32")
    if kwargs:
        raise TypeError(f"Got unexpected argument/s : {kwargs.keys()}")
    return [np.random.uniform(low, high, size=s).astype(dtype) for s in shapes]


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
    return abs(np.var(samples) - sigma**2) < 3 * np.sqrt(2 * sigma**4 / (nsamples - 1))


def same_symbol_structure(sym1, sym2):
    """Whether the nodes of two symbols run the same operators, position by position.

    As MXNet 1.9.1, only the operator of each node is compared, over the nodes both graphs
    have (``zip``): neither the connections nor extra trailing nodes of the longer graph
    (an output ``amp_cast``, say) are looked at.
    """
    j1, j2 = json.loads(sym1.tojson()), json.loads(sym2.tojson())
    return all(a["op"] == b["op"] for a, b in zip(j1["nodes"], j2["nodes"]))


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


def _opt_pair(shape, dtype, stype, weight: bool):
    """Two arrays with the same values: (dense reference, array of storage ``stype``)."""
    from .test_utils import rand_ndarray

    if stype == "default":
        arr2 = mx.nd.random.uniform(shape=shape, dtype=dtype)
        return arr2.copy(), arr2
    if stype in ("row_sparse", "csr"):
        arr2 = rand_ndarray(shape, stype, density=1 if weight else None, dtype=dtype)
        return arr2.copy().tostype("default"), arr2
    raise Exception("type not supported yet")


def compare_optimizer(
    opt1,
    opt2,
    shape,
    dtype,
    w_stype="default",
    g_stype="default",
    rtol=1e-4,
    atol=1e-5,
    compare_states=True,
    ntensors=1,
):
    """Run one update of ``opt1`` (dense arrays) and ``opt2`` (arrays of ``w_stype`` /
    ``g_stype``) on the same data and compare weights and states. With a list of shapes,
    ``opt2`` updates ``ntensors`` weights at once (multi-tensor) and ``opt1`` one by one.
    """
    from copy import deepcopy

    from .test_utils import assert_almost_equal, compare_ndarray_tuple

    if not isinstance(shape, list):
        assert ntensors == 1
        w1, w2 = _opt_pair(shape, dtype, w_stype, True)
        g1, g2 = _opt_pair(shape, dtype, g_stype, False)
        state1 = opt1.create_state_multi_precision(0, w1)
        state2 = opt2.create_state_multi_precision(0, w2)
        if compare_states:
            compare_ndarray_tuple(state1, state2)
        opt1.update_multi_precision(0, w1, g1, state1)
        opt2.update_multi_precision(0, w2, g2, state2)
        if compare_states:
            compare_ndarray_tuple(state1, state2, rtol=rtol, atol=atol)
        assert_almost_equal(w1, w2, rtol=rtol, atol=atol)
        return
    w1 = tuple(mx.nd.random.uniform(shape=s, dtype=dtype) for s in shape)
    g1 = tuple(mx.nd.random.uniform(shape=s, dtype=dtype) for s in shape)
    w2, g2 = deepcopy(w1), deepcopy(g1)
    state2 = [opt2.create_state_multi_precision(0, w2[i]) for i in range(ntensors)]
    opt2.update_multi_precision(list(range(ntensors)), w2, g2, state2)
    for i in range(ntensors):
        state1 = opt1.create_state_multi_precision(i, w1[i])
        opt1.update_multi_precision(i, w1[i], g1[i], state1)
        if compare_states:
            compare_ndarray_tuple(state1, state2[i], rtol, atol)
        compare_ndarray_tuple(w1[i], w2[i], rtol, atol)


def get_mnist_ubyte():
    """Fetch MNIST in idx (ubyte) form into ``./data`` unless the four files are there."""
    import zipfile

    os.makedirs("data", exist_ok=True)
    names = [
        "train-images-idx3-ubyte",
        "train-labels-idx1-ubyte",
        "t10k-images-idx3-ubyte",
        "t10k-labels-idx1-ubyte",
    ]
    if not all(os.path.exists(os.path.join("data", n)) for n in names):
        path = download("http://data.mxnet.io/mxnet/data/mnist.zip", dirname="data")
        with zipfile.ZipFile(path) as zf:
            zf.extractall("data")


def get_cifar10():
    """Fetch the CIFAR-10 RecordIO files into ``./data/cifar`` unless they are there."""
    import zipfile

    os.makedirs("data", exist_ok=True)
    names = ["train.rec", "test.rec", "train.lst", "test.lst"]
    if not all(os.path.exists(os.path.join("data", "cifar", n)) for n in names):
        path = download("http://data.mxnet.io/mxnet/data/cifar10.zip", dirname="data")
        with zipfile.ZipFile(path) as zf:
            zf.extractall("data")


def get_bz2_data(data_dir, data_name, url, data_origin_name):
    """Download ``url`` (a .bz2 file) into ``data_dir`` and decompress it to ``data_name``
    unless that file exists."""
    import bz2

    target = os.path.join(data_dir, data_name)
    if os.path.exists(target):
        return
    packed = os.path.join(data_dir, data_origin_name)
    download(url, fname=data_origin_name, dirname=data_dir)
    with bz2.BZ2File(packed, "rb") as fin, open(target, "wb") as fout:
        for line in fin:
            fout.write(line)
    os.remove(packed)


def _uniform_csr(shape, density, dtype, data_init, ctx):
    """A (rows, cols) CSRNDArray with ``int(rows * cols * density)`` uniform [0, 1) values.

    As in MXNet, the sample comes from ``scipy.sparse.rand`` (so from NumPy's global
    RNG) when SciPy is installed; without SciPy each entry is kept with probability
    ``density``. Only the non-zeros are ever materialized in the SciPy path.
    """
    try:
        from scipy import sparse as spsp
    except ImportError:
        dense = np.random.rand(*shape)
        dense = np.where(np.random.rand(*shape) < density, dense, 0).astype(dtype)
        if data_init is not None:
            dense[dense != 0] = data_init
        return mx.nd.sparse.csr_matrix(dense, dtype=dtype, ctx=ctx)
    sp = spsp.rand(shape[0], shape[1], density, dtype=dtype, format="csr")
    if data_init is not None:
        sp.data.fill(data_init)
    return mx.nd.sparse.csr_matrix(
        (sp.data, sp.indices, sp.indptr), shape=tuple(shape), dtype=dtype, ctx=ctx
    )


def rand_sparse_ndarray(
    shape,
    stype,
    density=None,
    dtype=None,
    distribution=None,
    data_init=None,
    rsp_indices=None,
    modifier_func=None,
    shuffle_csr_indices=False,
    ctx=None,
):
    """A random sparse array and its parts: ``(csr, (indptr, indices, data))`` for 'csr',
    ``(rsp, (values, row_indices))`` for 'row_sparse' (uniform values in [0, 1))."""
    rnd = np.random
    density = rnd.rand() if density is None else density
    dtype = np.float32 if dtype is None else dtype
    distribution = "uniform" if distribution is None else distribution
    if stype == "row_sparse":
        assert distribution == "uniform", (
            "Distribution %s not supported for row_sparse" % distribution
        )
        if rsp_indices is not None:
            indices = np.asarray(rsp_indices)
        else:
            indices = np.argwhere(rnd.rand(shape[0]) < density).flatten()
        if indices.shape[0] == 0:
            arr = mx.nd.zeros(shape, stype="row_sparse", dtype=dtype, ctx=ctx)
            return arr, (np.array([], dtype=dtype), np.array([]))
        val = rnd.rand(indices.shape[0], *shape[1:]).astype(dtype)
        if data_init is not None:
            val.fill(data_init)
        if modifier_func is not None:
            val = np.vectorize(modifier_func)(val).astype(dtype)
        arr = mx.nd.sparse.row_sparse_array((val, indices), shape=shape, dtype=dtype, ctx=ctx)
        return arr, (val, indices)
    if stype == "csr" and distribution == "powerlaw":
        from ._test_utils_mat import powerlaw_csr

        csr = powerlaw_csr(shape[0], shape[1], density, dtype, ctx)
        return csr, (csr.indptr, csr.indices, csr.data)
    if stype == "csr" and distribution != "uniform":
        raise AssertionError("Distribution not supported: %s" % distribution)
    if stype == "csr":
        from ._test_utils_mat import check_csr_inputs

        check_csr_inputs(shape[0], shape[1], density)
        if len(shape) != 2:
            raise mx.base.MXNetError("rand_sparse_ndarray: csr arrays are 2-D, got %s" % (shape,))
        csr = _uniform_csr(shape, density, dtype, data_init, ctx)
        if shuffle_csr_indices:
            from ._test_utils_mat import shuffle_csr_column_indices

            shuffle_csr_column_indices(csr)
        return csr, (csr.indptr, csr.indices, csr.data)
    raise AssertionError("unknown storage type")


__all__ = [
    "download",
    "discard_stderr",
    "setenv",
    "getenv",
    "random_uniform_arrays",
    "create_2d_tensor",
    "mean_check",
    "var_check",
    "same_symbol_structure",
    "is_op_runnable",
    "DummyIter",
    "compare_optimizer",
    "Symbol",
    "array",
    "Features",
    "use_np",
    "OrderedDict",
    "assert_allclose",
    "mx",
    "json",
    "logging",
    "time",
    "get_mnist_ubyte",
    "get_cifar10",
    "get_bz2_data",
    "rand_sparse_ndarray",
    "rnd",
]
