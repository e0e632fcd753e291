"""Statistical helpers of ``mx.test_utils`` for checking random generators (private module).

``verify_generator`` runs Pearson's chi-square test on samples drawn by a generator and
passes when enough of the repeated trials are not rejected.
"""

from __future__ import annotations

import numpy as np

__all__ = ["gen_buckets_probs_with_ppf", "chi_square_check", "verify_generator"]


def gen_buckets_probs_with_ppf(ppf, nbuckets: int):
    """Equal-probability buckets from a distribution's percent-point function.

    Examples
    --------
    >>> b, p = gen_buckets_probs_with_ppf(lambda q: q, 2)
    >>> b, p
    ([(0.0, 0.5), (0.5, 1.0)], [0.5, 0.5])
    """
    probs = [1.0 / nbuckets for _ in range(nbuckets)]
    buckets = [(ppf(i / float(nbuckets)), ppf((i + 1) / float(nbuckets))) for i in range(nbuckets)]
    return buckets, probs


def _bucket_counts(samples: np.ndarray, buckets) -> np.ndarray:
    if isinstance(buckets[0], (list, tuple)):  # continuous: [low, high) intervals
        return np.array(
            [np.count_nonzero((samples >= lo) & (samples < hi)) for lo, hi in buckets],
            dtype=np.float64,
        )
    return np.array([np.count_nonzero(samples == v) for v in buckets], dtype=np.float64)


def chi_square_check(generator, buckets, probs, nsamples: int = 1000000):
    """Draw ``nsamples`` with ``generator(n)`` and chi-square test them against ``probs``.

    Returns ``(p_value, observed counts, expected counts)``.
    """
    import scipy.stats as ss

    samples = np.asarray(generator(nsamples)).reshape(-1)
    if samples.size != nsamples:
        raise AssertionError(f"generator returned {samples.size} samples, expected {nsamples}")
    probs = np.asarray(probs, dtype=np.float64)
    if not np.isclose(probs.sum(), 1.0, atol=1e-3) and not isinstance(buckets[0], (list, tuple)):
        raise AssertionError(f"bucket probabilities sum to {probs.sum()}, not 1")
    obs = _bucket_counts(samples, buckets)
    expected = probs * nsamples
    # counts outside every bucket make the totals differ; scale as MXNet's check does
    expected = expected * (obs.sum() / expected.sum()) if expected.sum() > 0 else expected
    _, p = ss.chisquare(f_obs=obs, f_exp=expected)
    return p, obs, expected


def verify_generator(
    generator,
    buckets,
    probs,
    nsamples: int = 1000000,
    nrepeat: int = 5,
    success_rate: float = 0.2,
    alpha: float = 0.05,
):
    """Repeat :func:`chi_square_check`; raise AssertionError if too few trials pass.

    A trial passes when its p-value exceeds ``alpha``; at least ``success_rate`` of the
    ``nrepeat`` trials must pass. Returns the list of ``(p, observed, expected)``.
    """
    results = [chi_square_check(generator, buckets, probs, nsamples) for _ in range(nrepeat)]
    passed = sum(1 for p, _, _ in results if p > alpha)
    if passed < success_rate * nrepeat:
        details = "; ".join(f"p={p:.3g} obs={o.tolist()} exp={e.tolist()}" for p, o, e in results)
        raise AssertionError(
            f"Generator test fails, chi-square p-values too small: "
            f"{passed}/{nrepeat} trials passed. {details}"
        )
    return results
