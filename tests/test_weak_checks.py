"""The weak-label checks pass a correct estimator and catch broken ones; the label adapters."""

import itertools

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from weakfs._labels import check_pu_labels
from weakfs.utils import _testing
from weakfs.utils._estimator_checks import (
    check_weak_classifier_classes,
    check_weak_fit_idempotent,
    check_weak_inputs_unchanged,
    check_weak_invalid_labels,
    check_weak_n_jobs_invariance,
    check_weak_pickle,
    check_weak_random_state,
    make_weak_data,
    yield_weak_checks,
)
from weakfs.utils._testing import as_pu_labels, as_semi_supervised_labels


class MeanGapSelector(SelectorMixin, BaseEstimator):
    """Keeps the ``k`` features whose labeled and unlabeled means differ most (a correct PU
    selector for these tests)."""

    def __init__(self, k=2, n_jobs=None, random_state=None):
        self.k = k
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64)
        s = self._labels(y)
        gap = np.abs(X[s == 1].mean(axis=0) - X[s == 0].mean(axis=0))
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.support_[np.argsort(-gap, kind="stable")[: self.k]] = True
        return self

    def _labels(self, y):
        return check_pu_labels(y)

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_


class WritesX(MeanGapSelector):
    def fit(self, X, y):
        if isinstance(X, np.ndarray) and X.flags.writeable:
            X -= 0.0 * X + 1e-3  # centres in place
        return super().fit(X, y)


class Unseeded(MeanGapSelector):
    """Each fit draws from a stream it does not reseed (here: rolls by one more each time)."""

    _draws = itertools.count(1)

    def fit(self, X, y):
        super().fit(X, y)
        self.support_ = np.roll(self.support_, next(self._draws))
        return self


class DependsOnNJobs(MeanGapSelector):
    def fit(self, X, y):
        super().fit(X, y)
        if self.n_jobs == 2:
            self.support_ = self.support_[::-1].copy()
        return self


class RawLabels(MeanGapSelector):
    """Reads any two values as labels (the larger one labeled): no PU check."""

    def _labels(self, y):
        y = np.asarray(y).ravel()
        return (y == y.max()).astype(int)


class DropsState(MeanGapSelector):
    def __getstate__(self):
        state = super().__getstate__()
        state.pop("support_", None)
        state["support_"] = np.ones(self.n_features_in_, dtype=bool)
        return state


class PUClassifierRawClasses(ClassifierMixin, BaseEstimator):
    """Keeps the labels' own values as classes (wrong for PU labels coded with -1)."""

    def fit(self, X, y):
        X, y = validate_data(self, X, y)
        check_pu_labels(y)
        self.classes_ = np.unique(y)
        self.mean_ = X[np.asarray(y) == 1].mean(axis=0)
        return self

    def decision_function(self, X):
        X = validate_data(self, X, reset=False)
        return X @ self.mean_

    def predict(self, X):
        return self.classes_[(self.decision_function(X) > 0).astype(int)]


@pytest.fixture
def as_pu(monkeypatch):
    def register(cls):
        monkeypatch.setitem(_testing.TARGETS, cls, "pu")
        return cls

    return register


def test_a_correct_pu_selector_passes_every_weak_check(as_pu):
    est = as_pu(MeanGapSelector)()
    for check in yield_weak_checks(est):
        check(est)


@pytest.mark.parametrize(
    "cls, check",
    [
        (WritesX, check_weak_inputs_unchanged),
        (Unseeded, check_weak_fit_idempotent),
        (Unseeded, check_weak_random_state),
        (DependsOnNJobs, check_weak_n_jobs_invariance),
        (RawLabels, check_weak_invalid_labels),
        (DropsState, check_weak_pickle),
        (PUClassifierRawClasses, check_weak_classifier_classes),
    ],
    ids=lambda v: v.__name__,
)
def test_weak_checks_catch_broken_estimators(as_pu, cls, check):
    with pytest.raises(AssertionError):
        check(as_pu(cls)())


def test_pu_adapter_makes_valid_pu_labels():
    assert as_pu_labels(np.array([1, 2, 2, 1])).tolist() == [0, 1, 1, 0]
    assert as_pu_labels(np.arange(6) % 3).tolist() == [0, 0, 1, 0, 0, 1]
    assert as_pu_labels(np.array([-1, 1, 0])).tolist() == [0, 1, 0]
    assert as_pu_labels(np.array(["a", "b", "b"])).tolist() == [0, 1, 1]
    assert as_pu_labels(np.array([[1], [2]])).shape == (2, 1)
    y = np.array([0.1, np.nan, 0.3])
    assert as_pu_labels(y) is not None and np.isnan(as_pu_labels(y)[1])


def test_semi_adapter_hides_a_third_of_the_rows_and_keeps_two_labels_per_class():
    y = np.repeat([0, 1, 2], 4)
    out = as_semi_supervised_labels(y)
    assert (out == -1).sum() == 4
    for c in (0, 1, 2):
        assert (out == c).sum() >= 2
    assert as_semi_supervised_labels(np.array([0, 1, 1])).tolist() == [0, 1, 1]  # too small
    with_marker = np.array([-1, 0, 1, 0, 1, 0, 1])
    assert as_semi_supervised_labels(with_marker).tolist() == with_marker.tolist()


@pytest.mark.parametrize("kind", ["pu", "semi", "supervised", "none"])
def test_weak_data(kind):
    X, y = make_weak_data(kind)
    assert X.shape == (40, 4)
    if kind == "pu":
        assert set(np.unique(y)) == {0, 1} and y.sum() >= 4
    elif kind == "semi":
        assert set(np.unique(y)) == {-1, 0, 1}
        assert min((y == 0).sum(), (y == 1).sum()) >= 4
    elif kind == "none":
        assert y is None
