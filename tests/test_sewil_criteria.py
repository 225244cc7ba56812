"""SEW-IL criteria against hand-computed values on tiny vote matrices."""

import numpy as np
import pytest

from weakfs.semi_supervised import (
    CBILCriterion,
    CBoundCriterion,
    ForestEvidence,
    OOBErrorCriterion,
    TransductiveBoundCriterion,
)
from weakfs.semi_supervised._criteria import (
    c_bound,
    cbil,
    get_criterion,
    margin_moments,
    margins,
    mislabeling_matrix,
    transductive_bound,
)

V2 = np.array([[0.7, 0.3], [0.4, 0.6]])


def test_margins_by_hand():
    np.testing.assert_allclose(margins(V2), [[0.4, -0.4], [-0.2, 0.2]])
    v3 = np.array([[0.5, 0.3, 0.2], [0.4, 0.4, 0.2]])
    np.testing.assert_allclose(margins(v3), [[0.2, -0.2, -0.3], [0.0, 0.0, -0.2]])


def test_moments_and_c_bound_by_hand():
    # row 1: E = .7*.4 + .3*(-.4) = .16, E2 = .16; row 2: E = .4*(-.2) + .6*.2 = .04, E2 = .04
    mu1, mu2 = margin_moments(V2)
    assert mu1 == pytest.approx(0.1)
    assert mu2 == pytest.approx(0.1)
    assert c_bound(V2) == pytest.approx(1 - 0.01 / 0.1)


def test_mislabeling_matrix_and_cbil_by_hand():
    y_true = np.array([0, 0, 0, 0, 1, 1])
    y_pred = np.array([0, 0, 0, 1, 1, 0])
    p = mislabeling_matrix(y_true, y_pred, 2)
    np.testing.assert_allclose(p, [[0.75, 0.5], [0.25, 0.5]])
    gamma = 0.75 + 0.5
    assert cbil(V2, p) == pytest.approx(1 - 0.1 / gamma)
    # perfect labels: gamma = sum_j max_i p_ij = K (Theorem 2.4 as stated)
    assert cbil(V2, np.eye(2)) == pytest.approx(1 - 0.1 / 2)
    # Proposition 2.3's beta = max_i sum_j p_ij: rows sum to 1.25 and .75 -> beta = 1.25
    assert cbil(V2, p, correction="beta") == pytest.approx(1 - 0.1 / 1.25)
    assert cbil(V2, np.eye(2), correction="beta") == pytest.approx(c_bound(V2))


def test_c_bound_trivial_when_mean_margin_not_positive():
    assert c_bound(np.array([[0.5, 0.5], [0.5, 0.5]])) == 1.0


def test_criterion_objects_on_evidence():
    oob = np.array([[0.7, 0.3], [0.4, 0.6], [0.2, 0.8], [np.nan, np.nan]])
    y = np.array([0, 0, 1, 1])
    true = np.array([True, True, False, False])
    ev = ForestEvidence(oob, y, true, unlabeled_votes=V2)
    # valid rows: first three; labeled rows: 0 (pred 0, ok) and 1 (pred 1, wrong)
    np.testing.assert_allclose(ev.mislabeling(), [[0.5, 0.0], [0.5, 1.0]])
    assert OOBErrorCriterion()(ev) == pytest.approx(1 / 3)
    vv = oob[:3]
    assert CBoundCriterion()(ev) == pytest.approx(c_bound(vv))
    assert CBILCriterion()(ev) == pytest.approx(cbil(vv, ev.mislabeling()))
    assert TransductiveBoundCriterion()(ev) == pytest.approx(transductive_bound(V2))


def test_transductive_bound_by_hand():
    # rows (0.9, 0.1) and (0.2, 0.8): u = (1.1, 0.9), predictions 0 and 1
    # i=0, k=1: rows predicted 1: v_0 = .2, v_1 = .8; K = .2*.8/1.1; I, M count that row once
    # gamma > .8 (m >= 40); below that I = M = 0 and the bound K/gamma decreases in gamma, so the
    # infimum over the grid is min(K/0.8 [gamma=.8 excluded: v<gamma strict], .2/1.1 + 0)
    v = np.array([[0.9, 0.1], [0.2, 0.8]])
    k01 = 0.2 * 0.8 / 1.1
    b01 = min(k01 / 0.8, 0.2 / 1.1)
    # i=1, k=0: row predicted 0: v_1 = .1, v_0 = .9; K = .1*.9/.9 = .1; set {v_0 < gamma} holds it
    # for gamma > .9: bound = .1/.9 + max(.1 - .1, 0) = .1111; before: .1/gamma >= .1/.9
    b10 = min(0.1 / 0.9, 0.1 / 0.9)
    expected = (1.1 * b01 + 0.9 * b10) / 2
    assert transductive_bound(v) == pytest.approx(expected)


def test_transductive_bound_small_for_confident_correct_votes():
    v = np.array([[0.95, 0.05]] * 5 + [[0.05, 0.95]] * 5)
    v_bad = np.array([[0.55, 0.45]] * 5 + [[0.45, 0.55]] * 5)
    assert transductive_bound(v) < transductive_bound(v_bad)


def test_get_criterion():
    assert isinstance(get_criterion("cbil"), CBILCriterion)
    with pytest.raises(ValueError, match="unknown criterion"):
        get_criterion("nope")
    with pytest.raises(TypeError):
        get_criterion(3)


def _reference_tb_printed(votes, n_grid=50):
    """The transductive bound with theta = 0 as the authors' loops compute it (I and M over all
    rows with v_k < gamma), one row at a time."""
    n_u, n_classes = votes.shape
    pred = votes.argmax(axis=1)
    matrix = np.zeros((n_classes, n_classes))
    for i in range(n_classes):
        li = votes[:, i].sum()
        for k in range(n_classes):
            if i == k or li <= 0:
                continue
            seen = []
            for m in range(n_grid):
                gamma = (m + 1) / n_grid
                big_i = sum(votes[x, i] for x in range(n_u) if votes[x, k] < gamma) / li
                big_k = sum(votes[x, i] * votes[x, k] for x in range(n_u) if pred[x] == k) / li
                big_m = sum(votes[x, i] * votes[x, k] for x in range(n_u) if votes[x, k] < gamma)
                seen.append(big_i + max(big_k - big_m / li, 0.0) / gamma)
                if m > 3 and seen[-1] > seen[-2] and seen[-2] >= seen[-3]:
                    break
            matrix[i, k] = min(seen)
    return float(votes.sum(axis=0) @ matrix.sum(axis=1) / n_u)


@pytest.mark.parametrize("seed", [0, 1])
def test_printed_transductive_bound_against_the_loops(seed):
    votes = np.random.RandomState(seed).dirichlet([0.6, 0.6, 0.6], size=12)
    assert transductive_bound(votes, sums="all") == pytest.approx(_reference_tb_printed(votes))
    # the restricted sums (our default) differ from the printed ones
    assert transductive_bound(votes) != pytest.approx(transductive_bound(votes, sums="all"))
    with pytest.raises(ValueError, match="sums"):
        transductive_bound(votes, sums="some")


def test_printed_tb_counts_the_rows_of_other_predictions():
    # rows (0.9, 0.1) and (0.2, 0.8): for i = 0, k = 1 the printed I, M also count row 1
    # (v_1 = 0.1 < gamma); the minimum over the grid is at gamma = 0.8 (row 2 counted from 0.82)
    v = np.array([[0.9, 0.1], [0.2, 0.8]])
    k01, m01 = 0.2 * 0.8 / 1.1, 0.9 * 0.1 / 1.1
    b01 = 0.9 / 1.1 + (k01 - m01) / 0.8
    # i = 1, k = 0: K = .1 * .9 / .9; below gamma = .92 only row 2 (v_0 = .2) counts:
    # I = .8 / .9, M = .16 / .9 > K, so the bound is I; before (gamma <= .2) it is K / gamma
    b10 = min(0.1 / 0.2, 0.8 / 0.9)
    assert transductive_bound(v, sums="all") == pytest.approx((1.1 * b01 + 0.9 * b10) / 2)


def test_criteria_by_name():
    beta = get_criterion("cbil-beta")
    assert isinstance(beta, CBILCriterion) and beta.correction == "beta"
    assert beta.name == "cbil-beta" and get_criterion("cbil").name == "cbil"
    printed = get_criterion("tb-printed")
    assert isinstance(printed, TransductiveBoundCriterion) and printed.sums == "all"
    assert printed.name == "tb-printed" and get_criterion("tb").sums == "predicted"
    assert TransductiveBoundCriterion(sums="all")(
        ForestEvidence(V2, np.array([0, 1]), np.array([True, True]), unlabeled_votes=V2)
    ) == pytest.approx(transductive_bound(V2, sums="all"))
    with pytest.raises(ValueError, match="sums"):
        TransductiveBoundCriterion(sums="nope")


def test_cbil_beta_is_the_c_bound_without_label_errors():
    # every labeled row predicted right out of bag: p = I, so beta = 1 (Proposition 2.3) and
    # CBIL with beta is the plain C-bound, while Theorem 2.4's gamma = K divides by K
    oob = np.array([[0.7, 0.2, 0.1], [0.2, 0.6, 0.2], [0.1, 0.3, 0.6], [0.5, 0.4, 0.1]])
    ev = ForestEvidence(oob, np.array([0, 1, 2, 0]), np.array([True, True, True, False]))
    np.testing.assert_array_equal(ev.mislabeling(), np.eye(3))
    assert get_criterion("cbil-beta")(ev) == pytest.approx(CBoundCriterion()(ev))
    mu1, mu2 = margin_moments(oob)
    assert get_criterion("cbil")(ev) == pytest.approx(1 - mu1**2 / mu2 / 3)


def test_beta_never_exceeds_gamma():
    rng = np.random.RandomState(0)
    for _ in range(50):
        p = rng.dirichlet(np.ones(4), size=4).T  # columns sum to 1, as P(Yhat = i | Y = j)
        assert cbil(V2, p, correction="beta") <= cbil(V2, p) + 1e-12


def test_cbil_with_margins_at_the_labels_by_hand():
    # V2's margins at labels (0, 1): .4 and .2 -> mu1 = .3, mu2 = (.16 + .04) / 2 = .1
    assert margin_moments(V2, np.array([0, 1])) == pytest.approx((0.3, 0.1))
    # at labels (1, 0) both margins are negative: the trivial bound
    assert cbil(V2, np.eye(2), labels=np.array([1, 0])) == 1.0
    oob = np.array([[0.7, 0.3], [0.4, 0.6], [0.2, 0.8], [np.nan, np.nan]])
    ev = ForestEvidence(oob, np.array([0, 0, 1, 1]), np.array([True, True, False, False]))
    # valid rows 0-2: margins at their labels .4, -.2, .6 -> mu1 = .8 / 3, mu2 = .56 / 3
    gamma = float(np.sum(np.max(ev.mislabeling(), axis=0)))
    expected = 1 - (0.8 / 3) ** 2 / (0.56 / 3) / gamma
    assert get_criterion("cbil-labels")(ev) == pytest.approx(expected)
    # the vote-weighted reading never reads the labels; this one does
    flipped = ForestEvidence(oob, np.array([1, 1, 0, 0]), np.array([True, True, False, False]))
    assert get_criterion("cbil-labels")(flipped) != pytest.approx(expected)
    with pytest.raises(ValueError, match="margins"):
        CBILCriterion(margins="nope")
