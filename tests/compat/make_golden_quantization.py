"""Write golden files for ``mxnet.contrib.quantization`` (run ONCE under the MXNet 1.9.1 oracle
python, from a directory other than the repository root):

    cd /tmp && /root/.cache/mxnet-oracle/bin/python /work/main/tests/compat/make_golden_quantization.py

Writes ``golden/quantization/``:

- ``<case>-symbol.json`` and ``<case>-0000.params``: ``quantize_model`` results (quantized
  symbol, ``arg:``/``aux:`` params) for the graphs and options in ``CASES``;
- ``<case>-io.params``: the calibration input ``data`` and the quantized model's output
  ``out`` on the first batch (run through a Module), when MXNet 1.9.1 can run it;
- ``cases.json``: per case, the calibration layer names and whether the model ran;
- ``ops.params``: inputs and outputs of the ``_contrib_quantized_*`` operators (``OPS``).

The builders take the ``mx`` module so that ``tests/contrib/test_quantization_golden.py``
rebuilds the same graphs, parameters and data with mxnet-ng.
"""

import json
import os

import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "quantization")


# -- graphs ---------------------------------------------------------------------------------
def g_convnet(mx):
    S = mx.sym
    d = S.var("data")
    c = S.Convolution(d, num_filter=8, kernel=(3, 3), name="conv0")
    a = S.Activation(c, act_type="relu", name="relu0")
    p = S.Pooling(a, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool0")
    f = S.FullyConnected(p, num_hidden=10, name="fc0")
    return S.SoftmaxOutput(f, name="softmax")


def g_concat(mx):
    S = mx.sym
    d = S.var("data")
    c0 = S.Convolution(d, num_filter=4, kernel=(1, 1), name="conv0")
    c1 = S.Convolution(d, num_filter=4, kernel=(3, 3), pad=(1, 1), name="conv1")
    cat = S.Concat(c0, c1, dim=1, name="concat0")
    p = S.Pooling(cat, kernel=(2, 2), stride=(2, 2), pool_type="avg", name="pool0")
    f = S.FullyConnected(p, num_hidden=6, no_bias=True, name="fc0")
    r = S.Activation(f, act_type="relu", name="relu1")
    f2 = S.FullyConnected(r, num_hidden=3, name="fc1")
    return S.SoftmaxOutput(f2, name="softmax")


def g_resblock(mx):
    S = mx.sym
    d = S.var("data")
    c = S.Convolution(d, num_filter=4, kernel=(3, 3), pad=(1, 1), name="conv0")
    b = S.BatchNorm(c, name="bn0")
    r = S.Activation(b, act_type="relu", name="relu0")
    c1 = S.Convolution(r, num_filter=4, kernel=(3, 3), pad=(1, 1), no_bias=True, name="conv1")
    s = S.elemwise_add(c1, r, name="add0")
    fl = S.Flatten(S.Activation(s, act_type="relu", name="relu1"), name="flat0")
    f = S.FullyConnected(fl, num_hidden=5, name="fc0")
    return S.SoftmaxOutput(f, name="softmax")


def g_branches(mx):
    S = mx.sym
    d = S.var("data")
    c0 = S.Convolution(d, num_filter=4, kernel=(3, 3), pad=(1, 1), name="conv0")
    c1 = S.Convolution(d, num_filter=4, kernel=(1, 1), name="conv1")
    s = S.elemwise_add(c0, c1, name="add0")
    p = S.Pooling(s, kernel=(2, 2), stride=(2, 2), pool_type="avg", name="pool0")
    fl = S.Flatten(p, name="flat0")
    f = S.FullyConnected(fl, num_hidden=6, name="fc0")
    e = S.elemwise_mul(f, S.FullyConnected(fl, num_hidden=6, name="fc1"), name="mul0")
    return S.SoftmaxOutput(S.FullyConnected(e, num_hidden=3, name="fc2"), name="softmax")


GRAPHS = {"convnet": g_convnet, "concat": g_concat, "resblock": g_resblock,
          "branches": g_branches}  # fmt: skip

# (case name, graph, quantize_model keyword arguments, input sign)
CASES = [
    ("convnet_naive_auto", "convnet", {"calib_mode": "naive", "quantized_dtype": "auto"}, 1),
    ("convnet_entropy_auto", "convnet", {"calib_mode": "entropy", "quantized_dtype": "auto"}, 1),
    ("convnet_none_auto", "convnet", {"calib_mode": "none", "quantized_dtype": "auto"}, 1),
    ("convnet_naive_int8_neg", "convnet", {"calib_mode": "naive", "quantized_dtype": "int8"}, -1),
    (
        "convnet_full_excl",
        "convnet",
        {"calib_mode": "naive", "quantized_dtype": "auto", "quantize_mode": "full",
         "excluded_op_names": ["Pooling"]},
        1,
    ),  # fmt: skip
    ("concat_naive_auto", "concat", {"calib_mode": "naive", "quantized_dtype": "auto"}, 1),
    ("concat_entropy_full", "concat",
     {"calib_mode": "entropy", "quantized_dtype": "auto", "quantize_mode": "full"}, 1),
    ("resblock_none_int8", "resblock", {"calib_mode": "none", "quantized_dtype": "int8"}, 1),
    ("resblock_excl", "resblock",
     {"calib_mode": "naive", "quantized_dtype": "auto", "excluded_sym_names": ["conv1"]}, 1),
    # calibrated without oneDNN fusion (MXNET_SUBGRAPH_BACKEND=NONE): requantize and
    # quantized BatchNorm get their ranges
    ("convnet_nofuse_naive", "convnet", {"calib_mode": "naive", "quantized_dtype": "auto"}, 1),
    ("concat_nofuse_naive", "concat", {"calib_mode": "naive", "quantized_dtype": "auto"}, 1),
    ("branches_naive_auto", "branches", {"calib_mode": "naive", "quantized_dtype": "auto"}, 1),
    ("branches_nofuse_auto", "branches", {"calib_mode": "naive", "quantized_dtype": "auto"}, 1),
    ("branches_nofuse_full", "branches",
     {"calib_mode": "naive", "quantized_dtype": "auto", "quantize_mode": "full"}, 1),
    ("resblock_nofuse_uint8", "resblock",
     {"calib_mode": "naive", "quantized_dtype": "uint8", "quantize_mode": "full"}, 1),
]  # fmt: skip

SHAPE = (4, 3, 8, 8)


def params_for(mx, sym):
    """Deterministic FP32 parameters for ``sym``."""
    rs = np.random.RandomState(7)
    args, _, auxs = sym.infer_shape(data=SHAPE, softmax_label=(SHAPE[0],))
    arg = {
        n: mx.nd.array(rs.uniform(-0.5, 0.5, size=s).astype("float32"))
        for n, s in zip(sym.list_arguments(), args)
        if n not in ("data", "softmax_label")
    }
    aux = {
        n: mx.nd.array(rs.uniform(0.5, 1.0, size=s).astype("float32"))
        for n, s in zip(sym.list_auxiliary_states(), auxs)
    }
    return arg, aux


def calib_data(sign):
    rs = np.random.RandomState(3)
    x = rs.uniform(0, 1, size=(8,) + SHAPE[1:]).astype("float32")
    return x if sign > 0 else x * 2 - 1


def run_case(mx, name):
    """``(qsym, qarg, qaux, calib_layer)`` of one case, under whichever ``mx``."""
    from mxnet.contrib import quantization as q

    _, graph, kw, sign = next(c for c in CASES if c[0] == name)
    sym = GRAPHS[graph](mx)
    arg, aux = params_for(mx, sym)
    it = mx.io.NDArrayIter(calib_data(sign), np.zeros(8), batch_size=SHAPE[0])
    old = os.environ.get("MXNET_SUBGRAPH_BACKEND")
    if "nofuse" in name:
        os.environ["MXNET_SUBGRAPH_BACKEND"] = "NONE"
    try:
        qsym, qarg, qaux = q.quantize_model(sym, arg, aux, ctx=mx.cpu(), calib_data=it,
                                            num_calib_examples=8, **kw)  # fmt: skip
    finally:
        if old is None:
            os.environ.pop("MXNET_SUBGRAPH_BACKEND", None)
        else:
            os.environ["MXNET_SUBGRAPH_BACKEND"] = old
    _, calib = q._quantize_symbol(
        sym, mx.cpu(), excluded_symbols=kw.get("excluded_sym_names"),
        excluded_operators=kw.get("excluded_op_names"), offline_params=list(arg),
        quantized_dtype=kw["quantized_dtype"], quantize_mode=kw.get("quantize_mode", "smart"),
    )  # fmt: skip
    return qsym, qarg, qaux, calib


def forward(mx, qsym, qarg, qaux, x):
    mod = mx.mod.Module(qsym, label_names=["softmax_label"], context=mx.cpu())
    mod.bind([("data", x.shape)], [("softmax_label", (x.shape[0],))], for_training=False)
    mod.set_params(qarg, qaux)
    batch = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.zeros(x.shape[0])])
    mod.forward(batch, is_train=False)
    return mod.get_outputs()[0]


# -- operators ------------------------------------------------------------------------------
def op_inputs(mx):
    """``{case: (function name, [NDArray inputs], params)}`` for the operator goldens."""
    rs = np.random.RandomState(0)

    def ri(lo, hi, shape, dt):
        return mx.nd.array(rs.randint(lo, hi, size=shape).astype(dt), dtype=dt)

    def f(v):
        return mx.nd.array([v])

    xu, x8 = ri(0, 256, (2, 3, 6, 6), "uint8"), ri(-128, 128, (2, 3, 6, 6), "int8")
    w, b = ri(-127, 128, (4, 3, 3, 3), "int8"), ri(-127, 128, (4,), "int8")
    fw, fb = ri(-127, 128, (5, 108), "int8"), ri(-127, 128, (5,), "int8")
    yu, y8 = ri(0, 256, (2, 3, 6, 6), "uint8"), ri(-128, 128, (2, 3, 6, 6), "int8")
    r6 = [f(-1.5), f(2.0), f(-0.3), f(0.25), f(-0.7), f(0.5)]
    return {
        "conv": ("quantized_conv", [xu, w, b, *r6], {"kernel": (3, 3), "num_filter": 4}),
        "conv_nobias_stride": ("quantized_conv", [xu, w, *r6[:4]],
                               {"kernel": (3, 3), "num_filter": 4, "no_bias": True,
                                "stride": (2, 2), "pad": (1, 1)}),
        # shapes oneDNN runs with int16-saturating u8*s8 pairs (and one it runs exactly)
        "conv_sat_c8f4": ("quantized_conv", [ri(0, 256, (1, 8, 5, 5), "uint8"),
                                             ri(-127, 128, (4, 8, 3, 3), "int8"), *r6[:4]],
                          {"kernel": (3, 3), "num_filter": 4, "no_bias": True, "pad": (1, 1)}),
        "conv_sat_c4f48": ("quantized_conv", [ri(0, 256, (1, 4, 4, 4), "uint8"),
                                              ri(-127, 128, (48, 4, 3, 3), "int8"), *r6[:4]],
                           {"kernel": (3, 3), "num_filter": 48, "no_bias": True,
                            "pad": (1, 1)}),
        "conv_exact_c8f16": ("quantized_conv", [ri(0, 256, (1, 8, 4, 4), "uint8"),
                                                ri(-127, 128, (16, 8, 1, 1), "int8"),
                                                *r6[:4]],
                             {"kernel": (1, 1), "num_filter": 16, "no_bias": True}),
        "fc_int8": ("quantized_fully_connected", [x8, fw, fb, *r6], {"num_hidden": 5}),
        "fc_uint8": ("quantized_fully_connected", [xu, fw, fb, *r6], {"num_hidden": 5}),
        "fc_nobias": ("quantized_fully_connected", [x8, fw, *r6[:4]],
                      {"num_hidden": 5, "no_bias": True}),
        "pool_max": ("quantized_pooling", [x8, f(-1.5), f(2.0)],
                     {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1), "pool_type": "max"}),
        "pool_avg": ("quantized_pooling", [x8, f(-1.5), f(2.0)],
                     {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1), "pool_type": "avg"}),
        "pool_avg_u8": ("quantized_pooling", [xu, f(0.0), f(2.0)],
                        {"kernel": (2, 2), "stride": (2, 2), "pool_type": "avg"}),
        "act_int8": ("quantized_act", [x8, f(-1.5), f(2.0)], {"act_type": "relu"}),
        "act_uint8": ("quantized_act", [xu, f(0.0), f(2.0)], {"act_type": "relu"}),
        "flatten": ("quantized_flatten", [x8, f(-1.5), f(2.0)], {}),
        "add_int32": ("quantized_elemwise_add", [x8, y8, f(-1.5), f(2.0), f(-0.5), f(0.25)],
                      {}),
        "add_mixed": ("quantized_elemwise_add", [x8, yu, f(-1.5), f(2.0), f(0.0), f(3.0)],
                      {}),
        "add_calib": ("quantized_elemwise_add", [xu, yu, f(0.0), f(2.0), f(0.0), f(0.7)],
                      {"min_calib_range": -2.0, "max_calib_range": 3.0}),
        "add_calib_mixed": ("quantized_elemwise_add",
                            [yu, x8, f(0.0), f(0.7), f(-1.5), f(2.0)],
                            {"min_calib_range": -2.0, "max_calib_range": 3.0}),
        "concat": ("quantized_concat", [x8, yu, f(-1.5), f(2.0), f(0.0), f(3.0)],
                   {"num_args": 2, "dim": 1}),
        "bn_int8": ("quantized_batch_norm",
                    [x8, *[mx.nd.array(rs.uniform(lo, hi, 3).astype("float32"))
                           for lo, hi in ((0.5, 2), (-1, 1), (-1, 1), (0.5, 2))],
                     f(-1.5), f(2.0)],
                    {"min_calib_range": -3.0, "max_calib_range": 2.5, "fix_gamma": False}),
        "bn_uint8": ("quantized_batch_norm",
                     [xu, *[mx.nd.array(rs.uniform(lo, hi, 3).astype("float32"))
                            for lo, hi in ((0.5, 2), (-1, 1), (-1, 1), (0.5, 2))],
                      f(0.0), f(2.0)],
                     {"min_calib_range": 0.0, "max_calib_range": 1.7, "eps": 0.1}),
        "embedding": ("quantized_embedding",
                      [mx.nd.array([[0, 3], [2, 9]]), ri(-127, 128, (10, 4), "int8"), f(-0.4),
                       f(0.3)], {"input_dim": 10, "output_dim": 4}),
        "mul_int32": ("quantized_elemwise_mul", [x8, y8, f(-1.5), f(2.0), f(-0.3), f(0.25)], {}),
        "mul_calib": ("quantized_elemwise_mul", [x8, y8, f(-1.5), f(2.0), f(-0.3), f(0.25)],
                      {"min_calib_range": -0.01, "max_calib_range": 0.02}),
        "mul_float": ("quantized_elemwise_mul", [x8, y8, f(-1.5), f(2.0), f(-0.3), f(0.25)],
                      {"enable_float_output": True}),
    }  # fmt: skip


def run_op(mx, fn, ins, params):
    """The operator's outputs; quantized_elemwise_mul through a bound symbol (MXNet 1.9.1
    runs it only there)."""
    if fn != "quantized_elemwise_mul":
        return getattr(mx.nd.contrib, fn)(*ins, **params)
    args = {f"in{i}": x for i, x in enumerate(ins)}
    sym = getattr(mx.sym.contrib, fn)(*[mx.sym.var(k) for k in args], **params)
    return sym.bind(mx.cpu(), args=args, grad_req="null").forward()


def entropy_hist():
    """A 2001-bin histogram (and edges) of skewed data, for ``calibrate_entropy``."""
    rs = np.random.RandomState(5)
    x = np.concatenate([rs.normal(0.2, 0.5, 3000), rs.uniform(-3.0, 4.0, 40)])
    th = np.abs(x).max()
    return np.histogram(x, bins=2001, range=(-th, th))


def main():
    import mxnet as mx

    os.makedirs(HERE, exist_ok=True)
    meta = {}
    for name, _, _, sign in CASES:
        qsym, qarg, qaux, calib = run_case(mx, name)
        qsym.save(os.path.join(HERE, f"{name}-symbol.json"))
        save = {f"arg:{k}": v for k, v in qarg.items()}
        save.update({f"aux:{k}": v for k, v in qaux.items()})
        mx.nd.save(os.path.join(HERE, f"{name}-0000.params"), save)
        x = calib_data(sign)[: SHAPE[0]]
        ran = True
        try:
            out = forward(mx, qsym, qarg, qaux, x)
            out.wait_to_read()
            mx.nd.save(os.path.join(HERE, f"{name}-io.params"),
                       {"data": mx.nd.array(x), "out": out})  # fmt: skip
        except mx.base.MXNetError as e:
            ran = str(e).split("\n")[-2 if "\n" in str(e) else -1][:200]
        meta[name] = {"calib_layer": calib, "ran": ran}
    with open(os.path.join(HERE, "cases.json"), "w") as fh:
        json.dump(meta, fh, indent=1, sort_keys=True)
    ops = {}
    for case, (fn, ins, params) in op_inputs(mx).items():
        outs = run_op(mx, fn, ins, params)
        for i, x in enumerate(ins):
            ops[f"{case}:in{i}"] = x
        for i, o in enumerate(outs):
            ops[f"{case}:out{i}"] = o
    hist, edges = entropy_hist()
    for nq in (255, 511):
        th, div = mx.nd.contrib.calibrate_entropy(mx.nd.array(hist), mx.nd.array(edges),
                                                  num_quantized_bins=nq)  # fmt: skip
        ops[f"entropy{nq}:threshold"], ops[f"entropy{nq}:divergence"] = th, div
    mx.nd.save(os.path.join(HERE, "ops.params"), ops)
    print("wrote", HERE)


if __name__ == "__main__":
    main()
