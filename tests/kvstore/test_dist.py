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
