"""Stability selection, automatic k, PU permutation importance and the stability index."""

import warnings
from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weakfs.feature_selection import PUPermutationSelector, SelectKByCV, StabilitySelection
from weakfs.feature_selection._stability import labeled_rows
from weakfs.metrics import selection_stability
from weakfs.pu import SemiJMISelector


def _pu(seed=0, n=400, d=8, relevant=(0, 1)):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, list(relevant)].sum(axis=1) > 0).astype(int)
    return X, y * (rng.rand(n) < 0.4), y


def _brute_force_stability(Z):
    """Definition 4 of Nogueira et al. written out feature by feature."""
    Z = np.asarray(Z, dtype=float)
    M, d = Z.shape
    kbar = Z.sum() / M
    variances = [M / (M - 1) * Z[:, f].mean() * (1 - Z[:, f].mean()) for f in range(d)]
    return 1 - (sum(variances) / d) / ((kbar / d) * (1 - kbar / d))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 8), st.integers(3, 12), st.integers(0, 10_000))
def test_stability_index_matches_its_definition_and_is_at_most_one(M, d, seed):
    rng = np.random.RandomState(seed)
    Z = rng.rand(M, d) < rng.uniform(0.1, 0.9)
    estimate = selection_stability(Z)
    if np.isnan(estimate.value):
        assert Z.all() or not Z.any()
        return
    assert estimate.value == pytest.approx(_brute_force_stability(Z))
    assert estimate.value <= 1 + 1e-12 and estimate.low <= estimate.value <= estimate.high


def test_stability_is_one_for_identical_sets_and_near_zero_for_random_ones():
    assert selection_stability([[1, 0, 1, 0]] * 6).value == 1.0
    rng = np.random.RandomState(0)
    random = [rng.permutation(50) < 10 for _ in range(300)]
    assert abs(selection_stability(random).value) < 0.03
    with pytest.raises(ValueError, match="at least 2 runs"):
        selection_stability([[1, 0]])


class _RecordingSelector(SemiJMISelector):
    rows_seen: ClassVar[list] = []

    def fit(self, X, y):
        type(self).rows_seen.append(np.asarray(y).copy())
        return super().fit(X, y)


def test_unlabeled_resampling_keeps_every_label():
    X, s, _ = _pu()
    _RecordingSelector.rows_seen = []
    StabilitySelection(_RecordingSelector(2), n_resamples=4, random_state=0).fit(X, s)
    for labels in _RecordingSelector.rows_seen[:4]:  # the resamples (the final refit is last)
        assert int(labels.sum()) == int(s.sum())
    assert labeled_rows(np.array([1, 0, -1, 2])).tolist() == [True, True, False, True]


def test_a_good_selector_is_stable_and_a_random_one_is_not():
    X, s, _ = _pu(d=20)

    class RandomSelector(SemiJMISelector):
        def fit(self, X, y):
            self.support_ = np.zeros(X.shape[1], dtype=bool)
            self.support_[np.random.default_rng().choice(X.shape[1], 2, replace=False)] = True
            self.n_features_in_ = X.shape[1]
            return self

    good = StabilitySelection(SemiJMISelector(2), n_resamples=20, random_state=0).fit(X, s)
    bad = StabilitySelection(RandomSelector(2), n_resamples=20, random_state=0).fit(X, s)
    assert good.stability_ > 0.8 and abs(bad.stability_) < 0.2
    assert good.get_support(indices=True).tolist() == [0, 1]


def test_stability_selection_is_the_same_for_any_n_jobs():
    X, s, _ = _pu()
    one = StabilitySelection(SemiJMISelector(2), n_resamples=6, random_state=3).fit(X, s)
    two = StabilitySelection(SemiJMISelector(2), n_resamples=6, random_state=3, n_jobs=2)
    np.testing.assert_array_equal(one.supports_, two.fit(X, s).supports_)


def test_automatic_k_takes_the_smallest_k_within_one_standard_error():
    X, s, _ = _pu(d=10, relevant=(0, 1, 2))
    sel = SelectKByCV(SemiJMISelector(), ks=[1, 2, 3, 5, 10], prior=0.5, random_state=0).fit(X, s)
    table = sel.cv_scores_.set_index("k")
    best = table["mean"].idxmax()
    within = table.index[table["mean"] >= table.loc[best, "mean"] - table.loc[best, "se"]]
    assert sel.k_ == within.min() and sel.get_support().sum() == sel.k_
    best_only = SelectKByCV(SemiJMISelector(), ks=[1, 2, 3, 5, 10], prior=0.5, rule="best")
    assert best_only.set_params(random_state=0).fit(X, s).k_ == best
    with pytest.raises(ValueError, match="n_features=10"):
        SelectKByCV(SemiJMISelector(), ks=[1, 11], prior=0.5).fit(X, s)


def test_permutation_selector_finds_the_feature_the_pu_classifier_uses():
    from sklearn.linear_model import LogisticRegression

    X, s, _ = _pu(relevant=(3,))
    sel = PUPermutationSelector(LogisticRegression(), 1, prior=0.5, random_state=0).fit(X, s)
    assert sel.get_support(indices=True).tolist() == [3]
    assert sel.scores_[3] > 0 and sel.scores_std_.shape == (8,)


def test_permutation_selector_says_when_shuffles_measure_nothing():
    # one column parts the labeled rows from the rest by a wide margin: shuffling any other
    # column moves no held-out labeled row past an unlabeled one, the drops are zero and the
    # stable sort would fill the rest of the selection in column order; the user is told so
    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 100))
    s = np.zeros(60, dtype=int)
    s[:12] = 1
    X[:, 5] += 8 * s
    with pytest.warns(UserWarning, match=r"only \d+ of 100 features lowered.*in column order"):
        sel = PUPermutationSelector(None, 20, prior=0.3, n_repeats=2, random_state=0).fit(X, s)
    assert np.count_nonzero(sel.scores_ > 0) < 20 and sel.get_support()[5]
    X, s, _ = _pu(relevant=(3,))  # an informative column and k = 1: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        PUPermutationSelector(None, 1, prior=0.5, random_state=0).fit(X, s)


def test_permutation_selector_names_too_few_labeled_positives():
    # one labeled row cannot be both fitted on and held out (scikit-learn's stratified split
    # raised about "the least populated classes" before)
    X, s, _ = _pu(relevant=(3,))
    one = np.zeros_like(s)
    one[np.flatnonzero(s)[0]] = 1
    with pytest.raises(ValueError, match=r"at least 2 labeled positives.*got 1"):
        PUPermutationSelector(None, 1, prior=0.5, random_state=0).fit(X, one)


@pytest.mark.parametrize(
    ("model", "metric", "n_jobs"),
    [
        ("scaled", "roc_auc", None),
        ("scaled", "roc_auc", 2),
        ("plain", "roc_auc", 2),
        ("scaled-3-steps", "roc_auc", 1),
        ("scaled", "f1", 2),
        ("scaled", "frame", 1),
    ],
)
def test_permutation_importances_are_scikit_learns_bit_for_bit(model, metric, n_jobs):
    # the fast loop (scaling once, shuffling in place, the labels checked once) must give the
    # numbers of scikit-learn's permutation_importance exactly: committed benchmark cells were
    # computed with the latter
    import pandas as pd
    from sklearn.feature_selection import VarianceThreshold
    from sklearn.inspection import permutation_importance
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from weakfs.feature_selection._common import pu_scorer
    from weakfs.feature_selection._permutation import permutation_importances

    rng = np.random.RandomState(3)
    Z = rng.normal(size=(120, 9))
    s = (Z[:, 0] - Z[:, 4] + rng.normal(size=120) > 0.5).astype(int)
    X = Z * rng.gamma(1.0, size=9) + rng.normal(size=9)  # columns of unequal scale and mean
    estimator = {
        "scaled": make_pipeline(StandardScaler(), LogisticRegression()),
        "scaled-3-steps": make_pipeline(
            StandardScaler(), VarianceThreshold(), LogisticRegression()
        ),
        "plain": LogisticRegression(),
    }[model if model != "frame" else "scaled"]
    estimator.fit(X[:60], s[:60])
    X_test, s_test = X[60:], s[60:]
    if metric == "frame":
        X_test, metric = pd.DataFrame(X_test), "roc_auc"
        estimator.fit(pd.DataFrame(X[:60]), s[:60])
    scorer = pu_scorer(metric, 0.6)
    expected = permutation_importance(
        estimator, X_test, s_test, scoring=scorer, n_repeats=4, n_jobs=n_jobs, random_state=5
    )
    mean, sd = permutation_importances(
        estimator, X_test, s_test, scorer, n_repeats=4, n_jobs=n_jobs, random_state=5
    )
    assert np.array_equal(mean, expected.importances_mean)
    assert np.array_equal(sd, expected.importances_std)
    assert np.abs(mean).max() > 0  # the shuffles change the score
