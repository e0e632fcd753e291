"""Executor.get_optimized_symbol merges common subexpressions as MXNet 1.9.1 does."""

import mxnet as mx


def _optimized(sym, cse="1", **shapes):
    import os

    old = os.environ.get("MXNET_ELIMINATE_COMMON_EXPR")
    os.environ["MXNET_ELIMINATE_COMMON_EXPR"] = cse
    try:
        exe = sym.simple_bind(mx.cpu(), **shapes)
    finally:
        if old is None:
            del os.environ["MXNET_ELIMINATE_COMMON_EXPR"]
        else:
            os.environ["MXNET_ELIMINATE_COMMON_EXPR"] = old
    return exe.get_optimized_symbol()


def test_identical_nodes_are_merged():
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    s = (a + b) + (a + b)
    assert len(_optimized(s, a=(2, 3), b=(2, 3)).get_internals()) == 4
    assert len(_optimized(s, "0", a=(2, 3), b=(2, 3)).get_internals()) == 5
    # different attributes or random operators stay apart
    assert len(_optimized((a + 1) + (a + 2), a=(2, 3)).get_internals()) == 4
    assert len(_optimized(mx.sym.Dropout(a) + mx.sym.Dropout(a), a=(2, 3)).get_internals()) == 4


def test_outputs_made_equal_get_a_copy_but_repeated_outputs_do_not():
    a = mx.sym.Variable("a")
    d = a + 1
    m1, m2 = (mx.sym.elemwise_mul(a, d, name="m") for _ in range(2))
    opt = _optimized(mx.sym.Group([m1, m2]), a=(2, 3))
    assert opt.list_outputs() == ["m_output", "m_0_copy_output"]
    x = a * 2
    assert len(_optimized(mx.sym.Group([x, x]), a=(2, 3)).get_internals()) == 2
