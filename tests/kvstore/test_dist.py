"""Distributed store pieces that need no second process (the multi-process jobs are in
tests/tools/test_launch.py)."""

import pytest
import torch

from mxnet import kvstore as kvs
from mxnet.base import MXNetError
from mxnet.kvstore import _ps
from mxnet.kvstore._dist import _map_dmlc_env


def test_unsupported_dist_types():
    with pytest.raises(MXNetError, match="horovod"):
        kvs.create("horovod")


def test_dmlc_env_maps_to_torchrun_env():
    env = {"DMLC_PS_ROOT_URI": "h", "DMLC_PS_ROOT_PORT": "9000", "DMLC_NUM_WORKER": "3",
           "DMLC_WORKER_ID": "2", "DMLC_NUM_SERVER": "0"}
    _map_dmlc_env(env)
    assert [env[k] for k in ("MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "RANK")] == [
        "h", "9000", "3", "2"]
    env = {"DMLC_PS_ROOT_PORT": "9000", "DMLC_NUM_SERVER": "2", "RANK": "1"}
    _map_dmlc_env(env)  # server 0 holds the root port: the workers meet at the next one
    assert env["MASTER_PORT"] == "9001" and env["RANK"] == "1"


def test_sharding_and_wire_format(monkeypatch):
    monkeypatch.setenv("MXNET_KVSTORE_BIGARRAY_BOUND", "10")
    assert len(_ps.shards(3, 9, 4)) == 1 and _ps.shards(3, 9, 4) == _ps.shards(3, 9, 4)
    assert _ps.shards("w", 10, 3) == [(0, 0, 3), (1, 3, 6), (2, 6, 10)]
    for t in (torch.arange(6, dtype=torch.float32).reshape(2, 3),
              torch.ones(3, dtype=torch.float16), torch.zeros((0, 2))):
        back = _ps.bytes_tensor(bytearray(_ps.tensor_bytes(t)), _ps.dtype_name(t), t.shape)
        assert back.dtype == t.dtype and torch.equal(back, t)


def test_dist_async_in_process_servers(monkeypatch):
    """Two servers in threads and one worker: sharding, assignment, the optimizer sent to
    the servers, errors from the servers, and the servers' exit once the worker leaves."""
    import socket
    import threading

    import numpy as np

    import mxnet as mx
    from mxnet import optimizer as opt
    from mxnet.kvstore.kvstore_server import KVStoreServer

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {"DMLC_ROLE": "worker", "DMLC_WORKER_ID": "0", "DMLC_NUM_WORKER": "1",
           "DMLC_NUM_SERVER": "2", "DMLC_PS_ROOT_URI": "127.0.0.1",
           "DMLC_PS_ROOT_PORT": str(port), "MXNET_KVSTORE_TIMEOUT": "20",
           "MXNET_KVSTORE_BIGARRAY_BOUND": "4"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    servers = [KVStoreServer(None) for _ in range(2)]
    threads = [threading.Thread(target=srv._serve, args=(i, 1, "127.0.0.1", port, 20.0),
                                daemon=True) for i, srv in enumerate(servers)]
    for t in threads:
        t.start()
    kv = kvs.create("dist_async")
    try:
        assert (kv.type, kv.rank, kv.num_workers) == ("dist_async", 0, 1)
        kv.init(["small", "big"], [mx.nd.ones((3,)), mx.nd.arange(8).reshape((2, 4))])
        assert "big" in servers[0]._state.values and "big" in servers[1]._state.values
        kv.push("big", [mx.nd.ones((2, 4)), mx.nd.ones((2, 4))])  # no optimizer: assign
        out = mx.nd.zeros((2, 4))
        kv.pull("big", out=out)
        np.testing.assert_array_equal(out.asnumpy(), np.full((2, 4), 2.0))
        kv.set_optimizer(opt.SGD(learning_rate=0.5))
        kv.pushpull("small", mx.nd.ones((3,)) * 2, out=[mx.nd.zeros((3,))] * 2)
        kv.push("big", mx.nd.ones((2, 4)))
        small, big = mx.nd.zeros((3,)), mx.nd.zeros((2, 4))
        kv.pull(["small", "big"], out=[small, big])
        np.testing.assert_allclose(small.asnumpy(), [0.0, 0.0, 0.0])  # 1 - 0.5 * 2
        np.testing.assert_allclose(big.asnumpy(), np.full((2, 4), 1.5))  # 2 - 0.5 * 1
        with pytest.raises(MXNetError, match="row_sparse"):  # "big" is dense, as in MXNet
            kv.row_sparse_pull("big", out=big, row_ids=mx.nd.array([1]))
        kv.barrier()
        with pytest.raises(MXNetError, match="key nope has not been inited"):
            kv._ps.push("nope", torch.ones(2))
        with pytest.raises(AssertionError, match="Cannot save states"):
            kv.save_optimizer_states("unused.states")
    finally:
        kv._ps.close()
    for t in threads:
        t.join(timeout=10)
        assert not t.is_alive()  # the only worker left: the servers exit
