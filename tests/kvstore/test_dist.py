"""``dist_sync`` over torch.distributed: 2 worker processes on localhost (bounded time)."""

import os
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

from mxnet import kvstore as kvs
from tests.kvstore._dist_worker import data, train

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(mode, tmp_path, n=2, timeout=90, kv_timeout=20):
    port = _free_port()
    procs = []
    for rank in range(n):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE=str(n), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=str(port), MXNET_KVSTORE_TIMEOUT=str(kv_timeout), OMP_NUM_THREADS="1",
                   PYTHONPATH=ROOT)
        out = str(tmp_path / f"{mode}{rank}.npz")
        procs.append(subprocess.Popen([sys.executable, "-m", "tests.kvstore._dist_worker", mode,
                                       out], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT))
    start = time.time()
    try:
        for p in procs:
            p.wait(timeout=max(1, timeout - (time.time() - start)))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    logs = [p.stdout.read().decode(errors="replace") for p in procs]
    return procs, logs


def test_dist_sync_sums_and_two_workers_equal_one_process(tmp_path):
    procs, logs = _run("sum_train", tmp_path)
    assert all(p.returncode == 0 for p in procs), logs
    x, y = data()
    w, b = train(kvs.create("local"), x, y, len(x))
    for rank in range(2):
        r = np.load(tmp_path / f"sum_train{rank}.npz")
        assert int(r["n"]) == 2
        np.testing.assert_array_equal(r["first"], np.full((2, 2), 5.0))  # rank 0's init
        np.testing.assert_array_equal(r["res"], np.full((2, 2), 2 * 1 + 2 * 2.0))
        np.testing.assert_allclose(r["w"], w, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(r["b"], b, rtol=1e-5, atol=1e-5)


def test_dead_worker_is_reported(tmp_path):
    t0 = time.time()
    procs, logs = _run("die", tmp_path, timeout=80, kv_timeout=5)
    assert time.time() - t0 < 80
    assert procs[0].returncode == 0, logs
    msg = str(np.load(tmp_path / "die0.npz")["msg"])
    assert "KVStore 'dist_sync'" in msg and "push of key 0" in msg, msg


@pytest.mark.parametrize("name", ["dist_async", "horovod"])
def test_unsupported_dist_types(name):
    from mxnet.base import MXNetError

    with pytest.raises(MXNetError, match=name):
        kvs.create(name)
