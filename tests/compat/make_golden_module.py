"""Write golden files for the Module API with real MXNet 1.9.1 (run once under the oracle).

    cd /tmp && ~/.cache/mxnet-oracle/bin/python /work/main/tests/compat/make_golden_module.py

Writes tests/compat/golden/module/: inputs, initial and final parameters of Module.fit
(one and two contexts), predictions, scores, and a checkpoint with optimizer states.
"""

import logging
import os

import numpy as np

import mxnet as mx

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "module")


def net():
    data = mx.sym.var("data")
    h = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    h = mx.sym.BatchNorm(h, name="bn1", fix_gamma=False)
    h = mx.sym.Activation(h, act_type="relu", name="relu1")
    h = mx.sym.FullyConnected(h, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(h, name="softmax")


def data():
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (40, 6)).astype("float32")
    y = (x[:, :3].sum(1) > 0).astype("float32") + (x[:, 3] > 0.5)
    return x, y.astype("float32")


def init_params():
    rng = np.random.RandomState(1)
    shapes = {"fc1_weight": (16, 6), "fc1_bias": (16,), "bn1_gamma": (16,), "bn1_beta": (16,),
              "fc2_weight": (3, 16), "fc2_bias": (3,)}
    args = {k: mx.nd.array(rng.uniform(-0.5, 0.5, s)) for k, s in shapes.items()}
    aux = {"bn1_moving_mean": mx.nd.zeros((16,)), "bn1_moving_var": mx.nd.ones((16,))}
    return args, aux


def run(ctxs, tag, save):
    x, y = data()
    it = mx.io.NDArrayIter(x, y, batch_size=8, shuffle=False)
    mod = mx.mod.Module(net(), context=ctxs)
    args, aux = init_params()
    mod.fit(it, num_epoch=2, optimizer="sgd",
            optimizer_params={"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4},
            arg_params=args, aux_params=aux, eval_metric="acc")
    a, b = mod.get_params()
    res = {f"arg:{k}": v.asnumpy() for k, v in a.items()}
    res.update({f"aux:{k}": v.asnumpy() for k, v in b.items()})
    res["pred"] = mod.predict(mx.io.NDArrayIter(x, batch_size=8)).asnumpy()
    res["score"] = np.array(mod.score(mx.io.NDArrayIter(x, y, batch_size=8), "acc")[0][1])
    np.savez(os.path.join(OUT, f"fit_{tag}.npz"), **res)
    if save:
        mod.save_checkpoint(os.path.join(OUT, "ckpt"), 2, save_optimizer_states=True)
        # one more epoch from the checkpoint, for the resume test
        mod2 = mx.mod.Module.load(os.path.join(OUT, "ckpt"), 2, load_optimizer_states=True)
        it.reset()
        mod2.fit(it, num_epoch=1, optimizer="sgd",
                 optimizer_params={"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-4})
        a, b = mod2.get_params()
        np.savez(os.path.join(OUT, "resumed.npz"),
                 **{f"arg:{k}": v.asnumpy() for k, v in a.items()},
                 **{f"aux:{k}": v.asnumpy() for k, v in b.items()})


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    os.makedirs(OUT, exist_ok=True)
    x, y = data()
    np.savez(os.path.join(OUT, "data.npz"), x=x, y=y)
    run([mx.cpu(0)], "1ctx", save=True)
    run([mx.cpu(0), mx.cpu(1)], "2ctx", save=False)
    print("wrote", sorted(os.listdir(OUT)))
