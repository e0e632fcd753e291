"""Local and device key-value stores: MXNet 1.9.1's semantics on several contexts."""

import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import kvstore as kvs
from mxnet import optimizer as opt
from mxnet.base import MXNetError

CTXS = [mx.cpu(i) for i in range(4)]
SHAPE = (2, 3)


@pytest.mark.parametrize("kind", ["local", "device"])
def test_push_sums_devices_and_pull(kind):
    kv = kvs.create(kind)
    assert (kv.type, kv.rank, kv.num_workers) == (kind, 0, 1)
    kv.init(3, mx.nd.ones(SHAPE))
    kv.push(3, [mx.nd.ones(SHAPE, ctx=c) * (i + 1) for i, c in enumerate(CTXS)])
    outs = [mx.nd.zeros(SHAPE, ctx=c) for c in CTXS]
    kv.pull(3, out=outs)
    for o, c in zip(outs, CTXS):
        assert o.context == c
        np.testing.assert_array_equal(o.asnumpy(), np.full(SHAPE, 10.0))


def test_list_keys_str_keys_and_pushpull():
    kv = kvs.create("local")
    kv.init(["a", "b"], [mx.nd.zeros(SHAPE), mx.nd.zeros((4,))])
    kv.push(["a", "b"], [[mx.nd.ones(SHAPE)] * 2, mx.nd.ones((4,)) * 3])
    a, b = mx.nd.zeros(SHAPE), mx.nd.zeros((4,))
    kv.pull(["a", "b"], out=[a, b])
    assert a.asnumpy().sum() == 12 and b.asnumpy().tolist() == [3.0] * 4
    vals = [mx.nd.ones((4,), ctx=c) for c in CTXS[:2]]
    kv.pushpull("b", vals)
    assert all(v.asnumpy().tolist() == [2.0] * 4 for v in vals)
    outs = [mx.nd.zeros((4,)), mx.nd.zeros((4,), ctx=mx.cpu(1))]
    kv.pushpull("b", [mx.nd.ones((4,))] * 3, out=outs)
    assert outs[1].asnumpy().tolist() == [3.0] * 4


def test_errors_match_mxnet():
    kv = kvs.create("local")
    kv.init(3, mx.nd.ones(SHAPE))
    with pytest.raises(MXNetError, match="duplicate init of key 3"):
        kv.init(3, mx.nd.ones(SHAPE))
    with pytest.raises(MXNetError, match="key 5 has not been inited"):
        kv.pull(5, out=mx.nd.zeros(SHAPE))
    with pytest.raises(MXNetError, match="key 5 has not been inited"):
        kv.push(5, mx.nd.ones(SHAPE))
    with pytest.raises(MXNetError, match="Mixed key types are not allowed"):
        kv.init("a", mx.nd.ones(SHAPE))
    with pytest.raises(AssertionError, match="inconsistent types of keys"):
        kv.init([4, "d"], [mx.nd.ones((2,)), mx.nd.ones((2,))])
    with pytest.raises(MXNetError, match=r"from.shape = \[2,3\] to.shape=\[3\]"):
        kv.pull(3, out=mx.nd.zeros((3,)))
    with pytest.raises(ValueError, match="Unknown capability: foo"):
        kv.is_capable("foo")
    assert kv.is_capable("optimizer") is True
    with pytest.raises(TypeError, match="name must be a string"):
        kvs.create(3)
    # like MXNet 1.9.1, an unknown name without "dist" makes a local store of that type
    assert kvs.create("foo").type == "foo"
    with pytest.raises(MXNetError, match="dist_async"):
        kvs.create("dist_async")
    with pytest.raises(AssertionError, match="Cannot save states"):
        kv.save_optimizer_states("/nonexistent/x.states")


def test_dist_sync_without_group_is_a_clear_error(monkeypatch):
    for k in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "DMLC_NUM_WORKER"):
        monkeypatch.delenv(k, raising=False)
    import torch.distributed as dist

    if dist.is_initialized():
        pytest.skip("a process group is already running")
    with pytest.raises(MXNetError, match="torchrun"):
        kvs.create("dist_sync")


def test_updater_and_optimizer_in_store(tmp_path):
    kv = kvs.create("local")
    kv.init(0, mx.nd.ones((2,)))
    calls = []

    def upd(key, inp, stored):
        calls.append(key)
        stored += inp * 2

    kv._set_updater(upd)
    kv.push(0, [mx.nd.ones((2,)), mx.nd.ones((2,), ctx=mx.cpu(1))])
    out = mx.nd.zeros((2,))
    kv.pull(0, out=out)
    assert calls == [0] and out.asnumpy().tolist() == [5.0, 5.0]

    kv = kvs.create("local")
    kv.init(0, mx.nd.ones((2,)))
    kv.set_optimizer(opt.SGD(learning_rate=0.1, momentum=0.9))
    for _ in range(2):
        kv.push(0, [mx.nd.ones((2,))] * 2)
    kv.pull(0, out=out)
    # two SGD steps on gradient 2: w = 1 - 0.2 = 0.8; mom = -0.18 - 0.2; w = 0.42
    np.testing.assert_allclose(out.asnumpy(), [0.42, 0.42], rtol=1e-6)
    fname = str(tmp_path / "kv.states")
    kv.save_optimizer_states(fname)
    assert os.path.exists(fname) and not [p for p in os.listdir(tmp_path) if ".tmp" in p]
    kv2 = kvs.create("local")
    kv2.init(0, mx.nd.array([0.42, 0.42]))
    kv2.set_optimizer(opt.SGD(learning_rate=0.1, momentum=0.9))
    kv2.load_optimizer_states(fname)
    kv.push(0, mx.nd.ones((2,)))
    kv2.push(0, mx.nd.ones((2,)))
    a, b = mx.nd.zeros((2,)), mx.nd.zeros((2,))
    kv.pull(0, out=a)
    kv2.pull(0, out=b)
    np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6, atol=1e-6)


def test_broadcast_and_row_sparse_pull():
    kv = kvs.create("device")
    outs = [mx.nd.zeros((3, 2), ctx=c) for c in CTXS[:2]]
    kv.broadcast("w", mx.nd.array([[1, 2], [3, 4], [5, 6]]), out=outs)
    assert all(o.asnumpy().sum() == 21 for o in outs)
    with pytest.raises(MXNetError, match="duplicate init"):
        kv.broadcast("w", mx.nd.ones((3, 2)), out=outs)
    kv.init("r", mx.nd.array([[1, 2], [3, 4], [5, 6]]).tostype("row_sparse"))
    outs = [mx.nd.zeros((3, 2), ctx=c).tostype("row_sparse") for c in CTXS[:2]]
    kv.row_sparse_pull("r", out=outs, row_ids=mx.nd.array([2, 0, 2]))
    for o in outs:
        assert o.asnumpy().tolist() == [[1, 2], [0, 0], [5, 6]]
    o2 = [mx.nd.zeros((3, 2)).tostype("row_sparse") for _ in range(2)]
    kv.row_sparse_pull("r", out=o2, row_ids=[mx.nd.array([1]), mx.nd.array([0])])
    assert o2[0].asnumpy().tolist() == [[0, 0], [3, 4], [0, 0]]
    assert o2[1].asnumpy().tolist() == [[1, 2], [0, 0], [0, 0]]


def test_gradient_compression_2bit_error_feedback():
    kv = kvs.create("local")
    with pytest.raises(Exception, match="not supported for this type"):
        kv.set_gradient_compression({"type": "2bit", "threshold": 0.5})
    kv = kvs.create("device")
    with pytest.raises(MXNetError, match="Unknown type for gradient compression 1bit"):
        kv.set_gradient_compression({"type": "1bit"})
    with pytest.raises(MXNetError, match="threshold must be greater than 0"):
        kv.set_gradient_compression({"type": "2bit", "threshold": -1})
    with pytest.raises(MXNetError, match="Required parameter type"):
        kv.set_gradient_compression({"typo": "2bit"})
    kv.set_gradient_compression({"type": "2bit", "threshold": 0.5})
    kv.init(0, mx.nd.zeros((4,)))
    seen = []
    for _ in range(3):  # values recorded from MXNet 1.9.1
        kv.push(0, [mx.nd.array([0.3, -0.6, 0.1, 1.2], ctx=c) for c in CTXS[:2]])
        r = mx.nd.zeros((4,))
        kv.pull(0, out=r)
        seen.append(r.asnumpy().tolist())
    assert seen == [[0, -1, 0, 1], [1, -1, 0, 1], [0, -1, 0, 1]]


def test_test_store_and_barrier():
    ts = kvs.create("teststore")
    vals = [mx.nd.ones((2,)), mx.nd.ones((2,)) * 2]
    ts.pushpull(0, vals)
    assert vals[0].asnumpy().tolist() == [3, 3]
    kv = kvs.create("local")
    kv.barrier()
    kv._barrier()


def test_row_sparse_pull_needs_row_sparse_storage():
    kv = mx.kv.create()
    kv.init(3, mx.nd.zeros((4, 4)))
    kv.init(4, mx.nd.zeros((4, 4)).tostype("row_sparse"))
    rows = mx.nd.array([1], dtype="int64")
    with pytest.raises(MXNetError, match="Expected row_sparse storage type"):
        kv.row_sparse_pull(4, out=mx.nd.zeros((4, 4)), row_ids=rows)
    with pytest.raises(MXNetError, match="PullRowSparse expects row_sparse src"):
        kv.row_sparse_pull(3, out=mx.nd.zeros((4, 4)).tostype("row_sparse"), row_ids=rows)


def test_pull_leaves_row_sparse_outputs_alone_unless_ignore_sparse_is_false():
    # MXNet 1.9.1: pull(ignore_sparse=True) skips row_sparse outs (oracle: they keep 2s)
    kv = kvs.create("local")
    kv.init(3, mx.nd.zeros((4, 4)))
    dense = mx.nd.ones((4, 4)) * 5
    rsp = (mx.nd.ones((4, 4)) * 2).tostype("row_sparse")
    kv.pull(3, out=[dense, rsp])
    assert (dense.asnumpy() == 0).all()
    assert (rsp.asnumpy() == 2).all()
    kv.pull(3, out=rsp, ignore_sparse=False)
    assert rsp.stype == "row_sparse" and (rsp.asnumpy() == 0).all()


def test_updater_gets_str_keys_as_bytes_like_mxnet():
    # MXNet 1.9.1 passes str keys through a C char*: the updater sees b'a'; int keys stay int
    seen = []
    for key in ("a", 7):
        kv = kvs.create("local")
        kv._set_updater(lambda k, recv, local: seen.append(k))
        kv.init(key, mx.nd.zeros(2))
        kv.push(key, [mx.nd.ones(2), mx.nd.ones(2)])
    assert seen == [b"a", 7]
    # the optimizer's updater turns them back into str (its state keys)
    kv2 = kvs.create("local")
    kv2.set_optimizer(opt.SGD(learning_rate=0.1, momentum=0.9))
    kv2.init("w", mx.nd.ones(2))
    kv2.push("w", mx.nd.ones(2))
    assert list(kv2._updater.states) == ["w"]


def test_send_command_to_servers_is_a_no_op_without_servers():
    assert kvs.create("local")._send_command_to_servers(0, "x") is None


def test_push_of_a_wrong_shape_is_an_mxnet_error():
    kv = kvs.create("local")
    kv.init(0, mx.nd.zeros(2))
    for vals in ([mx.nd.ones(2), mx.nd.ones(3)], [mx.nd.ones(3)]):
        with pytest.raises(MXNetError, match="operands shape mismatch"):
            kv.push(0, vals)
