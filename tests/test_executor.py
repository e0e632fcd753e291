"""Executor: bind/simple_bind, grad_req, reshape, copy_params_from, monitor, group2ctx."""

import numpy as np
import pytest
import torch

import mxnet as mx
import mxnet.symbol as sym
from mxnet._op import has_op
from mxnet.base import MXNetError
from mxnet.executor import _graph_callable

needs_fc = pytest.mark.skipif(not has_op("FullyConnected"), reason="FullyConnected missing")


def _fc():
    x, w = sym.Variable("x"), sym.Variable("w")
    return sym.FullyConnected(x, weight=w, num_hidden=2, no_bias=True, name="fc")


@needs_fc
def test_simple_bind_dicts_and_grad_req_dict():
    y = _fc()
    ex = y.simple_bind(mx.cpu(), x=(3, 4), grad_req={"x": "null", "w": "write"})
    assert ex.grad_arrays[0] is None and ex.grad_arrays[1].shape == (2, 4)
    assert list(ex.grad_dict) == ["x", "w"] and list(ex.output_dict) == ["fc_output"]
    assert ex.outputs[0].shape == (3, 2)
    ex.arg_dict["x"][:] = 1
    ex.arg_dict["w"][:] = 2
    out = ex.forward(is_train=True)
    np.testing.assert_allclose(out[0].asnumpy(), np.full((3, 2), 8.0))
    ex.backward(mx.nd.ones((3, 2)))
    np.testing.assert_allclose(ex.grad_dict["w"].asnumpy(), np.full((2, 4), 3.0))


@needs_fc
def test_bind_errors():
    y = _fc()
    with pytest.raises(MXNetError):
        y.bind(mx.cpu(), {"x": mx.nd.ones((3, 4)), "w": mx.nd.ones((5, 5))})
    with pytest.raises(ValueError, match="key `w` is missing in `args`"):
        y.bind(mx.cpu(), {"x": mx.nd.ones((3, 4))})
    with pytest.raises(ValueError, match="Length of args does not match"):
        y.bind(mx.cpu(), [mx.nd.ones((3, 4))])
    ex = y.bind(mx.cpu(), {"x": mx.nd.ones((3, 4)), "w": mx.nd.ones((2, 4))})
    assert ex.grad_arrays is None
    np.testing.assert_allclose(ex.forward()[0].asnumpy(), np.full((3, 2), 4.0))
    with pytest.raises(TypeError):  # MXNet 1.9.1: TypeError('Unknown argument z')
        ex.forward(z=mx.nd.ones((1,)))
    with pytest.raises(MXNetError):
        y.simple_bind(mx.cpu())


def test_grad_req_add_and_null():
    x = sym.Variable("x")
    y = x * x
    xs = mx.nd.array([1.0, 2.0, 3.0])
    g = mx.nd.zeros((3,))
    ex = y.bind(mx.cpu(), {"x": xs}, args_grad={"x": g}, grad_req="add")
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones((3,)))
    np.testing.assert_allclose(g.asnumpy(), [4.0, 8.0, 12.0])
    ex = y.bind(mx.cpu(), {"x": xs}, args_grad={"x": g}, grad_req="write")
    ex.forward(is_train=True, x=mx.nd.array([5.0, 5.0, 5.0]))
    ex.backward(mx.nd.ones((3,)))
    np.testing.assert_allclose(g.asnumpy(), [10.0, 10.0, 10.0])
    ex = y.bind(mx.cpu(), {"x": xs}, args_grad={"x": g}, grad_req="null")
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((3,)))
    np.testing.assert_allclose(g.asnumpy(), [10.0, 10.0, 10.0])


def test_eval_outputs_persist_and_group():
    a, b = sym.Variable("a"), sym.Variable("b")
    g = sym.Group([a + b, a * b])
    outs = g.eval(a=mx.nd.ones((2,)), b=mx.nd.full((2,), 3.0))
    assert [o.asnumpy().tolist() for o in outs] == [[4.0, 4.0], [3.0, 3.0]]
    ex = g.bind(mx.cpu(), {"a": mx.nd.ones((2,)), "b": mx.nd.ones((2,))})
    first = ex.outputs[0]
    ex.forward(a=mx.nd.full((2,), 2.0))
    assert first is ex.outputs[0] and first.asnumpy().tolist() == [3.0, 3.0]


@needs_fc
def test_reshape_and_copy_params():
    y = _fc()
    ex = y.simple_bind(mx.cpu(), x=(4, 4))
    ex.copy_params_from({"w": mx.nd.ones((2, 4))})
    with pytest.raises(ValueError, match='Find name "zz" that is not in the arguments'):
        ex.copy_params_from({"zz": mx.nd.ones((1,))})
    ex.copy_params_from({"zz": mx.nd.ones((1,))}, allow_extra_params=True)
    ex2 = ex.reshape(x=(2, 4))
    assert ex2.arg_dict["w"] is ex.arg_dict["w"]
    ex2.arg_dict["x"][:] = 1
    assert ex2.forward()[0].asnumpy().tolist() == [[4.0, 4.0], [4.0, 4.0]]
    with pytest.raises(mx.MXNetError, match="larger than original"):  # MXNet 1.9.1's type
        ex.reshape(x=(8, 4))
    assert ex.reshape(allow_up_sizing=True, x=(8, 4)).forward()[0].shape == (8, 2)


@needs_fc
def test_monitor_callback():
    d = sym.Variable("data")
    f = sym.FullyConnected(d, num_hidden=3, name="fc")
    a = sym.exp(f, name="act")
    ex = a.simple_bind(mx.cpu(), data=(2, 4))
    seen = []
    ex.set_monitor_callback(lambda n, arr: seen.append((n, arr.shape)))
    ex.forward()
    # names are bytes, as MXNet's C callback passes them
    assert seen == [(b"fc_output", (2, 3)), (b"act_output", (2, 3))]
    seen.clear()
    ex.set_monitor_callback(lambda n, arr: seen.append(n.decode()), monitor_all=True)
    ex.forward()
    # MXNet 1.9.1's order: each variable just before the input it feeds, unnamed inputs of
    # element-wise operators as input0
    assert seen == [
        "data",
        "fc_data",
        "fc_weight",
        "fc_weight",
        "fc_bias",
        "fc_bias",
        "fc_output",
        "act_input0",
        "act_output",
    ]


def test_monitor_callback_handle_round_trip():
    # MXNet 1.9.1 callbacks rebuild the array from its C handle; ours passes for one
    import ctypes

    from mxnet.base import NDArrayHandle, py_str
    from mxnet.ndarray import NDArray

    x = sym.Variable("x")
    ex = sym.exp(x, name="e").bind(mx.cpu(), args={"x": mx.nd.array([0.0, 0.0])})
    got = []

    def cb(name, arr):
        got.append((py_str(name), NDArray(ctypes.cast(arr, NDArrayHandle), writable=False)))

    ex.set_monitor_callback(cb)
    ex.forward()
    assert [n for n, _ in got] == ["e_output"]
    assert got[0][1].asnumpy().tolist() == [1.0, 1.0]
    mon = mx.mon.Monitor(1, pattern=".*")
    mon.install(ex)
    mon.tic()
    ex.forward()
    assert [(k, n) for k, n, _ in mon.toc()] == [(1, "e_output"), (1, "x")]
    with pytest.raises(MXNetError):
        NDArray(ctypes.c_void_p(12345))


def test_group2ctx_model_parallel():
    import mxnet.attribute as attribute

    with attribute.AttrScope(ctx_group="dev1"):
        a = sym.Variable("a")
        b = sym.exp(a)
    with attribute.AttrScope(ctx_group="dev2"):
        c = b * 2
    ex = c.simple_bind(mx.cpu(0), group2ctx={"dev1": mx.cpu(1), "dev2": mx.cpu(2)}, a=(3,))
    assert ex.arg_dict["a"].context == mx.cpu(1)
    ex.arg_dict["a"][:] = 0
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((3,)))
    assert ex.outputs[0].asnumpy().tolist() == [2.0, 2.0, 2.0]
    assert ex.grad_dict["a"].asnumpy().tolist() == [2.0, 2.0, 2.0]
    # MXNet 1.9.1: each output lives on the device of the ctx_group that computed it
    assert ex.outputs[0].context == mx.cpu(2)


def test_group2ctx_output_contexts_bind():
    import mxnet.attribute as attribute

    with attribute.AttrScope(ctx_group="dev1"):
        a = sym.Variable("a")
        b = a * 2
    with attribute.AttrScope(ctx_group="dev2"):
        c = b + sym.Variable("w")
    g = sym.Group([c, b, b + 1])
    args = {"a": mx.nd.ones(2, ctx=mx.cpu(1)), "w": mx.nd.ones(2, ctx=mx.cpu(2))}
    ex = g.bind(mx.cpu(0), args=args, group2ctx={"dev1": mx.cpu(1), "dev2": mx.cpu(2)})
    outs = ex.forward()
    assert [o.context for o in outs] == [mx.cpu(2), mx.cpu(1), mx.cpu(0)]
    assert [o.asnumpy().tolist() for o in outs] == [[3.0, 3.0], [2.0, 2.0], [3.0, 3.0]]
    # without group2ctx everything stays on the bind context
    ex = g.bind(mx.cpu(3), args=args)
    assert [o.context for o in ex.forward()] == [mx.cpu(3)] * 3


def test_graph_callable_contract():
    x, y = sym.Variable("x"), sym.Variable("y")
    s = sym.Group([sym.exp(x) * y, x + y])
    fn, ins, aux = _graph_callable(s)
    assert ins == ["x", "y"] and aux == []
    tx = torch.tensor([0.0, 1.0], requires_grad=True)
    ty = torch.tensor([2.0, 3.0])
    outs = fn([tx, ty], [], False)
    assert len(outs) == 2
    outs[0].sum().backward()
    np.testing.assert_allclose(tx.grad.numpy(), (np.exp([0.0, 1.0]) * [2.0, 3.0]), rtol=1e-6)


@pytest.mark.skipif(not has_op("BatchNorm"), reason="BatchNorm missing")
def test_batchnorm_aux_only_updated_in_training():
    d = sym.Variable("data")
    bn = sym.BatchNorm(d, name="bn", fix_gamma=False)
    ex = bn.simple_bind(mx.cpu(), data=(4, 2))
    ex.arg_dict["data"][:] = mx.nd.array(np.arange(8).reshape(4, 2))
    ex.arg_dict["bn_gamma"][:] = 1
    ex.aux_dict["bn_moving_var"][:] = 1
    ex.forward(is_train=False)
    assert ex.aux_dict["bn_moving_mean"].asnumpy().tolist() == [0.0, 0.0]
    ex.forward(is_train=True)  # MXNet 1.9.1 moves them in the backward pass
    assert ex.aux_dict["bn_moving_mean"].asnumpy().tolist() == [0.0, 0.0]
    ex.backward(mx.nd.ones((4, 2)))
    np.testing.assert_allclose(ex.aux_dict["bn_moving_mean"].asnumpy(), [0.3, 0.4], rtol=1e-6)
    frozen = bn.simple_bind(mx.cpu(), data=(4, 2), grad_req="null")
    frozen.arg_dict["data"][:] = mx.nd.array(np.arange(8).reshape(4, 2))
    frozen.forward(is_train=True)  # no backward pass at all: never moved
    assert frozen.aux_dict["bn_moving_mean"].asnumpy().tolist() == [0.0, 0.0]


def test_compile_switch_runs():
    x = sym.Variable("x")
    ex = (sym.exp(x) + x).simple_bind(mx.cpu(), compile=True, x=(3,))
    ex.arg_dict["x"][:] = 0
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((3,)))
    assert ex.outputs[0].asnumpy().tolist() == [1.0, 1.0, 1.0]
    assert ex.grad_dict["x"].asnumpy().tolist() == [2.0, 2.0, 2.0]


def test_compile_switch_runs_a_pooled_conv_net_like_eager():
    # max pooling runs through oneDNN tensors in eager mode; traced graphs must not (torch's
    # fake oneDNN tensors carry wrong strides: the next convolution failed to compile)
    d = sym.Variable("data")
    net = sym.Convolution(d, kernel=(3, 3), num_filter=4, name="c1")
    net = sym.Pooling(
        sym.Activation(net, act_type="tanh"), kernel=(2, 2), stride=(2, 2), pool_type="max"
    )
    net = sym.Convolution(net, kernel=(2, 2), num_filter=3, name="c2")
    rng = np.random.RandomState(0)
    vals = {
        "data": rng.rand(2, 1, 10, 10),
        "c1_weight": rng.rand(4, 1, 3, 3) - 0.5,
        "c1_bias": rng.rand(4),
        "c2_weight": rng.rand(3, 4, 2, 2) - 0.5,
        "c2_bias": rng.rand(3),
    }
    res = []
    for comp in (False, True):
        ex = net.simple_bind(mx.cpu(), compile=comp, data=(2, 1, 10, 10))
        for k, v in vals.items():
            ex.arg_dict[k][:] = v
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones((2, 3, 3, 3)))
        res.append((ex.outputs[0].asnumpy(), ex.grad_dict["c1_weight"].asnumpy()))
    for a, b in zip(*res):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_runtime_error_names_node():
    a, b = sym.Variable("a"), sym.Variable("b")
    s = sym.elemwise_add(a, b, name="adder")
    with pytest.raises(MXNetError, match="adder"):
        s.bind(mx.cpu(), {"a": mx.nd.ones((2,)), "b": mx.nd.ones((3,))}).forward()


def test_backward_after_inference_forward_and_unknown_infer_key():
    x = sym.Variable("data")
    s = sym.exp(x)
    ex = s.simple_bind(mx.cpu(), data=(2,))
    ex.forward(is_train=False)
    ex.backward(mx.nd.ones((2,)))
    assert ex.grad_dict["data"].asnumpy().tolist() == [1.0, 1.0]
    with pytest.raises(MXNetError, match="InferShapeKeyword argument name foo not found"):
        s.infer_shape(foo=(1,))
    with pytest.raises(ValueError, match="either by positional or kwargs"):
        s.infer_shape((1,), data=(2,))


def test_simple_bind_shared_exec_and_buffer():
    x = sym.Variable("x")
    w = sym.Variable("w")
    s = x * w
    buf = {}
    ex1 = s.simple_bind(mx.cpu(), shared_buffer=buf, x=(2,), w=(2,))
    assert set(buf) == {"x", "w"} and buf["x"] is ex1.arg_dict["x"]
    ex2 = s.simple_bind(mx.cpu(), shared_arg_names=["w"], shared_exec=ex1, x=(2,), w=(2,))
    assert ex2.arg_dict["w"] is ex1.arg_dict["w"] and ex2.arg_dict["x"] is not ex1.arg_dict["x"]
    ex3 = s.simple_bind(mx.cpu(), shared_buffer=buf, x=(2,), w=(2,))
    assert ex3.arg_dict["x"] is buf["x"]


@pytest.mark.skipif(not has_op("Convolution"), reason="Convolution missing")
def test_channels_last_switch_gives_same_numbers(monkeypatch):
    from mxnet._executor import _program

    monkeypatch.setattr(_program, "CHANNELS_LAST_MIN_CONVS", 1)  # engage on one conv
    monkeypatch.setattr(_program, "_CHANNELS_LAST_MIN_PIXELS", 1)  # ... and small images
    x = sym.Variable("x")
    c = sym.Convolution(x, kernel=(3, 3), num_filter=4, pad=(1, 1), name="c")
    s = sym.exp(c) * 0.5
    rng = np.random.RandomState(0)
    vals = {
        "x": rng.normal(size=(2, 3, 5, 5)),
        "c_weight": rng.normal(size=(4, 3, 3, 3)),
        "c_bias": rng.normal(size=(4,)),
    }
    res = []
    for flag in ("1", "0"):
        monkeypatch.setenv("MXNET_NG_CHANNELS_LAST", flag)
        ex = s.simple_bind(mx.cpu(), x=(2, 3, 5, 5))
        assert bool(ex._prog.cl_inputs) == (flag == "1")
        for k, v in vals.items():
            ex.arg_dict[k][:] = v
        out = ex.forward(is_train=True)[0]
        assert out._t.is_contiguous()
        ex.backward(mx.nd.ones(out.shape))
        res.append((out.asnumpy(), ex.grad_dict["c_weight"].asnumpy(), ex.grad_dict["x"].asnumpy()))
    for a, b in zip(*res):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_channels_last_only_for_deep_conv_graphs():
    """Shallow conv graphs (LeNet) stay NCHW: the layout copies cost more than they save."""
    from mxnet._executor import _program

    x = sym.Variable("x")
    shallow = sym.Convolution(x, kernel=(3, 3), num_filter=4, name="c0")
    deep = x
    for i in range(_program.CHANNELS_LAST_MIN_CONVS):
        deep = sym.Convolution(deep, kernel=(3, 3), num_filter=4, pad=(1, 1), name=f"d{i}")
    assert not shallow.simple_bind(mx.cpu(), x=(1, 3, 8, 8))._prog.cl_inputs
    assert deep.simple_bind(mx.cpu(), x=(1, 3, 8, 8))._prog.cl_inputs


def test_channels_last_for_large_images_or_grouped_convolutions(monkeypatch):
    """Deep dense conv graphs convert to channels-last only for images of 64x64 pixels or
    more (ResNet-18 at 32x32 trained 0.78x in it); graphs with grouped convolutions always
    (MobileNet at 32x32: 1.45x)."""
    from mxnet._executor import _program

    x = sym.Variable("x")
    dense, grouped = x, x
    for i in range(_program.CHANNELS_LAST_MIN_CONVS):
        dense = sym.Convolution(dense, kernel=(3, 3), num_filter=4, pad=(1, 1), name=f"d{i}")
        grouped = sym.Convolution(
            grouped, kernel=(3, 3), num_filter=4, pad=(1, 1), num_group=2 if i else 1, name=f"g{i}"
        )
    seen = []
    real = _program.Program._to_channels_last

    def spy(self, inputs):
        out = real(self, inputs)
        seen.append(
            out[0].is_contiguous(memory_format=torch.channels_last) and not out[0].is_contiguous()
        )
        return out

    monkeypatch.setattr(_program.Program, "_to_channels_last", spy)
    for net, size, want in ((dense, 8, False), (dense, 64, True), (grouped, 8, True)):
        ex = net.simple_bind(mx.cpu(), x=(2, 4, size, size))
        ex.arg_dict["x"][:] = 1
        out = ex.forward(is_train=True)[0]
        assert out._t.is_contiguous()
        assert seen[-1] == want, (size, want)


def test_training_forward_releases_the_last_graph_first():
    """The graph kept for repeated backward calls (and its saved activations) is dropped
    when the next forward starts, not when it ends: a training step's peak memory holds one
    step's activations, not two. Repeated backward after one forward still works."""
    import gc
    import weakref

    x = mx.sym.Variable("data")
    net = mx.sym.Activation(mx.sym.FullyConnected(x, num_hidden=8, name="fc"), act_type="tanh")
    ex = net.simple_bind(mx.cpu(), data=(4, 5), grad_req="add")
    for arr in ex.arg_arrays:
        arr[:] = np.random.RandomState(0).uniform(-1, 1, arr.shape)
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((4, 8)))
    ex.backward(mx.nd.ones((4, 8)))  # twice: the graph is kept between backward calls
    once = ex.grad_dict["fc_bias"].asnumpy()
    np.testing.assert_allclose(once, 2 * (1 - ex.outputs[0].asnumpy() ** 2).sum(0), rtol=1e-5)
    old = weakref.ref(ex._out_t[0])
    seen = []
    run = ex._prog.run

    def watch(*a, **k):
        gc.collect()
        seen.append(old() is None)
        return run(*a, **k)

    ex._prog.run = watch
    ex.forward(is_train=True)
    assert seen == [True]


def test_forward_keyword_and_backward_head_gradient_checks():
    # MXNet 1.9.1: unknown name TypeError, wrong shape / non-array ValueError,
    # non-NDArray head gradients TypeError, a wrong-shaped head gradient MXNetError
    a = mx.sym.Variable("a")
    ex = (a * 2).simple_bind(mx.cpu(), a=(3,))
    with pytest.raises(TypeError, match="Unknown argument b"):
        ex.forward(b=mx.nd.ones(3))
    with pytest.raises(
        ValueError, match=r"Shape not match! Argument a, need: \(3,\), received: \(4,\)"
    ):
        ex.forward(a=mx.nd.ones(4))
    with pytest.raises(ValueError, match="only accept keyword argument of NDArrays"):
        ex.forward(a=[1, 2, 3])
    assert ex.forward(is_train=True, a=np.ones(3))[0].asnumpy().tolist() == [2, 2, 2]
    with pytest.raises(TypeError, match="inputs must be NDArray"):
        ex.backward(np.ones(3))
    with pytest.raises(mx.MXNetError):
        ex.backward(mx.nd.ones(4))
    ex.backward(mx.nd.ones(3))
    assert ex.grad_dict["a"].asnumpy().tolist() == [2, 2, 2]


def test_binding_a_graph_with_duplicate_input_names_fails():
    # MXNet 1.9.1 refuses (two variables 'a', two layers named 'fc'); binding one array to
    # both would be a silent wrong answer
    a1, a2 = mx.sym.var("a"), mx.sym.var("a")
    s = a1 + a2
    with pytest.raises(MXNetError, match="several input variables named \\['a'\\]"):
        s.simple_bind(mx.cpu(), a=(2,))
    with pytest.raises(MXNetError):
        s.bind(mx.cpu(), [mx.nd.ones(2), mx.nd.ones(2)])
    fc = mx.sym.FullyConnected(
        mx.sym.FullyConnected(a1, num_hidden=2, name="fc"), num_hidden=2, name="fc"
    )
    with pytest.raises(MXNetError, match="fc_weight"):
        fc.simple_bind(mx.cpu(), a=(1, 3))
    assert (a1 + a1).simple_bind(mx.cpu(), a=(2,)).forward()[0].shape == (2,)
