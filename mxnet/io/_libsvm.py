"""``mx.io.LibSVMIter``: batches of CSR data read from LibSVM text files.

Each line is ``label idx:value idx:value ...`` with **zero-based** column indices (MXNet's
variant of the format). ``num_parts`` / ``part_index`` split the input by bytes at line
boundaries, as dmlc's line splitter does. Only ``round_batch=True`` exists (as in MXNet):
the last batch wraps around to the first rows and the next epoch starts after them.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np
import torch

from ..base import MXNetError
from ..context import Context
from ..ndarray._sparse_base import new_sparse
from ..ndarray.ndarray import NDArray
from ._native import MXDataIter, _BatchLoader, _parse_bool, _parse_shape
from .io import DataBatch

__all__ = ['LibSVMIter']

_CPU = Context('cpu', 0)


def _read_part(path: str, num_parts: int, part_index: int) -> list[bytes]:
    """The lines of part ``part_index`` of ``num_parts`` of the file(s) at ``path``."""
    if os.path.isdir(path):
        files = sorted(os.path.join(path, f) for f in os.listdir(path)
                       if os.path.isfile(os.path.join(path, f)))
    else:
        files = [path]
    try:
        blob = b''.join(open(f, 'rb').read() for f in files)  # noqa: SIM115
    except OSError as e:
        raise MXNetError(f'LibSVMIter: cannot read {path}: {e}') from None
    if not 0 <= part_index < num_parts:
        raise MXNetError(f'LibSVMIter: part_index {part_index} must be in [0, {num_parts})')
    step = -(-len(blob) // num_parts) if blob else 0
    lines, start = [], 0
    for raw in blob.splitlines(keepends=True):
        # a line belongs to the part holding the byte just before it (dmlc's seek rule)
        owner = 0 if start == 0 or step == 0 else min((start - 1) // step, num_parts - 1)
        if owner == part_index and raw.strip():
            lines.append(raw)
        start += len(raw)
    return lines


def _parse(lines: list[bytes], width: int, path: str, dtype) -> tuple[list, np.ndarray]:
    """``([(indices, values) per row], labels)``; indices are checked against ``width``."""
    rows, labels = [], np.zeros(len(lines), dtype=dtype)
    for n, line in enumerate(lines):
        toks = line.split()
        try:
            labels[n] = float(toks[0].split(b':')[0])
            feats = [t.split(b':') for t in toks[1:] if not t.startswith(b'qid:')]
            idx = np.array([int(k) for k, _ in feats], dtype=np.int64)
            val = np.array([float(v) for _, v in feats], dtype=dtype)
        except ValueError:
            raise MXNetError(f'LibSVMIter: {path}: cannot parse line {n + 1}: '
                             f'{line.strip()[:80]!r}') from None
        if idx.size and (idx.min() < 0 or idx.max() >= width):
            raise MXNetError(f'LibSVMIter: {path}: line {n + 1} has a feature index '
                             f'{int(idx.max())} outside the shape ({width},)')
        rows.append((idx, val))
    if np.dtype(dtype) == np.float32 and lines:
        rows, labels = _dmlc_values(lines, rows)
    return rows, labels


def _dmlc_values(lines: list[bytes], rows: list) -> tuple[list, np.ndarray]:
    """Labels and values re-read with dmlc's strtof, as MXNet's LibSVM parser reads them
    (float32, not correctly rounded for long decimals)."""
    from ._strtonum import strtof_many

    label_toks, value_toks = [], []
    for line in lines:
        toks = line.split()
        label_toks.append(toks[0].split(b':')[0].decode('latin-1'))
        value_toks += [t.split(b':')[1].decode('latin-1') for t in toks[1:]
                       if not t.startswith(b'qid:')]
    uniq = list(dict.fromkeys(label_toks + value_toks))
    parsed = strtof_many(uniq)
    where = {t: i for i, t in enumerate(uniq)}
    labels = parsed[[where[t] for t in label_toks]]
    values = parsed[np.fromiter(map(where.__getitem__, value_toks), dtype=np.int64,
                                count=len(value_toks))]
    out, start = [], 0
    for idx, _ in rows:
        out.append((idx, values[start:start + idx.size]))
        start += idx.size
    return out, labels


def _csr_batch(rows: list, width: int, dtype) -> NDArray:
    counts = [r[0].size for r in rows]
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(counts)
    idx = np.concatenate([r[0] for r in rows]) if rows else np.zeros(0, np.int64)
    val = np.concatenate([r[1] for r in rows]) if rows else np.zeros(0, dtype)
    return new_sparse('csr', torch.from_numpy(val.astype(dtype)),
                      (torch.from_numpy(indptr), torch.from_numpy(idx.astype(np.int64))),
                      (len(rows), width), _CPU)


class LibSVMIter(MXDataIter):
    """Batches of ``CSRNDArray`` data (and dense or CSR labels) from LibSVM files.

    Parameters
    ----------
    data_libsvm : str
        A file, or a folder whose files are read in name order.
    data_shape : tuple
        ``(num_features,)``.
    label_libsvm : str, default 'NULL'
        A second LibSVM file whose features are the (CSR) labels; without it the first
        column of ``data_libsvm`` is a dense label of shape ``(batch_size,)``.
    label_shape : tuple, default (1,)
    batch_size : int
    num_parts, part_index : int, default 1, 0
        Read only part ``part_index`` of ``num_parts`` (split by bytes at line boundaries).
    round_batch : bool, default True
        Must be True (MXNet's sparse batch loader supports nothing else).
    prefetch_buffer : int, default 4
    ctx : str, default 'gpu'
        Accepted for compatibility; batches are built on the CPU.
    dtype : str, default None (float32)
        dtype of the values (data and labels).

    Examples
    --------
    >>> it = mx.io.LibSVMIter(data_libsvm='d.t', data_shape=(3,), batch_size=2)  # doctest: +SKIP
    >>> it.next().data[0]                                                         # doctest: +SKIP
    <BLANKLINE>
    <CSRNDArray 2x3 @cpu(0)>
    """

    def __init__(self, data_libsvm: str, data_shape: Any, batch_size: int,
                 label_libsvm: str = 'NULL', label_shape: Any = (1,), num_parts: int = 1,
                 part_index: int = 0, round_batch: bool = True, prefetch_buffer: int = 4,
                 ctx: str = 'gpu', dtype: Any = None, data_name: str = 'data',
                 label_name: str = 'softmax_label', **kwargs) -> None:
        # like MXNet's C++ iterators, unknown keyword arguments are ignored
        del kwargs
        if not _parse_bool(round_batch):
            raise MXNetError("sparse batch loader doesn't support round_batch == false yet")
        dshape, lshape = _parse_shape(data_shape), _parse_shape(label_shape)
        if len(dshape) != 1 or len(lshape) != 1:
            raise MXNetError(f'LibSVMIter: data_shape {dshape} and label_shape {lshape} '
                             'must both be 1-D')
        self._dtype = np.dtype(dtype if dtype not in (None, 'None') else np.float32)
        self._width, self._lwidth = dshape[0], lshape[0]
        nparts, part = int(num_parts), int(part_index)
        self._rows, self._labels = _parse(_read_part(data_libsvm, nparts, part), dshape[0],
                                          data_libsvm, self._dtype)
        self._label_rows = None
        if label_libsvm not in (None, 'NULL', ''):
            self._label_rows = _parse(_read_part(label_libsvm, nparts, part), lshape[0],
                                      label_libsvm, self._dtype)[0]
            if len(self._label_rows) != len(self._rows):
                raise MXNetError(f'LibSVMIter: {data_libsvm} has {len(self._rows)} rows but '
                                 f'{label_libsvm} has {len(self._label_rows)}')
        elif lshape != (1,):
            raise MXNetError(f'LibSVMIter: label_shape {lshape} needs label_libsvm (labels '
                             'read from data_libsvm are scalars)')
        self._loader = _BatchLoader(len(self._rows), int(batch_size), True)
        super().__init__(data_name, label_name, prefetch_buffer)

    def _before_first(self) -> None:
        self._loader.before_first()

    def _next_batch(self) -> tuple | None:
        nxt = self._loader.next_indices()
        if nxt is None:
            return None
        rows, pad = nxt
        data = _csr_batch([self._rows[r] for r in rows], self._width, self._dtype)
        if self._label_rows is None:
            label = NDArray._wrap(torch.from_numpy(self._labels[rows]), _CPU)
        else:
            label = _csr_batch([self._label_rows[r] for r in rows], self._lwidth, self._dtype)
        return data, label, pad, np.array(rows, dtype=np.uint64)

    def next(self) -> DataBatch:
        if self.first_batch is not None:
            batch, self.first_batch = self.first_batch, None
            self._current = batch
            return batch
        if self._thread is None:
            raise StopIteration
        item = self._queue.get()
        if isinstance(item, tuple):
            data, label, pad, index = item
            self._current = DataBatch(data=[data], label=[label], pad=pad, index=index)
            return self._current
        self._thread.join()
        self._thread = None
        if isinstance(item, BaseException):
            raise item
        raise StopIteration
