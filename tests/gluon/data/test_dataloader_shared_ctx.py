"""Worker batches live on cpu_shared(0); ops on them write cpu(0) (MXNet 1.9.1 behaviour)."""

import mxnet as mx
from mxnet import autograd, gluon


def _loader(**kw):
    x = mx.nd.arange(12).reshape((6, 2))
    y = mx.nd.arange(6)
    return gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=3, **kw)


def test_worker_batches_on_cpu_shared():
    for kw in ({"num_workers": 2}, {"num_workers": 2, "thread_pool": True}):
        batches = list(_loader(**kw))
        assert len(batches) == 2
        for xb, yb in batches:
            assert repr(xb.context) == "cpu_shared(0)"
            assert repr(yb.context) == "cpu_shared(0)"
            assert xb.context != mx.cpu()


def test_same_process_batches_on_cpu():
    xb, yb = next(iter(_loader()))
    assert xb.context == mx.cpu() and yb.context == mx.cpu()


def test_ops_and_blocks_on_shared_batches():
    xb, yb = next(iter(_loader(num_workers=1)))
    assert (xb + 1).context == mx.cpu()
    assert mx.nd.concat(xb, xb, dim=0).context == mx.cpu()
    assert xb[0].context == mx.Context("cpu_shared", 0)
    assert xb.as_in_context(mx.cpu()).context == mx.cpu()
    pinned = mx.nd.ones((2,), ctx=mx.cpu_pinned(0))
    assert (pinned * 2).context == mx.cpu()
    net = gluon.nn.Dense(1, in_units=2)
    net.initialize(mx.init.One())
    trainer = gluon.Trainer(net.collect_params(), "sgd")
    with autograd.record():
        out = net(xb)
        loss = gluon.loss.L2Loss()(out, yb)
    loss.backward()
    trainer.step(3)
    assert out.context == mx.cpu()
    assert out.asnumpy().ravel().tolist() == [1.0, 5.0, 9.0]


def test_np_mode_worker_batches_stay_np_on_cpu_shared():
    from mxnet import np, npx

    npx.set_np()
    try:
        x = np.arange(12).reshape(6, 2)
        loader = gluon.data.DataLoader(
            gluon.data.ArrayDataset(x, np.arange(6)), batch_size=3, num_workers=2
        )
        xb, _ = next(iter(loader))
        assert type(xb).__name__ == "ndarray" and isinstance(xb, np.ndarray)
        assert repr(xb.ctx) == "cpu_shared(0)"
        assert str(xb).endswith("@cpu_shared(0)")
        assert str(np.array(3.0, ctx=mx.cpu_pinned(0))) == "3.0"
        assert (xb + 1).ctx == mx.cpu()
    finally:
        npx.reset_np()
