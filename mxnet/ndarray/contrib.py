"""Operators of the ``contrib`` namespace, generated from the registry."""

from ._namespace import populate as _populate

__all__ = _populate(globals(), "contrib")


def _scale_array(weight, rescale_grad):
    from .ndarray import NDArray, array

    if isinstance(rescale_grad, NDArray):
        return rescale_grad
    return array([rescale_grad], ctx=weight.context, dtype="float32")


def _adamw(opname, arrays, rescale_grad, hyper, out, name, kwargs):
    """Call the registry's AdamW kernel ``opname``; a float ``rescale_grad`` becomes an
    array on the weight's context (MXNet's contrib front end)."""
    from ._namespace import function_for

    return function_for(opname)(*arrays, _scale_array(arrays[0], rescale_grad), **hyper,
                                out=out, name=name, **kwargs)


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """AdamW update; ``rescale_grad`` may be a float (MXNet's contrib front end)."""
    hyper = dict(lr=lr, eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                 clip_gradient=clip_gradient)
    return _adamw("_adamw_update", (weight, grad, mean, var), rescale_grad, hyper, out, name,
                  kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                    beta2=0.999, epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None,
                    **kwargs):
    """Multi-precision AdamW update; ``rescale_grad`` may be a float."""
    hyper = dict(lr=lr, eta=eta, beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd,
                 clip_gradient=clip_gradient)
    return _adamw("_mp_adamw_update", (weight, grad, mean, var, weight32), rescale_grad, hyper,
                  out, name, kwargs)



def isnan(data):
    """1 where ``data`` is NaN, else 0 (same dtype as ``data``), as MXNet's contrib.isnan.

    Examples
    --------
    >>> mx.nd.contrib.isnan(mx.nd.array([1, float('nan')])).asnumpy().tolist()
    [0.0, 1.0]
    """
    return data != data


def isinf(data):
    """1 where ``data`` is +/-inf, else 0 (same dtype as ``data``).

    Examples
    --------
    >>> mx.nd.contrib.isinf(mx.nd.array([1, float('inf')])).asnumpy().tolist()
    [0.0, 1.0]
    """
    if not _is_float(data):  # integers are never infinite (MXNet's cast of inf is UB)
        return data.zeros_like()
    return data.abs() == float("inf")


def isfinite(data):
    """1 where ``data`` is neither NaN nor +/-inf, else 0 (same dtype as ``data``).

    Examples
    --------
    >>> mx.nd.contrib.isfinite(mx.nd.array([1, float('nan')])).asnumpy().tolist()
    [1.0, 0.0]
    """
    if not _is_float(data):
        return data.ones_like()
    return (data.abs() != float("inf")) * (data == data)


def _is_float(data) -> bool:
    import numpy as np

    return np.issubdtype(np.dtype(data.dtype), np.floating)


__all__ += ["isnan", "isinf", "isfinite"]


# -- control flow (imperative: Python loops, transparent to autograd) -----------------------
def _cf_flatten(obj, what: str):
    """Flatten nested lists of arrays/symbols; returns (flat list, format)."""
    if obj is None:
        return [], None
    if isinstance(obj, (list, tuple)):
        flat, fmt = [], []
        for x in obj:
            f, sub = _cf_flatten(x, what)
            flat += f
            fmt.append(sub)
        return flat, fmt
    if not hasattr(obj, "_outputs") and not hasattr(obj, "_t"):
        raise ValueError(
            f"{what} should be an NDArray/Symbol or a nested list of them, got {type(obj).__name__}"
        )
    return [obj], 0


def _cf_regroup(flat, fmt):
    """Inverse of :func:`_cf_flatten`; returns (structure, rest)."""
    if fmt == 0:
        return flat[0], flat[1:]
    if fmt is None:
        return [], flat
    out = []
    for sub in fmt:
        item, flat = _cf_regroup(flat, sub)
        out.append(item)
    return out, flat


def _cf_scalar(x, kind, what: str):
    from .ndarray import NDArray

    if isinstance(x, NDArray):
        if x.size != 1:  # MXNet's asscalar() error
            raise ValueError("The current array is not a scalar")
        x = x.asscalar()
    try:
        return kind(x)
    except (TypeError, ValueError):
        raise ValueError(f"Cannot convert {what} to python {kind.__name__}") from None


def foreach(body, data, init_states):
    """Run ``body`` over the first axis of ``data``, carrying loop states (a Python loop).

    ``body(data_t, states) -> (outputs, new_states)``; outputs of every step are stacked
    along a new first axis.

    Examples
    --------
    >>> step = lambda x, s: (x + s, x + s)
    >>> outs, last = mx.nd.contrib.foreach(step, mx.nd.arange(6).reshape((3, 2)),
    ...                                    mx.nd.zeros((2,)))
    >>> last.asnumpy().tolist()
    [6.0, 9.0]
    """
    from . import op as _op

    flat_data, dfmt = _cf_flatten(data, "data")
    if not flat_data:
        raise ValueError("foreach: data should contain at least one NDArray")
    flat_init, sfmt = _cf_flatten(init_states, "init_states")
    steps = flat_data[0].shape[0]
    states = _cf_regroup(flat_init, sfmt)[0]
    outputs, ofmt = [], None
    for t in range(steps):
        eles = _cf_regroup([d[t] for d in flat_data], dfmt)[0]
        outs, states = body(eles, states)
        flat_out, ofmt = _cf_flatten(outs, "foreach output")
        outputs.append(flat_out)  # MXNet does not check the states imperatively
    if not outputs:
        raise ValueError("foreach: the input sequence has length 0")
    stacked = [_op.stack(*items, axis=0) for items in zip(*outputs)]
    res = _cf_regroup(stacked, ofmt)[0] if ofmt is not None else []
    return res, states


def while_loop(cond, func, loop_vars, max_iterations=None):
    """Run ``func`` while ``cond`` holds, at most ``max_iterations`` times (a Python loop).

    ``cond(*loop_vars)`` returns a scalar; ``func(*loop_vars) -> (step_output,
    new_loop_vars)``. Step outputs are stacked along a new first axis and padded with zeros
    to ``max_iterations`` rows.

    Examples
    --------
    >>> outs, (i,) = mx.nd.contrib.while_loop(lambda i: i < 3, lambda i: (i, [i + 1]),
    ...                                       [mx.nd.array([0])], max_iterations=5)
    >>> outs.shape, i.asscalar()
    ((5, 1), 3.0)
    """
    from . import op as _op
    from .ndarray import NDArray, zeros

    if max_iterations is None:
        raise ValueError("max_iterations should be specified")
    max_iterations = _cf_scalar(max_iterations, int, "max_iteration")
    single = isinstance(loop_vars, NDArray)
    flat_vars, vfmt = _cf_flatten(loop_vars, "loop_vars")
    if not flat_vars:
        raise ValueError("loop_vars should contain at least one element")
    loop_vars = _cf_regroup(flat_vars, vfmt)[0]
    loop_list = [loop_vars] if single else list(loop_vars)
    steps, outputs, ofmt = 0, [], None
    while steps < max_iterations and _cf_scalar(cond(*loop_list), bool, "Return value of cond"):
        step_out, new_vars = func(*loop_list)
        if step_out is None:
            step_out = []
        if new_vars is None:
            new_vars = []
        new_list = [new_vars] if isinstance(new_vars, NDArray) else list(new_vars)
        if len(new_list) != len(loop_list):
            raise ValueError("The length of loop_vars should be consistent during the loop")
        loop_list = new_list
        flat_out, ofmt = _cf_flatten(
            list(step_out) if isinstance(step_out, tuple) else step_out, "while output"
        )
        outputs.append(flat_out)
        steps += 1
        if len(flat_out) != len(outputs[0]):
            raise ValueError("Number of elements in step_output should be the same in each step")
    stacked = []
    for items in zip(*outputs):
        items = [x.expand_dims(0) for x in items]
        if steps != max_iterations:
            pad = zeros(
                (max_iterations - steps,) + tuple(items[0].shape[1:]),
                ctx=items[0].context,
                dtype=items[0].dtype,
            )
            items.append(pad)
        stacked.append(_op.concat(*items, dim=0))
    if ofmt is not None:
        stacked = _cf_regroup(stacked, ofmt)[0]
    return stacked, (loop_list[0] if single else loop_list)


def cond(pred, then_func, else_func):
    """Run ``then_func()`` if the scalar ``pred`` is true, else ``else_func()``.

    Examples
    --------
    >>> mx.nd.contrib.cond(mx.nd.array([1]), lambda: mx.nd.ones(1),
    ...                    lambda: mx.nd.zeros(1)).asnumpy().tolist()
    [1.0]
    """
    if _cf_scalar(pred, bool, "pred"):
        return then_func()
    return else_func()


__all__ += ["foreach", "while_loop", "cond"]


def _flat(groups):
    return [x for g in groups for x in g]


def multi_adamw_update(
    weights, grads, mean, var, rescale_grad, lrs, wds, etas, out=None, name=None, size=0, **kwargs
):
    """AdamW update of several weights at once (MXNet's contrib front end)."""
    from ._namespace import function_for

    ins = _flat(zip(weights, grads, mean, var)) + [_scale_array(weights[0], rescale_grad)]
    return function_for("_multi_adamw_update")(*ins, out=out, lrs=lrs, wds=wds, etas=etas, **kwargs)


def multi_mp_adamw_update(
    weights,
    grads,
    mean,
    var,
    weights32,
    rescale_grad,
    lrs,
    wds,
    etas,
    out=None,
    name=None,
    size=0,
    **kwargs,
):
    """Multi-precision AdamW update of several weights at once."""
    from ._namespace import function_for

    ins = _flat(zip(weights, grads, mean, var, weights32)) + [
        _scale_array(weights[0], rescale_grad)
    ]
    return function_for("_multi_mp_adamw_update")(
        *ins, out=out, lrs=lrs, wds=wds, etas=etas, **kwargs
    )


def multi_lamb_update(
    weights, grads, mean, var, step_count, lrs, wds, out=None, num_tensors=0, **kwargs
):
    """LAMB update of several weights at once."""
    from ._namespace import function_for

    ins = _flat(zip(weights, grads, mean, var))
    return function_for("_multi_lamb_update")(
        *ins, out=out, step_count=step_count, learning_rates=lrs, wds=wds, **kwargs
    )


def multi_mp_lamb_update(
    weights, grads, mean, var, weights32, step_count, lrs, wds, out=None, num_tensors=0, **kwargs
):
    """Multi-precision LAMB update of several weights at once."""
    from ._namespace import function_for

    ins = _flat(zip(weights, grads, mean, var, weights32))
    return function_for("_multi_mp_lamb_update")(
        *ins, out=out, step_count=step_count, learning_rates=lrs, wds=wds, **kwargs
    )


__all__ += [
    "multi_adamw_update",
    "multi_mp_adamw_update",
    "multi_lamb_update",
    "multi_mp_lamb_update",
]


def rand_zipfian(true_classes, num_sampled, range_max, ctx=None):
    """Draw ``num_sampled`` classes from an approximately log-uniform (Zipfian) distribution
    over ``[0, range_max)``; also return the expected counts of the true and sampled classes.

    P(class) = (log(class + 2) - log(class + 1)) / log(range_max + 1).

    Examples
    --------
    >>> samples, exp_true, exp_sampled = mx.nd.contrib.rand_zipfian(mx.nd.array([3]), 4, 5)
    >>> samples.shape, exp_true.dtype
    ((4,), <class 'numpy.float64'>)
    """
    import math

    from .. import ndarray as nd
    from ..context import current_context

    ctx = ctx if ctx is not None else current_context()
    log_range = math.log(range_max + 1)
    rand = nd.random.uniform(0, log_range, shape=(num_sampled,), dtype="float64", ctx=ctx)
    sampled = (rand.exp() - 1).astype("int64") % range_max
    true_f = true_classes.as_in_context(ctx).astype("float64")
    count_true = ((true_f + 2.0) / (true_f + 1.0)).log() / log_range * num_sampled
    sampled_f = sampled.astype("float64")
    count_sampled = ((sampled_f + 2.0) / (sampled_f + 1.0)).log() / log_range * num_sampled
    return sampled, count_true, count_sampled


__all__ += ["rand_zipfian"]
