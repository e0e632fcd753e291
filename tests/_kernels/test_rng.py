"""MXNet's CPU random streams (mxnet._mxrng) give the same bits from the native engines
(mxnet/_kernels/rng.c) as from the NumPy code, and both can be mixed on one stream."""

import numpy as np
import pytest

from mxnet import _kernels, _mxrng

native = pytest.mark.skipif(_kernels.library("rng") is None, reason="no native rng kernels")


@pytest.fixture(autouse=True)
def _restore():
    yield
    _mxrng.NATIVE = True
    _mxrng.seed(0)


def _run(use_native, ops, seed=7):
    _mxrng.NATIVE = use_native
    _mxrng.seed(seed)
    return [op() for op in ops]


def _same(a, b):
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b)):
        assert x.dtype == y.dtype and x.shape == y.shape, i
        assert x.tobytes() == y.tobytes(), (i, np.nonzero(x != y)[0][:5])


SIZES = [0, 1, 63, 64, 65, 200, 4097, 65537]


@native
@pytest.mark.parametrize("seed", [0, 7, 123])
def test_parallel_uniform_normal_same_bits(seed):
    ops = []
    for n in SIZES:
        for dt in ("float32", "float64"):
            ops += [
                lambda n=n, dt=dt: _mxrng.uniform(n, -2.0, 3.5, dt),
                lambda n=n, dt=dt: _mxrng.normal(n, 0.5, 2.0, dt),
                lambda n=n, dt=dt: _mxrng.uniform_raw(n, dt),
            ]
    _same(_run(False, ops, seed), _run(True, ops, seed))


@native
def test_array_parameters_raw_draws_and_masks_same_bits():
    lo, hi = np.array([0.0, 1.0, -1.0], np.float32), np.array([1.0, 3.0, 0.5], np.float32)
    ops = [
        lambda: _mxrng.uniform(300, lo, hi, "float32"),
        lambda: _mxrng.normal(3000, lo, hi, "float64"),
        lambda: _mxrng.uniform(3, lo, hi, "float64"),
        lambda: _mxrng._draws(5000, 2),
        lambda: _mxrng.dropout_mask(131 * 64, "float32", 0.7, False),
        lambda: _mxrng.dropout_mask(999, "float64", 0.5, True),
        lambda: _mxrng.normal(70000, 0.0, 1.0, "float32"),
    ]
    _same(_run(False, ops), _run(True, ops))


@native
def test_numpy_interface_engine_same_bits():
    ops = [
        lambda: _mxrng.np_uniform01(5),
        lambda: _mxrng.np_normal01(7),  # odd: the last pair's other half is dropped
        lambda: _mxrng.np_uniform_ints(np.arange(1, 40)),  # leaves handed-back draws
        lambda: _mxrng.np_normal01(1000),
        lambda: _mxrng.np_uniform01(2000),
        lambda: _mxrng.np_normal01(0),
        lambda: _mxrng.np_uniform01(0),
    ]
    _same(_run(False, ops), _run(True, ops))


@native
def test_paths_mixed_on_one_stream():
    """The NumPy normal hands surplus draws back to its engines; the native code reads them
    first, so alternating the two paths continues the same sequences."""
    ops = [
        lambda: _mxrng.normal(4097, 0.0, 1.0, "float32"),
        lambda: _mxrng.uniform(65537, 0.0, 1.0, "float32"),
        lambda: _mxrng.normal(300, 0.0, 1.0, "float64"),
        lambda: _mxrng.np_normal01(9),
        lambda: _mxrng.uniform(1000, 0.0, 1.0, "float64"),
        lambda: _mxrng.np_uniform01(3),
    ]
    ref = _run(True, ops)
    _mxrng.seed(7)
    mixed = []
    for i, op in enumerate(ops):
        _mxrng.NATIVE = i % 2 == 0
        mixed.append(op())
    _same(ref, mixed)
    _mxrng.seed(7)
    mixed = []
    for i, op in enumerate(ops):
        _mxrng.NATIVE = i % 2 == 1
        mixed.append(op())
    _same(ref, mixed)


def test_grouped_reads_with_mixed_positions():
    """Engines left at different positions are read in groups; an engine whose new position
    equals a later group's start must not be read again (NumPy code)."""
    _mxrng.NATIVE = False
    _mxrng.seed(3)
    first = _mxrng._engines().take2d([10, 20])  # engine 0 at 10, engine 1 at 20
    got = _mxrng._engines().take2d([10, 10])
    _mxrng.seed(3)
    whole = _mxrng._engines().take2d([20, 30])
    assert (first[0, :10] == whole[0, :10]).all()
    assert (got[0] == whole[0, 10:20]).all()
    assert (got[1] == whole[1, 20:30]).all()


@pytest.mark.parametrize("use_native", [False, True])
def test_float64_normals_use_the_c_library_log(use_native):
    """Values printed by MXNet 1.9.1 (seed 7, 4097 float64 normals): NumPy's own log
    rounded these two differently."""
    if use_native and _kernels.library("rng") is None:
        pytest.skip("no native rng kernels")
    (v,) = _run(use_native, [lambda: _mxrng.normal(4097, 0.0, 1.0, "float64")])
    assert v[785] == float.fromhex("0x1.3184d1a3a9a8ap-1")
    assert v[1163] == float.fromhex("0x1.7e9b85ff4d3c8p-3")


def _child_normal(q):
    q.put(float(_mxrng.normal(100000, 0.0, 1.0, "float32").sum()))


@native
def test_forked_child_draws_without_hanging():
    """GNU OpenMP's pool does not survive fork: a child runs the engines on one thread."""
    import multiprocessing as mp

    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        _mxrng.seed(1)
        _mxrng.normal(100000, 0.0, 1.0, "float32")  # the parent's OpenMP team exists
        ctx = mp.get_context("fork")
        q = ctx.Queue()
        p = ctx.Process(target=_child_normal, args=(q,))
        p.start()
        try:
            got = q.get(timeout=30)
        finally:
            p.join(5)
            if p.is_alive():
                p.kill()
    finally:
        torch.set_num_threads(threads)
    expect = float(_mxrng.normal(100000, 0.0, 1.0, "float32").sum())
    assert got == expect  # the same continuation of the stream as the parent
