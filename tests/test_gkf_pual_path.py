"""GKF-PUAL's λ1 path: where it starts (λ1_max from the KKT conditions), warm starts against cold
fits, exactly k features from the selector, the order in which variables leave the path, and the
path plot."""

import numpy as np
import pandas as pd
import pytest

from weakfs.model_selection import PUGridGreedySearch
from weakfs.pu import (
    GKFPUALClassifier,
    GKFPUALPath,
    GKFPUALSelector,
    GLLCClassifier,
    gkf_pual_path,
)

TIGHT = {"tol": 1e-6, "abs_tol": 1e-8}
SMALL = {"lambda2": 0.01, "sigma": 1e-3}  # the settings of test_gkf_pual's selection tests


def _problem(n=200, n_noise=4, seed=0, rate=0.6):
    """A quadratic boundary in the first two columns; the others are N(0, 1) noise."""
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, 2 + n_noise))
    y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    s = (y.astype(bool) & (rng.uniform(size=n) < rate)).astype(int)
    return X, y, s


# C2 = 0.3: C1·n_P < 4·C2·n_U, λ1_max in closed form; C2 = 0.02: every labeled positive at the
# hinge's kink, λ1_max bracketed by bisection
@pytest.mark.parametrize(("C2", "exact"), [(0.3, True), (0.02, False)])
def test_lambda1_max_zeroes_every_group_and_just_below_one_enters(C2, exact):
    pytest.importorskip("cvxpy")
    X, _, s = _problem()
    path = gkf_pual_path(X, s, n_lambdas=6, C2=C2, standardize=False, **SMALL, **TIGHT)
    assert path.lambda1_max_exact is exact
    assert path.lambdas[0] == path.lambda1_max and not path.support[0].any()
    assert np.all(path.coefs[0] == 0)
    # an independent solver: zero at λ1_max, a group clearly non-zero 2 % below it
    from test_gkf_pual import _cvx_optimum, _pieces

    _, so, d, S, G, R = _pieces(X, s, sigma=SMALL["sigma"])
    kw = {"C1": 1.0, "C2": C2, "lambda2": SMALL["lambda2"]}
    at, _, _ = _cvx_optimum(S, so, G, R, d, lambda1=path.lambda1_max * 1.001, **kw)
    below, _, _ = _cvx_optimum(S, so, G, R, d, lambda1=path.lambda1_max * 0.98, **kw)
    assert np.linalg.norm(at[d.groups], axis=1).max() < 1e-5
    assert np.linalg.norm(below[d.groups], axis=1).max() > 1e-3
    # our solver agrees just below λ1_max
    clf = GKFPUALClassifier(
        lambda1=path.lambda1_max * 0.98, C2=C2, standardize=False, **SMALL, **TIGHT
    ).fit(X, s)
    assert clf.group_norms_.max() > 1e-3


def test_closed_form_lambda1_max_is_tight_for_our_solver():
    X, _, s = _problem()
    path = gkf_pual_path(X, s, n_lambdas=3, C2=0.3, **SMALL, **TIGHT)
    above = GKFPUALClassifier(lambda1=path.lambda1_max * 1.02, C2=0.3, **SMALL, **TIGHT)
    assert not above.fit(X, s).support_.any()
    below = GKFPUALClassifier(lambda1=path.lambda1_max * 0.99, C2=0.3, **SMALL, **TIGHT)
    assert below.fit(X, s).support_.any()


@pytest.mark.parametrize("C2", [0.3, 0.02])
def test_warm_started_path_equals_cold_fits(C2):
    X, _, s = _problem(n=150, n_noise=3, seed=1)
    path = gkf_pual_path(X, s, n_lambdas=8, C2=C2, **SMALL, **TIGHT)
    assert path.converged.all()
    for lam, objective, support in zip(path.lambdas, path.objectives, path.support):
        cold = GKFPUALClassifier(lambda1=lam, C2=C2, **SMALL, **TIGHT).fit(X, s)
        assert abs(objective - cold.objective_) <= 1e-4 * abs(cold.objective_)
        if support.sum() > 1:  # away from λ1_max, where a cold start leaves tiny groups
            np.testing.assert_array_equal(support, cold.support_)
    # the linear systems are factored a handful of times, not once per λ1
    assert path.n_factorizations < 3 * len(path.lambdas)


def test_relevant_variables_are_the_last_to_leave_the_path():
    X, _, s = _problem(n=400, n_noise=6, seed=4, rate=0.8)
    path = gkf_pual_path(X, s, n_lambdas=40, C2=0.3, **SMALL)
    exit_lambda = path.exit_lambdas()
    assert exit_lambda[:2].min() > exit_lambda[2:].max()
    # and the picture of the path agrees: the first non-zero groups are the relevant ones
    first = np.flatnonzero(path.n_nonzero > 0)[0]
    assert set(np.flatnonzero(path.support[first])) <= {0, 1}


def test_path_object_and_explicit_lambdas():
    X, _, s = _problem(n=120, n_noise=2)
    df = pd.DataFrame(X, columns=["r0", "r1", "n0", "n1"])
    path = gkf_pual_path(df, s, [5.0, 50.0, 0.0, 1.0], C2=0.3, **SMALL)
    assert isinstance(path, GKFPUALPath)
    np.testing.assert_array_equal(path.lambdas, [50.0, 5.0, 1.0, 0.0])
    assert path.feature_names.tolist() == ["r0", "r1", "n0", "n1"]
    assert path.support[-1].all()  # λ1 = 0 is KF-PUAL: every feature kept
    A, b, beta0 = path.quadratic(2)
    clf = GKFPUALClassifier(lambda1=1.0, C2=0.3, **SMALL).fit(df, s)
    np.testing.assert_allclose(A, clf.A_, atol=1e-2)
    assert b.shape == (4,) and isinstance(beta0, float)
    with pytest.raises(ValueError, match="lambdas"):
        gkf_pual_path(X, s, [-1.0])
    with pytest.raises(ValueError, match="n_lambdas"):
        gkf_pual_path(X, s, n_lambdas=0)
    with pytest.raises(ValueError, match="eps"):
        gkf_pual_path(X, s, eps=1.5)
    with pytest.raises(ValueError, match="C2"):
        gkf_pual_path(X, s, C2=-1.0)


@pytest.mark.parametrize("k", [1, 2, 3, 6])
def test_selector_keeps_exactly_k_features(k):
    X, _, s = _problem()
    est = GKFPUALClassifier(C2=0.3, **SMALL)
    sel = GKFPUALSelector(est, n_features_to_select=k, n_lambdas=20).fit(X, s)
    assert sel.support_.sum() == k and sel.transform(X).shape == (200, k)
    assert sel.estimator_.lambda1 == sel.lambda1_
    assert sel.path_ is not None and sel.lambda1_ <= sel.path_.lambda1_max
    if k <= 2:  # the boundary's two columns come first
        assert set(sel.get_support(indices=True)) <= {0, 1}


def test_selector_breaks_ties_by_group_norm():
    # several groups enter together at λ1_max: the k largest of the refit are kept
    X, _, s = _problem(n=150, n_noise=3, seed=1)
    est = GKFPUALClassifier(C2=0.02, **SMALL)
    sel = GKFPUALSelector(est, n_features_to_select=2, n_lambdas=10).fit(X, s)
    assert sel.support_.sum() == 2
    norms = sel.estimator_.group_norms_
    if sel.estimator_.support_.sum() > 2:
        assert norms[sel.support_].min() >= norms[~sel.support_].max()


@pytest.mark.parametrize("k", [0, -1, 7, True, 1.5, 0.5, "2"])
def test_out_of_range_k_is_a_clear_error(k):
    X, _, s = _problem()
    with pytest.raises(ValueError, match="n_features_to_select"):
        GKFPUALSelector(n_features_to_select=k).fit(X, s)


def test_none_keeps_the_group_lasso_choice():
    X, _, s = _problem(n=400, n_noise=6, seed=4, rate=0.8)
    est = GKFPUALClassifier(lambda1=90.0, C2=0.3, standardize=False, **SMALL)
    sel = GKFPUALSelector(est).fit(X, s)
    ref = GKFPUALClassifier(**est.get_params()).fit(X, s)
    np.testing.assert_array_equal(sel.support_, ref.support_)
    np.testing.assert_array_equal(sel.estimator_.A_, ref.A_)
    assert sel.path_ is None and sel.lambda1_ == 90.0 and sel.search_ is None


def test_selector_over_a_search_tunes_the_other_parameters():
    X, _, s = _problem(n=160, n_noise=3, seed=2)
    search = PUGridGreedySearch(
        GKFPUALClassifier(**SMALL),
        {"C2": [0.3, 0.05], "lambda1": [1.0, 10.0]},
        greedy_params=[],
        random_state=0,
    )
    sel = GKFPUALSelector(search, n_features_to_select=2, n_lambdas=10).fit(X, s)
    assert sel.search_ is not None and sel.support_.sum() == 2
    assert sel.estimator_.C2 == sel.search_.best_params_["C2"]
    plain = GKFPUALSelector(search).fit(X, s)
    np.testing.assert_array_equal(plain.support_, plain.search_.best_estimator_.support_)
    from weakfs.pu import GLLCClassifier

    with pytest.raises(ValueError, match="PUGridGreedySearch over one"):
        GKFPUALSelector(PUGridGreedySearch(GLLCClassifier(), {"C2": [0.1]})).fit(X, s)


def test_path_plot(tmp_path):
    pytest.importorskip("matplotlib")
    from weakfs.plotting import plot_gkf_pual_path

    X, _, s = _problem()
    df = pd.DataFrame(X, columns=["radius_x", "radius_y", "n0", "n1", "n2", "n3"])
    est = GKFPUALClassifier(C2=0.3, **SMALL)
    sel = GKFPUALSelector(est, n_features_to_select=2, n_lambdas=12).fit(df, s)
    out = tmp_path / "path.png"
    fig = plot_gkf_pual_path(sel, highlight=[0, 1], title="toy", path=out)
    assert out.stat().st_size > 0 and len(fig.axes) == 2
    labels = {t.get_text() for t in fig.axes[1].texts}
    assert {"radius_x", "radius_y"} <= labels
    with pytest.raises(ValueError, match="no path"):
        plot_gkf_pual_path(GKFPUALSelector(est).fit(X, s))
    with pytest.raises(ValueError, match="feature_names"):
        plot_gkf_pual_path(sel.path_, feature_names=["a"])


def test_fit_path_copies_equal_cold_fits_in_the_callers_order():
    X, _, s = _problem(n=150, n_noise=3, seed=1)
    lambdas = [1e-3, 10.0, 0.1, 1.0]  # not sorted: the copies come back in this order
    fitted = GKFPUALClassifier(C2=0.3, **SMALL, **TIGHT)._fit_path(X, s, lambdas)
    assert [f.lambda1 for f in fitted] == lambdas
    for lam, warm in zip(lambdas, fitted):
        cold = GKFPUALClassifier(lambda1=lam, C2=0.3, **SMALL, **TIGHT).fit(X, s)
        assert abs(warm.objective_ - cold.objective_) <= 1e-4 * abs(cold.objective_)
        np.testing.assert_allclose(
            warm.decision_function(X), cold.decision_function(X), atol=1e-3, rtol=1e-3
        )
        np.testing.assert_array_equal(warm.predict(X[:5]), cold.predict(X[:5]))


def test_grid_search_along_lambda1_paths_scores_every_grid_point_as_separate_fits():
    X, _, s = _problem(n=160, n_noise=2, seed=2)
    grid = {"lambda1": [1e-3, 0.1, 10.0], "C2": [0.3, 0.05], "lambda2": [0.01], "sigma": [1e-3]}
    kw = {"greedy_params": [], "cv": 3, "random_state": 0}
    plain = PUGridGreedySearch(GKFPUALClassifier(**TIGHT), grid, **kw).fit(X, s)
    paths = PUGridGreedySearch(GKFPUALClassifier(**TIGHT), grid, path_param="lambda1", **kw)
    paths.fit(X, s)
    key = lambda r: tuple(sorted(r["params"].items()))  # noqa: E731
    a = {key(r): r["fold_scores"] for r in plain.cv_results_}
    b = {key(r): r["fold_scores"] for r in paths.cv_results_}
    assert a.keys() == b.keys() and len(a) == 6
    for k in a:
        np.testing.assert_allclose(a[k], b[k], atol=0.05)
    assert paths.best_params_ == plain.best_params_


@pytest.mark.parametrize(
    ("estimator", "path_param", "match"),
    [
        (GKFPUALClassifier(), "lambda2", "cannot fit a path over 'lambda2'"),
        (GKFPUALClassifier(), "C1", "not a key of param_grid"),
        (GLLCClassifier(), "lambda1", "GLLCClassifier cannot fit a path over 'lambda1'"),
    ],
)
def test_path_param_errors(estimator, path_param, match):
    X, _, s = _problem(n=80, n_noise=1)
    grid = {"lambda1": [0.1, 1.0], "lambda2": [0.1]}
    with pytest.raises(ValueError, match=match):
        PUGridGreedySearch(estimator, grid, path_param=path_param).fit(X, s)


def test_too_many_features_points_to_the_prefilter_and_the_prefilter_screens_by_relevance():
    """256 features refused with no way out (about 25 GB); now the message offers the
    documented screening, which keeps the features of largest I(X_j; s)."""
    from weakfs._information import EncodedColumns, discretize
    from weakfs.pu import GKFPUALClassifier, GKFPUALSelector

    rng = np.random.RandomState(0)
    X = rng.normal(size=(150, 256))
    y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    s = y * (rng.uniform(size=150) < 0.6)
    with pytest.raises(ValueError, match=r"prefilter=\d+\) \(or prefilter='auto'"):
        GKFPUALSelector(n_features_to_select=2).fit(X, s)
    est = GKFPUALClassifier(C2=0.3, lambda2=0.01, sigma=1e-3)
    sel = GKFPUALSelector(est, n_features_to_select=2, prefilter=6, n_lambdas=10).fit(X, s)
    relevance = EncodedColumns(discretize(X, 5)).mutual_information(s)
    assert set(np.flatnonzero(sel.screened_)) == set(np.argsort(-relevance, kind="stable")[:6])
    assert sel.get_support().sum() == 2 and not (sel.get_support() & ~sel.screened_).any()
    with pytest.raises(ValueError, match="more than the 6 features the prefilter keeps"):
        GKFPUALSelector(est, n_features_to_select=7, prefilter=6).fit(X, s)


def test_auto_prefilter_leaves_small_problems_as_the_paper_has_them():
    from weakfs.pu import GKFPUALClassifier, GKFPUALSelector

    rng = np.random.RandomState(1)
    X = rng.normal(size=(120, 6))
    s = ((X[:, 0] > 0.5) & (rng.uniform(size=120) < 0.6)).astype(int)
    est = GKFPUALClassifier(C2=0.3, lambda2=0.01, sigma=1e-3)
    auto = GKFPUALSelector(est, n_features_to_select=2, prefilter="auto", n_lambdas=10).fit(X, s)
    plain = GKFPUALSelector(est, n_features_to_select=2, n_lambdas=10).fit(X, s)
    assert auto.screened_ is None
    np.testing.assert_array_equal(auto.get_support(), plain.get_support())


def test_auto_prefilter_keeps_k_features_when_more_than_32_are_asked_for():
    from weakfs.pu import GKFPUALClassifier, GKFPUALSelector

    rng = np.random.RandomState(2)
    X = rng.normal(size=(150, 40))
    s = ((X[:, 0] + X[:, 1] > 0.5) & (rng.uniform(size=150) < 0.6)).astype(int)
    est = GKFPUALClassifier(C2=0.3, lambda2=0.01, sigma=1e-3, max_iter=200)
    sel = GKFPUALSelector(est, n_features_to_select=35, prefilter="auto", n_lambdas=5)
    sel.fit(X, s)
    assert sel.screened_.sum() == 35 and sel.get_support().sum() >= 35
    small = GKFPUALSelector(est, n_features_to_select=3, prefilter="auto", n_lambdas=5).fit(X, s)
    assert small.screened_.sum() == 32  # the cap when fewer are asked for


def test_the_fit_cache_serves_only_the_same_problem(monkeypatch):
    """σ = 1e-4 and 1e-3 give the same (all-zero) graph on these rows: the second fit is served
    from the cache, equal to the bit to a fit computed alone; a changed row is computed."""
    from weakfs.pu._gkf_pual import _classifier, _fit_cache

    X, _, s = _problem(n=120, n_noise=2, seed=2)
    _fit_cache.clear()
    alone = GKFPUALClassifier(sigma=1e-3, lambda1=0.1, **TIGHT).fit(X, s)
    _fit_cache.clear()
    GKFPUALClassifier(sigma=1e-4, lambda1=0.1, **TIGHT).fit(X, s)

    def no_solve(*args, **kwargs):
        raise AssertionError("solved again")

    monkeypatch.setattr(_classifier, "_admm", no_solve)
    served = GKFPUALClassifier(sigma=1e-3, lambda1=0.1, **TIGHT).fit(X, s)
    np.testing.assert_array_equal(served.decision_function(X), alone.decision_function(X))
    assert served.n_iter_ == alone.n_iter_ and served.objective_ == alone.objective_
    X2 = X.copy()
    X2[0, 0] += 1e-9
    with pytest.raises(AssertionError, match="solved again"):
        GKFPUALClassifier(sigma=1e-3, lambda1=0.1, **TIGHT).fit(X2, s)
    _fit_cache.clear()
