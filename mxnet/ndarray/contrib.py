"""Operators of the ``contrib`` namespace, generated from the registry."""

from ._namespace import populate as _populate

__all__ = _populate(globals(), "contrib")


def _scale_array(weight, rescale_grad):
    from .ndarray import NDArray, array

    if isinstance(rescale_grad, NDArray):
        return rescale_grad
    return array([rescale_grad], ctx=weight.context, dtype="float32")


def adamw_update(weight, grad, mean, var, rescale_grad, lr, eta, beta1=0.9, beta2=0.999,
                 epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None, **kwargs):
    """AdamW update; ``rescale_grad`` may be a float (MXNet's contrib front end)."""
    from ._namespace import function_for

    return function_for("_adamw_update")(
        weight, grad, mean, var, _scale_array(weight, rescale_grad), lr=lr, eta=eta,
        beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd, clip_gradient=clip_gradient,
        out=out, name=name, **kwargs)


def mp_adamw_update(weight, grad, mean, var, weight32, rescale_grad, lr, eta, beta1=0.9,
                    beta2=0.999, epsilon=1e-8, wd=0, clip_gradient=-1, out=None, name=None,
                    **kwargs):
    """Multi-precision AdamW update; ``rescale_grad`` may be a float."""
    from ._namespace import function_for

    return function_for("_mp_adamw_update")(
        weight, grad, mean, var, weight32, _scale_array(weight, rescale_grad), lr=lr, eta=eta,
        beta1=beta1, beta2=beta2, epsilon=epsilon, wd=wd, clip_gradient=clip_gradient,
        out=out, name=name, **kwargs)


__all__ += ["adamw_update", "mp_adamw_update"]


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
