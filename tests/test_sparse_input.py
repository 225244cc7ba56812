"""Sparse input: the estimators that take it give the dense answer; the others say what to use."""

import numpy as np
import pytest
from scipy import sparse

from weakfs._information import discretize
from weakfs.pu import (
    FSCPUSelector,
    GKFPUALClassifier,
    GKFPUALSelector,
    MRMRSelector,
    NNPUClassifier,
    PUALClassifier,
    PUExtraTreesClassifier,
    SemiJMISelector,
    UPUClassifier,
)


@pytest.fixture(scope="module")
def sparse_pu():
    X = sparse.random(240, 30, density=0.15, format="csr", random_state=3)
    s = (np.asarray(X[:, 4].todense()).ravel() > 0).astype(int)
    s[::7] = 0
    return X, s


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("params", [{}, {"splitter": "best"}, {"bootstrap": True}, {"risk": "uPU"}])
def test_pu_extra_trees_sparse_equals_dense(sparse_pu, fmt, params):
    X, s = sparse_pu
    Xs = X.asformat(fmt)
    a = PUExtraTreesClassifier(n_estimators=8, prior=0.5, random_state=0, **params).fit(Xs, s)
    b = PUExtraTreesClassifier(n_estimators=8, prior=0.5, random_state=0, **params)
    b.fit(X.toarray(), s)
    np.testing.assert_array_equal(a.feature_importances_, b.feature_importances_)
    np.testing.assert_array_equal(a.predict_proba(Xs), b.predict_proba(X.toarray()))
    np.testing.assert_array_equal(a.apply(Xs), b.apply(X.toarray()))
    assert X.nnz == sparse_pu[0].nnz  # input untouched


def test_pu_extra_trees_predicts_sparse_in_blocks(sparse_pu, monkeypatch):
    from weakfs.pu._pu_extra_trees import _classifier

    X, s = sparse_pu
    clf = PUExtraTreesClassifier(n_estimators=5, prior=0.5, random_state=0).fit(X, s)
    whole = clf.predict_proba(X)
    monkeypatch.setattr(_classifier, "_PREDICT_BLOCK_ROWS", 17)
    np.testing.assert_array_equal(clf.predict_proba(X), whole)
    np.testing.assert_array_equal(clf.apply(X), clf.apply(X.toarray()))


@pytest.mark.parametrize("selector", [SemiJMISelector, MRMRSelector])
def test_information_selectors_sparse_equals_dense(sparse_pu, selector):
    X, s = sparse_pu
    a = selector(n_features_to_select=6).fit(X, s)
    b = selector(n_features_to_select=6).fit(X.toarray(), s)
    np.testing.assert_array_equal(a.ranking_, b.ranking_)
    np.testing.assert_array_equal(a.scores_, b.scores_)
    assert sparse.issparse(a.transform(X))


def test_sparse_discretisation_is_compact_and_equal():
    X = sparse.random(100, 12, density=0.3, format="csc", random_state=0)
    codes = discretize(X, 5)
    assert codes.dtype == np.uint8
    np.testing.assert_array_equal(codes, discretize(X.toarray(), 5))


def test_blocked_mutual_information_equals_one_block(monkeypatch):
    from weakfs import _information as info

    rng = np.random.default_rng(0)
    codes = rng.integers(0, 4, size=(50, 9))
    y = rng.integers(0, 2, size=50)
    whole = info.mutual_information_columns(codes, y)
    pair = info.joint_mutual_information_columns(codes, 3, y)
    monkeypatch.setattr(info, "_BLOCK_ENTRIES", 100)  # two columns per block
    np.testing.assert_allclose(info.mutual_information_columns(codes, y), whole, rtol=0, atol=0)
    np.testing.assert_allclose(info.joint_mutual_information_columns(codes, 3, y), pair, atol=0)


@pytest.mark.parametrize(
    "estimator",
    [
        FSCPUSelector(n_features_to_select=3),
        GKFPUALSelector(),
        GKFPUALClassifier(),
        PUALClassifier(),
        NNPUClassifier(prior=0.5),
        UPUClassifier(prior=0.5),
    ],
    ids=lambda e: type(e).__name__,
)
def test_dense_only_estimators_name_the_alternatives(sparse_pu, estimator):
    X, s = sparse_pu
    with pytest.raises(TypeError, match=r"needs dense X .*toarray\(\).*PUExtraTreesClassifier"):
        estimator.fit(X, s)
