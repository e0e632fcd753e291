"""MXNet 1.9.1's CPU parallel random generator, reproduced bit for bit (private).

MXNet's CPU samplers (``nd.random.uniform/normal``, the ``_sample_*`` operators and the
initializers built on them) draw from one set of 1024 ``std::mt19937`` engines shared by
every CPU context; engine ``j`` is seeded with ``127 * seed + j`` (``seed`` 0 until
``mx.random.seed``, which reseeds them whichever CPU context it names). An operator with ``N`` outputs runs ``T = min(ceil(N / 64), 1024)``
workers; worker ``j`` fills outputs ``[j * step, (j + 1) * step)`` (``step = ceil(N / T)``)
from engine ``j``. A float32 uniform is one 32-bit draw rounded to float and divided by
2**32 (libstdc++'s ``generate_canonical``), a float64 one uses two draws; a normal is the
second value of libstdc++'s polar method on a fresh ``normal_distribution``. Engines keep
their position from call to call, so sequences continue as in MXNet.

MXNet's NumPy-interface samplers (``mx.np.random.uniform/normal``) use another engine:
one ``std::mt19937`` seeded with ``127 * seed``, read in order (a float32 draw per value,
a normal distribution object per call, so both values of each polar pair are used), with
the arithmetic done in float32 (see :func:`np_uniform01`, :func:`np_normal01`).

The engines run in C (``mxnet/_kernels/rng.c``, one engine per OpenMP task) where the native
kernels can be built, else here in NumPy, vectorised over the engines that need new output;
both give the same bits and share the engine states (NumPy arrays owned here), so they can
be mixed. ``NATIVE = False`` (or ``MXNET_NG_NATIVE=0``) forces the NumPy code. Setting
``MXNET_NG_TORCH_RNG=1`` before importing mxnet uses torch's generators instead.
"""

from __future__ import annotations

import math
import os
import threading

import numpy as np

__all__ = ["seed", "uniform", "normal", "np_uniform01", "np_normal01"]

_N, _M = 624, 397
_NSTATES, _MIN_PER_WORKER, _MAGIC = 1024, 64, 127
_U32 = np.uint32
_MATRIX_A = _U32(0x9908B0DF)
_UPPER, _LOWER = _U32(0x80000000), _U32(0x7FFFFFFF)
_LOCK = threading.RLock()
ENABLED = os.environ.get("MXNET_NG_TORCH_RNG", "0") != "1"
_STATE: list = [None, None]  # the parallel engines and the NumPy-interface engine
_SEED = [0]
NATIVE = True  # use mxnet/_kernels/rng.c when it can be built (tests turn it off)
# kinds of mxng_rng_fill
_RAW, _UNI_F, _UNI_D, _NORM_F, _NORM_D, _MASK_F, _MASK_D = range(7)


def _lib():
    """The native engines (:mod:`mxnet._kernels` ``rng``), or ``None`` for the NumPy code."""
    if not NATIVE:
        return None
    from . import _kernels

    return _kernels.library("rng")


def _threads() -> int:
    """OpenMP threads for the native engines (one in a forked process: see
    :func:`mxnet._kernels.threads`)."""
    from . import _kernels

    return _kernels.threads()


def _init_genrand(seeds: np.ndarray) -> np.ndarray:
    """``std::mt19937(s)`` states (rows) for the given seeds."""
    key = np.empty((len(seeds), _N), dtype=_U32)
    prev = (np.asarray(seeds, dtype=np.uint64) & 0xFFFFFFFF).astype(_U32)
    key[:, 0] = prev
    mult = _U32(1812433253)
    with np.errstate(over="ignore"):
        for i in range(1, _N):
            prev = mult * (prev ^ (prev >> _U32(30))) + _U32(i)
            key[:, i] = prev
    return key


def _twist(key: np.ndarray) -> None:
    """The mt19937 state transition, in place, for every row of ``key``."""

    def step(lo: int, hi: int, nxt: np.ndarray, far: np.ndarray) -> None:
        y = (key[:, lo:hi] & _UPPER) | (nxt & _LOWER)
        key[:, lo:hi] = far ^ (y >> _U32(1)) ^ np.where(y & _U32(1), _MATRIX_A, _U32(0))

    d = _N - _M  # 227
    step(0, d, key[:, 1 : d + 1], key[:, _M:_N])
    step(d, 2 * d, key[:, d + 1 : 2 * d + 1], key[:, 0:d])
    step(2 * d, _N - 1, key[:, 2 * d + 1 : _N], key[:, d : _N - 1 - d])
    step(_N - 1, _N, key[:, 0:1], key[:, _M - 1 : _M])


def _temper(key: np.ndarray) -> np.ndarray:
    y = key.copy()
    y ^= y >> _U32(11)
    y ^= (y << _U32(7)) & _U32(0x9D2C5680)
    y ^= (y << _U32(15)) & _U32(0xEFC60000)
    y ^= y >> _U32(18)
    return y


class _Engines:
    """The 1024 engines (their states are made on first use)."""

    def __init__(self, base: int):
        self.base = base
        self.key: np.ndarray | None = None
        self.out = np.zeros((_NSTATES, _N), dtype=_U32)  # tempered block being read
        self.pos = np.full(_NSTATES, _N, dtype=np.int64)  # next unread index in ``out``
        self.pend: dict[int, np.ndarray] = {}  # draws handed back (read before ``out``)
        self._ptrs: tuple | None = None  # data addresses of key, out, pos (for fill)

    def ensure(self, lib) -> None:
        """Make the engine states (with ``lib``, the native library, when not ``None``)."""
        if self.key is not None:
            return
        if lib is not None and 0 <= self.base < 2**62:
            key = np.empty((_NSTATES, _N), dtype=_U32)
            lib.mxng_mt_seed(key.ctypes.data, _NSTATES, self.base)
            self.key = key
        else:
            self.key = _init_genrand(np.arange(_NSTATES, dtype=np.uint64) + self.base)

    def fill(self, lib, n: int, kind: int, dst: np.ndarray, a=0.0, b=0.0, flags=0) -> None:
        """``n`` outputs of ``kind`` from the parallel engines into ``dst`` (native code);
        handed-back draws are read first, as :meth:`take2d` does."""
        self.ensure(lib)
        if self._ptrs is None:  # (the state arrays are only ever updated in place)
            self._ptrs = (self.key.ctypes.data, self.out.ctypes.data, self.pos.ctypes.data)
        workers = min((n + _MIN_PER_WORKER - 1) // _MIN_PER_WORKER, _NSTATES) if n > 0 else 0
        pend = [j for j in self.pend if j < workers] if self.pend else None
        ptr = lens = None
        bufs: dict[int, np.ndarray] = {}
        if pend:
            ptr = np.zeros(workers, dtype=np.uint64)
            lens = np.zeros(workers, dtype=np.int64)
            for j in pend:
                bufs[j] = np.ascontiguousarray(self.pend[j], dtype=_U32)
                ptr[j] = bufs[j].ctypes.data
                lens[j] = len(bufs[j])
        lib.mxng_rng_fill(
            *self._ptrs,
            None if ptr is None else ptr.ctypes.data,
            None if lens is None else lens.ctypes.data,
            n,
            kind,
            dst.ctypes.data,
            float(a),
            float(b),
            flags,
            _threads(),
        )
        for j, p in bufs.items():
            self._keep_pend(j, p, int(lens[j]))

    def fill_np(self, lib, n: int, kind: int, dst: np.ndarray) -> None:
        """``n`` float32 uniforms (``kind`` 0) or normals (1) of the NumPy-interface engine
        (row 0) into ``dst`` (native code)."""
        self.ensure(lib)
        p = self.pend.get(0)
        lens = np.zeros(1, dtype=np.int64)
        if p is not None:
            p = np.ascontiguousarray(p, dtype=_U32)
            lens[0] = len(p)
        lib.mxng_rng_np(
            self.key.ctypes.data,
            self.out.ctypes.data,
            self.pos.ctypes.data,
            None if p is None else p.ctypes.data,
            lens.ctypes.data,
            n,
            kind,
            dst.ctypes.data,
        )
        if p is not None:
            self._keep_pend(0, p, int(lens[0]))

    def _keep_pend(self, j: int, p: np.ndarray, used: int) -> None:
        if used >= len(p):
            del self.pend[j]
        else:
            self.pend[j] = p[used:]

    def take2d(self, counts) -> np.ndarray:
        """``counts[j]`` consecutive draws of engine ``j`` (``j < len(counts)``) as the rows
        of a zero-padded ``(len(counts), max(counts))`` array."""
        self.ensure(_lib())
        n = len(counts)
        need = np.array(counts, dtype=np.int64)
        res = np.zeros((n, int(need.max()) if n else 0), dtype=_U32)
        filled = np.zeros(n, dtype=np.int64)
        for j in [j for j in self.pend if j < n and need[j] > 0]:
            p = self.pend.pop(j)
            k = min(len(p), int(need[j]))
            res[j, :k] = p[:k]
            filled[j] = k
            if k < len(p):
                self.pend[j] = p[k:]
        need -= filled
        if not filled.any():
            self._take_grouped(need, res)
            return res
        rows_all = np.arange(n)
        while True:
            k = np.minimum(need, _N - self.pos[:n])
            width = int(k.max()) if n else 0
            if width:
                col = np.arange(width)
                ok = col < k[:, None]
                src = self.out[rows_all[:, None], np.minimum(self.pos[:n, None] + col, _N - 1)]
                dst = np.minimum(filled[:, None] + col, res.shape[1] - 1)
                r = np.broadcast_to(rows_all[:, None], ok.shape)
                res[r[ok], dst[ok]] = src[ok]
            self.pos[:n] += k
            filled += k
            need -= k
            rows = np.nonzero(need > 0)[0]
            if len(rows) == 0:
                return res
            sub = self.key[rows]
            _twist(sub)
            self.key[rows] = sub
            self.out[rows] = _temper(sub)
            self.pos[rows] = 0

    def _take_grouped(self, need: np.ndarray, res: np.ndarray) -> None:
        """:meth:`take2d` without handed-back draws: rows that start at the same position
        and need the same number of state transitions are read together by slicing."""
        n = len(need)
        pos = self.pos[:n].copy()  # the loop below moves self.pos
        twists = np.maximum(0, need - (_N - pos) + _N - 1) // _N
        live = need > 0
        groups = np.unique(np.stack([pos[live], twists[live]], axis=1), axis=0)
        for p0, t in groups:
            rows = np.nonzero(live & (pos == p0) & (twists == t))[0]
            pieces = [self.out[rows, p0:]]
            if t:
                sub = self.key[rows]
                for _ in range(int(t)):
                    _twist(sub)
                    pieces.append(_temper(sub))
                self.key[rows] = sub
                self.out[rows] = pieces[-1]
            block = np.concatenate(pieces, axis=1) if len(pieces) > 1 else pieces[0]
            m = int(need[rows].max())
            res[rows, :m] = block[:, :m]
            short = need[rows] < m
            for j, c in zip(rows[short], need[rows][short]):
                res[j, c:] = 0  # padding stays zero (normal() reads whole rows)
            self.pos[rows] = need[rows] - (_N - p0) - (t - 1) * _N if t else p0 + need[rows]

    def take(self, counts: list[int]) -> list[np.ndarray]:
        """``counts[j]`` consecutive draws of engine ``j`` for ``j < len(counts)``."""
        res = self.take2d(counts)
        return [res[j, :c] for j, c in enumerate(counts)]

    def give_back(self, j: int, draws: np.ndarray) -> None:
        if len(draws):
            p = self.pend.get(j)
            self.pend[j] = draws if p is None else np.concatenate([draws, p])


def _engines(which: int = 0) -> _Engines:
    e = _STATE[which]
    if e is None:
        # (engine seeds are 32-bit: negative seeds wrap as MXNet's int arithmetic does)
        e = _STATE[which] = _Engines((_MAGIC * _SEED[0]) % 2**32)
    return e


def seed(value: int) -> None:
    """``mx.random.seed`` for CPU contexts (all of them share the engines)."""
    with _LOCK:
        _SEED[0] = int(value)
        _STATE[0] = _STATE[1] = None


def _split(n: int) -> list[int]:
    if n <= 0:  # zero-size outputs draw nothing
        return []
    workers = min((n + _MIN_PER_WORKER - 1) // _MIN_PER_WORKER, _NSTATES)
    step = (n + workers - 1) // workers
    return [max(0, min(step, n - j * step)) for j in range(workers)]


def _canonical(draws: np.ndarray, dtype) -> np.ndarray:
    """libstdc++ ``generate_canonical`` (1 draw per float32, 2 per float64)."""
    if dtype == np.float32:
        v = draws.astype(np.float32) / np.float32(4294967296.0)
        one = np.float32(1)
    else:
        v = (draws[0::2].astype(np.float64) + draws[1::2].astype(np.float64) * 4294967296.0) / (
            18446744073709551616.0
        )
        one = np.float64(1)
    v[v >= one] = np.nextafter(one, 0, dtype=v.dtype)
    return v


def _params(p, n: int, dtype) -> np.ndarray:
    """A parameter broadcast over ``n`` outputs: a scalar (MXNet keeps it as a C ``float``)
    or an array giving one value per block of ``n // size`` outputs (in its own dtype)."""
    if np.ndim(p) == 0:
        return np.asarray(p, dtype=np.float32).astype(dtype)
    a = np.asarray(p).reshape(-1)
    return np.repeat(a, n // max(a.size, 1))


def _draws(n: int, per: int) -> np.ndarray:
    """The raw draws behind ``n`` outputs of ``per`` draws each, in output order."""
    lib = _lib()
    if lib is not None:
        out = np.empty(max(n, 0) * per, dtype=_U32)
        with _LOCK:
            _engines().fill(lib, n, _RAW, out, per)
        return out
    counts = np.array(_split(n), dtype=np.int64) * per
    with _LOCK:
        res = _engines().take2d(counts)
    if not len(counts):
        return np.zeros(0, _U32)
    return res[np.arange(res.shape[1]) < counts[:, None]]


def uniform_raw(n: int, dtype) -> np.ndarray:
    """``n`` canonical uniforms on [0, 1) of ``dtype`` from the parallel engines (what
    MXNet's CPU Dropout draws: one per element)."""
    dtype = np.dtype(dtype).type
    lib = _lib()
    if lib is not None:
        out = np.empty(max(n, 0), dtype=dtype)
        with _LOCK:
            _engines().fill(lib, n, _UNI_F if dtype == np.float32 else _UNI_D, out)
        return out
    per = 1 if dtype == np.float32 else 2
    return _canonical(_draws(n, per), dtype)


def dropout_mask(n: int, dtype, pkeep, strict: bool) -> np.ndarray:
    """MXNet's CPU Dropout mask of ``n`` elements (float32): one canonical uniform of
    ``dtype`` per element (rounded to float32), kept when ``u <= pkeep`` (``u < pkeep`` when
    ``strict``, the mask of Dropout with ``axes``) and scaled by ``1 / pkeep`` in float32."""
    dtype = np.dtype(dtype).type
    pkeep = np.float32(pkeep)
    scale = np.float32(1.0) / pkeep
    lib = _lib()
    if lib is not None:
        out = np.empty(max(n, 0), dtype=np.float32)
        kind = _MASK_F if dtype == np.float32 else _MASK_D
        with _LOCK:
            _engines().fill(lib, n, kind, out, float(pkeep), float(scale), 2 if strict else 0)
        return out
    u = uniform_raw(n, dtype).astype(np.float32)
    kept = (u < pkeep) if strict else (u <= pkeep)
    return kept.astype(np.float32) * scale


def _native_fill(lib, n: int, kind, dtype, p1: np.ndarray, p2: np.ndarray):
    """``n`` draws of ``kind`` from the C engines: ``(scalar, values)``. With scalar
    parameters the kernel applies them; otherwise it returns the standard draws."""
    scalar = p1.ndim == 0 and p2.ndim == 0
    out = np.empty(max(n, 0), dtype=dtype)
    with _LOCK:
        _engines().fill(
            lib,
            n,
            kind,
            out,
            float(p1) if scalar else 0.0,
            float(p2) if scalar else 0.0,
            1 if scalar else 0,
        )
    return scalar, out


def uniform(n: int, low, high, dtype) -> np.ndarray:
    """``n`` MXNet CPU uniform samples (float32 or float64) on ``[low, high)``; ``low`` and
    ``high`` are scalars or arrays giving one value per block of ``n // size`` outputs."""
    dtype = np.dtype(dtype).type
    per = 1 if dtype == np.float32 else 2
    lo, hi = _params(low, n, dtype), _params(high, n, dtype)
    lib = _lib()
    if lib is not None:
        scalar, u = _native_fill(lib, n, _UNI_F if dtype == np.float32 else _UNI_D, dtype, lo, hi)
        if scalar:
            return u
    else:
        u = _canonical(_draws(n, per), dtype)
    return (lo + (hi - lo) * u).astype(dtype)


# glibc's logf (the table-driven algorithm of ARM's optimized-routines): 16 (1/c, log c)
# pairs, then a degree-3 polynomial for log1p(z/c - 1), all in double, rounded once
_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_POLY = [
    float.fromhex(h)
    for h in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2")
]
_LOGF_TAB = np.array(
    [
        [float.fromhex(a), float.fromhex(b)]
        for a, b in (
            ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"),
            ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
            ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"),
            ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
            ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"),
            ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
            ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"),
            ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
            ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"),
            ("0x1p+0", "0x0p+0"),
            ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"),
            ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
            ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"),
            ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
            ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"),
            ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"),
        )
    ]
)


def _logf(x: np.ndarray) -> np.ndarray:
    """C ``logf`` (glibc) of positive normal float32 values, as MXNet's samplers get it."""
    ix = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    tmp = ix - _U32(0x3F330000)  # wraps modulo 2**32, as in C
    i = (tmp >> _U32(19)) & _U32(15)
    k = tmp.view(np.int32) >> 23
    z = (ix - (tmp & _U32(0x1FF << 23))).view(np.float32)
    r = z.astype(np.float64) * _LOGF_TAB[i, 0] - 1
    y0 = _LOGF_TAB[i, 1] + k * _LN2
    r2 = r * r
    y = _LOGF_POLY[0] * r2 + (_LOGF_POLY[1] * r + _LOGF_POLY[2])
    y = y * r2 + (y0 + r)
    out = y.astype(np.float32)
    out[x == 1] = 0
    return out


def _log(x: np.ndarray) -> np.ndarray:
    """C ``log`` (the C library's, as MXNet's double samplers get it): NumPy's own SIMD
    ``np.log`` differs from it in the last bit for a few inputs in a thousand."""
    return np.fromiter(map(math.log, x.tolist()), dtype=np.float64, count=x.size)


def _polar(draws: np.ndarray, count: int, dtype) -> tuple[np.ndarray, int]:
    """The first ``count`` polar-method normals from ``draws`` and the draws they used
    (``-1`` when ``draws`` is too short)."""
    per = 1 if dtype == np.float32 else 2
    u = _canonical(draws[: len(draws) // (2 * per) * 2 * per], dtype)
    two, one = dtype(2), dtype(1)
    x = two * u[0::2] - one
    y = two * u[1::2] - one
    r2 = x * x + y * y
    ok = np.nonzero((r2 <= one) & (r2 != 0))[0]
    if len(ok) < count:
        return np.zeros(0, dtype), -1
    ok = ok[:count]
    rr = r2[ok]
    if dtype == np.float32:
        lg = _logf(rr)
    else:
        lg = _log(rr)
    mult = np.sqrt(dtype(-2) * lg / rr)
    return (y[ok] * mult).astype(dtype), int(ok[-1] + 1) * 2 * per if count else 0


def _polar_rows(draws: np.ndarray, counts: np.ndarray, dtype):
    """:func:`_polar` for many engines at once: ``draws`` holds one engine per row (padding
    zeros are rejected pairs). Returns the values of the rows that had enough draws (in row
    order), the draws each row used, and which rows had enough."""
    per = 1 if dtype == np.float32 else 2
    u = _canonical(draws.reshape(-1), dtype).reshape(len(draws), -1)
    two, one = dtype(2), dtype(1)
    x = two * u[:, 0::2] - one
    y = two * u[:, 1::2] - one
    r2 = x * x + y * y
    acc = (r2 <= one) & (r2 != 0)
    cum = np.cumsum(acc, axis=1)
    enough = cum[:, -1] >= counts
    sel = acc & (cum <= counts[:, None]) & enough[:, None]
    rr = r2[sel]
    lg = _logf(rr) if dtype == np.float32 else _log(rr)
    vals = (y[sel] * np.sqrt(dtype(-2) * lg / rr)).astype(dtype)
    used = (np.argmax(cum >= np.maximum(counts, 1)[:, None], axis=1) + 1) * 2 * per
    used[counts == 0] = 0
    return vals, used, enough


def normal(n: int, loc, scale, dtype) -> np.ndarray:
    """``n`` MXNet CPU normal samples (float32 or float64), parameters as :func:`uniform`."""
    dtype = np.dtype(dtype).type
    per = 1 if dtype == np.float32 else 2
    counts = _split(n)
    if not counts:
        return np.zeros(0, dtype)
    lib = _lib()
    if lib is not None:
        mu, sigma = _params(loc, n, dtype), _params(scale, n, dtype)
        scalar, z = _native_fill(
            lib, n, _NORM_F if dtype == np.float32 else _NORM_D, dtype, mu, sigma
        )
        return z if scalar else (z * sigma + mu).astype(dtype)
    with _LOCK:
        eng = _engines()
        # pairs are accepted with probability pi/4: ask for 8 standard deviations more
        ask = [int(c * 1.28 + 4 * c**0.5 + 8) * 2 * per if c else 0 for c in counts]
        table = eng.take2d(ask) if counts else np.zeros((0, 0), _U32)
        draws = [table[j, :a] for j, a in enumerate(ask)]
        cnt = np.array(counts, dtype=np.int64)
        vals, used, enough = _polar_rows(table, cnt, dtype)
        rows: list[np.ndarray] = []
        start = 0
        for j, c in enumerate(counts):
            if enough[j]:
                rows.append(vals[start : start + c])
                start += c
                eng.give_back(j, draws[j][used[j] :])
                continue
            d = draws[j]  # rare: more pairs were rejected than foreseen
            while True:
                d = np.concatenate([d, eng.take([0] * j + [ask[j] or 2 * per])[j]])
                v, k = _polar(d, c, dtype)
                if k >= 0:
                    break
            rows.append(v)
            eng.give_back(j, d[k:])
    z = np.concatenate(rows) if rows else np.zeros(0, dtype)
    mu, sigma = _params(loc, n, dtype), _params(scale, n, dtype)
    return (z * sigma + mu).astype(dtype)


def np_uniform01(n: int) -> np.ndarray:
    """``n`` float32 uniforms on [0, 1) from the NumPy-interface engine, in order."""
    lib = _lib()
    if lib is not None:
        out = np.empty(max(n, 0), dtype=np.float32)
        with _LOCK:
            _engines(1).fill_np(lib, n, 0, out)
        return out
    with _LOCK:
        d = _engines(1).take([n])[0]
    return _canonical(d, np.float32)


def np_normal01(n: int) -> np.ndarray:
    """``n`` float32 standard normals from the NumPy-interface engine: both values of each
    accepted polar pair (second, then first), the unused half of a last pair dropped."""
    pairs = (n + 1) // 2
    if pairs == 0:
        return np.zeros(0, np.float32)
    lib = _lib()
    if lib is not None:
        out = np.empty(n, dtype=np.float32)
        with _LOCK:
            _engines(1).fill_np(lib, n, 1, out)
        return out
    with _LOCK:
        eng = _engines(1)
        d = np.zeros(0, _U32)
        while True:
            d = np.concatenate([d, eng.take([int(pairs * 1.28 + 4 * pairs**0.5 + 8) * 2])[0]])
            u = _canonical(d, np.float32)
            x = np.float32(2) * u[0::2] - np.float32(1)
            y = np.float32(2) * u[1::2] - np.float32(1)
            r2 = x * x + y * y
            ok = np.nonzero((r2 <= 1) & (r2 != 0))[0]
            if len(ok) >= pairs:
                break
        ok = ok[:pairs]
        eng.give_back(0, d[(int(ok[-1]) + 1) * 2 :] if pairs else d)
    rr = r2[ok]
    mult = np.sqrt(np.float32(-2) * _logf(rr) / rr)
    both = np.empty(2 * pairs, dtype=np.float32)
    both[0::2] = y[ok] * mult
    both[1::2] = x[ok] * mult
    return both[:n]


def np_uniform_ints(highs) -> np.ndarray:
    """``std::uniform_int_distribution(0, high)`` for each ``high`` in turn, drawn from the
    NumPy-interface engine (MXNet's CPU ``kRandom`` resource) with libstdc++'s division
    method: ``scaling = (2**32 - 1) // (high + 1)``, draws at or above
    ``(high + 1) * scaling`` are rejected, the result is ``draw // scaling``."""
    highs = np.asarray(highs, dtype=np.int64).reshape(-1)
    out = np.empty(len(highs), dtype=np.int64)
    pos = 0
    with _LOCK:
        eng = _engines(1)
        while pos < len(highs):
            span = highs[pos:] + 1
            d = eng.take([len(span)])[0].astype(np.int64)
            scaling = 0xFFFFFFFF // span
            bad = np.nonzero(d >= span * scaling)[0]
            k = int(bad[0]) if len(bad) else len(span)
            out[pos : pos + k] = d[:k] // scaling[:k]
            if len(bad):  # the rejected draw is used up; the ones after it come back
                eng.give_back(0, d[k + 1 :].astype(_U32))
            pos += k
    return out


def np_shuffle_perm(n: int, rows: bool = False) -> np.ndarray:
    """The permutation MXNet 1.9.1's CPU ``_shuffle`` applies to ``n`` items: ``std::shuffle``
    (swap ``i`` with ``U(0, i)`` for ``i = 1 .. n-1``) for a 1-D array, and for ``rows`` of an
    N-D array its own Fisher-Yates from the end (``i = n-1 .. 1``)."""
    perm = np.arange(n)
    if n < 2:
        return perm
    order = np.arange(n - 1, 0, -1) if rows else np.arange(1, n)
    picks = np_uniform_ints(order)
    for i, j in zip(order.tolist(), picks.tolist()):
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def randint(n: int, low: int, high: int) -> np.ndarray:
    """``n`` MXNet CPU ``randint`` samples on ``[low, high)`` (int64): each takes two draws
    ``d0, d1`` of the parallel engines and is ``((d0 << 31) + d1) % (high - low) + low``."""
    d = _draws(n, 2).astype(np.uint64).reshape(-1, 2) if n else np.zeros((0, 2), np.uint64)
    v = ((d[:, 0] << np.uint64(31)) + d[:, 1]).astype(np.int64)
    return v % np.int64(high - low) + np.int64(low)


def np_uniform01_f64(n: int) -> np.ndarray:
    """``n`` float64 uniforms on [0, 1) from the NumPy-interface engine (two draws each)."""
    return _canonical(np_raw(2 * max(n, 0)), np.float64)


def np_normal01_f64(n: int) -> np.ndarray:
    """``n`` float64 standard normals from the NumPy-interface engine: libstdc++'s polar
    method on double uniforms, both values of each accepted pair (second, then first)."""
    pairs = (n + 1) // 2
    if pairs == 0:
        return np.zeros(0, np.float64)
    with _LOCK:
        eng = _engines(1)
        d = np.zeros(0, _U32)
        while True:
            d = np.concatenate([d, eng.take([int(pairs * 1.28 + 4 * pairs**0.5 + 8) * 4])[0]])
            u = _canonical(d[: len(d) // 4 * 4], np.float64)
            x = 2.0 * u[0::2] - 1.0
            y = 2.0 * u[1::2] - 1.0
            r2 = x * x + y * y
            ok = np.nonzero((r2 <= 1) & (r2 != 0))[0]
            if len(ok) >= pairs:
                break
        ok = ok[:pairs]
        eng.give_back(0, d[(int(ok[-1]) + 1) * 4 :])
    rr = r2[ok]
    mult = np.sqrt(-2.0 * _log(rr) / rr)
    both = np.empty(2 * pairs, dtype=np.float64)
    both[0::2] = y[ok] * mult
    both[1::2] = x[ok] * mult
    return both[:n]


def np_raw(n: int) -> np.ndarray:
    """``n`` raw 32-bit draws of the NumPy-interface engine (MXNet's CPU ``kRandom``)."""
    with _LOCK:
        return _engines(1).take([n])[0]
