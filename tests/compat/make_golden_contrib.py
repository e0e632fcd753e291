"""Write golden values for contrib / detection / legacy-layer operators (run ONCE under the
MXNet 1.9.1 oracle python, from a directory other than the repository root):

    cd /tmp && /root/.cache/mxnet-oracle/bin/python /work/main/tests/compat/make_golden_contrib.py

Each case stores its inputs, outputs and (``grad``) the input gradients for a fixed head
gradient on output 0 in ``golden/contrib/<name>.npz``; ``cases.json`` lists op path and
params. ``tests/_op/test_detection.py`` and ``test_misc.py`` replay them without MXNet.
"""

import json
import os

import numpy as np

import mxnet as mx

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "contrib")
rng = np.random.RandomState(42)


def u(*shape, lo=0.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def boxes(b, n, width=6, ids=2):
    out = np.zeros((b, n, width), np.float32)
    out[..., 0] = rng.randint(0, ids, (b, n))
    out[..., 1] = u(b, n)
    xy = u(b, n, 2, hi=0.6)
    wh = u(b, n, 2, lo=0.1, hi=0.4)
    out[..., 2:4] = xy
    out[..., 4:6] = xy + wh
    return out


def labels(b, m, valid):
    lab = -np.ones((b, m, 5), np.float32)
    for i in range(b):
        for j in range(valid[i]):
            xy = rng.uniform(0, 0.6, 2)
            wh = rng.uniform(0.15, 0.4, 2)
            lab[i, j] = [rng.randint(0, 3), xy[0], xy[1], xy[0] + wh[0], xy[1] + wh[1]]
    return lab


anchors = mx.nd.contrib.MultiBoxPrior(mx.nd.zeros((1, 1, 3, 3)), sizes=(0.4, 0.2),
                                      ratios=(1, 2)).asnumpy()
NA = anchors.shape[1]
cls_p = u(2, 3, NA)
cls_p /= cls_p.sum(1, keepdims=True)

qkv = u(3, 2, 24, lo=-1)
att = u(4, 3, 3, lo=-1)
CASES = [
    # (name, op path, inputs, params, grad)
    ("selfatt_qk", "contrib.interleaved_matmul_selfatt_qk", [qkv], {"heads": 2}, True),
    ("selfatt_valatt", "contrib.interleaved_matmul_selfatt_valatt", [qkv, att], {"heads": 2},
     True),
    ("encdec_qk", "contrib.interleaved_matmul_encdec_qk", [u(3, 2, 8, lo=-1), u(4, 2, 16, lo=-1)],
     {"heads": 2}, True),
    ("encdec_valatt", "contrib.interleaved_matmul_encdec_valatt",
     [u(4, 2, 16, lo=-1), u(4, 3, 4, lo=-1)], {"heads": 2}, True),
    ("box_nms_default", "contrib.box_nms", [boxes(2, 10)], {}, True),
    ("box_nms_ids", "contrib.box_nms", [boxes(2, 10)],
     {"overlap_thresh": 0.3, "valid_thresh": 0.2, "id_index": 0, "topk": 6}, False),
    ("box_nms_bg_center", "contrib.box_nms", [boxes(1, 12, ids=3)],
     {"overlap_thresh": 0.2, "id_index": 0, "background_id": 0, "out_format": "center"}, False),
    ("box_nms_force", "contrib.box_nms", [boxes(1, 12, ids=3)],
     {"overlap_thresh": 0.2, "id_index": 0, "force_suppress": True, "in_format": "center"},
     False),
    ("box_nms_layout", "contrib.box_nms", [boxes(3, 8)[..., [1, 2, 3, 4, 5, 0]].copy()],
     {"score_index": 0, "coord_start": 1, "id_index": 5, "overlap_thresh": 0.1}, False),
    ("box_iou_corner", "contrib.box_iou", [boxes(1, 5)[0, :, 2:], boxes(2, 3)[..., 2:]], {},
     False),
    ("box_iou_center", "contrib.box_iou", [u(4, 4), u(3, 4)], {"format": "center"}, False),
    ("bipartite", "contrib.bipartite_matching", [u(2, 4, 3)], {"threshold": 0.3}, False),
    ("bipartite_asc", "contrib.bipartite_matching", [u(5, 4)],
     {"threshold": 0.6, "is_ascend": True}, False),
    ("bipartite_topk", "contrib.bipartite_matching", [u(5, 4)], {"threshold": 0.1, "topk": 2},
     False),
    ("box_encode", "contrib.box_encode",
     [np.array([[1, 0, 1, 1], [0, 1, 1, -1]], np.float32),
      np.array([[0, 1, 1, 2], [2, 0, 1, 0]], np.float32),
      boxes(2, 4)[..., 2:].copy(), boxes(2, 3)[..., 2:].copy(),
      np.array([0.1, 0.0, -0.1, 0.2], np.float32), np.array([0.1, 0.1, 0.2, 0.2], np.float32)],
     {}, False),
    ("box_decode_center", "contrib.box_decode", [u(2, 5, 4, lo=-1), u(1, 5, 4, lo=0.2)],
     {"std0": 0.1, "std1": 0.1, "std2": 0.2, "std3": 0.2}, True),
    ("box_decode_corner_clip", "contrib.box_decode",
     [u(2, 5, 4, lo=-3, hi=3), boxes(1, 5)[..., 2:].copy()], {"format": "corner", "clip": 0.5},
     False),
    ("prior_default", "contrib.MultiBoxPrior", [np.zeros((1, 2, 2, 3), np.float32)], {}, False),
    ("prior_steps", "contrib.MultiBoxPrior", [np.zeros((2, 1, 3, 4), np.float32)],
     {"sizes": (0.6, 0.3, 0.1), "ratios": (1, 2, 0.5), "clip": True, "steps": (0.25, 0.2),
      "offsets": (0.3, 0.6)}, False),
    ("target_plain", "contrib.MultiBoxTarget", [anchors, labels(2, 4, [3, 1]), cls_p], {},
     False),
    ("target_mining", "contrib.MultiBoxTarget", [anchors, labels(2, 4, [2, 0]), cls_p],
     {"negative_mining_ratio": 3, "overlap_threshold": 0.3, "ignore_label": -2,
      "variances": (0.1, 0.2, 0.3, 0.4)}, False),
    ("target_minneg", "contrib.MultiBoxTarget", [anchors, labels(2, 4, [1, 2]), cls_p],
     {"negative_mining_ratio": 1, "minimum_negative_samples": 5,
      "negative_mining_thresh": 0.4}, False),
    ("detect_default", "contrib.MultiBoxDetection",
     [cls_p, rng.normal(0, 0.5, (2, NA * 4)).astype(np.float32), anchors], {}, False),
    ("detect_opts", "contrib.MultiBoxDetection",
     [cls_p, rng.normal(0, 0.5, (2, NA * 4)).astype(np.float32), anchors],
     {"threshold": 0.3, "nms_threshold": 0.3, "force_suppress": True, "clip": False}, False),
    ("detect_topk", "contrib.MultiBoxDetection",
     [cls_p, rng.normal(0, 0.5, (2, NA * 4)).astype(np.float32), anchors],
     {"threshold": 0.2, "nms_topk": 5}, False),
    ("svm_l2", "SVMOutput", [u(3, 4, lo=-2, hi=2), np.array([0, 3, 1], np.float32)],
     {"margin": 0.7, "regularization_coefficient": 0.5}, True),
    ("svm_l1", "SVMOutput", [u(3, 4, lo=-2, hi=2), np.array([2, 0, 1], np.float32)],
     {"use_linear": True}, True),
    ("corr_basic", "Correlation", [u(1, 2, 4, 4), u(1, 2, 4, 4)],
     {"max_displacement": 1, "pad_size": 1}, True),
    ("corr_kernel", "Correlation", [u(2, 3, 6, 5), u(2, 3, 6, 5)],
     {"kernel_size": 3, "max_displacement": 2, "stride1": 2, "stride2": 2, "pad_size": 2},
     True),
    ("corr_sub", "Correlation", [u(1, 2, 5, 5), u(1, 2, 5, 5)],
     {"kernel_size": 1, "max_displacement": 2, "pad_size": 1, "is_multiply": False}, False),
    ("im2col", "im2col", [u(2, 2, 5, 4)],
     {"kernel": (2, 3), "stride": (2, 1), "dilate": (1, 1), "pad": (1, 1)}, True),
    ("col2im", "col2im", [u(1, 8, 9)], {"output_size": (4, 5), "kernel": (2, 2),
                                        "stride": (2, 2), "pad": (1, 1)}, True),
    ("pdf_normal", "random_pdf_normal", [u(2, 3, lo=-1), u(2, lo=-0.5), u(2, lo=0.5, hi=2)],
     {}, True),
    ("pdf_gamma_log", "random_pdf_gamma", [u(2, 2, 2, lo=0.2, hi=3), u(2, 2, lo=1, hi=3),
                                           u(2, 2, lo=0.5, hi=2)], {"is_log": True}, True),
    ("pdf_uniform", "random_pdf_uniform", [u(2, 3, lo=0.3, hi=0.6), u(2, hi=0.3),
                                           u(2, lo=0.7, hi=2)], {}, True),
    ("pdf_exponential", "random_pdf_exponential", [u(3, 2, lo=0.1, hi=2), u(3, lo=0.5, hi=2)],
     {}, True),
    ("pdf_poisson", "random_pdf_poisson", [np.array([[0, 1, 3], [2, 5, 1]], np.float32),
                                           u(2, lo=0.5, hi=3)], {}, True),
    ("pdf_nb", "random_pdf_negative_binomial",
     [np.array([[0, 1, 3], [2, 5, 1]], np.float32), u(2, lo=1, hi=4), u(2, lo=0.2, hi=0.8)],
     {"is_log": True}, True),
    ("pdf_gnb", "random_pdf_generalized_negative_binomial",
     [np.array([[0, 1, 3], [2, 5, 1]], np.float32), u(2, lo=1, hi=4), u(2, lo=0.2, hi=0.8)],
     {}, True),
    ("pdf_dirichlet", "random_pdf_dirichlet",
     [np.array([[[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], [[0.6, 0.3, 0.1], [0.3, 0.3, 0.4]]],
               np.float32), u(2, 3, lo=0.5, hi=3)], {}, True),
    ("dcn", "contrib.DeformableConvolution",
     [u(2, 4, 5, 5, lo=-1), u(2, 18, 5, 5, lo=-2, hi=2), u(6, 2, 3, 3, lo=-1), u(6)],
     {"kernel": (3, 3), "pad": (1, 1), "num_filter": 6, "num_group": 2}, True),
    ("dcn_stride_dg", "contrib.DeformableConvolution",
     [u(1, 4, 6, 5, lo=-1), u(1, 16, 2, 2, lo=-1.5, hi=1.5), u(3, 4, 2, 2, lo=-1)],
     {"kernel": (2, 2), "stride": (2, 2), "dilate": (2, 1), "num_filter": 3,
      "num_deformable_group": 2, "no_bias": True}, True),
    ("mdcn", "contrib.ModulatedDeformableConvolution",
     [u(1, 2, 4, 4, lo=-1), u(1, 18, 4, 4, lo=-2, hi=2), u(1, 9, 4, 4), u(3, 2, 3, 3, lo=-1),
      u(3)], {"kernel": (3, 3), "pad": (1, 1), "num_filter": 3}, False),
    ("psroi", "contrib.PSROIPooling",
     [u(2, 18, 6, 7), np.array([[0, 0.5, 1, 9, 8], [1, 2, 2.5, 4, 5], [0, 6, 6, 3, 3],
                                [1, 0, 0, 13, 11]], np.float32)],
     {"spatial_scale": 0.5, "output_dim": 2, "pooled_size": 3}, False),
    ("psroi_group", "contrib.PSROIPooling",
     [u(1, 8, 5, 5), np.array([[0, 0, 0, 4, 4], [0, 1, 1, 2, 3]], np.float32)],
     {"spatial_scale": 1.0, "output_dim": 2, "pooled_size": 3, "group_size": 2}, False),
    ("proposal", "contrib.Proposal",
     [np.concatenate([u(1, 3, 4, 5), u(1, 3, 4, 5)], 1), u(1, 12, 4, 5, lo=-0.3, hi=0.3),
      np.array([[60, 70, 1.0]], np.float32)],
     {"scales": (3,), "ratios": (0.5, 1.0, 2.0), "feature_stride": 16,
      "rpn_pre_nms_top_n": 30, "rpn_post_nms_top_n": 12, "rpn_min_size": 4,
      "threshold": 0.6, "output_score": True}, False),
    ("multi_proposal", "contrib.MultiProposal",
     [np.concatenate([u(2, 3, 3, 3), u(2, 3, 3, 3)], 1), u(2, 12, 3, 3, lo=-0.3, hi=0.3),
      np.array([[48, 40, 1.0], [30, 48, 0.5]], np.float32)],
     {"scales": (1, 2, 3), "ratios": (1.0,), "feature_stride": 16, "rpn_pre_nms_top_n": -1,
      "rpn_post_nms_top_n": 8, "rpn_min_size": 8, "threshold": 0.5}, False),
    ("proposal_iou", "contrib.Proposal",
     [np.concatenate([u(1, 1, 3, 3), u(1, 1, 3, 3)], 1), u(1, 4, 3, 3, lo=-3, hi=3),
      np.array([[48, 48, 1.0]], np.float32)],
     {"scales": (2,), "ratios": (1.0,), "rpn_post_nms_top_n": 5, "rpn_min_size": 2,
      "iou_loss": True, "output_score": True}, False),
    ("rroi", "contrib.RROIAlign",
     [u(2, 3, 8, 9), np.array([[0, 4, 4, 5, 3, 30], [1, 2.5, 6, 8, 4, -60],
                               [0, 8.5, 7.9, 3, 3, 90], [1, 1, 1, 20, 10, 10]], np.float32)],
     {"pooled_size": (2, 3), "spatial_scale": 1.0}, False),
    ("rroi_scale", "contrib.RROIAlign",
     [u(1, 2, 6, 6), np.array([[0, 6, 6, 6, 4, 45], [0, 2, 10, 4, 8, 0]], np.float32)],
     {"pooled_size": (3, 2), "spatial_scale": 0.5, "sampling_ratio": 2}, False),
    ("dpsroi", "contrib.DeformablePSROIPooling",
     [u(2, 8, 6, 7), np.array([[0, 0.6, 1, 5, 4], [1, 2, 0, 6, 5.5], [0, 4, 3, 6, 5]],
                              np.float32), u(3, 4, 2, 2, lo=-1, hi=1)],
     {"spatial_scale": 1.0, "output_dim": 2, "group_size": 2, "pooled_size": 2,
      "sample_per_part": 2, "trans_std": 0.2}, True),
    ("dpsroi_notrans", "contrib.DeformablePSROIPooling",
     [u(1, 18, 5, 5), np.array([[0, 0, 0, 8, 8], [0, 2, 2, 5, 4]], np.float32)],
     {"spatial_scale": 0.5, "output_dim": 2, "group_size": 3, "pooled_size": 3,
      "part_size": 3, "sample_per_part": 3, "no_trans": True}, True),
    ("crop_hw", "Crop", [u(1, 2, 5, 6)], {"num_args": 1, "h_w": (2, 3), "offset": (1, 2)},
     False),
    ("crop_like", "Crop", [u(1, 2, 5, 6), u(1, 1, 3, 3)], {"num_args": 2, "center_crop": True},
     False),
]


def resolve(path):
    obj = mx.nd
    for p in path.split("."):
        obj = getattr(obj, p)
    return obj


def main():
    os.makedirs(HERE, exist_ok=True)
    meta = {}
    for name, path, inputs, params, grad in CASES:
        fn = resolve(path)
        arrays = [mx.nd.array(x, dtype=x.dtype) for x in inputs]
        store = {f"in{i}": x for i, x in enumerate(inputs)}
        if grad:
            for a in arrays:
                a.attach_grad()
            with mx.autograd.record():
                outs = fn(*arrays, **params)
            outs = outs if isinstance(outs, list) else [outs]
            head = rng.uniform(-1, 1, outs[0].shape).astype(np.float32)
            outs[0].backward(mx.nd.array(head))
            store["head"] = head
            for i, a in enumerate(arrays):
                store[f"grad{i}"] = a.grad.asnumpy()
        else:
            outs = fn(*arrays, **params)
            outs = outs if isinstance(outs, list) else [outs]
        for i, o in enumerate(outs):
            store[f"out{i}"] = o.asnumpy()
        np.savez_compressed(os.path.join(HERE, name + ".npz"), **store)
        meta[name] = {"op": path, "params": {k: list(v) if isinstance(v, tuple) else v
                                             for k, v in params.items()},
                      "grad": grad, "num_outputs": len(outs)}
    # IdentityAttachKLSparseReg: the gradient and the moving average it updates
    data = u(4, 3, lo=0.05, hi=0.9)
    head = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
    init = np.array([0.2, 0.3, 0.5], np.float32)
    sym = mx.sym.IdentityAttachKLSparseReg(mx.sym.var("data"), penalty=0.01, momentum=0.8)
    grad = mx.nd.zeros((4, 3))
    avg = mx.nd.array(init)
    ex = sym.bind(mx.cpu(), {"data": mx.nd.array(data)}, args_grad={"data": grad},
                  aux_states={sym.list_auxiliary_states()[0]: avg})
    y = ex.forward(is_train=True)[0]
    ex.backward(mx.nd.array(head))
    np.savez_compressed(os.path.join(HERE, "klsparse.npz"), in0=data, in1=init, head=head,
                        out0=y.asnumpy(), grad0=grad.asnumpy(), avg=avg.asnumpy())
    multi_updates()
    hawkes()
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    print("wrote", len(meta) + 1, "cases to", HERE)


def hawkes():
    """hawkesll: log-likelihood, states and the gradients of lda, alpha, beta."""
    lda = u(2, 3, lo=0.2, hi=1.0)
    alpha = u(3, lo=0.1, hi=0.6)
    beta = u(3, lo=0.5, hi=2.0)
    state = u(2, 3, lo=0.0, hi=0.5)
    lags = u(2, 5, lo=0.1, hi=1.0)
    marks = np.array([[0, 1, 0, 2, 1], [2, 2, 0, 1, 0]], np.int32)
    valid = np.array([5, 3], np.float32)
    tmax = np.array([lags[0].sum() + 0.5, lags[1, :3].sum() + 1.0], np.float32)
    ins = [lda, alpha, beta, state, lags, marks, valid, tmax]
    nds = [mx.nd.array(x, dtype=x.dtype) for x in ins]
    for a in nds[:3]:
        a.attach_grad()
    with mx.autograd.record():
        ll, st = mx.nd.contrib.hawkesll(*nds)
    ll.backward()
    store = {f"in{i}": x for i, x in enumerate(ins)}
    store.update(out0=ll.asnumpy(), out1=st.asnumpy(),
                 **{f"grad{i}": nds[i].grad.asnumpy() for i in range(3)})
    np.savez_compressed(os.path.join(HERE, "hawkes.npz"), **store)


def multi_updates():
    """Multi-tensor AdamW / LAMB: inputs, returned weights and updated states."""
    store = {}
    for name, k, extra, params in [
        ("_multi_adamw_update", 4, True, {"lrs": (0.1, 0.2), "wds": (0.01, 0.02),
                                          "etas": (1.0, 0.5), "clip_gradient": 0.6}),
        ("_multi_mp_adamw_update", 5, True, {"lrs": (0.1, 0.2), "wds": (0.0, 0.02),
                                             "etas": (0.7, 0.5), "beta1": 0.8}),
        ("_multi_lamb_update", 4, False, {"learning_rates": (0.1, 0.2), "wds": (0.01, 0.02),
                                          "step_count": (3, 4), "lower_bound": 0.1,
                                          "upper_bound": 2.0}),
        ("_multi_mp_lamb_update", 5, False, {"learning_rates": (0.1, 0.2), "wds": (0.0, 0.02),
                                             "step_count": (1, 7), "bias_correction": False,
                                             "rescale_grad": 0.5}),
    ]:
        arrs = []
        for _ in range(2):
            w = u(3, 2, lo=-1)
            grp = [w, u(3, 2, lo=-1), u(3, 2, lo=-0.2, hi=0.2), u(3, 2, lo=0.01, hi=0.3)]
            if k == 5:
                grp[0] = w.astype(np.float16)
                grp[1] = grp[1].astype(np.float16)
                grp.append(w)
            arrs += grp
        if extra:
            arrs.append(np.array([0.5], np.float32))
        nds = [mx.nd.array(x, dtype=x.dtype) for x in arrs]
        fn = getattr(mx.nd._internal, name)
        outs = [mx.nd.zeros(nds[0].shape, dtype=nds[0].dtype),
                mx.nd.zeros(nds[k].shape, dtype=nds[k].dtype)]
        key = "num_weights" if extra else "num_tensors"
        fn(*nds, out=outs, **{key: 2}, **params)
        for i, x in enumerate(arrs):
            store[f"{name}/in{i}"] = x
        for i, x in enumerate(nds):
            store[f"{name}/after{i}"] = x.asnumpy()
        for i, o in enumerate(outs):
            store[f"{name}/out{i}"] = o.asnumpy()
        store[f"{name}/params"] = np.array(json.dumps(
            {kk: list(v) if isinstance(v, tuple) else v for kk, v in params.items()}))
    np.savez_compressed(os.path.join(HERE, "multi_update.npz"), **store)


if __name__ == "__main__":
    main()
