"""Callbacks log MXNet 1.9.1's exact lines."""

import logging
import re
from collections import namedtuple

import mxnet as mx
from mxnet import callback, metric

Param = namedtuple("BatchEndParams", ["epoch", "nbatch", "eval_metric", "locals"])


def _acc():
    m = metric.Accuracy()
    m.update([mx.nd.array([0, 1, 1, 0])], [mx.nd.array([[1, 0], [0, 1], [1, 0], [1, 0]])])
    return m


def test_speedometer_lines(caplog):
    caplog.set_level(logging.INFO)
    sp = callback.Speedometer(batch_size=4, frequent=2)
    m = _acc()
    for nbatch in range(5):
        sp(Param(epoch=1, nbatch=nbatch, eval_metric=m, locals=None))
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2
    assert re.fullmatch(r"Epoch\[1\] Batch \[0-2\]\tSpeed: [0-9.]+ samples/sec\t"
                        r"accuracy=0\.750000", lines[0])
    assert re.fullmatch(r"Epoch\[1\] Batch \[2-4\]\tSpeed: [0-9.]+ samples/sec\t"
                        r"accuracy=nan", lines[1])  # auto_reset cleared the local stats


def test_speedometer_no_reset_and_no_metric(caplog):
    caplog.set_level(logging.INFO)
    sp = callback.Speedometer(batch_size=4, frequent=1, auto_reset=False)
    m = _acc()
    sp(Param(0, 0, m, None))
    sp(Param(0, 1, m, None))
    sp2 = callback.Speedometer(batch_size=4, frequent=1)
    sp2(Param(3, 0, None, None))
    sp2(Param(3, 1, None, None))
    lines = [r.getMessage() for r in caplog.records]
    assert re.fullmatch(r"Epoch\[0\] Batch \[0-1\]\tSpeed: [0-9.]+ samples/sec\t"
                        r"accuracy=0\.750000", lines[0])
    assert re.fullmatch(r"Iter\[3\] Batch \[1\]\tSpeed: [0-9.]+ samples/sec", lines[1])


def test_log_callbacks(caplog):
    caplog.set_level(logging.INFO)
    m = _acc()
    callback.log_train_metric(2, auto_reset=True)(Param(2, 4, m, None))
    assert caplog.records[-1].getMessage() == "Iter[2] Batch[4] Train-accuracy=0.750000"
    assert m.num_inst == 0
    m = _acc()
    callback.LogValidationMetricsCallback()(Param(5, 0, m, None))
    assert caplog.records[-1].getMessage() == "Epoch[5] Validation-accuracy=0.750000"
    callback.ProgressBar(total=4, length=8)(Param(0, 1, None, None))
    assert caplog.records[-1].getMessage() == "[==------] 25%\r"


def test_checkpoint_callbacks(tmp_path):
    calls = []

    class FakeMod:
        def save_checkpoint(self, prefix, epoch, save_opt):
            calls.append((prefix, epoch, save_opt))

    cb = callback.module_checkpoint(FakeMod(), str(tmp_path / "m"), period=2,
                                    save_optimizer_states=True)
    for i in range(4):
        cb(i)
    assert calls == [(str(tmp_path / "m"), 2, True), (str(tmp_path / "m"), 4, True)]
    cb = callback.do_checkpoint(str(tmp_path / "n"), period=1)
    cb(0, None, {"w": mx.nd.ones((2,))}, {})
    loaded = mx.nd.load(str(tmp_path / "n-0001.params"))
    assert list(loaded) == ["arg:w"]
