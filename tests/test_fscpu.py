"""FSCPU: cluster objective (Algorithm 1), fast Gaussian mixture, the selector."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.mixture import GaussianMixture

from weakfs.pu import FSCPUSelector
from weakfs.pu._fscpu._cluster_objective import (
    best_cluster_union,
    cluster_counts,
    cluster_objective,
)
from weakfs.pu._fscpu._gmm import fit_gaussian_mixture
from weakfs.pu._fscpu._kmeans import kmeans
from weakfs.pu._fscpu._selector import ClusterAssumptionObjective


def brute_force(a, c):
    a, c = np.asarray(a, float), np.asarray(c, float)
    L = a.sum()
    best, best_sets = -1.0, []
    for r in range(1, len(a) + 1):
        for S in itertools.combinations(range(len(a)), r):
            S = list(S)
            if c[S].sum() == 0:
                continue
            v = a[S].sum() ** 2 / (L * c[S].sum())
            if v > best + 1e-12:
                best, best_sets = v, [S]
            elif abs(v - best) <= 1e-12:
                best_sets.append(S)
    return best, best_sets


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 8)), min_size=1, max_size=7).filter(
        lambda pairs: sum(p[0] for p in pairs) > 0
    )
)
def test_algorithm1_equals_brute_force_and_takes_largest_tie(pairs):
    a = np.array([p[0] for p in pairs])
    c = a + np.array([p[1] for p in pairs])  # c_k >= a_k, possibly empty clusters
    value, chosen = best_cluster_union(a, c)
    best, best_sets = brute_force(a, c)
    assert value == pytest.approx(best, rel=1e-12)
    # the union found is optimal and no optimal union has more non-empty clusters
    largest = max(len([k for k in S if c[k] > 0]) for S in best_sets)
    assert chosen.sum() == largest
    assert not np.any(chosen & (c == 0))


def test_objective_values():
    # labeled rows all in cluster 0 (and nothing else there): value 1
    labels = np.array([0, 0, 1, 1, 2, 2])
    s = np.array([1, 1, 0, 0, 0, 0])
    assert cluster_objective(labels, s) == 1.0
    a, c = cluster_counts(labels, np.array([1, 0, 1, 0, 0, 0]), 4)
    assert a.tolist() == [1, 1, 0, 0] and c.tolist() == [2, 2, 2, 0]
    # equal ratios tie: both are added (the largest optimal union), value 0.5
    value, chosen = best_cluster_union(a, c)
    assert value == 0.5 and chosen.tolist() == [True, True, False, False]
    assert best_cluster_union([0, 0], [3, 4])[0] == 0.0
    # prefix values 0.18, 0.178, 0.192: the paper's first-decrease stop misses the maximum
    assert best_cluster_union([3, 1, 1], [10, 8, 8])[0] == pytest.approx(25 / 130)
    assert best_cluster_union([3, 1, 1], [10, 8, 8], early_stop=True)[0] == pytest.approx(0.18)
    with pytest.raises(ValueError, match="a_k <= c_k"):
        best_cluster_union([3], [2])


def _blobs(seed=0, n=400, d=4):
    rng = np.random.RandomState(seed)
    centers = rng.uniform(-4, 4, (4, d))
    lab = rng.randint(4, size=n)
    return centers[lab] + rng.normal(size=(n, d)) * rng.uniform(0.3, 1.5, (4, d))[lab]


@pytest.mark.parametrize("cov", ["full", "diag"])
def test_gmm_matches_sklearn_quality(cov):
    X = _blobs(1)
    ours = [fit_gaussian_mixture(X, 4, covariance_type=cov, random_state=s) for s in range(3)]
    theirs = [GaussianMixture(4, covariance_type=cov, random_state=s).fit(X) for s in range(3)]
    ll_ours = np.mean([f.log_likelihood for f in ours])
    ll_theirs = np.mean([g.score(X) for g in theirs])
    assert ll_ours >= ll_theirs - 0.05
    f = ours[0]
    assert f.labels.shape == (400,) and np.allclose(f.resp.sum(1), 1)
    assert f.converged


def test_gmm_same_parameters_as_sklearn_from_same_start():
    X = _blobs(2)
    labels, _, _ = kmeans(X, 3, random_state=0)
    resp = np.eye(3)[labels]
    ours = fit_gaussian_mixture(X, 3, resp_init=labels, tol=1e-8, max_iter=500)
    # scikit-learn started from the parameters of the same responsibilities
    from sklearn.mixture._gaussian_mixture import _estimate_gaussian_parameters

    w, m, cvs = _estimate_gaussian_parameters(X, resp, 1e-6, "full")
    g2 = GaussianMixture(
        3,
        weights_init=w / w.sum(),
        means_init=m,
        precisions_init=np.linalg.inv(cvs),
        tol=1e-8,
        max_iter=500,
    ).fit(X)
    assert ours.log_likelihood == pytest.approx(g2.score(X), abs=1e-4)
    assert np.allclose(np.sort(ours.weights), np.sort(g2.weights_), atol=1e-4)


def _sparse_blobs(seed=0, n=500, d=6):
    """Blobs with most entries exactly zero (word-frequency-like data)."""
    rng = np.random.RandomState(seed)
    centers = rng.uniform(0, 1, (3, d))
    lab = rng.randint(3, size=n)
    X = centers[lab] + rng.normal(size=(n, d)) * 0.05
    return X * (rng.rand(n, d) < 0.3)


@pytest.mark.parametrize("cov", ["full", "diag"])
@pytest.mark.parametrize("sparse_data", [True, False])
def test_gmm_sparse_path_equals_dense_path(cov, sparse_data):
    X = _sparse_blobs(4) if sparse_data else _blobs(4, n=300)
    labels = kmeans(X, 3, random_state=0)[0]
    # float64 throughout: the two kernels agree to rounding (mixed precision: see below)
    fits = [
        fit_gaussian_mixture(
            X, 3, covariance_type=cov, resp_init=labels, algorithm=alg, precision="float64"
        )
        for alg in ("dense", "sparse", "auto")
    ]
    dense = fits[0]
    for f in fits[1:]:
        assert f.n_iter == dense.n_iter and f.converged == dense.converged
        assert f.log_likelihood == pytest.approx(dense.log_likelihood, rel=1e-9, abs=1e-9)
        np.testing.assert_allclose(f.means, dense.means, rtol=1e-7, atol=1e-10)
        np.testing.assert_allclose(f.covariances, dense.covariances, rtol=1e-6, atol=1e-10)
        np.testing.assert_allclose(f.weights, dense.weights, rtol=1e-9)
        np.testing.assert_allclose(f.resp, dense.resp, atol=1e-7)
        assert np.array_equal(f.labels, dense.labels)


def test_gmm_sparse_path_same_parameters_as_sklearn_from_same_start():
    X = _sparse_blobs(5)
    labels, _, _ = kmeans(X, 3, random_state=0)
    ours = fit_gaussian_mixture(X, 3, resp_init=labels, tol=1e-8, max_iter=500, algorithm="sparse")
    from sklearn.mixture._gaussian_mixture import _estimate_gaussian_parameters

    w, m, cvs = _estimate_gaussian_parameters(X, np.eye(3)[labels], 1e-6, "full")
    g2 = GaussianMixture(
        3,
        weights_init=w / w.sum(),
        means_init=m,
        precisions_init=np.linalg.inv(cvs),
        tol=1e-8,
        max_iter=500,
    ).fit(X)
    assert ours.log_likelihood == pytest.approx(g2.score(X), abs=1e-6)
    np.testing.assert_allclose(ours.means, g2.means_, atol=1e-6)
    assert np.array_equal(ours.labels, g2.predict(X))


@pytest.mark.parametrize("sparse_data", [True, False])
def test_kmeans_lloyd_equals_sklearn_from_same_seeds(sparse_data):
    from sklearn.cluster import KMeans

    from weakfs.pu._fscpu._gmm_kernels import csr_rows
    from weakfs.pu._fscpu._kmeans import _kmeans_plusplus
    from weakfs.pu._fscpu._kmeans_kernels import lloyd_csr

    X = _sparse_blobs(6) if sparse_data else _blobs(6)
    csr = csr_rows(X)[:3]
    x_sq = (X * X).sum(1)
    seeds = _kmeans_plusplus(X, csr, 4, x_sq, np.random.RandomState(0))
    tol_abs = 1e-4 * float(np.mean(np.var(X, axis=0)))
    labels, centers, inertia = lloyd_csr(*csr, x_sq, seeds, 300, tol_abs)
    km = KMeans(4, init=seeds, n_init=1, algorithm="lloyd").fit(X)
    assert np.array_equal(labels, km.labels_)
    np.testing.assert_allclose(centers, km.cluster_centers_, atol=1e-10)
    assert inertia == pytest.approx(km.inertia_, rel=1e-9)


def test_kmeans_matches_sklearn_inertia():
    from sklearn.cluster import KMeans

    X = _blobs(3)
    ours = np.mean([kmeans(X, 4, random_state=s)[2] for s in range(3)])
    theirs = np.mean([KMeans(4, n_init=1, random_state=s).fit(X).inertia_ for s in range(3)])
    assert ours <= theirs * 1.05


def test_gmm_bad_input():
    with pytest.raises(ValueError, match="larger than the number of rows"):
        fit_gaussian_mixture(np.zeros((3, 2)), 5)
    with pytest.raises(ValueError, match="covariance_type"):
        fit_gaussian_mixture(np.zeros((30, 2)), 2, covariance_type="tied")
    with pytest.raises(ValueError, match="resp_init"):
        fit_gaussian_mixture(np.zeros((30, 2)), 2, resp_init=np.ones((30, 3)))
    with pytest.raises(ValueError, match="algorithm"):
        fit_gaussian_mixture(np.zeros((30, 2)), 2, algorithm="fast")


def _pu_data(seed=0, n=300):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, 6))
    # positives form a tight cluster only on features 0 and 1 together
    X[: n // 5, :2] = rng.normal(2.0, 0.3, size=(n // 5, 2))
    s = np.zeros(n, int)
    s[: n // 10] = 1
    return X, s


def test_objective_is_maximal_on_the_cluster_features():
    X, s = _pu_data(4)
    obj = ClusterAssumptionObjective(X, s, 3, warm_start=False, seed=0)
    values = {}
    for pair in itertools.combinations(range(6), 2):
        m = np.zeros(6, bool)
        m[list(pair)] = True
        values[pair] = obj(m)
    assert max(values, key=values.get) == (0, 1)


@pytest.mark.parametrize("clustering", ["gmm", "gmm-diag", "kmeans"])
def test_selector_finds_cluster_features(clustering):
    X, s = _pu_data()
    sel = FSCPUSelector(
        2, n_clusters=3, n_iter=300, eta=0.02, clustering=clustering, random_state=0
    )
    sel.fit(X, s)
    assert np.flatnonzero(sel.get_support()).tolist() == [0, 1]
    assert sel.theta_history_.shape == (301, 6)
    assert sel.history_["cluster_a"].shape == (300,)
    assert np.array_equal(sel.scores_, sel.theta_)
    assert sel.n_evaluations_ <= 15  # C(6, 2) distinct masks, each clustered once


def test_selector_mi_variant_and_reproducible_with_threads():
    X, s = _pu_data(1)
    kw = dict(n_clusters=3, n_iter=300, eta=0.02, objective="cluster+mi", random_state=5)
    a = FSCPUSelector(2, **kw).fit(X, s)
    b = FSCPUSelector(2, n_jobs=2, **kw).fit(X, s)
    assert np.array_equal(a.theta_history_, b.theta_history_)
    assert set(a.history_) == {"cluster_a", "cluster_b", "mi_a", "mi_b"}
    assert np.flatnonzero(a.get_support()).tolist() == [0, 1]


def test_selector_costs_budget():
    X, s = _pu_data(2)
    costs = np.array([1.0, 1.0, 0.5, 0.5, 0.5, 3.0])
    sel = FSCPUSelector(budget=2.0, feature_costs=costs, n_clusters=3, n_iter=30, random_state=0)
    sel.fit(X, s)
    assert costs[sel.get_support()].sum() <= 2.0


def test_warm_start_objective_values_are_cached_per_mask():
    X, s = _pu_data(3)
    obj = ClusterAssumptionObjective(X, s, 3, seed=1, warm_start=False)
    m = np.array([1, 1, 0, 0, 0, 0], bool)
    assert obj(m) == obj(m)  # same mask, same seed: same value without warm start
    assert obj(np.zeros(6, bool)) == 0.0


@pytest.mark.parametrize(
    "kwargs, y, match",
    [
        ({"n_features_to_select": 7}, None, "larger than the number of features"),
        ({"budget": 0.2, "feature_costs": np.ones(6)}, None, "below the cheapest"),
        ({"budget": 2.0, "feature_costs": -np.ones(6)}, None, "negative"),
        ({"feature_costs": np.ones(6)}, None, "need a budget"),
        ({"n_features_to_select": 2, "budget": 2.0}, None, "not both"),
        ({"n_clusters": 400}, None, "larger than the number of rows"),
        ({}, np.zeros(300, int), "labeled"),
        ({}, np.full(300, 2), "1"),
    ],
)
def test_selector_bad_input(kwargs, y, match):
    X, s = _pu_data()
    with pytest.raises(ValueError, match=match):
        FSCPUSelector(n_iter=2, **kwargs).fit(X, s if y is None else y)


def test_selector_rejects_nan_and_sparse():
    import scipy.sparse as sp

    X, s = _pu_data()
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        FSCPUSelector(n_iter=2).fit(X, s)
    with pytest.raises((TypeError, ValueError), match=r"[Ss]parse"):
        FSCPUSelector(n_iter=2).fit(sp.csr_matrix(np.nan_to_num(X)), s)


def test_dense_em_is_translation_invariant():
    """Data far from the origin: the dense kernel centres internally, so nothing is lost."""
    from weakfs.pu._fscpu._gmm import fit_gaussian_mixture

    rng = np.random.RandomState(3)
    X = np.vstack([rng.normal(0, 1, (80, 3)), rng.normal(4, 0.5, (80, 3))])
    base = fit_gaussian_mixture(X, 2, random_state=0, algorithm="dense")
    far = fit_gaussian_mixture(X + 1e6, 2, random_state=0, algorithm="dense")
    np.testing.assert_array_equal(base.labels, far.labels)
    assert far.log_likelihood == pytest.approx(base.log_likelihood, abs=1e-6)
    np.testing.assert_allclose(far.means, base.means + 1e6, rtol=0, atol=1e-6)


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda X: np.where(np.arange(X.size).reshape(X.shape) == 7, np.inf, X), "infinity"),
        (lambda X: np.where(np.arange(X.size).reshape(X.shape) == 7, -np.inf, X), "infinity"),
        (lambda X: np.where(np.arange(X.size).reshape(X.shape) == 7, np.nan, X), "NaN"),
        (lambda X: X[:, :0], "0 feature"),
    ],
)
def test_selector_rejects_non_finite_and_empty(edit, match):
    X, s = _pu_data()
    with pytest.raises(ValueError, match=match):
        FSCPUSelector(n_iter=2).fit(edit(X), s)
    with pytest.raises(ValueError, match="0 sample"):
        FSCPUSelector(n_iter=2).fit(X[:0], s[:0])


def _small_run(**kw):
    X, s = _pu_data(1)
    return FSCPUSelector(2, n_clusters=3, n_iter=12, eta=0.05, random_state=7, **kw).fit(X, s)


def test_selector_same_result_with_joblib_threads_and_dask():
    import joblib

    distributed = pytest.importorskip("distributed")
    ref = _small_run(n_jobs=1)
    threads = _small_run(n_jobs=2)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_config(backend="dask"),
    ):
        dask = _small_run()
        with pytest.raises(ValueError, match="warm_start"):
            _small_run(warm_start=True)
    for other in (threads, dask):
        np.testing.assert_array_equal(other.support_, ref.support_)
        np.testing.assert_array_equal(other.theta_, ref.theta_)
        np.testing.assert_array_equal(other.theta_history_, ref.theta_history_)
        np.testing.assert_array_equal(other.history_["cluster_a"], ref.history_["cluster_a"])
    assert threads.n_evaluations_ == ref.n_evaluations_


# ---------------------------------------------------------------------------------------------
# search_rows: the candidates' fits on every labeled row and a sample of the unlabeled ones


def _two_clusters(n: int = 400, seed: int = 0):
    rng = np.random.RandomState(seed)
    X = rng.rand(n, 6)
    X[: n // 5, :2] += 3.0
    s = np.zeros(n, int)
    s[: n // 15] = 1
    return X, s


def test_search_rows_keeps_every_labeled_row_and_a_sample_of_the_rest():
    X, s = _two_clusters()
    sel = FSCPUSelector(2, n_clusters=3, n_iter=40, search_rows=0.5, random_state=0).fit(X, s)
    rows = sel.search_rows_
    assert rows.size == 200 and np.all(np.diff(rows) > 0)
    assert set(np.flatnonzero(s == 1)) <= set(rows.tolist())
    assert np.flatnonzero(sel.get_support()).tolist() == [0, 1]
    again = FSCPUSelector(2, n_clusters=3, n_iter=40, search_rows=200, random_state=0).fit(X, s)
    assert np.array_equal(again.search_rows_, rows) and np.array_equal(again.theta_, sel.theta_)


def test_search_rows_of_every_row_is_the_paper_search():
    X, s = _two_clusters()
    paper = FSCPUSelector(2, n_clusters=3, n_iter=30, random_state=1).fit(X, s)
    every = FSCPUSelector(2, n_clusters=3, n_iter=30, search_rows=1.0, random_state=1).fit(X, s)
    assert paper.search_rows_ is None and every.search_rows_ is None
    assert np.array_equal(paper.theta_history_, every.theta_history_)


def test_search_rows_below_the_labeled_rows_is_refused():
    X, s = _two_clusters()
    with pytest.raises(ValueError, match="fewer than the 26 labeled rows"):
        FSCPUSelector(2, n_clusters=3, n_iter=5, search_rows=20).fit(X, s)


def test_em_counts_describe_every_fit():
    X, s = _two_clusters()
    sel = FSCPUSelector(2, n_clusters=3, n_iter=30, random_state=0).fit(X, s)
    n_fits = sel.log_likelihoods_.size
    assert n_fits == sel.em_iterations_.size == sel.em_converged_.size == sel.n_evaluations_
    assert np.all((sel.em_iterations_ >= 1) & (sel.em_iterations_ <= 100))
    # a fit that did not converge by the tolerance ran to the cap
    assert np.all(sel.em_iterations_[~sel.em_converged_] == 100)
    warm = FSCPUSelector(2, n_clusters=3, n_iter=30, warm_start=True, random_state=0).fit(X, s)
    assert warm.em_iterations_.size == warm.n_evaluations_


# ---------------------------------------------------------------------------------------------
# shared_start: every mixture fit starts from one k-means clustering on all columns


def test_shared_start_fits_start_from_one_all_column_clustering():
    X, s = _pu_data(2)
    obj = ClusterAssumptionObjective(X, s, 3, shared_start=True, seed=4)
    m = np.array([1, 1, 0, 0, 0, 0], bool)
    value = obj(m)
    start = obj.shared_labels()
    assert np.array_equal(start, kmeans(X, 3, random_state=4)[0])
    # the fit of m is EM from those labels on m's columns, whatever was evaluated before
    fit = fit_gaussian_mixture(X[:, m], 3, resp_init=start, limit_blas_threads=False)
    assert np.array_equal(obj.cluster(m), fit.labels)
    obj(np.array([0, 0, 1, 1, 1, 0], bool))
    assert obj(m) == value


def test_shared_start_search_is_reproducible_and_finds_the_cluster_features():
    X, s = _pu_data()
    kw = dict(n_clusters=3, n_iter=300, eta=0.02, shared_start=True, random_state=0)
    a = FSCPUSelector(2, **kw).fit(X, s)
    b = FSCPUSelector(2, n_jobs=2, **kw).fit(X, s)
    assert np.flatnonzero(a.get_support()).tolist() == [0, 1]
    assert np.array_equal(a.theta_history_, b.theta_history_)
    assert a.em_iterations_.size == a.n_evaluations_


def test_shared_start_needs_a_mixture():
    X, s = _pu_data()
    with pytest.raises(ValueError, match="shared_start"):
        FSCPUSelector(2, n_clusters=3, n_iter=5, clustering="kmeans", shared_start=True).fit(X, s)
