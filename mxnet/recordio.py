"""RecordIO files (``.rec``/``.idx``) and the image-record payload (``IRHeader``).

Byte layout (MXNet/dmlc RecordIO): each record part is ``u32 magic 0xCED7230A``, ``u32 lrec``
(``cflag = lrec >> 29``, ``length = lrec & (2**29 - 1)``), the payload, zero padding to a
4-byte boundary. A payload containing the magic word at a 4-aligned offset is split there
into parts (cflag 1 first, 2 middle, 3 last) and the magic word is re-inserted on read.
"""
from __future__ import annotations

import atexit
import itertools
import numbers
import os
import struct
import weakref
from collections import namedtuple
from multiprocessing import current_process
from typing import Any, BinaryIO

import numpy as np

from .base import MXNetError

try:
    import cv2
except ImportError:  # pragma: no cover - cv2 is a dependency
    cv2 = None

__all__ = ['MXRecordIO', 'MXIndexedRecordIO', 'IRHeader', 'pack', 'unpack', 'pack_img',
           'unpack_img']

_MAGIC = 0xCED7230A
_MAGIC_BYTES = struct.pack('<I', _MAGIC)
_HEAD = struct.Struct('<II')
_LEN_MASK = (1 << 29) - 1
_MAX_PART = (1 << 29) - 1


def _encode_parts(buf: bytes) -> bytes:
    """The bytes that one record with payload ``buf`` occupies in a ``.rec`` file."""
    n = len(buf)
    if n > _MAX_PART:
        raise MXNetError('RecordIO only accepts records smaller than 2^29 bytes, got %d' % n)
    out = []
    start = 0
    pos = buf.find(_MAGIC_BYTES)
    limit = n - (n % 4)
    while 0 <= pos < limit:
        if pos % 4 == 0:
            flag = 1 if start == 0 else 2
            out.append(_HEAD.pack(_MAGIC, (flag << 29) | (pos - start)))
            out.append(buf[start:pos])
            start = pos + 4
            pos = buf.find(_MAGIC_BYTES, start)
        else:
            pos = buf.find(_MAGIC_BYTES, pos + 1)
    flag = 3 if start != 0 else 0
    out.append(_HEAD.pack(_MAGIC, (flag << 29) | (n - start)))
    out.append(buf[start:])
    pad = (-n) % 4
    if pad:
        out.append(b'\x00' * pad)
    return b''.join(out)


def _read_record(f: BinaryIO, path: str, offset: int | None = None) -> bytes | None:
    """Read the record starting at the current position of ``f``; None at end of file."""
    parts = []
    start = f.tell() if offset is None else offset
    pos = start
    while True:
        head = f.read(8)
        if not head:
            if parts:
                raise MXNetError('Invalid RecordIO file %s: record at byte offset %d ends '
                                 'in the middle of a split record' % (path, start))
            return None
        if len(head) < 8:
            raise MXNetError('Invalid RecordIO file %s: truncated record header at byte '
                             'offset %d' % (path, pos))
        magic, lrec = _HEAD.unpack(head)
        if magic != _MAGIC:
            raise MXNetError('Invalid RecordIO file %s: bad magic word 0x%08x at byte offset '
                             '%d (expected 0xced7230a)' % (path, magic, pos))
        cflag = lrec >> 29
        length = lrec & _LEN_MASK
        padded = (length + 3) & ~3
        data = f.read(padded)
        if len(data) < padded:
            raise MXNetError('Invalid RecordIO file %s: truncated record at byte offset %d '
                             '(needs %d payload bytes, file has %d)'
                             % (path, pos, padded, len(data)))
        parts.append(data[:length] if padded != length else data)
        pos += 8 + padded
        if cflag in (0, 3):
            break
        if cflag not in (1, 2):
            raise MXNetError('Invalid RecordIO file %s: bad cflag %d at byte offset %d'
                             % (path, cflag, pos))
        parts.append(_MAGIC_BYTES)
    return parts[0] if len(parts) == 1 else b''.join(parts)


def _pread_record(fd: int, path: str, pos: int) -> tuple[bytes, int]:
    """Read the record at byte offset ``pos`` with ``os.pread`` (no shared file position, so
    several threads may read one file); returns the payload and the offset after it."""
    parts = []
    start = pos
    while True:
        head = os.pread(fd, 8, pos)
        if len(head) < 8:
            what = 'ends in the middle of a split record' if parts and not head else \
                'has a truncated record header'
            raise MXNetError('Invalid RecordIO file %s: record at byte offset %d %s'
                             % (path, start if parts else pos, what))
        magic, lrec = _HEAD.unpack(head)
        if magic != _MAGIC:
            raise MXNetError('Invalid RecordIO file %s: bad magic word 0x%08x at byte offset '
                             '%d (expected 0xced7230a)' % (path, magic, pos))
        cflag, length = lrec >> 29, lrec & _LEN_MASK
        data = os.pread(fd, length, pos + 8) if length else b''
        if len(data) < length:
            raise MXNetError('Invalid RecordIO file %s: truncated record at byte offset %d '
                             '(needs %d payload bytes, file has %d)'
                             % (path, pos, length, len(data)))
        parts.append(data)
        pos += 8 + ((length + 3) & ~3)
        if cflag in (0, 3):
            break
        if cflag not in (1, 2):
            raise MXNetError('Invalid RecordIO file %s: bad cflag %d at byte offset %d'
                             % (path, cflag, pos))
        parts.append(_MAGIC_BYTES)
    return (parts[0] if len(parts) == 1 else b''.join(parts)), pos


def _find_record_start(f: BinaryIO, pos: int, end: int) -> int:
    """First offset ``>= pos`` (4-aligned) where a whole or first-part record begins."""
    pos = (pos + 3) & ~3
    chunk = 1 << 20
    while pos < end:
        f.seek(pos)
        data = f.read(min(chunk, end - pos) + 8)
        i = data.find(_MAGIC_BYTES)
        while i >= 0:
            if i % 4 == 0 and i + 8 <= len(data):
                cflag = _HEAD.unpack_from(data, i)[1] >> 29
                if cflag in (0, 1):
                    return pos + i
            i = data.find(_MAGIC_BYTES, i + 1)
        pos += min(chunk, end - pos)
    return end


def _part_range(path: str, num_parts: int, part_index: int) -> tuple[int, int]:
    """Byte range ``[begin, end)`` of part ``part_index`` of ``num_parts`` of a ``.rec``."""
    total = os.path.getsize(path)
    step = (total + num_parts - 1) // num_parts
    step = (step + 3) & ~3
    begin = min(step * part_index, total)
    end = min(step * (part_index + 1), total)
    with open(path, 'rb') as f:
        if begin != 0:
            begin = _find_record_start(f, begin, total)
        if end != total:
            end = _find_record_start(f, end, total)
    return begin, end


_OPEN_WRITERS: weakref.WeakSet = weakref.WeakSet()
_TMP_COUNT = itertools.count()


def _tmp_name(path: str) -> str:
    """A temporary name for a file being written: unique per writer, so two writers of one
    path (a leaked, unclosed one and a new one) never share, and clobber, a temporary."""
    return '%s.tmp%d.%d' % (path, os.getpid(), next(_TMP_COUNT))


@atexit.register
def _close_open_writers() -> None:
    """Publish files of writers never closed (MXNet flushed them at exit too)."""
    for w in list(_OPEN_WRITERS):
        try:
            w.close()
        except Exception:  # noqa: BLE001 - best effort at interpreter exit
            pass


class MXRecordIO:
    """Sequential reader/writer of a RecordIO (``.rec``) file.

    Parameters
    ----------
    uri : str
        Path of the file.
    flag : str
        'w' to write, 'r' to read.

    Examples
    --------
    >>> rec = mx.recordio.MXRecordIO('tmp.rec', 'w')  # doctest: +SKIP
    >>> rec.write(b'record_0'); rec.close()           # doctest: +SKIP
    >>> mx.recordio.MXRecordIO('tmp.rec', 'r').read()  # doctest: +SKIP
    b'record_0'
    """

    def __init__(self, uri: str, flag: str) -> None:
        self.uri = os.fspath(uri)
        self.flag = flag
        self.pid: int | None = None
        self.is_open = False
        self._f: BinaryIO | None = None
        self._tmp: str | None = None
        self.open()

    def open(self) -> None:
        """Open the file (truncating it when writing)."""
        if self.flag == 'w':
            self._tmp = _tmp_name(self.uri)
            self._f = open(self._tmp, 'wb')
            self.writable = True
            _OPEN_WRITERS.add(self)
        elif self.flag == 'r':
            try:
                self._f = open(self.uri, 'rb')
            except OSError as e:
                raise MXNetError('Cannot open RecordIO file %s: %s' % (self.uri, e)) from None
            self.writable = False
        else:
            raise ValueError('Invalid flag %s' % self.flag)
        self.pid = current_process().pid
        self.is_open = True

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - never raise from a finalizer
            pass

    def __getstate__(self) -> dict:
        is_open = self.is_open
        self.close()
        d = dict(self.__dict__)
        d['is_open'] = is_open
        d['_f'] = None
        return d

    def __setstate__(self, d: dict) -> None:
        self.__dict__ = d
        is_open = d['is_open']
        self.is_open = False
        if is_open:
            self.open()

    def _check_pid(self, allow_reset: bool = False) -> None:
        if self.pid != current_process().pid:
            if allow_reset:
                self.reset()
            else:
                raise RuntimeError('Forbidden operation in multiple processes')

    def close(self) -> None:
        """Close the file (a written file appears under its name now)."""
        if not self.is_open:
            return
        self._f.close()
        self._f = None
        if self.writable and self._tmp is not None:
            if self.pid == current_process().pid:
                os.replace(self._tmp, self.uri)
            self._tmp = None
        self.is_open = False
        self.pid = None

    def reset(self) -> None:
        """Go back to the first record (reopens the file)."""
        self.close()
        self.open()

    def write(self, buf: bytes) -> None:
        """Append one record with payload ``buf``."""
        assert self.writable
        self._check_pid(allow_reset=False)
        if isinstance(buf, str):  # MXNet 1.9.1 hands buf to ctypes.c_char_p
            raise TypeError("bytes or integer address expected instead of str instance")
        self._f.write(_encode_parts(bytes(buf)))

    def read(self) -> bytes | None:
        """Return the next record's payload, or None at the end of the file."""
        assert not self.writable
        self._check_pid(allow_reset=False)
        return _read_record(self._f, self.uri)


class MXIndexedRecordIO(MXRecordIO):
    """RecordIO file with an ``.idx`` index of ``key\\toffset`` lines for random access.

    Parameters
    ----------
    idx_path : str
        Path of the index file.
    uri : str
        Path of the ``.rec`` file.
    flag : str
        'w' or 'r'.
    key_type : type
        Type of the keys (default int).

    Examples
    --------
    >>> rec = mx.recordio.MXIndexedRecordIO('t.idx', 't.rec', 'w')  # doctest: +SKIP
    >>> rec.write_idx(3, b'three'); rec.close()                     # doctest: +SKIP
    >>> mx.recordio.MXIndexedRecordIO('t.idx', 't.rec', 'r').read_idx(3)  # doctest: +SKIP
    b'three'
    """

    def __init__(self, idx_path: str, uri: str, flag: str, key_type: type = int) -> None:
        self.idx_path = os.fspath(idx_path)
        self.idx: dict = {}
        self.keys: list = []
        self.key_type = key_type
        self.fidx = None
        self._idx_tmp: str | None = None
        super().__init__(uri, flag)

    def open(self) -> None:
        super().open()
        self.idx = {}
        self.keys = []
        if self.writable:
            self._idx_tmp = _tmp_name(self.idx_path)
            self.fidx = open(self._idx_tmp, 'w')
            return
        try:
            self.fidx = open(self.idx_path, encoding='utf-8')
            self._read_index()
        except BaseException:
            self.close()  # never leave the .rec (or .idx) file open on a bad index
            raise

    def _read_index(self) -> None:
        size = os.fstat(self._f.fileno()).st_size
        try:
            lines = self.fidx.read().split('\n')
        except UnicodeDecodeError as e:
            raise MXNetError('Invalid index file %s: not UTF-8 text (%s)'
                             % (self.idx_path, e)) from None
        for lineno, line in enumerate(lines, 1):
            fields = line.strip().split('\t')
            if fields == ['']:
                continue
            try:
                key = self.key_type(fields[0])
                pos = int(fields[1])
            except (ValueError, IndexError):
                raise MXNetError('Invalid index file %s: line %d is %r, expected '
                                 '"key<TAB>offset"' % (self.idx_path, lineno, line)) from None
            if pos < 0 or pos >= size:
                raise MXNetError('Invalid index file %s: line %d points to byte offset %d, '
                                 'past the end of %s (%d bytes)'
                                 % (self.idx_path, lineno, pos, self.uri, size))
            self.idx[key] = pos
            self.keys.append(key)

    def close(self) -> None:
        """Close the record and index files."""
        if not self.is_open:
            return
        writable, mine = self.writable, self.pid == current_process().pid
        super().close()
        if self.fidx is not None:
            self.fidx.close()
        if writable and self._idx_tmp is not None:
            if mine:
                os.replace(self._idx_tmp, self.idx_path)
            self._idx_tmp = None

    def __getstate__(self) -> dict:
        d = super().__getstate__()
        d['fidx'] = None
        return d

    def seek(self, idx: Any) -> None:
        """Move the read position to the record with key ``idx``."""
        assert not self.writable
        self._check_pid(allow_reset=True)
        self._f.seek(self.idx[idx])

    def tell(self) -> int:
        """Byte offset where the next record will be written."""
        assert self.writable
        return self._f.tell()

    def read_idx(self, idx: Any) -> bytes:
        """Return the payload of the record with key ``idx``."""
        assert not self.writable
        self._check_pid(allow_reset=True)
        pos = self.idx[idx]
        rec, end = _pread_record(self._f.fileno(), self.uri, pos)
        self._f.seek(end)
        return rec

    def write_idx(self, idx: Any, buf: bytes) -> None:
        """Append a record with key ``idx`` and add it to the index."""
        key = self.key_type(idx)
        pos = self.tell()
        self.write(buf)
        self.fidx.write('%s\t%d\n' % (str(key), pos))
        self.idx[key] = pos
        self.keys.append(key)


IRHeader = namedtuple('HEADER', ['flag', 'label', 'id', 'id2'])
IRHeader.__doc__ = """Header of an image record: ``flag`` (0, or the label count), ``label``
(a float or an array of floats), ``id`` and ``id2`` (integers).

Examples
--------
>>> mx.recordio.IRHeader(0, 1.0, 7, 0)
HEADER(flag=0, label=1.0, id=7, id2=0)
"""

_IR_FORMAT = 'IfQQ'
_IR_SIZE = struct.calcsize(_IR_FORMAT)


def pack(header: IRHeader, s: bytes) -> bytes:
    """Prefix payload ``s`` with an ``IRHeader`` (and the label vector when not scalar).

    Examples
    --------
    >>> len(mx.recordio.pack(mx.recordio.IRHeader(0, [1, 2], 0, 0), b'xy'))
    34
    """
    header = IRHeader(*header)
    if isinstance(header.label, numbers.Number):
        header = header._replace(flag=0)
    else:
        label = np.asarray(header.label, dtype=np.float32)
        header = header._replace(flag=label.size, label=0)
        s = label.tobytes() + s
    return struct.pack(_IR_FORMAT, *header) + s


def unpack(s: bytes) -> tuple[IRHeader, bytes]:
    """Split an image record into its ``IRHeader`` and the remaining bytes.

    Examples
    --------
    >>> h, rest = mx.recordio.unpack(mx.recordio.pack(mx.recordio.IRHeader(0, 3, 1, 0), b'a'))
    >>> h.label, rest
    (3.0, b'a')
    """
    if len(s) < _IR_SIZE:
        raise MXNetError('Invalid image record: %d bytes, shorter than the %d-byte IRHeader'
                         % (len(s), _IR_SIZE))
    header = IRHeader(*struct.unpack(_IR_FORMAT, s[:_IR_SIZE]))
    s = s[_IR_SIZE:]
    if header.flag > 0:
        if len(s) < header.flag * 4:
            raise MXNetError('Invalid image record: header announces %d labels but only %d '
                             'bytes follow' % (header.flag, len(s)))
        header = header._replace(label=np.frombuffer(s, np.float32, header.flag))
        s = s[header.flag * 4:]
    return header, s


def unpack_img(s: bytes, iscolor: int = -1) -> tuple[IRHeader, np.ndarray]:
    """Unpack an image record and decode the image with OpenCV (BGR order).

    Examples
    --------
    >>> header, img = mx.recordio.unpack_img(rec.read())  # doctest: +SKIP
    """
    header, s = unpack(s)
    # an undecodable payload gives (header, None), as MXNet 1.9.1 (OpenCV's result)
    img = cv2.imdecode(np.frombuffer(s, dtype=np.uint8), iscolor)
    return header, img


def pack_img(header: IRHeader, img: np.ndarray, quality: int = 95,
             img_fmt: str = '.jpg') -> bytes:
    """Encode ``img`` (BGR, as from ``cv2.imread``) with OpenCV and pack it with ``header``.

    ``quality`` is the JPEG quality or the PNG compression level.

    Examples
    --------
    >>> s = mx.recordio.pack_img(mx.recordio.IRHeader(0, 1, 0, 0), img)  # doctest: +SKIP
    """
    params = None
    if img_fmt.upper() in ('.JPG', '.JPEG'):
        params = [cv2.IMWRITE_JPEG_QUALITY, quality]
    elif img_fmt.upper() == '.PNG':
        params = [cv2.IMWRITE_PNG_COMPRESSION, quality]
    ok, buf = cv2.imencode(img_fmt, img, params)
    assert ok, 'failed to encode image'
    return pack(header, buf.tobytes())
