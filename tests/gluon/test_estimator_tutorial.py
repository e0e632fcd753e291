"""Estimator behaviour seen in the fit-API tutorial (checked against MXNet 1.9.1)."""

import io
import logging
import os
import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon
from mxnet.gluon.contrib.estimator import CheckpointHandler, EarlyStoppingHandler, Estimator


def _est(net):
    r = np.random.RandomState(0)
    x = mx.nd.array(r.uniform(-1, 1, (12, 4)))
    y = mx.nd.array((r.uniform(size=12) > 0.5).astype("float32"))
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=6)
    net.initialize()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    est = Estimator(
        net, gluon.loss.SoftmaxCrossEntropyLoss(), train_metrics=mx.metric.Accuracy(), trainer=tr
    )
    buf = io.StringIO()
    est.logger.handlers = [logging.StreamHandler(buf)]
    return est, loader, buf


def test_epoch_log_lists_training_metrics_only():
    est, loader, buf = _est(gluon.nn.Dense(2))
    est.fit(loader, val_data=loader, epochs=1)
    lines = buf.getvalue().splitlines()
    epoch_lines = [ln for ln in lines if ln.startswith("[Epoch 0] Finished")]
    assert len(epoch_lines) == 2  # the validation pass, then the training epoch
    assert "validation accuracy" in epoch_lines[0]
    assert "validation" not in epoch_lines[1] and "training accuracy" in epoch_lines[1]
    assert "validation" not in lines[-1]


def test_auto_mode_uses_greater_and_warns():
    acc, loss = mx.metric.Accuracy(), mx.metric.Loss()
    for metric in (acc, loss):  # MXNet picks `greater` even for a loss in auto mode
        with pytest.warns(UserWarning, match="`greater` operator will be used"):
            stopper = EarlyStoppingHandler(monitor=metric)
        assert stopper.monitor_op is np.greater
    with pytest.warns(RuntimeWarning, match="EarlyStopping mode odd is unknown"):
        EarlyStoppingHandler(monitor=acc, mode="odd")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert EarlyStoppingHandler(monitor=loss, mode="min").monitor_op is np.less


def test_symbol_file_only_for_traced_blocks(tmp_path):
    seq = gluon.nn.HybridSequential()
    seq.add(gluon.nn.Dense(3), gluon.nn.Dense(2))
    est, loader, buf = _est(seq)
    est.fit(loader, epochs=1, event_handlers=[CheckpointHandler(str(tmp_path / "a"))])
    assert "model-symbol.json" not in os.listdir(tmp_path / "a")
    assert "Model architecture(symbol file) is not saved" in buf.getvalue()
    est, loader, buf = _est(gluon.nn.Dense(2))  # a leaf with deferred params is traced
    est.fit(loader, epochs=1, event_handlers=[CheckpointHandler(str(tmp_path / "b"))])
    assert "model-symbol.json" in os.listdir(tmp_path / "b")
