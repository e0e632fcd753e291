"""MXNet 1.x binary NDArray records and list files (``.params``, pickles).

Layouts are those of ``/work/shared/FORMATS.md`` sections 1-2: a list file is a header, the
records and the names; one record holds one array. Reading accepts the V1, V2, V3 and legacy
record versions; sparse (csr, row_sparse) records load as ``CSRNDArray`` /
``RowSparseNDArray`` (:mod:`mxnet.ndarray.sparse`) and are written back as sparse records. Writing produces exactly what
MXNet 1.9.1 writes: V2 records (V3 under NumPy-shape semantics).

Every length read from a file is checked against the bytes that remain before anything is
allocated, so truncated or lying files raise :class:`~mxnet.base.MXNetError` naming the file
and the byte offset.
"""

from __future__ import annotations

import os
import struct
import tempfile

import numpy as np
import torch

from .. import _deferred, _dtype
from ..base import MXNetError
from ..context import Context

__all__ = ["save_file", "load_file", "load_bytes", "dumps_one", "loads_one", "encode_list",
           "LIST_MAGIC", "V1_MAGIC", "V2_MAGIC", "V3_MAGIC"]

LIST_MAGIC = 0x112
V1_MAGIC = 0xF993FAC8
V2_MAGIC = 0xF993FAC9
V3_MAGIC = 0xF993FACA

_STYPE_NAMES = {0: "default", 1: "row_sparse", 2: "csr"}
_NUM_AUX = {0: 0, 1: 1, 2: 2}
_MAX_NDIM = 64  # far above any real array; guards against garbage headers

_NP_DTYPES = {code: (np.dtype(name) if name != "bfloat16" else np.dtype(np.uint16))
              for code, name in _dtype.CODE_TO_NAME.items()}


class _Reader:
    """Bounds-checked little-endian reader over a byte buffer."""

    __slots__ = ("buf", "pos", "name")

    def __init__(self, buf, name: str):
        self.buf = memoryview(buf).cast("B")
        self.pos = 0
        self.name = name

    def fail(self, what: str, at: int | None = None):
        at = self.pos if at is None else at
        raise MXNetError(f"Invalid NDArray file format: {self.name}: {what} "
                         f"(at byte offset {at}, file size {len(self.buf)})")

    def need(self, n: int, what: str) -> None:
        left = len(self.buf) - self.pos
        if n < 0 or n > left:
            self.fail(f"truncated or corrupt data: {what} needs {n} bytes but only {left} "
                      "remain")

    def unpack(self, fmt: str, what: str):
        size = struct.calcsize(fmt)
        self.need(size, what)
        vals = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += size
        return vals

    def u32(self, what: str) -> int:
        return self.unpack("<I", what)[0]

    def i32(self, what: str) -> int:
        return self.unpack("<i", what)[0]

    def u64(self, what: str) -> int:
        return self.unpack("<Q", what)[0]

    def take(self, n: int, what: str) -> memoryview:
        self.need(n, what)
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out

    def shape(self, what: str, legacy_ndim: int | None = None) -> tuple[int, ...] | None:
        """Read a TShape; ``None`` means an unknown shape (ndim -1)."""
        start = self.pos
        if legacy_ndim is not None:
            ndim, fmt = legacy_ndim, "I"
        else:
            ndim, fmt = self.i32(f"{what} ndim"), "q"
            if ndim == -1:
                return None
        if ndim < 0 or ndim > _MAX_NDIM:
            self.fail(f"{what} has an invalid number of dimensions {ndim}", start)
        dims = self.unpack(f"<{ndim}{fmt}", f"{what} dims") if ndim else ()
        for d in dims:
            if d < -1:
                self.fail(f"{what} has a negative dimension {d}", start)
        return tuple(dims)


def _nbytes(shape, itemsize: int, r: _Reader, what: str, start: int) -> int:
    n = 1
    for d in shape:
        if d < 0:
            r.fail(f"{what} has an unknown dimension in {shape}", start)
        n *= d
    nbytes = n * itemsize
    left = len(r.buf) - r.pos
    if nbytes > left:
        r.fail(f"{what} of shape {shape} needs {nbytes} data bytes but only {left} remain")
    return nbytes


def _read_dtype(r: _Reader, what: str) -> int:
    at = r.pos
    code = r.i32(f"{what} type flag")
    if code not in _NP_DTYPES:
        r.fail(f"{what} has an unknown dtype code {code}", at)
    return code


def _read_data(r: _Reader, shape, code: int, what: str, start: int) -> np.ndarray:
    npdt = _NP_DTYPES[code]
    nbytes = _nbytes(shape, npdt.itemsize, r, what, start)
    raw = r.take(nbytes, f"{what} data")
    try:
        return np.frombuffer(raw, dtype=npdt.newbyteorder("<")).astype(npdt, copy=True).reshape(
            shape)
    except ValueError as e:  # e.g. a zero-size shape with absurd other dimensions
        r.fail(f"{what} has an invalid shape {shape}: {e}", start)


def _read_ctx(r: _Reader, what: str) -> None:
    at = r.pos
    dev_type, _dev_id = r.unpack("<ii", f"{what} context")
    if dev_type not in Context.devtype2str:
        r.fail(f"{what} has an unknown device type {dev_type}", at)


class _SparseRecord:
    """The parts of a sparse record, turned into a sparse NDArray by :func:`_to_ndarray`."""

    __slots__ = ("stype", "shape", "values", "aux")

    def __init__(self, stype: int, shape, values: np.ndarray, aux: list[np.ndarray]):
        self.stype, self.shape, self.values, self.aux = stype, shape, values, aux


def _check_sparse(stype: int, shape, values: np.ndarray, aux: list[np.ndarray], r, start):
    # every operator without a sparse kernel densifies (storage fallback): refuse records
    # whose dense form could never exist on this machine (a lying header, typically)
    nbytes = int(np.prod(shape, dtype=object)) * values.dtype.itemsize
    try:
        limit = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        limit = 1 << 36
    if nbytes > limit:
        r.fail(f"sparse record of shape {shape} would densify to {nbytes} bytes, more than "
               f"this machine's memory ({limit} bytes)", start)
    try:
        _check_sparse_parts(stype, shape, values, aux, r, start)
    except (ValueError, IndexError) as e:
        r.fail(f"corrupt sparse record of shape {shape}: {e}", start)
    return _SparseRecord(stype, shape, values, aux)


def _check_sparse_parts(stype: int, shape, values: np.ndarray, aux: list[np.ndarray], r,
                        start):
    if stype == 1:  # row_sparse: aux 0 = row indices
        idx = aux[0].astype(np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= shape[0]):
            r.fail("row_sparse record has a row index out of range", start)
        if values.shape[0] != idx.size:
            r.fail("row_sparse record: value rows and indices differ in length", start)
        return
    indptr, indices = aux[0].astype(np.int64), aux[1].astype(np.int64)
    if len(shape) != 2 or indptr.size != shape[0] + 1 or indices.size != values.size:
        r.fail(f"csr record has inconsistent indptr/indices for shape {shape}", start)
    if (values.size and (indices.min() < 0 or indices.max() >= shape[1])) or (
            indptr[0] != 0 or indptr[-1] != values.size or np.any(np.diff(indptr) < 0)):
        r.fail("csr record has out-of-range indices or a non-monotonic indptr", start)


def _read_record(r: _Reader, v2_scalars: bool = False):
    """Read one record; return ``(numpy array or None, dtype code)``.

    A V2 record with ``ndim == 0`` is a "none" array, except that MXNet 1.9.1 also writes a
    0-d array that way followed by its context, dtype and one element; ``v2_scalars`` reads
    it as such (callers retry with it when the plain reading leaves bytes unexplained).
    """
    start = r.pos
    magic = r.u32("record magic")
    if magic not in (V2_MAGIC, V3_MAGIC):
        if magic == V1_MAGIC:
            shape = r.shape("V1 shape")
        else:  # legacy: the magic is the ndim, dims are u32
            shape = r.shape("legacy shape", legacy_ndim=magic)
        if not shape:
            return None, 0
        _read_ctx(r, "record")
        code = _read_dtype(r, "record")
        return _read_data(r, shape, code, "record", start), code
    np_shape = magic == V3_MAGIC
    at = r.pos
    stype = r.i32("storage type")
    if stype not in _STYPE_NAMES:
        r.fail(f"unknown storage type {stype}", at)
    nad = _NUM_AUX[stype]
    sshape = r.shape("storage shape") if nad else None
    shape = r.shape("shape")
    if shape is None or (not np_shape and len(shape) == 0 and not v2_scalars):
        return None, 0
    if np_shape and any(d == -1 for d in shape):
        return None, 0
    _read_ctx(r, "record")
    code = _read_dtype(r, "record")
    if not nad:
        return _read_data(r, shape, code, "record", start), code
    aux_meta = []
    for i in range(nad):
        acode = _read_dtype(r, f"aux {i}")
        aux_meta.append((acode, r.shape(f"aux {i} shape")))
    # MXNet sizes the stored values from the aux shapes (the saved storage shape can be
    # stale, e.g. (0, 2) for a row_sparse array made by tostype): do the same.
    key_shape = aux_meta[0][1] if stype == 1 else aux_meta[1][1]
    if not key_shape or sshape is None:
        r.fail("sparse record has an unknown storage or aux shape", start)
    sshape = (key_shape[0],) + tuple(shape[1:]) if stype == 1 else (key_shape[0],)
    values = _read_data(r, sshape, code, "sparse values", start)
    aux = [_read_data(r, s if s is not None else (), c, f"aux {i}", start)
           for i, (c, s) in enumerate(aux_meta)]
    return _check_sparse(stype, shape, values, aux, r, start), code


def _np_to_torch(arr: np.ndarray, code: int) -> torch.Tensor:
    if _dtype.CODE_TO_NAME[code] == "bfloat16":
        return torch.from_numpy(arr.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(arr)


def _to_ndarray(arr, code: int):
    from .ndarray import NDArray

    ctx = Context("cpu", 0)
    if arr is None:
        return NDArray._wrap(torch.empty(0), ctx)
    if isinstance(arr, _SparseRecord):
        from ._sparse_base import new_sparse

        aux = [torch.from_numpy(a.astype(np.int64)) for a in arr.aux]
        return new_sparse(_STYPE_NAMES[arr.stype], _np_to_torch(arr.values, code), aux,
                          arr.shape, ctx)
    return NDArray._wrap(_np_to_torch(arr, code), ctx)


def load_bytes(buf, name: str = "<buffer>"):
    """Parse the bytes of a list file: a ``list`` (no names) or a ``dict`` (names).

    Examples
    --------
    >>> from mxnet.ndarray._serial import load_bytes, encode_list
    >>> load_bytes(encode_list([mx.nd.ones((2,))], None))[0].shape
    (2,)
    """
    try:
        res, left = _load_list(buf, name, False)
    except MXNetError as first:
        try:
            return _load_list(buf, name, True)[0]
        except MXNetError:
            raise first from None
    if left:  # maybe 0-d arrays written by MXNet as V2 ndim-0 records (see _read_record)
        try:
            res2, left2 = _load_list(buf, name, True)
            if not left2:
                return res2
        except MXNetError:
            pass
    return res  # like MXNet, trailing bytes after the names are ignored


def _check_shape_semantics(r: _Reader, np_on: bool) -> None:
    """MXNet loads V3 (NumPy-shape) records only with NumPy-shape semantics on, V2 only off."""
    if r.pos + 4 > len(r.buf):
        return
    magic = struct.unpack_from("<I", r.buf, r.pos)[0]
    if magic == V3_MAGIC and not np_on:
        raise MXNetError("ndarray was saved in np shape semantics, must be loaded in the same "
                         "semantics. Please turn on np shape semantics in Python using "
                         "`with np_shape(True)` or decorator `use_np_shape` to scope the code "
                         "of loading the ndarray.")
    if magic == V2_MAGIC and np_on:
        raise MXNetError("ndarray was not saved in np shape semantics, but being loaded in np "
                         "shape semantics. Please turn off np shape semantics in Python using "
                         "`with np_shape(False)` to scope the code of loading the ndarray.")


def _load_list(buf, name: str, v2_scalars: bool) -> tuple:
    r = _Reader(buf, name)
    header = r.u64("list header")
    r.u64("reserved field")
    if header != LIST_MAGIC:
        r.fail(f"bad list magic 0x{header:x} (expected 0x{LIST_MAGIC:x})", 0)
    at = r.pos
    n = r.u64("array count")
    if n > len(r.buf) // 4:  # every record takes at least 4 bytes
        r.fail(f"array count {n} exceeds what the file can hold", at)
    from ..util import is_np_shape

    np_on = is_np_shape()
    arrays = []
    for _ in range(n):
        _check_shape_semantics(r, np_on)
        arrays.append(_to_ndarray(*_read_record(r, v2_scalars)))
    at = r.pos
    k = r.u64("name count")
    if k not in (0, n):
        r.fail(f"{k} names for {n} arrays", at)
    names = []
    for i in range(k):
        ln = r.u64(f"name {i} length")
        try:
            names.append(bytes(r.take(ln, f"name {i}")).decode("utf-8"))
        except UnicodeDecodeError:
            r.fail(f"name {i} is not valid UTF-8")
    left = len(r.buf) - r.pos
    if not k:
        return arrays, left
    return dict(zip(names, arrays)), left


def load_file(fname):
    """Read a list file written by ``mx.nd.save`` (ours or real MXNet's)."""
    fname = os.fspath(fname)
    try:
        with open(fname, "rb") as f:
            buf = f.read()
    except OSError as e:
        raise MXNetError(f"Cannot open NDArray file {fname!r}: {e}") from None
    return load_bytes(buf, fname)


# ---------------------------------------------------------------------------------------
# writing


def _pack_shape(shape) -> bytes:
    return struct.pack(f"<i{len(shape)}q", len(shape), *shape)


def _type_code(t: torch.Tensor) -> int:
    name = _dtype.TORCH_TO_NAME.get(t.dtype)
    if name is None:
        raise MXNetError(f"nd.save: dtype {t.dtype} has no MXNet type code")
    return _dtype.NAME_TO_CODE[name]


def _raw_bytes(t: torch.Tensor) -> bytes:
    data = t.detach()
    if data.device.type != "cpu":
        data = data.cpu()
    if data.dtype == torch.bfloat16:
        data = data.view(torch.int16)
    a = data.numpy()
    return np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=False).tobytes()


def _encode_record(arr, np_shape: bool = False) -> bytes:
    """One V2 (V3 with ``np_shape``) record, as MXNet 1.9.1 writes it (sparse too)."""
    if _deferred.PENDING[0]:
        _deferred.check(arr)  # MXNet waits for the array: its deferred failure surfaces here
    magic = V3_MAGIC if np_shape else V2_MAGIC
    ctx = arr._ctx
    stype = arr.stype
    if stype != "default":
        if np_shape:
            raise MXNetError(f"nd.save: {stype} arrays cannot be saved under NumPy-shape "
                             "semantics (only dense storage is allowed)")
        values, aux = arr._sdata, arr._saux
        code = {"row_sparse": 1, "csr": 2}[stype]
        parts = [struct.pack("<Ii", magic, code), _pack_shape(tuple(values.shape)),
                 _pack_shape(arr.shape), struct.pack("<ii", ctx.device_typeid, ctx.device_id),
                 struct.pack("<i", _type_code(values))]
        for a in aux:
            parts += [struct.pack("<i", _type_code(a)), _pack_shape(tuple(a.shape))]
        parts += [_raw_bytes(values)] + [_raw_bytes(a) for a in aux]
        return b"".join(parts)
    t = arr._t
    parts = [struct.pack("<Ii", magic, 0), _pack_shape(tuple(t.shape)),
             struct.pack("<ii", ctx.device_typeid, ctx.device_id),
             struct.pack("<i", _type_code(t)), _raw_bytes(t)]
    return b"".join(parts)


def dumps_one(arr) -> bytes:
    """The single-record bytes of ``arr`` (the pickle/``.states`` form, no list header)."""
    from ..util import is_np_shape

    return _encode_record(arr, is_np_shape())


def loads_one(buf, name: str = "<pickled NDArray>"):
    """Inverse of :func:`dumps_one`."""
    r = _Reader(buf, name)
    rec = _read_record(r)
    if r.pos != len(r.buf):  # a 0-d array written by MXNet outside NumPy-shape mode
        r = _Reader(buf, name)
        rec = _read_record(r, True)
    return _to_ndarray(*rec)


def encode_list(arrays, names, np_shape: bool = False) -> bytes:
    """The bytes of a whole list file for ``arrays`` (and ``names``, or ``None``)."""
    parts = [struct.pack("<QQQ", LIST_MAGIC, 0, len(arrays))]
    parts += [_encode_record(a, np_shape) for a in arrays]
    names = names or []
    parts.append(struct.pack("<Q", len(names)))
    for n in names:
        b = n.encode("utf-8")
        parts.append(struct.pack("<Q", len(b)) + b)
    return b"".join(parts)


def _normalize(data):
    from .ndarray import NDArray

    if isinstance(data, NDArray):
        return [data], None
    if isinstance(data, dict):
        names, arrays = [], []
        for k, v in data.items():
            if not isinstance(k, str):
                raise TypeError("save only accept dict str->NDArray or list of NDArray")
            if not isinstance(v, NDArray):
                raise TypeError("save only accept dict str->NDArray or list of NDArray")
            names.append(k)
            arrays.append(v)
        return arrays, names
    if isinstance(data, (list, tuple)):
        if any(not isinstance(v, NDArray) for v in data):
            raise TypeError("save only accept dict str->NDArray or list of NDArray")
        return list(data), None
    raise ValueError("data needs to either be a NDArray, dict of str, NDArray pairs "
                     "or a list of NDarrays.")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def save_file(fname, data, np_shape: bool | None = None) -> None:
    """Write ``data`` (NDArray, list or str->NDArray dict) to ``fname`` atomically.

    Examples
    --------
    >>> from mxnet.ndarray._serial import save_file, load_file
    >>> save_file('/tmp/a.params', {'w': mx.nd.ones((2,))})
    >>> load_file('/tmp/a.params')['w'].asnumpy().tolist()
    [1.0, 1.0]
    """
    if np_shape is None:
        from ..util import is_np_shape

        np_shape = is_np_shape()
    fname = os.fspath(fname)
    arrays, names = _normalize(data)
    blob = encode_list(arrays, names, np_shape)
    folder = os.path.dirname(os.path.abspath(fname))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".params", dir=folder)
    except OSError as e:  # MXNet's file stream fails to open: MXNetError
        raise MXNetError(f"Cannot open NDArray file {fname!r} for writing: {e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, fname)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
