"""Write golden files for ``mxnet.contrib.amp`` (run ONCE under the MXNet 1.9.1 oracle python,
from a directory other than the repository root):

    cd /tmp && /root/.cache/mxnet-oracle/bin/python /work/main/tests/compat/make_golden_amp.py

Writes ``golden/amp/``: ``lists.json`` (AMP's op lists), ``convert.json`` (JSON of
``amp.convert_symbol``/``convert_model`` results with their inferred argument dtypes) and
``init_<dtype>.json`` (symbols built after ``amp.init(dtype)``, plus NDArray output dtypes).
The case builders below take the ``mx`` module so that ``tests/contrib/test_amp_golden.py``
rebuilds the same graphs with mxnet-ng.
"""

import json
import os
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "amp")


# -- graphs ---------------------------------------------------------------------------------
def g_fc_sin(mx):
    x, y = mx.sym.var("x"), mx.sym.var("y")
    return mx.sym.FullyConnected(x, y, num_hidden=10, no_bias=True) + mx.sym.sin(y)


def g_convnet(mx):
    data = mx.sym.var("data")
    net = mx.sym.Convolution(data, num_filter=4, kernel=(3, 3), name="conv")
    net = mx.sym.BatchNorm(net, name="bn")
    net = mx.sym.Activation(net, act_type="relu", name="relu")
    net = mx.sym.Flatten(net, name="flat")
    net = mx.sym.FullyConnected(net, num_hidden=5, name="fc")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def g_conditional(mx):
    x = mx.sym.var("x")
    a = mx.sym.Activation(x, act_type="softrelu", name="act1")
    b = mx.sym.LeakyReLU(a, act_type="elu", name="lrelu")
    c = mx.sym.Activation(b, act_type="relu", name="act2")
    return mx.sym.FullyConnected(c, num_hidden=3, name="fc")


def g_widest(mx):
    x, y, z = mx.sym.var("x"), mx.sym.var("y"), mx.sym.var("z")
    fc = mx.sym.FullyConnected(x, num_hidden=4, name="fc")
    s = mx.sym.elemwise_add(y, z, name="add_vars")
    t = mx.sym.broadcast_mul(fc, mx.sym.exp(s, name="e"), name="mul")
    return mx.sym.concat(t, fc, dim=1, name="cat")


def g_split(mx):
    x = mx.sym.var("x")
    fc = mx.sym.FullyConnected(x, num_hidden=4, name="fc")
    parts = mx.sym.split(fc, num_outputs=2, axis=1, name="sp")
    return mx.sym.Group([parts[0], mx.sym.relu(parts[1], name="r")])


def g_casts(mx):
    data = mx.sym.var("data")
    return mx.sym.Group(
        [mx.sym.amp_cast(data, dtype="float16"), mx.sym.amp_cast(data, dtype="float32")]
    )


def g_multicast(mx):
    data = mx.sym.var("data", dtype="float32")
    data2 = mx.sym.var("data2", dtype="float16")
    data3 = mx.sym.var("data3")
    return mx.sym.amp_multicast(data, data2, data3, num_outputs=3)


def g_multicast2(mx):
    data = mx.sym.var("data", dtype="float32")
    data2 = mx.sym.var("data2", dtype="float16")
    data3 = mx.sym.var("data3", dtype="float16")
    return mx.sym.amp_multicast(data, mx.sym.elemwise_add(data2, data3), num_outputs=2)


GRAPHS = {
    "fc_sin": g_fc_sin,
    "convnet": g_convnet,
    "conditional": g_conditional,
    "widest": g_widest,
    "split": g_split,
    "casts": g_casts,
    "multicast": g_multicast,
    "multicast2": g_multicast2,
}

# (case name, graph, convert_symbol keyword arguments)
CONVERT = [
    ("fc_sin_lists", "fc_sin", dict(target_dtype_ops=["FullyConnected"], fp32_ops=["sin"])),
    (
        "fc_sin_cond_false",
        "fc_sin",
        dict(
            target_dtype_ops=[],
            fp32_ops=["sin"],
            conditional_fp32_ops=[("FullyConnected", "no_bias", ["False"])],
        ),
    ),
    (
        "fc_sin_cond_true",
        "fc_sin",
        dict(
            target_dtype_ops=[],
            fp32_ops=["sin"],
            conditional_fp32_ops=[("FullyConnected", "no_bias", ["True"])],
        ),
    ),
    ("convnet_fp16", "convnet", {}),
    ("convnet_bf16", "convnet", dict(target_dtype="bfloat16")),
    ("convnet_optional", "convnet", dict(data_names=["data"], cast_optional_params=True)),
    (
        "convnet_conv_only",
        "convnet",
        dict(target_dtype_ops=["Convolution"], data_names=["data"], cast_optional_params=True),
    ),
    ("convnet_excluded", "convnet", dict(excluded_sym_names=["conv"])),
    ("conditional_fp16", "conditional", {}),
    ("conditional_bf16", "conditional", dict(target_dtype="bfloat16")),
    ("widest_fp16", "widest", {}),
    ("split_fp16", "split", {}),
    ("casts_optional", "casts", dict(data_names=[], cast_optional_params=True)),
    (
        "multicast_optional",
        "multicast",
        dict(target_dtype_ops=[], fp32_ops=[], cast_optional_params=True),
    ),
    (
        "multicast2_optional",
        "multicast2",
        dict(target_dtype_ops=[], fp32_ops=[], cast_optional_params=True),
    ),
]

# graphs built after amp.init(<dtype>)
INIT_GRAPHS = ["fc_sin", "convnet", "conditional", "widest", "split"]


def arg_types(sym):
    attrs = sym.attr_dict()
    known = {
        n: "float32"
        for n in ("data", "x", "y")
        if n in sym.list_arguments() and "__dtype__" not in attrs.get(n, {})
    }
    args, _, aux = sym.infer_type_partial(**known)
    return [_type_name(t) for t in args], [_type_name(t) for t in aux]


def _type_name(t):
    import numpy as np

    if t is None:
        return None
    return "bfloat16" if getattr(np.dtype(t), "names", None) else np.dtype(t).name


def build(mx, graph):
    with mx.name.NameManager():
        return GRAPHS[graph](mx)


def convert_case(mx, amp, graph, kwargs):
    sym = build(mx, graph)
    with mx.name.NameManager():
        out = amp.convert_symbol(sym, **kwargs)
    args, aux = arg_types(out)
    return {
        "json": out.tojson(remove_amp_cast=False),
        "args": args,
        "aux": aux,
        "arg_names": out.list_arguments(),
    }


def nd_dtypes(mx, dtype):
    """Output dtypes of a few NDArray calls after amp.init(dtype) (CPU rules)."""
    import numpy as np

    a = mx.nd.ones((2, 3))
    low = np.dtype([("bfloat16", np.uint16)]) if dtype == "bfloat16" else dtype
    h = mx.nd.amp_cast(a, dtype=low)
    w = mx.nd.ones((4, 3))
    res = {
        "fc": mx.nd.FullyConnected(a, w, num_hidden=4, no_bias=True).dtype,
        "add_mixed": mx.nd.elemwise_add(a, h).dtype,
        "bcast_mixed": mx.nd.broadcast_add(a, h).dtype,
        "exp_half": mx.nd.exp(h).dtype,
        "softmax_half": mx.nd.softmax(h).dtype,
        "act_softrelu_half": mx.nd.Activation(h, act_type="softrelu").dtype,
        "act_relu_half": mx.nd.Activation(h, act_type="relu").dtype,
    }
    out = {}
    for k, v in res.items():
        out[k] = "bfloat16" if getattr(np.dtype(v), "names", None) else np.dtype(v).name
    return out


def gluon_graph(mx):
    """JSON of a hybridized Gluon net's cached graph (built under amp.init)."""
    from mxnet import gluon

    net = gluon.nn.HybridSequential(prefix="net_")
    with net.name_scope():
        net.add(gluon.nn.Conv2D(4, 3, padding=1), gluon.nn.BatchNorm())
        net.add(gluon.nn.Activation("softrelu"), gluon.nn.LeakyReLU(0.1), gluon.nn.Dense(3))
    net.initialize()
    net.hybridize()
    net(mx.nd.ones((2, 3, 4, 4)))
    return net._cached_graph[1].tojson(remove_amp_cast=False)


def init_main(dtype):
    import mxnet as mx
    from mxnet.contrib import amp

    amp.init(dtype)
    out = {"nd": nd_dtypes(mx, dtype), "sym": {}}
    for g in INIT_GRAPHS:
        sym = build(mx, g)
        out["sym"][g] = sym.tojson(remove_amp_cast=False)
    out["gluon"] = gluon_graph(mx)
    with open(os.path.join(HERE, f"init_{dtype}.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)


def main():
    import mxnet as mx
    from mxnet.contrib import amp

    os.makedirs(HERE, exist_ok=True)
    from mxnet.contrib.amp import lists

    data = {}
    for mod in ("symbol_fp16", "symbol_bf16"):
        m = getattr(lists, mod)
        data[mod] = {k: getattr(m, k) for k in dir(m) if k.isupper()}
    with open(os.path.join(HERE, "lists.json"), "w") as f:
        json.dump(data, f, indent=0, sort_keys=True)
    conv = {name: convert_case(mx, amp, graph, kw) for name, graph, kw in CONVERT}
    with open(os.path.join(HERE, "convert.json"), "w") as f:
        json.dump(conv, f, indent=1, sort_keys=True)
    for dtype in ("float16", "bfloat16"):  # amp.init patches globally: one process each
        subprocess.check_call([sys.executable, os.path.abspath(__file__), "--init", dtype])


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--init":
        init_main(sys.argv[2])
    else:
        main()
