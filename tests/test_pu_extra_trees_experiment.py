"""The pu_extra_trees-tables experiment's cells and the PU ET plots (small, real runs)."""

from __future__ import annotations

import numpy as np

from weakfs.experiments._registry import RunConfig, get
from weakfs.experiments.pu_extra_trees._cells import make_cells, run_cell
from weakfs.plotting import plot_pu_extra_trees_importance_images, plot_pu_extra_trees_topk_curve


def test_registered_and_cells():
    assert get("pu_extra_trees-tables").name == "pu_extra_trees-tables"
    cells = make_cells(RunConfig(runs=2, datasets=["mushrooms"], methods=["nnPU-quadratic"]))
    assert [c["seed"] for c in cells] == [0, 1]
    quick = make_cells(RunConfig(quick=True))
    parts = {c["part"] for c in quick}
    assert parts == {"table", "appendix-m", "figure-2"}
    assert all(c["n_estimators"] == 10 for c in quick)


def test_mushrooms_cell_runs_the_protocol():
    cell = {
        "part": "table",
        "dataset": "mushrooms",
        "method": "nnPU-quadratic",
        "seed": 0,
        "n_estimators": 10,
        "n_labeled": 1000,
    }
    out = run_cell(cell)
    assert out["n_labeled"] == 1000
    assert out["n_train"] == 6499  # 80 % of 8124
    assert out["accuracy"] > 97
    naive = run_cell({**cell, "method": "NaivePUET"})
    assert naive["accuracy"] < out["accuracy"]


def test_plots_write_png(tmp_path):
    rng = np.random.RandomState(0)
    p1 = tmp_path / "img.png"
    plot_pu_extra_trees_importance_images([rng.rand(784)] * 3, [rng.rand(784)] * 3, path=p1)
    p2 = tmp_path / "curve.png"
    plot_pu_extra_trees_topk_curve([1, 2, 5], rng.rand(3, 3), rng.rand(3, 3), path=p2)
    assert p1.stat().st_size > 1000 and p2.stat().st_size > 1000
