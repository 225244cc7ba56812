"""Streamed fits of the counting selectors: chunks and Dask collections give the in-memory fit,
bit for bit."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import sparse

from weakfs.pu import MRMRSelector, SemiJMISelector

SELECTORS = [SemiJMISelector, MRMRSelector]


def _data(n=1500, seed=0):
    """Continuous, few-valued, constant, heavy-tailed (empty bins) and skewed columns."""
    rng = np.random.RandomState(seed)
    X = np.column_stack(
        [
            rng.rand(n),
            rng.randint(0, 3, n),
            np.full(n, 2.0),
            rng.standard_cauchy(n),
            rng.rand(n) ** 8,
            rng.randint(0, 6, n) * 1.5,
            rng.normal(size=n),
            rng.rand(n),
        ]
    )
    s = ((X[:, 0] + 0.3 * X[:, 1] + 0.2 * rng.rand(n)) > 1.0).astype(int)
    s[rng.rand(n) < 0.5] = 0
    return X, s


def _uneven(X, s, cuts=(0, 7, 400, 401, 1100)):
    bounds = [*cuts, X.shape[0]]
    return [(X[a:b], s[a:b]) for a, b in itertools.pairwise(bounds)]


def _assert_same(a, b):
    assert a.ranking_.tolist() == b.ranking_.tolist()
    assert np.array_equal(a.scores_, b.scores_)  # bit for bit, -inf included
    assert np.array_equal(a.relevance_, b.relevance_)
    if hasattr(a, "pair_columns_"):
        assert np.array_equal(a.pair_columns_, b.pair_columns_)
    assert a.n_features_in_ == b.n_features_in_


@pytest.mark.parametrize("cls", SELECTORS)
@pytest.mark.parametrize("k", [1, 3, 8])
def test_streamed_fit_is_the_in_memory_fit_bit_for_bit(cls, k):
    X, s = _data()
    _assert_same(cls(k).fit(X, s), cls(k).fit_chunks(_uneven(X, s)))


@pytest.mark.parametrize("n_bins", [2, 3, 7])
def test_streamed_fit_for_other_bins_and_a_chunk_function(n_bins):
    X, s = _data(seed=1)

    def chunks():  # a function returning a fresh iterator: called once per pass
        yield from _uneven(X, s, cuts=(0, 999))

    selector = SemiJMISelector(4, n_bins=n_bins)
    _assert_same(selector.fit(X, s), SemiJMISelector(4, n_bins=n_bins).fit_chunks(chunks))


def test_streamed_chunks_may_be_dataframes_or_sparse_and_keep_names():
    X, s = _data()
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])])
    framed = [(frame.iloc[a:b], pd.Series(s[a:b])) for a, b in [(0, 600), (600, 1500)]]
    streamed = SemiJMISelector(3).fit_chunks(framed)
    _assert_same(SemiJMISelector(3).fit(frame, s), streamed)
    assert list(streamed.feature_names_in_) == list(frame.columns)
    assert list(streamed.get_feature_names_out()) == list(
        SemiJMISelector(3).fit(frame, s).get_feature_names_out()
    )
    Xs = X * (X > 0.5)
    chunks = [(sparse.csr_matrix(Xs[a:b]), s[a:b]) for a, b in [(0, 500), (500, 1500)]]
    _assert_same(MRMRSelector(3).fit(sparse.csr_matrix(Xs), s), MRMRSelector(3).fit_chunks(chunks))


def test_a_chunk_with_other_columns_is_an_error():
    X, s = _data()
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])])
    renamed = frame.rename(columns={"c3": "other"})
    chunks = [(frame.iloc[:500], s[:500]), (renamed.iloc[500:], s[500:])]
    with pytest.raises(ValueError, match=r"chunk 1 has 8 columns .* same columns"):
        SemiJMISelector(2).fit_chunks(chunks)
    chunks = [(X[:500], s[:500]), (X[500:, :5], s[500:])]
    with pytest.raises(ValueError, match="chunk 1 has 5 unnamed columns, the first chunk 8"):
        SemiJMISelector(2).fit_chunks(chunks)


def test_chunk_sources_that_cannot_be_read_again_are_refused():
    X, s = _data()
    with pytest.raises(TypeError, match=r"one-shot iterator .* k \+ 2 times"):
        SemiJMISelector(2).fit_chunks(iter(_uneven(X, s)))
    calls = []

    def shrinking():
        calls.append(1)
        return iter(_uneven(X, s)[: 6 - len(calls)])

    with pytest.raises(ValueError, match="the chunks changed between passes"):
        SemiJMISelector(2).fit_chunks(shrinking)
    with pytest.raises(TypeError, match=r"not an \(X, y\) pair"):
        SemiJMISelector(2).fit_chunks([X[:10]])


def test_streamed_fit_checks_the_labels_and_values_of_all_the_chunks():
    X, s = _data()
    ones = [(X[:10], np.ones(10, int)), (X[10:20], np.ones(10, int))]
    with pytest.raises(ValueError, match="one class only: all 20 rows are labeled"):
        SemiJMISelector(2).fit_chunks(ones)
    # one class in a chunk is fine: the whole data has two
    s1 = np.r_[np.zeros(750, int), np.ones(750, int)]
    _assert_same(SemiJMISelector(2).fit(X, s1), SemiJMISelector(2).fit_chunks(_uneven(X, s1)))
    X_nan = X.copy()
    X_nan[1200, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        MRMRSelector(2).fit_chunks(_uneven(X_nan, s))
    with pytest.raises(ValueError, match="larger than the number of features"):
        MRMRSelector(9).fit_chunks(_uneven(X, s))
    with pytest.raises(ValueError, match="one label per row"):
        MRMRSelector(2).fit_chunks([(X[:10], s[:9])])
    with pytest.raises(ValueError, match="needs n_bins"):
        MRMRSelector(2, n_bins=None).fit_chunks(_uneven(X, s))


@pytest.mark.parametrize("cls", SELECTORS)
def test_dask_array_and_dataframe_are_counted_per_partition(cls):
    da = pytest.importorskip("dask.array")
    dd = pytest.importorskip("dask.dataframe")
    import dask

    X, s = _data()
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])])
    expected = cls(3).fit(frame, s)
    with dask.config.set(scheduler="synchronous"):
        Xd = da.from_array(X, chunks=((300, 700, 500), (5, 3)))
        _assert_same(expected, cls(3).fit(Xd, da.from_array(s, chunks=400)))
        _assert_same(expected, cls(3).fit(Xd, s))
        fd = dd.from_pandas(frame, npartitions=3)
        fitted = cls(3).fit(fd, dd.from_pandas(pd.Series(s), npartitions=3))
        _assert_same(expected, fitted)
        assert list(fitted.feature_names_in_) == list(frame.columns)
        _assert_same(expected, cls(3).fit(fd, s))
        with pytest.raises(ValueError, match="Dask Series with X's 3 partitions"):
            cls(3).fit(fd, dd.from_pandas(pd.Series(s), npartitions=2))


def test_dask_on_a_local_cluster():
    pytest.importorskip("dask.distributed")
    import dask.array as da
    from dask.distributed import Client, LocalCluster

    X, s = _data(n=800)
    with (
        LocalCluster(
            processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        streamed = SemiJMISelector(3).fit(da.from_array(X, chunks=(300, 8)), s)
    _assert_same(SemiJMISelector(3).fit(X, s), streamed)
