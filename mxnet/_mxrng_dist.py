"""MXNet 1.9.1's CPU gamma, Poisson and negative-binomial samplers on its parallel random
stream (private; see :mod:`mxnet._mxrng` for the engines).

These samplers reject: each output element takes a data-dependent number of uniform and
normal draws from the engine of its worker (worker ``j`` fills outputs ``[j * step,
(j + 1) * step)`` in order, as for uniform/normal). The arithmetic follows MXNet's
``sampler.h`` type by type: ``OType`` (float32 for float32 outputs) for the gamma sampler's
values, ``float`` for the Poisson sampler, ``double`` where the C code mixes in double
constants. Float32 operations are done in double and rounded once, which gives the exact
float32 result for ``+ - * / sqrt``. Library calls (``expf``, ``tanf``, ``lgammaf``,
``powf`` and the ``log`` of the acceptance tests) are computed in double and rounded: they
only decide acceptance at boundaries, where a last-bit difference could change a draw.

The per-element loop runs in Python, so :data:`MAX_ELEMENTS` bounds the sizes served here;
larger requests use torch's samplers (same distributions, other numbers).
"""

from __future__ import annotations

import math
import struct

import numpy as np

from . import _mxrng

__all__ = ["gamma", "poisson", "negative_binomial", "generalized_negative_binomial",
           "MAX_ELEMENTS"]

MAX_ELEMENTS = 1 << 16

_PACK = struct.Struct("f")


def _f32(v: float) -> float:
    """``v`` rounded to float32 (as a Python float); overflow gives +-inf as in C."""
    try:
        return _PACK.unpack(_PACK.pack(v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def _same(v: float) -> float:
    return v


_U32 = struct.Struct("I")
_TAB = _mxrng._LOGF_TAB.tolist()
_P0, _P1, _P2 = _mxrng._LOGF_POLY
_LN2 = _mxrng._LN2


def _logf(x: float) -> float:
    """glibc ``logf`` of a positive normal float32 value (the polar method's ``log``): the
    scalar form of :func:`mxnet._mxrng._logf`."""
    if x == 1.0:
        return 0.0
    ix = _U32.unpack(_PACK.pack(x))[0]
    tmp = (ix - 0x3F330000) & 0xFFFFFFFF
    i = (tmp >> 19) & 15
    k = (tmp >> 23) - 512 if tmp & 0x80000000 else tmp >> 23  # arithmetic shift of int32
    z = _PACK.unpack(_U32.pack((ix - (tmp & (0x1FF << 23))) & 0xFFFFFFFF))[0]
    inv_c, log_c = _TAB[i]
    r = z * inv_c - 1
    r2 = r * r
    y = _P0 * r2 + (_P1 * r + _P2)
    return _f32(y * r2 + ((log_c + k * _LN2) + r))


class _Reader:
    """The canonical uniforms of one engine, read in order (``float`` or ``double``)."""

    def __init__(self, eng, j: int, double: bool, first: np.ndarray):
        self.eng, self.j, self.double = eng, j, double
        self.per = 2 if double else 1
        self.raw = np.zeros(0, dtype=np.uint32)
        self.vals: list[float] = []
        self.p = 0
        self._add(first)

    def _more(self, n: int) -> None:
        """Rare: the first batch of draws ran out."""
        self._add(self.eng.take([0] * self.j + [max(int(n), 16) * self.per])[self.j])

    def _add(self, got: np.ndarray) -> None:
        self.raw = np.concatenate([self.raw, got])
        dtype = np.float64 if self.double else np.float32
        self.vals.extend(_mxrng._canonical(got, dtype).tolist())

    def uniform(self) -> float:
        if self.p >= len(self.vals):
            self._more(len(self.vals) + 64)
        v = self.vals[self.p]
        self.p += 1
        return v

    def normal(self) -> float:
        """libstdc++'s polar method on a fresh ``normal_distribution`` (its second value)."""
        r = _same if self.double else _f32
        while True:
            x = r(2.0 * self.uniform() - 1.0)
            y = r(2.0 * self.uniform() - 1.0)
            r2 = r(r(x * x) + r(y * y))
            if r2 <= 1.0 and r2 != 0.0:
                lg = math.log(r2) if self.double else _logf(r2)
                return r(y * r(math.sqrt(r(r(-2.0 * lg) / r2))))

    def give_back(self) -> None:
        self.eng.give_back(self.j, self.raw[self.p * self.per:])


def _gamma_one(rd: _Reader, a: float, b: float, o) -> float:
    """MXNet's ``SampleGamma`` (Marsaglia-Tsang); ``o`` rounds to OType."""
    d = o(a + 2.0 / 3.0) if a < 1 else o(a - 1.0 / 3.0)
    if not d > 0 or math.isinf(d):  # invalid shapes (refused earlier; MXNet would spin)
        return math.nan
    k = o(math.sqrt(9.0 * d))
    c = o(1.0 / k)
    while True:
        z = rd.normal()
        if z > -k:
            x = o(1.0 + o(c * z))  # rounded to OType first, as MXNet computes it
            v = o(o(x * x) * x)
            u = rd.uniform()
            if v > 0 and math.log(1.0 - u) < 0.5 * z * z + d * (1.0 - v + math.log(v)):
                dv = o(d * v)
                sample = o(dv * b)
                break
    if a < 1:
        inv = o(1.0 / a) if a != 0 else math.copysign(math.inf, a)  # C: 1.0 / 0 is inf
        return o(sample * math.pow(rd.uniform(), inv))  # C++11 std::pow(float, float): double
    return sample


def _poisson_one(rd: _Reader, lam: float) -> int:
    """MXNet's ``SamplePoisson`` (float arithmetic)."""
    f = _f32
    lam = f(lam)
    if math.isnan(lam) or math.isinf(lam):
        return -(2**31) if math.isnan(lam) or lam > 0 else 0  # C's (int) of a NaN/inf rate
    if lam < 12.0:
        t = math.inf if -lam > 700 else f(math.exp(-lam))
        x = 0
        prod = rd.uniform()
        while prod > t:
            x += 1
            prod = f(prod * rd.uniform())
        return x
    pi = f(3.1415926)
    sq = f(math.sqrt(2.0 * lam))
    loglam = f(math.log(lam))
    g = f(f(lam * loglam) - f(math.lgamma(f(lam + 1.0))))
    while True:
        while True:
            y = f(math.tan(f(pi * rd.uniform())))
            em = f(f(sq * y) + lam)
            if not em < 0.0:
                break
        em = float(math.floor(em))
        e = f(f(f(em * loglam) - f(math.lgamma(f(em + 1.0)))) - g)
        t = f(0.9 * (1.0 + f(y * y)) * f(math.exp(e)))
        if not rd.uniform() > t:
            return int(em)


def _run(n: int, double: bool, per_element, guess: float) -> np.ndarray:
    """Run ``per_element(reader, i)`` for the ``n`` outputs on their workers' engines."""
    out = np.empty(n, dtype=np.float64)
    per = 2 if double else 1
    with _mxrng._LOCK:
        eng = _mxrng._engines()
        counts = _mxrng._split(n)
        table = eng.take2d([(int(c * guess) + 8) * per if c else 0 for c in counts])
        start = 0
        for j, cnt in enumerate(counts):
            if cnt == 0:
                continue
            rd = _Reader(eng, j, double, table[j, : (int(cnt * guess) + 8) * per])
            for i in range(start, start + cnt):
                out[i] = per_element(rd, i)
            rd.give_back()
            start += cnt
    return out


def _param(p, n: int):
    """Element ``i``'s parameter: ``p[i // batch]`` (MXNet's ``nBatch``), as floats."""
    arr = np.asarray(p).reshape(-1)
    batch = 1 + (n - 1) // max(arr.size, 1) if n else 1
    vals = arr.astype(np.float64).tolist()
    return lambda i: vals[i // batch]


def gamma(n: int, alpha, beta, out_dtype) -> np.ndarray:
    """``n`` MXNet gamma samples (float32/float64 outputs; ``alpha``/``beta`` arrays of their
    own dtype, or float32 scalars)."""
    double = np.dtype(out_dtype) == np.float64
    o = _same if double else _f32
    pa, pb = _param(alpha, n), _param(beta, n)
    res = _run(n, double, lambda rd, i: _gamma_one(rd, pa(i), pb(i), o), 6.0)
    return res.astype(out_dtype)


def poisson(n: int, lam, out_dtype) -> np.ndarray:
    """``n`` MXNet Poisson samples (a float generator whatever the output dtype)."""
    pl = _param(lam, n)
    mean = float(np.clip(np.nan_to_num(np.asarray(lam, dtype=np.float64)), 0, 12).mean())
    return _run(n, False, lambda rd, i: _poisson_one(rd, pl(i)), mean + 4.0).astype(out_dtype)


def negative_binomial(n: int, k, p, out_dtype) -> np.ndarray:
    """``n`` MXNet negative-binomial samples: Poisson of a gamma(k, (1 - p) / p) rate."""
    pk, pp = _param(k, n), _param(p, n)

    def one(rd, i):
        alpha = _f32(pk(i))
        prob = _f32(pp(i))
        beta = _f32((1.0 - prob) / prob) if prob != 0 else math.copysign(math.inf, 1.0 - prob)
        lam = _gamma_one(rd, alpha, beta, _f32)
        return _poisson_one(rd, lam)

    return _run(n, False, one, 16.0).astype(out_dtype)


def generalized_negative_binomial(n: int, mu, alpha, out_dtype) -> np.ndarray:
    """``n`` MXNet generalized negative-binomial samples (``alpha == 0``: Poisson(mu))."""
    pm, pa = _param(mu, n), _param(alpha, n)
    i_double = np.asarray(mu).dtype == np.float64
    r = _same if i_double else _f32

    def one(rd, i):
        m, a = pm(i), pa(i)
        if a == 0:
            lam = _f32(m)
        else:
            lam = _gamma_one(rd, r(1.0 / a), r(a * m), _f32)
        return _poisson_one(rd, lam)

    return _run(n, False, one, 16.0).astype(out_dtype)
