"""JSON load/save: round trips, legacy keys, and bad files (clear MXNetError, no crash)."""

import json

import pytest

import mxnet as mx
import mxnet.symbol as sym
from mxnet.base import MXNetError


def _graph(nodes, heads, version=10901):
    d = {"nodes": nodes, "arg_nodes": [], "heads": heads}
    if version is not None:
        d["attrs"] = {"mxnet_version": ["int", version]}
    return json.dumps(d)


VAR = {"op": "null", "name": "x", "inputs": []}


def test_roundtrip_and_save_load(tmp_path):
    x = sym.Variable("x", shape=(2, 3))
    s = sym.Group([sym.exp(x) * 2, sym.clip(x, a_min=0, a_max=1)])
    p = tmp_path / "net-symbol.json"
    s.save(str(p))
    s2 = sym.load(str(p))
    assert s2.tojson() == s.tojson()
    assert s2.list_outputs() == s.list_outputs()
    out = s2.eval(x=mx.nd.ones((2, 3)))
    assert out[1].asnumpy().tolist() == [[1.0] * 3] * 2
    assert not list(tmp_path.glob(".tmp-*"))


def test_two_item_entries_and_legacy_keys():
    js = _graph(
        [
            VAR,
            {"op": "exp", "name": "e", "inputs": [[0, 0]]},
            {
                "op": "_plus_scalar",
                "name": "p",
                "param": {"scalar": "1"},
                "attr": {"ctx_group": "g"},
                "inputs": [[1, 0]],
            },
        ],
        [[2, 0]],
        version=None,
    )
    s = sym.load_json(js)
    assert s.list_outputs() == ["p_output"]
    assert s.attr("ctx_group") == "g" and '"__ctx_group__": "g"' in s.tojson()
    assert s.eval(x=mx.nd.zeros((1,)))[0].asnumpy().tolist() == [2.0]


@pytest.mark.parametrize(
    "text,match",
    [
        ("not json", "Invalid symbol JSON"),
        (json.dumps({"heads": []}), "nodes"),
        (
            _graph([VAR, {"op": "NoSuchOp", "name": "bad", "inputs": [[0, 0, 0]]}], [[1, 0, 0]]),
            "bad.*NoSuchOp",
        ),
        (
            _graph(
                [VAR, {"op": "sum", "name": "e", "attrs": {"foo": "1"}, "inputs": [[0, 0, 0]]}],
                [[1, 0, 0]],
            ),
            "'e'.*unknown attribute 'foo'",
        ),
        (
            _graph([VAR, {"op": "exp", "name": "e", "inputs": [[5, 0, 0]]}], [[1, 0, 0]]),
            "node 1 \\('e'\\) field 'inputs'.*out of range",
        ),
        (_graph([{"op": "exp", "name": "e", "inputs": [[0, 0, 0]]}], [[0, 0, 0]]), "out of range"),
        (
            _graph([VAR, {"op": "elemwise_add", "name": "a", "inputs": [[0, 0, 0]]}], [[1, 0, 0]]),
            "'a'.*1 inputs, expected 2",
        ),
        (_graph([VAR], [[3, 0, 0]]), "heads"),
        (_graph([VAR, {"op": "exp", "name": "e", "inputs": [[0, 4, 0]]}], [[1, 0, 0]]), "output 4"),
        (
            _graph(
                [
                    VAR,
                    {
                        "op": "_plus_scalar",
                        "name": "p",
                        "attrs": {"scalar": "abc"},
                        "inputs": [[0, 0, 0]],
                    },
                ],
                [[1, 0, 0]],
            ),
            "scalar",
        ),
        (_graph([VAR, {"op": "exp", "name": "e", "inputs": "x"}], [[1, 0, 0]]), "inputs"),
    ],
)
def test_bad_files_raise_mxneterror(text, match):
    with pytest.raises(MXNetError, match=match):
        sym.load_json(text)


def test_load_missing_file():
    with pytest.raises(MXNetError, match="Cannot open"):
        sym.load("/nonexistent/x-symbol.json")
    with pytest.raises(TypeError):
        sym.load_json(3)


def test_cycle_detected_in_composition():
    from mxnet.symbol._node import topo_order

    x = sym.Variable("x")
    e = sym.exp(x)
    node = e._outputs[0][0]
    node.inputs = [(node, 0)]
    with pytest.raises(MXNetError, match="cycle"):
        topo_order([node])


@pytest.mark.parametrize(
    "make, rows",
    [
        (lambda d: mx.sym.Dropout(d), 2),  # MXNet keeps the mask as a hidden output
        (lambda d: mx.sym.LRN(d, nsize=3), 2),
        (lambda d: mx.sym.InstanceNorm(d), 3),
        (lambda d: mx.sym.Pooling(d, kernel=(2, 2)), 2),  # oneDNN max-pooling workspace
        (lambda d: mx.sym.Pooling(d, kernel=(2, 2), pool_type="avg"), 1),
        (lambda d: mx.sym.Pooling(d, kernel=(2, 2), layout="NHWC"), 1),
        (lambda d: mx.sym.Pooling(d, global_pool=True), 1),
        (lambda d: mx.sym.BatchNorm(d), 3),
        (lambda d: mx.sym.relu(d), 1),
    ],
)
def test_node_row_ptr_counts_mxnet_hidden_outputs(make, rows):
    # node_row_ptr as MXNet 1.9.1 (pip, oneDNN build) writes it
    ptr = json.loads(make(mx.sym.var("data")).tojson())["node_row_ptr"]
    assert ptr[-1] - ptr[-2] == rows


def test_split_v2_writes_split_points_as_a_list():
    d = mx.sym.var("d")
    attrs = json.loads(mx.sym.split_v2(d, (1, 3), axis=1).tojson())["nodes"][1]["attrs"]
    assert attrs["indices"] == "[0, 1, 3]" and attrs["sections"] == "0"
    assert json.loads(mx.sym.split_v2(d, 2).tojson())["nodes"][1]["attrs"]["indices"] == "[]"
    outs = mx.sym.split_v2(d, (1, 3), axis=1).eval(d=mx.nd.ones((2, 5)))
    assert [o.shape for o in outs] == [(2, 1), (2, 2), (2, 2)]


def test_save_file_mode_follows_umask(tmp_path):
    # MXNet writes symbol files through an ordinary stream: mode 0666 & ~umask (a temp
    # file left 0600 would make exported models unreadable to other users)
    import os

    mask = os.umask(0o022)
    try:
        mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2).save(str(tmp_path / "a.json"))
    finally:
        os.umask(mask)
    assert (os.stat(tmp_path / "a.json").st_mode & 0o777) == 0o644
