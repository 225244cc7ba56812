"""FSCPU's dense mixture EM: mixed precision vs float64 vs scikit-learn, dense k-means, the
vectorised exp."""

import math

import numpy as np
import pytest
from sklearn.mixture import GaussianMixture
from sklearn.mixture._gaussian_mixture import _estimate_gaussian_parameters

from weakfs.pu._fscpu import _gmm, _kmeans
from weakfs.pu._fscpu._gmm import fit_gaussian_mixture
from weakfs.pu._fscpu._kmeans import kmeans


def _scaled_clusters(seed=0, n=1500, d=8, k=5):
    """Min-max scaled blobs (as FSCPU's experiments scale), one of them flat in column 0: a
    near-singular covariance (reg_covar only), the hard case for float32."""
    rng = np.random.RandomState(seed)
    lab = rng.randint(k, size=n)
    centers = rng.uniform(0, 10, (k, d))
    X = centers[lab] + rng.normal(size=(n, d)) * rng.uniform(0.3, 1.5, (k, d))[lab]
    X[lab == 0, 0] = 4.0
    X = (X - X.min(0)) / (X.max(0) - X.min(0))
    return X, lab


def _sklearn_from(X, labels, k, **kw):
    w, m, cov = _estimate_gaussian_parameters(X, np.eye(k)[labels], 1e-6, "full")
    prec = np.linalg.inv(cov)
    return GaussianMixture(
        k,
        weights_init=w / w.sum(),
        means_init=m,
        precisions_init=(prec + np.swapaxes(prec, -1, -2)) / 2,
        **kw,
    ).fit(X)


def _overlapping(seed=0, n=1200, d=6, k=4):
    """Min-max scaled, heavily overlapping, well-conditioned components: every responsibility
    counts (one M-step product for all components) and "mixed" takes float32 moments."""
    rng = np.random.RandomState(seed)
    lab = rng.randint(k, size=n)
    X = rng.uniform(0, 2, (k, d))[lab] + rng.normal(size=(n, d))
    return (X - X.min(0)) / (X.max(0) - X.min(0)), lab


@pytest.mark.parametrize("block_values", [None, 600])
@pytest.mark.parametrize("data", ["separated", "overlapping"])
def test_dense_mixed_precision_matches_float64_and_sklearn(monkeypatch, block_values, data):
    if block_values is not None:  # many blocks and a partial last one
        monkeypatch.setattr(_gmm, "_BLOCK_VALUES", block_values)
    X, _ = _scaled_clusters() if data == "separated" else _overlapping()
    k = 5 if data == "separated" else 4
    labels = kmeans(X, k, random_state=0)[0]
    kw = dict(resp_init=labels, algorithm="dense")
    mixed = fit_gaussian_mixture(X, k, **kw)
    ref = fit_gaussian_mixture(X, k, precision="float64", **kw)
    # the M-step "mixed" takes at the fit: float64 moments for the flat (ill-conditioned)
    # component, float32 ones for the overlapping components
    em = _gmm._DenseEM(X - X.mean(0), k, 1e-6, "mixed")
    em.set_parameters(ref.weights, ref.means - X.mean(0), ref.covariances)
    assert em.m_dtype == (np.float64 if data == "separated" else np.float32)
    assert np.mean(ref.resp > 1e-40) < 0.5 if data == "separated" else np.all(ref.resp > 1e-40)
    sk = _sklearn_from(X, labels, k)
    # float64: scikit-learn's EM to rounding
    assert ref.n_iter == sk.n_iter_
    assert ref.log_likelihood == pytest.approx(sk.score(X), abs=1e-9)
    np.testing.assert_allclose(ref.means, sk.means_, atol=1e-9)
    np.testing.assert_allclose(ref.covariances, sk.covariances_, rtol=1e-6, atol=1e-10)
    assert np.array_equal(ref.labels, sk.predict(X))
    # mixed precision: the tolerances, in practice far inside them
    assert mixed.log_likelihood == pytest.approx(ref.log_likelihood, abs=1e-3)
    assert np.mean(mixed.labels == ref.labels) >= 0.99
    np.testing.assert_allclose(mixed.weights, ref.weights, atol=1e-4)
    np.testing.assert_allclose(mixed.means, ref.means, atol=1e-4)
    np.testing.assert_allclose(mixed.covariances, ref.covariances, atol=1e-4)
    np.testing.assert_allclose(mixed.resp.sum(1), 1.0)


def test_dense_mixed_precision_with_kmeans_start_and_bad_option():
    X, _ = _scaled_clusters(1, n=800)
    fits = [fit_gaussian_mixture(X, 5, random_state=3, precision=p) for p in ("mixed", "float64")]
    assert fits[0].log_likelihood == pytest.approx(fits[1].log_likelihood, abs=1e-3)
    assert np.mean(fits[0].labels == fits[1].labels) >= 0.99
    with pytest.raises(ValueError, match="precision"):
        fit_gaussian_mixture(X, 5, precision="float16")


def test_dense_kmeans_equals_sklearn_lloyd_from_same_seeds():
    from sklearn.cluster import KMeans

    from weakfs.pu._fscpu._gmm_kernels import csr_rows

    X, _ = _scaled_clusters(2)
    csr = csr_rows(X)[:3]
    x_sq = (X * X).sum(1)
    assert len(csr[2]) > _kmeans.DENSE_KMEANS_FRACTION * X.size  # the BLAS-distance path
    seeds = _kmeans._kmeans_plusplus(X, csr, 4, x_sq, np.random.RandomState(0), dense=True)
    # the same seeds as the sparse-distance seeding (distances equal to rounding)
    seeds_csr = _kmeans._kmeans_plusplus(X, csr, 4, x_sq, np.random.RandomState(0))
    np.testing.assert_allclose(seeds, seeds_csr)
    ours, centers, inertia = kmeans(X, 4, random_state=0)
    km = KMeans(4, init=seeds, n_init=1, algorithm="lloyd").fit(X)
    assert np.array_equal(ours, km.labels_)
    np.testing.assert_allclose(centers, km.cluster_centers_, atol=1e-10)
    assert inertia == pytest.approx(km.inertia_, rel=1e-9)


def test_vectorised_exp_within_one_ulp_of_math_exp():
    from weakfs.pu._fscpu._gmm_dense_kernels import _exp_shifted

    x = np.concatenate([-np.geomspace(1e-12, 707.9, 4000), [0.0, -1e-300, -708.1, -745.0]])
    row, tot = x.copy(), np.zeros_like(x)
    _exp_shifted(row, np.zeros_like(x), np.empty(x.size, dtype=np.int64), tot)
    expected = np.array([math.exp(v) for v in x])
    keep = x >= -708.0
    ulps = np.abs(row[keep] - expected[keep]) / np.spacing(expected[keep])
    assert ulps.max() <= 1.0
    assert np.all(row[~keep] == 0.0)  # subnormal results (< 1e-307) are flushed to 0
    np.testing.assert_array_equal(tot, row)


def test_mixed_precision_falls_back_to_float64_where_float32_loses_the_covariance():
    # two nearly collinear columns in the 1e4-1e5s (as raisin's areas): the float32 E-step
    # makes a covariance singular, float64 (and scikit-learn) fit; the fit is then float64's
    from weakfs.pu._fscpu import _gmm

    rng = np.random.RandomState(28)
    a = rng.gamma(4, 20000, size=500) + 25000
    Z = np.c_[a, a * 1.04 + rng.normal(0, 2500, 500)]
    X = np.ascontiguousarray(Z - Z.mean(axis=0))
    labels = _gmm._kmeans(Z, _gmm.csr_rows(Z)[:-1], 10, 300, 1e-4, np.random.RandomState(0))[0]
    resp = np.zeros((500, 10))
    resp[np.arange(500), labels] = 1.0
    with pytest.raises(np.linalg.LinAlgError):  # the float32 path alone
        _gmm._DenseEM(X, 10, 1e-6, "mixed").run(resp, 1e-3, 100)
    mixed = _gmm.fit_gaussian_mixture(Z, 10, random_state=0)
    exact = _gmm.fit_gaussian_mixture(Z, 10, random_state=0, precision="float64")
    np.testing.assert_array_equal(mixed.labels, exact.labels)
    assert mixed.log_likelihood == exact.log_likelihood


@pytest.mark.parametrize("d", [1, 2, 7, 40])
def test_dense_terms_against_numpy_factor_and_condition_number(d):
    # the E-step coefficients, and the infinity-norm condition number that picks the moments'
    # precision: exact near the limit, elsewhere a bound on the same side of it (the only side
    # the EM reads), against numpy's Cholesky factor and inverse
    from weakfs.pu._fscpu._gmm_kernels import dense_terms

    rng = np.random.RandomState(d)
    K = 3
    A = rng.normal(size=(K, d, d))
    cov = A @ A.transpose(0, 2, 1) / d + np.eye(d) * np.array([1e-4, 1e-2, 1.0])[:, None, None]
    if d == 40:  # rank-deficient sample covariances, as with fewer rows than columns
        B = rng.normal(size=(K, d, 10))
        cov[:2] = (B @ B.transpose(0, 2, 1) / 10)[:2] + 1e-3 * np.eye(d)
    means, weights = rng.normal(size=(K, d)), np.array([0.2, 0.3, 0.5])
    stack, const, cond = np.empty((K * d, d + 1)), np.empty(K), np.empty(K)
    true_cond = np.array(
        [np.abs(c).sum(axis=1).max() * np.abs(np.linalg.inv(c)).sum(axis=1).max() for c in cov]
    )
    assert dense_terms(cov, means, weights, stack, const, cond, 1e4)
    x = rng.normal(size=d)
    for k in range(K):
        U = np.linalg.inv(np.linalg.cholesky(cov[k])).T
        z = stack[k * d : (k + 1) * d] @ np.r_[x, 1.0]
        np.testing.assert_allclose(z, U.T @ (x - means[k]), rtol=1e-8, atol=1e-8)
        log_det = np.log(np.diag(U)).sum()
        expected = -0.5 * d * math.log(2 * math.pi) + log_det + math.log(weights[k])
        assert const[k] == pytest.approx(expected, rel=1e-10)
    for limit in [1.0, 3.0, 30.0, 1e3, 1e4, 1e5, 1e7, 1e9, *true_cond]:
        assert dense_terms(cov, means, weights, stack, const, cond, limit)
        near = np.abs(true_cond - limit) <= 1e-9 * limit
        # near the limit the exact condition number; elsewhere a lower bound above the limit
        # or an upper bound below it
        np.testing.assert_allclose(cond[near], true_cond[near], rtol=1e-9)
        np.testing.assert_array_equal((cond <= limit)[~near], (true_cond <= limit)[~near])
        above = cond > limit
        assert np.all(cond[above] <= true_cond[above] * (1 + 1e-9))
        assert np.all(cond[~above] >= true_cond[~above] * (1 - 1e-9))
    cov[1, 0, 0] = -1.0  # not positive definite
    assert not dense_terms(cov, means, weights, stack, const, cond, 1e4)


def test_dense_covariances_equal_numpy_steps():
    # the dense M-step's covariances in one numba pass: bit-identical to numpy's whole-array
    # steps (the same operations in the same order for every entry)
    from weakfs.pu._fscpu._gmm_kernels import dense_covariances

    rng = np.random.RandomState(3)
    for K, d in [(1, 1), (3, 2), (10, 17), (4, 60)]:
        acc = rng.normal(size=(K * d, d + 1)) * 10.0
        nk = rng.uniform(0.5, 40.0, size=K) + 1e-10
        centers = rng.normal(size=(K, d))
        s1 = acc[:, d].reshape(K, d)
        shift = s1 / nk[:, None]
        expected = acc[:, :d].reshape(K, d, d) - s1[:, :, None] * centers[:, None, :]
        expected /= nk[:, None, None]
        expected -= shift[:, :, None] * shift[:, None, :]
        expected = 0.5 * (expected + expected.transpose(0, 2, 1))
        expected[:, np.arange(d), np.arange(d)] += 1e-6
        cov = np.empty((K, d, d))
        dense_covariances(acc, s1, centers, nk, shift, 1e-6, cov)
        np.testing.assert_array_equal(cov, expected)


def test_transient_random_state_gives_the_seeds_stream():
    # FSCPU's candidates reseed one generator per thread: the same draws as RandomState(seed),
    # whatever the generator drew before (a cached Gaussian included); other inputs as
    # scikit-learn's check_random_state
    from weakfs._validation import transient_random_state

    rng = transient_random_state(5)
    rng.normal()  # leaves half of a Gaussian pair cached
    for seed in (0, 7, np.int64(2**31 - 2)):
        again = transient_random_state(seed)
        assert again is rng
        fresh = np.random.RandomState(seed)
        assert again.normal() == fresh.normal()
        np.testing.assert_array_equal(again.randint(0, 1000, 20), fresh.randint(0, 1000, 20))
    own = np.random.RandomState(3)
    assert transient_random_state(own) is own
    assert isinstance(transient_random_state(None), np.random.RandomState)
    with pytest.raises(ValueError):
        transient_random_state(-1)
