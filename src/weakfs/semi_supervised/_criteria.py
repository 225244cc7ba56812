"""Selection criteria of SEW-IL (paper Table 2), as interchangeable objects.

Each criterion scores one fitted random forest (trained on labeled + pseudo-labeled rows of one
feature subset); **lower is better**.  They read a :class:`ForestEvidence`, which holds what the
criteria need: the out-of-bag votes on the training rows, the training labels (true or pseudo),
which training rows carry a true label, and the votes on the unlabeled training rows.

* :class:`CBILCriterion` -- C-bound with imperfect labels (Theorem 2.4):
  ``1 - (1/gamma) mu1^2 / mu2`` with ``gamma = sum_j max_i p_ij`` and the mislabeling matrix
  ``p_ij = P(Yhat = i | Y = j)`` estimated on the labeled rows from out-of-bag predictions
  (name ``"cbil"``); with ``correction="beta"`` Proposition 2.3's ``beta = max_i sum_j p_ij``
  instead (name ``"cbil-beta"``; ``beta = 1`` without mislabeling, where ``gamma = K``).
  With ``margins="labels"`` (name ``"cbil-labels"``) the moments are read at the rows' own
  (true or pseudo-) labels instead of weighted by the votes (see below).
* :class:`CBoundCriterion` -- the same without the gamma correction (CB).
* :class:`OOBErrorCriterion` -- out-of-bag error of the forest (OOB).
* :class:`TransductiveBoundCriterion` -- the transductive bound of Feofanov et al. (2019) on the
  risk of the majority vote over the unlabeled rows (TB; name ``"tb"`` with the ``I`` and ``M``
  sums restricted to the rows predicted ``k``, ``"tb-printed"`` with them over all rows, as
  printed).

Moments of the margin variable: ``M_hat`` equals the margin ``M_Q(x, i) = v(x, i) - max_{c != i}
v(x, c)`` with probability ``P(Yhat = i | x)``, estimated by the votes ``v(x, i)``; so
``mu1 = mean_x sum_i v(x,i) M_Q(x,i)`` and ``mu2 = mean_x sum_i v(x,i) M_Q(x,i)^2``.
Those moments never read the training labels.  The other reading of the paper's Theorem 2.4
estimates ``P(Yhat = i | x)`` on the augmented training set by the observed (pseudo-)label
itself: ``mu1 = mean_x M_Q(x, yhat)`` and ``mu2 = mean_x M_Q(x, yhat)^2`` (``"cbil-labels"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from weakfs.semi_supervised._self_learning import early_stopped_argmin

__all__ = [
    "CRITERIA",
    "TB_SUMS",
    "CBILCriterion",
    "CBoundCriterion",
    "ForestEvidence",
    "OOBErrorCriterion",
    "TransductiveBoundCriterion",
    "c_bound",
    "cbil",
    "get_criterion",
    "margin_moments",
    "margins",
    "mislabeling_matrix",
    "transductive_bound",
]


def margins(votes: np.ndarray) -> np.ndarray:
    """``M_Q(x, c) = v(x, c) - max_{c' != c} v(x, c')`` for every row and class."""
    v = np.asarray(votes, dtype=float)
    if v.shape[1] < 2:
        raise ValueError("margins need at least two classes")
    order = np.sort(v, axis=1)
    top, second = order[:, -1], order[:, -2]
    is_top = v == top[:, None]
    # for the top class the competitor is the second largest; otherwise the largest
    n_top = is_top.sum(axis=1)
    competitor = np.where(is_top & (n_top[:, None] == 1), second[:, None], top[:, None])
    return v - competitor


def margin_moments(votes: np.ndarray, labels: np.ndarray | None = None) -> tuple[float, float]:
    """First two moments ``(mu1, mu2)`` of ``M_hat``, averaged over rows: the vote-weighted
    margins, or with ``labels`` (class indices) each row's margin at its own label."""
    v = np.asarray(votes, dtype=float)
    m = margins(v)
    if labels is not None:
        at_label = m[np.arange(m.shape[0]), np.asarray(labels, dtype=np.intp)]
        return float(np.mean(at_label)), float(np.mean(at_label * at_label))
    mu1 = float(np.mean(np.sum(v * m, axis=1)))
    mu2 = float(np.mean(np.sum(v * m * m, axis=1)))
    return mu1, mu2


def c_bound(votes: np.ndarray) -> float:
    """Multi-class C-bound ``1 - mu1^2 / mu2`` (1.0, the trivial bound, when ``mu1 <= 0``)."""
    mu1, mu2 = margin_moments(votes)
    if mu1 <= 0 or mu2 <= 0:
        return 1.0
    return 1.0 - mu1 * mu1 / mu2


def mislabeling_matrix(y_true: np.ndarray, y_pred: np.ndarray, n_classes: int) -> np.ndarray:
    """``p[i, j] = P(Yhat = i | Y = j)``: column-normalised confusion of predictions vs truth.

    A class ``j`` with no row gets the identity column (no evidence of mislabeling).
    """
    y_true = np.asarray(y_true, dtype=np.intp)
    y_pred = np.asarray(y_pred, dtype=np.intp)
    counts = np.zeros((n_classes, n_classes))
    np.add.at(counts, (y_pred, y_true), 1.0)
    col = counts.sum(axis=0)
    p = np.where(col > 0, counts / np.where(col > 0, col, 1.0), np.eye(n_classes))
    return p


def cbil(
    votes: np.ndarray,
    p: np.ndarray,
    *,
    correction: str = "gamma",
    labels: np.ndarray | None = None,
) -> float:
    """C-bound with imperfect labels: ``1 - (1/gamma) mu1^2/mu2`` (Theorem 2.4).

    ``correction="gamma"``: ``gamma = sum_j max_i p_ij`` (Theorem 2.4); ``"beta"``:
    ``beta = max_i sum_j p_ij`` (Proposition 2.3).  ``labels``: the rows' (pseudo-)labels, to
    read the margins at them instead of weighting them by the votes.
    """
    mu1, mu2 = margin_moments(votes, labels)
    p = np.asarray(p, dtype=float)
    if correction == "beta":
        gamma = float(np.max(np.sum(p, axis=1)))
    else:
        gamma = float(np.sum(np.max(p, axis=0)))
    if mu1 <= 0 or mu2 <= 0:
        return 1.0
    return 1.0 - mu1 * mu1 / mu2 / gamma


#: which rows the ``I`` and ``M`` sums of the transductive bound run over
TB_SUMS = ("predicted", "all")


def _joint_bayes_bound(
    votes: np.ndarray, pred: np.ndarray, i: int, k: int, n_grid: int, sums: str = "predicted"
) -> float:
    """Bound on the joint risk "true class i, predicted k" (Feofanov et al. 2019), theta = 0.

    ``sums="predicted"``: the ``I`` and ``M`` sums run over the rows predicted ``k`` (as ``K``
    does), so that for large ``gamma`` the bound tends to the vote estimate of the joint risk.
    ``sums="all"``: over every row with ``v_k(x) < gamma``, as printed (and as the self-learning
    threshold search computes them).
    """
    vi, vk = votes[:, i], votes[:, k]
    ui = vi.sum()
    if ui <= 0:
        return 0.0
    on_k = pred == k
    kk = np.sum(vi[on_k] * vk[on_k]) / ui
    gammas = (np.arange(n_grid) + 1) / n_grid
    below = vk[None, :] < gammas[:, None]
    if sums == "predicted":
        below = below & on_k[None, :]
    ii = below @ vi / ui
    mm = below @ (vi * vk) / ui
    bounds = ii + np.maximum(kk - mm, 0.0) / gammas
    return float(bounds[early_stopped_argmin(bounds)])


def transductive_bound(votes: np.ndarray, *, n_grid: int = 50, sums: str = "predicted") -> float:
    """Transductive bound on the risk of the majority vote on unlabeled rows.

    ``R_U(B_Q) <= (1/|U|) sum_i u_i sum_{k != i} bound_ik`` where ``u_i = sum_x v_i(x)`` and
    ``bound_ik = inf_gamma I_ik(0, gamma) + max(K_ik - M_ik(0, gamma), 0) / gamma`` bounds the joint
    Bayes risk of predicting ``k`` when the class is ``i`` (the pieces of the SLA threshold with
    ``theta = 0``).

    Parameters
    ----------
    votes : ndarray (n_unlabeled, n_classes)
        Votes of the forest on the unlabeled rows.
    n_grid : int, default=50
        Points of the ``gamma`` grid ``(m + 1) / n_grid``.
    sums : {"predicted", "all"}, default="predicted"
        Rows of the ``I`` and ``M`` sums: those predicted ``k`` (as ``K``; our default, see
        docs/sewil.md) or all rows with ``v_k < gamma`` (the bound as printed).

    Returns
    -------
    bound : float
    """
    if sums not in TB_SUMS:
        raise ValueError(f"sums must be one of {TB_SUMS}; got {sums!r}")
    v = np.asarray(votes, dtype=float)
    n_u, n_classes = v.shape
    pred = v.argmax(axis=1)
    u_mass = v.sum(axis=0)
    total = 0.0
    for i in range(n_classes):
        for k in range(n_classes):
            if i != k and u_mass[i] > 0:
                total += u_mass[i] * _joint_bayes_bound(v, pred, i, k, n_grid, sums)
    return total / n_u


@dataclass
class ForestEvidence:
    """What the criteria read from one forest fit on a feature subset.

    Attributes
    ----------
    oob_votes : ndarray (n_train, n_classes)
        Out-of-bag votes on the training rows (rows never out of bag are dropped by the criteria).
    y_train : ndarray (n_train,)
        Training labels (true or pseudo), class indices.
    is_true_label : ndarray of bool (n_train,)
        Which training rows carry a true label (used for the mislabeling matrix).
    unlabeled_votes : ndarray (n_unlabeled, n_classes) or None
        Votes on the unlabeled training rows (only the transductive bound needs them).
    """

    oob_votes: np.ndarray
    y_train: np.ndarray
    is_true_label: np.ndarray
    unlabeled_votes: np.ndarray | None = None

    @property
    def n_classes(self) -> int:
        return self.oob_votes.shape[1]

    def valid(self) -> np.ndarray:
        v = self.oob_votes
        return np.isfinite(v).all(axis=1) & (v.sum(axis=1) > 0)

    def mislabeling(self) -> np.ndarray:
        ok = self.valid() & self.is_true_label
        pred = self.oob_votes[ok].argmax(axis=1)
        return mislabeling_matrix(self.y_train[ok], pred, self.n_classes)


class _Criterion:
    name = ""
    needs_unlabeled_votes = False

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class CBILCriterion(_Criterion):
    """C-bound with imperfect labels (CBIL); lower is better.

    Parameters
    ----------
    correction : {"gamma", "beta"}, default="gamma"
        ``"gamma"``: Theorem 2.4, ``gamma = sum_j max_i p_ij`` (the paper's criterion; note that it
        equals ``K`` for a perfect mislabeling matrix).  ``"beta"``: Proposition 2.3,
        ``beta = max_i sum_j p_ij`` (1 for perfect labels).
    margins : {"votes", "labels"}, default="votes"
        How the moments of ``M_hat`` estimate ``P(Yhat = i | x)``: by the forest's out-of-bag
        votes (so the training labels are never read), or by each training row's own (true or
        pseudo-) label, the empirical C-bound of the augmented training set.
    """

    name = "cbil"

    def __init__(self, correction: str = "gamma", margins: str = "votes"):
        if correction not in ("gamma", "beta"):
            raise ValueError(f"correction must be 'gamma' or 'beta'; got {correction!r}")
        if margins not in ("votes", "labels"):
            raise ValueError(f"margins must be 'votes' or 'labels'; got {margins!r}")
        self.correction = correction
        self.margins = margins
        self.name = "cbil" if correction == "gamma" else "cbil-beta"
        if margins == "labels":
            self.name += "-labels"

    def __repr__(self) -> str:
        return f"CBILCriterion(correction={self.correction!r}, margins={self.margins!r})"

    def __call__(self, evidence: ForestEvidence) -> float:
        ok = evidence.valid()
        labels = evidence.y_train[ok] if self.margins == "labels" else None
        return cbil(
            evidence.oob_votes[ok],
            evidence.mislabeling(),
            correction=self.correction,
            labels=labels,
        )


class CBoundCriterion(_Criterion):
    """Multi-class C-bound without the gamma correction (CB); lower is better."""

    name = "cb"

    def __call__(self, evidence: ForestEvidence) -> float:
        ok = evidence.valid()
        return c_bound(evidence.oob_votes[ok])


class OOBErrorCriterion(_Criterion):
    """Out-of-bag error of the forest on labeled + pseudo-labeled rows (OOB); lower is better."""

    name = "oob"

    def __call__(self, evidence: ForestEvidence) -> float:
        ok = evidence.valid()
        pred = evidence.oob_votes[ok].argmax(axis=1)
        return float(np.mean(pred != evidence.y_train[ok]))


class TransductiveBoundCriterion(_Criterion):
    """Transductive bound of Feofanov et al. (2019) on the unlabeled rows (TB); lower is better.

    Parameters
    ----------
    n_grid : int, default=50
        Points of the ``gamma`` grid.
    sums : {"predicted", "all"}, default="predicted"
        Rows of the bound's ``I`` and ``M`` sums: those predicted ``k`` (name ``"tb"``, see
        docs/sewil.md) or every row, as printed (name ``"tb-printed"``).
    """

    name = "tb"
    needs_unlabeled_votes = True

    def __init__(self, n_grid: int = 50, sums: str = "predicted"):
        if sums not in TB_SUMS:
            raise ValueError(f"sums must be one of {TB_SUMS}; got {sums!r}")
        self.n_grid = n_grid
        self.sums = sums
        self.name = "tb" if sums == "predicted" else "tb-printed"

    def __repr__(self) -> str:
        return f"TransductiveBoundCriterion(n_grid={self.n_grid}, sums={self.sums!r})"

    def __call__(self, evidence: ForestEvidence) -> float:
        if evidence.unlabeled_votes is None or evidence.unlabeled_votes.shape[0] == 0:
            raise ValueError("the transductive bound needs votes on unlabeled rows")
        return transductive_bound(evidence.unlabeled_votes, n_grid=self.n_grid, sums=self.sums)


#: criterion name -> a function making the criterion object
CRITERIA = {
    "cbil": CBILCriterion,
    "cbil-beta": partial(CBILCriterion, correction="beta"),
    "cbil-labels": partial(CBILCriterion, margins="labels"),
    "cb": CBoundCriterion,
    "oob": OOBErrorCriterion,
    "tb": TransductiveBoundCriterion,
    "tb-printed": partial(TransductiveBoundCriterion, sums="all"),
}


def get_criterion(criterion) -> _Criterion:
    """A criterion object from its name or the criterion itself.

    Parameters
    ----------
    criterion : str or callable
        ``"cbil"`` (Theorem 2.4's gamma), ``"cbil-beta"`` (Proposition 2.3's beta),
        ``"cbil-labels"`` (margins at the training rows' own labels), ``"cb"``,
        ``"oob"``, ``"tb"`` (sums over the rows predicted ``k``), ``"tb-printed"`` (sums over
        all rows), or a callable on a :class:`ForestEvidence`, returned as it is.

    Returns
    -------
    criterion : callable
    """
    if isinstance(criterion, str):
        if criterion not in CRITERIA:
            raise ValueError(f"unknown criterion {criterion!r}; choose one of {sorted(CRITERIA)}")
        return CRITERIA[criterion]()
    if not callable(criterion):
        raise TypeError(f"criterion must be a name or a callable, got {type(criterion).__name__}")
    return criterion
