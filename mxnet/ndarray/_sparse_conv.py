"""Conversions between dense torch tensors and MXNet's sparse components.

CSR components are ``(data, indptr, indices)``; row_sparse components are
``(data, indices)``. Index arrays are always ``torch.int64`` (MXNet's default aux type).
"""

from __future__ import annotations

import torch

from ..base import MXNetError

__all__ = ["dense_to_csr", "dense_to_rsp", "csr_to_dense", "rsp_to_dense", "csr_rows",
           "check_csr", "check_rsp"]

IDX = torch.int64


def dense_to_csr(t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(data, indptr, indices)`` of the non-zero entries of the 2-D tensor ``t``."""
    if t.dim() != 2:
        raise MXNetError(f"cast_storage: csr storage needs a 2-D array, got shape "
                         f"{tuple(t.shape)}")
    t = t.detach()
    rows, cols = torch.nonzero(t, as_tuple=True)
    counts = torch.bincount(rows, minlength=t.shape[0])
    indptr = torch.zeros(t.shape[0] + 1, dtype=IDX, device=t.device)
    indptr[1:] = torch.cumsum(counts, 0)
    return t[rows, cols].clone(), indptr, cols.to(IDX)


def dense_to_rsp(t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``(data, indices)`` of the rows of ``t`` holding at least one non-zero."""
    if t.dim() < 1:
        raise MXNetError("cast_storage: row_sparse storage needs at least 1 dimension")
    t = t.detach()
    flat = t.reshape(t.shape[0], -1) if t.shape[0] else t.reshape(0, 1)
    idx = torch.nonzero(flat.ne(0).any(1), as_tuple=True)[0].to(IDX)
    return t[idx].clone(), idx


def csr_rows(indptr: torch.Tensor) -> torch.Tensor:
    """The row of every stored value (``indptr`` expanded)."""
    n = indptr.numel() - 1
    return torch.repeat_interleave(torch.arange(n, device=indptr.device),
                                   torch.diff(indptr))


def csr_to_dense(data, indptr, indices, shape) -> torch.Tensor:
    out = torch.zeros(shape, dtype=data.dtype, device=data.device)
    if data.numel():
        out[csr_rows(indptr), indices] = data
    return out


def rsp_to_dense(data, indices, shape) -> torch.Tensor:
    out = torch.zeros(shape, dtype=data.dtype, device=data.device)
    if indices.numel():
        out[indices] = data
    return out


def check_csr(data, indptr, indices, shape, full: bool) -> None:
    """Raise MXNetError unless the CSR components describe a valid ``shape`` array."""
    if len(shape) != 2:
        raise MXNetError(f"check_format: csr array must be 2-D, got shape {shape}")
    if indptr.dim() != 1 or indptr.numel() != shape[0] + 1:
        raise MXNetError(f"check_format: csr indptr has shape {tuple(indptr.shape)}, "
                         f"expected ({shape[0] + 1},)")
    if indices.dim() != 1 or indices.numel() != data.numel():
        raise MXNetError("check_format: csr indices and data differ in length "
                         f"({indices.numel()} vs {data.numel()})")
    if not full:
        return
    if int(indptr[0]) != 0 or int(indptr[-1]) != data.numel() or bool(
            (torch.diff(indptr) < 0).any()):
        raise MXNetError("check_format: csr indptr must start at 0, end at nnz and never "
                         "decrease")
    if indices.numel():
        rows = csr_rows(indptr)
        same = rows[1:] == rows[:-1]
        if int(indices.min()) < 0 or int(indices.max()) >= shape[1] or bool(
                (indices[1:][same] <= indices[:-1][same]).any()):
            raise MXNetError("check_format: Indices of csr NDArray should be non-negative, "
                             "in ascending order per row and less than the number of "
                             f"columns {shape[1]}")


def check_rsp(data, indices, shape, full: bool) -> None:
    """Raise MXNetError unless the row_sparse components describe a ``shape`` array."""
    if indices.dim() != 1 or data.shape[:1] != indices.shape or tuple(
            data.shape[1:]) != tuple(shape[1:]):
        raise MXNetError(f"check_format: row_sparse data {tuple(data.shape)} and indices "
                         f"{tuple(indices.shape)} do not fit shape {shape}")
    if full and indices.numel():
        if int(indices.min()) < 0 or int(indices.max()) >= shape[0] or bool(
                (indices[1:] <= indices[:-1]).any()):
            raise MXNetError("check_format: Indices of row_sparse NDArray should be "
                             "non-negative, less than the size of first dimension "
                             f"({shape[0]}) and in ascending order")
