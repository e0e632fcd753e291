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


def test_indexing_copies_go_to_cpu0_views_keep_context():
    # ImageRecordIter batches are cpu_pinned: printing batch.data[0][0, :, :2, :2] shows
    # cpu(0) in MXNet 1.9.1 (a slice op's output), while row views stay pinned
    pinned = mx.cpu_pinned(0)
    a = mx.nd.arange(24, ctx=pinned).reshape((2, 3, 4))
    assert a[1].context == pinned
    assert a[0:1].context == pinned
    assert a[0, 1].context == pinned  # leading integers: still a view
    assert a[0, :, :2].context == mx.cpu(0)
    assert a[:, 0].context == mx.cpu(0)
    assert a[[0, 1]].context == mx.cpu(0)
    assert a[:, 0].asnumpy().tolist() == [[0, 1, 2, 3], [12, 13, 14, 15]]
