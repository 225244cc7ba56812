"""``estimate_class_prior``: every method on a separable SCAR problem, the two conventions,
reproducibility, errors, BBE's threshold search on known score distributions, TIcE against
hand-computed bounds, DEDPUL's density ratio and kink against brute force, the small-table rule
and the bootstrap interval."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import PredefinedSplit
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from weakfs.pu import ClassPriorEstimate, WidePriorIntervalWarning, estimate_class_prior
from weakfs.pu._prior import METHODS, SMALL_TABLE_ROWS, _estimate_many
from weakfs.pu._prior_estimators import (
    _dedpul_kink,
    _kde_on_grid,
    bbe_mixture_proportion,
    dedpul_density_ratio,
    dedpul_mixture_proportion,
    tice_c,
)


def _single_set(n=2000, prior=0.3, label_frequency=0.5, seed=0):
    """Two well-separated Gaussians; a SCAR share of the positives labeled."""
    rng = np.random.RandomState(seed)
    y = (rng.rand(n) < prior).astype(int)
    X = rng.normal(0, 1, (n, 2)) + 6 * y[:, None]
    s = y * (rng.rand(n) < label_frequency)
    return X, s, y


def _case_control(n_l=300, n_u=1000, prior=0.3, seed=1):
    """Labeled positives drawn apart from an unlabeled sample of the marginal."""
    rng = np.random.RandomState(seed)
    yu = (rng.rand(n_u) < prior).astype(int)
    X = np.vstack([rng.normal(6, 1, (n_l, 2)), rng.normal(0, 1, (n_u, 2)) + 6 * yu[:, None]])
    s = np.r_[np.ones(n_l), np.zeros(n_u)].astype(int)
    return X, s, yu


def _model(method):
    # a linear model is enough for these Gaussians and keeps the tests fast; TIcE takes none
    return None if method == "tice" else LogisticRegression()


# TIcE returns a lower confidence bound on c (its margin is ~0.06 on pure subsets of ~500 rows
# here), so it overestimates the prior by design on small samples.
TOLERANCE = {"bbe": 0.03, "dedpul": 0.03, "elkan-noto": 0.03, "tice": 0.07}


@pytest.mark.parametrize("method", METHODS)
def test_each_method_recovers_a_separated_prior(method):
    X, s, y = _single_set()
    est = estimate_class_prior(X, s, method=method, estimator=_model(method), random_state=0)
    assert est == pytest.approx(y.mean(), abs=TOLERANCE[method])
    if method == "tice":
        assert est >= y.mean() - 0.01  # the bias has a known sign


@pytest.mark.parametrize("method", METHODS)
def test_case_control_convention(method):
    X, s, yu = _case_control()
    est = estimate_class_prior(
        X, s, method=method, unlabeled="unlabeled", estimator=_model(method), random_state=0
    )
    assert est == pytest.approx(yu.mean(), abs=TOLERANCE[method])


def test_default_model_and_method():
    X, s, y = _single_set(label_frequency=0.3)
    assert estimate_class_prior(X, s, random_state=0) == pytest.approx(y.mean(), abs=0.03)


def test_bbe_conventions_are_one_conversion_apart():
    # same folds and scores, so the same alpha: pi_all = (n_l + alpha n_u) / n exactly
    X, s, _ = _single_set(n=600)
    kw = dict(method="bbe", estimator=LogisticRegression(), random_state=3)
    alpha = estimate_class_prior(X, s, unlabeled="unlabeled", **kw)
    n, n_l = s.size, int(s.sum())
    expected = (n_l + alpha * (n - n_l)) / n
    assert estimate_class_prior(X, s, **kw) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_reproducible_with_random_state(method):
    X, s, _ = _single_set(n=600, seed=2)
    first = estimate_class_prior(X, s, method=method, estimator=_model(method), random_state=7)
    again = estimate_class_prior(X, s, method=method, estimator=_model(method), random_state=7)
    assert first == again


def test_tice_takes_sparse_input():
    X, s, _ = _single_set(n=600, seed=4)
    X = np.abs(X)  # mostly nonzero; the point is the same bins through the sparse path
    dense = estimate_class_prior(X, s, method="tice", random_state=0)
    assert estimate_class_prior(sp.csr_matrix(X), s, method="tice", random_state=0) == dense


def test_tice_measures_its_bounds_on_the_held_out_fold():
    # One binary feature, two folds.  Fold 0 (40 rows): x=1 -> 20 rows, all labeled; x=0 -> 20
    # unlabeled.  Fold 1 (200 rows): x=1 and x=0 -> 100 rows each, 30 labeled in each.
    x = np.r_[np.ones(20), np.zeros(20), np.ones(100), np.zeros(100)]
    s = np.r_[np.ones(20), np.zeros(20), np.ones(30), np.zeros(70), np.ones(30), np.zeros(70)]
    folds = PredefinedSplit(np.r_[np.zeros(40, int), np.ones(200, int)])

    def margin(c, n_est, n_subset):  # sqrt(c(1-c)(1-delta)/(delta T)), delta from n_est rows
        delta = max(0.025, 1 / (1 + 0.004 * n_est))
        return math.sqrt(c * (1 - c) * (1 - delta) / (delta * n_subset))

    # Tree on fold 0: it splits on x, but measured on fold 1 neither half beats the whole fold's
    # labeled share 60/200 (each is 0.3 minus a margin), so that fold gives 0.3.  (Measured on
    # the tree's own rows, as the authors' released script does below the root, the pure x=1
    # half would give 1 - margin ~ 0.9.)  Tree on fold 1: measured on fold 0, the x=1 half is
    # pure, 20 rows: 1 - margin.  Two passes, the first with c = 0.5 in the margin.
    c = 0.5
    for _ in range(2):
        c = (60 / 200 + 1 - margin(c, 40, 20)) / 2
    assert tice_c(x[:, None], s.astype(int), folds) == pytest.approx(c, rel=1e-12)


def test_bbe_finds_the_pure_top_bin():
    # positives score in [0.5, 1], negatives in [0, 0.6]: above 0.6 only positives remain
    rng = np.random.RandomState(0)
    alpha, n_u = 0.4, 20_000
    pos = rng.uniform(0.5, 1.0, 5000)
    y_u = rng.rand(n_u) < alpha
    unl = np.where(y_u, rng.uniform(0.5, 1.0, n_u), rng.uniform(0.0, 0.6, n_u))
    assert bbe_mixture_proportion(pos, unl) == pytest.approx(y_u.mean(), abs=0.02)
    # no negatives at all: alpha = 1
    assert bbe_mixture_proportion(pos, rng.uniform(0.5, 1.0, 3000)) == pytest.approx(1, abs=0.05)


def test_bad_method_lists_the_methods():
    X, s, _ = _single_set(n=100)
    # scikit-learn's validate_params, as its own public functions: the parameter and its options
    with pytest.raises(ValueError, match="'method' parameter of estimate_class_prior") as error:
        estimate_class_prior(X, s, method="km2")
    assert all(repr(m) in str(error.value) for m in ("bbe", "dedpul", "elkan-noto", "tice"))


def test_tice_rejects_a_classifier():
    X, s, _ = _single_set(n=100)
    with pytest.raises(ValueError, match="uses no classifier"):
        estimate_class_prior(X, s, method="tice", estimator=LogisticRegression())


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(unlabeled="some"), "'unlabeled' parameter of estimate_class_prior must be"),
        (dict(min_prior=0.5), r"'min_prior' parameter .* in the range \(0(\.0)?, 0\.5\)"),
        (dict(cv=1), "cv >= 2"),
    ],
)
def test_bad_options(kwargs, match):
    X, s, _ = _single_set(n=100)
    with pytest.raises(ValueError, match=match):
        estimate_class_prior(X, s, **kwargs)


@pytest.mark.parametrize("method", METHODS)
def test_bad_data(method):
    X, s, _ = _single_set(n=100)
    with pytest.raises(ValueError, match="rows but y has"):
        estimate_class_prior(X[:50], s, method=method)
    with pytest.raises(ValueError, match="2-dimensional"):
        estimate_class_prior(X[:, 0], s, method=method)
    with pytest.raises(ValueError, match="at least 2 labeled"):
        estimate_class_prior(X[:10], np.r_[1, np.zeros(9)].astype(int), method=method)


# ---------------------------------------------------------------------------------------------
# DEDPUL


def test_kde_on_grid_matches_the_exact_kernel_sum():
    rng = np.random.RandomState(0)
    x = np.r_[rng.normal(0, 1, 200), rng.normal(4, 0.5, 50)]
    grid = np.linspace(-6, 9, 4096)
    h = 0.3
    exact = np.exp(-0.5 * ((grid[:, None] - x[None, :]) / h) ** 2).sum(1) / (
        x.size * h * math.sqrt(2 * math.pi)
    )
    assert np.max(np.abs(_kde_on_grid(x, grid, h) - exact)) < 1e-3 * exact.max()


def _brute_force_kink(ratio, step=1e-3):
    """DEDPUL's grid search: the most negative second difference of e(a) on a = 0, step, ..., 1."""
    grid = np.arange(0, 1 + step / 2, step)
    err = np.array([np.minimum(1, a * ratio).mean() - a for a in grid])
    return grid[1:-1][np.argmin(np.diff(err, 2))]


@pytest.mark.parametrize("seed", range(5))
def test_dedpul_kink_matches_the_grid_search(seed):
    # isotonic-like ratios: plateaus of random sizes, averaging 1
    rng = np.random.RandomState(seed)
    levels = np.sort(rng.gamma(2.0, 1.0, rng.randint(3, 12)))
    ratio = np.repeat(levels, rng.randint(1, 40, levels.size)).astype(float)
    ratio /= ratio.mean()
    # the grid puts a break between two grid points: within one step of the exact location
    assert _dedpul_kink(ratio) == pytest.approx(_brute_force_kink(ratio), abs=1.5e-3)


def test_dedpul_kink_of_a_single_plateau_and_of_no_information():
    # 30 % of the rows at ratio 1/0.3 (all positive at alpha = 0.3), the rest at 0: alpha = 0.3
    ratio = np.r_[np.full(30, 1 / 0.3), np.zeros(70)]
    assert _dedpul_kink(ratio) == pytest.approx(0.3)
    assert _dedpul_kink(np.ones(50)) == 1.0  # U looks exactly like P: all positive


def test_dedpul_ratio_is_monotone_and_averages_one():
    rng = np.random.RandomState(1)
    pos = rng.beta(6, 2, 300)
    unl = np.r_[rng.beta(6, 2, 400), rng.beta(2, 6, 600)]
    ratio = dedpul_density_ratio(pos, unl)
    order = np.argsort(unl)
    assert np.all(np.diff(ratio[order]) >= -1e-12)
    assert ratio.mean() == pytest.approx(1.0)


def test_dedpul_recovers_the_mixture_proportion():
    # positives score in [0.5, 1], negatives in [0, 0.6] (as BBE's test): alpha = 0.4
    rng = np.random.RandomState(0)
    alpha, n_u = 0.4, 5000
    pos = rng.uniform(0.5, 1.0, 2000)
    y_u = rng.rand(n_u) < alpha
    unl = np.where(y_u, rng.uniform(0.5, 1.0, n_u), rng.uniform(0.0, 0.6, n_u))
    assert dedpul_mixture_proportion(pos, unl) == pytest.approx(y_u.mean(), abs=0.04)
    # identical scores everywhere: nothing tells the samples apart, alpha = 1
    assert dedpul_mixture_proportion(np.full(20, 0.3), np.full(80, 0.3)) == pytest.approx(1.0)


# ---------------------------------------------------------------------------------------------
# the small-table rule


def test_small_tables_get_logistic_scores_and_ten_folds():
    X, s, y = _single_set(n=300, label_frequency=0.3, seed=3)
    assert X.shape[0] < SMALL_TABLE_ROWS
    est = estimate_class_prior(X, s, return_interval=True, n_bootstrap=10, cv=3, random_state=0)
    assert est.method == "bbe"
    # the point estimate is the same number without the interval
    assert estimate_class_prior(X, s, cv=3, random_state=0) == est.prior
    # the small-table rule: the logistic regression with 10 folds
    logistic = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=1000))
    rule = estimate_class_prior(X, s, random_state=0)
    assert rule == estimate_class_prior(X, s, estimator=logistic, cv=10, random_state=0)
    assert rule == pytest.approx(y.mean(), abs=0.03)


# ---------------------------------------------------------------------------------------------
# the interval


def test_interval_holds_the_estimate_and_covers_an_easy_truth():
    X, s, y = _single_set(n=300, label_frequency=0.4, seed=5)
    kw = dict(return_interval=True, n_bootstrap=20, cv=3, random_state=0)
    est = estimate_class_prior(X, s, **kw)
    prior, (low, high) = est  # the tuple form
    assert isinstance(est, ClassPriorEstimate) and prior == est.prior
    assert low <= prior <= high and (low, high) == est.interval
    assert low <= y.mean() <= high
    assert est.width < 0.2 and not est.is_wide and est.bootstrap_estimates.shape == (20,)
    assert est.confidence == 0.9 and "refitted" in est.interval_method
    assert est.summary().startswith(f"{prior:.2f} (90 % interval {low:.2f}–{high:.2f}")
    # a higher confidence gives a wider interval from the same resamples
    wider = estimate_class_prior(X, s, confidence=0.99, **kw)
    assert wider.low <= low and wider.high >= high


def test_interval_on_a_large_table_resamples_the_scores():
    X, s, y = _single_set(n=2000, label_frequency=0.3, seed=6)
    est = estimate_class_prior(
        X, s, estimator=LogisticRegression(), return_interval=True, n_bootstrap=50, random_state=0
    )
    assert est.method == "bbe" and "computed once" in est.interval_method
    assert est.low <= y.mean() <= est.high and est.width < 0.1
    point = estimate_class_prior(X, s, estimator=LogisticRegression(), random_state=0)
    assert est.prior == point


def test_interval_is_reproducible_and_shared_between_methods():
    X, s, _ = _single_set(n=200, label_frequency=0.5, seed=7)
    kw = dict(return_interval=True, n_bootstrap=10, cv=3, random_state=4)
    a = estimate_class_prior(X, s, method="bbe", **kw)
    b = estimate_class_prior(X, s, method="bbe", **kw)
    assert np.array_equal(a.bootstrap_estimates, b.bootstrap_estimates) and a.prior == b.prior
    many = _estimate_many(X, s, ["bbe", "dedpul"], **kw)
    assert np.array_equal(many["bbe"].bootstrap_estimates, a.bootstrap_estimates)
    dedpul = estimate_class_prior(X, s, method="dedpul", **kw)
    assert np.array_equal(many["dedpul"].bootstrap_estimates, dedpul.bootstrap_estimates)


def test_wide_interval_warns():
    # overlapping classes, few labeled rows: the prior is poorly determined
    rng = np.random.RandomState(0)
    y = (rng.rand(200) < 0.4).astype(int)
    X = rng.normal(0, 1, (200, 3)) + 0.5 * y[:, None]
    s = y * (rng.rand(200) < 0.3)
    with pytest.warns(WidePriorIntervalWarning, match="poorly determined"):
        est = estimate_class_prior(X, s, return_interval=True, n_bootstrap=20, cv=3, random_state=0)
    assert est.is_wide and est.width > 0.2


def test_tice_interval():
    X, s, _ = _single_set(n=300, label_frequency=0.5, seed=8)
    est = estimate_class_prior(
        X, s, method="tice", return_interval=True, n_bootstrap=10, random_state=0
    )
    assert est.method == "tice" and est.low <= est.prior <= est.high


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(confidence=0.0), r"'confidence' parameter .* in the range \(0(\.0)?, 1(\.0)?\)"),
        (dict(confidence=1.0), r"'confidence' parameter .* in the range \(0(\.0)?, 1(\.0)?\)"),
        (dict(confidence=90), r"'confidence' parameter .* in the range \(0(\.0)?, 1(\.0)?\)"),
        (dict(confidence="0.9"), r"'confidence' parameter .* in the range \(0(\.0)?, 1(\.0)?\)"),
        (dict(n_bootstrap=5), r"'n_bootstrap' parameter .* int in the range \[10, inf\)"),
        (dict(n_bootstrap=20.0), r"'n_bootstrap' parameter .* int in the range \[10, inf\)"),
    ],
)
def test_bad_interval_settings(kwargs, match):
    X, s, _ = _single_set(n=100)
    with pytest.raises(ValueError, match=match):
        estimate_class_prior(X, s, return_interval=True, **kwargs)


def test_interval_needs_ten_labeled_rows():
    X, s, _ = _single_set(n=300, label_frequency=0.3)
    s = s.copy()
    s[np.flatnonzero(s)[8:]] = 0  # 8 labeled rows: a point estimate, but no interval
    assert 0 < estimate_class_prior(X, s, random_state=0) < 1
    with pytest.raises(ValueError, match="needs at least 10 labeled and 10 unlabeled rows"):
        estimate_class_prior(X, s, return_interval=True, random_state=0)


def test_bad_cv():
    X, s, _ = _single_set(n=100)
    with pytest.raises(ValueError, match="'cv' parameter of estimate_class_prior must be"):
        estimate_class_prior(X, s, cv="ten")
