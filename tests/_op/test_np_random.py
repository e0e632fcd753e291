"""Records for the ``mx.np.random`` / ``npx.random`` samplers (``_npi_uniform``,
``_npi_normal``, ``_npi_choice``, ``_npi_multinomial``...): shapes, dtypes and ranges."""

import numpy as np
import pytest

import mxnet as mx
import mxnet.numpy.random  # noqa: F401  (registers the operators)
from tests._op.harness import Record, run_record


def _check(shape, dtype, lo=None, hi=None, integral=False):
    def check(outs, ins):
        o = outs[0]
        assert o.shape == shape, f"shape {o.shape} != {shape}"
        assert o.dtype == np.dtype(dtype), f"dtype {o.dtype} != {dtype}"
        if lo is not None:
            assert (o >= lo).all()
        if hi is not None:
            assert (o <= hi).all()
        if integral:
            assert (o == np.round(o)).all()

    return check


P = np.array([0.5, 2.0], dtype=np.float32)
PR = np.array([0.2, 0.3, 0.5], dtype=np.float32)


def _r(op, inputs, params, check, name=""):
    return Record(op, inputs, params, check=check, symbolic=False, name=name)


RECORDS = [
    _r("_npi_uniform", [], {"low": 2.0, "high": 3.0, "size": (50,)}, _check((50,), "float32",
                                                                            2.0, 3.0)),
    _r("_npi_uniform_n", [P], {"low": None, "high": 3.0, "size": (4,)},
       _check((4, 2), "float32", 0.5, 3.0)),
    _r("_npi_normal", [], {"loc": 0.0, "scale": 1.0, "size": (3, 2), "dtype": "float64"},
       _check((3, 2), "float64")),
    _r("_npi_normal_n", [P, P], {"loc": None, "scale": None, "size": (3,)},
       _check((3, 2), "float32")),
    _r("_npi_gamma", [P], {"shape": None, "scale": 2.0}, _check((2,), "float32", 0.0)),
    _r("_npi_logistic", [], {"loc": 0.0, "scale": 1.0, "size": (4,)}, _check((4,), "float32")),
    _r("_npi_gumbel", [P], {"loc": None, "scale": 1.0, "size": (3, 2)},
       _check((3, 2), "float32")),
    _r("_npi_exponential", [], {"scale": 2.0, "size": (5,)}, _check((5,), "float32", 0.0)),
    _r("_npi_rayleigh", [P], {"scale": None}, _check((2,), "float32", 0.0)),
    _r("_npi_weibull", [], {"a": 2.0, "size": (5,)}, _check((5,), "float32", 0.0)),
    _r("_npi_pareto", [], {"a": 2.0, "size": (5,)}, _check((5,), "float32", 0.0)),
    _r("_npi_powerd", [], {"a": 2.0, "size": (5,)}, _check((5,), "float32", 0.0, 1.0)),
    _r("_npi_bernoulli", [], {"prob": 0.5, "logit": None, "is_logit": False, "size": (6,),
                              "dtype": "bool"}, _check((6,), "bool")),
    _r("_npi_choice", [], {"a": 5, "size": (5,), "replace": False},
       lambda outs, ins: np.testing.assert_array_equal(np.sort(outs[0]), np.arange(5))),
    _r("_npi_choice", [PR], {"a": 3, "size": (4,), "weighted": True},
       _check((4,), "int64", 0, 2), name="choice_weighted"),
    _r("_npi_multinomial", [], {"n": 5, "pvals": (0.2, 0.8), "size": (3,)},
       lambda outs, ins: np.testing.assert_array_equal(outs[0].sum(-1), [5, 5, 5])),
    _r("_npi_random_randint", [], {"low": 2, "high": 5, "shape": (10,), "dtype": "int64"},
       _check((10,), "int64", 2, 4)),
    _r("_npi_shuffle", [np.arange(6, dtype=np.float32)], {},
       lambda outs, ins: np.testing.assert_array_equal(np.sort(outs[0]), ins[0])),
    _r("_npi_mvn_fallback", [np.zeros(2, np.float32), np.eye(2, dtype=np.float32)],
       {"size": (3,)}, _check((3, 2), "float32")),
]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    mx.random.seed(0)
    run_record(rec)


def test_transform_samplers_follow_mxnet_numpy_stream():
    # values printed by MXNet 1.9.1 (CPU) after mx.random.seed(11): weibull, power, pareto,
    # rayleigh, gumbel and logistic transform float uniforms of its NumPy-interface engine
    # (power draws one more than it uses); the uniform afterwards continues the stream
    import numpy as onp

    import mxnet as mx

    np_ = mx.np
    mx.npx.set_np()
    try:
        mx.random.seed(11)
        got = [np_.random.weibull(2.0, size=(3,)),
               np_.random.power(np_.array([1.5, 3.0]), size=(2, 2)),
               np_.random.pareto(np_.array([1.5, 3.0]), size=(2,)),
               np_.random.rayleigh(2.0, size=(2,)),
               np_.random.gumbel(0.5, 1.5, size=(2,)),
               np_.random.logistic(np_.array([0.0, 1.0]), 2.0, size=(2,)),
               np_.random.uniform(size=(2,))]
    finally:
        mx.npx.reset_np()
    want = [[1.0980430841445923, 0.6946719288825989, 0.821007251739502],
            [0.5816190838813782, 0.8305724263191223, 0.9931461811065674, 0.7569860219955444],
            [25.404281616210938, 0.0575077161192894],
            [1.0625370740890503, 3.978712320327759],
            [-1.3571157455444336, 4.680632591247559],
            [-6.153113842010498, -2.5268940925598145],
            [0.8154003620147705, 0.6497322916984558]]
    for g, w in zip(got, want):
        onp.testing.assert_array_equal(g.asnumpy().ravel(), onp.float32(w))


def test_np_gamma_beta_chisquare_follow_mxnet_numpy_stream():
    # MXNet 1.9.1 (CPU), mx.random.seed(21): _npi_gamma draws double uniforms and normals of
    # the NumPy-interface engine (beta and chisquare are built on it in Python)
    import numpy as onp

    mx.npx.set_np()
    try:
        mx.random.seed(21)
        got = [mx.np.random.gamma(2.5, 1.5, size=(4,)),
               mx.np.random.gamma(mx.np.array([0.5, 3.0]), mx.np.array([1.0, 2.0]),
                                  size=(2, 2)),
               mx.np.random.beta(2.0, 3.0, size=(3,)),
               mx.np.random.chisquare(3.0, size=(3,)),
               mx.np.random.uniform(size=(2,))]
    finally:
        mx.npx.reset_np()
    want = [[5.898073673248291, 2.147707939147949, 1.9788306951522827, 1.2864831686019897],
            [0.02917567640542984, 1.654627799987793, 0.021022312343120575, 3.901090383529663],
            [0.46182960271835327, 0.1885903924703598, 0.5570051074028015],
            [0.22616644203662872, 1.356523036956787, 0.7344608902931213],
            [0.7832256555557251, 0.7455776929855347]]
    for g, w in zip(got, want):
        onp.testing.assert_array_equal(g.asnumpy().ravel(), onp.float32(w))


def test_choice_without_replacement_and_weighted_follow_mxnet_stream():
    # MXNet 1.9.1 (CPU), mx.random.seed(4): reservoir sampling on raw draws (uniform, no
    # replacement), Gumbel keys (weighted, no replacement), running float sums (weighted)
    mx.npx.set_np()
    try:
        got = []
        for a, k in [(5, 3), (10, 8), (100, 10)]:
            mx.random.seed(4)
            got.append(mx.np.random.choice(a, k, replace=False).asnumpy().tolist())
        p = mx.np.array([0.1, 0, 0.3, 0.6, 0])
        mx.random.seed(4)
        got.append(mx.np.random.choice(5, 3, replace=False, p=p).asnumpy().tolist())
        after = mx.np.random.uniform(size=(2,)).asnumpy()
        mx.random.seed(4)
        p2 = mx.np.array([0.1, 0.2, 0.3, 0.4, 0])
        got.append(mx.np.random.choice(5, 4, replace=True, p=p2).asnumpy().tolist())
    finally:
        mx.npx.reset_np()
    assert got == [[0, 3, 2], [0, 1, 2, 9, 4, 5, 6, 8],
                   [89, 19, 68, 52, 20, 25, 63, 83, 27, 61], [2, 3, 0], [2, 2, 3, 0]]
    np.testing.assert_array_equal(after, np.float32([0.5582482218742371, 0.1776348203420639]))


def test_multinomial_follows_mxnet_stream():
    # MXNet 1.9.1 (CPU), mx.random.seed(4): rows * n + len(pvals) double uniforms drawn,
    # the first rows * n binned by the running sums of pvals
    mx.npx.set_np()
    try:
        mx.random.seed(4)
        a = mx.np.random.multinomial(1000, [1 / 6.] * 6, size=2).asnumpy().tolist()
        b = mx.np.random.multinomial(100, [1 / 7.] * 5 + [2 / 7.]).asnumpy().tolist()
        after = mx.np.random.uniform(size=(1,)).asnumpy()
    finally:
        mx.npx.reset_np()
    assert a == [[157, 163, 195, 177, 145, 163], [151, 168, 168, 177, 166, 170]]
    assert b == [16, 17, 11, 12, 11, 33]
    assert after.shape == (1,)


def test_transform_samplers_without_size_give_0d_arrays():
    mx.npx.set_np()
    try:
        for name in ("weibull", "pareto", "power", "rayleigh"):
            assert getattr(mx.np.random, name)(2.0).shape == ()
        assert mx.np.random.gumbel().shape == () and mx.np.random.logistic().shape == ()
        assert mx.np.random.gamma(2.0).shape == ()
    finally:
        mx.npx.reset_np()


def test_np_gamma_float64_bits():
    # MXNet 1.9.1 (CPU), mx.random.seed(9): v = ocn * ocn * ocn in double, not pow
    mx.npx.set_np()
    try:
        mx.random.seed(9)
        g = mx.np.random.gamma(2.0, size=(3,), dtype='float64').asnumpy()
    finally:
        mx.npx.reset_np()
    np.testing.assert_array_equal(g, [1.7382451437035766, 3.120001903500404, 2.082763419421382])
