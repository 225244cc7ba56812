"""The model a PU board scores selections with: C chosen on the weak labels by an inner CV."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold
from sklearn.preprocessing import StandardScaler

from weakfs.compare import compare_selectors
from weakfs.compare._model import WEAK_LABEL_CS, WeakLabelLogisticRegression
from weakfs.feature_selection import default_model


def _wide_pu(seed=0, n=240, d=400):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, :5].sum(axis=1) > 0).astype(int)
    s = y * (rng.rand(n) < 0.3)
    return X, y, s


@pytest.mark.parametrize("d", [20, 150])  # Newton steps, L-BFGS
def test_c_is_the_inner_cv_argmax_of_cold_fits(d):
    """Brute force: scikit-learn's fits from scratch on the same shuffled folds give the same
    inner scores and C, and the refit is scikit-learn's at that C."""
    X, _, s = _wide_pu(d=d)
    model = WeakLabelLogisticRegression(stop_early=False).fit(X, s)
    Z = StandardScaler().fit_transform(X)
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    aucs = np.zeros(len(WEAK_LABEL_CS))
    for train, test in folds.split(Z, s):
        for j, C in enumerate(WEAK_LABEL_CS):
            lr = LogisticRegression(C=C, tol=1e-8, max_iter=10000).fit(Z[train], s[train])
            aucs[j] += roc_auc_score(s[test], lr.decision_function(Z[test])) / 3
    np.testing.assert_allclose(model.cv_scores_, aucs, atol=1e-3)
    assert model.C_ == WEAK_LABEL_CS[int(np.argmax(aucs))]
    refit = LogisticRegression(C=model.C_, max_iter=1000).fit(Z, s)
    np.testing.assert_allclose(model.decision_function(X), refit.decision_function(Z), atol=1e-4)
    # stopping early: the same scores up to the first C below a stronger one, none after
    early = WeakLabelLogisticRegression().fit(X, s).cv_scores_
    falls = next((j for j in range(1, aucs.size) if aucs[j] < aucs[:j].max()), aucs.size - 1)
    np.testing.assert_allclose(early[: falls + 1], aucs[: falls + 1], atol=1e-3)
    assert np.isnan(early[falls + 1 :]).all()


def test_too_few_rows_of_a_class_fit_at_the_largest_c():
    X, _, _ = _wide_pu(d=10)
    s = np.zeros(X.shape[0], dtype=int)
    s[:14] = 1  # fewer than 5 per inner test fold
    model = WeakLabelLogisticRegression().fit(X, s)
    assert model.C_ == max(WEAK_LABEL_CS) and model.cv_scores_ is None
    assert set(model.predict(X)) <= {0, 1}
    assert model.predict_proba(X).shape == (X.shape[0], 2)


@pytest.mark.parametrize("Cs", [(), (0.0, 1.0), (-1.0,)])
def test_cs_must_be_positive(Cs):
    X, _, s = _wide_pu(d=5)
    with pytest.raises(ValueError, match="Cs must be positive"):
        WeakLabelLogisticRegression(Cs=Cs).fit(X, s)


def test_one_class_is_an_error():
    X, _, _ = _wide_pu(d=5)
    with pytest.raises(ValueError, match="two classes"):
        WeakLabelLogisticRegression().fit(X, np.zeros(X.shape[0], dtype=int))


def test_the_input_is_not_modified():
    X, _, s = _wide_pu(d=8)
    before = X.copy()
    WeakLabelLogisticRegression().fit(X, s).decision_function(X)
    np.testing.assert_array_equal(X, before)


def _board(X, labels, model, method="semi_jmi"):
    return compare_selectors(
        X, labels, methods=[method], ks=[2, 6], model=model, prior=0.5, n_random=2, cv=3,
        budget=None,
    )  # fmt: skip


def test_a_pu_board_scores_with_the_weak_label_model_by_default():
    X, _, s = _wide_pu(d=12)
    by_default = _board(X, s, None)
    explicit = _board(X, s, WeakLabelLogisticRegression())
    plain = _board(X, s, default_model())
    np.testing.assert_allclose(by_default["score"], explicit["score"])
    assert not np.allclose(by_default["score"], plain["score"])


def test_a_semi_supervised_board_keeps_the_standard_model():
    X, y, _ = _wide_pu(d=12)
    rng = np.random.RandomState(1)
    labels = np.where(rng.rand(y.size) < 0.2, y, -1)
    np.testing.assert_allclose(
        _board(X, labels, None, "semi_fisher")["score"],
        _board(X, labels, default_model(), "semi_fisher")["score"],
    )


def test_with_chosen_c_refits_at_that_c_without_the_search():
    X, _, s = _wide_pu(d=20)
    model = WeakLabelLogisticRegression().fit(X, s)
    again = model.with_chosen_c().fit(X, s)
    assert again.C_ == model.C_ and again.cv_scores_ is None
    np.testing.assert_allclose(again.decision_function(X), model.decision_function(X))


def test_random_draws_of_one_size_share_the_first_draws_c(monkeypatch):
    """The random reference searches C once per size and fold (its draws are exchangeable)."""
    from weakfs.compare._folds import FoldTask, Scorer, reference_fold

    searches = []
    search = WeakLabelLogisticRegression._inner_scores

    def counted(self, *args):
        searches.append(1)
        return search(self, *args)

    monkeypatch.setattr(WeakLabelLogisticRegression, "_inner_scores", counted)
    X, _, s = _wide_pu(d=12)
    train, test = np.arange(180), np.arange(180, 240)
    scorer = Scorer("pu", WeakLabelLogisticRegression(), 0.5, None)
    rows = reference_fold(FoldTask(None, 0, {}, 0.5, 0, X, s, train, test, [2, 5], scorer, None), 4)
    assert [(r.method, r.k) for r in rows] == [("all features", 12), ("random", 2), ("random", 5)]
    assert len(searches) == 3  # all features, and one per size (not one per draw: 9)
