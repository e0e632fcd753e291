"""Storage operators: ``cast_storage``, ``_sparse_retain`` and ``_sparse_adagrad_update``.

Kernels here see dense torch tensors (a sparse NDArray's dense view). The storage-keeping
NDArray front ends (``mx.nd.sparse.retain`` returning a RowSparseNDArray...) live in
``mxnet.ndarray._sparse_*`` and call these kernels for the numbers; in symbolic graphs the
nodes serialize under MXNet's names (``cast_storage``, ``_sparse_retain``).
"""

from __future__ import annotations

import torch

from ..base import MXNetError
from ._optim import _exact_sqrt, _rescaled, _s
from ._params import Param
from ._registry import OpDef, register

__all__: list[str] = []

STYPES = ("csr", "default", "row_sparse")


def _cast_storage(attrs: dict, x: torch.Tensor) -> torch.Tensor:
    if attrs["stype"] == "csr" and x.dim() != 2:
        raise MXNetError(f"cast_storage: stype='csr' needs a 2-D input, got shape {tuple(x.shape)}")
    return x.clone()  # the values do not change; only the (front-end) storage does


register(
    OpDef(
        "cast_storage",
        _cast_storage,
        params=[Param("stype", "enum", choices=STYPES, doc="Output storage type.")],
        inputs=("data",),
        infer_shape=lambda a, s: s,
        doc="Cast an array to another storage type ('default', 'csr' or 'row_sparse'); the "
        "values are unchanged.\n\nExample: ``mx.nd.cast_storage(mx.nd.eye(2), stype='csr')``",
    )
)


def _row_mask(x: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    rows = indices.reshape(-1).to(torch.int64)
    n = x.shape[0]
    if rows.numel() and (int(rows.min()) < 0 or int(rows.max()) >= n):
        raise MXNetError(
            f"_sparse_retain: row index out of range [0, {n}) for data of shape {tuple(x.shape)}"
        )
    mask = torch.zeros(n, dtype=torch.bool, device=x.device)
    mask[rows] = True
    return mask.reshape((n,) + (1,) * (x.dim() - 1))


def _retain(attrs: dict, data: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    if data.dim() == 0:
        raise MXNetError("_sparse_retain: data must have at least one dimension")
    return torch.where(_row_mask(data, indices), data, torch.zeros((), dtype=data.dtype))


register(
    OpDef(
        "_sparse_retain",
        _retain,
        inputs=("data", "indices"),
        infer_shape=lambda a, s: s,
        infer_out=lambda a, s: [s[0]],
        doc="Keep the rows of ``data`` listed in ``indices``; the other rows become zero.\n\n"
        "Example: ``mx.nd.sparse.retain(rsp, mx.nd.array([0, 3]))``",
    )
)


def _adagrad(
    attrs: dict, weight: torch.Tensor, grad: torch.Tensor, history: torch.Tensor
) -> torch.Tensor:
    if _s(attrs["wd"]) != 0.0:
        raise MXNetError(
            f"Operator not implemented: operator = _sparse_adagrad_update with "
            f"wd={attrs['wd']} (the sparse AdaGrad kernel has no weight decay)"
        )
    g = _rescaled(attrs, grad)
    history.add_(g.square())
    step = g / _exact_sqrt(history + _s(attrs["epsilon"]))  # sqrtf: correctly rounded
    return weight - step * _s(attrs["lr"])


register(
    OpDef(
        "_sparse_adagrad_update",
        _adagrad,
        params=[
            Param("lr", "float", doc="Learning rate"),
            Param("epsilon", "float", 1.00000001e-07, doc="epsilon"),
            Param("wd", "float", 0.0, doc="weight decay"),
            Param(
                "rescale_grad", "float", 1.0, doc="Rescale gradient to grad = rescale_grad*grad."
            ),
            Param(
                "clip_gradient",
                "float",
                -1.0,
                doc="Clip gradient to [-clip_gradient, clip_gradient]; <= 0 disables.",
            ),
        ],
        inputs=("weight", "grad", "history"),
        infer_shape=lambda a, s: s,
        doc="AdaGrad update for row_sparse gradients (lazy: only the gradient's rows change): "
        "history += g^2; weight -= lr * g / sqrt(history + epsilon), with "
        "g = clip(rescale_grad * grad).",
    )
)


# ---------------------------------------------------------------------------------------
# Storage checks MXNet makes before running an operator on sparse inputs (its
# FInferStorageType errors): one function per operator, given the parsed attributes and
# the inputs' storage types; used by the imperative path and by executors at bind time.


def _batchnorm_sparse(attrs: dict, stypes: list[str]) -> None:
    if attrs.get("fix_gamma", True) and any(s != "default" for s in stypes):
        raise MXNetError("fix_gamma=True is not supported for sparse ndarrays. Tracked at #11647")


SPARSE_INPUT_CHECKS = {"BatchNorm": _batchnorm_sparse}
