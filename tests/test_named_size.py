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
    board["raw_score"] = board["score"]  # PU boards: the AUC of labeled against unlabeled rows
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


# ---------------------------------------------------------------------------------------------
# compare_selectors(k=...) and the command line


def _pu_table(n: int = 300, d: int = 12, seed: int = 0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y_true = (X[:, 0] + X[:, 1] > 0).astype(int)
    return X, y_true * (rng.rand(n) < 0.4), y_true


def test_compare_at_a_named_size_recommends_a_refitted_selection_of_that_size():
    from weakfs import compare_selectors

    X, s, _ = _pu_table()
    board = compare_selectors(
        X, s, k=[3, 5], methods=["semi_jmi", "mrmr"], prior=0.5, n_random=2, cv=3, budget=None
    )
    rec = board[board["recommended"]]
    assert sorted(rec["k"]) == [3, 5] and not rec["method"].eq("all features").any()
    assert (rec["features_from"] == "refit on all rows").all()
    assert [len(f) for f in rec.sort_values("k")["features"]] == [3, 5]
    assert set(board.loc[board["k_rule"] == "named", "k"]) == {3, 5}
    assert board.attrs["sizes"] == [3, 5] and board.attrs["verdict"] is None
    assert sum(n.startswith("At k = ") for n in board.attrs["notes"]) == 2
    assert "all features" in set(board["method"])  # the reference row stays


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"k": 12}, "k must name sizes from 1 to 11"),
        ({"k": 3, "ks": [2, 3]}, "not both"),
        ({"k": []}, "whole numbers of columns"),
        ({"k": [5.7]}, "whole numbers of columns"),
    ],
)
def test_impossible_named_sizes_are_refused(options, message):
    from weakfs import compare_selectors

    X, s, _ = _pu_table()
    with pytest.raises(ValueError, match=message):
        compare_selectors(X, s, methods=["mrmr"], prior=0.5, budget=None, **options)


def test_the_command_line_answers_at_the_size_and_select_takes_the_one_asked(tmp_path, capsys):
    from weakfs.cli import main

    X, s, _ = _pu_table(seed=1)
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])]).assign(t=s)
    table = tmp_path / "t.csv"
    frame.to_csv(table, index=False)
    board = tmp_path / "board.csv"
    argv = ["compare", str(table), "--target", "t", "--positive", "1", "--methods", "mrmr"]
    assert main([*argv, "-k", "2,4", "--cv", "3", "--budget", "none", "-o", str(board)]) == 0
    out = capsys.readouterr().out
    assert "every selection of k = 2, 4" in out and "recommended at k=4: mrmr" in out
    assert main(["select", "--from-board", str(board)]) == 2
    assert "give -k with one" in capsys.readouterr().err
    assert main(["select", "--from-board", str(board), "-k", "4"]) == 0
    assert "selected 4:" in capsys.readouterr().out
    # a size the board has no recommendation at is refused, not answered with another size
    assert main(["select", "--from-board", str(board), "-k", "3"]) == 2
    assert "recommends no selection at -k 3 (its recommended k: 2, 4)" in capsys.readouterr().err


def test_the_abstaining_board_adds_the_line_for_fewer_columns_apart_from_its_notes(capsys):
    from weakfs import compare_selectors

    X, s, _ = _pu_table(seed=2)
    board = compare_selectors(X, s, methods=["semi_jmi", "mrmr"], prior=0.5, cv=3, budget=None)
    assert board.attrs["verdict"] is not None  # 12 columns of which 2 matter: labels can't tell
    line = board.attrs["if_fewer_columns"]
    assert line.startswith("If you must keep fewer columns: at k = ")
    assert line not in board.attrs["notes"]  # the benchmark's cells keep the notes as they were
