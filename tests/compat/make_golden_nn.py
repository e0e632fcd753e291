"""Generate golden outputs and gradients of the neural-network operators with real MXNet 1.9.1.

Run ONCE under the oracle interpreter (numpy<1.24, mxnet==1.9.1)::

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_nn.py

Writes ``tests/compat/golden/nn/cases.json`` (op, params, flags per case) and
``tests/compat/golden/nn/arrays.npz`` (inputs, head gradients, outputs, gradients, aux states
after the step). The cases live in :data:`CASES` so the tests can read them from the JSON.
"""

from __future__ import annotations

import json
import os

import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "nn")
rng = np.random.RandomState(42)


def U(*shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def V(values):
    return np.asarray(values, dtype=np.float32)


# name: (op, inputs, params, grad input indices, train, aux indices)
CASES: dict = {}


def case(name, op, inputs, params=None, grad=(), train=False, aux=(), keep=None):
    """``keep``: how many outputs to record (MXNet leaves rrelu's inference mask unset)."""
    CASES[name] = dict(op=op, inputs=inputs, params=params or {}, grad=list(grad), train=train,
                       aux=list(aux), keep=keep)


# ---- nn
case("fc", "FullyConnected", [U(2, 3, 2), U(4, 6), U(4)], {"num_hidden": 4}, grad=(0, 1, 2))
case("fc_noflat", "FullyConnected", [U(2, 3, 5), U(4, 5), U(4)],
     {"num_hidden": 4, "flatten": False}, grad=(0, 1, 2))
case("fc_nobias", "FullyConnected", [U(3, 4), U(2, 4)], {"num_hidden": 2, "no_bias": True},
     grad=(0, 1))
for act in ("relu", "sigmoid", "tanh", "softrelu", "softsign"):
    case(f"act_{act}", "Activation", [U(2, 5, lo=-3, hi=3)], {"act_type": act}, grad=(0,))
for act in ("leaky", "elu", "selu", "gelu"):
    case(f"leaky_{act}", "LeakyReLU", [U(2, 5, lo=-3, hi=3)], {"act_type": act, "slope": 0.3},
         grad=(0,))
case("prelu", "LeakyReLU", [U(2, 3, 2, lo=-3, hi=3), U(3)], {"act_type": "prelu"},
     grad=(0, 1))
case("rrelu_infer", "LeakyReLU", [U(2, 5, lo=-3, hi=3)], {"act_type": "rrelu"}, keep=1)
case("embedding", "Embedding", [V([[0, 2], [1, 3]]), U(4, 3)],
     {"input_dim": 4, "output_dim": 3}, grad=(1,))

# ---- conv
case("conv1d", "Convolution", [U(1, 2, 7), U(3, 2, 3), U(3)],
     {"kernel": (3,), "num_filter": 3, "stride": (2,), "pad": (1,)}, grad=(0, 1, 2))
case("conv2d", "Convolution", [U(2, 4, 5, 5), U(4, 2, 3, 3), U(4)],
     {"kernel": (3, 3), "num_filter": 4, "num_group": 2, "stride": (2, 1), "pad": (1, 0),
      "dilate": (1, 2)}, grad=(0, 1, 2))
case("conv3d", "Convolution", [U(1, 2, 4, 4, 3), U(2, 2, 2, 2, 2)],
     {"kernel": (2, 2, 2), "num_filter": 2, "no_bias": True}, grad=(0, 1))
case("deconv1d", "Deconvolution", [U(1, 2, 4), U(2, 3, 3)],
     {"kernel": (3,), "num_filter": 3, "stride": (2,), "pad": (1,), "adj": (1,)}, grad=(0, 1))
case("deconv2d", "Deconvolution", [U(1, 4, 3, 3), U(4, 1, 3, 2), U(2)],
     {"kernel": (3, 2), "num_filter": 2, "num_group": 2, "stride": (2, 2), "no_bias": False,
      "pad": (1, 0)}, grad=(0, 1, 2))
case("deconv2d_target", "Deconvolution", [U(1, 2, 3, 4), U(2, 3, 3, 3)],
     {"kernel": (3, 3), "num_filter": 3, "stride": (2, 2), "target_shape": (5, 9)}, grad=(0, 1))
case("deconv3d", "Deconvolution", [U(1, 2, 2, 3, 2), U(2, 2, 2, 2, 2)],
     {"kernel": (2, 2, 2), "num_filter": 2, "stride": (2, 1, 2)}, grad=(0, 1))
X2 = U(2, 2, 5, 6)
for pt in ("max", "avg", "sum"):
    for conv in ("valid", "full"):
        case(f"pool_{pt}_{conv}", "Pooling", [X2],
             {"kernel": (3, 2), "stride": (2, 2), "pad": (1, 0), "pool_type": pt,
              "pooling_convention": conv}, grad=(0,))
case("pool_avg_nopad", "Pooling", [X2], {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1),
                                        "pool_type": "avg", "count_include_pad": False,
                                        "pooling_convention": "full"}, grad=(0,))
for pv in (1, 2, 3):
    case(f"pool_lp{pv}", "Pooling", [U(1, 2, 4, 5, lo=0.2, hi=1)],
         {"kernel": (2, 2), "pool_type": "lp", "p_value": pv}, grad=(0,))
case("pool_global_max", "Pooling", [X2], {"kernel": (1, 1), "global_pool": True}, grad=(0,))
case("pool_global_avg", "Pooling", [X2], {"global_pool": True, "pool_type": "avg"}, grad=(0,))
case("pool_1d", "Pooling", [U(2, 3, 7)], {"kernel": (3,), "stride": (2,), "pool_type": "avg"},
     grad=(0,))
case("pool_3d", "Pooling", [U(1, 2, 4, 4, 5)], {"kernel": (2, 2, 2), "stride": (2, 2, 2)},
     grad=(0,))
case("conv_v1", "Convolution_v1", [U(1, 2, 5, 5), U(3, 2, 3, 3), U(3)],
     {"kernel": (3, 3), "num_filter": 3, "pad": (1, 1)}, grad=(0, 1, 2))
for pt in ("max", "avg"):
    case(f"pool_v1_{pt}_full", "Pooling_v1", [X2],
         {"kernel": (3, 2), "stride": (2, 2), "pad": (1, 0), "pool_type": pt,
          "pooling_convention": "full"}, grad=(0,))
case("up_nearest", "UpSampling", [U(1, 2, 2, 3)], {"scale": 2, "sample_type": "nearest"},
     grad=(0,))
case("up_nearest_concat", "UpSampling", [U(1, 2, 4, 4), U(1, 1, 2, 2)],
     {"scale": 2, "sample_type": "nearest", "num_args": 2}, grad=(0, 1))
case("up_nearest_sum", "UpSampling", [U(1, 2, 4, 4), U(1, 2, 2, 2)],
     {"scale": 2, "sample_type": "nearest", "num_args": 2, "multi_input_mode": "sum"},
     grad=(0, 1))
case("up_bilinear", "UpSampling", [U(1, 2, 3, 3), U(2, 1, 4, 4)],
     {"scale": 2, "sample_type": "bilinear", "num_filter": 2, "num_args": 2}, grad=(0, 1))

# ---- norm
BN = [U(4, 2, 3), V([2.0, 3.0]), V([0.5, -1.0]), V([0.1, 0.2]), V([1.5, 2.0])]
case("bn_infer", "BatchNorm", BN, {"fix_gamma": False}, grad=(0, 1, 2), aux=(3, 4))
case("bn_train", "BatchNorm", BN, {"fix_gamma": False, "output_mean_var": True},
     grad=(0, 1, 2), train=True, aux=(3, 4))
case("bn_train_fixgamma", "BatchNorm", BN, {"momentum": 0.8}, grad=(0, 1, 2), train=True,
     aux=(3, 4))
case("bn_train_global", "BatchNorm", BN, {"fix_gamma": False, "use_global_stats": True},
     grad=(0, 1, 2), train=True, aux=(3, 4))
case("bn_axis_last", "BatchNorm", [U(3, 2, 3), U(3), U(3), V([0, 0, 0]), V([1, 1, 1])],
     {"fix_gamma": False, "axis": -1, "eps": 1e-4}, grad=(0, 1, 2), train=True, aux=(3, 4))
case("bn_relu_train", "_contrib_BatchNormWithReLU", [U(3, 2, 2, 2)] + BN[1:],
     {"fix_gamma": False},
     grad=(0, 1, 2), train=True, aux=(3, 4))
case("sync_bn_train", "_contrib_SyncBatchNorm", BN, {"key": "bn0", "fix_gamma": False},
     grad=(0, 1, 2), train=True, aux=(3, 4))
case("sync_bn_infer", "_contrib_SyncBatchNorm", BN, {"key": "bn0"}, aux=(3, 4))
case("layernorm", "LayerNorm", [U(2, 3, 4), U(4), U(4)], {"output_mean_var": True},
     grad=(0, 1, 2))
case("layernorm_axis1", "LayerNorm", [U(2, 3, 4), U(3), U(3)], {"axis": 1, "eps": 1e-3},
     grad=(0, 1, 2))
case("instancenorm", "InstanceNorm", [U(2, 3, 4), U(3), U(3)], {}, grad=(0, 1, 2))
case("groupnorm", "GroupNorm", [U(2, 4, 3), U(2), U(2)],
     {"num_groups": 2, "output_mean_var": True}, grad=(0, 1, 2))
for mode in ("instance", "channel", "spatial"):
    case(f"l2norm_{mode}", "L2Normalization", [U(2, 3, 4)], {"mode": mode}, grad=(0,))
case("lrn3", "LRN", [U(1, 5, 2, 2)], {"nsize": 3, "alpha": 0.1}, grad=(0,))
case("lrn5", "LRN", [U(1, 6, 2, 2)], {"nsize": 5, "beta": 0.5, "knorm": 1.0}, grad=(0,))

# ---- loss (head gradients are random: the loss outputs must ignore them)
XS = U(3, 4, lo=-2, hi=2)
case("softmax_out", "SoftmaxOutput", [XS, V([1, 0, 3])], {}, grad=(0, 1))
case("softmax_out_ignore", "SoftmaxOutput", [XS, V([1, -1, 3])],
     {"use_ignore": True, "normalization": "valid", "grad_scale": 2.0}, grad=(0, 1))
case("softmax_out_batch", "SoftmaxOutput", [XS, V([1, 0, 3])], {"normalization": "batch"},
     grad=(0, 1))
case("softmax_out_smooth", "SoftmaxOutput", [XS, V([1, 0, 3])],
     {"smooth_alpha": 0.3, "out_grad": True}, grad=(0, 1))
case("softmax_out_multi", "SoftmaxOutput", [U(2, 3, 2, 2), V([[0, 1, 2, 2], [1, 1, 0, 2]])],
     {"multi_output": True, "use_ignore": True, "ignore_label": 2, "normalization": "valid"},
     grad=(0, 1))
case("softmax_out_preserve", "SoftmaxOutput", [U(2, 3, 4), V([[0, 1, 3], [3, 2, 0]])],
     {"preserve_shape": True, "grad_scale": 0.5}, grad=(0, 1))
case("softmax_alias", "Softmax", [XS, V([2, 0, 1])], {}, grad=(0,))
Y = U(3, 2)
for nm in ("LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput"):
    case(nm, nm, [U(3, 2), Y], {"grad_scale": 3.0}, grad=(0, 1))
case("makeloss", "MakeLoss", [XS], {"grad_scale": 2.0}, grad=(0,))
case("makeloss_valid", "MakeLoss", [XS], {"normalization": "valid", "valid_thresh": 0.5},
     grad=(0,))
case("makeloss_batch", "MakeLoss", [XS], {"normalization": "batch"}, grad=(0,))
case("smooth_l1", "smooth_l1", [U(3, 4, lo=-2, hi=2)], {"scalar": 1.5}, grad=(0,))
CT = U(6, 2, 4, lo=-2, hi=2)
case("ctc_first", "CTCLoss", [CT, V([[1, 2, 0], [3, 3, 1]])], {}, grad=(0,))
case("ctc_last", "CTCLoss", [CT, V([[0, 2, -1], [1, 1, 2]])], {"blank_label": "last"},
     grad=(0,))
case("ctc_lengths", "CTCLoss", [CT, V([[1, 2, 3], [3, 1, 1]]), V([5, 6]), V([2, 3])],
     {"use_data_lengths": True, "use_label_lengths": True}, grad=(0,))

# ---- spatial
case("grid_affine", "GridGenerator", [V([[1.0, 0.2, 0.1, -0.1, 0.9, 0.05]])],
     {"transform_type": "affine", "target_shape": (3, 4)}, grad=(0,))
case("grid_warp", "GridGenerator", [U(1, 2, 3, 4)], {"transform_type": "warp"}, grad=(0,))
GRID = U(1, 2, 3, 4, lo=-1.2, hi=1.2)
case("bilinear_sampler", "BilinearSampler", [U(1, 2, 4, 5), GRID], {}, grad=(0, 1))
case("spatial_transformer", "SpatialTransformer",
     [U(1, 2, 5, 5), V([[0.9, 0.1, 0.05, -0.1, 0.8, 0.1]])],
     {"target_shape": (3, 4), "transform_type": "affine", "sampler_type": "bilinear"},
     grad=(0, 1))
case("adaptive_avg", "_contrib_AdaptiveAvgPooling2D", [U(1, 2, 5, 7)], {"output_size": (2, 3)},
     grad=(0,))
case("adaptive_avg_default", "_contrib_AdaptiveAvgPooling2D", [U(1, 2, 3, 3)], {}, grad=(0,))
XR = U(1, 2, 3, 4)
case("resize_size", "_contrib_BilinearResize2D", [XR], {"height": 5, "width": 7}, grad=(0,))
case("resize_nocorners", "_contrib_BilinearResize2D", [XR],
     {"height": 5, "width": 3, "align_corners": False}, grad=(0,))
case("resize_scale", "_contrib_BilinearResize2D", [XR],
     {"scale_height": 1.5, "scale_width": 2.0, "align_corners": False}, grad=(0,))
case("resize_like", "_contrib_BilinearResize2D", [XR, U(1, 1, 6, 2)], {"mode": "like"},
     grad=(0,))
case("resize_odd", "_contrib_BilinearResize2D", [XR],
     {"mode": "odd_scale", "scale_height": 2.0, "scale_width": 2.0}, grad=(0,))
case("resize_to_even_up", "_contrib_BilinearResize2D", [XR], {"mode": "to_even_up"},
     grad=(0,))
case("resize_to_odd_down", "_contrib_BilinearResize2D", [XR], {"mode": "to_odd_down"},
     grad=(0,))
ROIS = V([[0, 0.5, 0.3, 5.2, 4.1], [1, 2.2, 1.0, 9.7, 11.3], [0, 3, 3, 3.4, 3.2],
          [1, -2, -1, 4, 14]])
case("roialign", "_contrib_ROIAlign", [U(2, 2, 6, 7), ROIS],
     {"pooled_size": (2, 3), "spatial_scale": 0.5}, grad=(0,))
case("roialign_ratio_aligned", "_contrib_ROIAlign", [U(2, 2, 6, 7), ROIS],
     {"pooled_size": (3, 2), "spatial_scale": 0.6, "sample_ratio": 2, "aligned": True},
     grad=(0,))
case("roialign_psens", "_contrib_ROIAlign", [U(2, 8, 5, 5), ROIS],
     {"pooled_size": (2, 2), "spatial_scale": 0.5, "position_sensitive": True}, grad=(0,))
case("roipool", "ROIPooling",
     [U(2, 2, 6, 7), V([[0, 0, 0, 5, 4], [1, 2, 1, 9, 11], [0, 3, 3, 3, 3]])],
     {"pooled_size": (2, 3), "spatial_scale": 0.5}, grad=(0,))


def run_case(mx, c, rs):
    ins = [mx.nd.array(x) for x in c["inputs"]]
    for i in c["grad"]:
        ins[i].attach_grad()
    op = c["op"]
    fn = getattr(mx.nd.contrib, op[9:]) if op.startswith("_contrib_") else getattr(mx.nd, op)
    with mx.autograd.record(train_mode=c["train"]):
        out = fn(*ins, **c["params"])
    outs = out if isinstance(out, list) else [out]
    heads = []
    if c["grad"]:
        heads = [rs.uniform(-1, 1, outs[0].shape).astype(np.float32)]
        outs[0].backward(mx.nd.array(heads[0]))
    return ([o.asnumpy() for o in outs], heads, [ins[i].grad.asnumpy() for i in c["grad"]],
            [ins[i].asnumpy() for i in c["aux"]])


# cases oneDNN (MKLDNN) rejects or gets wrong in MXNet 1.9.1 (a deconvolution it refuses, max
# pooling gradients corrupted by its primitive cache): generated by the native kernels instead
NO_ONEDNN = {"deconv2d_target", "pool_max_valid", "pool_max_full", "pool_global_max", "pool_3d"}


def main():
    import subprocess
    import sys

    native = os.environ.get("MXNET_MKLDNN_ENABLED") == "0"
    import mxnet as mx

    arrays, meta = {}, {}
    if native:
        with np.load(os.path.join(HERE, "arrays.npz")) as z:
            arrays = dict(z)
        with open(os.path.join(HERE, "cases.json")) as f:
            meta = json.load(f)
    rs = np.random.RandomState(7)
    for name, c in CASES.items():
        if (name in NO_ONEDNN) != native:
            continue
        try:
            outs, heads, grads, aux = run_case(mx, c, rs)
            mx.nd.waitall()
            outs = outs[:c["keep"]]
        except mx.base.MXNetError as e:
            print(f"skipped {name}: {str(e).splitlines()[0]}")
            continue
        for i, x in enumerate(c["inputs"]):
            arrays[f"{name}|in{i}"] = x
        for i, x in enumerate(outs):
            arrays[f"{name}|out{i}"] = x
        for i, x in enumerate(heads):
            arrays[f"{name}|head{i}"] = x
        for i, x in zip(c["grad"], grads):
            arrays[f"{name}|grad{i}"] = x
        for i, x in zip(c["aux"], aux):
            arrays[f"{name}|aux{i}"] = x
        meta[name] = {k: v for k, v in c.items() if k not in ("inputs", "keep")}
        meta[name]["n_in"] = len(c["inputs"])
        meta[name]["n_out"] = len(outs)
    os.makedirs(HERE, exist_ok=True)
    tmp = os.path.join(HERE, "arrays.tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, os.path.join(HERE, "arrays.npz"))
    tmp = os.path.join(HERE, "cases.json.tmp")
    with open(tmp, "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(HERE, "cases.json"))
    print(f"wrote {len(meta)} cases")
    if not native:
        env = dict(os.environ, MXNET_MKLDNN_ENABLED="0", MXNET_STORAGE_FALLBACK_LOG_VERBOSE="0")
        subprocess.run([sys.executable, os.path.abspath(__file__)], env=env, check=True)


if __name__ == "__main__":
    main()
