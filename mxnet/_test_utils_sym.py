"""Symbolic test helpers (re-exported by ``mx.test_utils``).

``check_symbolic_forward``, ``check_symbolic_backward``, ``check_numeric_gradient``,
``check_consistency`` and ``simple_forward`` bind a Symbol and compare its outputs or
gradients with expectations, finite differences, or the same graph on other contexts and
dtypes.
"""

from __future__ import annotations

import numpy as np

from .context import current_context
from .ndarray.ndarray import NDArray, array

__all__ = ["check_symbolic_forward", "check_symbolic_backward", "check_numeric_gradient",
           "check_consistency", "simple_forward", "numeric_grad", "check_speed"]

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


def _sorted_items(d):
    """``(key, value)`` pairs of ``d`` sorted by key (MXNet's test_utils helper)."""
    return sorted(d.items(), key=lambda t: t[0])


def _sorted_dict(d):
    """An ``OrderedDict`` of ``d``'s items sorted by key."""
    from collections import OrderedDict

    return OrderedDict(_sorted_items(d))


def _from_numpy_values(values: dict, ctx, dtype) -> dict:
    return {k: array(v, ctx=ctx, dtype=v.dtype if dtype == "asnumpy" else dtype)
            if isinstance(v, np.ndarray) else v for k, v in values.items()}


def _parse_location(sym, location, ctx, dtype=np.float32):
    """MXNet 1.9.1's ``test_utils._parse_location``: ``location`` (a list in
    ``sym.list_arguments()`` order, or a dict naming every argument) as an ``OrderedDict``
    sorted by name; NumPy arrays become NDArrays on ``ctx`` (``dtype="asnumpy"`` keeps
    their dtype), other values are kept."""
    assert isinstance(location, (dict, list, tuple))
    assert dtype == "asnumpy" or dtype in (np.float16, np.float32, np.float64)
    if isinstance(location, dict):
        if set(location.keys()) != set(sym.list_arguments()):
            raise ValueError("Symbol arguments and keys of the given location do not match."
                             f"symbol args:{set(sym.list_arguments())}, "
                             f"location.keys():{set(location.keys())}")
    else:
        location = dict(zip(sym.list_arguments(), location))
    return _sorted_dict(_from_numpy_values(location, ctx, dtype))


def _parse_aux_states(sym, aux_states, ctx, dtype=np.float32):
    """MXNet 1.9.1's ``test_utils._parse_aux_states``: ``aux_states`` (None, a list in
    ``sym.list_auxiliary_states()`` order or a dict naming every state) as a dict of
    NDArrays on ``ctx``."""
    assert dtype == "asnumpy" or dtype in (np.float16, np.float32, np.float64)
    if aux_states is None:
        return None
    if isinstance(aux_states, dict):
        if set(aux_states.keys()) != set(sym.list_auxiliary_states()):
            raise ValueError("Symbol aux_states names and given aux_states do not match."
                             f"symbol aux_names:{set(sym.list_auxiliary_states())}, "
                             f"aux_states.keys:{set(aux_states.keys())}")
    elif isinstance(aux_states, (list, tuple)):
        aux_states = dict(zip(sym.list_auxiliary_states(), aux_states))
    return {k: array(v, ctx=ctx, dtype=v.dtype if dtype == "asnumpy" else dtype)
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
    return list(outs)  # the executor's output NDArrays, as MXNet returns


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
    if isinstance(grad_stypes, dict):  # MXNet's gradient buffers have these storage types
        grads = {k: (g.tostype(grad_stypes[k]) if grad_stypes.get(k) not in (None, "default")
                     else g) for k, g in grads.items()}
    return grads  # the gradient NDArrays (MXNet returns its gradient buffers)


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


def _smaller_dtype(dt1, dt2):
    """The less precise of two dtypes (``dt1`` when ``dt2`` is None)."""
    if dt2 is None or np.dtype(dt1).itemsize < np.dtype(dt2).itemsize:
        return dt1
    return dt2


def _report(kind, i, gt_idx, name, err, raise_on_err):
    import traceback

    print(f"{kind} Err: ctx {i} vs ctx {gt_idx} at {name}")
    traceback.print_exc()
    if raise_on_err:
        raise err
    print(str(err))


def check_consistency(sym, ctx_list, scale=1.0, grad_req="write", arg_params=None,
                      aux_params=None, rtol=None, atol=None, raise_on_err=True,
                      ground_truth=None, equal_nan=False, use_uniform=False,
                      rand_type=np.float64, *, tol=None):
    """Check that ``sym`` gives the same outputs (and gradients) on every entry of
    ``ctx_list`` (``{'ctx': ctx, '<arg>': shape, 'type_dict': {...}}``), as MXNet 1.9.1.

    Inputs are drawn once (normal with ``scale``, or uniform in +-0.92*scale); the most
    precise executor (or ``ground_truth``) is the reference. ``rtol``/``atol`` default to
    the per-dtype tables; ``tol`` (keyword only) sets both. Returns the reference dict
    (output and gradient name -> NDArray).
    """
    from .test_utils import assert_almost_equal, get_tols

    if tol is not None:
        rtol = tol if rtol is None else rtol
        atol = tol if atol is None else atol
    assert len(ctx_list) > 1
    from .symbol import Symbol

    # any sequence of symbols (a list, NumPy's np.repeat(sym_list, n)...) gives one per context
    syms = [sym] * len(ctx_list) if isinstance(sym, Symbol) else list(sym)
    assert len(syms) == len(ctx_list)
    output_names = syms[0].list_outputs()
    arg_names = syms[0].list_arguments()
    exes = []
    for s, spec in zip(syms, ctx_list):
        assert s.list_arguments() == arg_names
        assert s.list_outputs() == output_names
        exes.append(s.simple_bind(grad_req=grad_req, **spec))
    arg_params = {} if arg_params is None else arg_params
    aux_params = {} if aux_params is None else aux_params
    for n in sorted(exes[0].arg_dict):
        if n not in arg_params:
            shape = exes[0].arg_dict[n].shape
            vals = (np.random.uniform(-0.92 * scale, 0.92 * scale, size=shape) if use_uniform
                    else np.random.normal(size=shape, scale=scale))
            arg_params[n] = vals.astype(rand_type)
    for n in exes[0].aux_dict:
        aux_params.setdefault(n, 0)
    for ex in exes:
        for n, a in ex.arg_dict.items():
            a[:] = arg_params[n]
        for n, a in ex.aux_dict.items():
            a[:] = aux_params[n]
        if grad_req == "add":
            for g in ex.grad_arrays:
                if g is not None:
                    g[:] = 0
    dtypes = [np.dtype(ex.outputs[0].dtype) for ex in exes]
    gt_idx = int(np.argmax([d.itemsize for d in dtypes]))

    for ex in exes:
        ex.forward(is_train=False)
    gt = ground_truth
    if gt is None:
        gt = dict(zip(output_names, exes[gt_idx].outputs))
    for i, ex in enumerate(exes):
        if i == gt_idx:
            continue
        for name, arr in zip(output_names, ex.outputs):
            try:
                assert_almost_equal(arr, gt[name], rtol=rtol, atol=atol, equal_nan=equal_nan)
            except AssertionError as e:
                _report("Predict", i, gt_idx, name, e, raise_on_err)

    if grad_req != "null":
        for ex in exes:
            ex.forward(is_train=True)
        least = [o.dtype for o in exes[0].outputs]
        for ex in exes:
            least = [_smaller_dtype(o.dtype, d) for o, d in zip(ex.outputs, least)]
        golden = [o.astype(d).asnumpy() for o, d in zip(exes[0].outputs, least)]
        for ex in exes:
            ex.backward([array(g, ctx=o.context, dtype=o.dtype).tostype(o.stype)
                         for g, o in zip(golden, ex.outputs)])
        if ground_truth is None:
            ref = exes[gt_idx]
            gt = dict(zip(output_names, ref.outputs))
            gt.update(dict(zip(arg_names, ref.grad_arrays)))
        for i, ex in enumerate(exes):
            if i == gt_idx:
                continue
            for name, arr in zip(output_names + arg_names, list(ex.outputs) +
                                 list(ex.grad_arrays)):
                if gt.get(name) is None:
                    assert arr is None
                    continue
                gtarr = gt[name]
                try:
                    rt, at = rtol, atol
                    small_arr = _smaller_dtype(arr.dtype, dtypes[i])
                    small_gt = _smaller_dtype(gtarr.dtype, dtypes[gt_idx])
                    if small_arr != arr.dtype or small_gt != gtarr.dtype:
                        rt, at = get_tols(arr.astype(small_arr), gtarr.astype(small_gt),
                                          rtol, atol)
                    assert_almost_equal(arr, gtarr, rtol=rt, atol=at, equal_nan=equal_nan)
                except AssertionError as e:
                    _report("Train", i, gt_idx, name, e, raise_on_err)
    return gt


def numeric_grad(executor, location, aux_states=None, eps=1e-4, use_forward_train=True,
                 dtype=np.float32):
    """Finite-difference gradient of ``sum(outputs[0])`` for each float argument in
    ``location`` (name -> NumPy array), using ``executor`` (central differences, step
    ``eps``). Returns name -> NumPy array.
    """
    from . import ndarray as nd

    def put(name, value, stype):
        executor.arg_dict[name][:] = nd.cast_storage(array(value, dtype=dtype), stype=stype)

    assert dtype in (np.float16, np.float32, np.float64)
    grads = {k: np.zeros(v.shape, dtype=dtype) for k, v in location.items()}
    for k, v in location.items():
        if executor.arg_dict[k].stype == "default":
            put(k, v, "default")
    for k in location:
        location[k] = np.asarray(location[k], order="C")
    for k, v in location.items():
        if v.dtype.kind != "f":
            continue
        stype = executor.arg_dict[k].stype
        saved = v.copy()
        for i in range(int(np.prod(v.shape))):
            outs = []
            for step in (eps / 2.0, -eps):
                v.ravel()[i] += step
                put(k, v, stype)
                if aux_states is not None:
                    for key, val in aux_states.items():
                        executor.aux_dict[key][:] = val
                executor.forward(is_train=use_forward_train)
                outs.append(executor.outputs[0].asnumpy())
            grads[k].ravel()[i] = (outs[0] - outs[1]).sum() / eps
            v.ravel()[i] = saved.ravel()[i]
        put(k, saved, stype)
    return grads


def check_speed(sym, location=None, ctx=None, N=20, grad_req=None, typ="whole", **kwargs):
    """Seconds per forward+backward (``typ='whole'``) or forward (``typ='forward'``) of
    ``sym``, averaged over ``N`` runs after one warm-up run."""
    import time

    from . import ndarray as nd

    ctx = ctx or current_context()
    grad_req = grad_req or "write"
    if location is None:
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx, **kwargs)
        location = {k: np.random.normal(size=a.shape, scale=1.0)
                    for k, a in exe.arg_dict.items()}
    else:
        assert isinstance(location, dict), f'Expect dict, get "location"={location}'
        exe = sym.simple_bind(grad_req=grad_req, ctx=ctx,
                              **{k: v.shape for k, v in location.items()})
    for name, value in location.items():
        exe.arg_dict[name][:] = value.astype(exe.arg_dict[name].dtype)
    if typ not in ("whole", "forward"):
        raise ValueError('typ can only be "whole" or "forward".')
    train = typ == "whole"

    def run():
        exe.forward(is_train=train)
        if train:
            exe.backward(out_grads=exe.outputs)

    run()
    for o in exe.outputs:
        o.wait_to_read()
    tic = time.time()
    for _ in range(N):
        run()
    nd.waitall()
    return (time.time() - tic) / N
