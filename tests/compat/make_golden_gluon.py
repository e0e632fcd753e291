"""Generate Gluon golden files with real MXNet 1.9.1.

Run ONCE under the oracle interpreter::

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_gluon.py

Writes into ``tests/compat/golden/gluon/``:

- ``lenet.params`` (``save_parameters``), ``lenet-symbol.json`` + ``lenet-0000.params``
  (``export``) and ``lenet-io.params`` (input ``x``, output ``y``); same for ``small``
  (a net with BatchNorm, grouped and transposed convolutions, norms and PReLU);
- ``small-legacy.params``: the deprecated ``save_params`` file of ``small``;
- ``trainer.npz`` + ``trainer.states``: a Dense net trained one SGD-momentum step, the
  Trainer's ``save_states`` file, and the weights after a second step;
- ``losses.npz``: every loss on fixed inputs;
- ``reprs.json``: printed forms of blocks and ParameterDicts;
- ``summary.txt``: ``Block.summary`` output;
- ``zoo_params.json.gz``: parameter names and shapes of every model-zoo model;
  ``zoo_outputs.npz``: outputs of some of them with deterministic weights;
- ``rnn.npz`` + ``rnn.json``: recurrent layers and cells with deterministic weights;
- ``estimator_log.json``: the Estimator's log (numbers masked) and checkpoint files.

Pass case names (``models trainer losses reprs zoo rnn estimator``) to regenerate only those.
"""

from __future__ import annotations

import json
import os

import numpy as np

import mxnet as mx
from mxnet import autograd, gluon
from mxnet.gluon import nn

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "gluon")
rng = np.random.RandomState(7)


def lenet():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(6, 5, activation="relu"), nn.MaxPool2D(2, 2),
                nn.Conv2D(16, 5, activation="relu"), nn.MaxPool2D(2, 2), nn.Flatten(),
                nn.Dense(120, activation="relu"), nn.Dense(84, activation="relu"), nn.Dense(10))
    return net


def small():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(8, 3, padding=1, use_bias=False), nn.BatchNorm(),
                nn.Activation("relu"), nn.MaxPool2D(), nn.Conv2D(8, 3, strides=2, groups=2),
                nn.LeakyReLU(0.1), nn.Conv2DTranspose(4, 2, strides=2), nn.InstanceNorm(),
                nn.PReLU(), nn.AvgPool2D(2, ceil_mode=True), nn.Flatten(), nn.Dense(16),
                nn.LayerNorm(), nn.ELU(), nn.Dense(5))
    return net


def save_model(name, net, x):
    net.initialize(mx.init.Xavier())
    with autograd.record():  # one training pass so BatchNorm running stats move
        net(x)
    y = net(x)
    net.save_parameters(os.path.join(HERE, f"{name}.params"))
    if name == "small":
        net.save_params(os.path.join(HERE, f"{name}-legacy.params"))
    net.hybridize()
    y2 = net(x)
    assert np.allclose(y.asnumpy(), y2.asnumpy(), atol=1e-5)
    net.export(os.path.join(HERE, name))
    mx.nd.save(os.path.join(HERE, f"{name}-io.params"), {"x": x, "y": y})
    return net


def trainer_case():
    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Dense(4, activation="tanh", in_units=3), nn.Dense(2, in_units=4))
    net.initialize(mx.init.Xavier())
    x = mx.nd.array(rng.uniform(-1, 1, (5, 3)))
    y = mx.nd.array([0, 1, 1, 0, 1])
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd",
                            {"learning_rate": 0.1, "momentum": 0.9, "wd": 0.01})
    out = {}

    def step():
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(5)

    out.update({f"w0_{k}": v.data().asnumpy() for k, v in net._collect_params_with_prefix().items()})
    step()
    out.update({f"w1_{k}": v.data().asnumpy() for k, v in net._collect_params_with_prefix().items()})
    trainer.save_states(os.path.join(HERE, "trainer.states"))
    step()
    out.update({f"w2_{k}": v.data().asnumpy() for k, v in net._collect_params_with_prefix().items()})
    out["x"] = x.asnumpy()
    out["y"] = y.asnumpy()
    np.savez(os.path.join(HERE, "trainer.npz"), **out)


def losses_case():
    L = gluon.loss
    p = rng.uniform(-1, 1, (4, 5)).astype(np.float32)
    prob = rng.uniform(0.05, 0.95, (4, 5)).astype(np.float32)
    lab01 = (rng.uniform(0, 1, (4, 5)) > 0.5).astype(np.float32)
    sign = lab01 * 2 - 1
    cls = np.array([0, 3, 1, 4], np.float32)
    sw = rng.uniform(0, 1, (4, 1)).astype(np.float32)
    dense_lab = np.exp(rng.uniform(-1, 1, (4, 5))).astype(np.float32)
    dense_lab /= dense_lab.sum(1, keepdims=True)
    ctc_pred = rng.uniform(-1, 1, (2, 6, 4)).astype(np.float32)
    ctc_lab = np.array([[1, 2, -1], [0, 1, 1]], np.float32)
    nd = mx.nd.array
    res = {"p": p, "prob": prob, "lab01": lab01, "sign": sign, "cls": cls, "sw": sw,
           "dense_lab": dense_lab, "ctc_pred": ctc_pred, "ctc_lab": ctc_lab}
    res["L2"] = L.L2Loss()(nd(p), nd(prob)).asnumpy()
    res["L2_sw"] = L.L2Loss(weight=2.0)(nd(p), nd(prob), nd(sw)).asnumpy()
    res["L1"] = L.L1Loss()(nd(p), nd(prob)).asnumpy()
    res["SCE"] = L.SoftmaxCrossEntropyLoss()(nd(p), nd(cls)).asnumpy()
    res["SCE_dense"] = L.SoftmaxCELoss(sparse_label=False)(nd(p), nd(dense_lab)).asnumpy()
    res["SCE_logits"] = L.SoftmaxCELoss(from_logits=True)(nd(p), nd(cls), nd(sw)).asnumpy()
    res["BCE"] = L.SigmoidBCELoss()(nd(p), nd(lab01)).asnumpy()
    res["BCE_pos"] = L.SigmoidBCELoss()(nd(p), nd(lab01), None, nd(prob)).asnumpy()
    res["BCE_sig"] = L.SigmoidBCELoss(from_sigmoid=True)(nd(prob), nd(lab01)).asnumpy()
    res["KL"] = L.KLDivLoss()(nd(np.log(prob)), nd(dense_lab)).asnumpy()
    res["KL_nolog"] = L.KLDivLoss(from_logits=False)(nd(p), nd(dense_lab)).asnumpy()
    res["Huber"] = L.HuberLoss(rho=0.5)(nd(p), nd(prob)).asnumpy()
    res["Hinge"] = L.HingeLoss()(nd(p), nd(sign)).asnumpy()
    res["SqHinge"] = L.SquaredHingeLoss()(nd(p), nd(sign)).asnumpy()
    res["Logistic"] = L.LogisticLoss()(nd(p), nd(sign)).asnumpy()
    res["Logistic_bin"] = L.LogisticLoss(label_format="binary")(nd(p), nd(lab01)).asnumpy()
    res["Triplet"] = L.TripletLoss()(nd(p), nd(prob), nd(lab01)).asnumpy()
    res["Poisson"] = L.PoissonNLLLoss()(nd(p), nd(prob * 3)).asnumpy()
    res["Poisson_full"] = L.PoissonNLLLoss(from_logits=False, compute_full=True)(
        nd(prob), nd(prob * 3)).asnumpy()
    res["Cosine"] = L.CosineEmbeddingLoss()(nd(p), nd(prob), nd([1, -1, 1, -1])).asnumpy()
    res["CTC"] = L.CTCLoss()(nd(ctc_pred), nd(ctc_lab)).asnumpy()
    res["SDML"] = L.SDMLLoss()(nd(p), nd(prob)).asnumpy()
    np.savez(os.path.join(HERE, "losses.npz"), **res)


def reprs_case():
    out = {}
    net = small()
    out["small"] = repr(net)
    out["small_params"] = repr(net.collect_params())
    seq = nn.Sequential()
    with seq.name_scope():
        seq.add(nn.Dense(3), nn.Dropout(0.2), nn.Embedding(5, 2), nn.Conv1D(2, 3, dilation=2),
                nn.Conv3DTranspose(2, 3, in_channels=4), nn.GlobalMaxPool3D(),
                nn.AvgPool1D(count_include_pad=False), nn.SELU(), nn.Swish(), nn.GELU(),
                nn.GroupNorm(2), nn.Lambda("relu"), nn.HybridLambda(lambda F, x: x))
    out["seq"] = repr(seq)
    out["seq_params"] = repr(seq.collect_params())
    out["losses"] = [repr(gluon.loss.L2Loss()), repr(gluon.loss.SoftmaxCELoss(weight=0.5))]
    with open(os.path.join(HERE, "reprs.json"), "w") as f:
        json.dump(out, f, indent=1)


def summary_case():
    import contextlib
    import io

    net = nn.HybridSequential()
    with net.name_scope():
        net.add(nn.Conv2D(4, 3, activation="relu", in_channels=2), nn.BatchNorm(in_channels=4),
                nn.Dense(3, activation="tanh", in_units=36))
    net.initialize()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        net.summary(mx.nd.ones((1, 2, 5, 5)))
    with open(os.path.join(HERE, "summary.txt"), "w") as f:
        f.write(buf.getvalue())


ZOO = ["resnet18_v1", "resnet34_v1", "resnet50_v1", "resnet101_v1", "resnet152_v1",
       "resnet18_v2", "resnet34_v2", "resnet50_v2", "resnet101_v2", "resnet152_v2", "vgg11",
       "vgg13", "vgg16", "vgg19", "vgg11_bn", "vgg13_bn", "vgg16_bn", "vgg19_bn", "alexnet",
       "densenet121", "densenet161", "densenet169", "densenet201", "squeezenet1.0",
       "squeezenet1.1", "inceptionv3", "mobilenet1.0", "mobilenet0.75", "mobilenet0.5",
       "mobilenet0.25", "mobilenetv2_1.0", "mobilenetv2_0.75", "mobilenetv2_0.5",
       "mobilenetv2_0.25"]
# models run with deterministic weights (see zoo_weights) on one small image
ZOO_RUN = {"resnet18_v1": 64, "resnet50_v2": 64, "mobilenet0.25": 64, "mobilenetv2_0.25": 64,
           "squeezenet1.1": 224, "densenet121": 224, "vgg11_bn": 224, "alexnet": 224,
           "inceptionv3": 299}


def zoo_weights(net):
    """Deterministic, well-scaled weights (same rule in the tests)."""
    for i, p in enumerate(net.collect_params().values()):
        n = int(np.prod(p.shape))
        w = np.sin(np.arange(n, dtype=np.float64) * 0.37 + i).reshape(p.shape)
        if p.name.endswith("running_var"):
            w = np.abs(w) + 0.5
        elif p.name.endswith(("gamma", "running_mean", "beta", "bias")):
            w = w * 0.1 + (1.0 if p.name.endswith("gamma") else 0.0)
        else:
            w = w / np.sqrt(max(1, n // p.shape[0]))
        p.set_data(mx.nd.array(w.astype(np.float32)))


def zoo_case():
    import gzip

    from mxnet.gluon.model_zoo import vision

    names = {}
    outs = {}
    for name in ZOO:
        with mx.name.NameManager():
            net = vision.get_model(name)
        names[name] = {"prefix": net.prefix,
                       "params": [[k[len(net.prefix):], list(v.shape)]
                                  for k, v in net.collect_params().items()]}
        if name in ZOO_RUN:
            size = ZOO_RUN[name]
            x = mx.nd.array(np.cos(np.arange(3 * size * size) * 0.01).reshape(1, 3, size, size))
            net.initialize()
            net(x)  # deferred shapes
            zoo_weights(net)
            outs[name] = net(x).asnumpy()
    with gzip.open(os.path.join(HERE, "zoo_params.json.gz"), "wt") as f:
        json.dump(names, f, separators=(",", ":"))
    np.savez(os.path.join(HERE, "zoo_outputs.npz"), **outs)


def rnn_models():
    """(name, block factory, input shape, layout) of the recurrent golden cases."""
    from mxnet.gluon import rnn

    return [
        ("lstm", lambda: rnn.LSTM(5, 2, bidirectional=True, prefix="lstm_"), (3, 2, 4)),
        ("gru_ntc", lambda: rnn.GRU(4, layout="NTC", prefix="gru_"), (2, 3, 4)),
        ("rnn_tanh", lambda: rnn.RNN(3, 2, activation="tanh", prefix="rnn_"), (3, 2, 4)),
        ("lstmcell", lambda: rnn.LSTMCell(5, prefix="lc_"), (2, 3, 4)),
        ("grucell", lambda: rnn.GRUCell(5, prefix="gc_"), (2, 3, 4)),
        ("rnncell", lambda: rnn.RNNCell(5, activation="relu", prefix="rc_"), (2, 3, 4)),
    ]


def rnn_case():
    from mxnet.gluon import rnn

    out = {}
    names = {}
    for name, make, shape in rnn_models():
        blk = make()
        blk.initialize()
        x = mx.nd.array(np.sin(np.arange(int(np.prod(shape))) * 0.3).reshape(shape))
        if isinstance(blk, rnn.RecurrentCell):
            blk.unroll(shape[1], x, merge_outputs=True)
            zoo_weights(blk)
            y, st = blk.unroll(shape[1], x, merge_outputs=True)
        else:
            blk(x)
            zoo_weights(blk)
            y, st = blk(x, blk.begin_state(shape[0] if name == "gru_ntc" else shape[1]))
        out[name] = y.asnumpy()
        for i, s_ in enumerate(st):
            out[f"{name}_state{i}"] = s_.asnumpy()
        names[name] = [list(blk.collect_params().keys()), repr(blk)]
    np.savez(os.path.join(HERE, "rnn.npz"), **out)
    with open(os.path.join(HERE, "rnn.json"), "w") as f:
        json.dump(names, f, indent=1)


def estimator_run(mx, gluon, model_dir):
    """Train a Dense net with the Estimator; returns the log with numbers masked."""
    import io
    import logging
    import re
    import warnings

    from mxnet.gluon.contrib.estimator import CheckpointHandler, Estimator, LoggingHandler

    warnings.simplefilter("ignore")
    r = np.random.RandomState(0)
    X = r.uniform(-1, 1, (40, 5)).astype(np.float32)
    Y = (X.sum(1) > 0).astype(np.float32)
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(mx.nd.array(X), mx.nd.array(Y)),
                                   batch_size=10)
    net = gluon.nn.Dense(2)
    net.initialize()
    tr = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.5})
    est = Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), trainer=tr)
    buf = io.StringIO()
    est.logger.handlers = [logging.StreamHandler(buf)]
    est.fit(loader, val_data=loader, epochs=2,
            event_handlers=[CheckpointHandler(model_dir, max_checkpoints=1),
                            LoggingHandler(log_interval=2, metrics=est.train_metrics)])
    est.evaluate(loader)
    est.fit(loader, batches=3)
    files = sorted(os.listdir(model_dir))
    return re.sub(r"\d+(\.\d+)?", "N", buf.getvalue()), files


def estimator_case():
    import tempfile

    log, files = estimator_run(mx, gluon, tempfile.mkdtemp())
    with open(os.path.join(HERE, "estimator_log.json"), "w") as f:
        json.dump({"log": log, "files": files}, f, indent=1)


def main(cases=None):
    os.makedirs(HERE, exist_ok=True)
    mx.random.seed(3)
    np.random.seed(3)
    if not cases or "models" in cases:
        save_model("lenet", lenet(), mx.nd.array(rng.uniform(-1, 1, (2, 1, 28, 28))))
        save_model("small", small(), mx.nd.array(rng.uniform(-1, 1, (2, 3, 12, 12))))
    if not cases or "trainer" in cases:
        trainer_case()
    if not cases or "losses" in cases:
        losses_case()
    if not cases or "reprs" in cases:
        reprs_case()
        summary_case()
    if not cases or "zoo" in cases:
        zoo_case()
    if not cases or "rnn" in cases:
        rnn_case()
    if not cases or "estimator" in cases:
        estimator_case()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
