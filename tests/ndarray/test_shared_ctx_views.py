"""``cpu_shared``/``cpu_pinned`` arrays (DataLoader worker batches): reshape views keep
the context, operators write ``cpu(0)``, gradients live on ``cpu(0)`` (MXNet 1.9.1)."""

import mxnet as mx


def test_contexts_of_views_results_and_gradients():
    shared = mx.Context("cpu_shared", 0)
    a = mx.nd.ones((2, 3), ctx=shared)
    assert a.reshape((3, 2)).context == shared
    assert a.reshape(3, 2).context == shared
    assert a[0].context == shared
    assert (a + 1).context == mx.cpu(0)
    assert a.T.context == mx.cpu(0)
    a.attach_grad()
    assert a.grad.context == mx.cpu(0)
    with mx.autograd.record():
        y = (a * 2).sum()
    y.backward()
    assert a.grad.asnumpy().tolist() == [[2.0] * 3] * 2
