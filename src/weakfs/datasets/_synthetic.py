"""Generic synthetic data with known relevant features."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, validate_params

__all__ = ["make_informative_noise"]


@validate_params(
    {
        "n_samples": [Interval(Integral, 2, None, closed="left")],
        "n_informative": [Interval(Integral, 1, None, closed="left")],
        "n_noise": [Interval(Integral, 0, None, closed="left")],
        "n_redundant": [Interval(Integral, 0, None, closed="left")],
        "class_sep": [Interval(Real, 0, None, closed="left")],
        "positive_share": [Interval(Real, 0, 1, closed="neither")],
        "shuffle_columns": ["boolean"],
        "as_frame": ["boolean"],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_informative_noise(
    n_samples: int = 1000,
    *,
    n_informative: int = 5,
    n_noise: int = 20,
    n_redundant: int = 0,
    class_sep: float = 1.5,
    positive_share: float = 0.3,
    shuffle_columns: bool = True,
    as_frame: bool = True,
    random_state=None,
):
    """Binary data whose class depends on ``n_informative`` columns only.

    Positives are drawn from ``N(mu, I)`` and negatives from ``N(0, I)`` on the informative columns
    (each coordinate of ``mu`` is ``+-class_sep``); redundant columns are noisy copies of
    informative
    ones; noise columns are ``N(0, 1)`` and independent of the class.

    Returns
    -------
    X : DataFrame or ndarray of shape (n_samples, n_informative + n_redundant + n_noise)
    y : ndarray of int, 1 = positive, 0 = negative
    relevant : ndarray of int
        Column positions of the informative and redundant features.

    Examples
    --------
    >>> from weakfs.datasets import make_informative_noise
    >>> X, y, relevant = make_informative_noise(200, n_informative=3, n_noise=5, random_state=0)
    >>> X.shape, len(relevant)
    ((200, 8), 3)
    """
    if n_informative < 1:
        raise ValueError(f"n_informative must be at least 1; got {n_informative}")
    if not 0 < positive_share < 1:
        raise ValueError(f"positive_share must be in (0, 1); got {positive_share}")
    rng = check_random_state(random_state)
    y = (rng.random_sample(n_samples) < positive_share).astype(np.int64)
    mu = class_sep * rng.choice([-1.0, 1.0], size=n_informative)
    informative = rng.standard_normal((n_samples, n_informative)) + y[:, None] * mu[None, :]
    sources = rng.randint(n_informative, size=n_redundant)
    redundant = informative[:, sources] + 0.3 * rng.standard_normal((n_samples, n_redundant))
    noise = rng.standard_normal((n_samples, n_noise))
    X = np.hstack([informative, redundant, noise])
    kind = ["informative"] * n_informative + ["redundant"] * n_redundant + ["noise"] * n_noise
    order = rng.permutation(X.shape[1]) if shuffle_columns else np.arange(X.shape[1])
    X, kind = X[:, order], [kind[i] for i in order]
    relevant = np.flatnonzero([k != "noise" for k in kind])
    if as_frame:
        X = pd.DataFrame(X, columns=[f"{k[:4]}{j:03d}" for j, k in enumerate(kind)])
    return X, y, relevant
