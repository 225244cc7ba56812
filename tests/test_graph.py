"""The k-NN graph helpers of weakfs._graph, checked against brute force on small inputs."""

import numpy as np
import pytest

from weakfs._graph import heat_kernel_graph, knn_laplacian, knn_mask, laplacian_quadratic_form


def _brute_force_knn(X, k):
    """``A[i, j]`` = j is among the k nearest other rows of i (no ties on random data)."""
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    np.fill_diagonal(d2, np.inf)
    A = np.zeros(d2.shape, dtype=bool)
    for i, row in enumerate(d2):
        A[i, np.argsort(row)[:k]] = True
    return A


@pytest.mark.parametrize("k", [1, 3, 5])
def test_knn_mask_is_the_symmetrised_brute_force_graph(k):
    X = np.random.RandomState(k).normal(size=(12, 3))
    W = knn_mask(X, k).toarray()
    A = _brute_force_knn(X, k)
    np.testing.assert_array_equal(W, (A | A.T).astype(float))
    np.testing.assert_array_equal(W, W.T)
    assert not np.diag(W).any()
    # every row keeps at least its own k neighbours, and gains only rows that chose it
    degree = W.sum(axis=1)
    assert (degree >= k).all() and (degree <= k + A.sum(axis=0)).all()


def test_knn_mask_needs_more_rows_than_neighbours():
    with pytest.raises(ValueError, match="n_neighbors=4"):
        knn_mask(np.zeros((4, 2)), 4)


def test_laplacian_quadratic_form_equals_dense_xt_l_x():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(15, 4))
    W = knn_mask(X, 3)
    L = np.diag(W.toarray().sum(axis=1)) - W.toarray()
    dense = np.einsum("ij,ik,kj->j", X, L, X)  # x_j^T L x_j for every column
    np.testing.assert_allclose(laplacian_quadratic_form(W, X), dense, rtol=1e-12, atol=1e-12)
    # the same from a dense weight matrix, and as a sum over edges of w_il (x_i - x_l)^2 / 2
    Wd = rng.uniform(size=(15, 15))
    Wd = Wd + Wd.T
    edges = 0.5 * np.einsum("il,ilj->j", Wd, (X[:, None, :] - X[None, :, :]) ** 2)
    np.testing.assert_allclose(laplacian_quadratic_form(Wd, X), edges, rtol=1e-12)


def test_heat_kernel_graph_weights_the_knn_edges():
    X = np.random.RandomState(1).normal(size=(10, 2))
    W, sigma = heat_kernel_graph(X, 3, 0.8)
    mask = knn_mask(X, 3).toarray() > 0
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_allclose(W.toarray(), np.where(mask, np.exp(-d2 / (2 * 0.8**2)), 0.0))
    assert sigma == 0.8
    # default width: the root of the median squared edge length
    _, auto = heat_kernel_graph(X, 3, None)
    assert auto == pytest.approx(np.sqrt(np.median(d2[mask])))


def test_knn_laplacian_is_d_minus_w_of_the_heat_kernel_graph():
    X = np.random.RandomState(2).normal(size=(11, 3))
    R = knn_laplacian(X, 4, 1.5).toarray()
    mask = _brute_force_knn(X, 4)
    mask |= mask.T
    d2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    W = np.where(mask, np.exp(-d2 / (2 * 1.5**2)), 0.0)
    np.testing.assert_allclose(R, np.diag(W.sum(axis=1)) - W, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(R.sum(axis=1), 0.0, atol=1e-12)


def test_knn_laplacian_reuses_a_search_only_for_equal_rows(monkeypatch):
    """The kept neighbour search is reused for equal rows (a tuning grid's refits of one fold,
    σ changing) and gives the Laplacian of a fresh search, bit for bit."""
    from weakfs import _graph

    monkeypatch.setattr(_graph, "_knn_cache", type(_graph._knn_cache)())
    calls = []
    real = _graph.NearestNeighbors

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(_graph, "NearestNeighbors", counting)
    X = np.random.RandomState(0).normal(size=(60, 3))
    first = knn_laplacian(X, 4, 1.0)
    again = knn_laplacian(X.copy(), 4, 0.5)  # equal rows, another σ: reused
    assert len(calls) == 1
    _graph._knn_cache.clear()
    fresh = knn_laplacian(X, 4, 0.5)
    assert len(calls) == 2
    assert (again != fresh).nnz == 0 and (first != knn_laplacian(X, 4, 1.0)).nnz == 0
    # other rows, another K: new searches
    Y = X.copy()
    Y[0, 0] += 1e-12
    knn_laplacian(Y, 4, 1.0)
    knn_laplacian(X, 3, 1.0)
    assert len(calls) == 4


def test_knn_laplacian_cache_is_thread_safe_and_bounded(monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from weakfs import _graph

    monkeypatch.setattr(_graph, "_knn_cache", type(_graph._knn_cache)())
    rng = np.random.RandomState(1)
    data = [rng.normal(size=(80, 4)) for _ in range(6)]
    expected = [knn_laplacian(X, 5, 1.0).toarray() for X in data]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda i: knn_laplacian(data[i % 6], 5, 1.0).toarray(), range(48)))
    assert all(np.array_equal(g, expected[i % 6]) for i, g in enumerate(got))
    monkeypatch.setattr(_graph, "KNN_CACHE_BYTES", 2 * (80 * 4 * 8 + 80 * 6 * 16))
    knn_laplacian(rng.normal(size=(80, 4)), 5, 1.0)
    assert len(_graph._knn_cache) <= 2
