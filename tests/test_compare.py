"""compare_selectors and `weakfs compare`: a leaderboard from the weak labels alone."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr
from sklearn.linear_model import LogisticRegression

from weakfs import compare_selectors
from weakfs.cli import main
from weakfs.compare import ALL_FEATURES, RANDOM, write_leaderboard


def _pu(seed=0, n=500, d=12):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + X[:, 1] + 0.5 * X[:, 2] > 0).astype(int)
    return X, y * (rng.rand(n) < 0.3), y


def test_leaderboard_has_the_references_and_the_columns_it_promises():
    X, s, y = _pu()
    board = compare_selectors(
        X, s, methods=["semi_jmi", "mrmr"], ks=[2, 6], cv=3, n_random=3, prior=0.5, y_true=y
    )
    assert set(board["method"]) == {"semi_jmi", "mrmr", RANDOM, ALL_FEATURES}
    assert {"score", "score_sd", "truth", "stability", "stability_low", "seconds", "auto_k"} <= set(
        board.columns
    )
    assert board.groupby("method")["auto_k"].sum().drop(ALL_FEATURES).eq(1).all()
    good = board[(board["method"] == "semi_jmi") & (board["k"] == 2)].iloc[0]
    rand = board[(board["method"] == RANDOM) & (board["k"] == 2)].iloc[0]
    assert good["score"] > rand["score"] and good["stability"] > abs(rand["stability"]) + 0.3
    assert set(good["features"]) <= {"x0", "x1", "x2"}


def test_a_sparse_matrix_gives_the_same_board_as_its_dense_table():
    from scipy import sparse

    X, s, _ = _pu(2, n=200, d=6)
    X[X < 0.5] = 0.0  # a bag-of-words-like table: mostly zeros
    kwargs = dict(methods=["mrmr"], ks=[2], cv=3, n_random=2, prior=0.5, random_state=0)
    dense = compare_selectors(X, s, **kwargs)
    csr = compare_selectors(sparse.csr_matrix(X), s, **kwargs)
    cols = ["method", "k", "score", "recommended"]
    pd.testing.assert_frame_equal(dense[cols], csr[cols])


def test_weak_label_ranking_agrees_with_the_hidden_truth():
    X, s, y = _pu(1, n=800, d=15)
    board = compare_selectors(
        X, s, methods=["semi_jmi", "mrmr", "pu_extra_trees"], ks=[1, 3, 8], cv=4, n_random=4,
        prior=0.5, y_true=y,
    )  # fmt: skip
    rho = spearmanr(board["score"], board["truth"]).statistic
    assert rho > 0.6


def test_bad_settings_are_errors():
    X, s, _ = _pu()
    with pytest.raises(ValueError, match=r"k must lie in \[1, 12\]"):
        compare_selectors(X, s, ks=[13], prior=0.5)
    with pytest.raises(ValueError, match="'budget' parameter of compare_selectors must be"):
        compare_selectors(X, s, budget=1, prior=0.5)
    with pytest.raises(ValueError, match="read\\(s\\) semi labels"):
        compare_selectors(X, s, methods=["sewil"], prior=0.5)
    with pytest.raises(ValueError, match=r"y must hold PU labels .* or semi-supervised labels"):
        compare_selectors(X, np.arange(len(s)) % 3, prior=0.5)


def test_a_wrapper_that_cannot_fit_the_budget_is_left_out_with_a_note(monkeypatch):
    from weakfs.compare import _budget

    X, s, _ = _pu()
    monkeypatch.setattr(_budget, "_BUDGET_SHARE", 0.0)  # nothing left for wrappers
    board = compare_selectors(
        X, s, methods=["semi_jmi", "fscpu"], ks=[2], cv=2, n_random=1, prior=0.5,
        budget=30,
    )  # fmt: skip
    notes = board.attrs["notes"]
    assert "fscpu" not in set(board["method"]) and any("fscpu left out" in n for n in notes)


@pytest.mark.slow
def test_a_budget_runs_fscpus_search_on_fewer_rows_first(monkeypatch):
    """Under a budget FSCPU's search reads ``budget_rows`` of a larger fold's rows (here 150 of
    250, by a smaller cap than the shipped 1,500) and says so; without a budget, every row."""
    import dataclasses

    from weakfs.compare._methods import METHODS

    capped = dataclasses.replace(METHODS["fscpu"], budget_rows=("search_rows", 150))
    monkeypatch.setitem(METHODS, "fscpu", capped)
    X, s, _ = _pu()
    kwargs = dict(methods=["fscpu"], ks=[2], cv=2, n_random=1, prior=0.5)
    board = compare_selectors(X, s, budget=30, **kwargs)
    assert board.attrs["settings"]["fscpu"]["search_rows"] == 150
    assert any(n.startswith("fscpu: search_rows=150 (its search's fits on 150 of a fold's 250")
               for n in board.attrs["notes"])  # fmt: skip
    fixed = compare_selectors(X, s, settings={"fscpu": {"n_iter": 30}}, **kwargs)
    assert fixed.attrs["settings"]["fscpu"]["search_rows"] is None
    assert not any("search_rows" in n for n in fixed.attrs["notes"])


@pytest.mark.slow
def test_the_command_line_writes_every_format(tmp_path, capsys):
    X, _, y = _pu()
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])]).assign(label=y)
    path = tmp_path / "t.csv"
    frame.to_csv(path, index=False)
    argv = ["compare", str(path), "--target", "label", "--positive", "1"]
    argv += ["--labeled-fraction", "0.3", "--methods", "semi-jmi", "-k", "2,5", "--cv", "3"]
    argv += ["--no-progress", "--budget", "1m"]
    # one run writes through the command line; the other formats from the same board (one
    # comparison costs a few seconds, four would cost the suite its time)
    assert main([*argv, "-o", str(tmp_path / "board.json")]) == 0
    printed = capsys.readouterr().out
    assert "class prior used" in printed and "semi_jmi" in printed and "true labels" in printed
    payload = json.loads((tmp_path / "board.json").read_text())
    assert {"prior", "notes", "rows"} <= set(payload)
    board = pd.DataFrame(payload["rows"])  # the json keeps the feature lists as lists
    board.attrs.update(prior=payload["prior"], notes=payload["notes"])
    for suffix in ("md", "csv", "html"):
        out = tmp_path / f"board.{suffix}"
        assert write_leaderboard(board, out) == suffix and out.stat().st_size > 0
    capsys.readouterr()
    assert main([*argv, "-k", "99"]) == 2
    assert "k must lie in [1, 12]" in capsys.readouterr().err
    assert main([*argv, "--budget", "soon"]) == 2


def test_a_selector_that_fails_is_left_out_with_its_error(monkeypatch):
    # one selector raising (e.g. a singular mixture) leaves it out of the board, not the board
    import dataclasses

    from weakfs.compare import _methods

    def broken(k, settings, prior, seed):
        raise np.linalg.LinAlgError("a mixture component has a singular covariance")

    for name in ("mrmr", "fscpu"):  # a ranker (fold failure) and a wrapper (trial-fit failure)
        spec = dataclasses.replace(_methods.METHODS[name], build=broken)
        monkeypatch.setitem(_methods.METHODS, name, spec)
    X, s, _ = _pu()
    board = compare_selectors(
        X, s, methods=["semi_jmi", "mrmr", "fscpu"], ks=[2], cv=2, n_random=1, prior=0.5,
        budget=30,
    )  # fmt: skip
    assert set(board["method"]) == {"semi_jmi", RANDOM, ALL_FEATURES}
    notes = board.attrs["notes"]
    assert any(n.startswith("mrmr left out: its fit failed on fold") for n in notes)
    assert any("LinAlgError: a mixture component" in n for n in notes if n.startswith("mrmr"))
    assert any(n.startswith("fscpu left out: its trial fit failed (LinAlgError") for n in notes)


@pytest.mark.parametrize("cost_per_fold, runs", [(0.01, True), (1e6, False)])
def test_a_ranker_the_plan_left_out_runs_if_the_wrappers_leave_time(
    monkeypatch, cost_per_fold, runs
):
    from weakfs.compare import _leaderboard

    planned = _leaderboard.plan_budget

    def plan_leaving_out_mrmr(plan, rankers, cv, wrappers, records):
        kept = planned(plan, rankers, cv, wrappers, records)
        kept.remove("mrmr")
        plan.deferred["mrmr"] = cost_per_fold
        plan.notes.append("mrmr left out for the budget: about 1 s on 2 folds")
        return kept

    monkeypatch.setattr(_leaderboard, "plan_budget", plan_leaving_out_mrmr)
    X, s, _ = _pu()
    board = compare_selectors(
        X, s, methods=["semi_jmi", "mrmr"], ks=[2], cv=2, n_random=1, prior=0.5,
        budget=60,
    )  # fmt: skip
    assert ("mrmr" in set(board["method"])) == runs
    notes = board.attrs["notes"]
    assert any(n.startswith("mrmr left out for the budget") for n in notes) != runs
    assert any(n.startswith("mrmr: run after the wrappers") for n in notes) == runs


def test_a_wrappers_probe_on_a_large_fold_fits_nested_stratified_row_subsamples():
    from types import SimpleNamespace

    from weakfs.compare._budget import PROBE_ROWS, _probe_rows

    rng = np.random.RandomState(0)
    y = (rng.rand(5000) < 0.1).astype(int)
    train = np.sort(rng.choice(5000, size=4000, replace=False))
    plan = SimpleNamespace(splits=[(train, None)], seeds=[3], y=y)
    quarter, half, full = _probe_rows(plan)
    assert (quarter.size, half.size, full.size) == (PROBE_ROWS // 4, PROBE_ROWS // 2, PROBE_ROWS)
    assert set(quarter) <= set(half) <= set(full) <= set(train)
    share = y[train].mean()
    assert abs(y[full].mean() - share) < 2 / PROBE_ROWS and abs(y[half].mean() - share) < 0.005
    small = SimpleNamespace(splits=[(train[:PROBE_ROWS], None)], seeds=[3], y=y)
    assert _probe_rows(small) is None


def test_a_wrappers_first_probe_is_preceded_by_an_untimed_warm_up_on_a_few_rows(monkeypatch):
    from types import SimpleNamespace

    from weakfs.compare import _budget

    fits = []  # (rows, columns) of every fit

    class Recorder:
        def fit(self, X, y):
            fits.append(X.shape)
            return self

    fake = SimpleNamespace(
        ranker=False, budget_rows=None, build=lambda k, settings, prior, seed: Recorder()
    )
    monkeypatch.setattr(_budget, "METHODS", {"fake": fake})
    rng = np.random.RandomState(0)
    X, y = rng.rand(3000, 40), (rng.rand(3000) < 0.2).astype(int)
    train = np.arange(2400)
    plan = SimpleNamespace(
        X=X, y=y, n_features=40, splits=[(train, None)] * 3, seeds=[0], ks=[2, 4],
        wrapper_probes={}, probe_pool=None, prior=0.3, warmed=set(),
    )  # fmt: skip
    probe, fits_per_unit = _budget._wrapper_probe(plan, "fake")
    probe({"n_iter": 10})
    probe({"n_iter": 10})  # read back: no fit
    probe({"n_iter": 20})  # a second setting: timed, no second warm-up
    warm = 2 * _budget._WARM_UP_ROWS
    sizes = [(_budget.PROBE_ROWS // part, 40) for part in (4, 2, 1)]
    assert fits == [(warm, _budget._WARM_UP_COLUMNS)] + sizes * 2
    # a limit below the first subsample's time scaled linearly to the fold stops the probe
    fits.clear()
    assert probe({"n_iter": 30}, limit=-1.0) >= 0 and fits == sizes[:1]
    assert fits_per_unit == 3 * (2 + 4) / 4


def test_a_budget_reuses_the_plans_all_features_fit_and_changes_no_score(monkeypatch):
    """The references' cost probe (all features on the first fold) is that fold's score: with
    time to spare a budgeted board equals the unbudgeted one, with one all-features fit a fold."""
    from weakfs.compare._folds import Scorer

    X, s, _ = _pu()
    kwargs = dict(methods=["mrmr"], ks=[2, 4], cv=3, n_random=2, prior=0.5, random_state=0)
    free = compare_selectors(X, s, **kwargs)
    fits = []
    fit_score = Scorer.fit_score

    def counted(self, X_, y_, train, test, cols):
        fits.append(len(cols) == X.shape[1])
        return fit_score(self, X_, y_, train, test, cols)

    monkeypatch.setattr(Scorer, "fit_score", counted)
    timed = compare_selectors(X, s, budget=600, **kwargs)
    columns = ["method", "k", "score", "score_low", "score_high", "tied", "recommended"]
    pd.testing.assert_frame_equal(timed[columns], free[columns])
    assert sum(fits) == timed.attrs["folds"]  # all features once a fold, the plan's probe too


def test_a_reference_fold_that_would_end_past_the_deadline_is_not_started():
    import time

    from weakfs.compare._folds import FoldTask, Scorer, Skipped, reference_fold

    X, s, _ = _pu(n=200, d=6)
    scorer = Scorer("pu", LogisticRegression(), 0.5, None)
    soon = time.time() + 5
    train, test = np.arange(150), np.arange(150, 200)
    task = FoldTask(None, 0, {}, 0.5, 0, X, s, train, test, [2], scorer, soon)
    assert isinstance(reference_fold(task, 1, expected=10.0), Skipped)
    assert [r.method for r in reference_fold(task, 1, expected=1.0)] == [ALL_FEATURES, RANDOM]


def test_the_references_third_fold_is_dropped_when_it_cannot_end_in_time(monkeypatch):
    from weakfs.compare import _leaderboard

    planned = _leaderboard.plan_references

    def slow_references(plan, n_random):
        draws = planned(plan, n_random)
        plan.reference_seconds = 1e6  # no fold after the second can end in time
        return draws

    monkeypatch.setattr(_leaderboard, "plan_references", slow_references)
    X, s, _ = _pu()
    board = compare_selectors(
        X, s, methods=["mrmr"], ks=[2], cv=3, n_repeats=1, n_random=1, prior=0.5, budget=120,
    )  # fmt: skip
    assert board.attrs["folds"] == 2
    notes = board.attrs["notes"]
    assert "folds: 2 of 3 scored in the budget; every row is compared on those" in notes


@pytest.mark.parametrize(
    ("margin", "note"),
    [
        (8, "pu_permutation: on 1 of 2 folds, up to 8 of"),  # one fold's fit
        (20, "pu_permutation: refit on all rows, up to 3 of"),  # only the refit on all rows
    ],
)
def test_selections_filled_by_ties_in_column_order_are_said_once_in_the_notes(margin, note):
    # one column parts the labeled rows by a wide margin: PU permutation importance measures
    # nothing on the others, and the rest of its k columns are ties in column order; the board
    # says so in one note instead of a warning per fit
    import warnings

    from weakfs.feature_selection import TiedScoresWarning

    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 60))
    s = np.zeros(60, dtype=int)
    s[:12] = 1
    X[:, 5] += margin * s
    with warnings.catch_warnings():
        warnings.simplefilter("error", TiedScoresWarning)
        board = compare_selectors(
            X, s, methods=["pu_permutation"], ks=[10], cv=2, n_repeats=1, n_random=1,
            prior=0.5, budget=None,
        )  # fmt: skip
    tied = [n for n in board.attrs["notes"] if "column order" in n]
    assert len(tied) == 1 and tied[0].startswith(note)
