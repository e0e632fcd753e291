"""``_CachedOp`` and the oneDNN fusion nodes run a subgraph stored on the node; they are
checked symbolically (tests/symbol/test_cached_op_node.py, test_mkldnn_fused_json.py)."""

import numpy as np

import mxnet as mx
from tests._op.harness import Record

RECORDS = [
    Record("_CachedOp", symbolic=False, name="cached_op_subgraph"),
    Record("_sg_mkldnn_conv", symbolic=False, name="sg_mkldnn_conv_subgraph"),
    Record("_sg_mkldnn_fully_connected", symbolic=False, name="sg_mkldnn_fc_subgraph"),
]


def test_cached_op_node_runs_its_subgraph():
    a = mx.sym.var("a")
    node = mx.sym._internal._CachedOp(a, subgraph=(mx.sym.var("q") * 3 + 1).tojson())
    out = node.eval(a=mx.nd.array([1.0, 2.0]))[0]
    np.testing.assert_allclose(out.asnumpy(), [4.0, 7.0])
