"""SelfLearningClassifier: threshold search, loop behaviour, bad input, peer comparison."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.semi_supervised import SelfTrainingClassifier

from weakfs.datasets import load
from weakfs.semi_supervised import SelfLearningClassifier
from weakfs.semi_supervised._self_learning import (
    early_stopped_argmin,
    optimal_thresholds,
    optimal_thresholds_reference,
)


@pytest.mark.parametrize("n_classes", [2, 3, 5])
@pytest.mark.parametrize("seed", [0, 1])
def test_vectorised_thresholds_match_plain_loops(n_classes, seed):
    rng = np.random.default_rng(seed)
    votes = rng.dirichlet(np.full(n_classes, 0.4), size=60)
    np.testing.assert_allclose(
        optimal_thresholds(votes), optimal_thresholds_reference(votes), atol=1e-12
    )


def test_threshold_of_class_without_votes_is_one():
    votes = np.array([[0.8, 0.2, 0.0], [0.3, 0.7, 0.0], [0.6, 0.4, 0.0]])
    assert optimal_thresholds(votes)[2] == 1.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 10, allow_nan=False), min_size=1, max_size=30))
def test_early_stopped_argmin_matches_loop(values):
    seen, best = [], None
    for n, v in enumerate(values):
        seen.append(v)
        if best is None or v < seen[best]:
            best = n
        if n >= 4 and seen[-1] > seen[-2] and seen[-2] >= seen[-3]:
            break
    assert early_stopped_argmin(np.array(values)) == best


def _semi(n=240, d=8, n_lab=30, seed=0):
    X, y = make_classification(
        n,
        d,
        n_informative=4,
        n_redundant=0,
        n_classes=3,
        n_clusters_per_class=1,
        random_state=seed,
    )
    y_semi = y.copy()
    y_semi[n_lab:] = -1
    return X, y, y_semi


def test_self_learning_pseudo_labels_and_weights():
    X, y, y_semi = _semi()
    clf = SelfLearningClassifier(n_estimators=30, random_state=0).fit(X, y_semi)
    assert set(clf.classes_) == {0, 1, 2}
    lab = y_semi != -1
    np.testing.assert_array_equal(clf.transduction_[lab], y[lab])
    assert (clf.labeled_iter_[lab] == 0).all()
    pseudo = clf.labeled_iter_ > 0
    assert pseudo.any()
    # pseudo-labels are much better than chance on this easy problem
    assert np.mean(clf.transduction_[pseudo] == y[pseudo]) > 0.6
    w = clf.sample_weight_
    np.testing.assert_allclose(w[lab], 1 / lab.sum())
    np.testing.assert_allclose(w[pseudo], 1 / pseudo.sum())
    assert clf.termination_condition_ in {"no_change", "all_labeled"}
    assert len(clf.thresholds_) >= clf.n_iter_ - 1
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1)


def test_reproducible_with_n_jobs():
    X, _, y_semi = _semi()
    a = SelfLearningClassifier(n_estimators=20, random_state=3, n_jobs=1).fit(X, y_semi)
    b = SelfLearningClassifier(n_estimators=20, random_state=3, n_jobs=2).fit(X, y_semi)
    np.testing.assert_array_equal(a.transduction_, b.transduction_)


def test_fixed_threshold_and_max_iter():
    X, _, y_semi = _semi()
    clf = SelfLearningClassifier(n_estimators=20, threshold=0.99, max_iter=1, random_state=0)
    clf.fit(X, y_semi)
    assert clf.n_iter_ <= 2
    assert all((t == 0.99).all() for t in clf.thresholds_)


def test_many_classes_with_few_labels_each_warn_nothing():
    # 26 classes (Isolet's letters), 3 labeled rows each: the distinct classes are no sign of a
    # regression target
    rng = np.random.RandomState(0)
    y = np.repeat(np.arange(26), 6)
    X = rng.normal(size=(y.size, 4)) + y[:, None] * 0.5
    y_semi = y.copy()
    y_semi[np.tile([False, False, False, True, True, True], 26)] = -1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SelfLearningClassifier(n_estimators=5, max_iter=1, random_state=0).fit(X, y_semi)


def test_string_classes():
    X, y, y_semi = _semi()
    names = np.array(["a", "b", "c"], dtype=object)
    ys = names[y].astype(object)
    ys[y_semi == -1] = -1
    clf = SelfLearningClassifier(n_estimators=10, random_state=0).fit(X, ys)
    assert set(clf.predict(X[:20])) <= {"a", "b", "c"}


@pytest.mark.parametrize(
    "y_bad, match",
    [
        (np.full(50, -1), "no labeled row"),
        (np.r_[np.zeros(10, int), np.full(40, -1)], "1 class"),
        (np.r_[np.zeros(25, int), np.ones(25, int)], "no unlabeled row"),
        (np.r_[np.zeros(10), np.ones(10), np.full(29, -1.0), np.nan], "NaN"),
    ],
)
def test_bad_labels(y_bad, match):
    X = np.random.RandomState(0).randn(50, 3)
    with pytest.raises(ValueError, match=match):
        SelfLearningClassifier(n_estimators=5).fit(X, y_bad)


def test_nan_in_X():
    X = np.random.RandomState(0).randn(30, 3)
    X[0, 0] = np.nan
    y = np.r_[np.zeros(5, int), np.ones(5, int), np.full(20, -1)]
    with pytest.raises(ValueError, match="NaN"):
        SelfLearningClassifier(n_estimators=5).fit(X, y)


def test_compare_with_sklearn_self_training_on_bundled_data():
    """Both run on the bundled ionosphere data; accuracy of their pseudo-labels is compared.

    The numbers are written to docs/sewil.md (``pytest -s`` prints them).
    """
    X, y = load("ionosphere")
    X = X.to_numpy(float)
    y = (y.to_numpy() == "g").astype(int)
    rng = np.random.RandomState(0)
    y_semi = np.full(y.shape[0], -1)
    lab = rng.choice(y.shape[0], 35, replace=False)
    y_semi[lab] = y[lab]
    ours = SelfLearningClassifier(n_estimators=50, random_state=0).fit(X, y_semi)
    peer = SelfTrainingClassifier(RandomForestClassifier(n_estimators=50, random_state=0)).fit(
        X, y_semi
    )
    unl = y_semi == -1
    ours_pl = unl & (ours.labeled_iter_ > 0)
    peer_pl = unl & (peer.labeled_iter_ > 0)
    acc_ours = np.mean(ours.transduction_[ours_pl] == y[ours_pl])
    acc_peer = np.mean(peer.transduction_[peer_pl] == y[peer_pl])
    print(
        f"\nSLA: {ours_pl.sum()} pseudo-labels, {acc_ours:.3f} correct; "
        f"SelfTrainingClassifier(threshold=0.75): {peer_pl.sum()} pseudo-labels, "
        f"{acc_peer:.3f} correct; ACC-U ours {np.mean(ours.predict(X[unl]) == y[unl]):.3f} "
        f"peer {np.mean(peer.predict(X[unl]) == y[unl]):.3f}"
    )
    assert ours_pl.sum() > 0 and peer_pl.sum() > 0
    assert acc_ours > 0.7 and acc_peer > 0.7


def test_self_learning_refits_without_the_forests_input_checks(monkeypatch):
    """weakfs's forest is checked once: every round's refit and prediction skip the checks
    (``check_input=False``) and give the same labels and forests as the checked path."""
    from weakfs._tree import RandomForest
    from weakfs.semi_supervised import make_forest, self_learn

    rng = np.random.RandomState(0)
    X = np.r_[rng.normal(0, 1, (60, 3)), rng.normal(3, 1, (60, 3))]
    y = np.full(120, -1)
    y[[0, 1, 2, 60, 61, 62]] = [0, 0, 0, 1, 1, 1]
    calls = []
    fit, proba = RandomForest.fit, RandomForest.predict_proba

    def recorded_fit(self, X, y, sample_weight=None, check_input=True):
        calls.append(("fit", check_input))
        return fit(self, X, y, sample_weight, check_input=check_input)

    def recorded_proba(self, X, check_input=True):
        calls.append(("predict_proba", check_input))
        return proba(self, X, check_input=check_input)

    monkeypatch.setattr(RandomForest, "fit", recorded_fit)
    monkeypatch.setattr(RandomForest, "predict_proba", recorded_proba)
    fast = self_learn(X, y, make_estimator=lambda: make_forest("weakfs", 10, 0, 1))
    assert calls and all(check is False for _, check in calls)
    monkeypatch.setattr(RandomForest, "fit", fit)
    monkeypatch.setattr(RandomForest, "predict_proba", proba)

    class Checked:  # the public, checked path
        def __init__(self):
            self.forest = make_forest("weakfs", 10, 0, 1)

        def fit(self, X, y, sample_weight=None):
            self.forest.fit(X, y, sample_weight=sample_weight)
            self.classes_ = self.forest.classes_
            return self

        def predict_proba(self, X):
            return self.forest.predict_proba(X)

    slow = self_learn(X, y, make_estimator=Checked)
    assert np.array_equal(fast["y_codes"], slow["y_codes"]) and fast["n_iter"] == slow["n_iter"]
    np.testing.assert_array_equal(
        fast["estimator"].feature_importances_, slow["estimator"].forest.feature_importances_
    )
