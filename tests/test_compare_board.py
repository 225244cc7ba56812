"""The board's uncertainty: intervals, the top group, one recommendation, abstention with few
labels, an automatic k that does not run to the ends of a flat curve, and a budget that holds."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest

from weakfs import compare_selectors
from weakfs.compare._board import ALL_FEATURES, _auto_k, _tied, build_board, n_repeats_for
from weakfs.metrics import selection_stability


def _pu_table(n=400, d=12, informative=3, labeled=0.4, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y_true = (X[:, :informative].sum(axis=1) > 0).astype(int)
    s = y_true * (rng.rand(n) < labeled)
    return X, s, y_true


@pytest.fixture(scope="module")
def board():
    X, s, y_true = _pu_table()
    return compare_selectors(
        X, s, methods=["semi_jmi", "mrmr"], prior=0.5, y_true=y_true, n_random=3, budget=None
    )


def test_every_row_has_an_interval_and_one_row_is_recommended(board):
    assert (board["score_low"] <= board["score"]).all()
    assert (board["score"] <= board["score_high"]).all()
    assert int(board["recommended"].sum()) == 1
    assert set(board["k_rule"]) == {"auto", "fixed"}
    # exactly one automatic k per selector; the references are no candidates of their own
    auto = board[board["k_rule"] == "auto"]
    assert sorted(auto["method"]) == ["mrmr", "random", "semi_jmi"]
    recommended = board[board["recommended"]].iloc[0]
    assert recommended["tied"] or recommended["method"] == "all features"
    assert not board.loc[board["method"] == "random", "tied"].any()


def test_fold_scores_are_the_rows_scores_fold_by_fold(board):
    folds = pd.DataFrame(board.attrs["fold_scores"])
    assert set(folds["fold"]) == set(range(board.attrs["folds"]))
    means = folds.groupby(["method", "k"])[["score", "raw_score", "truth"]].mean()
    for _, row in board.iterrows():
        got = means.loc[(row["method"], row["k"])]
        assert got["score"] == pytest.approx(row["score"])
        assert got["raw_score"] == pytest.approx(row["raw_score"])
        assert got["truth"] == pytest.approx(row["truth"])


def test_the_best_candidate_is_in_the_top_group(board):
    candidates = board[(board["k_rule"] == "auto") | (board["method"] == "all features")]
    candidates = candidates[candidates["method"] != "random"]
    assert candidates.loc[candidates["score"].idxmax(), "tied"]


def test_the_recommendation_is_the_simplest_of_the_top_group(board):
    if board.attrs["verdict"] is None:
        top = board[board["tied"]]
        assert board[board["recommended"]]["k"].iloc[0] == top["k"].min()


def test_features_are_a_refit_on_all_rows_and_say_so(board):
    auto = board[(board["k_rule"] == "auto") & (board["method"] != "random")]
    assert set(auto["features_from"]) == {"refit on all rows"}
    assert all(len(f) == k for f, k in zip(auto["features"], auto["k"]))
    fixed = board[(board["k_rule"] == "fixed") & (board["method"] != "random")]
    assert set(fixed["features_from"]) <= {"chosen in the most folds", "every column"}
    # random rows hold no columns and say so, not "chosen in the most folds"
    random_rows = board[board["method"] == "random"]
    assert all(len(f) == 0 for f in random_rows["features"])
    assert set(random_rows["features_from"]) == {"none: random columns, drawn anew in every fold"}


def test_raw_pu_auc_is_beside_the_corrected_score(board):
    # the raw AUC of labeled vs unlabeled rows needs no prior and lies in [0, 1]
    assert board["raw_score"].between(0, 1).all()


def test_few_labels_abstain_and_recommend_all_features():
    X, s, _ = _pu_table(n=120, d=30, labeled=0.15, seed=1)
    assert s.sum() < 5 * 10  # fewer than 10 labeled rows per test fold
    board = compare_selectors(X, s, methods=["semi_jmi"], prior=0.5, n_random=2, budget=None)
    assert board.attrs["verdict"].startswith("The labels cannot tell these selectors apart")
    assert board.loc[board["recommended"], "method"].tolist() == ["all features"]
    assert board.attrs["verdict"] in board.attrs["notes"]


def test_fewer_labeled_rows_than_folds_run_fewer_folds_and_abstain():
    X, s, _ = _pu_table(n=60, d=8, labeled=0.15, seed=1)
    s = s.copy()
    s[np.flatnonzero(s == 1)[3:]] = 0  # three labeled positives: three folds, not five
    board = compare_selectors(
        X, s, methods=["semi_jmi"], ks=[2, 4], prior=0.5, n_random=2, budget=None
    )
    notes = board.attrs["notes"]
    assert any(n.startswith("only 3 rows in the rarest labeled group: 3 folds") for n in notes)
    assert board.attrs["folds"] % 3 == 0
    assert board.loc[board["recommended"], "method"].tolist() == ["all features"]
    s[np.flatnonzero(s == 1)[1:]] = 0  # one labeled row: nothing can be compared
    with pytest.raises(ValueError, match="too few labels to compare selectors: 1 row"):
        compare_selectors(X, s, methods=["semi_jmi"], prior=0.5, budget=None)


def test_repeats_grow_as_labels_shrink():
    assert n_repeats_for(30) == 3 and n_repeats_for(100) == 2 and n_repeats_for(500) == 1


def test_tied_is_the_paired_one_sided_test():
    rng = np.random.RandomState(0)
    best = 0.8 + 0.01 * rng.randn(10)
    assert not _tied(best - 0.001, best, 0.2)  # below on every fold, without noise: worse
    assert _tied(best - 0.001 + 0.02 * rng.randn(10), best, 0.2)  # within the noise
    assert not _tied(best - 0.2 + 0.001 * rng.randn(10), best, 0.2)
    assert _tied(best, best, 0.2)


def test_a_flat_curve_takes_the_middle_k_not_an_end():
    rng = np.random.RandomState(0)
    ks = [1, 2, 4, 8, 16, 32, 64]
    rows = pd.DataFrame({"k": ks, "score": 0.7 + 0.001 * rng.randn(len(ks))})
    fold_scores = {i: 0.7 + 0.05 * rng.randn(10) for i in range(len(ks))}
    chosen = rows.loc[_auto_k(rows, fold_scores, 0.2), "k"]
    assert chosen == 8  # the geometric middle of 1..64
    # a curve that rises to a short plateau: the smallest k on the plateau
    clear = {i: (0.5 if ks[i] < 32 else 0.9) + 0.001 * rng.randn(10) for i in range(len(ks))}
    rows["score"] = [clear[i].mean() for i in range(len(ks))]
    assert rows.loc[_auto_k(rows, clear, 0.2), "k"] == 32
    # a plateau over most of the grid: its middle, not its first k
    wide = {i: (0.5 if ks[i] < 4 else 0.9) + 0.001 * rng.randn(10) for i in range(len(ks))}
    rows["score"] = [wide[i].mean() for i in range(len(ks))]
    assert rows.loc[_auto_k(rows, wide, 0.2), "k"] == 16


def test_build_board_marks_one_recommendation_on_tiny_records():
    names = ["a", "b", "c"]
    records = []
    for f in range(4):
        records += [
            ("mrmr", f, 1, 0.9 + 0.01 * f, 0.8, np.nan, 0.1, np.array([0])),
            ("mrmr", f, 3, 0.7 + 0.01 * f, 0.7, np.nan, 0.1, np.array([0, 1, 2])),
            ("all features", f, 3, 0.7 + 0.01 * f, 0.7, np.nan, 0.0, np.array([0, 1, 2])),
            ("random", f, 1, 0.6, 0.6, np.nan, 0.0, np.array([f % 3])),
        ]
    board, verdict = build_board(
        records, names, 3, n_folds=4, test_share=0.25, min_labeled_per_fold=50,
        with_truth=False, method_order=["mrmr"],
    )  # fmt: skip
    assert verdict is None
    pick = board[board["recommended"]].iloc[0]
    assert (pick["method"], pick["k"]) == ("mrmr", 1)
    assert board["features_in_folds"][board["method"] == "random"].iloc[0] == []


def test_all_features_in_the_top_group_is_the_recommendation():
    """A smaller selection within noise of every column does not displace them."""
    names = ["a", "b", "c", "d"]
    rng = np.random.RandomState(0)
    records = []
    for f in range(10):
        noise = 0.02 * rng.randn()
        records += [
            ("mrmr", f, 1, 0.80 + noise + 0.03 * rng.randn(), 0.8, np.nan, 0.1, np.array([0])),
            ("mrmr", f, 2, 0.60 + noise, 0.7, np.nan, 0.1, np.array([0, 1])),
            ("semi_jmi", f, 1, 0.55 + noise, 0.7, np.nan, 0.1, np.array([1])),
            ("semi_jmi", f, 2, 0.50 + noise, 0.7, np.nan, 0.1, np.array([1, 2])),
            ("pu_permutation", f, 1, 0.52 + noise, 0.7, np.nan, 0.1, np.array([3])),
            ("all features", f, 4, 0.79 + noise, 0.8, np.nan, 0.0, np.arange(4)),
            ("random", f, 1, 0.5, 0.5, np.nan, 0.0, np.array([f % 4])),
        ]
    board, verdict = build_board(
        records, names, 4, n_folds=10, test_share=0.2, min_labeled_per_fold=50,
        with_truth=False, method_order=["mrmr", "semi_jmi", "pu_permutation"],
    )  # fmt: skip
    assert verdict is None  # two of four candidates tied: the labels do tell them apart
    top = board[board["tied"]]
    assert set(top["method"]) == {"mrmr", "all features"}  # mrmr k=1 is the best mean
    assert board.loc[board["recommended"], "method"].tolist() == ["all features"]


def test_stability_interval_stays_within_its_range():
    rng = np.random.RandomState(0)
    Z = np.zeros((3, 40), dtype=bool)
    for i in range(3):
        Z[i, rng.choice(40, size=2, replace=False)] = True
    Z[:, 0] = True
    est = selection_stability(Z)
    assert -1 <= est.low <= est.value <= est.high <= 1


@pytest.mark.parametrize("budget", [float("nan"), float("inf"), 1.0])
def test_a_budget_that_cannot_be_met_is_an_error(budget):
    X, s, _ = _pu_table(n=60, d=4)
    with pytest.raises(ValueError, match="budget"):
        compare_selectors(X, s, methods=["mrmr"], prior=0.5, budget=budget)


@pytest.mark.slow
def test_the_budget_holds_on_a_wide_table():
    """100 rows x 3,000 columns, 15 labeled: every step checks the deadline.  The rankers'
    first-use compilation (numba, cached on disk after the first call: up to about 20 s on a
    fresh install under load, which docs/compare.md states) is done first, so that the test
    times the plan, not the compiler."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(100, 3000))
    y_true = (X[:, 0] > 0).astype(int)
    s = y_true * (rng.rand(100) < 0.3)
    rankers = ["semi_jmi", "mrmr", "pu_extra_trees", "pu_permutation"]
    compare_selectors(X[:, :20], s, methods=rankers, ks=[2], cv=2, n_random=1, prior=0.5)
    budget = 30.0
    start = time.perf_counter()
    board = compare_selectors(X, s, prior=0.5, budget=budget)
    assert time.perf_counter() - start <= 1.15 * budget
    assert int(board["recommended"].sum()) == 1


def test_an_accuracys_interval_stays_within_zero_and_one():
    # two folds of perfect accuracy and one of 0.9: the interval around 0.967 would pass 1
    records = [
        (m, f, 2, score, np.nan, np.nan, 0.1, [0, 1])
        for m in ("a", ALL_FEATURES)
        for f, score in enumerate([1.0, 1.0, 0.9])
    ]
    kwargs = dict(n_folds=3, test_share=0.2, min_labeled_per_fold=10, with_truth=False)
    board, _ = build_board(records, list("abc"), 3, method_order=["a"], **kwargs)
    assert (board["score_high"] > 1).all()
    board, _ = build_board(
        records, list("abc"), 3, method_order=["a"], score_range=(0.0, 1.0), **kwargs
    )
    assert (board["score_low"] >= 0).all() and (board["score_high"] <= 1).all()


def _all_features_below_records() -> list[tuple]:
    """Three selections close together, all features clearly below them on every fold."""
    rng = np.random.RandomState(1)
    records = []
    for f in range(6):
        noise = 0.01 * rng.randn()
        records += [
            ("mrmr", f, 1, 0.90 + noise + 0.01 * rng.randn(), 0.8, np.nan, 0.1, np.array([0])),
            ("mrmr", f, 2, 0.89 + noise + 0.01 * rng.randn(), 0.8, np.nan, 0.1, np.array([0, 1])),
            ("semi_jmi", f, 1, 0.90 + noise + 0.01 * rng.randn(), 0.8, np.nan, 0.1, np.array([2])),
            ("all features", f, 4, 0.70 + noise, 0.7, np.nan, 0.0, np.arange(4)),
        ]
    return records


@pytest.mark.parametrize("labeled_per_fold", [2, 4])
def test_too_few_labels_keep_all_features_even_when_found_worse(labeled_per_fold):
    """With a handful of labeled rows per fold the paired test is no evidence: all features
    stays the recommendation although every fold scores it below the selections."""
    board, verdict = build_board(
        _all_features_below_records(), list("abcd"), 4, n_folds=6, test_share=0.2,
        min_labeled_per_fold=labeled_per_fold, with_truth=False, method_order=["mrmr", "semi_jmi"],
    )  # fmt: skip
    assert not board.loc[board["method"] == ALL_FEATURES, "tied"].item()
    assert board.loc[board["recommended"], "method"].tolist() == [ALL_FEATURES]
    assert f"only {labeled_per_fold} labeled rows" in verdict
    assert "scores below the best" not in verdict


def test_most_rows_tied_and_all_features_worse_still_recommends_all_features():
    """Labels that cannot separate the selections are no evidence against every column: the
    abstaining board keeps all features and says that it scores below the best."""
    board, verdict = build_board(
        _all_features_below_records(), list("abcd"), 4, n_folds=6, test_share=0.2,
        min_labeled_per_fold=50, with_truth=False, method_order=["mrmr", "semi_jmi"],
    )  # fmt: skip
    assert "within noise of the best" in verdict and "scores below the best" in verdict
    assert not board.loc[board["method"] == ALL_FEATURES, "tied"].item()
    assert board.loc[board["recommended"], "method"].tolist() == [ALL_FEATURES]


def test_an_abstaining_board_without_all_features_recommends_its_largest_tied_selection():
    records = [r for r in _all_features_below_records() if r[0] != ALL_FEATURES]
    records += [("pu_permutation", f, 3, 0.90, 0.8, np.nan, 0.1, np.arange(3)) for f in range(6)]
    board, verdict = build_board(
        records, list("abcd"), 4, n_folds=6, test_share=0.2, min_labeled_per_fold=50,
        with_truth=False, method_order=["mrmr", "semi_jmi", "pu_permutation"],
    )  # fmt: skip
    assert "largest selection of its top group" in verdict
    pick = board[board["recommended"]].iloc[0]
    assert pick["tied"] and pick["k"] == board.loc[board["tied"], "k"].max()


def test_a_selection_found_better_than_every_column_is_recommended():
    """Not abstaining (one of three candidates tied) and all features found worse: the top
    group's simplest member."""
    rng = np.random.RandomState(2)
    records = []
    for f in range(8):
        noise = 0.01 * rng.randn()
        records += [
            ("mrmr", f, 1, 0.90 + noise + 0.005 * rng.randn(), 0.8, np.nan, 0.1, np.array([0])),
            ("semi_jmi", f, 1, 0.70 + noise, 0.8, np.nan, 0.1, np.array([2])),
            ("all features", f, 4, 0.70 + noise, 0.7, np.nan, 0.0, np.arange(4)),
        ]
    board, verdict = build_board(
        records, list("abcd"), 4, n_folds=8, test_share=0.2, min_labeled_per_fold=50,
        with_truth=False, method_order=["mrmr", "semi_jmi"],
    )  # fmt: skip
    assert verdict is None
    assert board.loc[board["recommended"], "method"].tolist() == ["mrmr"]


def test_refits_on_every_column_are_costed_above_the_screened_folds():
    # the folds of a wide table read SCREEN_COLUMNS columns; a refit on 10,000 of them costs
    # more than the linear 5 times (PU permutation importance's took 9.7 times on ARCENE)
    from weakfs.compare import prior_sensitivity_seconds
    from weakfs.compare._budget import REFIT_COLUMN_EXPONENT, refit_seconds
    from weakfs.compare._folds import SCREEN_COLUMNS

    assert refit_seconds("pu_permutation", 2.0, SCREEN_COLUMNS) == pytest.approx(3.0)
    wide = refit_seconds("pu_permutation", 2.0, 5 * SCREEN_COLUMNS)
    assert wide == pytest.approx(3.0 * 5**REFIT_COLUMN_EXPONENT) and wide > 3.0 * 9.7
    board = pd.DataFrame(
        {
            "method": ["pu_extra_trees", "pu_permutation", "semi_jmi", "pu_permutation"],
            "k": [20, 10_000, 20, 50],
            "auto_k": [True, True, True, False],
            "seconds": [1.0, 50.0, 7.0, 9.0],
        }
    )
    # four fits of PU Extra Trees (reads the prior, k < all); PU permutation's automatic row
    # keeps every column (the same at any prior), semi-JMI reads no prior, the fixed row no k
    assert prior_sensitivity_seconds(board, 10_000) == pytest.approx(
        4 * refit_seconds("pu_extra_trees", 1.0, 10_000)
    )
