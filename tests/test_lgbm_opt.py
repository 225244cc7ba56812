"""LGBM-OPT: the compact GA on LightGBM's validation AUC over PU labels."""

import numpy as np
import pytest
from sklearn.model_selection import train_test_split

from weakfs.pu import LGBMOptSelector
from weakfs.pu._lgbm_opt import lightgbm_auc
from weakfs.search import CompactGA

pytest.importorskip("lightgbm")


def _pu_data(seed=0, n=400, d=6):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 1] + X[:, 4] > 1).astype(int)
    s = y * (rng.uniform(size=n) < 0.5)
    return X, s


def test_is_the_compact_ga_on_the_held_out_auc():
    X, s = _pu_data()
    sel = LGBMOptSelector(2, n_iter=30, random_state=3).fit(X, s)
    X_fit, X_val, s_fit, s_val = train_test_split(X, s, test_size=0.25, stratify=s, random_state=3)
    by_hand = CompactGA(30, budget=2).run(
        lambda m: lightgbm_auc(X_fit[:, m], s_fit, X_val[:, m], s_val, 3), 6, random_state=3
    )
    np.testing.assert_array_equal(sel.get_support(), by_hand.support)
    np.testing.assert_allclose(sel.theta_, by_hand.theta)


def test_finds_the_informative_columns():
    X, s = _pu_data(seed=1)
    support = LGBMOptSelector(2, n_iter=200, random_state=0).fit(X, s).get_support()
    assert np.flatnonzero(support).tolist() == [1, 4]


def test_needs_two_labeled_positives():
    X, s = _pu_data()
    s[:] = 0
    s[0] = 1
    with pytest.raises(ValueError, match="at least 2 labeled positives"):
        LGBMOptSelector(2, n_iter=5).fit(X, s)
