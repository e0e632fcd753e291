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


def test_dist_sync_sums_trains_like_one_process_and_reports_a_dead_worker(tmp_path):
    """One pair of workers (process start-up dominates): sums, training, then rank 1 exits
    and rank 0's next push must fail with a clear error within the timeout."""
    t0 = time.time()
    procs, logs = _run("sum_train", tmp_path, timeout=120, kv_timeout=10)
    assert time.time() - t0 < 120
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
    msg = str(np.load(tmp_path / "sum_train0_die.npz")["msg"])
    assert "KVStore 'dist_sync'" in msg and "push of key 20" in msg, msg


@pytest.mark.parametrize("name", ["dist_async", "horovod"])
def test_unsupported_dist_types(name):
    from mxnet.base import MXNetError

    with pytest.raises(MXNetError, match=name):
        kvs.create(name)
