"""mx.nd.contrib / mx.sym.contrib foreach, while_loop, cond (values checked with MXNet 1.9.1)."""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon

nd = mx.nd
GOLDEN = os.path.join(os.path.dirname(__file__), "compat", "golden", "control_flow")


def test_foreach_single_and_list():
    outs, last = nd.contrib.foreach(
        lambda d, s: (d + s, d + s), nd.arange(6).reshape((3, 2)), nd.zeros((2,))
    )
    assert outs.shape == (3, 2)
    np.testing.assert_allclose(outs.asnumpy(), [[0, 1], [2, 4], [6, 9]])
    np.testing.assert_allclose(last.asnumpy(), [6, 9])
    outs, st = nd.contrib.foreach(
        lambda d, s: ([d[0] + s[0], d[1]], [d[0] + s[0]]),
        [nd.arange(6).reshape((3, 2)), nd.ones((3, 1))],
        [nd.zeros((2,))],
    )
    assert isinstance(outs, list) and isinstance(st, list) and len(outs) == 2
    assert outs[1].shape == (3, 1)
    np.testing.assert_allclose(st[0].asnumpy(), [6, 9])


def test_foreach_autograd():
    x = nd.array([1.0, 2.0])
    x.attach_grad()
    with mx.autograd.record():
        o, s = nd.contrib.foreach(lambda d, s: (d * s, d * s), nd.ones((3, 2)), x)
        (o.sum() + s.sum()).backward()
    np.testing.assert_allclose(x.grad.asnumpy(), [4, 4])


def test_while_loop_padding_and_forms():
    outs, vars_ = nd.contrib.while_loop(
        lambda i, s: i < 3,
        lambda i, s: ([i * 2, s], [i + 1, s + i]),
        [nd.array([0]), nd.array([1])],
        max_iterations=5,
    )
    assert [o.shape for o in outs] == [(5, 1), (5, 1)]
    np.testing.assert_allclose(outs[0].asnumpy()[:3, 0], [0, 2, 4])
    np.testing.assert_allclose(outs[1].asnumpy()[:3, 0], [1, 1, 2])
    assert [v.asscalar() for v in vars_] == [3, 4]
    out, i = nd.contrib.while_loop(
        lambda i: i < 3, lambda i: (i * 2, i + 1), nd.array([0]), max_iterations=4
    )
    assert isinstance(i, nd.NDArray) and i.asscalar() == 3 and out.shape == (4, 1)
    out, i = nd.contrib.while_loop(
        lambda i: i < 0, lambda i: (i * 2, i + 1), nd.array([0]), max_iterations=4
    )
    assert out == [] and i.asscalar() == 0
    out, v = nd.contrib.while_loop(
        lambda i: i < 5, lambda i: (None, i + 1), [nd.array([0])], max_iterations=4
    )
    assert out == [] and v[0].asscalar() == 4
    with pytest.raises(ValueError, match="max_iterations"):
        nd.contrib.while_loop(lambda i: i < 5, lambda i: (None, i + 1), [nd.array([0])])


def test_cond():
    r = nd.contrib.cond(nd.array([0]), lambda: nd.ones(2), lambda: [nd.zeros(1)])
    assert isinstance(r, list) and r[0].shape == (1,)
    assert nd.contrib.cond(nd.array([2]), lambda: nd.ones(2), lambda: 0).shape == (2,)


def _while_sym():
    i, s, w = mx.sym.var("i"), mx.sym.var("s"), mx.sym.var("w")
    with mx.name.NameManager():
        outs, vars_ = mx.sym.contrib.while_loop(
            lambda i, s: i < 3, lambda i, s: ([i * w, s], [i + 1, s + i]), [i, s], max_iterations=5
        )
    assert isinstance(outs, list) and isinstance(vars_, list)
    return mx.sym.Group(outs + vars_)


def test_symbolic_while_loop_matches_mxnet():
    gold = np.load(os.path.join(GOLDEN, "while.npz"))
    g = _while_sym()
    assert g.list_arguments() == ["i", "w", "s"]
    assert g.list_outputs() == [f"_while_loop0_output{k}" for k in range(4)]
    _, outs, _ = g.infer_shape(i=(1,), s=(1,), w=(1,))
    assert outs == [(5, 1), (5, 1), (1,), (1,)]
    args = {"i": nd.array([0]), "s": nd.array([1]), "w": nd.array([2])}
    for sym in (
        g,
        mx.sym.load_json(g.tojson()),
        mx.sym.load(os.path.join(GOLDEN, "while-symbol.json")),
    ):
        res = [o.asnumpy() for o in sym.bind(mx.cpu(), args).forward()]
        for k in range(2):
            np.testing.assert_allclose(res[k][:3], gold[f"out{k}"])
            np.testing.assert_allclose(res[k][3:], 0)  # padding (uninitialised in MXNet)
        np.testing.assert_allclose(res[2], gold["out2"])
        np.testing.assert_allclose(res[3], gold["out3"])
    with pytest.raises(ValueError, match="max_iterations"):
        mx.sym.contrib.while_loop(lambda i: i < 3, lambda i: (i, i + 1), [mx.sym.var("i")])


def test_symbolic_cond_matches_mxnet_and_gradient():
    gold = np.load(os.path.join(GOLDEN, "cond.npz"))
    a, b, w = mx.sym.var("a"), mx.sym.var("b"), mx.sym.var("w")
    r = mx.sym.contrib.cond(a > b, lambda: a * w, lambda: [b - a])
    assert isinstance(r, mx.sym.Symbol) and r.list_arguments() == ["a", "b", "w"]
    for sym in (
        r,
        mx.sym.load_json(r.tojson()),
        mx.sym.load(os.path.join(GOLDEN, "cond-symbol.json")),
    ):
        for av, key in ((1, "small"), (4, "big")):
            ex = sym.bind(mx.cpu(), {"a": nd.array([av]), "b": nd.array([3]), "w": nd.array([5])})
            np.testing.assert_allclose(ex.forward()[0].asnumpy(), gold[key])
    ex = r.simple_bind(mx.cpu(), a=(1,), b=(1,), w=(1,))
    ex.forward(is_train=True, a=nd.array([4]), b=nd.array([3]), w=nd.array([5]))
    ex.backward(nd.ones((1,)))
    assert ex.grad_dict["a"].asscalar() == 5 and ex.grad_dict["w"].asscalar() == 4
    with pytest.raises(ValueError, match="outputs"):
        mx.sym.contrib.cond(a > b, lambda: [a, b], lambda: a)


def _body(d, s):
    out = d * s[0] + mx.sym.var("w")
    return out, [out * 2]


def _args():
    return {"data": nd.arange(6).reshape((3, 2)), "init": nd.ones((2,)), "w": nd.ones((2,))}


def test_symbolic_foreach_matches_mxnet_and_json_roundtrip():
    gold = np.load(os.path.join(GOLDEN, "foreach.npz"))
    outs, states = mx.sym.contrib.foreach(_body, mx.sym.var("data"), [mx.sym.var("init")])
    g = mx.sym.Group([outs] + states)
    assert g.list_arguments() == ["data", "init", "w"]
    assert '"subgraphs"' in g.tojson()
    for sym in (
        g,
        mx.sym.load_json(g.tojson()),
        mx.sym.load(os.path.join(GOLDEN, "foreach-symbol.json")),
    ):
        res = sym.bind(mx.cpu(), _args()).forward()
        np.testing.assert_allclose(res[0].asnumpy(), gold["out0"])
        np.testing.assert_allclose(res[1].asnumpy(), gold["out1"])


class _Net(gluon.HybridBlock):
    def __init__(self, **kw):
        super().__init__(**kw)
        with self.name_scope():
            self.fc = gluon.nn.Dense(3, flatten=False)

    def hybrid_forward(self, F, x, h):
        def step(d, s):
            o = F.tanh(self.fc(d) + s[0])
            return o, [o]

        outs, st = F.contrib.foreach(step, x, [h])
        return outs, st[0]


def test_hybridized_foreach_matches_eager():
    mx.random.seed(1)
    net = _Net()
    net.initialize(mx.init.Xavier())
    x = nd.random.uniform(shape=(4, 2, 5))
    h = nd.zeros((2, 3))
    with mx.autograd.record():
        a = net(x, h)
        a[0].sum().backward()
    ga = net.fc.weight.grad().copy()
    net.hybridize()
    with mx.autograd.record():
        b = net(x, h)
        b[0].sum().backward()
    for u, v in zip(a, b):
        np.testing.assert_allclose(u.asnumpy(), v.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ga.asnumpy(), net.fc.weight.grad().asnumpy(), rtol=1e-5)
    fresh = _Net()
    fresh.hybridize()
    fresh.initialize()  # deferred init: weight shape from the loop body
    assert fresh(x, h)[0].shape == (4, 2, 3)


def test_foreach_unused_state_or_data_is_assertion_error():
    x, h, w = mx.sym.var("x"), mx.sym.var("h"), mx.sym.var("w")
    with pytest.raises(AssertionError, match="state arrays have to be used"):
        mx.sym.contrib.foreach(lambda d, s: (d, [w]), x, [h])
    with pytest.raises(AssertionError, match="data arrays have to be used"):
        mx.sym.contrib.foreach(lambda d, s: (s[0] + 1, [s[0]]), x, [h])
    with pytest.raises(AssertionError, match="different format"):
        mx.sym.contrib.foreach(lambda d, s: (d, [s[0] + 1, s[0] + 2]), x, [h])


def test_foreach_symbolic_1d_sequence_steps_have_shape_1():
    seq = nd.arange(3)
    o, s = mx.sym.contrib.foreach(
        lambda d, st: ([d * st[0]], [st[0] * 2]), mx.sym.var("a"), [mx.sym.var("b")]
    )
    ex = mx.sym.Group(o + s).bind(mx.cpu(), {"a": seq, "b": nd.ones((1,)) * 2})
    out, last = ex.forward()
    assert out.shape == (3, 1)
    np.testing.assert_allclose(out.asnumpy().ravel(), [0, 4, 16])
    np.testing.assert_allclose(last.asnumpy(), [16])


def test_subgraph_names_counted_in_attrscope():
    from collections import defaultdict

    mx.AttrScope._subgraph_names = defaultdict(int)
    a = mx.sym.var("a")
    for _ in range(2):
        mx.sym.contrib.cond(a > 0.5, lambda: a * 2, lambda: a * 3, name="my_cond")
    names = mx.AttrScope._subgraph_names
    assert dict(names) == {"my_cond_pred": 2, "my_cond_then": 2, "my_cond_else": 2}
    out, _ = mx.sym.contrib.while_loop(
        lambda i: i < 3, lambda i: (i, [i + 1]), [a], max_iterations=4
    )
    assert names["while_loop_cond"] == 1 and names["while_loop_func"] == 1
    node = [n for n in json.loads(out.tojson())["nodes"] if n["op"] == "_while_loop"][0]
    sub_attrs = [m.get("attrs", {}) for g in node["subgraphs"] for m in g["nodes"]]
    assert {a.get("__subgraph_name__") for a in sub_attrs} >= {
        "while_loop_cond0",
        "while_loop_func0",
    }


def test_tojson_matches_mxnet_byte_for_byte():
    """foreach (nested), while_loop and cond: placeholders ``a-0``, subgraph attributes,
    identity copies and nested-object layout as MXNet 1.9.1 wrote this file."""
    from collections import defaultdict

    mx.AttrScope._subgraph_names = defaultdict(int)
    with mx.name.NameManager():
        a, b = mx.sym.var("a"), mx.sym.var("b")
        o, s = mx.sym.contrib.foreach(lambda x, st: (x + st[0], [st[0] * 2]), a, [b])
        w = mx.sym.contrib.while_loop(
            lambda i: i < 3, lambda i: (i * 2, [i + 1]), [b], max_iterations=4
        )
        c = mx.sym.contrib.cond(a.sum() > 0, lambda: a * 2, lambda: b - 1)

        def nested(x, st):
            oo, ss = mx.sym.contrib.foreach(lambda y, t: (y + t[0], [t[0]]), x, [st[0]])
            return oo, [ss[0] + 1]

        n = mx.sym.contrib.foreach(nested, a, [b])
        g = mx.sym.Group([o, s[0], w[0], w[1][0], c, n[0]])
    with open(os.path.join(GOLDEN, "nested-tojson-symbol.json")) as f:
        expected = f.read().rstrip("\n")
    assert g.tojson() == expected
    back = mx.sym.load_json(expected)
    assert back.tojson() == expected


def test_control_flow_error_messages_and_imperative_state_count():
    a = nd.arange(6).reshape((3, 2))
    with pytest.raises(ValueError, match="The current array is not a scalar"):
        nd.contrib.cond(nd.array([1, 0]), lambda: a, lambda: a * 2)
    # imperative foreach does not check how many states the body returns (as MXNet)
    _, states = nd.contrib.foreach(lambda x, st: (x, [st[0], st[0]]), a, [nd.zeros((2,))])
    assert len(states) == 2
    x, p = mx.sym.var("x"), mx.sym.var("p")
    with pytest.raises(ValueError, match="Number of outputs differs between then-branch"):
        mx.sym.contrib.cond(p, lambda: [x, x], lambda: x)
    with pytest.raises(ValueError, match="The number of loop_vars should be consistent"):
        mx.sym.contrib.while_loop(lambda i: i < 3, lambda i: (i, [i + 1, i]), [x], max_iterations=3)


def test_exported_body_uses_outer_results_as_inputs(tmp_path):
    """A cond branch reading a foreach result gets it as an input (MXNet's subgraph cut):
    the loop runs once, and the exported JSON is the one MXNet 1.9.1 wrote."""
    from collections import defaultdict

    class _Block(gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.d = gluon.nn.Dense(3, flatten=False, in_units=3)

        def hybrid_forward(self, F, x, h):
            def step(xt, st):
                o = self.d(xt) + st[0]
                return o, [o * 2]

            out, st = F.contrib.foreach(step, x, [h])
            c = F.contrib.cond(out.sum() > 0, lambda: out * 2, lambda: out - 1)
            return c, st[0]

    mx.AttrScope._subgraph_names = defaultdict(int)
    with mx.name.NameManager():
        net = _Block(prefix="l0_")
        net.initialize(mx.init.One())
        net.hybridize()
        c, s = net(nd.ones((4, 2, 3)), nd.ones((2, 3)))
        net.export(str(tmp_path / "m"))
    assert (c.sum().asscalar(), s.sum().asscalar()) == (1116.0, 636.0)
    with open(tmp_path / "m-symbol.json") as f:
        got = f.read()
    with open(os.path.join(GOLDEN, "hybrid-cut-symbol.json")) as f:
        assert got == f.read()
    cond = [n for n in json.loads(got)["nodes"] if n["op"] == "_cond"][0]
    for sub in cond["subgraphs"]:
        assert all(n["op"] != "_foreach" for n in sub["nodes"])
