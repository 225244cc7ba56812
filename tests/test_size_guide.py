"""The size guide: the board's rule at a size the user names, the file the package ships, and
the report that evaluates it leave one dataset out."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from weakfs.compare._size_guide import (
    GUIDE_FILE,
    N0_GRID,
    SizeGuide,
    load_size_guide,
    nearest_guide_k,
)

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "results" / "board-at-k.csv"


def _rows(seed: int = 0, cells: int = 12) -> pd.DataFrame:
    """Benchmark-shaped rows: in every cell, method "good" is truly best, "noisy" has the
    highest weak score half of the time."""
    rng = np.random.RandomState(seed)
    out = []
    for c in range(cells):
        n = [2, 200][c % 2]
        for method, truth in (("good", 0.9), ("plain", 0.85), ("noisy", 0.8)):
            weak = truth + rng.normal(scale=0.05) + (0.2 if method == "noisy" and c % 4 < 2 else 0)
            out.append(
                {"cell": f"c{c}", "group": f"g{c % 3}", "kind": "pu", "wide": False, "k": 10,
                 "method": method, "weak": weak, "truth": truth, "n_labeled": n}
            )  # fmt: skip
    return pd.DataFrame(out)


def test_many_labels_follow_the_weak_scores_few_follow_the_benchmark():
    guide = SizeGuide.fit(_rows(), n0=10)
    methods = ["good", "plain", "noisy"]
    scores = [0.80, 0.85, 0.99]  # the weak labels favour "noisy"
    few = guide.posterior(methods, scores, kind="pu", n_columns=30, k=10, n_labeled=0)
    many = guide.posterior(methods, scores, kind="pu", n_columns=30, k=10, n_labeled=10**9)
    assert methods[int(np.argmax(few))] == "good"  # the benchmark's best
    assert methods[int(np.argmax(many))] == "noisy"  # the weak scores' best
    assert np.argsort(many).tolist() == np.argsort(scores).tolist()


def test_the_weight_and_the_tie_margin_move_with_the_labeled_count():
    guide = SizeGuide.fit(_rows(), n0=10)
    assert guide.weight(10) == pytest.approx(0.5)
    # the margin is the weighted noise, sqrt(2 c n) / (n + n0): largest where the weak scores
    # and the benchmark weigh alike, small when the weak scores weigh little or are precise
    margins = guide.tie_margin(["pu"] * 3, [0.1, 10, 10**6])
    assert margins[1] > margins[0] and margins[1] > margins[2]
    c = guide.noise["pu"]
    assert margins[1] == pytest.approx(1.6449 * 0.5 * np.sqrt(2 * c / 10))


def test_regret_is_the_best_truth_minus_the_pick_by_brute_force():
    rows = _rows(seed=3)
    guide = SizeGuide.fit(rows)
    assert guide.n0 in N0_GRID
    post = guide.posteriors(rows)
    expected = []
    for _, cell in rows.assign(p=post).groupby(["cell", "k"]):
        expected.append(cell["truth"].max() - cell.loc[cell["p"].idxmax(), "truth"])
    assert np.allclose(np.sort(guide.regret(rows).to_numpy()), np.sort(expected))
    # n0 is the grid's value of lowest regret on each group's cells, the guide fitted without
    # that group (brute force)
    means = {}
    for n0 in N0_GRID:
        regrets = []
        for group in sorted(rows["group"].unique()):
            held = SizeGuide.fit(rows[rows["group"] != group], n0=n0)
            regrets.append(held.regret(rows[rows["group"] == group]))
        means[n0] = pd.concat(regrets).mean()
    assert guide.n0 == min(means, key=means.get)


def test_a_method_the_benchmark_did_not_run_gets_no_pull():
    guide = SizeGuide.fit(_rows(), n0=10)
    assert guide.gain(["unknown"], kind="pu", wide=False, k=10).tolist() == [0.0]


@pytest.mark.parametrize(
    ("k", "expected"), [(1, 10), (10, 10), (14, 10), (15, 20), (32, 50), (500, 50)]
)
def test_a_named_size_reads_the_nearest_guide_size_on_log_k(k, expected):
    assert nearest_guide_k(k) == expected


def test_the_json_round_trip_is_exact():
    guide = SizeGuide.fit(_rows(), n0=30)
    again = SizeGuide.from_json(guide.to_json())
    assert again.to_json() == guide.to_json()


@pytest.mark.skipif(not TABLE.exists(), reason="no committed board-at-k table")
def test_the_shipped_guide_is_the_one_the_committed_cells_give():
    from weakfs.experiments.board_at_k._derive import guide_rows

    table = pd.read_csv(TABLE)
    fitted = SizeGuide.fit(guide_rows(table))
    assert load_size_guide().to_json() == fitted.to_json()
    shipped = ROOT / "src" / "weakfs" / "compare" / GUIDE_FILE
    assert (ROOT / "results" / GUIDE_FILE).read_text() == shipped.read_text()


@pytest.mark.skipif(not TABLE.exists(), reason="no committed board-at-k table")
def test_every_committed_cell_and_size_has_one_recommendation_among_its_tied_rows():
    table = pd.read_csv(TABLE)
    for _, group in table.groupby(["dataset", "regime", "seed", "k"]):
        assert group["recommended_at_k"].sum() == 1
        rec = group[group["recommended_at_k"]]
        assert bool(rec["tied_at_k"].iloc[0])
        assert rec["posterior"].iloc[0] == group["posterior"].max()


@pytest.mark.skipif(not TABLE.exists(), reason="no committed board-at-k table")
def test_the_report_body_is_what_the_committed_table_gives():
    from weakfs.experiments.board_at_k._report import misses, regret_table

    text = (ROOT / "results" / "board-at-k.md").read_text()
    table = pd.read_csv(TABLE)
    regrets = regret_table(table)
    for row in regrets.itertuples(index=False):
        assert f"| {row.regime} | {row.k} | {row.cells} |" in text
    for miss in misses(table):
        assert miss in text
    assert list(itertools.chain(misses(table)))  # the report says where the target is missed
