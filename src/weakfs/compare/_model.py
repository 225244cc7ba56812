"""The model a PU board scores every selection with: a standardised logistic regression whose
strength of regularisation is chosen on the weak labels of the rows it is fitted on.

At scikit-learn's default ``C = 1`` a logistic regression fitted on PU labels of a wide table
learns which positives happen to be labeled: it scores every wide selection (all features above
all) low on the held-out rows, and the board then recommends a few columns that are truly worse.
Choosing ``C`` by an inner cross-validation of the same weak labels (the AUC of labeled against
unlabeled rows, which under SCAR ranks rows as the AUC of positives against negatives does)
reads no true label and costs a few more fits per score.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from weakfs._estimator_scores import binary_roc_auc

__all__ = ["WEAK_LABEL_CS", "WeakLabelLogisticRegression"]

#: the regularisation strengths tried, weakest last (scikit-learn's default C = 1)
WEAK_LABEL_CS = (1e-4, 1e-3, 1e-2, 1e-1, 1.0)


#: columns up to which the inner fits take Newton steps (a (d + 1)-square system per step);
#: wider, L-BFGS
NEWTON_MAX_COLUMNS = 100


def _l2_logistic(Z, y01, C: float, start, max_iter: int) -> np.ndarray:
    """``[w, b]`` minimising scikit-learn's L2 logistic objective ``||w||^2 / 2 + C sum
    log(1 + exp(-t (z w + b)))`` (``t = +-1``, the intercept unpenalised), divided by the row
    count, to a gradient below 1e-6.  The inner CV fits hundreds of small models per board,
    where ``LogisticRegression``'s checks cost more than the fit; the final model is
    scikit-learn's."""
    sign = 2.0 * y01 - 1.0
    n, d = Z.shape
    penalty = np.full(d + 1, 1.0 / (C * n))
    penalty[-1] = 0.0

    def loss_and_gradient(coef):
        margin = sign * (Z @ coef[:-1] + coef[-1])
        slope = -sign * expit(-margin) / n  # d loss / d (z w + b), per row
        loss = np.logaddexp(0.0, -margin).sum() / n + 0.5 * penalty @ coef**2
        gradient = np.append(Z.T @ slope, slope.sum()) + penalty * coef
        return loss, gradient

    if d > NEWTON_MAX_COLUMNS:
        result = minimize(
            loss_and_gradient, start, jac=True, method="L-BFGS-B",
            options={"maxiter": max_iter, "gtol": 1e-6},
        )  # fmt: skip
        return result.x
    Z1 = np.hstack([Z, np.ones((n, 1))])
    coef = np.array(start, dtype=float)
    loss, gradient = loss_and_gradient(coef)
    for _ in range(max_iter):
        if np.abs(gradient).max() < 1e-6:
            break
        p = expit(Z1 @ coef)
        hessian = (Z1 * (p * (1.0 - p) / n)[:, None]).T @ Z1 + np.diag(penalty + 1e-12)
        step = np.linalg.solve(hessian, gradient)
        for _ in range(30):  # halve the step until the loss falls (the loss is convex)
            new_loss, new_gradient = loss_and_gradient(coef - step)
            if new_loss <= loss:
                break
            step /= 2.0
        else:
            break
        coef, loss, gradient = coef - step, new_loss, new_gradient
    return coef


class WeakLabelLogisticRegression(ClassifierMixin, BaseEstimator):
    """Standardised logistic regression with ``C`` chosen by an inner stratified CV of the
    labels it is fitted on (ROC AUC), then refitted on every row at that ``C``.

    With fewer than ``min_per_fold`` rows of a class per inner test fold (fewer than ``cv *
    min_per_fold`` in all), an inner AUC is noise (on a toy table of 9 labeled rows it chose a
    ``C`` that scored all features far below a worse selection), so it fits at the largest
    ``C``, scikit-learn's default.  The inner folds are shuffled with a fixed seed, so a fit is
    deterministic.  ``stop_early`` stops the search at the first ``C`` that scores below a
    stronger penalty (on BASEHOCK's 4,862 columns the full grid took 8.3 s a fold, stopping
    1.4 s; it chooses the same ``C`` whenever the inner AUC rises to one peak and falls).
    """

    def __init__(
        self,
        Cs=WEAK_LABEL_CS,
        cv: int = 3,
        min_per_fold: int = 5,
        stop_early: bool = True,
        max_iter: int = 1000,
    ):
        self.Cs = Cs
        self.cv = cv
        self.min_per_fold = min_per_fold
        self.stop_early = stop_early
        self.max_iter = max_iter

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, encoded = np.unique(y, return_inverse=True)
        if self.classes_.size != 2:
            raise ValueError(f"{type(self).__name__} needs two classes; got {self.classes_.size}")
        Cs = np.sort(np.asarray(self.Cs, dtype=float))
        if Cs.size == 0 or np.any(Cs <= 0):
            raise ValueError(f"Cs must be positive numbers; got {self.Cs!r}")
        self.scaler_ = StandardScaler().fit(X)
        Z = self.scaler_.transform(X)
        if Cs.size == 1 or np.bincount(encoded).min() < self.cv * self.min_per_fold:
            self.C_, self.cv_scores_ = float(Cs[-1]), None
        else:
            self.cv_scores_ = self._inner_scores(Z, encoded, Cs)
            self.C_ = float(Cs[int(np.nanargmax(self.cv_scores_))])  # a tie: the stronger one
        self.model_ = LogisticRegression(C=self.C_, max_iter=self.max_iter).fit(Z, encoded)
        return self

    def _inner_scores(self, Z, encoded, Cs) -> np.ndarray:
        """Mean inner-fold ROC AUC of each ``C``, fitted strongest-penalty-first (each fold's
        fit starting from its previous coefficients); with ``stop_early``, the Cs after the
        first one whose mean AUC falls below the best so far are not fitted (NaN): the weakly
        penalised fits are the slow ones on wide tables, and there the AUC falls from the
        strongest penalty on."""
        folds = list(StratifiedKFold(self.cv, shuffle=True, random_state=0).split(Z, encoded))
        coefs = [np.zeros(Z.shape[1] + 1) for _ in folds]
        scores = np.full(Cs.size, np.nan)
        for j, C in enumerate(Cs):
            aucs = []
            for f, (train, test) in enumerate(folds):
                coefs[f] = _l2_logistic(Z[train], encoded[train], float(C), coefs[f], self.max_iter)
                aucs.append(binary_roc_auc(encoded[test], Z[test] @ coefs[f][:-1] + coefs[f][-1]))
            scores[j] = np.mean(aucs)
            if self.stop_early and j > 0 and scores[j] < np.nanmax(scores[:j]):
                break
        return scores

    def with_chosen_c(self) -> WeakLabelLogisticRegression:
        """An unfitted copy that fits at the ``C`` this fit chose, without the search."""
        check_is_fitted(self)
        return clone(self).set_params(Cs=(self.C_,))

    def decision_function(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.model_.decision_function(self.scaler_.transform(X))

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self.model_.predict_proba(self.scaler_.transform(X))

    def predict(self, X) -> np.ndarray:
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
