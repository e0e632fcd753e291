"""Symbol.infer_shape(_partial) under ``mx.np_shape()``: unknown dims are -1 and unknown
shapes None (MXNet 1.9.1), while the legacy form (0 / ``()``) stays outside it."""

import mxnet as mx


def test_np_shape_partial_inference_takes_and_reports_minus_one():
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    z = mx.sym.dot(x, y)
    with mx.np_shape(True):
        assert z.infer_shape_partial(x=(-1, 3, 4), y=(4, 5)) == (
            [(-1, 3, 4), (4, 5)],
            [(-1, 3, 5)],
            [],
        )
        assert z.infer_shape_partial(x=(-1, 3, 4)) == ([(-1, 3, 4), None], [None], [])
        assert z.infer_shape(x=(2, 3, 4), y=(4, 5))[1] == [(2, 3, 5)]
        p = mx.sym.pick(x, y, axis=1)
        assert p.infer_shape_partial(x=(-1, 3, 3), y=(-1, 3))[1] == [(-1, 3)]
    # legacy shapes outside the scope
    assert z.infer_shape_partial(x=(0, 3, 4)) == ([(0, 3, 4), ()], [()], [])


def test_np_shape_completely_unknown_is_none():
    ret = mx.sym.sin(mx.sym.var("data"))
    assert ret.infer_shape_partial()[:2] == ([()], [()])
    with mx.np_shape():
        assert ret.infer_shape_partial()[:2] == ([None], [None])


def test_np_shape_full_inference_with_unknown_dim_gives_nones():
    z = mx.sym.dot(mx.sym.Variable("x"), mx.sym.Variable("y"))
    with mx.np_shape():
        assert z.infer_shape(x=(-1, 3, 4), y=(4, 5)) == (None, None, None)


def test_np_shape_zero_size_dims_given_by_the_caller_are_real_sizes():
    x = mx.sym.var("x")
    fc = mx.sym.FullyConnected(x, num_hidden=2)
    with mx.np_shape(True):
        assert fc.infer_shape(x=(0, 3)) == ([(0, 3), (2, 3), (2,)], [(0, 2)], [])
        assert mx.sym.flatten(x).infer_shape(x=(2, 0, 3))[1] == [(2, 0)]
        assert (x + 1).infer_shape_partial(x=(0, 3))[1] == [(0, 3)]
    # outside np_shape a 0 is an unknown dim
    assert fc.infer_shape(x=(0, 3)) == (None, None, None)


def test_variable_shape_attr_zero_is_zero_size_under_np_shape():
    # MXNet 1.9.1 (mx.np_shape docstring): a 0 in a variable's own shape is a zero-size dim
    # under NumPy shape semantics, and an unknown dim in legacy mode
    with mx.np_shape(active=True):
        ret = mx.sym.sin(mx.sym.var("data", shape=(0, 2, 3)))
        assert ret.infer_shape() == ([(0, 2, 3)], [(0, 2, 3)], [])
        ret = mx.sym.sin(mx.sym.var("data", shape=(-1, 2, 3)))
        assert ret.infer_shape_partial() == ([(-1, 2, 3)], [(-1, 2, 3)], [])
    with mx.np_shape(active=False):
        ret = mx.sym.sin(mx.sym.var("data", shape=(0, 2, 3)))
        assert ret.infer_shape_partial() == ([(0, 2, 3)], [(0, 2, 3)], [])


def test_legacy_json_zero_dims_are_unknown_when_loaded_under_np_shape():
    # a graph saved without is_np_shape: its __shape__ 0s meant "unknown"; MXNet 1.9.1's loader
    # turns them into -1 when loading under np_shape, so FullyConnected completes the weight
    w = mx.sym.var("weight", shape=(128, 0))
    js = mx.sym.FullyConnected(mx.sym.var("data"), w, num_hidden=128).tojson()
    with mx.util.np_shape(True):
        net = mx.sym.load_json(js)
        assert net.attr_dict()["weight"]["__shape__"] == "[128,-1]"
        args, outs, _ = net.infer_shape(data=(10, 784))
    assert args[1] == (128, 784) and outs[0] == (10, 128)
    assert mx.sym.load_json(js).attr_dict()["weight"]["__shape__"] == "(128, 0)"
