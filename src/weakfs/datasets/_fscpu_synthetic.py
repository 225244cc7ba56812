"""The artificial PU data of the FSCPU paper (Uchikoshi & Akimoto, GECCO 2025), Table 1.

Paper §5.2.1: 50 features, 25 relevant and 25 irrelevant.  The irrelevant ones are 20 columns
uniform on [-10, 10] plus 5 noisy copies (``+ N(0, 1)``) of 5 of those 20, drawn at random.

* Cluster-assumption data (conditions 0-7): 4000 negatives on the 25 relevant columns from 1 or 8
  normal distributions, 500 positives from 1 or 2 normal distributions; every mean is uniform on
  [-5, 5] per coordinate and every covariance is ``10 * I`` ("variance 10").
* No cluster assumption (conditions 8-9): 4500 rows from ``N(0, 25 I)``; the 500 rows with the
  largest Euclidean norm are the positives (scattered outliers).
* A labeled rate of the positives (40 % or 10 %) is labeled completely at random (SCAR).

Choices the paper leaves open (recorded in ``docs/fscpu.md``): rows are split equally among the
components of a class (4000 / 8 = 500 per negative component, 500 / 2 = 250 per positive
component); the labeled count is ``round(rate * 500)`` (200 or 50); rows and columns are shuffled
(``relevant`` gives the positions of the relevant columns) so that no method gains from a tie rule
that prefers low column indices; the data are returned unscaled (the paper's protocol min-max scales
them before selection).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from weakfs.datasets._pu import make_pu_labels

__all__ = [
    "FSCPU_CONDITIONS",
    "FSCPUCondition",
    "FSCPUSynthetic",
    "list_fscpu_conditions",
    "make_fscpu_synthetic",
]

N_RELEVANT = 25
N_UNIFORM = 20
N_NOISY_COPIES = 5
N_NEGATIVE = 4000
N_POSITIVE = 500


@dataclass(frozen=True)
class FSCPUCondition:
    """One column of the paper's Table 1.

    ``n_negative_clusters`` / ``n_positive_clusters`` are ``None`` when the cluster assumption does
    not hold (positives are the outliers of one normal distribution).
    """

    index: int
    name: str
    cluster_assumption: bool
    labeled_rate: float
    n_negative_clusters: int | None
    n_positive_clusters: int | None


def _conditions() -> tuple[FSCPUCondition, ...]:
    out = []
    for rate in (0.4, 0.1):
        for n_neg, n_pos in ((8, 1), (8, 2), (1, 1), (1, 2)):
            i = len(out)
            out.append(
                FSCPUCondition(
                    i, f"ca-{round(rate * 100)}-{n_neg}-{n_pos}", True, rate, n_neg, n_pos
                )
            )
    for rate in (0.4, 0.1):
        out.append(FSCPUCondition(len(out), f"noca-{round(rate * 100)}", False, rate, None, None))
    return tuple(out)


FSCPU_CONDITIONS: tuple[FSCPUCondition, ...] = _conditions()
"""The 10 conditions in the column order of the paper's Table 1."""


@dataclass(frozen=True)
class FSCPUSynthetic:
    """Unpacks as ``X, s, y_true, relevant``; ``condition`` is the :class:`FSCPUCondition`."""

    X: np.ndarray | pd.DataFrame
    s: np.ndarray
    y_true: np.ndarray
    relevant: np.ndarray
    condition: FSCPUCondition

    def __iter__(self):  # unpack as the four documented items
        return iter((self.X, self.s, self.y_true, self.relevant))


def list_fscpu_conditions() -> pd.DataFrame:
    """The 10 conditions of Table 1 as a table (one row per condition, in the paper's order).

    Examples
    --------
    >>> from weakfs.datasets import list_fscpu_conditions
    >>> list_fscpu_conditions()["name"].tolist()[:2]
    ['ca-40-8-1', 'ca-40-8-2']
    """
    return pd.DataFrame([asdict(c) for c in FSCPU_CONDITIONS]).set_index("index")


def _resolve(condition) -> FSCPUCondition:
    if isinstance(condition, FSCPUCondition):
        return condition
    if isinstance(condition, (int, np.integer)) and not isinstance(condition, bool):
        if not 0 <= condition < len(FSCPU_CONDITIONS):
            raise ValueError(f"condition index must be in 0..9 (Table 1 columns); got {condition}")
        return FSCPU_CONDITIONS[int(condition)]
    if isinstance(condition, str):
        for c in FSCPU_CONDITIONS:
            if c.name == condition:
                return c
        names = [c.name for c in FSCPU_CONDITIONS]
        raise ValueError(f"unknown condition {condition!r}; known: {names}")
    raise TypeError(
        f"condition must be an int 0..9, a name or an FSCPUCondition; got {condition!r}"
    )


def make_fscpu_synthetic(
    condition=0,
    *,
    labeled_rate: float | None = None,
    shuffle: bool = True,
    as_frame: bool = False,
    random_state=None,
) -> FSCPUSynthetic:
    """Generate one dataset of the FSCPU paper's Table 1 (4500 rows, 50 features).

    Parameters
    ----------
    condition : int, str or FSCPUCondition, default=0
        Table 1 column: an index 0..9 or a name from :func:`list_fscpu_conditions`
        (``"ca-40-8-1"`` ... ``"ca-10-1-2"``, ``"noca-40"``, ``"noca-10"``).
    labeled_rate : float in (0, 1], optional
        Share of the 500 positives that are labeled; default the condition's (0.4 or 0.1).
    shuffle : bool, default=True
        Shuffle rows and columns (``relevant`` always gives the relevant column positions).
    as_frame : bool, default=False
        Return ``X`` as a DataFrame with columns ``rel00..rel24``, ``unif00..unif19``,
        ``copy00..copy04`` (in their shuffled positions).
    random_state : int, RandomState or None
        Seed; the same seed gives the same data.

    Returns
    -------
    FSCPUSynthetic
        Unpacks as ``X, s, y_true, relevant``: data of shape (4500, 50) (unscaled), PU labels
        (1 = labeled positive, 0 = unlabeled), the true class (1 = positive) and the sorted
        positions of the 25 relevant columns; ``.condition`` tells which condition it is.

    Examples
    --------
    >>> from weakfs.datasets import make_fscpu_synthetic
    >>> X, s, y, relevant = make_fscpu_synthetic("ca-10-8-1", random_state=0)
    >>> X.shape, int(s.sum()), int(y.sum()), len(relevant)
    ((4500, 50), 50, 500, 25)
    """
    cond = _resolve(condition)
    rate = cond.labeled_rate if labeled_rate is None else float(labeled_rate)
    if not 0 < rate <= 1:
        raise ValueError(f"labeled_rate must be in (0, 1]; got {labeled_rate}")
    rng = check_random_state(random_state)
    n = N_NEGATIVE + N_POSITIVE

    if cond.cluster_assumption:
        blocks, labels = [], []
        for n_rows, n_comp, label in (
            (N_NEGATIVE, cond.n_negative_clusters, 0),
            (N_POSITIVE, cond.n_positive_clusters, 1),
        ):
            sizes = np.full(n_comp, n_rows // n_comp)
            sizes[: n_rows - sizes.sum()] += 1
            for size in sizes:
                mean = rng.uniform(-5.0, 5.0, size=N_RELEVANT)
                blocks.append(mean + np.sqrt(10.0) * rng.standard_normal((size, N_RELEVANT)))
                labels.append(np.full(size, label, dtype=np.int8))
        relevant_block = np.vstack(blocks)
        y = np.concatenate(labels)
    else:
        relevant_block = 5.0 * rng.standard_normal((n, N_RELEVANT))
        y = np.zeros(n, dtype=np.int8)
        y[np.argsort(-np.linalg.norm(relevant_block, axis=1), kind="stable")[:N_POSITIVE]] = 1

    uniform = rng.uniform(-10.0, 10.0, size=(n, N_UNIFORM))
    sources = rng.choice(N_UNIFORM, size=N_NOISY_COPIES, replace=False)
    copies = uniform[:, sources] + rng.standard_normal((n, N_NOISY_COPIES))
    X = np.hstack([relevant_block, uniform, copies])
    names = (
        [f"rel{j:02d}" for j in range(N_RELEVANT)]
        + [f"unif{j:02d}" for j in range(N_UNIFORM)]
        + [f"copy{j:02d}" for j in range(N_NOISY_COPIES)]
    )
    is_relevant = np.arange(X.shape[1]) < N_RELEVANT
    if shuffle:
        rows = rng.permutation(n)
        cols = rng.permutation(X.shape[1])
        X, y = X[rows][:, cols], y[rows]
        names = [names[c] for c in cols]
        is_relevant = is_relevant[cols]
    pu = make_pu_labels(y, positive=1, labeled_fraction=rate, random_state=rng)
    relevant = np.flatnonzero(is_relevant)
    if as_frame:
        X = pd.DataFrame(X, columns=names)
    return FSCPUSynthetic(X, pu.s, pu.y_true, relevant, cond)
