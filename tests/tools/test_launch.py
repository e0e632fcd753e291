"""``python -m mxnet.tools.launch``: multi-process jobs on localhost (bounded, cleaned up).

Each job runs tests/kvstore/_launch_worker.py; its single-process references run here.
"""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from mxnet import kvstore as kvs
from mxnet.tools.launch import build_env, main
from tests.kvstore import _launch_worker as W

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KV_TIMEOUT = 30  # generous: CI runs this beside another test worker on 2 cores


def _launch(launch_args, worker_args, tmp_path, timeout=90, extra_env=None, module=True):
    """Run one job in its own session; afterwards no process of it may be left.

    ``module=False`` runs mxnet/tools/launch.py as a script (the same code without importing
    the mxnet package into the launcher: seconds saved on a loaded machine)."""
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS="1",
               MXNET_KVSTORE_TIMEOUT=str(KV_TIMEOUT), **(extra_env or {}))
    launcher = ["-m", "mxnet.tools.launch"] if module else [
        os.path.join(ROOT, "mxnet", "tools", "launch.py")]
    cmd = [sys.executable, *launcher, *launch_args, sys.executable, *worker_args]
    p = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        pytest.fail(f"job did not finish in {timeout}s:\n{out.decode(errors='replace')}")
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):  # every worker and server has exited
        os.killpg(p.pid, 0)
    return p.returncode, out.decode(errors="replace")


def test_dist_sync_raw_gluon_module_match_one_process_and_dead_worker(tmp_path):
    """2 workers on halves of each batch end with one process's weights (4-float chunks:
    every reduction is pipelined), also when gluon.Trainer starts reductions during backward
    (unused parameter, a round with two backward passes); then rank 1 is killed and rank 0's next push raises a
    clear MXNetError within the timeout."""
    rc, log = _launch(["-n", "2", "--launcher", "local"],
                      ["-m", "tests.kvstore._launch_worker", "sync", str(tmp_path)], tmp_path,
                      module=False, extra_env={"MXNET_KVSTORE_CHUNK_BYTES": "16"})
    assert rc != 0 and "a worker exited with code" in log, log  # rank 1 was SIGKILLed
    x, y = W.data()
    ref = {"raw": W.raw_train(kvs.create("local"), x, y), "gluon": W.gluon_train("local", x, y),
           "module": W.module_train("local", x, y, batch=4)}
    for rank in range(2):
        r = np.load(tmp_path / f"sync{rank}.npz")
        assert int(r["n"]) == 2
        np.testing.assert_array_equal(r["first"], np.full((2, 2), 5.0))  # rank 0's init
        np.testing.assert_array_equal(r["summed"], np.full((2, 2), 2 * 1 + 2 * 2.0))
        np.testing.assert_array_equal(r["pushpull"], np.stack([np.arange(6) * 3.0] * 2))
        np.testing.assert_array_equal(r["cow"], np.repeat([[6.0], [202], [-1]] * 2, 3, 1))
        for k, v in ref.items():
            np.testing.assert_allclose(r[k], v, rtol=1e-5, atol=1e-5, err_msg=k)
        for uok in (0, 1):  # reductions started during backward change nothing
            one, _ = W.gluon_overlap("local", x, y, bool(uok))
            np.testing.assert_allclose(r[f"overlap{uok}"], r[f"plain{uok}"], rtol=1e-6,
                                       atol=1e-6)
            np.testing.assert_allclose(r[f"overlap{uok}"], one, rtol=1e-5, atol=1e-5)
            assert int(r[f"started{uok}"]) == 8  # 2 overlapped rounds x 4 used keys
    elapsed, msg = (tmp_path / "die.txt").read_text().split("\n", 1)
    assert float(elapsed) < KV_TIMEOUT + 2
    assert "KVStore 'dist_sync': push of key 99 failed" in msg, msg


def test_dist_async_servers_converge_without_lock_step(tmp_path):
    """A server and 2 workers running 150 and 60 steps: each pushes as it goes, the server
    applies SGD on arrival; raw push/pull, then gluon.Trainer(kvstore='dist_async'); then
    a killed server makes pushes fail clearly. (Keys split over several servers: the
    in-process test in tests/kvstore/test_dist.py.)"""
    rc, log = _launch(["-n", "2", "-s", "1"],
                      ["-m", "tests.kvstore._launch_worker", "async", str(tmp_path)], tmp_path,
                      module=False)
    assert rc == 0, log
    for rank in range(2):
        r = np.load(tmp_path / f"async{rank}.npz")
        assert (int(r["rank"]), int(r["n"])) == (rank, 2)
        np.testing.assert_allclose(r["w"], r["w_true"], atol=0.05)
        np.testing.assert_allclose(r["gluon"], r["w_true"], atol=0.05)  # gluon.Trainer
        msg = str(r["msg"])  # then rank 0 killed the server
        assert "KVStore 'dist_async': push of key w failed: server 0" in msg, msg


def test_failed_worker_stops_the_job_after_grace(tmp_path):
    script = ("import os, sys, time\n"
              "open(os.path.join(sys.argv[1], os.environ['RANK']), 'w').write("
              "os.environ['WORLD_SIZE'] + os.environ['DMLC_ROLE'])\n"
              "sys.exit(3) if os.environ['RANK'] == '0' else time.sleep(60)\n")
    t0 = time.time()
    rc, log = _launch(["-n", "2", "--grace", "1"], ["-c", script, str(tmp_path)], tmp_path,
                      timeout=30)  # python -m mxnet.tools.launch
    assert rc == 3 and time.time() - t0 < 28, log
    assert (tmp_path / "1").read_text() == "2worker"


def test_build_env_and_arguments(tmp_path):
    w = build_env("worker", 1, 2, 1, "10.0.0.1", 9000, local_rank=1, ps_port=9001)
    assert (w["RANK"], w["WORLD_SIZE"], w["DMLC_WORKER_ID"], w["LOCAL_RANK"]) == ("1", "2", "1",
                                                                                  "1")
    assert (w["MASTER_ADDR"], w["MASTER_PORT"], w["DMLC_PS_ROOT_PORT"]) == ("10.0.0.1", "9000",
                                                                            "9001")
    s = build_env("server", 0, 2, 1, "10.0.0.1", 9000, ps_port=9001)
    assert s["DMLC_ROLE"] == "server" and s["DMLC_SERVER_ID"] == "0" and "RANK" not in s
    assert build_env("worker", 0, 1, 0, "h", 5)["DMLC_PS_ROOT_PORT"] == "5"
    with pytest.raises(SystemExit, match="needs -H"):
        main(["-n", "2", "--launcher", "ssh", "true"])
    empty = tmp_path / "hosts"
    empty.write_text("# nothing\n")
    with pytest.raises(SystemExit, match="lists no hosts"):
        main(["-n", "2", "--launcher", "ssh", "-H", str(empty), "true"])
    with pytest.raises(SystemExit, match="at least 1"):
        main(["-n", "0", "true"])


def test_dist_async_needs_servers(monkeypatch):
    from mxnet.base import MXNetError

    for k, v in {"DMLC_ROLE": "worker", "DMLC_NUM_SERVER": "0", "RANK": "0",
                 "WORLD_SIZE": "1"}.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(MXNetError, match="needs parameter servers"):
        kvs.create("dist_async")


def test_finished_dist_sync_job_exits_cleanly(tmp_path):
    """Workers that reduce and return normally exit with 0: the worker group is left at exit,
    not in the interpreter's teardown, which aborted about one run in three of this job
    ('terminate called without an active exception', exit code -6)."""
    script = ("import sys\n"
              "def work():\n"
              "    import torch, torch.distributed as dist, mxnet as mx\n"
              "    kv = mx.kv.create('dist_sync')\n"
              "    for key, n in ((1, 1 << 18), (4, 1 << 20)):\n"
              "        a, raw = mx.nd.ones((n,)), torch.ones(n)\n"
              "        kv.init(key, a)\n"
              "        for _ in range(8):\n"
              "            kv.pushpull(key, a)\n"
              "            dist.all_reduce(raw)\n"
              "    kv.barrier()\n"
              "    print('sum', a[0].asscalar())\n"
              "    sys.stdout.flush()\n"
              "work()\n")
    for _ in range(4):
        rc, log = _launch(["-n", "2"], ["-c", script], tmp_path, timeout=60, module=False)
        assert rc == 0 and "terminate" not in log and log.count("256.0") == 2, log  # (prints of
        # the two workers may interleave)
