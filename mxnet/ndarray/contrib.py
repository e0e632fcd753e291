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
