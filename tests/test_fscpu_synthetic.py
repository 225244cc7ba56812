"""The FSCPU Table-1 generator: shapes, relevant columns, label rates, the 10 conditions."""

import numpy as np
import pandas as pd
import pytest

from weakfs.datasets import (
    FSCPU_CONDITIONS,
    list_fscpu_conditions,
    make_fscpu_synthetic,
)


def test_ten_conditions_in_table_order():
    table = list_fscpu_conditions()
    assert len(table) == 10 == len(FSCPU_CONDITIONS)
    assert table["labeled_rate"].tolist() == [0.4] * 4 + [0.1] * 4 + [0.4, 0.1]
    assert table["cluster_assumption"].tolist() == [True] * 8 + [False] * 2
    assert table["n_negative_clusters"].tolist()[:8] == [8, 8, 1, 1] * 2
    assert table["n_positive_clusters"].tolist()[:8] == [1, 2, 1, 2] * 2


@pytest.mark.parametrize("condition", range(10))
def test_shapes_and_label_rates(condition):
    data = make_fscpu_synthetic(condition, random_state=condition)
    X, s, y, relevant = data
    cond = data.condition
    assert X.shape == (4500, 50)
    assert s.shape == y.shape == (4500,)
    assert int(y.sum()) == 500
    assert int(s.sum()) == round(cond.labeled_rate * 500)
    assert np.all(y[s == 1] == 1)  # only positives are labeled
    assert relevant.shape == (25,) and np.all(np.diff(relevant) > 0)
    assert np.isfinite(X).all()


def test_irrelevant_columns_are_uniform_and_copies():
    X, _, y, relevant = make_fscpu_synthetic(0, shuffle=False, random_state=1)
    assert np.array_equal(relevant, np.arange(25))
    uniform = X[:, 25:45]
    assert uniform.min() >= -10 and uniform.max() <= 10
    # each copy column is one uniform column plus N(0, 1) noise
    for j in range(45, 50):
        resid = X[:, j : j + 1] - uniform
        best = np.argmin(resid.std(axis=0))
        assert 0.9 < resid[:, best].std() < 1.1
    # irrelevant columns carry no class signal; relevant ones do
    gap = np.abs(X[y == 1].mean(0) - X[y == 0].mean(0))
    assert gap[25:].max() < 1.0 < gap[:25].max()


def test_cluster_means_and_variance():
    # one negative and one positive component: within-class variance is 10 per coordinate
    X, _, y, _ = make_fscpu_synthetic("ca-40-1-1", shuffle=False, random_state=2)
    var = np.concatenate([X[y == 0, :25].var(0), X[y == 1, :25].var(0)])
    assert np.allclose(var, 10.0, rtol=0.2)
    assert np.all(np.abs(X[:, :25].mean(0)) <= 5.0 + 0.5)


def test_no_cluster_assumption_positives_are_the_outliers():
    X, _, y, relevant = make_fscpu_synthetic("noca-10", random_state=3)
    norms = np.linalg.norm(X[:, relevant], axis=1)
    assert norms[y == 1].min() >= norms[y == 0].max()
    assert np.allclose(X[:, relevant].std(), 5.0, rtol=0.05)


def test_reproducible_and_overrides():
    a = make_fscpu_synthetic(5, random_state=7)
    b = make_fscpu_synthetic(5, random_state=7)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.s, b.s)
    c = make_fscpu_synthetic(5, labeled_rate=0.2, random_state=7)
    assert int(c.s.sum()) == 100
    f = make_fscpu_synthetic("noca-40", as_frame=True, random_state=0)
    assert isinstance(f.X, pd.DataFrame)
    assert all(f.X.columns[f.relevant].str.startswith("rel"))


def test_bad_input():
    with pytest.raises(ValueError, match="condition index"):
        make_fscpu_synthetic(10)
    with pytest.raises(ValueError, match="unknown condition"):
        make_fscpu_synthetic("ca-50-8-1")
    with pytest.raises(ValueError, match="labeled_rate"):
        make_fscpu_synthetic(0, labeled_rate=0.0)
    with pytest.raises(TypeError, match="condition must be"):
        make_fscpu_synthetic(1.5)
