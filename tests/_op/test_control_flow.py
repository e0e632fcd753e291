"""The ``_foreach`` operator (a subgraph node built by ``mx.sym.contrib.foreach``)."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from tests._op.harness import Record

# _foreach needs its loop body (a subgraph), so it is checked symbolically below
RECORDS = [Record("_foreach", symbolic=False, name="foreach_cumsum")]


def _cumsum_sym():
    with mx.name.NameManager():
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


RECORDS += [Record("_while_loop", symbolic=False, name="while_loop_count"),
            Record("_cond", symbolic=False, name="cond_branch")]


def test_while_loop_and_cond_nodes():
    outs, i = mx.sym.contrib.while_loop(lambda i: i < 3, lambda i: (i * 2, i + 1),
                                        mx.sym.var("i"), max_iterations=4)
    ex = mx.sym.Group([outs, i]).bind(mx.cpu(), {"i": mx.nd.array([0])})
    res = ex.forward()
    np.testing.assert_allclose(res[0].asnumpy()[:, 0], [0, 2, 4, 0])
    assert res[1].asscalar() == 3
    # zero iterations: the outputs are all padding, shaped from the body
    res = ex.forward(i=mx.nd.array([7]))
    assert res[0].shape == (4, 1) and res[1].asscalar() == 7
    p = mx.sym.var("p")
    c = mx.sym.contrib.cond(p, lambda: p + 1, lambda: p - 1)
    for pv, want in ((1, 2), (0, -1)):
        assert c.bind(mx.cpu(), {"p": mx.nd.array([pv])}).forward()[0].asscalar() == want
    with pytest.raises(MXNetError, match="scalar"):
        c.bind(mx.cpu(), {"p": mx.nd.array([1, 2])}).forward()
