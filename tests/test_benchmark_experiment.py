"""The benchmark experiment: its grid, its label regimes, one real cell and the report."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from weakfs.compare import ALL_FEATURES, RANDOM, _leaderboard
from weakfs.experiments._registry import ReportContext, RunConfig, get
from weakfs.experiments._store import cell_key
from weakfs.experiments.benchmark import _cells
from weakfs.experiments.benchmark._cells import _weak_labels, board_ks, make_cells, run_cell
from weakfs.experiments.benchmark._protocol import (
    DATASETS,
    FAMILIES,
    FSCPU_SEARCH_ROWS,
    FSCPU_SEARCH_ROWS_TABLES,
    PU_REGIMES,
    REGIMES,
    method_settings,
)
from weakfs.experiments.benchmark._report import write_report


def test_registered_and_grid():
    assert get("benchmark").name == "benchmark"
    cells = make_cells(RunConfig(runs=5))
    assert len(cells) == len(DATASETS) * len(REGIMES) * 5
    assert len(DATASETS) >= 24 and len({kind for kind, _ in REGIMES.values()}) >= 4
    # no clock in a cell: its key is the dataset, the regime and the seed, and in the PU cells
    # of the larger tables the rows FSCPU's search reads
    assert {tuple(sorted(c)) for c in cells} == {
        ("dataset", "regime", "seed"),
        ("dataset", "fscpu_search_rows", "regime", "seed"),
    }
    assert sum("fscpu_search_rows" in c for c in cells) == 5 * 8 * len(PU_REGIMES)
    quick = make_cells(RunConfig(quick=True, datasets=["heart"], methods=["none"]))
    assert quick == [{"dataset": "heart", "regime": "none", "seed": 0}]
    one = make_cells(RunConfig(datasets=["colon"], methods=["none"], options={"seeds": 3}))
    assert one == [{"dataset": "colon", "regime": "none", "seed": 3}]


def test_every_dataset_has_a_family_and_the_wide_families_are_wide():
    from weakfs.datasets import list_datasets

    assert set(FAMILIES) == set(DATASETS)
    sizes = list_datasets().set_index("name")["features"]
    wide = {name for name, family in FAMILIES.items() if family in ("genes", "text", "images")}
    for family, least in (("genes", 4), ("text", 3), ("images", 3)):
        assert sum(f == family for f in FAMILIES.values()) >= least
    assert len(wide) >= 12
    assert all(sizes[DATASETS[name][0]] >= 1000 for name in wide)
    narrow = set(DATASETS) - wide
    assert all(sizes[DATASETS[n][0]] < 1000 for n in narrow if DATASETS[n][0] != "synth")


def test_settings_are_fixed_by_size_and_fit_the_ceiling():
    ks = board_ks(2000)
    assert ks == [5, 10, 20, 50, 100]
    small, large = method_settings(300, 50, ks), method_settings(2100, 2000, ks)
    assert small == method_settings(300, 50, ks)  # a function of the size alone
    # FSCPU's iterations fall with the rows and with k, never above its default
    it = large["fscpu"]["n_iter"]
    assert all(it[a] >= it[b] for a, b in itertools.pairwise(ks)) and max(it.values()) <= 3000
    assert small["fscpu"]["n_iter"][5] == 3000
    # fewer iterations, larger steps: eta * n_iter is the default's 3000 / (2 d)
    assert small["fscpu"]["eta"][5] is None
    assert large["fscpu"]["eta"][100] * it[100] == pytest.approx(3000 / (2 * 2000))
    assert large["sewil"]["n_generations"] < small["sewil"]["n_generations"] == 20
    assert sorted(large["gkf_pual"]["n_lambdas"]) == [5, 10, 20]  # not at k = 50, 100
    # the ks of a narrow table: compare's grid where fewer than three fixed ks fit
    assert board_ks(6) == [1, 2, 3, 4, 5] and board_ks(30) == [5, 10, 20]


def test_fscpu_search_rows_option_changes_the_fscpu_searches_only_on_larger_tables():
    ks = board_ks(57)
    default = method_settings(2100, 57, ks)
    option = method_settings(2100, 57, ks, fscpu_search_rows=1500)
    assert "search_rows" not in default["fscpu"]  # the committed cells' settings, unchanged
    assert option["fscpu"]["search_rows"] == option["fscpu_mi"]["search_rows"] == 1500
    # planned for the 1,500 rows its fits read: more iterations in the same time, same eta rule
    assert all(option["fscpu"]["n_iter"][k] > default["fscpu"]["n_iter"][k] for k in ks)
    assert option["fscpu"]["n_iter"] == method_settings(1500, 57, ks)["fscpu"]["n_iter"]
    assert option["fscpu"]["eta"] == method_settings(1500, 57, ks)["fscpu"]["eta"]
    assert option["fscpu_mi"]["n_iter"] == option["fscpu"]["n_iter"]
    searches = ("fscpu", "fscpu_mi")
    assert {m: v for m, v in option.items() if m not in searches} == {
        m: v for m, v in default.items() if m not in searches
    }
    # at most that many rows: the paper's search, the same settings
    assert method_settings(1400, 57, ks, fscpu_search_rows=1500) == method_settings(1400, 57, ks)


def test_fscpu_search_rows_cells_are_the_pu_cells_of_the_larger_tables(monkeypatch):
    rows = {"spambase": (4601, 57), "madelon": (2143, 500), "heart": (270, 13)}
    monkeypatch.setattr(_cells, "_table", lambda name: (np.zeros(rows[name]), None, None))
    config = RunConfig(runs=2, datasets=list(rows), options={"fscpu_search_rows": 1500})
    cells = make_cells(config)
    # 2,100 and 1,500 training rows (2,143 less its 30 %): only spambase's are changed
    assert {c["dataset"] for c in cells} == {"spambase"}
    assert {c["regime"] for c in cells} == {r for r, (kind, _) in REGIMES.items() if "pu" in kind}
    assert all(c["fscpu_search_rows"] == 1500 for c in cells) and len(cells) == 2 * 4
    # a version of their own: the committed PU cells keep theirs
    assert {_cells.cell_version(c) for c in cells} == {_cells.SEARCH_ROWS_VERSION}
    # None: the paper's search on every row, in every cell asked (the cells made before)
    plain = make_cells(RunConfig(runs=1, datasets=list(rows), options={"fscpu_search_rows": None}))
    assert len(plain) == 3 * len(REGIMES) and not any("fscpu_search_rows" in c for c in plain)
    assert _cells.cell_version(plain[0]) == _cells.PU_VERSION < _cells.SEARCH_ROWS_VERSION
    for bad in (True, 1.5, "1500", 1):
        with pytest.raises(ValueError, match="fscpu_search_rows"):
            make_cells(RunConfig(options={"fscpu_search_rows": bad}))


def test_the_benchmark_runs_fscpu_on_its_search_rows_in_the_pu_cells_of_the_larger_tables():
    tables = ["spambase", "heart", "mnist-even"]  # no data read: the tables are listed
    cells = make_cells(RunConfig(runs=2, datasets=tables))
    assert len(cells) == 2 * len(tables) * len(REGIMES)
    searched = [c for c in cells if "fscpu_search_rows" in c]
    assert {c["fscpu_search_rows"] for c in searched} == {FSCPU_SEARCH_ROWS}
    assert {(c["dataset"], c["regime"]) for c in searched} == {
        (d, r) for d in ("spambase", "mnist-even") for r in PU_REGIMES
    }
    assert {_cells.cell_version(c) for c in searched} == {_cells.SEARCH_ROWS_VERSION}
    # the very cells (so the keys) the option computes
    option = RunConfig(runs=2, datasets=tables, options={"fscpu_search_rows": FSCPU_SEARCH_ROWS})
    assert sorted(map(cell_key, searched)) == sorted(map(cell_key, make_cells(option)))


def test_a_cell_with_the_option_runs_fscpu_on_that_many_rows(monkeypatch):
    seen = {}

    def board(X, weak, *, settings, **kwargs):
        seen.update(settings)
        raise KeyboardInterrupt  # the settings reached the board: nothing else to run

    monkeypatch.setattr(_cells, "_table", _small_synthetic)  # 400 rows, 280 to train
    monkeypatch.setattr(_cells, "compare_selectors", board)
    cell = {"dataset": "synth-informative", "regime": "pu-scar-0.5", "seed": 0}
    with pytest.raises(KeyboardInterrupt):
        run_cell({**cell, "fscpu_search_rows": 200})
    assert seen["fscpu"]["search_rows"] == seen["fscpu_mi"]["search_rows"] == 200
    with pytest.raises(KeyboardInterrupt):
        run_cell(cell)
    assert "search_rows" not in seen["fscpu"] and "search_rows" not in seen["fscpu_mi"]


def test_reference_names_are_compares():
    from weakfs import compare
    from weakfs.experiments.benchmark import _protocol

    assert (_protocol.RANDOM, _protocol.ALL_FEATURES) == (compare.RANDOM, compare.ALL_FEATURES)


def test_biased_regime_labels_favour_high_scoring_positives():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(4000, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=4000) > 0).astype(int)
    s = _weak_labels("pu-biased", 0.3, X, y, seed=1)
    assert not s[y == 0].any()  # only positives are labeled
    assert abs(s[y == 1].mean() - 0.3) < 0.05  # the asked share on average
    pos = y == 1
    # not SCAR: labeled positives sit further along the class direction than unlabeled ones
    assert X[pos & (s == 1), 0].mean() > X[pos & (s == 0), 0].mean() + 0.2


def test_semi_regime_labels_a_few_per_class():
    y = np.r_[np.zeros(200, int), np.ones(100, int)]
    labels = _weak_labels("semi", 0.05, None, y, seed=0)
    assert (labels[y == 0] == 0).sum() == 10 and (labels[y == 1] == 1).sum() == 5
    assert ((labels == -1) | (labels == y)).all()


@pytest.mark.needs_data("heart_statlog")
def test_no_label_cell_has_ufvs_variance_and_references():
    out = run_cell({"dataset": "heart", "regime": "none", "seed": 0})
    assert out["method"][0] == "ufvs" and out["method"][-1] == ALL_FEATURES
    assert len({len(v) for k, v in out.items() if isinstance(v, list)}) == 1
    assert out["k"][0] == out["k"][1]  # the variance baseline takes UFVS's number
    fixed = [k for m, k, r in zip(out["method"], out["k"], out["k_rule"]) if r == "fixed"]
    assert fixed == [5, 10, 13]  # the fixed ks below 13 columns, then all of them
    assert out["random_auc"][-1] == out["truth_auc"][-1]  # all columns, however drawn
    assert all(0.0 <= a <= 1.0 for a in out["truth_auc"] + out["truth_auc_trees"])


def _small_settings(n_rows, n_columns, ks, fscpu_search_rows=None):
    """Cheap settings for a test: the plumbing, not the methods' quality."""
    return {
        "fscpu": {
            "n_iter": {int(k): 8 for k in ks},
            **({"search_rows": fscpu_search_rows} if fscpu_search_rows else {}),
        },
        "fscpu_mi": {"n_iter": {int(k): 8 for k in ks}},
        "gkf_pual": {"n_lambdas": {int(k): 2 for k in ks if k <= 5}},
        "pu_extra_trees": {"n_estimators": 20},
    }


def _small_synthetic(name):
    from weakfs.datasets import make_informative_noise

    X, y, relevant = make_informative_noise(
        400, n_informative=5, n_redundant=5, n_noise=20, as_frame=False, random_state=7
    )
    return X, y, relevant


@pytest.mark.slow
def test_synthetic_pu_cell_scores_selections_by_the_truth(monkeypatch):
    monkeypatch.setattr(_cells, "method_settings", _small_settings)
    monkeypatch.setattr(_cells, "_table", _small_synthetic)  # 400 rows: the plumbing
    monkeypatch.setattr(_leaderboard, "n_repeats_for", lambda n_labeled: 1)  # one repetition
    cell = {"dataset": "synth-informative", "regime": "pu-scar-0.5", "seed": 0}
    out = run_cell(cell)
    methods = out["method"]
    assert ALL_FEATURES in methods and RANDOM not in methods  # random: every row's reference
    rows = list(zip(methods, out["k"], out["k_rule"]))
    # every proposed PU method in the cell, each at the fixed ks (GKF-PUAL where its settings
    # run it) and at its automatic k
    for m in ("fscpu", "fscpu_mi", "pu_extra_trees", "gkf_pual"):
        assert (m, 5, "fixed") in rows and sum(r[0] == m and r[2] == "auto" for r in rows) == 1
    assert ("gkf_pual", 10, "fixed") not in rows and ("fscpu", 20, "fixed") in rows
    auc = dict(zip(rows, out["truth_auc"]))
    best = max((r for r in rows if r[0] != ALL_FEATURES and r[2] == "fixed"), key=auc.get)
    i = rows.index(best)
    # the informative columns carry the class: random columns of the same number do worse,
    # and the best selection recalls more relevant columns than a random one would (k / d)
    assert auc[best] > out["random_auc"][i] and out["truth_auc_trees"][i] > 0.5
    assert out["fsr"][i] > out["k"][i] / out["n_features"]
    assert np.isfinite(out["prior"]) and 0 < out["prior"] < 1
    assert '"n_iter": {"5": 8, "10": 8, "20": 8}' in out["settings"]
    # the board's flags: one recommendation among the automatic-k rows and all features
    candidates = [j for j, r in enumerate(rows) if r[2] == "auto" or r[0] == ALL_FEATURES]
    assert sum(out["recommended"][j] for j in candidates) == 1


GENES = ["colon", "allaml", "leukemia", "glioma"]


def _fake_table(n_datasets=4, seeds=3):
    """Cells of version 4: selectors a, b, c at their automatic k, a at two fixed ks, all
    features; on the genes family (the report groups by family)."""
    rows = []
    methods = ["a", "b", "c", ALL_FEATURES, "a", "a"]
    for d in range(n_datasets):
        for seed in range(seeds):
            rows.append(
                {
                    "dataset": GENES[d],
                    "regime": "pu-scar-0.1",
                    "seed": seed,
                    "method": methods,
                    "k": [2, 3, 4, 10, 5, 10],
                    "k_rule": ["auto", "auto", "auto", "fixed", "fixed", "fixed"],
                    "weak_score": [0.9, 0.8, 0.5 + 0.1 * d, 0.85, 0.9, 0.88],
                    "truth_auc": [0.92, 0.81, 0.5 + 0.1 * d, 0.9, 0.91 + 0.01 * d, 0.9],
                    "truth_auc_trees": [0.9, 0.8, 0.5, 0.85, 0.9, 0.86],
                    "random_auc": [0.6, 0.6, 0.65, 0.9, 0.7, 0.9],
                    "random_auc_trees": [0.6, 0.6, 0.6, 0.85, 0.7, 0.85],
                    "truth_f1": [0.8, 0.7, 0.5, 0.8, 0.8, 0.8],
                    "tied": [True, False, False, True, True, True],
                    "recommended": [True, False, False, False, True, False],
                    "select_seconds": [1.0, 0.1, 10.0, 0.0, 1.0, 1.0],
                    "features": [
                        [0, 1],
                        [0, 1, 2],
                        [seed, 4, 5, 6],
                        list(range(10)),
                        list(range(5)),
                        list(range(10)),
                    ],
                    "fsr": [np.nan] * 6,
                    "n_features": 10,
                    "settings": '{"a": {"n_iter": {"5": 300, "10": 200}}}',
                    "notes": "c left out: its fit failed (boom)" if d == 0 else "",
                }
            )
    return pd.DataFrame(rows)


def test_report_answers_per_family_ranks_wins_and_agreement(tmp_path):
    ctx = ReportContext(tmp_path, "benchmark", RunConfig(), "weakfs reproduce benchmark")
    text = write_report(_fake_table(), ctx)
    # per family: a at k = 5 gains over all features on every dataset (0.01 + 0.01 d), but four
    # datasets cannot make a one-sided Wilcoxon p below 1/16 after Holm over the 4 choices
    answer = text.split("(judge: logistic regression)")[1].split("##")[0]
    row = next(line for line in answer.splitlines() if line.startswith("| genes "))
    cells = [c.strip() for c in row.split("|")]
    assert cells[5] == "a k=5" and cells[8] == "4" and cells[-2] == "not shown"
    assert "(judge: extra trees)" in text
    assert (tmp_path / "benchmark_k.png").stat().st_size > 1000
    assert "## pu-scar-0.1" in text and "Friedman test over 4 datasets x 4 methods" in text
    board = text.split("## pu-scar-0.1")[1]
    first_row = [line for line in board.splitlines() if line.startswith("| a ")]
    assert first_row and float(first_row[0].split("|")[2]) == 1.0  # a: first everywhere
    # c falls below random of its size on colon and allaml
    assert "| c " in board and "allaml, colon |" in board
    agreement = board.split("mean Spearman correlation ")[1]
    rho = float(agreement.split(" over the board's rows")[0])
    assert 0.9 < rho <= 1.0  # the fake weak scores order the methods almost as the truth does
    first, cells = agreement.split("within 0.03 truth AUC of the best selector in ")[1].split(
        " of "
    )
    assert int(first) == int(cells.split(" cells")[0])  # its first choice is the best each time
    assert (tmp_path / "benchmark_cost.png").stat().st_size > 1000
    assert "Grid done: 4 of" in text
    assert "a n_iter=200..300" in text and "c in 3 of 12" in text
    calibration = text.split("## The board's calibration")[1]
    assert "| pu-scar-0.1 | 12 | 100 % " in calibration  # the best candidate is always in the group
    # no miss, regret 0, and "a" (a selection) recommended in all 12 cells
    assert "| pu-scar-0.1 | 12 | 100 % | 0 | 0 | 12 | a |" in calibration
    # the other rules: all features is 0.02 below "a" in every cell; every rule on the top
    # group {a, all features} picks a (fewest features, largest selection, higher score)
    assert "| pu-scar-0.1 | 0.0000 (0 of 12) | 0.0200 (0 of 12) | 0.0000 (0 of 12) " in calibration
    # always the best, as is always choosing "a": equal regrets, so not strictly below
    assert calibration.split("| pu-scar-0.1 | 12 | 100 % ")[1].split("\n")[0].endswith("| no |")


def test_calibration_counts_only_the_top_group_not_a_recommendation_outside_it(tmp_path):
    """With too few labels the board recommends all features outside its top group: a truly
    best recommendation there does not count as the best lying in the top group."""
    table = _fake_table()
    cell = table.loc[0].copy()
    cell["truth_auc"] = [0.92, 0.81, 0.5, 0.95, 0.91, 0.9]  # all features truly best
    cell["tied"] = [True, False, False, False, True, True]
    cell["recommended"] = [False, False, False, True, False, False]
    table.loc[0] = cell
    ctx = ReportContext(tmp_path, "benchmark", RunConfig(), "weakfs reproduce benchmark")
    calibration = write_report(table, ctx).split("## The board's calibration")[1]
    # a miss that cost nothing (the recommendation is the truly best); the other 11 cells
    # recommend "a", a selection, and each is the best there: regret 0
    assert "| pu-scar-0.1 | 12 | 92 % | 0 | 0 | 11 | " in calibration


def test_calibration_counts_the_misses_that_cost_the_recommendation(tmp_path):
    """A best candidate outside the top group counts as a costly miss only where the
    recommendation lies more than 0.03 truth AUC below it."""
    table = _fake_table()
    for row, truth_b in ((0, 0.99), (1, 0.94)):  # b, untied, truly best: 0.07 and 0.02 above a
        cell = table.loc[row].copy()
        cell["truth_auc"] = [0.92, truth_b, 0.5, 0.9, 0.91, 0.9]
        table.loc[row] = cell
    ctx = ReportContext(tmp_path, "benchmark", RunConfig(), "weakfs reproduce benchmark")
    calibration = write_report(table, ctx).split("## The board's calibration")[1]
    # regret (0.07 + 0.02) / 12; only the first miss lies more than 0.03 below
    assert "| pu-scar-0.1 | 12 | 83 % | 1 | 0.0075 | 12 | " in calibration


def test_report_prints_a_gain_just_below_zero_with_its_sign(tmp_path):
    """A mean gain that rounds to zero at three decimals keeps one significant digit: -0.0002,
    not -0 (nor 0 beside a verdict of no)."""
    table = _fake_table()
    # a at k = 5 lies 0.0002 below all features on every dataset, every other choice further
    table["truth_auc"] = table["truth_auc"].map(lambda t: [0.9, 0.81, 0.5, 0.92, 0.9198, 0.9])
    ctx = ReportContext(tmp_path, "benchmark", RunConfig(), "weakfs reproduce benchmark")
    answer = write_report(table, ctx).split("(judge: logistic regression)")[1].split("##")[0]
    row = next(line for line in answer.splitlines() if line.startswith("| genes "))
    cells = [c.strip() for c in row.split("|")]
    assert cells[5] == "a k=5" and cells[7] == "-0.0002" and cells[-2] == "no"


def _brute_force_signed_rank_p(diff) -> float:
    """One-sided (greater) signed-rank p by listing every sign pattern in Python."""
    nonzero = [d for d in diff if d != 0]
    magnitudes = sorted(abs(d) for d in nonzero)

    def rank(value):  # average rank among the absolute values
        positions = [i + 1 for i, m in enumerate(magnitudes) if m == value]
        return sum(positions) / len(positions)

    ranks = [rank(abs(d)) for d in nonzero]
    observed = sum(r for r, d in zip(ranks, nonzero) if d > 0)
    sums = [
        sum(r for r, sign in zip(ranks, signs) if sign)
        for signs in itertools.product([0, 1], repeat=len(ranks))
    ]
    return sum(t >= observed for t in sums) / len(sums)


@pytest.mark.parametrize("seed", range(40))
def test_signed_rank_p_is_the_share_of_sign_patterns_reaching_the_observed_sum(seed):
    from scipy.stats import wilcoxon

    from weakfs.experiments._report_statistics import wilcoxon_greater

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 11))
    # coarse values: ties and zeros are common, as with AUC gains averaged over few repetitions
    diff = rng.integers(-3, 4, size=n) / 100
    if not np.any(diff):
        diff[0] = 0.01
    assert wilcoxon_greater(diff) == _brute_force_signed_rank_p(diff)
    # no ties, no zeros: scipy's exact null distribution (in every scipy release)
    distinct = (np.abs(diff) + np.arange(1, n + 1) * 1e-3) * rng.choice([-1, 1], size=n)
    exact = wilcoxon(distinct, alternative="greater", method="exact").pvalue
    assert wilcoxon_greater(distinct) == pytest.approx(exact)


def test_rarest_labeled_group_of_pu_and_semi_labels():
    from weakfs.compare import rarest_labeled_group

    assert rarest_labeled_group(np.array([0, 1, 0, 0]), "pu") == 1
    assert rarest_labeled_group(np.array([-1, 0, 0, 1, 1, 1, -1]), "semi") == 2
    assert _cells._board_kind("pu-biased-0.3") == "pu" and _cells._board_kind("semi-5pc") == "semi"


@pytest.mark.needs_data("ORL")
def test_cell_with_one_labeled_positive_is_recorded_as_cannot_run():
    # ORL at 10 %: 7 training positives, one labeled; the board cannot make two folds
    cell = {"dataset": "orl", "regime": "pu-scar-0.1", "seed": 0}
    weak = _cells.cell_split(**cell)[-1]
    assert int(weak.sum()) == 1
    out = run_cell(cell)
    assert out["notes"].startswith("cannot run: 1 labeled training row(s)")
    assert out["method"] == [] and out["truth_auc"] == [] and out["settings"] == "{}"


def test_report_counts_cells_that_cannot_run_apart(tmp_path):
    table = _fake_table()
    empty = {key: [] for key, value in table.loc[0].items() if isinstance(value, list)}
    cannot = {
        **table.loc[0].to_dict(),
        **empty,
        "dataset": "glioma",
        "seed": 4,
        "settings": "{}",
        "notes": "cannot run: 1 labeled training row(s) in the rarest labeled group",
    }
    table = pd.concat([table, pd.DataFrame([cannot])], ignore_index=True)
    ctx = ReportContext(tmp_path, "benchmark", RunConfig(), "weakfs reproduce benchmark")
    text = write_report(table, ctx)
    assert "13 cells, 0 pairs with the 5 repetitions asked for (1 of the cells cannot run)." in text
    assert "Cannot run: 1 cell (pu-scar-0.1: glioma seed 4)" in text
    # left out of the analysis: the calibration still counts the 12 cells that ran
    assert "| pu-scar-0.1 | 12 | 100 % " in text.split("## The board's calibration")[1]


@pytest.mark.needs_data(*{source for source, _ in DATASETS.values() if source != "synth"})
def test_fscpu_rows_comparison_reads_the_tables_the_option_changes():
    from weakfs.experiments.benchmark_fscpu_rows._protocol import OPTION, PU_REGIMES, TABLES

    cells = make_cells(RunConfig(runs=1, options=dict(OPTION)))
    assert {c["dataset"] for c in cells} == set(TABLES) == set(FSCPU_SEARCH_ROWS_TABLES)
    assert {c["regime"] for c in cells} == set(PU_REGIMES)
    assert OPTION == {"fscpu_search_rows": FSCPU_SEARCH_ROWS}


def _stored_cell(experiment, dataset, seed, rows):
    """A cell as the store gives it: its board rows as lists; ``rows`` of (method, k, k_rule,
    truth AUC, recommended, tied)."""
    method, k, rule, auc, recommended, tied = (list(c) for c in zip(*rows))
    return {
        "experiment": experiment,
        **{"dataset": dataset, "regime": "pu-scar-0.3", "seed": seed},
        **{"method": method, "k": k, "k_rule": rule, "truth_auc": auc},
        **{"truth_auc_trees": auc, "recommended": recommended, "tied": tied},
    }


def test_fscpu_rows_comparison_pairs_rows_and_judges_against_the_seed_spread():
    from weakfs.experiments.benchmark_fscpu_rows._derive import records
    from weakfs.experiments.benchmark_fscpu_rows._report import (
        changed_recommendations,
        per_table,
        write_report,
    )

    paper, option = "benchmark@../..", "benchmark"
    stored = []
    for seed, (base, new) in enumerate([(0.80, 0.84), (0.90, 0.93), (0.85, 0.85)]):
        mrmr = ("mrmr", 5, "fixed", 0.7, seed == 0, seed == 0)
        stored.append(
            _stored_cell(
                paper, "spambase", seed, [("fscpu", 5, "fixed", base, seed > 0, True), mrmr]
            )
        )
        changed = ("fscpu", 5, "fixed", new, seed > 0, True)
        stored.append(_stored_cell(option, "spambase", seed, [changed, mrmr]))
    # a cell of the paper's side alone is not paired
    stored.append(_stored_cell(paper, "gina", 0, [("fscpu", 5, "fixed", 0.5, True, True)]))
    table = records(pd.DataFrame(stored))
    assert len(table) == 6 and set(table["dataset"]) == {"spambase"}
    verdict = per_table(table).set_index("table").loc["spambase"]
    # brute force: paired differences 0.04, 0.03, 0; the paper's sd over the three seeds
    assert verdict["paired difference"] == "+0.0233"
    assert verdict["sd (seed to seed)"] == f"{np.std([0.80, 0.90, 0.85], ddof=1):.4f}"
    assert verdict["verdict"] == "within" and verdict["rows changed"] == "2 of 3"
    assert changed_recommendations(table).empty
    # the option's row loses the recommendation in one cell: that cell is listed
    stored[1]["recommended"] = [False, False]
    moved = changed_recommendations(records(pd.DataFrame(stored)))
    assert moved[["dataset", "seed"]].values.tolist() == [["spambase", 0]]
    assert moved.loc[0, "paper's search"] == "mrmr (k = 5, fixed)" and moved.loc[0, "option"] == ""
    # automatic-k rows pair by method even where the two sides chose another k
    auto = [
        _stored_cell(paper, "gina", 1, [("fscpu_mi", 3, "auto", 0.61, False, False)]),
        _stored_cell(option, "gina", 1, [("fscpu_mi", 4, "auto", 0.64, False, False)]),
    ]
    paired = records(pd.DataFrame(auto))
    assert paired[["k_paper", "k_option", "truth_auc_option"]].values.tolist() == [[3, 4, 0.64]]
    text = write_report(table, None)
    assert "Cells paired: 3 of 160 (spambase 3)" in text
    assert "Every other method's rows: 3 of 3 identical" in text
