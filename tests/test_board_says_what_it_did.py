"""A board and its printout say what they did: when no selector ran, the abstention whenever it
applies, the raw PU AUC first when the prior is unreliable, no interval of zero width, one row
for a method that chooses its own size, and the time the plan left unused spent on folds."""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pandas as pd
import pytest

from weakfs import compare_selectors
from weakfs.compare import (
    NO_SELECTOR_RAN,
    board_headline,
    interval_text,
    primary_score_reason,
    stated_verdict,
    write_leaderboard,
)
from weakfs.compare._board import build_board
from weakfs.compare._folds import FoldRow
from weakfs.pu import ResolvedPrior


def _pu(seed=0, n=400, d=8):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    return X, y * (rng.rand(n) < 0.3)


def _table(tmp_path, seed=0):
    X, s = _pu(seed)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])]).assign(label=s)
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    return path


def _broken(monkeypatch, names):
    from weakfs.compare import _methods

    def broken(k, settings, prior, seed):
        raise np.linalg.LinAlgError("singular")

    for name in names:
        monkeypatch.setitem(
            _methods.METHODS, name, dataclasses.replace(_methods.METHODS[name], build=broken)
        )


def test_a_board_on_which_no_selector_ran_says_so_first_and_is_not_a_success(
    monkeypatch, tmp_path, capsys
):
    from weakfs.cli import main

    _broken(monkeypatch, ["mrmr"])
    X, s = _pu()
    board = compare_selectors(X, s, methods=["mrmr"], ks=[2], cv=2, n_random=1, prior=0.5)
    assert board.attrs["selectors_ran"] == [] and board_headline(board) == NO_SELECTOR_RAN
    out = tmp_path / "board.md"
    write_leaderboard(board, out)
    assert out.read_text().splitlines()[2] == f"**{NO_SELECTOR_RAN}.**"
    argv = ["compare", str(_table(tmp_path)), "--target", "label", "--positive", "1"]
    argv += ["--methods", "mrmr", "-k", "2", "--cv", "2", "--prior", "0.5", "--no-progress"]
    assert main(argv) == 1
    printed = capsys.readouterr().out.splitlines()
    first = next(line for line in printed if line.startswith("leaderboard"))
    assert first.startswith("leaderboard: no selector ran: every one was left out")


def test_the_plan_keeps_the_cheapest_ranker_when_it_fits_in_the_time_left(monkeypatch):
    from weakfs.compare import _budget
    from weakfs.compare._plan import Plan

    monkeypatch.setattr(_budget, "_ranker_costs", lambda plan, rankers: {"a": 25.0, "b": 80.0})
    splits = [(np.arange(3), np.arange(3))] * 5
    plan = Plan(
        X=np.zeros((3, 2)), y=np.zeros(3), names=["x0", "x1"], kind="pu", methods=["a", "b"],
        ks=[1], splits=splits, seeds=list(range(5)), scorer=None, prior=0.5,
        deadline=time.time() + 100, started=time.time(), n_jobs=None, progress=False, notes=[],
    )  # fmt: skip
    kept = _budget.plan_budget(plan, ["a", "b"], cv=5, wrappers=["w"])
    # 3 folds of "a" (75 s) exceed the rankers' share once the unprobed wrapper's reserve is kept
    # (60 s), but fit in the time left: the board compares one selector rather than none
    assert kept == ["a"] and "a" not in plan.deferred and "b" in plan.deferred
    assert not any(n.startswith("a left out") for n in plan.notes)


def test_time_the_plan_left_unused_goes_to_the_folds_it_left_out(monkeypatch):
    from weakfs.compare import _budget, _leaderboard

    planned = _leaderboard.plan_references

    def plan_dropping_folds(plan, n_random):
        draws = planned(plan, n_random)
        _budget._keep_folds(plan, 3, None)  # an estimate that proved too cautious
        return draws

    monkeypatch.setattr(_leaderboard, "plan_references", plan_dropping_folds)
    X, s = _pu()
    board = compare_selectors(
        X, s, methods=["mrmr"], ks=[2], cv=3, n_repeats=2, n_random=1, prior=0.5, budget=120
    )
    assert board.attrs["folds"] == 6
    assert set(pd.DataFrame(board.attrs["fold_scores"])["fold"]) == set(range(6))
    assert (
        "folds: 6 of 6, 3 of them scored with the time the plan's estimates left"
        in (board.attrs["notes"])
    )


def _board(method_scores: dict[str, list[float]], raw=None) -> pd.DataFrame:
    records = []
    for method, scores in method_scores.items():
        for f, score in enumerate(scores):
            r = score if raw is None else raw
            records.append(FoldRow(method, f, 2, score, r, np.nan, 0.1, np.array([0, 1])))
    folds = len(next(iter(method_scores.values())))
    board, _ = build_board(
        records, ["a", "b", "c"], 3, n_folds=folds, test_share=0.5, min_labeled_per_fold=10,
        with_truth=False, method_order=["mrmr"],
    )  # fmt: skip
    return board


def test_the_abstention_is_stated_when_two_of_two_candidates_are_tied():
    board = _board({"mrmr": [0.70, 0.75, 0.72], "all features": [0.71, 0.74, 0.73]})
    board.attrs.update(verdict=None)
    assert board["tied"].sum() == 2  # the board's rule counts too few candidates to abstain
    sentence = stated_verdict(board)
    assert sentence.startswith("The labels cannot tell these selectors apart (all 2 candidates")
    assert "recommends all features" in sentence


def test_no_interval_of_zero_width_from_fewer_than_two_distinct_fold_scores():
    board = _board({"mrmr": [0.5, 0.5, 0.5], "all features": [0.6, 0.7, 0.65]}, raw=0.5)
    flat = board[board["method"] == "mrmr"].iloc[0]
    assert np.isnan(flat["score_low"]) and np.isnan(flat["raw_score_low"])
    assert interval_text(flat["score_low"], flat["score_high"]) == "[too few folds for an interval]"
    spread = board[board["method"] == "all features"].iloc[0]
    assert spread["score_low"] < spread["score"] < spread["score_high"]


def test_the_raw_pu_auc_is_primary_when_the_prior_is_unreliable():
    board = _board({"mrmr": [0.9, 1.2, 1.38], "all features": [0.8, 0.9, 0.85]}, raw=0.7)
    board.attrs.update(labels="pu", prior_resolved=ResolvedPrior(0.845, "estimated"))
    assert "leaves [0, 1]" in primary_score_reason(board)
    wide = ResolvedPrior(0.845, "estimated", (0.62, 0.97), 0.9, True)
    board = _board({"mrmr": [0.6, 0.7, 0.65], "all features": [0.6, 0.62, 0.64]}, raw=0.7)
    board.attrs.update(labels="pu", prior_resolved=wide)
    assert primary_score_reason(board).startswith("the class prior's interval is wide (0.62–0.97)")
    board.attrs.update(prior_resolved=ResolvedPrior(0.5, "given"))
    assert primary_score_reason(board) is None


@pytest.mark.slow
def test_a_method_choosing_its_own_size_has_one_row():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(240, 6))
    y = (X[:, 0] > 0).astype(int)
    semi = np.where(rng.rand(240) < 0.2, y, -1)
    board = compare_selectors(
        X, semi, methods=["sewil"], ks=[2, 4, 6], cv=2, n_random=1, budget=None,
        settings={"sewil": {"n_generations": 2, "n_estimators": 10}},
    )  # fmt: skip
    assert (board["method"] == "sewil").sum() == 1
