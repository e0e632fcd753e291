"""Symbol/executor behaviours found by running MXNet 1.9.1's own unit tests."""

import re

import numpy as np

import mxnet as mx


def test_get_children_of_multi_output_node_lists_inputs_once():
    sliced = mx.sym.SliceChannel(mx.sym.Variable("data"), num_outputs=3, name="slice")
    assert sliced.get_children().list_outputs() == ["data"]


def test_given_shape_overrides_variable_shape_attr():
    a = mx.sym.Variable("a", shape=(2, 3))
    c = mx.sym.elemwise_add(a, mx.sym.Variable("b"))
    assert c.infer_shape()[0] == [(2, 3), (2, 3)]
    assert c.infer_shape(a=(5, 6))[0] == [(5, 6), (5, 6)]


def test_integer_argument_gets_no_gradient():
    x, idx = mx.sym.Variable("x"), mx.sym.Variable("idx")
    z = mx.sym.stop_gradient(mx.sym.batch_take(x, idx))
    exe = z.simple_bind(mx.cpu(), x=(4, 4), idx=(4,), type_dict={"idx": np.int32})
    exe.forward(is_train=True)
    exe.backward()
    assert exe.grad_dict["idx"].asnumpy().sum() == 0


def test_debug_str_memory_line():
    data = mx.sym.Variable("data")
    for _ in range(3):
        data = data * data
    exe = data.simple_bind(mx.cpu(), data=(64, 64, 64))
    big = int(re.search(r"Total (\d+) MB allocated", exe.debug_str()).group(1))
    exe = data.simple_bind(mx.cpu(), data=(64, 64, 64), grad_req="null")
    small = int(re.search(r"Total (\d+) MB allocated", exe.debug_str()).group(1))
    blocked = mx.sym.stop_gradient(data).simple_bind(mx.cpu(), data=(64, 64, 64))
    small2 = int(re.search(r"Total (\d+) MB allocated", blocked.debug_str()).group(1))
    assert big > small == small2


def test_reshaped_executor_shares_memory():
    y = mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=4)
    exe = y.simple_bind(mx.cpu(), x=(5, 4), grad_req="null")
    exe.arg_arrays[0][:] = 1
    exe.arg_arrays[1][:] = 1
    exe.arg_arrays[2][:] = 0
    small = exe.reshape(x=(3, 4))
    small.forward(is_train=False)
    assert (small.outputs[0].asnumpy() == 4).all()
    assert (exe.outputs[0].asnumpy()[:3] == 4).all()


def test_verify_generator_chi_square():
    from mxnet.test_utils import gen_buckets_probs_with_ppf, verify_generator

    buckets, probs = gen_buckets_probs_with_ppf(lambda q: q, 4)
    assert probs == [0.25] * 4 and buckets[1] == (0.25, 0.5)
    rng = np.random.RandomState(0)
    try:
        import scipy  # noqa: F401
    except ImportError:
        return
    verify_generator(lambda n: rng.uniform(size=n), buckets, probs, nsamples=20000)


def _arg_shapes(sym, **kw):
    arg, _, _ = sym.infer_shape(**kw)
    return dict(zip(sym.list_arguments(), arg))


def test_partial_shapes_combine_across_elementwise_ops():
    a = mx.sym.Variable("a", shape=(0, 10))
    b = mx.sym.Variable("b", shape=(12, 0))
    assert _arg_shapes(a + b) == {"a": (12, 10), "b": (12, 10)}


def test_partial_shapes_flow_through_fc_concat_and_slice():
    a = mx.sym.Variable("a", shape=(0, 10))
    d = mx.sym.FullyConnected(a, num_hidden=21, name="fc") + mx.sym.Variable("c", shape=(5, 0))
    got = _arg_shapes(d)
    assert got["a"] == (5, 10) and got["c"] == (5, 21)
    x, y = mx.sym.Variable("x", shape=(0, 10)), mx.sym.Variable("y", shape=(0, 5))
    e = mx.sym.Variable("e", shape=(2, 0)) + mx.sym.Concat(x, y, num_args=2, dim=1)
    assert _arg_shapes(e) == {"e": (2, 15), "x": (2, 10), "y": (2, 5)}
    s = mx.sym.SliceChannel(
        mx.sym.Variable("s", shape=(0, 10)), num_outputs=10, axis=1, squeeze_axis=True
    )
    assert _arg_shapes(s[1] + mx.sym.Variable("t", shape=(5,)))["s"] == (5, 10)


def test_broadcast_op_does_not_copy_shapes_between_inputs():
    w = mx.sym.Variable("weight")
    wt = mx.sym.broadcast_add(w, mx.sym.Variable("wshift", shape=(1,)))
    wt = mx.symbol._internal._identity_with_attr_like_rhs(wt, w)
    net = mx.sym.FullyConnected(mx.sym.Variable("data"), weight=wt, num_hidden=11, no_bias=True)
    assert _arg_shapes(net, data=(7, 100))["weight"] == (11, 100)
