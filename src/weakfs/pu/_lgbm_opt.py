"""LGBM-OPT: FSCPU's wrapper baseline — the compact GA maximising LightGBM's validation AUC.

From the FSCPU paper (Uchikoshi & Akimoto, GECCO 2025, §6.2.2, baseline (10)): the same compact
GA / IGO search as FSCPU (:class:`weakfs.search.CompactGA`), with the objective replaced by the
ROC AUC of a LightGBM classifier trained on the PU labels of the selected columns and scored on a
held-out part of the training rows (PU labels again: no true label is ever used).
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from sklearn.base import _fit_context
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval

from weakfs._docstrings import fill_doc
from weakfs._labels import check_pu_target
from weakfs._selection import SupportSelector
from weakfs._validation import (
    check_n_features_to_select,
    n_features_to_select_constraint,
    validate_X_y,
)
from weakfs.search import CompactGA

__all__ = ["LGBMOptSelector", "lightgbm_auc"]


def lightgbm_auc(X_train, s_train, X_test, y_test, seed: int, n_estimators: int = 100) -> float:
    """ROC AUC on ``(X_test, y_test)`` of a LightGBM classifier (one thread) fit on
    ``(X_train, s_train)``."""
    try:
        from lightgbm import LGBMClassifier
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "LGBMOptSelector needs lightgbm: pip install 'weakfs[experiments]' (or lightgbm)"
        ) from exc
    model = LGBMClassifier(n_estimators=n_estimators, random_state=seed, n_jobs=1, verbose=-1)
    model.fit(X_train, s_train)
    return float(roc_auc_score(y_test, model.predict_proba(X_test)[:, 1]))


@fill_doc
class LGBMOptSelector(SupportSelector):
    """Compact-GA feature selection on LightGBM's validation AUC over PU labels (LGBM-OPT).

    The training rows are split once (stratified on the PU labels); each candidate mask of the
    compact GA is scored by the AUC, on the held-out part, of a LightGBM fit on the other part.
    The answer is the compact GA's: the ``k`` features with the largest final ``theta``.

    Parameters
    ----------
    %(n_features_to_select)s
    n_iter : int, default=3000
        Compact-GA iterations (two LightGBM fits each, fewer with the cache).
    validation_size : float, default=0.25
        Share of the training rows held out for the AUC.
    n_estimators : int, default=100
        Trees of each LightGBM fit.
    %(random_state)s
        It seeds the split, the compact GA and every LightGBM fit.
    %(n_jobs)s
        2 scores the two candidates of an iteration in parallel threads.

    Attributes
    ----------
    support_ : ndarray of bool
    theta_ : ndarray of shape (n_features,)
        The compact GA's final parameters.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.pu import LGBMOptSelector
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(300, 6)); s = ((X[:, 2] > 0.5) & (rng.uniform(size=300) < 0.5))
    >>> sel = LGBMOptSelector(n_features_to_select=1, n_iter=20, random_state=0)
    >>> sel.fit(X, s.astype(int)).get_support().tolist()
    [False, False, True, False, False, False]
    """

    _parameter_constraints: ClassVar[dict] = {
        "n_features_to_select": n_features_to_select_constraint(),
        "n_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "validation_size": [Interval(numbers.Real, 0, 1, closed="neither")],
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        n_iter: int = 3000,
        validation_size: float = 0.25,
        n_estimators: int = 100,
        random_state=None,
        n_jobs: int | None = None,
    ):
        self.n_features_to_select = n_features_to_select
        self.n_iter = n_iter
        self.validation_size = validation_size
        self.n_estimators = n_estimators
        self.random_state = random_state
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Search the ``k`` columns whose LightGBM separates held-out labeled rows best."""
        X, y = validate_X_y(self, X, y, ensure_min_samples=4)
        s = check_pu_target(self, y)
        if s.sum() < 2:
            raise ValueError(
                "LGBMOptSelector needs at least 2 labeled positives (one on each side of the "
                f"validation split); y has {int(s.sum())}"
            )
        d = X.shape[1]
        k = check_n_features_to_select(self.n_features_to_select, d)
        seed = self.random_state
        if not isinstance(seed, numbers.Integral):
            seed = int(check_random_state(seed).randint(np.iinfo(np.int32).max))
        X_fit, X_val, s_fit, s_val = train_test_split(
            X, s, test_size=self.validation_size, stratify=s, random_state=seed
        )

        def validation_auc(mask):
            return lightgbm_auc(
                X_fit[:, mask], s_fit, X_val[:, mask], s_val, seed, self.n_estimators
            )

        ga = CompactGA(self.n_iter, budget=k, n_jobs=self.n_jobs)
        result = ga.run(validation_auc, d, random_state=seed)
        self.support_ = np.asarray(result.support, dtype=bool)
        self.theta_ = result.theta
        return self
