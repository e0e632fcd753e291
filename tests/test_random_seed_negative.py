"""mx.random.seed with a negative int32 seed (MXNet's nightly test_fixed_seed draws one):
accepted, reproducible, and the same Dropout mask as MXNet 1.9.1 (values from MXNet)."""

import mxnet as mx


def _mask(seed, ctx):
    mx.random.seed(seed)
    with mx.autograd.record():
        return mx.gluon.nn.Dropout(0.5)(mx.nd.ones((100, 100), ctx=ctx)).asnumpy()


def test_negative_seed_dropout_matches_mxnet():
    for ctx in (mx.cpu(0), mx.cpu(1)):
        a = _mask(-1324913873, ctx)
        assert int(a.sum()) == 9944
        assert a[0, :8].tolist() == [0.0, 2.0, 2.0, 0.0, 2.0, 0.0, 2.0, 2.0]
        assert (_mask(-1324913873, ctx) == a).all()


def test_negative_seed_samplers_reproducible():
    mx.random.seed(-5)
    a = mx.nd.random.uniform(shape=(5,)).asnumpy()
    mx.random.seed(-5)
    assert (mx.nd.random.uniform(shape=(5,)).asnumpy() == a).all()
    assert a[:3].tolist() == [0.8404097557067871, 0.7923398017883301, 0.45365110039711]
