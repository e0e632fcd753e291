"""``_contrib_calibrate_entropy``: the KL-divergence (entropy) calibration threshold of a
symmetric histogram, as used by MXNet's quantization."""

from __future__ import annotations

import numpy as np
import torch

from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

__all__: list[str] = []

_f32 = np.float32


def _smooth(p: np.ndarray, eps: float = 0.0001):
    """Move ``eps`` mass onto the zero bins, taken evenly off the non-zero ones."""
    zeros = p == 0
    n_zero = int(zeros.sum())
    n_nonzero = p.size - n_zero
    if n_nonzero == 0:
        return None
    eps1 = _f32(eps) * _f32(n_zero) / _f32(n_nonzero)
    if eps1 >= 1.0:
        return None
    return (p + np.where(zeros, _f32(eps), -eps1)).astype(_f32)


def _seq_sum(v: np.ndarray) -> np.float32:
    """float32 sum accumulated left to right (MXNet's std::accumulate), not pairwise."""
    return np.add.accumulate(v, dtype=_f32)[-1] if v.size else _f32(0)


def _kl(p: np.ndarray, q: np.ndarray) -> float:
    p = (p / _seq_sum(p)).astype(_f32)
    q = (q / _seq_sum(q)).astype(_f32)
    if not ((p > 0).all() and (q > 0).all()):
        raise MXNetError("calibrate_entropy: a smoothed distribution has a non-positive bin")
    logs = np.log((p / q).astype(_f32).astype(np.float64)).astype(_f32)  # correctly rounded
    return float(_seq_sum((p * logs).astype(_f32)))


def _divergence(hist: np.ndarray, i: int, zero: int, nq: int) -> float:
    start, stop = zero - i, zero + i + 1
    width = stop - start
    # p: the kept bins, the outliers folded into both ends; the integer copy of the kept
    # bins has nothing at its first slot (that bin is counted in the left outliers)
    p = np.zeros(width, dtype=_f32)
    p[1:] = hist[start + 1 : stop]
    p[0] = hist[: start + 1].sum(dtype=_f32)
    p[-1] = hist[stop - 1 :].sum(dtype=_f32)
    sliced = np.zeros(width, dtype=np.int64)
    sliced[1:] = hist[start + 1 : stop].astype(np.int64)
    merged = width // nq
    groups = (
        np.add.reduceat(sliced[: nq * merged], np.arange(0, nq * merged, merged))
        if merged
        else np.zeros(nq, dtype=np.int64)
    )
    groups[-1] += sliced[nq * merged :].sum()
    q = np.zeros(width, dtype=_f32)
    if merged:  # bin k belongs to group min(k // merged, nq - 1)
        group = np.minimum(np.arange(width) // merged, nq - 1)
        norm = np.bincount(group, weights=(sliced != 0), minlength=nq).astype(np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            level = groups.astype(_f32) / norm.astype(_f32)
        keep = (p != 0) & (norm[group] > 0)
        q[keep] = level[group][keep]
    else:
        for j in range(nq):
            lo = j * merged
            hi = width if j == nq - 1 else (j + 1) * merged
            norm = int(np.count_nonzero(sliced[lo:hi]))
            if norm:
                seg = p[lo:hi] != 0
                q[lo:hi][seg] = _f32(groups[j]) / _f32(norm)
    p_s, q_s = _smooth(p), _smooth(q)
    if q_s is None:
        return float("inf")
    if p_s is None:
        raise MXNetError("calibrate_entropy: the histogram is empty")
    return _kl(p_s, q_s)


def _calibrate(attrs: dict, hist: torch.Tensor, edges: torch.Tensor):
    h = hist.detach().reshape(-1).to(torch.float32).numpy()
    e = edges.detach().reshape(-1).to(torch.float32).numpy()
    nbins = h.size
    if e.size != nbins + 1:
        raise MXNetError(
            f"calibrate_entropy: hist_edges must have len(hist) + 1 = "
            f"{nbins + 1} values, got {e.size}"
        )
    nq = int(attrs["num_quantized_bins"])
    zero = nbins // 2
    half = nq // 2
    if half > zero:
        raise MXNetError(
            f"calibrate_entropy: num_quantized_bins ({nq}) must not exceed the "
            f"number of histogram bins ({nbins})"
        )
    best_i, best = 0, float(np.finfo(np.float32).max)
    thresholds = []
    for k, i in enumerate(range(half, zero + 1)):
        thresholds.append(e[zero + i + 1])
        d = _divergence(h, i, zero, nq)
        if d < best:
            best, best_i = d, k
    return (
        torch.tensor([thresholds[best_i]], dtype=torch.float32),
        torch.tensor([best], dtype=torch.float32),
    )


register(
    OpDef(
        "_contrib_calibrate_entropy",
        _calibrate,
        inputs=("hist", "hist_edges"),
        params=[Param("num_quantized_bins", "int", 255, doc="The number of quantized bins.")],
        outputs=("threshold", "divergence"),
        infer_out=lambda a, s: [(1,), (1,)],
        doc="Calibrated threshold (and its KL divergence) for a symmetric histogram: the "
        "clipping range whose quantized distribution is closest to the data's.\n\n"
        "Example: ``th, div = mx.nd.contrib.calibrate_entropy(hist, edges)``",
    )
)
