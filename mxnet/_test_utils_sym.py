"""Symbolic test helpers (re-exported by ``mx.test_utils``).

``check_symbolic_forward``, ``check_symbolic_backward``, ``check_numeric_gradient``,
``check_consistency`` and ``simple_forward`` bind a Symbol and compare its outputs or
gradients with expectations, finite differences, or the same graph on other contexts and
dtypes.
"""

from __future__ import annotations

import numpy as np

from .context import Context, current_context
from .ndarray.ndarray import NDArray, array

__all__ = ["check_symbolic_forward", "check_symbolic_backward", "check_numeric_gradient",
           "check_consistency", "simple_forward"]

_RTOL = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-5}
_ATOL = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3, np.dtype(np.float64): 1e-20}
_EPS = {np.dtype(np.float16): 1.0 / 2 ** 6, np.dtype(np.float32): 1e-3,
        np.dtype(np.float64): 1e-5}


def _tol(value, table, dtype, default=0.0):
    if value is not None:
        return value
    if isinstance(dtype, str) and dtype == "asnumpy":
        dtype = np.float32
    return table.get(np.dtype(dtype), default)


def _dt(dtype, value):
    """``dtype``, or the dtype of ``value`` when ``dtype`` is MXNet's ``"asnumpy"``."""
    if isinstance(dtype, str) and dtype == "asnumpy":
        return _np(value).dtype
    return dtype


def _np(x):
    return x.asnumpy() if isinstance(x, NDArray) else np.asarray(x)


def _location(sym, location, ctx, dtype) -> dict:
    names = sym.list_arguments()
    if isinstance(location, dict):
        if set(location) != set(names):
            raise ValueError(f"Symbol arguments and keys of the given location do not match. "
                             f"symbol args:{names}, location.keys():{list(location)}")
    else:
        location = dict(zip(names, location))
    out = {}
    for k, v in location.items():
        if isinstance(v, NDArray):
            out[k] = v.as_in_context(ctx)
        else:
            out[k] = array(np.asarray(v), ctx=ctx, dtype=_dt(dtype, v))
    return out


def _aux(sym, aux_states, ctx, dtype):
    if aux_states is None:
        return None
    names = sym.list_auxiliary_states()
    if not isinstance(aux_states, dict):
        aux_states = dict(zip(names, aux_states))
    return {k: (v.as_in_context(ctx) if isinstance(v, NDArray)
                else array(np.asarray(v), ctx=ctx, dtype=_dt(dtype, v)))
            for k, v in aux_states.items()}


def _assert_close(a, b, rtol, atol, names=("a", "b"), equal_nan=False):
    a, b = _np(a), _np(b)
    try:  # MXNet's assert_almost_equal is np.allclose: broadcastable shapes compare
        if np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan):
            return
    except (TypeError, ValueError):
        pass
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan,
                               err_msg=f"{names[0]} vs {names[1]}")


def simple_forward(sym, ctx=None, is_train: bool = False, **inputs):
    """Bind ``inputs`` (NumPy arrays) and return the outputs as NumPy arrays.

    Examples
    --------
    >>> import mxnet as mx
    >>> x = mx.sym.Variable('x')
    >>> simple_forward(x * 2, x=np.ones(2, dtype=np.float32))
    array([2., 2.], dtype=float32)
    """
    ctx = ctx or current_context()
    args = {k: array(v, ctx=ctx, dtype=np.asarray(v).dtype) for k, v in inputs.items()}
    outs = [o.asnumpy() for o in sym.bind(ctx, args).forward(is_train=is_train)]
    return outs[0] if len(outs) == 1 else outs


def check_symbolic_forward(sym, location, expected, rtol=None, atol=None, aux_states=None,
                           ctx=None, equal_nan=False, dtype=np.float32):
    """Check that forward of ``sym`` at ``location`` gives ``expected``; return the outputs."""
    ctx = ctx or current_context()
    loc = _location(sym, location, ctx, dtype)
    ex = sym.bind(ctx, loc, aux_states=_aux(sym, aux_states, ctx, dtype))
    outs = ex.forward(is_train=False)
    if isinstance(expected, dict):
        expected = [expected[k] for k in sym.list_outputs()]
    for name, o, e in zip(sym.list_outputs(), outs, expected):
        _assert_close(e, o, _tol(rtol, _RTOL, dtype), _tol(atol, _ATOL, dtype),
                      (f"EXPECTED_{name}", f"FORWARD_{name}"), equal_nan)
    return [o.asnumpy() for o in outs]


def check_symbolic_backward(sym, location, out_grads, expected, rtol=None, atol=None,
                            aux_states=None, grad_req="write", ctx=None, grad_stypes=None,
                            equal_nan=False, dtype=np.float32):
    """Check the gradients of ``sym`` for head gradients ``out_grads``; return them."""
    ctx = ctx or current_context()
    loc = _location(sym, location, ctx, dtype)
    names = sym.list_arguments()
    if not isinstance(expected, dict):
        expected = dict(zip(names, expected))
    if isinstance(grad_req, str):
        grad_req = {k: grad_req for k in names}
    elif isinstance(grad_req, (list, tuple)):
        grad_req = dict(zip(names, grad_req))
    rng = np.random.RandomState(0)
    init = {k: rng.normal(size=loc[k].shape) for k in expected}
    grads = {k: array(init[k], ctx=ctx, dtype=_dt(dtype, expected[k])) for k in expected}
    req = {k: (grad_req.get(k, "null") if k in grads else "null") for k in names}
    ex = sym.bind(ctx, loc, args_grad=grads, grad_req=req,
                  aux_states=_aux(sym, aux_states, ctx, dtype))
    ex.forward(is_train=True)
    if isinstance(out_grads, dict):
        out_grads = [out_grads[k] for k in sym.list_outputs()]
    if out_grads is not None:
        out_grads = [g if isinstance(g, NDArray)
                     else array(np.asarray(g), ctx=ctx, dtype=_dt(dtype, g)) for g in out_grads]
    ex.backward(out_grads)
    got = {k: g.asnumpy() for k, g in ex.grad_dict.items() if g is not None}
    for k, e in expected.items():
        r = req[k]
        want = _np(e)
        if r == "add":
            want = want + init[k]
        elif r == "null":
            want = init[k]
        _assert_close(want, got[k], _tol(rtol, _RTOL, dtype), _tol(atol, _ATOL, dtype),
                      (f"EXPECTED_{k}", f"BACKWARD_{k}"), equal_nan)
    return got


def check_numeric_gradient(sym, location, aux_states=None, numeric_eps=None, rtol=None,
                           atol=None, grad_nodes=None, use_forward_train=True, ctx=None,
                           grad_stype_dict=None, dtype=np.float32):
    """Compare executor gradients with central finite differences of ``sum(out * proj)``."""
    ctx = ctx or current_context()
    loc = _location(sym, location, ctx, dtype)
    names = sym.list_arguments()
    node_req = {}
    if grad_nodes is None:
        grad_nodes = list(names)
    elif isinstance(grad_nodes, dict):
        # MXNet: a dict gives each node's grad_req; 'null' nodes must keep their gradient
        node_req = dict(grad_nodes)
        grad_nodes = list(grad_nodes)
    aux = _aux(sym, aux_states, ctx, dtype)
    _, out_shapes, _ = sym.infer_shape(**{k: v.shape for k, v in loc.items()})
    proj = np.random.RandomState(1).uniform(-1, 1, out_shapes[0])
    init_rng = np.random.RandomState(2)
    grad_init = {k: (init_rng.normal(size=loc[k].shape) if node_req.get(k, "write") != "write"
                     else np.zeros(loc[k].shape)) for k in grad_nodes}
    grads = {k: array(grad_init[k], ctx=ctx, dtype=_dt(dtype, loc[k])) for k in grad_nodes}
    grad_init = {k: g.asnumpy() for k, g in grads.items()}
    req = {k: (node_req.get(k, "write") if k in grads else "null") for k in names}
    ex = sym.bind(ctx, {k: v.copy() for k, v in loc.items()}, args_grad=grads, grad_req=req,
                  aux_states={k: v.copy() for k, v in aux.items()} if aux else None)
    ex.forward(is_train=use_forward_train)
    ex.backward([array(proj, ctx=ctx, dtype=ex.outputs[0].dtype)]
                + [array(np.zeros(o.shape), ctx=ctx, dtype=o.dtype) for o in ex.outputs[1:]])
    eps = _tol(numeric_eps, _EPS, dtype, 1e-4)
    base = {k: v.asnumpy().astype(np.float64) for k, v in loc.items()}

    # one float64 executor, perturbed in place (as MXNet's numeric_grad does)
    fex = sym.bind(ctx, {k: array(v, ctx=ctx, dtype=np.float64 if v.dtype.kind == "f" else v.dtype)
                         for k, v in base.items()},
                   aux_states={k: array(v.asnumpy().astype(np.float64), ctx=ctx)
                               for k, v in aux.items()} if aux else None)
    aux0 = {k: v.asnumpy().copy() for k, v in fex.aux_dict.items()}

    def f():
        for name, v in aux0.items():  # training-mode forwards may update auxiliary states
            fex.aux_dict[name][:] = v
        out = fex.forward(is_train=use_forward_train)[0]
        return float((out.asnumpy() * proj).sum())

    for k in grad_nodes:
        if req[k] == "null":
            _assert_close(grad_init[k], ex.grad_dict[k], 0, 0, (f"INIT_{k}", f"NULL_{k}"))
            continue
        x = base[k]
        num = np.zeros_like(x)
        flat = fex.arg_dict[k]._t.view(-1)
        for j in range(x.size):
            old = float(flat[j])
            flat[j] = old + eps / 2
            fp = f()
            flat[j] = old - eps / 2
            fm = f()
            flat[j] = old
            num.reshape(-1)[j] = (fp - fm) / eps
        got = _np(ex.grad_dict[k]) - (grad_init[k] if req[k] == "add" else 0)
        _assert_close(num, got, _tol(rtol, {np.dtype(np.float32): 1e-2,
                                                         np.dtype(np.float64): 1e-4}, dtype,
                                                 1e-2),
                      _tol(atol, {}, dtype, 1e-4), (f"NUMERICAL_{k}", f"BACKWARD_{k}"))


def check_consistency(sym, ctx_list, scale=1.0, grad_req="write", arg_params=None,
                      aux_params=None, tol=None, raise_on_err=True, ground_truth=None,
                      equal_nan=False, use_uniform=False, rand_type=np.float64):
    """Run ``sym`` on every ``ctx_list`` entry (``{'ctx':..., '<arg>': shape,
    'type_dict': {...}}``) with the same inputs; outputs and gradients must agree.

    Returns the list of executors' outputs (NumPy) per context.
    """
    if isinstance(sym, (list, tuple)):
        syms = list(sym)
    else:
        syms = [sym] * len(ctx_list)
    tol = tol or {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3,
                  np.dtype(np.float64): 1e-5, np.dtype(np.uint8): 0, np.dtype(np.int32): 0}
    if not isinstance(tol, dict):
        tol = {np.dtype(t): tol for t in (np.float16, np.float32, np.float64, np.uint8,
                                          np.int32)}
    exes = []
    for s, spec in zip(syms, ctx_list):
        spec = dict(spec)
        ctx = spec.pop("ctx")
        types = spec.pop("type_dict", {})
        if not isinstance(ctx, Context):
            raise TypeError("ctx_list entries need a 'ctx' Context")
        exes.append(s.simple_bind(ctx, grad_req=grad_req, type_dict=types, **spec))
    rng = np.random.RandomState(0)
    arg_params = dict(arg_params or {})
    aux_params = dict(aux_params or {})
    ex0 = exes[0]
    for n, a in ex0.arg_dict.items():
        if n not in arg_params:
            arg_params[n] = (rng.uniform(-scale, scale, a.shape) if use_uniform
                             else rng.normal(size=a.shape) * scale).astype(rand_type)
    for n, a in ex0.aux_dict.items():
        if n not in aux_params:
            aux_params[n] = np.zeros(a.shape)
    dtypes = [ex.outputs[0].dtype if ex.outputs else np.float32 for ex in exes]
    gt_i = int(np.argmax([np.dtype(d).itemsize for d in dtypes])) if ground_truth is None \
        else None
    results = []
    for ex in exes:
        for n, a in ex.arg_dict.items():
            a[:] = _np(arg_params[n]).astype(a.dtype)
        for n, a in ex.aux_dict.items():
            a[:] = _np(aux_params[n]).astype(a.dtype)
        outs = ex.forward(is_train=grad_req != "null")
        if grad_req != "null":
            ex.backward([array(np.ones(o.shape), ctx=o.context, dtype=o.dtype) for o in outs])
        results.append(([o.asnumpy() for o in outs],
                        {k: g.asnumpy() for k, g in ex.grad_dict.items() if g is not None}))
    gt = ground_truth if ground_truth is not None else results[gt_i]
    for i, (outs, grads) in enumerate(results):
        t = tol.get(np.dtype(dtypes[i]), 1e-3)
        try:
            for o, g in zip(outs, gt[0]):
                np.testing.assert_allclose(o, g, rtol=t, atol=t, equal_nan=equal_nan)
            for k, g in grads.items():
                np.testing.assert_allclose(g, gt[1][k], rtol=t, atol=t, equal_nan=equal_nan)
        except AssertionError:
            if raise_on_err:
                raise
    return [r[0] for r in results]
