"""SelectPerColumn: k counts source columns, each scored from its one-hot features."""

import numpy as np
import pandas as pd
import pytest

from weakfs.feature_selection import SelectPerColumn, source_columns
from weakfs.pu import MRMRSelector, PUExtraTreesClassifier, SemiJMISelector


def _one_hot_table(seed=0, n=400):
    rng = np.random.RandomState(seed)
    sex = rng.choice(["f", "m"], n)
    colour = rng.choice(["red", "green", "blue"], n)
    age = rng.rand(n)
    signal = (sex == "m") & (colour != "blue")
    s = (signal & (rng.rand(n) < 0.5)).astype(int)
    X = pd.DataFrame({"age": age, "noise": rng.rand(n)})
    X = pd.concat(
        [
            X,
            pd.get_dummies(
                pd.DataFrame({"sex": sex, "colour": colour}), prefix_sep="=", dtype=float
            ),
        ],
        axis=1,
    )
    return X, s


@pytest.mark.parametrize("ranker", [SemiJMISelector, MRMRSelector])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_greedy_rankers_take_the_first_k_columns_of_their_full_ranking(ranker, k):
    X, s = _one_hot_table()
    groups = source_columns(X.columns)
    full = ranker(n_features_to_select=X.shape[1]).fit(X, s).ranking_
    expected = list(dict.fromkeys(groups[full]))[:k]
    sel = SelectPerColumn(ranker(), n_columns_to_select=k).fit(X, s)
    assert sel.columns_ == expected
    assert set(sel.get_feature_names_out()) == {c for c in X.columns if c.split("=")[0] in expected}


def test_a_one_hot_column_takes_one_slot_not_two():
    """The newcomer's case: Sex=male and Sex=female took two of five slots."""
    X, s = _one_hot_table()
    plain = SemiJMISelector(n_features_to_select=2).fit(X, s).get_feature_names_out()
    per_column = SelectPerColumn(SemiJMISelector(), n_columns_to_select=2).fit(X, s)
    assert len(set(source_columns(plain))) <= 2
    assert len(per_column.columns_) == 2 and set(per_column.columns_) == {"sex", "colour"}


@pytest.mark.parametrize("aggregate", ["max", "sum"])
def test_score_based_path_aggregates_feature_scores_per_column(aggregate):
    X, s = _one_hot_table(1)
    model = PUExtraTreesClassifier(n_estimators=20, prior=0.3, random_state=0)
    sel = SelectPerColumn(model, n_columns_to_select=2, aggregate=aggregate).fit(X, s)
    imp = pd.Series(sel.estimator_.feature_importances_, index=X.columns)
    by_column = imp.groupby(source_columns(X.columns), sort=False).agg(aggregate)
    np.testing.assert_allclose(sel.column_scores_[by_column.index], by_column)
    assert sel.columns_ == by_column.sort_values(ascending=False).index[:2].tolist()


def test_fraction_and_explicit_columns():
    X, s = _one_hot_table()
    sel = SelectPerColumn(SemiJMISelector(), n_columns_to_select=0.5).fit(X, s)
    assert len(sel.columns_) == 2  # half of 4 columns
    mapping = {c: ("all" if c != "noise" else "noise") for c in X.columns}
    sel = SelectPerColumn(SemiJMISelector(), n_columns_to_select=1, columns=mapping).fit(X, s)
    assert sel.columns_ == ["all"] and sel.support_.sum() == X.shape[1] - 1
    with pytest.raises(ValueError, match="one source column per feature"):
        SelectPerColumn(SemiJMISelector(), columns=["a", "b"]).fit(X, s)


def test_a_value_selector_has_no_per_column_scores():
    from weakfs.unsupervised import UFVSSelector

    X, _ = _one_hot_table()
    with pytest.raises((ValueError, TypeError)):
        SelectPerColumn(UFVSSelector(), n_columns_to_select=1).fit(X.to_numpy(), None)
