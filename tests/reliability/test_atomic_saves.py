"""Every writer goes through a temporary file in the same folder and ``os.replace``.

A process killed (SIGKILL) in the middle of a save must leave the previous file intact.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon
from tests.reliability import _stats

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def replaces(monkeypatch):
    """Record every ``os.replace(src, dst)`` (and check src sits beside dst)."""
    calls: list[tuple[str, str]] = []
    real = os.replace

    def spy(src, dst, *a, **k):
        src, dst = os.fspath(src), os.fspath(dst)
        assert os.path.dirname(os.path.abspath(src)) == os.path.dirname(os.path.abspath(dst))
        calls.append((src, dst))
        return real(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", spy)
    return calls


def _targets(calls) -> set[str]:
    return {os.path.basename(d) for _, d in calls}


def _mlp():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(4, in_units=3), gluon.nn.Dense(2, in_units=4))
    net.initialize()
    return net


def test_ndarray_and_symbol_writers(tmp_path, replaces):
    mx.nd.save(str(tmp_path / "a.params"), {"w": mx.nd.ones((2,))})
    sym = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2, name="fc")
    sym.save(str(tmp_path / "s-symbol.json"))
    mx.model.save_checkpoint(str(tmp_path / "ck"), 3, sym, {"fc_weight": mx.nd.ones((2, 3)),
                                                             "fc_bias": mx.nd.zeros((2,))}, {})
    assert _targets(replaces) == {"a.params", "s-symbol.json", "ck-symbol.json",
                                  "ck-0003.params"}
    assert sorted(os.listdir(tmp_path)) == sorted(_targets(replaces))  # no temp files left


def test_gluon_writers(tmp_path, replaces):
    net = _mlp()
    net.hybridize()
    net(mx.nd.ones((1, 3)))
    net.save_parameters(str(tmp_path / "net.params"))
    net.export(str(tmp_path / "net"), epoch=2)
    trainer = gluon.Trainer(net.collect_params(), "adam")
    with mx.autograd.record():
        loss = net(mx.nd.ones((1, 3))).sum()
    loss.backward()
    trainer.step(1)
    trainer.save_states(str(tmp_path / "t.states"))
    assert _targets(replaces) == {"net.params", "net-symbol.json", "net-0002.params",
                                  "t.states"}
    assert sorted(os.listdir(tmp_path)) == sorted(_targets(replaces))
    trainer.load_states(str(tmp_path / "t.states"))


def test_module_and_kvstore_writers(tmp_path, replaces):
    data = mx.sym.Variable("data")
    out = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(data, num_hidden=2, name="fc"),
                               name="softmax")
    mod = mx.mod.Module(out, context=mx.cpu())
    mod.bind(data_shapes=[("data", (2, 3))], label_shapes=[("softmax_label", (2,))])
    mod.init_params()
    mod.init_optimizer(kvstore=None, optimizer="sgd", optimizer_params={"momentum": 0.9})
    mod.save_checkpoint(str(tmp_path / "m"), 1, save_optimizer_states=True)
    mod.save_optimizer_states(str(tmp_path / "m.states"))
    kv = mx.kv.create("local")
    kv.set_optimizer(mx.optimizer.SGD(momentum=0.9))
    kv.init(0, mx.nd.ones((2,)))
    kv.push(0, mx.nd.ones((2,)))
    kv.save_optimizer_states(str(tmp_path / "kv.states"))
    assert _targets(replaces) == {"m-symbol.json", "m-0001.params", "m-0001.states",
                                  "m.states", "kv.states"}
    assert sorted(os.listdir(tmp_path)) == sorted(_targets(replaces))
    mod.load_optimizer_states(str(tmp_path / "m-0001.states"))
    kv.load_optimizer_states(str(tmp_path / "kv.states"))


def test_recordio_writers(tmp_path, replaces):
    rec = mx.recordio.MXRecordIO(str(tmp_path / "a.rec"), "w")
    rec.write(b"x")
    assert not (tmp_path / "a.rec").exists()  # appears only when closed
    rec.close()
    irec = mx.recordio.MXIndexedRecordIO(str(tmp_path / "b.idx"), str(tmp_path / "b.rec"), "w")
    irec.write_idx(0, b"y")
    irec.close()
    assert _targets(replaces) == {"a.rec", "b.rec", "b.idx"}


_CHILD = textwrap.dedent("""
    import os, sys, time
    sys.path.insert(0, {root!r})
    import mxnet as mx
    import numpy as np
    target, mode = sys.argv[1], sys.argv[2]
    big = {{"w%d" % i: mx.nd.array(np.full((1 << 20,), i, np.float32)) for i in range(48)}}
    if mode == "stall":  # stop right before the rename: the whole temp file is written
        real = os.replace
        def stall(src, dst):
            print("READY", flush=True)
            time.sleep(60)
        os.replace = stall
    print("SAVING", flush=True)
    mx.nd.save(target, big)
    print("DONE", flush=True)
""")


@pytest.mark.parametrize("mode", ["stall", "race"])
def test_kill_during_nd_save_keeps_previous_file(tmp_path, mode):
    target = str(tmp_path / "model.params")
    mx.nd.save(target, {"old": mx.nd.array(np.arange(5, dtype=np.float32))})
    before = open(target, "rb").read()
    script = tmp_path / "child.py"
    script.write_text(_CHILD.format(root=ROOT))
    proc = subprocess.Popen([sys.executable, str(script), target, mode],
                            stdout=subprocess.PIPE, text=True)
    try:
        wanted = "READY" if mode == "stall" else "SAVING"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line or line.strip() == wanted:
                break
        if mode == "race":  # kill as soon as the temp file starts to grow
            while time.monotonic() < deadline and proc.poll() is None:
                tmps = [f for f in os.listdir(tmp_path) if f.startswith(".tmp")]
                if tmps and os.path.getsize(tmp_path / tmps[0]) > 0:
                    break
                time.sleep(0.001)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
        proc.stdout.close()
    after = open(target, "rb").read()
    loaded = mx.nd.load(target)
    if mode == "stall" or after == before:
        assert after == before
        assert loaded["old"].asnumpy().tolist() == [0, 1, 2, 3, 4]
    else:  # the child won the race: the new file must then be complete
        assert len(loaded) == 48
    _stats.FAULTS[f"SIGKILL during nd.save ({mode})"] = "previous file intact and loadable"
