"""The ``_foreach`` operator (a subgraph node built by ``mx.sym.contrib.foreach``)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests._op.harness import Record

# _foreach needs its loop body (a subgraph), so it is checked symbolically below
RECORDS = [Record("_foreach", symbolic=False, name="foreach_cumsum")]


def _cumsum_sym():
    outs, last = mx.sym.contrib.foreach(lambda x, s: (x + s, x + s), mx.sym.var("seq"),
                                        mx.sym.var("h"))
    return mx.sym.Group([outs, last])


def test_foreach_node_forward_and_shapes():
    g = _cumsum_sym()
    assert g.list_arguments() == ["seq", "h"]
    assert g.list_outputs() == ["_foreach0_output0", "_foreach0_output1"]
    _, outs, _ = g.infer_shape(seq=(4, 3), h=(3,))
    assert outs == [(4, 3), (3,)]
    seq = np.random.RandomState(0).rand(4, 3).astype("float32")
    ex = g.bind(mx.cpu(), {"seq": mx.nd.array(seq), "h": mx.nd.zeros((3,))})
    res = ex.forward()
    np.testing.assert_allclose(res[0].asnumpy(), np.cumsum(seq, 0), rtol=1e-6)
    np.testing.assert_allclose(res[1].asnumpy(), seq.sum(0), rtol=1e-6)


def test_foreach_node_gradient():
    g = _cumsum_sym()
    seq = np.ones((3, 2), "float32")
    ex = g.simple_bind(mx.cpu(), seq=(3, 2), h=(2,))
    ex.forward(is_train=True, seq=mx.nd.array(seq), h=mx.nd.zeros((2,)))
    ex.backward([mx.nd.ones((3, 2)), mx.nd.ones((2,))])
    np.testing.assert_allclose(ex.grad_dict["h"].asnumpy(), [4, 4])
    np.testing.assert_allclose(ex.grad_dict["seq"].asnumpy(), [[4, 4], [3, 3], [2, 2]])


def test_foreach_without_subgraph_raises():
    with pytest.raises(MXNetError, match="subgraph"):
        mx.nd._internal._foreach(mx.nd.ones((2, 2)), num_args=2, num_outputs=1,
                                 num_out_data=1, in_state_locs=(), in_data_locs=(0,),
                                 remain_locs=())
