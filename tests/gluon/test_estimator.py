"""gluon.contrib.estimator: the training loop prints what MXNet 1.9.1 prints (numbers
masked) and its handlers checkpoint, validate and stop as MXNet's do."""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon
from mxnet.gluon.contrib.estimator import (
    EarlyStoppingHandler,
    Estimator,
    LoggingHandler,
    StoppingHandler,
)
from tests.compat.make_golden_gluon import estimator_run

GOLD = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "gluon")


def test_log_and_checkpoints_match_mxnet(tmp_path):
    with open(os.path.join(GOLD, "estimator_log.json")) as f:
        want = json.load(f)
    log, files = estimator_run(mx, gluon, str(tmp_path))
    assert log == want["log"]
    assert files == want["files"]


def _loader():
    r = np.random.RandomState(1)
    X = r.uniform(-1, 1, (30, 4)).astype(np.float32)
    Y = (X[:, 0] > 0).astype(np.float32)
    return gluon.data.DataLoader(gluon.data.ArrayDataset(mx.nd.array(X), mx.nd.array(Y)),
                                 batch_size=10)


def test_training_improves_and_early_stopping():
    net = gluon.nn.Dense(2)
    net.initialize()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 1.0})
    est = Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), trainer=tr)
    est.logger.disabled = True
    loader = _loader()
    est.fit(loader, epochs=5)
    assert est.train_metrics[0].get()[1] > 0.8  # training accuracy
    stopper = EarlyStoppingHandler(monitor=est.train_metrics[1], patience=0, min_delta=10.0)
    est.fit(loader, epochs=50, event_handlers=[stopper])
    assert stopper.stop_training and stopper.current_epoch < 50


def test_bad_arguments():
    net = gluon.nn.Dense(2)
    with pytest.warns(UserWarning, match="No trainer specified"):
        est = Estimator(net, gluon.loss.L2Loss())
    with pytest.raises(ValueError, match="only support input as Gluon DataLoader"):
        est.fit([1, 2], epochs=1)
    with pytest.raises(ValueError, match="exactly one type of iteration"):
        est.fit(_loader(), epochs=1, batches=2)
    with pytest.raises(ValueError, match="loss must be a Loss"):
        Estimator(net, "l2")
    with pytest.raises(ValueError, match="log_interval must be"):
        LoggingHandler(log_interval="batch")
    assert isinstance(StoppingHandler(1), StoppingHandler)
