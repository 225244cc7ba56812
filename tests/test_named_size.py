"""The board at a size the user names: one recommendation per size among the selections of that
size, all features never, and the default board's line for fewer columns."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weakfs.compare import SizeGuide, load_size_guide
from weakfs.compare._named_size import recommend_at_sizes, smaller_board_line


def _board() -> pd.DataFrame:
    rows = []
    for method, base in (("mrmr", 0.80), ("semi_jmi", 0.78), ("pu_extra_trees", 0.70)):
        for k in (5, 10, 20, 50):
            rows.append({"method": method, "k": k, "score": base + k / 1000, "k_rule": "fixed"})
    rows.append({"method": "sewil", "k": 20, "score": 0.99, "k_rule": "auto"})
    rows.append({"method": "random", "k": 20, "score": 0.6, "k_rule": "fixed"})
    rows.append({"method": "all features", "k": 80, "score": 0.95, "k_rule": "fixed"})
    board = pd.DataFrame(rows)
    board["stability"], board["stability_low"], board["stability_high"] = 0.5, 0.3, 0.7
    return board


@pytest.mark.parametrize("n_labeled", [3, 30, 3000])
def test_one_recommendation_per_named_size_and_never_all_features(n_labeled):
    board, sentences = recommend_at_sizes(
        _board(), [10, 20], n_labeled=n_labeled, kind="pu", n_columns=80
    )
    rec = board[board["recommended"]]
    assert sorted(rec["k"]) == [10, 20]
    assert not rec["method"].isin(["all features", "random", "sewil"]).any()
    assert rec["tied"].all()  # the recommended row is within noise of itself
    assert board.loc[board["k_rule"] == "named", "k"].isin([10, 20]).all()
    assert len(sentences) == 2 and all(f"At k = {k}" in s for k, s in zip([10, 20], sentences))
    assert "stability 0.50 [0.30, 0.70]" in sentences[0]


def test_many_labels_pick_the_highest_weak_score_few_the_benchmark():
    guide = load_size_guide()
    many, _ = recommend_at_sizes(_board(), [20], n_labeled=10**7, kind="pu", n_columns=80)
    assert many.loc[many["recommended"], "method"].item() == "mrmr"
    few, _ = recommend_at_sizes(_board(), [20], n_labeled=0, kind="pu", n_columns=80)
    gains = guide.gain(["mrmr", "semi_jmi", "pu_extra_trees"], kind="pu", wide=False, k=20)
    best = ["mrmr", "semi_jmi", "pu_extra_trees"][int(np.argmax(gains))]
    assert few.loc[few["recommended"], "method"].item() == best


def test_a_size_no_selector_ran_says_so():
    board, sentences = recommend_at_sizes(_board(), [7], n_labeled=30, kind="pu", n_columns=80)
    assert not board["recommended"].any()
    assert sentences == ["No selector ran at k = 7: there is no recommendation there."]


def test_the_abstaining_board_names_the_pick_at_the_size_nearest_20():
    line = smaller_board_line(_board(), n_labeled=30, kind="pu", n_columns=80)
    assert line.startswith("If you must keep fewer columns: at k = 20 the recommendation is ")
    board = _board()
    board = board[board["k"] != 20]
    assert "at k = 10" in smaller_board_line(board, n_labeled=30, kind="pu", n_columns=80)
    only_references = board[board["method"].isin(["all features", "random"])]
    assert smaller_board_line(only_references, n_labeled=30, kind="pu", n_columns=80) is None


def test_the_guide_object_is_what_the_board_reads():
    assert isinstance(load_size_guide(), SizeGuide)
