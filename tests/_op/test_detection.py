"""Records for the detection operators (box_nms, box_iou, bipartite_matching, box_encode,
box_decode, MultiBoxPrior/Target/Detection), checked against MXNet 1.9.1 golden values
(``tests/compat/make_golden_contrib.py``).
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import mxnet as mx
from tests._op.harness import Record, run_record

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "compat", "golden", "contrib")
with open(os.path.join(GOLDEN, "cases.json")) as _f:
    CASES: dict = json.load(_f)


def load(name: str) -> dict:
    with np.load(os.path.join(GOLDEN, name + ".npz")) as z:
        return {k: z[k] for k in z.files}


def resolve(path: str):
    obj = mx.nd
    for p in path.split("."):
        obj = getattr(obj, p)
    return obj


def op_name(path: str) -> str:
    head, _, tail = path.rpartition(".")
    return f"_contrib_{tail}" if head == "contrib" else tail


def golden_record(name: str, **kw) -> Record:
    """A harness Record whose reference is the stored MXNet output."""
    case, z = CASES[name], load(name)
    ins = [z[f"in{i}"] for i in range(sum(k.startswith("in") for k in z))]
    outs = [z[f"out{i}"] for i in range(case["num_outputs"])]
    params = {k: tuple(v) if isinstance(v, list) else v for k, v in case["params"].items()}
    return Record(op_name(case["op"]), ins, params, ref=lambda *a, **k: outs, name=name,
                  rtol=kw.pop("rtol", 1e-5), atol=kw.pop("atol", 1e-5), **kw)


def check_golden_grad(name: str, rtol: float = 1e-4, atol: float = 1e-5) -> None:
    """Input gradients for the stored head gradient equal MXNet's."""
    case, z = CASES[name], load(name)
    ins = [z[f"in{i}"] for i in range(sum(k.startswith("in") for k in z))]
    params = {k: tuple(v) if isinstance(v, list) else v for k, v in case["params"].items()}
    arrays = [mx.nd.array(x, dtype=x.dtype) for x in ins]
    for a in arrays:
        a.attach_grad()
    with mx.autograd.record():
        out = resolve(case["op"])(*arrays, **params)
    out = out[0] if isinstance(out, list) else out
    out.backward(mx.nd.array(z["head"]))
    for i, a in enumerate(arrays):
        np.testing.assert_allclose(a.grad.asnumpy(), z[f"grad{i}"], rtol=rtol, atol=atol,
                                   err_msg=f"{name}: gradient of input {i}")


DETECTION = [n for n, c in CASES.items() if op_name(c["op"]) in {
    "_contrib_box_nms", "_contrib_box_iou", "_contrib_bipartite_matching",
    "_contrib_box_encode", "_contrib_box_decode", "_contrib_MultiBoxPrior",
    "_contrib_MultiBoxTarget", "_contrib_MultiBoxDetection", "_contrib_Proposal",
    "_contrib_MultiProposal"}]

RECORDS = [golden_record(n) for n in sorted(DETECTION)]


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", sorted(n for n in DETECTION if CASES[n]["grad"]))
def test_golden_grad(name):
    check_golden_grad(name)


def test_box_nms_hidden_output_and_alias():
    s = mx.sym.contrib.box_nms(mx.sym.var("d"), name="box_nms0")
    assert s.list_outputs() == ["box_nms0_output0"]
    d = load("box_nms_default")["in0"]
    a = mx.nd.contrib.box_nms(mx.nd.array(d))
    b = mx.nd.contrib.box_non_maximum_suppression(mx.nd.array(d))
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_bad_shapes_raise():
    with pytest.raises(mx.base.MXNetError, match="box_iou"):
        mx.nd.contrib.box_iou(mx.nd.ones((2, 3)), mx.nd.ones((2, 4)))
    with pytest.raises(mx.base.MXNetError, match="box_nms"):
        mx.nd.contrib.box_nms(mx.nd.ones((3, 4)))
    with pytest.raises(mx.base.MXNetError, match="MultiBoxDetection"):
        mx.nd.contrib.MultiBoxDetection(mx.nd.ones((1, 2, 3)), mx.nd.ones((1, 8)),
                                        mx.nd.ones((1, 3, 4)))


def test_multibox_target_output_names():
    s = mx.sym.contrib.MultiBoxTarget(mx.sym.var("a"), mx.sym.var("b"), mx.sym.var("c"),
                                      name="multiboxtarget0")
    assert s.list_outputs() == ["multiboxtarget0_loc_target", "multiboxtarget0_loc_mask",
                                "multiboxtarget0_cls_target"]


def test_box_utilities_have_zero_gradient():
    x = mx.nd.array(load("box_decode_center")["in0"])
    anc = mx.nd.array(load("box_decode_center")["in1"])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.contrib.box_decode(x, anc)
        z = mx.nd.contrib.box_iou(x.reshape((-1, 4)), x.reshape((-1, 4)))
        loss = y.sum() + z.sum()
    loss.backward()
    np.testing.assert_array_equal(x.grad.asnumpy(), 0)


def test_proposal_output_names():
    a, b, c = mx.sym.var("a"), mx.sym.var("b"), mx.sym.var("c")
    s = mx.sym.contrib.Proposal(a, b, c, output_score=True, name="proposal0")
    assert s.list_outputs() == ["proposal0_output", "proposal0_score"]
    assert mx.sym.contrib.Proposal(a, b, c, name="p").list_outputs() == ["p_output"]


def test_box_nms_topk_zero_returns_input():
    d = load("box_nms_default")["in0"]
    out = mx.nd.contrib.box_nms(mx.nd.array(d), topk=0)
    np.testing.assert_array_equal(out.asnumpy(), d)


def test_box_nms_drops_background_class_minus_one():
    # MXNet 1.9.1: with id_index set, boxes whose class id equals background_id (-1 by
    # default) are removed before suppression
    boxes = mx.nd.array([[0, 0.5, 0.1, 0.1, 0.2, 0.2], [-1, 0.9, 0.5, 0.5, 0.7, 0.8],
                         [1, 0.3, 0.5, 0.5, 0.7, 0.8]])
    out = mx.nd.contrib.box_nms(boxes, id_index=0, force_suppress=True).asnumpy()
    np.testing.assert_allclose(out[:, 0], [0, 1, -1])
    kept = mx.nd.contrib.box_nms(boxes, id_index=0, background_id=5).asnumpy()
    assert kept[0, 0] == -1 and kept[0, 1] == np.float32(0.9)


def test_multibox_prior_first_ratio_applies_to_sizes():
    x = mx.nd.zeros((1, 1, 2, 4))
    box = mx.nd.contrib.MultiBoxPrior(x, sizes=[0.5], ratios=[4.0]).asnumpy()[0, 0]
    # centre (0.125, 0.25); half sizes: w = 0.5 * 2/4 * 2 / 2, h = 0.5 / 2 / 2
    np.testing.assert_allclose(box, [0.125 - 0.25, 0.25 - 0.125, 0.125 + 0.25, 0.25 + 0.125],
                               rtol=1e-6)


def test_proposal_backward_is_zero_and_ignores_head_shape():
    rs = np.random.RandomState(0)
    cls = mx.nd.array(rs.rand(2, 18, 4, 4))
    bb = mx.nd.array(rs.rand(2, 36, 4, 4) * 0.1)
    info = mx.nd.array([[64, 64, 1.0], [64, 64, 1.0]])
    kw = dict(scales=(8, 16, 32), rpn_pre_nms_top_n=50, rpn_post_nms_top_n=10, rpn_min_size=4)
    cls.attach_grad()
    with mx.autograd.record():
        loss = (mx.nd.contrib.MultiProposal(cls, bb, info, **kw) * 2).sum()
    loss.backward()
    assert (cls.grad.asnumpy() == 0).all()
    sym = mx.sym.contrib.MultiProposal(mx.sym.var("c"), mx.sym.var("b"), mx.sym.var("i"), **kw)
    gc, gb = mx.nd.ones(cls.shape), mx.nd.ones(bb.shape)
    ex = sym.bind(mx.cpu(), {"c": cls, "b": bb, "i": info}, args_grad={"c": gc, "b": gb},
                  grad_req={"c": "write", "b": "add", "i": "null"})
    ex.forward(is_train=True)
    ex.backward([mx.nd.ones((7, 5))])  # MXNet ignores the (mis-shaped) head gradient here
    assert (gc.asnumpy() == 0).all() and (gb.asnumpy() == 1).all()
