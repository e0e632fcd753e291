"""tojson(remove_amp_cast=True) bypasses inner amp casts but keeps an output cast (MXNet 1.9.1)."""

import json

import mxnet as mx
from mxnet.contrib import amp


def _ops(s, **kw):
    d = json.loads(s.tojson(**kw))
    return [n["op"] + ":" + n["name"] for n in d["nodes"]], d["heads"]


def test_output_amp_cast_survives_serialisation():
    fc = mx.sym.FullyConnected(mx.sym.var("x"), num_hidden=2, name="fc")
    s = amp.convert_symbol(fc)
    nodes, heads = _ops(s)
    assert nodes == [
        "null:x",
        "null:fc_weight",
        "null:fc_bias",
        "FullyConnected:fc",
        "amp_cast:fc_output_amp_cast_float32",
    ]
    assert heads == [[4, 0, 0]]
    nodes, _ = _ops(s, remove_amp_cast=False)
    assert nodes.count("amp_cast:x_amp_cast_float16") == 1 and len(nodes) == 8


def test_group_outputs_keep_names_after_save_load(tmp_path):
    fc = mx.sym.FullyConnected(mx.sym.var("x"), num_hidden=2, name="fc")
    s = amp.convert_symbol(
        mx.sym.Group([mx.sym.relu(fc, name="relu0"), mx.sym.softmax(fc, name="softmax0")])
    )
    f = str(tmp_path / "g.json")
    s.save(f)
    assert mx.sym.load(f).list_outputs() == ["relu0_0_amp_cast_float32_output", "softmax0_output"]


def test_node_order_is_that_of_the_rewired_graph():
    # MXNet re-walks the graph after bypassing the amp nodes: an output cast that read an
    # amp_multicast now reads the variable, so each variable precedes its own cast
    d = mx.sym.var("data", dtype="float32")
    d2 = mx.sym.var("data2", dtype="float16")
    s = amp.convert_symbol(
        mx.sym.amp_multicast(d, d2, num_outputs=2, name="mc"), cast_optional_params=True
    )
    nodes, heads = _ops(s)
    assert nodes == [
        "null:data",
        "amp_cast:mc_0_amp_cast_float32",
        "null:data2",
        "amp_cast:mc_1_amp_cast_float32",
    ]
    assert heads == [[1, 0, 0], [3, 0, 0]]
    j = json.loads(s.tojson())
    assert j["arg_nodes"] == [0, 2] and j["nodes"][3]["inputs"] == [[2, 0, 0]]
    # without removal the multicast stays, in plain post-order
    nodes, _ = _ops(s, remove_amp_cast=False)
    assert nodes[:3] == ["null:data", "null:data2", "amp_multicast:mc"]
