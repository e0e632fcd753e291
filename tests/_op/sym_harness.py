"""Symbolic half of the per-operator record checks (called by ``harness.run_record``).

For a record: build ``mx.sym.<op>`` over variables, bind it with the record's inputs and
check that forward equals the imperative call, that the graph survives a JSON round trip
with the same result, and (``rec.grad``) that executor gradients equal autograd's.
"""

from __future__ import annotations

import numpy as np

import mxnet as mx
import mxnet.symbol as sym
from mxnet._op import get_op
from mxnet.ndarray._namespace import function_for as nd_function
from mxnet.symbol._namespace import function_for as sym_function

_RANDOM_HINTS = ("random", "sample", "Dropout", "shuffle")


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _build(rec):
    op = get_op(rec.op)
    fn = sym_function(rec.op)
    arrays = [np.asarray(x) for x in rec.inputs]
    if op.variadic is not None:
        names = [f"arg{i}" for i in range(len(arrays))]
        s = fn(*[sym.Variable(n) for n in names], **rec.params)
    else:
        names = list(op.input_slots[: len(arrays)])
        s = fn(*[sym.Variable(n) for n in names], **rec.params)
    return s, dict(zip(names, arrays))


def _bind(s, values: dict, grad: bool = False, float64: bool = False):
    args, grads, aux = {}, {}, {}
    for n in s.list_arguments():
        a = values[n]
        if float64 and a.dtype.kind == "f":
            a = a.astype(np.float64)
        args[n] = mx.nd.array(a, dtype=a.dtype)
        wanted = grad is True or (not isinstance(grad, bool) and n in grad)
        if wanted and a.dtype.kind == "f":  # ``grad``: True or the names that want one
            grads[n] = mx.nd.zeros(a.shape, dtype=a.dtype)
    for n in s.list_auxiliary_states():
        a = values[n]
        aux[n] = mx.nd.array(a, dtype=a.dtype)
    if grad:
        req = {n: ("write" if n in grads else "null") for n in args}
        return s.bind(mx.cpu(), args, args_grad=grads, grad_req=req, aux_states=aux)
    return s.bind(mx.cpu(), args, aux_states=aux)


def _close(a, b, rec, what):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, f"{rec.id}: {what}: shape {a.shape} != {b.shape}"
    if a.dtype == bool or b.dtype == bool:
        np.testing.assert_array_equal(a, b, err_msg=f"{rec.id}: {what}")
        return
    np.testing.assert_allclose(
        a.astype(np.float64),
        b.astype(np.float64),
        rtol=rec.rtol,
        atol=rec.atol,
        equal_nan=True,
        err_msg=f"{rec.id}: {what}",
    )


def check_symbolic(rec) -> None:
    """Bound symbol == imperative call; JSON round trip; executor grads == autograd."""
    op = get_op(rec.op)
    is_random = any(h in rec.op or h in op.name for h in _RANDOM_HINTS)
    s, values = _build(rec)
    nd_out = [
        o.asnumpy()
        for o in _as_list(
            nd_function(rec.op)(
                *[mx.nd.array(np.asarray(x), dtype=np.asarray(x).dtype) for x in rec.inputs],
                **rec.params,
            )
        )
    ]
    ex = _bind(s, values)
    outs = [o.asnumpy() for o in ex.forward(is_train=False)]
    assert len(outs) == len(nd_out), f"{rec.id}: {len(outs)} symbol outputs, nd {len(nd_out)}"
    for k, (a, b) in enumerate(zip(outs, nd_out)):
        if is_random:
            assert a.shape == b.shape, f"{rec.id}: output {k} shape"
        else:
            _close(a, b, rec, f"symbol output {k} vs nd")
    # JSON round trip
    js = s.tojson(remove_amp_cast=False)
    s2 = sym.load_json(js)
    assert s2.tojson(remove_amp_cast=False) == js, f"{rec.id}: JSON round trip changed the graph"
    assert s2.list_arguments() == s.list_arguments()
    assert s2.list_outputs() == s.list_outputs()
    outs2 = [o.asnumpy() for o in _bind(s2, values).forward(is_train=False)]
    for k, (a, b) in enumerate(zip(outs2, outs)):
        if is_random:
            assert a.shape == b.shape
        else:
            _close(a, b, rec, f"reloaded output {k}")
    if rec.grad and not is_random:
        _check_grad(rec, s, values)


def _check_grad(rec, s, values) -> None:
    fn = nd_function(rec.op)
    xs = [np.asarray(x) for x in rec.inputs]
    names = list(values)
    which = rec.grad_inputs
    if which is None:
        which = tuple(i for i, x in enumerate(xs) if x.dtype.kind == "f")
    nds = [mx.nd.array(x, dtype=np.float64 if i in which else x.dtype) for i, x in enumerate(xs)]
    for i in which:
        nds[i].attach_grad()
    with mx.autograd.record():
        out = _as_list(fn(*nds, **rec.params))[0]
    head = np.random.RandomState(0).uniform(-1, 1, out.shape)
    out.backward(mx.nd.array(head, dtype=out.dtype))
    f64 = {n: (v.astype(np.float64) if v.dtype.kind == "f" else v) for n, v in values.items()}
    # only the checked inputs ask for a gradient (Embedding's indices refuse one, as MXNet)
    ex = _bind(s, f64, grad={names[i] for i in which})
    ex.forward(is_train=True)
    heads = [mx.nd.array(head, dtype=ex.outputs[0].dtype)]
    heads += [mx.nd.zeros(o.shape, dtype=o.dtype) for o in ex.outputs[1:]]
    ex.backward(heads)
    gd = ex.grad_dict
    for i in which:
        n = names[i]
        if n in gd:
            _close(gd[n].asnumpy(), nds[i].grad.asnumpy(), rec, f"gradient of {n}")
