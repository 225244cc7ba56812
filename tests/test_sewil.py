"""SEWILSelector end to end on small data: attributes, variants, reproducibility, bad input."""

import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.datasets import make_classification

from weakfs.semi_supervised import SEWILSelector
from weakfs.semi_supervised._criteria import CRITERIA

FAST = dict(n_estimators=15, n_generations=3, population_size=10, n_parents=4)


def _data(seed=0, n=160, d=16):
    X, y = make_classification(
        n,
        d,
        n_informative=3,
        n_redundant=0,
        n_classes=3,
        n_clusters_per_class=1,
        shuffle=False,
        random_state=seed,
    )
    y_semi = y.copy()
    y_semi[np.random.RandomState(seed).rand(n) > 0.25] = -1
    return X, y, y_semi


def test_fit_attributes():
    X, y, y_semi = _data()
    sel = SEWILSelector(random_state=0, **FAST).fit(X, y_semi)
    assert sel.support_.dtype == bool and sel.support_.any()
    assert list(sel.history_.columns[:3]) == ["generation", "best_fitness", "mean_fitness"]
    assert len(sel.history_) == FAST["n_generations"] + 1
    assert sel.mislabeling_matrix_.shape == (3, 3)
    np.testing.assert_allclose(sel.mislabeling_matrix_.sum(axis=0), 1)
    lab = y_semi != -1
    np.testing.assert_array_equal(sel.pseudo_labels_[lab], y[lab])
    assert ((sel.pseudo_labels_ == -1) | np.isin(sel.pseudo_labels_, [0, 1, 2])).all()
    assert 0 <= sel.criterion_value_ <= 1
    assert sel.n_evaluations_ > 0
    assert sel.transform(X).shape == (X.shape[0], sel.support_.sum())


def test_same_result_for_any_n_jobs():
    X, _, y_semi = _data(1)
    a = SEWILSelector(random_state=3, n_jobs=1, **FAST).fit(X, y_semi)
    b = SEWILSelector(random_state=3, n_jobs=2, **FAST).fit(X, y_semi)
    np.testing.assert_array_equal(a.support_, b.support_)
    pd.testing.assert_frame_equal(a.history_, b.history_)


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_every_criterion_runs(criterion):
    X, _, y_semi = _data(2)
    sel = SEWILSelector(criterion=criterion, random_state=0, **FAST).fit(X, y_semi)
    assert sel.support_.any()


@pytest.mark.parametrize("search", ["cga", "fss"])
def test_other_searches(search):
    X, _, y_semi = _data(3)
    sel = SEWILSelector(search=search, n_features_to_select=4, random_state=0, **FAST)
    sel.fit(X, y_semi)
    if search == "fss":
        assert sel.support_.sum() == 4
        assert sel.ranking_ is not None
    else:
        assert sel.support_.any()


def test_dataframe_and_sparse_input():
    X, _, y_semi = _data(4)
    df = pd.DataFrame(X, columns=[f"c{i}" for i in range(X.shape[1])])
    sel = SEWILSelector(random_state=0, **FAST).set_output(transform="pandas").fit(df, y_semi)
    out = sel.transform(df)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == list(df.columns[sel.support_])
    sp = SEWILSelector(random_state=0, **FAST).fit(sparse.csr_matrix(X), y_semi)
    np.testing.assert_array_equal(sp.support_, sel.support_)


@pytest.mark.parametrize("criterion", ["cb", "oob"])
def test_finds_informative_features(criterion):
    # features 0..2 informative (shuffle=False), the rest noise.  CBIL is left out on purpose:
    # with Theorem 2.4's gamma (= K for a perfect mislabeling matrix) it penalises subsets whose
    # out-of-bag predictions on the labeled rows are accurate -- see docs/sewil.md.
    X, _, y_semi = _data(5, n=300, d=12)
    sel = SEWILSelector(
        criterion=criterion,
        n_estimators=20,
        n_generations=4,
        population_size=12,
        n_parents=4,
        final="best",
        random_state=0,
    ).fit(X, y_semi)
    assert sel.support_[:3].sum() >= 2


@pytest.mark.parametrize(
    "y_bad, match",
    [
        (np.full(60, -1), "no labeled row"),
        (np.r_[np.zeros(10, int), np.full(50, -1)], "1 class"),
        (np.r_[np.zeros(30, int), np.ones(30, int)], "no unlabeled row"),
        (np.r_[np.full(30, "a", dtype=object), np.full(30, "b", dtype=object)], "no unlabeled"),
    ],
)
def test_bad_labels(y_bad, match):
    X = np.random.RandomState(0).randn(60, 4)
    with pytest.raises(ValueError, match=match):
        SEWILSelector(**FAST).fit(X, y_bad)


def test_bad_X_and_parameters():
    X, _, y_semi = _data()
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SEWILSelector(**FAST).fit(Xn, y_semi)
    with pytest.raises(ValueError, match="n_parents"):
        SEWILSelector(n_parents=12, population_size=10).fit(X, y_semi)
    with pytest.raises(ValueError, match="larger than the number of features"):
        SEWILSelector(search="fss", n_features_to_select=99, **FAST).fit(X, y_semi)
    with pytest.raises(ValueError, match="criterion"):
        SEWILSelector(criterion="nope").fit(X, y_semi)


def test_input_not_modified():
    X, _, y_semi = _data()
    X0, y0 = X.copy(), y_semi.copy()
    SEWILSelector(random_state=0, **FAST).fit(X, y_semi)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y_semi, y0)


def test_bounded_length_mutation_option():
    X, _, y_semi = _data(4)
    sel = SEWILSelector(length_mutation=True, max_length_change=1, random_state=0, **FAST).fit(
        X, y_semi
    )
    n0 = int(np.floor(np.sqrt(X.shape[1])))
    assert sel.support_.sum() >= n0 - 1
    with pytest.raises(ValueError, match="max_length_change"):
        SEWILSelector(max_length_change=0, **FAST).fit(X, y_semi)


@pytest.mark.parametrize("forest", ["sklearn", "weakfs"])
def test_oob_fitness_is_the_out_of_bag_accuracy(forest):
    # the fsga-oob arm's fitness (minus the OOB error) is the out-of-bag accuracy on labeled +
    # pseudo-labeled rows up to the constant 1, which no search step depends on; with
    # scikit-learn's forest it is exactly the oob_score_ the authors' TSLA-FSGA maximises
    from sklearn.ensemble import RandomForestClassifier

    from weakfs.semi_supervised import ForestSubsetObjective, make_forest

    X, y, y_semi = _data(5, n=90, d=8)
    mask = np.zeros(8, dtype=bool)
    mask[[0, 1, 5]] = True
    obj = ForestSubsetObjective(
        X, y, y_semi != -1, "oob", n_estimators=40, seed=3, n_jobs=1, forest=forest
    )
    cols = np.flatnonzero(mask)
    Xc = X[:, cols].astype(np.float32)
    if forest == "sklearn":
        rf = RandomForestClassifier(40, random_state=3, oob_score=True).fit(Xc, y)
        expected = rf.oob_score_
    else:
        rf = make_forest("weakfs", 40, 3, 1).fit(Xc, y)
        expected = np.mean(rf.oob_decision_function_.argmax(axis=1) == y)
    assert 1 + obj(mask) == pytest.approx(expected)
