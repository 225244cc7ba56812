"""The benchmark report's statistics: Holm's step-down adjustment, the one-sided Wilcoxon
signed-rank test (exact by enumeration on small samples) and the Friedman test with Nemenyi's
critical difference."""

from __future__ import annotations

import functools

import numpy as np
from scipy.stats import friedmanchisquare, rankdata, wilcoxon

__all__ = ["friedman_nemenyi", "holm", "wilcoxon_greater"]


#: Nemenyi's critical values q_0.05 for 2..12 methods (Demšar, JMLR 2006, Table 5)
NEMENYI_Q05 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102,
               10: 3.164, 11: 3.219, 12: 3.268}  # fmt: skip


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment of ``pvalues`` (family-wise error)."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    adjusted = np.empty_like(p)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, (p.size - rank) * p[i])
        adjusted[i] = min(1.0, running)
    return adjusted.tolist()


#: up to this many differences the signed-rank test enumerates every sign pattern (2**13 = 8192
#: sums), which is what scipy's ``wilcoxon`` does there; larger samples go to scipy
EXACT_SIGN_FLIPS_MAX_N = 13


@functools.cache
def _sign_patterns(n: int) -> np.ndarray:
    """Every subset of ``n`` items as a ``(2**n, n)`` 0/1 matrix."""
    return (np.arange(2**n)[:, None] >> np.arange(n)) & 1


def wilcoxon_greater(diff: np.ndarray) -> float:
    """One-sided (greater) Wilcoxon signed-rank p of the paired differences ``diff``.

    Zeros are dropped and ties take average ranks (scipy's defaults); up to
    ``EXACT_SIGN_FLIPS_MAX_N`` differences the p is the share of the ``2**n`` equally likely sign
    patterns whose positive-rank sum reaches the observed one.  That is scipy's answer there
    (its exact null without ties, its exhaustive permutation test with ties or zeros; every sum
    of half-integer ranks and every share of ``2**n`` is exact in floating point), computed as
    one product instead of thousands of calls, and the same with every scipy release.
    """
    if diff.size > EXACT_SIGN_FLIPS_MAX_N:
        return float(wilcoxon(diff, alternative="greater").pvalue)
    nonzero = diff[diff != 0]
    ranks = rankdata(np.abs(nonzero))
    observed = ranks[nonzero > 0].sum()
    sums = _sign_patterns(nonzero.size) @ ranks
    return float(np.count_nonzero(sums >= observed) / sums.size)


def friedman_nemenyi(complete) -> tuple[float, float, float]:
    """The Friedman test over the columns (methods) of ``complete`` (one row per dataset, no
    missing values) and Nemenyi's critical difference of mean ranks at 0.05:
    ``(chi2, p, critical difference)``."""
    n_data, n_methods = complete.shape
    stat, p = friedmanchisquare(*[complete[m] for m in complete.columns])
    q = NEMENYI_Q05.get(min(n_methods, 12))
    return stat, p, q * np.sqrt(n_methods * (n_methods + 1) / (6 * n_data))
