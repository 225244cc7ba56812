"""Impossible settings are errors that name the problem, not silent results."""

import numpy as np
import pytest

from weakfs.datasets import make_pu_labels
from weakfs.pu import (
    GKFPUALClassifier,
    NNPUClassifier,
    PUALClassifier,
    PUExtraTreesClassifier,
    UPUClassifier,
    estimate_class_prior,
)
from weakfs.semi_supervised import SemiFisherSelector, SSLSSelector


def _pu(n=100, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, 3))
    s = ((X[:, 0] > 0) & (rng.uniform(size=n) < 0.5)).astype(int)
    return X, s


def test_prior_below_the_labeled_share_is_an_error():
    X, s = _pu()
    share = s.mean()
    with pytest.raises(ValueError, match="below the share of labeled positives"):
        PUExtraTreesClassifier(5, prior=share / 2).fit(X, s)
    # in case-control mode (U = unlabeled rows only) the prior is about U: allowed
    PUExtraTreesClassifier(5, prior=share / 2, unlabeled="unlabeled").fit(X, s)


@pytest.mark.parametrize("positive", [1.5, "yes"])
def test_make_pu_labels_positive_must_match_integer_labels(positive):
    with pytest.raises(ValueError, match="is not an integer, but y holds integer labels"):
        make_pu_labels([0, 1, 1, 0], positive=positive, n_labeled=1)


def test_make_pu_labels_rejects_missing_classes():
    with pytest.raises(ValueError, match="missing \\(NaN\\) labels"):
        make_pu_labels([0.0, 1.0, np.nan, 1.0], positive=1, n_labeled=1)


@pytest.mark.parametrize("min_prior", [0.0, 0.5, 0.7, -1])
def test_estimate_class_prior_bounds(min_prior):
    X, s = _pu()
    with pytest.raises(ValueError, match="'min_prior' parameter of estimate_class_prior"):
        estimate_class_prior(X, s, min_prior=min_prior)


@pytest.mark.parametrize(
    "estimator",
    [
        GKFPUALClassifier(n_neighbors=10, max_iter=20),
        PUALClassifier(n_neighbors=10),
    ],
    ids=["GKF-PUAL", "PUAL"],
)
def test_more_neighbours_than_rows_is_an_error(estimator):
    X, s = _pu(n=10)
    s[:2] = 1
    with pytest.raises(ValueError, match="n_neighbors=10 needs more than 10 rows"):
        estimator.fit(X, s)


@pytest.mark.parametrize("selector", [SemiFisherSelector, SSLSSelector])
def test_semi_supervised_graphs_need_more_rows_than_neighbours(selector):
    rng = np.random.RandomState(0)
    X = rng.normal(size=(12, 3))
    y = np.array([0, 1] * 3 + [-1] * 6)
    with pytest.raises(ValueError, match="n_neighbors=20 needs more than 20 rows"):
        selector(n_features_to_select=1).fit(X, y)


@pytest.mark.parametrize("sizes", [(0,), (-3,), (10, 0)])
@pytest.mark.parametrize("network", [NNPUClassifier, UPUClassifier])
def test_hidden_layers_need_positive_sizes(network, sizes):
    X, s = _pu()
    with pytest.raises(ValueError, match="hidden_layer_sizes must hold positive ints"):
        network(prior=0.4, hidden_layer_sizes=sizes, max_epochs=1).fit(X, s)


def test_cotfss_start_comes_from_the_data_and_never_exceeds_k():
    from weakfs.semi_supervised import CoTFSSSelector

    rng = np.random.RandomState(0)
    X = rng.randn(120, 12)
    y = (X[:, 3] + X[:, 7] > 0).astype(int)
    y[40:] = -1
    sel = CoTFSSSelector(n_features_to_select=2, random_state=0).fit(X, y)
    assert sorted(sel.ranking_.tolist()) == [3, 7]  # not 2 of 5 random start features
    for k in (1, 3):
        sel = CoTFSSSelector(n_features_to_select=k, n_start=5, random_state=1).fit(X, y)
        assert sel.ranking_.size == k and sel.get_support().sum() == k
    reference = CoTFSSSelector(n_features_to_select=3, start="random", random_state=1).fit(X, y)
    assert reference.ranking_.size == 3  # the authors' random start, capped at k


def test_admm_that_stops_unconverged_says_so():
    from sklearn.exceptions import ConvergenceWarning

    X, s = _pu()
    with pytest.warns(ConvergenceWarning, match="did not converge in 3 iterations"):
        GKFPUALClassifier(max_iter=3).fit(X, s)


def test_self_learning_that_labels_nothing_says_so():
    from sklearn.dummy import DummyClassifier

    from weakfs.semi_supervised import SelfLearningClassifier

    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    y[20:] = -1
    clf = SelfLearningClassifier(DummyClassifier(strategy="prior"), threshold=0.99)
    with pytest.warns(UserWarning, match="pseudo-labeled none of the 40 unlabeled rows"):
        clf.fit(X, y)


def test_em_names_overflowing_data_and_singular_covariances():
    from weakfs.pu import FSCPUSelector
    from weakfs.pu._fscpu._gmm import fit_gaussian_mixture

    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    with pytest.raises(ValueError, match=r"overflow float64.*standardise X"):
        fit_gaussian_mixture(X * 1e160, 3, random_state=0)
    with pytest.raises(ValueError, match="overflow"):
        FSCPUSelector(1, n_iter=3, n_clusters=2, random_state=0).fit(
            X * 1e160, np.r_[np.ones(30, int), np.zeros(90, int)]
        )
    X[:, 1] = 0.0  # a constant column: every covariance is singular without regularisation
    with pytest.raises(np.linalg.LinAlgError, match="singular covariance; increase reg_covar"):
        fit_gaussian_mixture(X, 3, reg_covar=0.0, random_state=0)


def test_em_with_a_non_finite_likelihood_says_so(monkeypatch):
    from weakfs.pu._fscpu import _gmm

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    real_run = _gmm._DenseEM.run

    def broken(self, resp, tol, max_iter):
        out = list(real_run(self, resp, tol, max_iter))
        out[1] = float("nan")  # the log-likelihood
        return tuple(out)

    monkeypatch.setattr(_gmm._DenseEM, "run", broken)
    with pytest.raises(FloatingPointError, match="log-likelihood is not finite"):
        _gmm.fit_gaussian_mixture(X, 2, random_state=0, algorithm="dense")
