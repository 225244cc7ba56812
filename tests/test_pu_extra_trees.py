"""PU Extra Trees: closed forms vs brute force, split choice, importances, invariants, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar
from sklearn.feature_selection import SelectFromModel
from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier

from weakfs.pu import PUExtraTreesClassifier, estimate_class_prior
from weakfs.pu._pu_extra_trees import _kernels as K

RISKS = {"uPU": K.RISK_UPU, "nnPU": K.RISK_NNPU}
LOSSES = {
    "quadratic": K.LOSS_QUADRATIC,
    "logistic": K.LOSS_LOGISTIC,
    "sigmoid": K.LOSS_SIGMOID,
    "savage": K.LOSS_SAVAGE,
}


# ---------------------------------------------------------------------------------------------
# brute force: minimise the partial empirical risk numerically over v (paper eq. 5-6)
# ---------------------------------------------------------------------------------------------
def _loss(name, v, y):
    z = v * y
    if name == "quadratic":
        return (1 - z) ** 2
    if name == "logistic":
        return np.logaddexp(0.0, -z)
    if name == "savage":
        return (1.0 - np.tanh(z / 2.0)) ** 2  # 4 / (1 + e^z)^2, overflow-free
    return 0.5 * (1.0 - np.tanh(z / 2.0))  # sigmoid 1 / (1 + e^z), overflow-free


def _partial_risk(v, Wp, Wn, loss, risk):
    pos = Wp * _loss(loss, v, 1)
    neg = Wn * _loss(loss, v, -1)
    return pos + (max(0.0, neg) if risk == "nnPU" else neg)


def brute_min_risk(Wp, Wn, loss, risk):
    """Infimum over v of the partial risk: a fine grid, refined by a bounded search; -inf if the
    risk keeps decreasing without bound."""
    # logistic/quadratic/sigmoid in v: search on a wide bounded range; sigmoid/logistic/savage
    # saturate, so also evaluate far out
    far = [_partial_risk(v, Wp, Wn, loss, risk) for v in (-60.0, -30.0, 30.0, 60.0, 1e4, -1e4)]
    if loss in ("quadratic", "logistic") and risk == "uPU":
        r1, r2 = _partial_risk(1e3, Wp, Wn, loss, risk), _partial_risk(1e6, Wp, Wn, loss, risk)
        if r2 < r1 - 1e-9 and r2 < -1.0:
            return -np.inf
    grid = np.linspace(-40, 40, 8001)
    vals = np.array([_partial_risk(v, Wp, Wn, loss, risk) for v in grid])
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    res = minimize_scalar(
        lambda v: _partial_risk(v, Wp, Wn, loss, risk),
        bounds=(lo, hi),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return min(res.fun, vals.min(), *far)


CASES = [
    # (cp, cu, wp, wu): ordinary, v* > 1, v* = +inf (no U row), v* = 0, v* = 1, v* close to 1
    (3, 10, 0.02, 0.01),
    (5, 3, 0.05, 0.01),
    (4, 0, 0.05, 0.01),
    (0, 7, 0.05, 0.01),
    (2, 4, 0.05, 0.025),
    (10, 40, 0.01, 0.0025),
    (1, 50, 0.3, 0.01),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("risk", ["uPU", "nnPU"])
@pytest.mark.parametrize("loss", ["quadratic", "logistic", "savage", "sigmoid"])
def test_node_risk_matches_brute_force(case, risk, loss):
    cp, cu, wp, wu = case
    kloss = LOSSES[loss]
    r, v, T = K.node_risk(cp, cu, RISKS[risk], kloss, wp, wu)
    Wp = cp * wp
    Wn = cu * wu - Wp
    assert T == pytest.approx(cu * wu)
    if cu == 0:
        assert v == np.inf
    else:
        assert v == pytest.approx(Wp / (Wp + Wn))
    expected = brute_min_risk(Wp, Wn, loss, risk)
    if expected == -np.inf:
        assert r == -np.inf
    else:
        assert r == pytest.approx(expected, abs=1e-7)


def test_closed_forms_edge_cases():
    q, lg, sg = K.LOSS_QUADRATIC, K.LOSS_LOGISTIC, K.LOSS_SIGMOID
    # no unlabeled row: v* = inf -> uPU -inf for quadratic/logistic, nnPU 0
    assert K.node_risk(3, 0, K.RISK_UPU, q, 0.1, 0.1)[0] == -np.inf
    assert K.node_risk(3, 0, K.RISK_UPU, lg, 0.1, 0.1)[0] == -np.inf
    assert K.node_risk(3, 0, K.RISK_NNPU, q, 0.1, 0.1)[0] == 0.0
    assert K.node_risk(3, 0, K.RISK_NNPU, lg, 0.1, 0.1)[0] == 0.0
    # v* > 1 finite: uPU quadratic is negative 4 T v (1 - v), uPU logistic -inf, nnPU 0
    r, v, T = K.node_risk(3, 2, K.RISK_UPU, q, 0.1, 0.1)
    assert v == pytest.approx(1.5) and r == pytest.approx(4 * T * 1.5 * (1 - 1.5))
    assert K.node_risk(3, 2, K.RISK_UPU, lg, 0.1, 0.1)[0] == -np.inf
    assert K.node_risk(3, 2, K.RISK_NNPU, q, 0.1, 0.1)[0] == 0.0
    assert K.node_risk(3, 2, K.RISK_NNPU, lg, 0.1, 0.1)[0] == 0.0
    # v* = 1 and v* = 0: zero risk
    assert K.node_risk(2, 2, K.RISK_UPU, lg, 0.1, 0.1)[0] == 0.0
    assert K.node_risk(0, 5, K.RISK_UPU, q, 0.1, 0.1)[0] == 0.0
    # sigmoid: min(W_p, W_n)
    assert K.node_risk(3, 10, K.RISK_UPU, sg, 0.1, 0.1)[0] == pytest.approx(min(0.3, 0.7))
    assert K.node_risk(3, 2, K.RISK_UPU, sg, 0.1, 0.1)[0] == pytest.approx(-0.1)
    # PN: quadratic = 2 |S| w Gini, logistic = |S| w entropy (Theorem 1)
    p, n_, N = 3, 7, 20
    r, _, _ = K.node_risk(p, n_, K.RISK_PN, q, 1 / N, 1 / N)
    qp = p / (p + n_)
    assert r == pytest.approx(2 * (p + n_) / N * 2 * qp * (1 - qp))
    r, _, _ = K.node_risk(p, n_, K.RISK_PN, lg, 1 / N, 1 / N)
    assert r == pytest.approx((p + n_) / N * -(qp * math.log(qp) + (1 - qp) * math.log(1 - qp)))


# ---------------------------------------------------------------------------------------------
# a Python re-implementation of the growing loop (same RNG), with risks from the brute-force-
# checked formulas: the compiled tree must be identical node by node
# ---------------------------------------------------------------------------------------------
M64 = (1 << 64) - 1


class SplitMix:
    def __init__(self, seed):
        self.s = seed & M64
        self.next()

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)

    def randint(self, lo, hi):
        return lo + self.next() % (hi - lo)


def py_risk(cp, cu, risk, loss, wp, wu):
    Wp = cp * wp
    T = cu * wu
    Wn = T - Wp
    if cu == 0:
        if risk == "nnPU":
            return 0.0
        return -Wp if loss == "sigmoid" else -np.inf
    v = Wp / T
    if abs(Wp - T) <= 1e-12 * T:
        v, Wn = 1.0, 0.0
    if loss == "quadratic":
        if risk == "nnPU":
            return 0.0 if v > 1 else max(0.0, 4 * Wp * Wn / T)
        return 4 * Wp * Wn / T
    if loss == "logistic":
        if v > 1:
            return -np.inf if risk == "uPU" else 0.0
        if v <= 0 or v >= 1:
            return 0.0
        return T * -(v * math.log(v) + (1 - v) * math.log(1 - v))
    m = min(Wp, Wn)
    return max(0.0, m) if risk == "nnPU" else m


def py_grow(X, s, prior, risk, loss, max_features, max_candidates, seed):
    """Reference grower on U = all rows; returns a list of (feature, threshold, n_rows)."""
    X = X.astype(np.float32)
    n, d = X.shape
    wp, wu = prior / s.sum(), 1.0 / n
    rng = SplitMix(seed)
    feats = list(range(d))
    out = []
    stack = [(list(range(n)), 0)]
    while stack:
        rows, n_known = stack.pop()
        cp, cu = int(s[rows].sum()), len(rows)
        r = py_risk(cp, cu, risk, loss, wp, wu)
        pure = r == -np.inf if risk == "uPU" else r <= 1e-12 * cu * wu
        node = [-1, 0.0, len(rows)]
        out.append(node)
        if len(rows) < 2 or pure:
            continue
        best = None
        n_found, n_visited, f_i = 0, 0, d
        candidates = []
        while f_i > n_known + n_found and n_visited < max_features:
            j = rng.randint(n_known + n_found, f_i)
            f = feats[j]
            vals = X[rows, f]
            uniq = np.unique(vals)
            if uniq.size == 1:
                feats[j], feats[n_known + n_found] = feats[n_known + n_found], f
                n_found += 1
                continue
            f_i -= 1
            feats[j], feats[f_i] = feats[f_i], f
            n_visited += 1
            a, b, c, e = (float(uniq[0]), float(uniq[1]), float(uniq[-2]), float(uniq[-1]))
            lo, hi = a + 0.4 * (b - a), c + 0.6 * (e - c)
            for _ in range(max_candidates):
                t = lo + (hi - lo) * rng.uniform()
                left = vals <= t
                lcp, lcu = int(s[rows][left].sum()), int(left.sum())
                rr = (
                    r
                    - py_risk(lcp, lcu, risk, loss, wp, wu)
                    - py_risk(cp - lcp, cu - lcu, risk, loss, wp, wu)
                )
                candidates.append((rr, f, t))
                if best is None or rr > best[0]:
                    best = (rr, f, t)
        if best is None:
            continue
        # the chosen split is the best of the sampled candidates
        assert best[0] == max(c[0] for c in candidates)
        node[0], node[1] = best[1], best[2]
        rows_arr = np.array(rows)
        go_left = X[rows_arr, best[1]] <= best[2]
        # same in-place partition order as the kernel
        i, jj = 0, len(rows)
        rows = list(rows)
        while i < jj:
            if X[rows[i], best[1]] <= best[2]:
                i += 1
            else:
                jj -= 1
                rows[i], rows[jj] = rows[jj], rows[i]
        assert i == go_left.sum()
        stack.append((rows[i:], n_known + n_found))
        stack.append((rows[:i], n_known + n_found))
    return out


@pytest.mark.parametrize("risk", ["uPU", "nnPU"])
@pytest.mark.parametrize("loss", ["quadratic", "logistic", "sigmoid"])
def test_tree_equals_python_reference(risk, loss):
    rng = np.random.RandomState(3)
    X = rng.randint(0, 4, size=(40, 5)).astype(float)
    X[:, 2] = 1.0  # a constant feature
    s = (rng.rand(40) < 0.3).astype(int)
    s[0] = 1
    clf = PUExtraTreesClassifier(
        n_estimators=1,
        risk=risk,
        loss=loss,
        prior=0.45,
        max_features=2,
        max_candidates=2,
        random_state=0,
    ).fit(X, s)
    tree = clf.trees_[0]
    from weakfs._validation import spawn_seeds

    seed = int(spawn_seeds(0, 1)[0])
    ref = py_grow(X, s, 0.45, risk, loss, 2, 2, seed)
    assert len(ref) == tree.node_count
    for node, (f, t, n_rows) in enumerate(ref):
        assert tree.feature[node] == f
        assert tree.n_node_samples[node] == n_rows
        if f >= 0:
            assert tree.threshold[node] == pytest.approx(t, abs=0, rel=1e-15)
            assert 2 not in (f,)  # the constant feature is never chosen


def test_best_splitter_finds_the_best_threshold():
    rng = np.random.RandomState(0)
    X = rng.rand(30, 3)
    s = (rng.rand(30) < 0.4).astype(int)
    s[0] = 1
    clf = PUExtraTreesClassifier(
        n_estimators=1,
        splitter="best",
        max_features=None,
        prior=0.5,
        max_depth=1,
        random_state=0,
    ).fit(X, s)
    tree = clf.trees_[0]
    X32 = X.astype(np.float32).astype(np.float64)
    wp, wu = 0.5 / s.sum(), 1 / 30
    root = py_risk(s.sum(), 30, "nnPU", "quadratic", wp, wu)
    best = -np.inf
    for f in range(3):
        u = np.unique(X32[:, f])
        for t in (u[:-1] + u[1:]) / 2:
            left = X32[:, f] <= t
            rr = (
                root
                - py_risk(s[left].sum(), left.sum(), "nnPU", "quadratic", wp, wu)
                - py_risk(s[~left].sum(), (~left).sum(), "nnPU", "quadratic", wp, wu)
            )
            best = max(best, rr)
    assert tree.risk_reduction()[0] == pytest.approx(best, rel=1e-9)


def test_pn_quadratic_is_gini():
    rng = np.random.RandomState(1)
    X = rng.rand(60, 4)
    y = (X[:, 1] + 0.3 * rng.rand(60) > 0.6).astype(int)
    ours = PUExtraTreesClassifier(
        n_estimators=1, risk="PN", splitter="best", max_features=None, max_depth=1, random_state=0
    ).fit(X, y)
    sk = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X.astype(np.float32), y)
    assert ours.trees_[0].feature[0] == sk.tree_.feature[0]
    assert ours.trees_[0].threshold[0] == pytest.approx(sk.tree_.threshold[0], rel=1e-6)
    # risk reduction = 2 |S| w * Gini impurity reduction (Theorem 1a), |S| w = 1 at the root
    t = sk.tree_
    ir = t.impurity[0] - sum(
        t.weighted_n_node_samples[c] / t.weighted_n_node_samples[0] * t.impurity[c]
        for c in (t.children_left[0], t.children_right[0])
    )
    assert ours.trees_[0].risk_reduction()[0] == pytest.approx(2 * ir, rel=1e-9)


@pytest.mark.parametrize("risk", ["nnPU", "PN"])
def test_savage_grows_the_same_trees_as_quadratic(risk):
    rng = np.random.RandomState(2)
    X = rng.rand(80, 6)
    s = (rng.rand(80) < 0.3).astype(int)
    a = PUExtraTreesClassifier(5, risk=risk, loss="quadratic", prior=0.4, random_state=3).fit(X, s)
    b = PUExtraTreesClassifier(5, risk=risk, loss="savage", prior=0.4, random_state=3).fit(X, s)
    for ta, tb in zip(a.trees_, b.trees_, strict=True):
        np.testing.assert_array_equal(ta.feature, tb.feature)
        np.testing.assert_array_equal(ta.threshold, tb.threshold)


# ---------------------------------------------------------------------------------------------
# importances and invariants
# ---------------------------------------------------------------------------------------------
def test_importances_sum_to_root_risk():
    rng = np.random.RandomState(0)
    X = rng.rand(200, 6)  # continuous: no duplicate rows, so fully grown leaves are pure
    y_true = (X[:, 0] + X[:, 1] > 1).astype(int)
    s = y_true * (rng.rand(200) < 0.5)
    prior = y_true.mean()
    clf = PUExtraTreesClassifier(20, prior=prior, random_state=0).fit(X, s)
    assert clf.feature_importances_.sum() == pytest.approx(4 * prior * (1 - prior), rel=1e-9)
    for tree in clf.trees_:
        assert tree.risk[0] == pytest.approx(4 * prior * (1 - prior))
        leaves = tree.left < 0
        assert np.all(tree.risk[leaves] <= 1e-12)
    # informative features dominate
    assert set(np.argsort(clf.feature_importances_)[-2:]) == {0, 1}
    norm = PUExtraTreesClassifier(20, prior=prior, importance="normalized", random_state=0).fit(
        X, s
    )
    np.testing.assert_allclose(norm.feature_importances_, clf.risk_reduction_importances(True))


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    loss=st.sampled_from(["quadratic", "logistic", "sigmoid"]),
    prior=st.floats(0.1, 0.9),
    unlabeled=st.sampled_from(["all", "unlabeled"]),
    splitter=st.sampled_from(["random", "best"]),
)
def test_nnpu_trees_never_hold_negative_risk(seed, loss, prior, unlabeled, splitter):
    rng = np.random.RandomState(seed)
    n = rng.randint(10, 60)
    X = rng.randint(0, 5, size=(n, 3)).astype(float)
    s = (rng.rand(n) < 0.5).astype(int)
    s[0], s[1] = 1, 0
    if unlabeled == "all":  # the prior of all rows is at least their labeled share
        prior = max(prior, s.mean())
    clf = PUExtraTreesClassifier(
        3, loss=loss, prior=prior, unlabeled=unlabeled, splitter=splitter, random_state=seed
    ).fit(X, s)
    for tree in clf.trees_:
        assert np.all(tree.risk >= 0)
        # children partition their parent's rows
        internal = tree.left >= 0
        np.testing.assert_array_equal(
            tree.n_node_samples[internal],
            tree.n_node_samples[tree.left[internal]] + tree.n_node_samples[tree.right[internal]],
        )
    proba = clf.predict_proba(X)
    assert np.all((proba >= 0) & (proba <= 1))


def test_upu_grows_larger_trees_and_stops_only_at_minus_infinity():
    rng = np.random.RandomState(0)
    X = rng.rand(300, 5)
    y_true = (X[:, 0] > 0.5).astype(int)
    s = y_true * (rng.rand(300) < 0.3)
    nn = PUExtraTreesClassifier(10, prior=0.5, random_state=0).fit(X, s)
    u = PUExtraTreesClassifier(10, risk="uPU", loss="logistic", prior=0.5, random_state=0).fit(X, s)
    assert u.get_n_leaves().mean() > nn.get_n_leaves().mean()
    for tree in u.trees_:
        leaves = tree.left < 0
        # a uPU leaf is -inf, or cannot be split (one row / constant rows)
        assert np.all((tree.risk[leaves] == -np.inf) | (tree.n_node_samples[leaves] == 1))


def test_reproducible_whatever_n_jobs():
    rng = np.random.RandomState(0)
    X = rng.rand(300, 8)
    s = (X[:, 0] > 0.7).astype(int)
    a = PUExtraTreesClassifier(12, prior=0.35, random_state=5, n_jobs=1).fit(X, s)
    b = PUExtraTreesClassifier(12, prior=0.35, random_state=5, n_jobs=2).fit(X, s)
    for ta, tb in zip(a.trees_, b.trees_, strict=True):
        np.testing.assert_array_equal(ta.threshold, tb.threshold)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    c = PUExtraTreesClassifier(12, prior=0.35, random_state=5, bootstrap=True, n_jobs=2).fit(X, s)
    d = PUExtraTreesClassifier(12, prior=0.35, random_state=5, bootstrap=True, n_jobs=1).fit(X, s)
    np.testing.assert_array_equal(c.predict_proba(X), d.predict_proba(X))


def test_predict_vote_proba_apply_and_select_from_model():
    rng = np.random.RandomState(0)
    X = rng.rand(200, 6)
    y_true = (X[:, 0] > 0.5).astype(int)
    s = y_true * (rng.rand(200) < 0.5)
    clf = PUExtraTreesClassifier(15, prior=0.5, random_state=0).fit(X, s)
    leaves = clf.apply(X)
    assert leaves.shape == (200, 15)
    # hard vote from apply(): share of trees whose leaf has v* > 0.5
    share = np.mean([clf.trees_[t].value[leaves[:, t]] > 0.5 for t in range(15)], axis=0)
    np.testing.assert_array_equal(clf.predict(X), (share > 0.5).astype(int))
    proba = np.mean([np.clip(clf.trees_[t].value[leaves[:, t]], 0, 1) for t in range(15)], axis=0)
    np.testing.assert_allclose(clf.predict_proba(X)[:, 1], proba)
    soft = PUExtraTreesClassifier(15, prior=0.5, random_state=0, voting="soft").fit(X, s)
    np.testing.assert_array_equal(soft.predict(X), (proba > 0.5).astype(int))
    assert (clf.predict(X) == y_true).mean() > 0.9
    sel = SelectFromModel(PUExtraTreesClassifier(15, prior=0.5, random_state=0)).fit(X, s)
    assert sel.get_support()[0]


def test_case_control_unlabeled_only():
    rng = np.random.RandomState(0)
    X = rng.rand(200, 4)
    s = np.zeros(200, dtype=int)
    s[:40] = 1
    clf = PUExtraTreesClassifier(3, prior=0.3, unlabeled="unlabeled", random_state=0).fit(X, s)
    tree = clf.trees_[0]
    # root: W_p = pi, W_p + W_n = n_u w_u = 1
    assert tree.weight[0] == pytest.approx(1.0)
    assert tree.value[0] == pytest.approx(0.3)


def test_prior_auto_uses_the_estimator():
    rng = np.random.RandomState(0)
    X = np.vstack([rng.normal(0, 1, (150, 2)), rng.normal(5, 1, (150, 2))])
    y_true = np.r_[np.zeros(150), np.ones(150)].astype(int)
    s = y_true * (rng.rand(300) < 0.5)
    clf = PUExtraTreesClassifier(3, random_state=0).fit(X, s)
    assert abs(clf.prior_ - 0.5) < 0.08
    assert clf.prior_ == estimate_class_prior(X, s, random_state=0)


def test_estimate_class_prior_both_conventions():
    rng = np.random.RandomState(1)
    lr = LogisticRegression()
    # single training set: 30 % positives, 40 % of them labeled
    y = (rng.rand(2000) < 0.3).astype(int)
    X = rng.normal(0, 1, (2000, 2)) + 6 * y[:, None]
    s = y * (rng.rand(2000) < 0.4)
    assert estimate_class_prior(X, s, estimator=lr, random_state=0) == pytest.approx(0.3, abs=0.03)
    # case-control: 300 labeled positives drawn apart, 1000 unlabeled rows with 30 % positives
    yu = (rng.rand(1000) < 0.3).astype(int)
    Xc = np.vstack([rng.normal(6, 1, (300, 2)), rng.normal(0, 1, (1000, 2)) + 6 * yu[:, None]])
    sc = np.r_[np.ones(300), np.zeros(1000)].astype(int)
    est = estimate_class_prior(Xc, sc, unlabeled="unlabeled", estimator=lr, random_state=0)
    assert est == pytest.approx(yu.mean(), abs=0.03)
    with pytest.raises(ValueError, match="at least 2 labeled"):
        estimate_class_prior(X[:10], np.r_[1, np.zeros(9)].astype(int))
    with pytest.raises(ValueError, match="'unlabeled' parameter of estimate_class_prior"):
        estimate_class_prior(X, s, unlabeled="some")


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------
def test_bad_input_errors():
    X = np.random.RandomState(0).rand(20, 3)
    s = np.r_[np.ones(5), np.zeros(15)].astype(int)
    clf = PUExtraTreesClassifier(2, prior=0.4)
    with pytest.raises(ValueError, match="all 20 rows are unlabeled"):
        clf.fit(X, np.zeros(20))
    with pytest.raises(ValueError, match="all 20 rows are labeled positive"):
        clf.fit(X, np.ones(20))
    with pytest.raises(ValueError, match="prior"):
        PUExtraTreesClassifier(2, prior=1.5).fit(X, s)
    with pytest.raises(ValueError, match="prior"):
        PUExtraTreesClassifier(2, prior=0.0).fit(X, s)
    Xn = X.copy()
    Xn[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        clf.fit(Xn, s)
    with pytest.raises(ValueError, match="PU labels"):
        clf.fit(X, np.r_[np.full(5, 2), np.zeros(15)])
    with pytest.raises(ValueError, match="binary"):
        PUExtraTreesClassifier(2, risk="PN").fit(X, np.arange(20) % 3)
    with pytest.raises(ValueError, match="max_features"):
        PUExtraTreesClassifier(2, prior=0.4, max_features=4).fit(X, s)
    from scipy import sparse

    with pytest.raises(ValueError, match="NaN"):  # sparse input is taken, but not NaN in it
        X_nan = sparse.csr_matrix(X)
        X_nan.data[0] = np.nan
        clf.fit(X_nan, s)
    clf.fit(X, s)
    with pytest.raises(ValueError, match="features"):
        clf.predict(X[:, :2])
