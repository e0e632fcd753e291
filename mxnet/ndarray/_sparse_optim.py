"""Sparse optimizer front ends of ``mx.nd.sparse`` (``adagrad_update``).

The numbers come from the registry kernel ``_sparse_adagrad_update``; this layer checks
the storage types MXNet 1.9.1 accepts and writes weight and history in place.
"""

from __future__ import annotations

from .._op._registry import get_op
from ..base import MXNetError, _Null

__all__ = ["adagrad_update"]


def _stypes(*arrays) -> str:
    return ", ".join(getattr(a, "stype", type(a).__name__) for a in arrays)


def adagrad_update(
    weight=None,
    grad=None,
    history=None,
    lr=_Null,
    epsilon=_Null,
    wd=_Null,
    rescale_grad=_Null,
    clip_gradient=_Null,
    out=None,
    name=None,
    **kwargs,
):
    """AdaGrad update with a row_sparse ``grad`` (lazy: rows absent from ``grad`` keep
    their weight and history), written in place: ``out`` must be ``weight``.

    ``weight`` and ``history`` are both dense or both row_sparse; ``wd`` must be 0.

    Examples
    --------
    >>> w = mx.nd.ones((2, 2))
    >>> g = mx.nd.array([[1., 1.], [0., 0.]]).tostype('row_sparse')
    >>> h = mx.nd.zeros((2, 2))
    >>> _ = mx.nd.sparse.adagrad_update(w, g, h, out=w, lr=1.0, epsilon=1.0)
    >>> [round(float(v), 4) for v in w.asnumpy()[:, 0]]
    [0.2929, 1.0]
    """
    op = get_op("_sparse_adagrad_update")
    params = {
        k: v
        for k, v in (
            ("lr", lr),
            ("epsilon", epsilon),
            ("wd", wd),
            ("rescale_grad", rescale_grad),
            ("clip_gradient", clip_gradient),
        )
        if v is not _Null
    }
    params.update(kwargs)
    attrs = op.parse_attrs(params)
    if weight is None or grad is None or history is None:
        raise MXNetError(
            "adagrad_update: weight, grad and history are required "
            "(operator _sparse_adagrad_update)"
        )
    stypes = (weight.stype, grad.stype, history.stype)
    if (
        stypes
        not in (("default", "row_sparse", "default"), ("row_sparse", "row_sparse", "row_sparse"))
        or float(attrs["wd"]) != 0
    ):
        raise MXNetError(
            "Operator not implemented: operator = _sparse_adagrad_update\n"
            f"input storage types = [{_stypes(weight, grad, history)}, ]\n"
            f'params = {{"wd" : "{attrs["wd"]}"}}'
        )
    if out is not weight:
        raise MXNetError(
            "Check failed: req == kWriteInplace: kWriteInplace is expected for "
            "sparse adagrad_update (pass out=weight)"
        )
    if weight.shape != grad.shape or history.shape != weight.shape:
        raise MXNetError(
            f"adagrad_update: shapes differ: weight {weight.shape}, grad "
            f"{grad.shape}, history {history.shape}"
        )
    hist = history._t.detach().clone()
    new_w = op.compute(attrs, weight._t.detach(), grad._t.detach(), hist)
    history._assign_tensor(hist)
    weight._assign_tensor(new_w)
    return weight
