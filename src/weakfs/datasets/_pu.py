"""Turning fully labeled data into PU data: SCAR (selected completely at random) or a labeling
that depends on the features (SAR, "selected at random")."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

from weakfs._labels import _as_1d
from weakfs._words import counted

__all__ = ["MECHANISMS", "PULabeling", "make_pu_labels"]

#: the labeling mechanisms of :func:`make_pu_labels`
MECHANISMS = ("scar", "score", "features")
# Bekker, Robberechts & Davis (2019) scale each propensity attribute to [0.2, 0.8]
_FEATURE_PROPENSITY_RANGE = (0.2, 0.8)
# conditional Poisson sampling redraws until exactly n_labeled positives are drawn; the expected
# number of draws is about sqrt(2 pi var), a few hundred for a million positives
_MAX_DRAWS = 100_000


@dataclass(frozen=True)
class PULabeling:
    """What :func:`make_pu_labels` did.

    Attributes
    ----------
    s : ndarray of int8
        PU labels: 1 = labeled positive, 0 = unlabeled.
    y_true : ndarray of int8
        The binary truth: 1 = positive class, 0 = negative.
    labeled_index : ndarray of int
        Row positions that were labeled (sorted).
    positive : tuple
        The original label values counted as positive.
    n_positive, n_labeled : int
        Number of true positives and of labeled rows.
    prior : float
        Share of positives among all rows (the class prior ``pi``).
    label_frequency : float
        ``n_labeled / n_positive`` (the SCAR constant ``c``; under another mechanism the mean
        labeling probability of the positives).
    mechanism : str
        The labeling mechanism: ``"scar"``, ``"score"`` or ``"features"``.
    propensity : ndarray of float
        ``P(labeled | x, y)`` of every row under the mechanism: 0 for the negatives; for the
        positives ``label_frequency`` under SCAR (each is labeled with exactly that probability),
        otherwise the propensity ``e(x)`` of :func:`make_pu_labels` (the draw is conditioned on
        exactly ``n_labeled`` labels, so the inclusion probabilities are close to, not exactly,
        ``e(x)``).
    """

    s: np.ndarray
    y_true: np.ndarray
    labeled_index: np.ndarray
    positive: tuple
    n_positive: int
    n_labeled: int
    prior: float
    label_frequency: float
    mechanism: str = "scar"
    propensity: np.ndarray | None = None

    def __iter__(self):
        """Unpack as ``s, y_true = make_pu_labels(...)``."""
        return iter((self.s, self.y_true))

    def summary(self) -> str:
        how = "" if self.mechanism == "scar" else f", labeled by {self.mechanism!r} (not SCAR)"
        return (
            f"{self.n_labeled} of {counted(self.n_positive, 'positive')} labeled "
            f"(label frequency {self.label_frequency:.3f}{how}); class prior {self.prior:.3f}; "
            f"{counted(self.s.shape[0] - self.n_labeled, 'unlabeled row')}"
        )


@validate_params(
    {
        "y": ["array-like"],
        "positive": "no_validation",  # a value, values or a mask function: checked below
        "labeled_fraction": [Interval(Real, 0, 1, closed="right"), None],
        "n_labeled": [Interval(Integral, 1, None, closed="left"), None],
        "mechanism": [StrOptions(set(MECHANISMS))],
        "X": ["array-like", "sparse matrix", None],
        "strength": [Interval(Real, None, None, closed="neither"), None],
        "features": "no_validation",  # a column position or name, or a list of them
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_pu_labels(
    y,
    *,
    positive=1,
    labeled_fraction: float | None = None,
    n_labeled: int | None = None,
    mechanism: str = "scar",
    X=None,
    strength: float | None = None,
    features=None,
    random_state=None,
) -> PULabeling:
    """Hide the labels of all negatives and of a share of the positives (SCAR or feature-driven).

    ``mechanism`` says which positives keep their label:

    * ``"scar"`` (selected completely at random, the default): a uniform random sample of
      exactly ``n_labeled`` positives; every positive is labeled with probability
      ``c = n_labeled / n_positive``.  The assumption of every class-prior estimator.
    * ``"score"``: the labeling probability grows with how typical a positive looks.  A logistic
      regression (``C = 1``, standardised columns) of the true class on ``X`` gives each row a
      score ``z(x)`` (its logit, standardised over the positives); a positive is labeled with
      probability ``e(x) = sigmoid(b + strength · z(x))``, ``strength`` (default 1) the log-odds
      ratio of being labeled per standard deviation of the score.  This is the selection bias of
      Kato, Teshima & Honda ("Learning from positive and unlabeled data with a selection bias",
      ICLR 2019), where the labeled positives are the ones a model is surest about, and of the
      "probabilistic gap" labeling of Gerych et al. ("Recovering the propensity score from
      biased positive unlabeled data", AAAI 2022).
    * ``"features"``: the labeling probability grows with chosen columns, the "propensity
      attributes" of Bekker, Robberechts & Davis ("Beyond the selected completely at random
      assumption for learning from positive and unlabeled data", ECML-PKDD 2019, the SAR-PU
      benchmark): each column of ``features`` is min-max scaled to ``[0.2, 0.8]`` and
      ``e0(x)`` is the geometric mean of the scaled values; a positive is labeled with
      probability ``e(x) = sigmoid(b + strength · logit(e0(x)))`` (``strength`` default 1:
      their propensity, up to the shift ``b``).  Default ``features``: the one column most
      correlated with the class, oriented so that the positives' side is labeled more.

    For both feature-driven mechanisms the shift ``b`` makes the mean of ``e`` over the positives
    equal ``c = n_labeled / n_positive``, and each positive is labeled independently with
    probability ``e(x)``, the draw repeated until exactly ``n_labeled`` are labeled (conditional
    Poisson sampling), so ``labeled_fraction`` and ``n_labeled`` mean what they mean under SCAR.
    ``propensity`` of the result holds ``e``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        True labels in any coding.
    positive : value, list of values, or callable, default=1
        Which labels form the positive class: one value, several values, or a function of the
        label array returning a boolean mask.
    labeled_fraction : float in (0, 1], optional
        Share of positives to label (rounded to the nearest count, at least 1).
    n_labeled : int, optional
        Number of positives to label.  Give exactly one of ``labeled_fraction`` and ``n_labeled``.
    mechanism : {"scar", "score", "features"}, default="scar"
        Which positives are labeled (above).
    X : array-like of shape (n_samples, n_features), optional
        Numeric features of the rows; needed by ``"score"`` and ``"features"``.
    strength : float, optional
        How strongly the labeling depends on ``X`` (``"score"`` and ``"features"``; default 1;
        0 gives SCAR probabilities through the feature-driven draw).
    features : list of int or str, optional
        ``"features"`` only: the columns (positions, or names of a DataFrame ``X``) the labeling
        probability grows with.  Default: the column most correlated with the class.
    random_state : int, RandomState or None
        Seed of the draw.

    Returns
    -------
    PULabeling
        ``s`` (1 labeled / 0 unlabeled), the binary truth and what was done.

    Examples
    --------
    >>> from weakfs.datasets import make_pu_labels
    >>> pu = make_pu_labels([0, 1, 1, 1, 0, 1], positive=1, n_labeled=2, random_state=0)
    >>> int(pu.s.sum()), pu.n_positive, round(pu.prior, 3)
    (2, 4, 0.667)

    Labeling the positives a logistic model is surest about more often:

    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> y = rng.rand(400) < 0.5
    >>> X = rng.normal(size=(400, 2)) + 2 * y[:, None]
    >>> pu = make_pu_labels(y, positive=True, labeled_fraction=0.3, mechanism="score", X=X,
    ...                     strength=2, random_state=0)
    >>> pu.n_labeled == round(0.3 * pu.n_positive), bool((pu.s[~y] == 0).all())
    (True, True)
    >>> e = pu.propensity[y]
    >>> bool(e[X[y].sum(axis=1) > 4].mean() > e[X[y].sum(axis=1) < 4].mean())
    True
    """
    arr = _as_1d(y)
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(
            f"y has {int(np.isnan(arr).sum())} missing (NaN) labels: a row's class must be known "
            "to simulate PU labels"
        )
    if isinstance(positive, Callable):
        is_pos = np.asarray(positive(arr), dtype=bool)
        pos_values: tuple = tuple(pd.unique(arr[is_pos]))
    else:
        pos_values = tuple(positive) if _is_listlike(positive) else (positive,)
        if arr.dtype.kind in "iub":
            # compare as the labels are stored: 1.5 must not become 1, "yes" must not crash
            bad = [v for v in pos_values if not _is_integer_value(v)]
            if bad:
                raise ValueError(
                    f"positive={bad[0]!r} is not an integer, but y holds integer labels: "
                    f"{sorted(pd.unique(arr).tolist())[:10]!r}"
                )
        is_pos = np.isin(
            arr, np.asarray(pos_values, dtype=arr.dtype if arr.dtype.kind != "O" else object)
        )
    n_pos = int(is_pos.sum())
    if n_pos == 0:
        found = pd.unique(arr)[:10]
        raise ValueError(
            f"no row has a positive label {list(pos_values)!r}; labels found: {list(found)!r}"
        )
    if n_pos == arr.shape[0]:
        raise ValueError("every row is positive: PU data needs negatives among the unlabeled rows")
    if (labeled_fraction is None) == (n_labeled is None):
        raise ValueError("give exactly one of labeled_fraction and n_labeled")
    if labeled_fraction is not None:
        if not 0 < labeled_fraction <= 1:
            raise ValueError(f"labeled_fraction must be in (0, 1]; got {labeled_fraction}")
        k = max(1, round(labeled_fraction * n_pos))
    else:
        k = int(n_labeled)
        if not 1 <= k <= n_pos:
            raise ValueError(
                f"n_labeled must be between 1 and the {counted(n_pos, 'positive')}; got {k}"
            )
    if mechanism not in MECHANISMS:
        raise ValueError(
            f"mechanism must be one of {', '.join(repr(m) for m in MECHANISMS)}; got {mechanism!r}"
        )
    if mechanism == "scar":
        if strength is not None or features is not None:
            raise ValueError(
                "strength and features shape the 'score' and 'features' mechanisms; SCAR takes "
                "neither"
            )
        rng = check_random_state(random_state)
        labeled_index = np.sort(rng.choice(np.flatnonzero(is_pos), size=k, replace=False))
        propensity = np.where(is_pos, k / n_pos, 0.0)
    else:
        propensity = _propensity(mechanism, X, is_pos, k, strength, features)
        rng = check_random_state(random_state)
        labeled_index = _conditional_poisson(propensity, k, rng)
    s = np.zeros(arr.shape[0], dtype=np.int8)
    s[labeled_index] = 1
    return PULabeling(
        s=s,
        y_true=is_pos.astype(np.int8),
        labeled_index=labeled_index,
        positive=pos_values,
        n_positive=n_pos,
        n_labeled=k,
        prior=n_pos / arr.shape[0],
        label_frequency=k / n_pos,
        mechanism=mechanism,
        propensity=propensity,
    )


def _feature_matrix(X, n_rows: int, mechanism: str) -> tuple[np.ndarray, list | None]:
    """``X`` as a float matrix (and its column names when it is a DataFrame)."""
    if X is None:
        raise ValueError(
            f"mechanism={mechanism!r} needs X: the labeling probability depends on the features"
        )
    names = [str(c) for c in X.columns] if isinstance(X, pd.DataFrame) else None
    if hasattr(X, "toarray"):
        X = X.toarray()
    try:
        X = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"mechanism={mechanism!r} needs numeric features (encode text columns first): {exc}"
        ) from None
    if X.ndim != 2 or X.shape[0] != n_rows:
        raise ValueError(
            f"X must have shape (n_samples, n_features) with {counted(n_rows, 'row')}; got "
            f"{X.shape}"
        )
    infinite = np.flatnonzero(np.isinf(X).any(axis=0))
    if infinite.size:
        shown = [names[j] if names else int(j) for j in infinite[:5]]
        raise ValueError(
            f"mechanism={mechanism!r} reads X, whose column(s) {shown} hold inf: an infinite "
            "value leaves no scale to grade the labeling probability by; replace it first"
        )
    return X, names


def _propensity(mechanism, X, is_pos, k, strength, features) -> np.ndarray:
    """``e(x)`` of every row (0 for the negatives), its mean over the positives ``k / n_pos``."""
    X, names = _feature_matrix(X, is_pos.shape[0], mechanism)
    strength = 1.0 if strength is None else float(strength)
    if not np.isfinite(strength) or strength < 0:
        raise ValueError(f"strength must be a finite number >= 0; got {strength!r}")
    # missing values: the column's median (they carry no ordering)
    if np.isnan(X).any():
        med = np.nanmedian(np.where(np.isnan(X).all(axis=0), 0.0, X), axis=0)
        X = np.where(np.isnan(X), np.nan_to_num(med)[None, :], X)
    if mechanism == "score":
        if features is not None:
            raise ValueError("features chooses the columns of mechanism='features'")
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        Z = StandardScaler().fit_transform(X)
        raw = LogisticRegression(C=1.0, max_iter=1000).fit(Z, is_pos).decision_function(Z)
        spread = raw[is_pos].std()
        base = (raw - raw[is_pos].mean()) / (spread if spread > 0 else 1.0)
    else:
        columns = _propensity_columns(X, names, is_pos, features)
        lo_p, hi_p = _FEATURE_PROPENSITY_RANGE
        scaled = []
        for j, sign in columns:
            v = sign * X[:, j]
            span = v.max() - v.min()
            unit = (v - v.min()) / span if span > 0 else np.full_like(v, 0.5)
            scaled.append(lo_p + unit * (hi_p - lo_p))
        e0 = np.exp(np.mean(np.log(np.column_stack(scaled)), axis=1))
        base = np.log(e0 / (1.0 - e0))
    if strength > 0 and np.ptp(base[is_pos]) == 0:
        # every positive would get the same probability: SCAR, while reported as not SCAR
        raise ValueError(
            f"mechanism={mechanism!r} gives every positive the same labeling probability here: "
            + (
                "the logistic score is the same for all of them (X's columns do not vary)"
                if mechanism == "score"
                else "the chosen column(s) hold one value among the rows"
            )
            + "; that is SCAR: use mechanism='scar', or columns that vary"
        )
    n_pos = int(is_pos.sum())
    e = np.zeros(is_pos.shape[0])
    if k == n_pos:
        e[is_pos] = 1.0
        return e
    e[is_pos] = _calibrated(strength * base[is_pos], k / n_pos)
    return e


def _propensity_columns(X, names, is_pos, features) -> list[tuple[int, float]]:
    """``(column, sign)`` pairs of the ``"features"`` mechanism."""
    if features is None:
        y = is_pos.astype(np.float64)
        sd = X.std(axis=0)
        cov = ((X - X.mean(axis=0)) * (y - y.mean())[:, None]).mean(axis=0)
        corr = np.where(sd > 0, cov / np.where(sd > 0, sd, 1.0), 0.0)
        j = int(np.argmax(np.abs(corr)))
        if not np.abs(corr[j]) > 0:
            raise ValueError("no column of X varies with the class; give features")
        return [(j, 1.0 if corr[j] > 0 else -1.0)]
    chosen = [features] if isinstance(features, (str, int, np.integer)) else list(features)
    if not chosen:
        raise ValueError("features must name at least one column")
    out = []
    for f in chosen:
        if isinstance(f, (int, np.integer)) and not isinstance(f, bool):
            if not 0 <= f < X.shape[1]:
                raise ValueError(
                    f"feature {f} is out of range for X with {counted(X.shape[1], 'column')}"
                )
            out.append((int(f), 1.0))
        elif names is not None and str(f) in names:
            out.append((names.index(str(f)), 1.0))
        else:
            raise ValueError(f"feature {f!r} is neither a column position nor a column name of X")
    return out


def _calibrated(logits: np.ndarray, c: float) -> np.ndarray:
    """``sigmoid(b + logits)`` with the shift ``b`` that makes its mean ``c`` (bisection)."""
    lo, hi = -60.0 - logits.max(), 60.0 - logits.min()
    for _ in range(200):
        b = 0.5 * (lo + hi)
        if _sigmoid(b + logits).mean() < c:
            lo = b
        else:
            hi = b
    return _sigmoid(0.5 * (lo + hi) + logits)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def _conditional_poisson(propensity: np.ndarray, k: int, rng) -> np.ndarray:
    """Rows drawn independently with their ``propensity``, redrawn until exactly ``k``."""
    candidates = np.flatnonzero(propensity > 0)
    p = propensity[candidates]
    if k == candidates.shape[0]:
        return candidates
    for _ in range(_MAX_DRAWS):
        chosen = rng.random_sample(p.shape[0]) < p
        if chosen.sum() == k:
            return candidates[chosen]
    raise RuntimeError(  # pragma: no cover - needs an astronomically unlucky draw
        f"could not draw exactly {counted(k, 'labeled positive')} in {_MAX_DRAWS} tries"
    )


def _is_listlike(value) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes))


def _is_integer_value(value) -> bool:
    """True for an int, a bool or a float with an integral value (1.0), False otherwise."""
    if isinstance(value, (bool, np.bool_, int, np.integer)):
        return True
    if isinstance(value, (float, np.floating)):
        return float(value).is_integer()
    return False
