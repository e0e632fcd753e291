"""Write golden files for ``mx.npx`` and Gluon in NumPy mode (run ONCE under the MXNet 1.9.1
oracle python, from a directory other than the repository root):

    cd /tmp && /root/.cache/mxnet-oracle/bin/python /work/main/tests/compat/make_golden_npx.py

Writes ``golden/npx/ops.npz`` (outputs, dtypes and gradients of ``npx`` operators on fixed
inputs) and ``golden/npx/d2l.npz`` (d2l.ai-style training runs under ``npx.set_np()``:
per-epoch losses and final parameters, data and initial weights from NumPy's seeded RNG).
The case functions take the ``mx`` module so that ``tests/numpy_extension/`` reruns the same
code with mxnet-ng and compares.
"""

import os
import random
import sys

import numpy as onp

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "npx")


def _inputs():
    rng = onp.random.RandomState(11)
    return {
        "x": rng.uniform(-2, 2, (2, 3, 4)).astype("float32"),
        "img": rng.uniform(-1, 1, (2, 2, 5, 5)).astype("float32"),
        "w_fc": rng.uniform(-1, 1, (3, 12)).astype("float32"),
        "w_conv": rng.uniform(-1, 1, (3, 2, 3, 3)).astype("float32"),
        "b3": rng.uniform(-1, 1, (3,)).astype("float32"),
        "idx": onp.array([[2, 0, 1], [3, 3, 0]], "float32"),
        "emb": rng.uniform(-1, 1, (5, 4)).astype("float32"),
        "bmat": rng.uniform(-1, 1, (2, 4, 3)).astype("float32"),
        "len": onp.array([1, 2, 2], "float32"),
    }


def npx_cases(mx):
    """name -> output (NumPy array) of ``npx`` calls on fixed inputs."""
    np, npx = mx.np, mx.npx
    a = {k: np.array(v, dtype=v.dtype) for k, v in _inputs().items()}
    x = a["x"]
    out = {
        "relu": npx.relu(x), "sigmoid": npx.sigmoid(x),
        "softmax": npx.softmax(x), "softmax_axis": npx.softmax(x, axis=1, temperature=2.0),
        "log_softmax": npx.log_softmax(x, axis=0),
        "masked_softmax": npx.softmax(x[:, 0, :], length=np.array([2, 4], dtype="int32"),
                                      use_length=True),
        "act_tanh": npx.activation(x, act_type="tanh"),
        "act_softrelu": npx.activation(x, act_type="softrelu"),
        "fc": npx.fully_connected(x, a["w_fc"], a["b3"], num_hidden=3),
        "fc_noflat": npx.fully_connected(x, a["w_fc"][:, :4], num_hidden=3, no_bias=True,
                                         flatten=False),
        "conv": npx.convolution(a["img"], a["w_conv"], a["b3"], kernel=(3, 3), num_filter=3,
                                pad=(1, 1)),
        "deconv": npx.deconvolution(a["img"], a["w_conv"].transpose(1, 0, 2, 3),
                                    kernel=(3, 3), num_filter=3, no_bias=True),
        "pool_max": npx.pooling(a["img"], kernel=(2, 2), stride=(2, 2), pool_type="max"),
        "pool_avg_global": npx.pooling(a["img"], pool_type="avg", global_pool=True,
                                       kernel=(1, 1)),
        "batch_norm": npx.batch_norm(a["img"], np.ones((2,)), np.zeros((2,)),
                                     np.array([0.1, -0.2]), np.array([1.5, 0.5]),
                                     use_global_stats=True, fix_gamma=False),
        "layer_norm": npx.layer_norm(x, np.ones((4,)), np.zeros((4,))),
        "leaky_relu": npx.leaky_relu(x, slope=0.2),
        "one_hot": npx.one_hot(np.array([1, 0, 3], dtype="int32"), 4),
        "pick": npx.pick(x[0], np.array([0, 3, 1], dtype="int32")),
        "pick_keep": npx.pick(x[0], np.array([0, 3, 1], dtype="int32"), axis=1,
                              keepdims=True),
        "topk_idx": npx.topk(x, k=2),
        "topk_val": npx.topk(x, k=2, ret_typ="value", axis=1),
        "batch_dot": npx.batch_dot(a["bmat"], a["bmat"], transpose_b=True),
        "batch_flatten": npx.batch_flatten(x),
        "arange_like": npx.arange_like(x, axis=2),
        "sequence_mask": npx.sequence_mask(x, a["len"], use_sequence_length=True, value=-1.0),
        "gather_nd": npx.gather_nd(x, np.array([[0, 1], [2, 0]], dtype="int32")),
        "erf": npx.erf(x), "gamma": npx.gamma(np.abs(x) + 0.5),
        "gammaln": npx.gammaln(np.abs(x) + 0.5), "erfinv": npx.erfinv(x / 3),
        "reshape_m2": npx.reshape(x, (-2, -1)), "reshape_m5": npx.reshape(x, (-5, -2)),
        "reshape_m6": npx.reshape(x, (-6, 1, 2, -4)),
        "reshape_like": npx.reshape_like(x, np.zeros((6, 4))),
        "shape_array": npx.shape_array(x), "smooth_l1": npx.smooth_l1(x, scalar=1.5),
        "embedding": npx.embedding(a["idx"], a["emb"], input_dim=5, output_dim=4),
        "cast": npx.cast(x, dtype="int32"), "nonzero": npx.nonzero(npx.relu(x[0])),
        "slice": npx.slice(x, begin=(0, 1), end=(2, 3)),
    }
    res = {k: v.asnumpy() for k, v in out.items()}
    # gradients through the npx operators
    for name, fn in (("relu", lambda t: npx.relu(t)),
                     ("softmax", lambda t: npx.softmax(t) * np.arange(4)),
                     ("sigmoid", lambda t: npx.sigmoid(t))):
        t = x.copy()
        t.attach_grad()
        with mx.autograd.record():
            y = fn(t)
        y.backward()
        res["grad_" + name] = t.grad.asnumpy()
    return res


# -- d2l-style programs -----------------------------------------------------------------------
def _fake_images(n, seed):
    rng = onp.random.RandomState(seed)
    proto = onp.random.RandomState(99).uniform(0, 1, (10, 1, 28, 28)).astype("float32")
    y = rng.randint(0, 10, n).astype("int32")
    X = 0.6 * rng.uniform(0, 1, (n, 1, 28, 28)).astype("float32") + 0.8 * proto[y]
    return X.astype("float32"), y


def _set_weights(mx, net, seed, scale):
    rng = onp.random.RandomState(seed)
    # structural names ("0.weight"...) do not depend on how many blocks were made before
    for _, p in sorted(net._collect_params_with_prefix().items()):
        p.set_data(mx.np.array(rng.normal(0, scale, p.shape).astype("float32")))


def _accuracy(y_hat, y):
    y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.astype(y.dtype) == y
    return float(cmp.astype(y.dtype).sum())


def linreg_scratch(mx):
    """d2l 3.2: linear regression from scratch with autograd and a hand-written SGD."""
    np, autograd = mx.np, mx.autograd
    rng = onp.random.RandomState(0)
    shuffler = random.Random(0)
    true_w = np.array([2, -3.4])
    X = np.array(rng.normal(0, 1, (200, 2)).astype("float32"))
    y = np.dot(X, true_w) + 4.2
    y += np.array(rng.normal(0, 0.01, y.shape).astype("float32"))
    y = y.reshape((-1, 1))
    w = np.array(rng.normal(0, 0.01, (2, 1)).astype("float32"))
    b = np.zeros(1)
    w.attach_grad()
    b.attach_grad()
    losses = []
    for _ in range(2):
        indices = list(range(200))
        shuffler.shuffle(indices)
        for i in range(0, 200, 10):
            batch = np.array(indices[i:i + 10])
            Xb, yb = X[batch], y[batch]
            with autograd.record():
                y_hat = np.dot(Xb, w) + b
                loss = (y_hat - yb.reshape(y_hat.shape)) ** 2 / 2
            loss.backward()
            for param in (w, b):
                param[:] = param - 0.03 * param.grad / 10
        full = (np.dot(X, w) + b - y) ** 2 / 2
        losses.append(float(full.mean()))
    return {"losses": onp.array(losses), "w": w.asnumpy(), "b": b.asnumpy()}


def _gluon_train(mx, net, hybridize, lr, seed_w, scale, epochs=2, n=128, batch=32):
    np, gluon, autograd = mx.np, mx.gluon, mx.autograd
    X, y = _fake_images(n, 1)
    onp.random.seed(0)  # the DataLoader's shuffling uses NumPy's global RNG
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(np.array(X), np.array(y, dtype="int32")),
                                   batch, shuffle=True)
    net.initialize(mx.init.Normal(0.01))
    net(np.zeros((1, 1, 28, 28)))
    _set_weights(mx, net, seed_w, scale)
    if hybridize:
        net.hybridize()
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": lr})
    losses, accs = [], []
    for _ in range(epochs):
        tot, acc, cnt = 0.0, 0.0, 0
        for Xb, yb in loader:
            with autograd.record():
                y_hat = net(Xb)
                lv = loss(y_hat, yb)
            lv.backward()
            trainer.step(batch)
            tot += float(lv.sum())
            acc += _accuracy(y_hat, yb)
            cnt += yb.size
        losses.append(tot / cnt)
        accs.append(acc / cnt)
    res = {"losses": onp.array(losses), "accs": onp.array(accs)}
    for name, p in sorted(net._collect_params_with_prefix().items()):
        v = p.data().asnumpy().astype("float64").ravel()
        # a small fingerprint of each trained parameter keeps the golden file small
        res["param_" + name] = onp.concatenate([v[:16], [v.sum(), onp.abs(v).sum()]])
    return res


def softmax_gluon(mx):
    nn = mx.gluon.nn
    net = nn.Sequential()
    net.add(nn.Dense(10))
    return _gluon_train(mx, net, False, 0.1, 3, 0.01)


def mlp_gluon(mx):
    nn = mx.gluon.nn
    net = nn.Sequential()
    net.add(nn.Dense(64, activation="relu"), nn.Dense(10))
    return _gluon_train(mx, net, False, 0.1, 4, 0.01)


def lenet_hybrid(mx):
    nn = mx.gluon.nn
    net = nn.HybridSequential()
    net.add(nn.Conv2D(channels=6, kernel_size=5, padding=2, activation="sigmoid"),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Conv2D(channels=16, kernel_size=5, activation="sigmoid"),
            nn.AvgPool2D(pool_size=2, strides=2),
            nn.Dense(120, activation="sigmoid"), nn.Dense(84, activation="sigmoid"),
            nn.Dense(10))
    return _gluon_train(mx, net, True, 0.9, 5, 0.2, epochs=2, n=64)


D2L = {"linreg_scratch": linreg_scratch, "softmax_gluon": softmax_gluon,
       "mlp_gluon": mlp_gluon, "lenet_hybrid": lenet_hybrid}


def d2l_runs(mx):
    out = {}
    for name, fn in D2L.items():
        for k, v in fn(mx).items():
            out[f"{name}/{k}"] = onp.asarray(v)
    return out


class _NpModel:
    """A hybridized block mixing Gluon layers with ``F.npx`` / ``F.np`` calls (built lazily so
    that ``mx`` can be either implementation)."""

    @staticmethod
    def build(mx):
        gluon, nn = mx.gluon, mx.gluon.nn

        class Block(gluon.HybridBlock):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                with self.name_scope():
                    self.fc = nn.Dense(4, in_units=3)
                    self.bn = nn.BatchNorm(in_channels=4)

            def hybrid_forward(self, F, x):
                h = F.npx.relu(self.bn(self.fc(x))) * 2 + 1
                return F.npx.softmax(h).sum(axis=1, keepdims=True) + F.np.ones((1, 4)) * h

        net = Block(prefix="npmodel_")
        net.initialize(mx.init.Xavier())
        rng = onp.random.RandomState(21)
        for _, p in sorted(net.collect_params().items()):
            p.set_data(mx.np.array(rng.uniform(0.1, 1.0, p.shape).astype("float32")))
        return net


NP_MODEL_X = onp.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], "float32")


def main():
    import mxnet as mx

    if "site-packages" not in mx.__file__:
        sys.exit("run this under the MXNet 1.9.1 oracle python, from outside the repository")
    mx.npx.set_np()
    os.makedirs(HERE, exist_ok=True)
    onp.savez(os.path.join(HERE, "ops.npz"), **npx_cases(mx))
    onp.savez(os.path.join(HERE, "d2l.npz"), **d2l_runs(mx))
    net = _NpModel.build(mx)
    net.hybridize()
    out = net(mx.np.array(NP_MODEL_X))
    net.export(os.path.join(HERE, "np_model"))
    onp.save(os.path.join(HERE, "np_model_out.npy"), out.asnumpy())


if __name__ == "__main__":
    main()
