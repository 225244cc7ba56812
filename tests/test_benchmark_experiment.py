"""The benchmark experiment: its grid, its label regimes, one real cell and the report."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from weakfs.compare import ALL_FEATURES, RANDOM
from weakfs.experiments._registry import ReportContext, RunConfig, get
from weakfs.experiments.benchmark._cells import _weak_labels, make_cells, run_cell
from weakfs.experiments.benchmark._protocol import DATASETS, REGIMES
from weakfs.experiments.benchmark._report import write_report


def test_registered_and_grid():
    assert get("benchmark").name == "benchmark"
    cells = make_cells(RunConfig(runs=5))
    assert len(cells) == len(DATASETS) * len(REGIMES) * 5
    assert len(DATASETS) >= 12 and len({kind for kind, _ in REGIMES.values()}) >= 4
    assert {c["budget"] for c in cells} == {60.0}
    quick = make_cells(RunConfig(quick=True, datasets=["heart"], methods=["none"]))
    assert quick == [{"dataset": "heart", "regime": "none", "seed": 0, "budget": 20.0}]


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


@pytest.mark.needs_data
def test_no_label_cell_has_ufvs_variance_and_references():
    out = run_cell({"dataset": "heart", "regime": "none", "seed": 0, "budget": 5.0})
    assert out["method"][0] == "ufvs" and out["method"][-2:] == [RANDOM, ALL_FEATURES]
    assert len({len(v) for k, v in out.items() if isinstance(v, list)}) == 1
    assert out["k"][0] == out["k"][1] == out["k"][2]  # the baselines take UFVS's number
    assert out["random_auc"][-1] == out["truth_auc"][-1]  # all columns, however drawn
    assert all(0.0 <= a <= 1.0 for a in out["truth_auc"])


def test_synthetic_pu_cell_scores_selections_by_the_truth():
    cell = {"dataset": "synth-informative", "regime": "pu-scar-0.5", "seed": 0, "budget": 30}
    out = run_cell(cell)
    methods = out["method"]
    assert RANDOM in methods and ALL_FEATURES in methods
    auc = dict(zip(methods, out["truth_auc"]))
    best = max((m for m in methods if m not in (RANDOM, ALL_FEATURES)), key=auc.get)
    i = methods.index(best)
    # the informative columns carry the class: random columns of the same number do worse,
    # and the best selection recalls more relevant columns than a random one would (k / d)
    assert auc[best] > out["random_auc"][i]
    assert out["fsr"][i] > out["k"][i] / out["n_features"]
    assert np.isfinite(out["prior"]) and 0 < out["prior"] < 1
    # the board's flags: one recommendation, in its top group
    assert sum(out["recommended"]) == 1
    assert all(t for t, r in zip(out["tied"], out["recommended"]) if r) or (
        out["method"][out["recommended"].index(True)] == ALL_FEATURES
    )


def _fake_table(n_datasets=4, seeds=3):
    rows = []
    methods = ["a", "b", "c", RANDOM, ALL_FEATURES]
    for d in range(n_datasets):
        for seed in range(seeds):
            rows.append(
                {
                    "dataset": f"d{d}",
                    "regime": "pu-scar-0.1",
                    "seed": seed,
                    "method": methods,
                    "k": [2, 3, 4, 3, 10],
                    "weak_score": [0.9, 0.8, 0.5 + 0.1 * d, 0.6, 0.85],
                    "truth_auc": [0.92, 0.81, 0.5 + 0.1 * d, 0.6, 0.9],
                    "random_auc": [0.6, 0.6, 0.65, 0.6, 0.9],
                    "truth_f1": [0.8, 0.7, 0.5, 0.5, 0.8],
                    "select_seconds": [1.0, 0.1, 10.0, 0.0, 0.0],
                    "features": [[0, 1], [0, 1, 2], [seed, 4, 5, 6], [1, 2, 3], list(range(10))],
                    "fsr": [np.nan] * 5,
                    "n_features": 10,
                    "budget": 60.0,
                    "notes": "fscpu left out: ..." if d == 0 else "",
                }
            )
    return pd.DataFrame(rows)


def test_report_ranks_wins_and_agreement(tmp_path):
    ctx = ReportContext(tmp_path, "benchmark", RunConfig(), "weakfs reproduce benchmark")
    text = write_report(_fake_table(), ctx)
    assert "## pu-scar-0.1" in text and "Friedman test over 4 datasets x 5 methods" in text
    board = text.split("## pu-scar-0.1")[1]
    first_row = [line for line in board.splitlines() if line.startswith("| a ")]
    assert first_row and float(first_row[0].split("|")[2]) == 1.0  # a: first everywhere
    assert "| c " in board and "d0, d1 |" in board  # c falls below random of its size on d0, d1
    agreement = board.split("mean Spearman correlation ")[1]
    rho = float(agreement.split(" over the board's rows")[0])
    assert 0.9 < rho <= 1.0  # the fake weak scores order the methods almost as the truth does
    first, cells = agreement.split("within 0.03 truth AUC of the best selector in ")[1].split(
        " of "
    )
    assert int(first) == int(cells.split(" cells")[0])  # its first choice is the best each time
    assert (tmp_path / "benchmark_cost.png").stat().st_size > 1000
    assert "Grid done: 4 of" in text
    assert "Time budget per cell: 60 s" in text and "fscpu in 3 of 12" in text
