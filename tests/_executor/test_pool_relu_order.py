"""relu -> max Pooling runs as Pooling -> relu in training graphs: identical numbers."""

import numpy as np
import pytest

import mxnet as mx
from mxnet._executor import _fuse


def _net(pool_kw):
    x = mx.sym.var("data")
    c = mx.sym.Convolution(x, kernel=(3, 3), num_filter=4, pad=(1, 1), name="c")
    r = mx.sym.Activation(c, act_type="relu", name="r")
    p = mx.sym.Pooling(r, pool_type="max", name="p", **pool_kw)
    return mx.sym.FullyConnected(mx.sym.relu(p), num_hidden=3, name="fc")


def _run(sym, monkeypatch, reorder):
    if not reorder:
        monkeypatch.setattr(_fuse, "pool_before_relu_steps", lambda steps, keep: None)
    rng = np.random.RandomState(1)
    args = {"data": mx.nd.array(rng.randn(2, 3, 6, 6)),
            "c_weight": mx.nd.array(rng.randn(4, 3, 3, 3) * 0.3),
            "c_bias": mx.nd.array([-5.0, 0.0, 0.2, -0.1])}  # channel 0: all negative
    ex = sym.simple_bind(mx.cpu(), data=(2, 3, 6, 6))
    for k, v in args.items():
        ex.arg_dict[k][:] = v
    ex.arg_dict["fc_weight"][:] = mx.nd.array(rng.randn(*ex.arg_dict["fc_weight"].shape))
    out = ex.forward(is_train=True)[0].asnumpy()
    ex.backward(mx.nd.ones(out.shape))
    return out, {k: v.asnumpy() for k, v in ex.grad_dict.items()}


@pytest.mark.parametrize("pool_kw", [dict(kernel=(2, 2), stride=(2, 2)),
                                     dict(kernel=(3, 3), stride=(2, 2), pad=(1, 1))])
def test_reordered_pool_relu_matches(pool_kw, monkeypatch):
    sym = _net(pool_kw)
    out, grads = _run(sym, monkeypatch, True)
    with monkeypatch.context() as m:
        ref_out, ref_grads = _run(sym, m, False)
    np.testing.assert_array_equal(out, ref_out)
    for k in ref_grads:
        np.testing.assert_array_equal(grads[k], ref_grads[k], err_msg=k)


def test_reorder_applies_only_to_sole_reader():
    prog_sym = _net(dict(kernel=(2, 2), stride=(2, 2)))
    from mxnet._executor._program import compile_program

    prog = compile_program(prog_sym)
    keep = set(range(len(prog.arg_names) + len(prog.aux_names))) | set(prog.heads)
    steps = _fuse.pool_before_relu_steps(prog.steps, keep)
    names = [st[5].op.name for st in steps]
    assert names.index("Pooling") < names.index("Activation")
    # a relu output read twice keeps its place
    x = mx.sym.var("data")
    r = mx.sym.relu(x)
    both = mx.sym.Group([mx.sym.Pooling(r, kernel=(2, 2), pool_type="max"), r * 2])
    prog2 = compile_program(both)
    keep2 = set(range(len(prog2.arg_names))) | set(prog2.heads)
    assert _fuse.pool_before_relu_steps(prog2.steps, keep2) is None
