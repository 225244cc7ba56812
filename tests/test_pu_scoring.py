"""PU-aware model selection: prior-corrected metrics and scorers, and the PU splitter."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score
from sklearn.model_selection import cross_validate, train_test_split
from sklearn.pipeline import Pipeline

from weakfs.datasets import make_pu_labels
from weakfs.metrics import pu_accuracy_score, pu_f1_score, pu_roc_auc_score
from weakfs.model_selection import PUStratifiedKFold, make_pu_scorer
from weakfs.pu import PUExtraTreesClassifier, SemiJMISelector


def _population(n=40_000, prior=0.4, c=0.3, seed=0):
    """Scores of a large SCAR population with a known truth."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prior).astype(int)
    score = rng.normal(size=n) + 1.2 * y
    s = ((y == 1) & (rng.random(n) < c)).astype(int)
    return y, s, score


def test_corrected_auc_matches_true_auc_on_a_large_population():
    y, s, score = _population()
    true = roc_auc_score(y, score)
    assert abs(pu_roc_auc_score(s, score, prior=y.mean()) - true) < 0.01
    # the naive labeled-vs-unlabeled AUC is far off
    assert abs(roc_auc_score(s, score) - true) > 0.05


def test_corrected_accuracy_and_f1_match_truth_on_a_large_population():
    y, s, score = _population(seed=1)
    pred = (score > 0.6).astype(int)
    assert abs(pu_accuracy_score(s, pred, prior=y.mean()) - accuracy_score(y, pred)) < 0.01
    assert abs(pu_f1_score(s, pred, prior=y.mean()) - f1_score(y, pred)) < 0.015


def test_brute_force_tiny_auc():
    # 2 labeled positives, 4 unlabeled of which 1 positive: pi = 0.5, pi_u = 0.25
    s = np.array([1, 1, 0, 0, 0, 0])
    score = np.array([0.9, 0.8, 0.85, 0.7, 0.1, 0.2])
    pairs = [(a, b) for a in score[s == 1] for b in score[s == 0]]
    auc_pu = np.mean([a > b for a, b in pairs])
    assert pu_roc_auc_score(s, score, prior=0.5) == pytest.approx((auc_pu - 0.125) / 0.75)


@settings(max_examples=40, deadline=None)
@given(prior=st.floats(0.21, 0.8), seed=st.integers(0, 10_000))
def test_auc_invariants(prior, seed):
    rng = np.random.default_rng(seed)
    s = np.r_[np.ones(5, int), np.zeros(20, int)]
    score = rng.normal(size=25)
    auc = pu_roc_auc_score(s, score, prior=prior)
    # invariant under increasing transforms of the score
    assert pu_roc_auc_score(s, np.exp(score), prior=prior) == pytest.approx(auc)
    # reversing the ranking reflects the corrected AUC around 1/2 (no ties)
    assert auc + pu_roc_auc_score(s, -score, prior=prior) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "func, kwargs, match",
    [
        (pu_roc_auc_score, {"prior": 0.1}, "below the share of labeled"),
        (
            pu_roc_auc_score,
            {"prior": 1.0},
            r"'prior' parameter of pu_roc_auc_score .* \(0\.0, 1\.0\)",
        ),
        (pu_f1_score, {"prior": True}, r"'prior' parameter of pu_f1_score .* \(0\.0, 1\.0\)"),
        (
            pu_accuracy_score,
            {"prior": 0.0},
            r"'prior' .* pu_accuracy_score .* \(0\.0, 1\.0\)",
        ),
    ],
)
def test_bad_priors(func, kwargs, match):
    s = np.array([1, 1, 0, 0, 0, 0, 0, 0])
    with pytest.raises((ValueError, TypeError), match=match):
        func(s, np.arange(8.0), **kwargs)


def test_scorer_argument_errors():
    with pytest.raises(ValueError, match="needs the class prior"):
        make_pu_scorer("roc_auc")
    with pytest.raises(ValueError, match="'metric' parameter of make_pu_scorer must be a str"):
        make_pu_scorer("auc", prior=0.3)
    with pytest.raises(TypeError, match="'prior' parameter of make_pu_scorer must be a float"):
        make_pu_scorer("f1", prior="0.3")
    assert "puf" in repr(make_pu_scorer("puf"))


def test_splitter_spreads_labeled_positives_evenly():
    s = np.r_[np.ones(7, int), -np.ones(43, int)]
    counts = [int((s[test] == 1).sum()) for _, test in PUStratifiedKFold(3).split(s, s)]
    assert sorted(counts) == [2, 2, 3]
    with pytest.raises(ValueError, match="at least 5 labeled"):
        list(PUStratifiedKFold(5).split(np.zeros(20), np.r_[np.ones(3), np.zeros(17)]))
    with pytest.raises(ValueError, match="PU labels"):
        list(PUStratifiedKFold(2).split(np.zeros(4), [0, 1, 2, 1]))


def test_corrected_cv_auc_of_a_pu_pipeline_matches_its_true_test_auc():
    X, y = make_classification(
        n_samples=3000, n_features=20, n_informative=5, flip_y=0.03, random_state=0
    )
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
    pu = make_pu_labels(y_train, labeled_fraction=0.4, random_state=0)
    pipe = Pipeline(
        [
            ("select", SemiJMISelector(n_features_to_select=8)),
            ("clf", PUExtraTreesClassifier(n_estimators=30, prior=pu.prior, random_state=0)),
        ]
    )
    scoring = {
        "auc": make_pu_scorer("roc_auc", prior=pu.prior),
        "acc": make_pu_scorer("accuracy", prior=pu.prior),
    }
    cv = cross_validate(
        pipe,
        X_train,
        pu.s,
        cv=PUStratifiedKFold(5, shuffle=True, random_state=0),
        scoring=scoring,
    )
    pipe.fit(X_train, pu.s)
    true_auc = roc_auc_score(y_test, pipe.predict_proba(X_test)[:, 1])
    true_acc = accuracy_score(y_test, pipe.predict(X_test))
    auc, acc = cv["test_auc"], cv["test_acc"]
    # within noise: two standard errors of the fold mean plus a small allowance for the
    # 4/5-size training sets
    assert abs(auc.mean() - true_auc) < 2 * auc.std(ddof=1) / np.sqrt(5) + 0.02
    assert abs(acc.mean() - true_acc) < 2 * acc.std(ddof=1) / np.sqrt(5) + 0.03
    # scikit-learn's own AUC against PU labels is biased low
    naive = cross_validate(pipe, X_train, pu.s, cv=PUStratifiedKFold(5), scoring="roc_auc")
    assert naive["test_score"].mean() < true_auc - 0.05


def test_scorer_works_in_grid_search_with_a_linear_model():
    from sklearn.model_selection import GridSearchCV

    X, y = make_classification(n_samples=600, random_state=1)
    s = make_pu_labels(y, labeled_fraction=0.5, random_state=1).s
    search = GridSearchCV(
        LogisticRegression(),
        {"C": [0.01, 1.0]},
        scoring=make_pu_scorer("roc_auc", prior=float(y.mean())),
        cv=PUStratifiedKFold(3),
    ).fit(X, s)
    assert 0.7 < search.best_score_ < 1.1
