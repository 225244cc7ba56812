"""sSelect: semi-supervised feature selection via spectral analysis (Zhao and Liu, SDM 2007).

Each feature is read as a relaxed two-cluster indicator on a k-NN graph over all rows (labeled
and unlabeled).  Its score adds two terms, both smaller-is-better:

* the **Laplacian score** ``f~' L f~ / f~' D f~`` (He, Cai and Niyogi 2005) of the feature centred
  with the degree weights, ``f~ = f - (f' D 1 / 1' D 1) 1``: how little the feature cuts the graph
  (equal to ``f^' L^ f^`` for the normalised feature ``f^ = D^(1/2) f~ / ||D^(1/2) f~||`` and the
  normalised Laplacian ``L^ = D^(-1/2) L D^(-1/2)``);
* ``1 - NMI``: the normalised mutual information between the labels of the labeled rows and the
  two clusters the feature forms, ``f~ >= 0`` versus ``f~ < 0`` (the sign of a relaxed indicator
  orthogonal to ``D 1``, as a Fiedler vector is cut in spectral clustering).  It is small when
  every cluster holds labeled rows of one class: the cluster assumption.

``score = lam * laplacian + (1 - lam) * (1 - NMI)``; ``lam`` is the regularisation weight of the
graph term (``lam = 1``: the Laplacian score alone, unsupervised; ``lam = 0``: label consistency
alone).  What the descriptions we could read leave open and how it is chosen here (graph
weights, kernel width, NMI normalisation, the threshold) is written in the class docstring.
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions

from weakfs._docstrings import fill_doc
from weakfs._graph import heat_kernel_graph, laplacian_quadratic_form
from weakfs._labels import check_semi_supervised_labels
from weakfs._selection import RankingSelector
from weakfs._validation import (
    check_n_features_to_select,
    n_features_to_select_constraint,
    validate_X_y,
)
from weakfs.semi_supervised._ssl_baselines import _dense64

__all__ = ["SSelectSelector", "binary_indicator_nmi", "sselect_scores"]

_AVERAGE_METHODS = ("min", "geometric", "arithmetic", "max")


def _entropy_of_counts(counts: np.ndarray, total: float) -> np.ndarray:
    """Shannon entropy (nats) of count vectors along axis 0 (``0 log 0 = 0``)."""
    p = counts / total
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(p), 0.0)
    return -terms.sum(axis=0)


def binary_indicator_nmi(
    y_codes: np.ndarray, indicators: np.ndarray, *, average_method: str = "arithmetic"
) -> np.ndarray:
    """Normalised mutual information between class codes and each column of a boolean matrix.

    The same value as scikit-learn's ``normalized_mutual_info_score(y_codes, indicators[:, j])``
    for every column ``j`` (its limit cases included: 1.0 when both labellings hold a single
    value, 0.0 when the mutual information is zero), computed for all columns at once.

    Parameters
    ----------
    y_codes : ndarray of int, shape (n,)
        Class codes ``0 .. c-1`` (one class is allowed).
    indicators : ndarray of bool, shape (n, p)
        Two-cluster assignments, one column per feature.
    average_method : {"min", "geometric", "arithmetic", "max"}, default="arithmetic"
        Mean of the two entropies that normalises the mutual information.

    Returns
    -------
    nmi : ndarray of shape (p,)

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 0, 1, 1])
    >>> B = np.array([[0, 1], [0, 0], [1, 1], [1, 0]], dtype=bool)
    >>> binary_indicator_nmi(y, B).round(3).tolist()
    [1.0, 0.0]
    """
    if average_method not in _AVERAGE_METHODS:
        raise ValueError(
            f"average_method must be one of {_AVERAGE_METHODS}; got {average_method!r}"
        )
    y_codes = np.asarray(y_codes)
    B = np.asarray(indicators, dtype=bool)
    n = B.shape[0]
    class_counts = np.bincount(y_codes).astype(float)
    class_counts = class_counts[class_counts > 0]
    onehot = (y_codes[:, None] == np.unique(y_codes)[None, :]).astype(float)
    # contingency table per feature: classes x {indicator true, indicator false}
    n_true = onehot.T @ B.astype(float)  # (c, p)
    n_false = class_counts[:, None] - n_true
    col_true = B.sum(axis=0).astype(float)
    col_false = n - col_true
    with np.errstate(divide="ignore", invalid="ignore"):
        mi = np.where(
            n_true > 0, n_true * np.log(n_true * n / (class_counts[:, None] * col_true)), 0.0
        ).sum(axis=0)
        mi += np.where(
            n_false > 0, n_false * np.log(n_false * n / (class_counts[:, None] * col_false)), 0.0
        ).sum(axis=0)
    mi = np.maximum(mi / n, 0.0)
    h_y = float(_entropy_of_counts(class_counts, n))
    h_c = _entropy_of_counts(np.vstack([col_true, col_false]), n)
    norm = {
        "min": np.minimum(h_y, h_c),
        "geometric": np.sqrt(h_y * h_c),
        "arithmetic": 0.5 * (h_y + h_c),
        "max": np.maximum(h_y, h_c),
    }[average_method]
    with np.errstate(divide="ignore", invalid="ignore"):
        nmi = np.where(mi > 0, mi / norm, 0.0)
    # scikit-learn's limit case: neither labelling is split, a perfect match
    one_cluster = (col_true == 0) | (col_false == 0)
    if class_counts.size == 1:
        nmi[one_cluster] = 1.0
    return nmi


def sselect_scores(
    X,
    y_codes,
    *,
    n_neighbors: int = 5,
    lam: float = 0.1,
    sigma: float | None = None,
    average_method: str = "arithmetic",
) -> dict:
    """sSelect's score of every feature (smaller is better) and its two terms.

    Parameters
    ----------
    X : array-like or sparse matrix of shape (n_samples, n_features)
    y_codes : ndarray of int, shape (n_samples,)
        Class codes of the labeled rows, ``-1`` for unlabeled rows.
    n_neighbors, lam, sigma, average_method
        As in :class:`SSelectSelector`.

    Returns
    -------
    dict
        ``scores``, ``laplacian`` (Laplacian scores; ``inf`` for a constant feature), ``nmi``
        (label consistency of each feature's two clusters) and ``sigma`` (the kernel width used).
    """
    X = _dense64(X)
    y_codes = np.asarray(y_codes)
    W, sigma = heat_kernel_graph(X, n_neighbors, sigma)
    deg = np.asarray(W.sum(axis=1)).ravel()
    # centre each feature so that it is D-orthogonal to the trivial eigenvector 1
    mean_d = (deg @ X) / deg.sum() if deg.sum() > 0 else X.mean(axis=0)
    Xc = X - mean_d
    constant = np.ptp(X, axis=0) == 0
    Xc[:, constant] = 0.0  # an exact zero, not rounding noise of the weighted mean
    num = laplacian_quadratic_form(W, Xc)
    den = (deg[:, None] * Xc * Xc).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        laplacian = np.where(den > 0, np.maximum(num, 0.0) / den, np.inf)
    lab = y_codes >= 0
    nmi = binary_indicator_nmi(y_codes[lab], Xc[lab] >= 0, average_method=average_method)
    with np.errstate(invalid="ignore"):
        scores = lam * laplacian + (1.0 - lam) * (1.0 - nmi)
    scores[~np.isfinite(laplacian)] = np.inf  # a constant feature carries nothing: last
    return {"scores": scores, "laplacian": laplacian, "nmi": nmi, "sigma": sigma}


@fill_doc
class SSelectSelector(RankingSelector):
    """sSelect: semi-supervised feature selection via spectral analysis (Zhao and Liu 2007).

    A k-NN graph over all rows carries heat-kernel weights ``W``, degrees ``D`` and Laplacian
    ``L = D - W``.  Each feature ``f`` is centred with the degree weights,
    ``f~ = f - (f' D 1 / 1' D 1) 1``, and scored

    ``score(f) = lam * (f~' L f~ / f~' D f~) + (1 - lam) * (1 - NMI(y_L, [f~_L >= 0]))``

    where the first term is the Laplacian score (how well the feature separates the graph, over
    labeled and unlabeled rows) and the second measures how far the two clusters the feature
    forms are from holding labeled rows of a single class each (normalised mutual information
    between the labels of the labeled rows and their cluster).  Features are ranked by increasing
    score.  The FSCPU paper (Uchikoshi and Akimoto 2025) runs it with ``lam = 0.1`` and
    ``n_neighbors = 5``, the defaults here.

    Choices the descriptions we could read leave open (see the package documentation of the
    FSCPU baselines): heat-kernel weights on the symmetric k-NN graph (``i ~ j`` when either
    is among the other's neighbours, self excluded) with width ``sigma``; the cluster indicator
    is the sign of ``f~`` (the Fiedler-vector cut); ``lam`` weights the graph term; the NMI is
    scikit-learn's, whose ``average_method`` default the FSCPU experiments used.  With
    ``allow_single_class=True`` one labeled class is accepted (positive-unlabeled data: ``1``
    for the labeled positives, ``-1`` for the unlabeled rows); the NMI term then rewards a
    feature whose labeled rows all fall in one cluster.

    Parameters
    ----------
    %(n_features_to_select)s
    n_neighbors : int, default=5
        Neighbours of each row in the k-NN graph (FSCPU's setting); fewer than the rows.
    lam : float, default=0.1
        Weight of the Laplacian-score term in ``[0, 1]``; the label term weighs ``1 - lam``
        (FSCPU's setting 0.1).
    sigma : float or None, default=None
        Heat-kernel width; ``None``: the square root of the median non-zero squared length of
        the k-NN graph's edges.
    average_method : {"arithmetic", "geometric", "min", "max"}, default="arithmetic"
        Normalisation of the mutual information, as in scikit-learn's
        ``normalized_mutual_info_score``.
    %(allow_fully_labeled)s
    allow_single_class : bool, default=False
        Accept labeled rows of a single class (positive-unlabeled data, FSCPU's setting).  By
        default fewer than two labeled classes raise a ``ValueError``, as in every
        semi-supervised selector of weakfs.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features,)
        sSelect scores (smaller is better; ``inf`` for a constant feature).
    laplacian_scores_ : ndarray of shape (n_features,)
        The Laplacian-score term (in ``[0, 2]``; ``inf`` for a constant feature).
    label_consistency_ : ndarray of shape (n_features,)
        The NMI term, in ``[0, 1]``.
    sigma_ : float
        The heat-kernel width used.
    ranking_ : ndarray of int
        Feature indices, best (smallest score) first.
    support_ : ndarray of bool
        The first ``n_features_to_select`` features of ``ranking_``.
    classes_ : ndarray
        Classes of the labeled rows.

    References
    ----------
    Z. Zhao and H. Liu, "Semi-supervised Feature Selection via Spectral Analysis", Proceedings of
    the SIAM International Conference on Data Mining (SDM), 2007, pp. 641-646.

    X. He, D. Cai and P. Niyogi, "Laplacian Score for Feature Selection", Advances in Neural
    Information Processing Systems 18 (NIPS), 2005.

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.semi_supervised._sselect import SSelectSelector
    >>> rng = np.random.RandomState(0)
    >>> y = np.repeat([0, 1], 30); X = rng.randn(60, 4); X[:, 2] += 4 * y
    >>> y_semi = np.where(rng.rand(60) < 0.2, y, -1)
    >>> sel = SSelectSelector(n_features_to_select=1).fit(X, y_semi)
    >>> int(sel.ranking_[0]), sel.get_support().tolist()
    (2, [False, False, True, False])
    """

    _accepts_sparse = True

    _parameter_constraints: ClassVar[dict] = {
        "n_features_to_select": n_features_to_select_constraint(),
        "n_neighbors": [Interval(numbers.Integral, 1, None, closed="left")],
        "lam": [Interval(numbers.Real, 0, 1, closed="both")],
        "sigma": [None, Interval(numbers.Real, 0, None, closed="neither")],
        "average_method": [StrOptions(set(_AVERAGE_METHODS))],
        "allow_fully_labeled": ["boolean"],
        "allow_single_class": ["boolean"],
    }

    def __init__(
        self,
        n_features_to_select=None,
        *,
        n_neighbors: int = 5,
        lam: float = 0.1,
        sigma: float | None = None,
        average_method: str = "arithmetic",
        allow_fully_labeled: bool = False,
        allow_single_class: bool = False,
    ):
        self.n_features_to_select = n_features_to_select
        self.n_neighbors = n_neighbors
        self.lam = lam
        self.sigma = sigma
        self.average_method = average_method
        self.allow_fully_labeled = allow_fully_labeled
        self.allow_single_class = allow_single_class

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Score every feature from the graph of all rows and the labeled (not ``-1``) rows.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels, ``-1`` for unlabeled rows (one labeled class with
            ``allow_single_class=True``).

        Returns
        -------
        self : SSelectSelector
        """
        # a k-NN graph needs two rows at least
        X, y = validate_X_y(self, X, y, accept_sparse=["csr", "csc"], ensure_min_samples=2)
        labels = check_semi_supervised_labels(
            y,
            require_unlabeled=not self.allow_fully_labeled,
            min_classes=1 if self.allow_single_class else 2,
        )
        d = X.shape[1]
        k = check_n_features_to_select(self.n_features_to_select, d)
        out = sselect_scores(
            X,
            labels.y_encoded,
            n_neighbors=self.n_neighbors,
            lam=self.lam,
            sigma=self.sigma,
            average_method=self.average_method,
        )
        self.laplacian_scores_ = out["laplacian"]
        self.label_consistency_ = out["nmi"]
        self.sigma_ = float(out["sigma"])
        order = np.argsort(out["scores"], kind="stable")
        return self._keep_first(order, k, d, out["scores"], labels.classes)
