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


def test_resume_from_checkpoint_continues_the_budget(tmp_path):
    from mxnet.gluon.contrib.estimator import CheckpointHandler

    data = gluon.data.DataLoader(gluon.data.ArrayDataset(mx.nd.ones((16, 5)),
                                                         mx.nd.zeros((16, 1))), batch_size=8)
    net = gluon.nn.Dense(3)
    acc = mx.metric.Accuracy()
    est = Estimator(net, loss=gluon.loss.SoftmaxCrossEntropyLoss(), train_metrics=acc)
    d = str(tmp_path)
    est.fit(data, event_handlers=[CheckpointHandler(d, "m", monitor=acc, max_checkpoints=1)],
            epochs=2)
    assert os.path.isfile(os.path.join(d, "m-epoch1batch4.params"))
    est.fit(data, event_handlers=[CheckpointHandler(d, "m", monitor=acc, max_checkpoints=1,
                                                    resume_from_checkpoint=True)], epochs=4)
    assert est.max_epoch == 2  # 4 asked, epochs 0 and 1 already trained
    assert os.path.isfile(os.path.join(d, "m-epoch3batch8.states"))
    with pytest.raises(ValueError, match="maximum number of epoch 2 reached"):
        est.fit(data, event_handlers=[CheckpointHandler(d, "m", resume_from_checkpoint=True)],
                epochs=2)


def test_context_and_foreign_metric_checks():
    net = gluon.nn.Dense(2)
    l2 = gluon.loss.L2Loss()
    with pytest.raises(AssertionError, match="gpu\\(100\\) is not available"):
        Estimator(net, loss=l2, context=[mx.cpu(), mx.gpu(100)])
    assert Estimator(net, loss=l2).context == [mx.cpu()]
    data = gluon.data.DataLoader(gluon.data.ArrayDataset(mx.nd.ones((4, 3)),
                                                         mx.nd.ones((4, 2))), batch_size=2)
    rmse = mx.metric.RMSE()
    est = Estimator(net, loss=l2, train_metrics=rmse)
    est.fit(data, epochs=1, event_handlers=[LoggingHandler(metrics=est.train_metrics)])
    with pytest.raises(ValueError, match="outside of the known training and validation"):
        est.fit(data, epochs=1, event_handlers=[LoggingHandler(metrics=[mx.metric.RMSE("x")])])
