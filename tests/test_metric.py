"""Metrics equal MXNet 1.9.1's values on the same inputs (golden metric.json)."""

import json
import math
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import metric

GOLD = os.path.join(os.path.dirname(__file__), "compat", "golden", "optimizer")
with open(os.path.join(GOLD, "metric.json")) as _f:
    CASES = json.load(_f)


def metric_batches(kind, n):
    rng = np.random.RandomState(500 + n)
    out = []
    for _ in range(3):
        if kind in ("cls", "cls_int", "bin"):
            c = 2 if kind == "bin" else 5
            p = rng.uniform(0.01, 1, (8, c)).astype("float32")
            p /= p.sum(axis=1, keepdims=True)
            lab = rng.randint(0, c, (8,)).astype("float32")
            if kind == "cls_int":
                p = p.argmax(axis=1).astype("float32")
                p[:3] = lab[:3]
            out.append(([lab], [p]))
        else:
            lab = rng.uniform(-1, 1, (6,)).astype("float32")
            p = (lab + rng.uniform(-0.5, 0.5, (6,))).astype("float32")
            out.append(([lab, lab[::-1].copy()], [p, p[::-1].copy()]))
    return out


def _same(a, b):
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(b, float):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-6, abs=1e-9)
    else:
        assert a == b


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['name']}-{c['n']}")
def test_values_match_mxnet(case):
    m = metric.create(case["name"], **case["kwargs"])
    for step, (labels, preds) in zip(case["steps"],
                                     metric_batches(case["kind"], case["n"])):
        m.update([mx.nd.array(x) for x in labels], [mx.nd.array(x) for x in preds])
        _same(m.get(), step["get"])
        _same(m.get_global(), step["global"])
        _same(m.get_name_value(), step["nv"])
        if step is case["steps"][1]:
            m.reset_local()
    if case["name"] in ("perplexity", "loss"):  # float32 sums: last digits may differ
        assert str(m).split(":")[1].split("'")[1] == case["str"].split(":")[1].split("'")[1]
    else:
        assert str(m) == case["str"]


def test_create_names_and_config():
    assert isinstance(metric.create("acc"), metric.Accuracy)
    assert isinstance(metric.create("top_k_accuracy", top_k=2), metric.TopKAccuracy)
    assert isinstance(metric.create("ce"), metric.CrossEntropy)
    assert isinstance(metric.create("nll_loss"), metric.NegativeLogLikelihood)
    assert isinstance(metric.create("pearsonr"), metric.PearsonCorrelation)
    assert isinstance(metric.create("composite"), metric.CompositeEvalMetric)
    cfg = metric.create("acc", axis=1).get_config()
    assert cfg == {"axis": 1, "metric": "Accuracy", "name": "accuracy", "output_names": None,
                   "label_names": None}
    again = metric.create(cfg)
    assert isinstance(again, metric.Accuracy)
    with pytest.raises(AssertionError, match="not registered"):
        metric.create("nosuchmetric")
    with pytest.raises(AssertionError, match="top_k is no more than 1"):
        metric.TopKAccuracy(top_k=1)


def test_custom_np_and_loss():
    def err(label, pred):
        return float(np.abs(label - pred).sum()), label.size

    m = metric.np(err)
    assert m.name == "err"
    m.update([mx.nd.array([1, 2])], [mx.nd.array([1.5, 2.5])])
    assert m.get() == ("err", 0.5)
    c = metric.create(lambda lab, p: 1.0)
    assert c.name == "custom(<lambda>)"
    with pytest.raises(NotImplementedError):
        c.get_config()
    loss = metric.Loss()
    loss.update(None, mx.nd.array([1.0, 2.0, 3.0]))
    assert loss.get() == ("loss", 2.0)


def test_update_dict_and_shape_errors():
    m = metric.Accuracy(output_names=["out"], label_names=["lab"])
    m.update_dict({"lab": mx.nd.array([1, 0]), "x": mx.nd.array([0])},
                  {"out": mx.nd.array([[0, 1], [1, 0]])})
    assert m.get() == ("accuracy", 1.0)
    with pytest.raises(ValueError, match="does not match shape of predictions"):
        metric.Accuracy().update([mx.nd.array([1])], [])
    assert math.isnan(metric.MSE().get()[1])
    comp = metric.CompositeEvalMetric(["acc", "mse"])
    assert isinstance(comp.get_metric(5), ValueError)


def test_float32_scores_accumulate_in_float64():
    # MXNet 1.9.1 (NumPy 1.x) adds each float32 batch score to a float64 sum
    m = mx.metric.MSE()
    for k in range(3):
        m.update([mx.nd.array([1., 2.])], [mx.nd.array([1.1 + k, 2.3])])
    assert isinstance(m.sum_metric, np.float64)
    want = sum(np.float64(((np.float32([1., 2.]) - np.float32([1.1 + k, 2.3])) ** 2).mean())
               for k in range(3))
    assert m.get()[1] == want / 3
