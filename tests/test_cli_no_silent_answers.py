"""User mistakes the command line used to answer silently or unclearly: each is one line naming
the problem and the fix, exit code 2, and nothing written."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest

from test_cli import (
    _fails,  # one line on stderr and exit code 2
    _fewer_prior_resamples,  # noqa: F401  (autouse: 20 prior resamples here too)
)


def _table(tmp_path, sep=","):
    rng = np.random.RandomState(0)
    frame = pd.DataFrame(rng.normal(size=(60, 3)), columns=["a", "b", "c"])
    frame["label"] = (rng.rand(60) < 0.3).astype(int)
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False, sep=sep)
    return path


@pytest.mark.parametrize("option", ["-o", "--reduced", "--save-model"])
def test_an_output_naming_the_input_is_refused(tmp_path, capsys, option):
    path = _table(tmp_path)
    before = path.read_bytes()
    argv = ["select", str(path), "--target", "label", "--positive", "1", "--method", "mrmr"]
    err = _fails([*argv, "-k", "1", option, str(path)], capsys)
    assert "names the input table" in err and "another file" in err
    assert path.read_bytes() == before


def test_compare_and_transform_refuse_to_overwrite_their_input(tmp_path, capsys):
    path = _table(tmp_path)
    err = _fails(["compare", str(path), "--target", "label", "--positive", "1", "-o", str(path)],
                 capsys)  # fmt: skip
    assert "names the input table" in err
    model = tmp_path / "m.joblib"
    model.write_bytes(b"x")
    err = _fails(["transform", str(model), str(path), "-o", str(path)], capsys)
    assert "names the input table" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--method", "mrmr", "-k", "1", "--set", "n_features_to_select=2"], "both set the number"),
        (["--prior", "0.5", "--set", "prior=0.4"], "both set the class prior"),
        (["--method", "sewil", "--negative", "0", "--set", "random_state=3"], "--random-state"),
        (["--method", "pu_extra_trees", "--set", "n_jobs=2"], "--n-jobs"),
    ],
)
def test_set_of_what_an_option_sets_is_refused(tmp_path, capsys, extra, message):
    path = _table(tmp_path)
    err = _fails(["select", str(path), "--target", "label", "--positive", "1", *extra], capsys)
    assert message in err


@pytest.mark.parametrize("command", ["select", "compare"])
def test_a_wrong_separator_says_how_the_file_was_read(tmp_path, capsys, command):
    path = _table(tmp_path, sep=";")
    err = _fails([command, str(path), "--target", "label", "--positive", "1", "--sep", ","],
                 capsys)  # fmt: skip
    assert "read as 1 column with separator comma" in err and "--sep ';'" in err


@pytest.mark.parametrize(
    ("text", "what"),
    [("a,b,label\n", "no rows"), ("label\n1\n0\n", "no feature columns besides the target")],
)
def test_compare_on_an_empty_table_says_so(tmp_path, capsys, text, what):
    path = tmp_path / "e.csv"
    path.write_text(text)
    err = _fails(["compare", str(path), "--target", "label", "--positive", "1"], capsys)
    assert what in err and "nothing to work on" in err


def test_compare_suggests_its_own_option_for_negatives(tmp_path, capsys):
    from weakfs.cli._labels import _other_values_note

    y = pd.Series([1, 0, 2, 1], name="label")
    note = _other_values_note(y, (y == 1).to_numpy(), "compare")
    assert "weakfs compare" in note and "--method sewil" not in note


def test_reduced_and_transform_write_the_same_column_order(tmp_path, capsys):
    from weakfs.cli import main

    path = _table(tmp_path)
    reduced, model, again = tmp_path / "r.csv", tmp_path / "m.joblib", tmp_path / "a.csv"
    argv = ["select", str(path), "--target", "label", "--positive", "1", "--method", "mrmr"]
    argv += ["-k", "3", "--reduced", str(reduced), "--save-model", str(model)]
    assert main(argv) == 0
    assert main(["transform", str(model), str(path), "-o", str(again)]) == 0
    written = list(pd.read_csv(reduced).columns.drop("label"))
    assert written == list(pd.read_csv(again).columns) == ["a", "b", "c"]


def test_the_prior_of_constant_columns_is_an_error_and_the_scar_check_cannot_decide():
    from weakfs.pu import check_scar, estimate_class_prior

    X = np.ones((200, 3))
    s = np.r_[np.ones(60, int), np.zeros(140, int)]
    with pytest.raises(ValueError, match="every column of X is constant"):
        estimate_class_prior(X, s)
    assert check_scar(X, s, random_state=0).message.startswith("The SCAR check cannot decide")


def test_decimal_commas_are_named_and_read_with_decimal(tmp_path, capsys):
    from weakfs.cli import main

    path = tmp_path / "dec.csv"
    rows = [f"{i},5;{2 * i},25;{i % 2}" for i in range(40)]
    path.write_text("a;b;label\n" + "\n".join(rows) + "\n")
    argv = ["select", str(path), "--target", "label", "--positive", "1", "--method", "mrmr"]
    err = _fails([*argv, "-k", "1"], capsys)
    assert "decimal comma" in err and "--decimal ','" in err
    assert main([*argv, "-k", "1", "--decimal", ","]) == 0


def test_transform_names_categories_never_seen_in_fitting(tmp_path, capsys):
    from weakfs.cli import main

    rng = np.random.RandomState(0)
    frame = pd.DataFrame({"x": rng.normal(size=60), "colour": rng.choice(["red", "blue"], 60)})
    frame["label"] = (rng.rand(60) < 0.4).astype(int)
    fit, new = tmp_path / "fit.csv", tmp_path / "new.csv"
    frame.to_csv(fit, index=False)
    frame.assign(colour="green").to_csv(new, index=False)
    model, out = tmp_path / "m.joblib", tmp_path / "out.csv"
    argv = ["select", str(fit), "--target", "label", "--positive", "1", "--method", "mrmr"]
    assert main([*argv, "-k", "2", "--no-per-column", "--save-model", str(model)]) == 0
    capsys.readouterr()
    assert main(["transform", str(model), str(new), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "'colour' holds values never seen in fit ('green'; 60 rows)" in err


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_select_takes_a_board_row_exactly(tmp_path, capsys, suffix):
    """The board's features are what `weakfs select --from-board` returns, not another fit."""
    from weakfs.cli import main

    path = _table(tmp_path)
    board = tmp_path / f"board.{suffix}"
    argv = ["compare", str(path), "--target", "label", "--positive", "1", "--methods", "mrmr"]
    assert main([*argv, "-k", "2", "--cv", "3", "--no-progress", "-o", str(board)]) == 0
    written = pd.read_csv(board) if suffix == "csv" else None
    out = tmp_path / "sel.csv"
    argv = ["select", str(path), "--target", "label", "--positive", "1", "--from-board"]
    assert main([*argv, str(board), "-o", str(out)]) == 0
    chosen = pd.read_csv(out)["feature"].tolist()
    if written is not None:
        row = written[written["recommended"]].iloc[0]
        assert chosen == row["features"].split(";")
    assert "from the board" in capsys.readouterr().out


def test_transform_says_how_a_wrongly_separated_file_was_read(tmp_path, capsys):
    from weakfs.cli import main

    path = _table(tmp_path)
    model = tmp_path / "m.joblib"
    argv = ["select", str(path), "--target", "label", "--positive", "1", "--method", "mrmr"]
    assert main([*argv, "-k", "2", "--save-model", str(model)]) == 0
    semi = tmp_path / "semi.csv"
    pd.read_csv(path).to_csv(semi, sep=";", index=False)
    err = _fails(["transform", str(model), str(semi), "-o", str(tmp_path / "o.csv"), "--sep", ","],
                 capsys)  # fmt: skip
    assert "read as 1 column with separator comma" in err and "--sep ';'" in err


@pytest.mark.parametrize("budget", ["nan", "inf", "-5"])
def test_compare_refuses_a_budget_that_is_no_time(tmp_path, capsys, budget):
    path = _table(tmp_path)
    err = _fails(["compare", str(path), "--target", "label", "--positive", "1", "--budget", budget],
                 capsys)  # fmt: skip
    assert "--budget" in err


def test_transform_reads_tables_as_select_does(tmp_path, capsys):
    """``weakfs transform`` reads through the shared table reader: its --sep is checked, and a
    file whose separator is none of the detected ones is refused as select refuses it."""
    from weakfs.cli import main

    path = _table(tmp_path)
    model = tmp_path / "m.joblib"
    argv = ["select", str(path), "--target", "label", "--positive", "1", "--method", "mrmr"]
    assert main([*argv, "-k", "2", "--save-model", str(model)]) == 0
    out = str(tmp_path / "o.csv")
    err = _fails(["transform", str(model), str(path), "-o", out, "--sep", ";;"], capsys)
    assert "--sep takes one character" in err
    colons = tmp_path / "colons.csv"
    pd.read_csv(path).to_csv(colons, sep=":", index=False)
    err = _fails(["transform", str(model), str(colons), "-o", out], capsys)
    assert "reads as one column" in err and "give --sep" in err


def _wide_table(tmp_path, d=30):
    rng = np.random.RandomState(1)
    frame = pd.DataFrame(rng.normal(size=(120, d)), columns=[f"c{j}" for j in range(d)])
    frame["label"] = (rng.rand(120) < 0.3).astype(int)
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    return path


def test_every_row_of_a_board_runs_in_select(tmp_path, capsys):
    from weakfs.cli import main

    path = _wide_table(tmp_path)
    argv = ["select", str(path), "--target", "label", "--positive", "1", "--no-progress"]
    assert main([*argv, "--method", "all features", "-o", str(tmp_path / "all.csv")]) == 0
    printed = capsys.readouterr().out
    assert "all 30 of its features, no selection" in printed
    assert pd.read_csv(tmp_path / "all.csv").shape[0] == 30
    assert main([*argv, "--method", "random", "-k", "4"]) == 0
    assert "random: 4 of the 30 features" in capsys.readouterr().out
    _fails([*argv, "--method", "random"], capsys)  # random needs -k


def test_from_board_prints_a_summary_and_needs_no_table(tmp_path, capsys):
    from weakfs.cli import main

    path = _wide_table(tmp_path)
    board = tmp_path / "board.json"
    argv = ["compare", str(path), "--target", "label", "--positive", "1", "--methods", "mrmr"]
    argv += ["-k", "2", "--cv", "2", "--prior", "0.5", "--no-progress", "-o", str(board)]
    assert main(argv) in (0, 1)
    payload = json.loads(board.read_text())
    row = next(r for r in payload["rows"] if r["recommended"])
    capsys.readouterr()
    assert main(["select", "--from-board", str(board)]) == 0  # no table: nothing is refitted
    printed = capsys.readouterr().out
    n = len(row["features"])
    assert f"selected {n}: " in printed and len(printed.splitlines()) < 6
    if n > 10:
        assert f"and {n - 10} more" in printed and "-o FILE writes all" in printed
    out = tmp_path / "sel.csv"
    assert main(["select", "--from-board", str(board), "-o", str(out)]) == 0
    assert pd.read_csv(out).shape[0] == n


def _semi_select(tmp_path, n_rows: int) -> list[str]:
    """``weakfs select`` on a table of semi-supervised labels (blank = unlabeled)."""
    rng = np.random.RandomState(0)
    frame = pd.DataFrame(rng.normal(size=(n_rows, 5)), columns=list("abcde"))
    frame["label"] = np.where(rng.rand(n_rows) < 0.3, (frame["a"] > 0).astype(int), np.nan)
    path = tmp_path / "semi.csv"
    frame.to_csv(path, index=False)
    return ["select", str(path), "--target", "label", "--positive", "1", "--negative", "0"]


def test_select_says_beside_the_selection_that_sewil_chooses_its_own_size(tmp_path, capsys):
    from weakfs.cli import main

    argv = _semi_select(tmp_path, 120)
    argv += ["--method", "sewil", "-k", "2", "--set", "n_generations=2", "--no-progress"]
    assert main(argv) == 0
    assert re.search(r"sewil chose these \d+ itself: -k 2 does not apply", capsys.readouterr().out)


@pytest.mark.parametrize("budget", ["0", "3s"])
def test_a_budget_below_the_least_is_named_before_any_work(tmp_path, capsys, budget):
    path = _table(tmp_path)
    err = _fails(["compare", str(path), "--target", "label", "--positive", "1", "--budget", budget],
                 capsys)  # fmt: skip
    assert f"--budget {budget} cannot be met: a comparison needs at least 5 s" in err
    assert "prior" not in err


def test_a_setting_the_chosen_search_does_not_read_is_refused(tmp_path, capsys):
    argv = _semi_select(tmp_path, 60)
    err = _fails([*argv, "--method", "sewil", "--set", "n_features_to_select=2"], capsys)
    assert "sewil reads n_features_to_select only with --set search=fss" in err
