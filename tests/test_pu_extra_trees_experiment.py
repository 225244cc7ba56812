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


# ----------------------------------------------------------------------------------------------
# the ablation of the PU baselines (U with or without P, bag size, trees per bag)
# ----------------------------------------------------------------------------------------------


def _toy_pu(seed: int = 0):
    rng = np.random.RandomState(seed)
    X = rng.rand(300, 6)
    y = (X[:, 0] > 0.5).astype(int)
    s = np.zeros(300, dtype=int)
    s[np.flatnonzero(y)[:40]] = 1
    return X, y, s


def test_ablation_cells_only_on_mushrooms():
    from weakfs.experiments.pu_extra_trees._protocol import ABLATION_METHODS

    cells = make_cells(RunConfig(runs=5))
    ablation = [c for c in cells if c["method"] in ABLATION_METHODS]
    assert len(ABLATION_METHODS) == 2 + 8 and len(ablation) == 10 * 5
    assert {c["dataset"] for c in ablation} == {"mushrooms"}
    assert {"NaivePUET-noP", "PUBaggingET-noP-bagP-10x100"} <= set(ABLATION_METHODS)


def test_ablation_settings_of_the_baselines():
    from weakfs.experiments.pu_extra_trees._cells import _fit_method, _u_rows

    X, y, s = _toy_pu()
    assert _u_rows(s, True).shape[0] == 300 and not s[_u_rows(s, False)].any()

    def fit(method):
        return _fit_method(method, X, y, s, 0.5, 20, 0)

    # the tables' baselines are the ablation's withP, |U|, 10 x 10 settings, exactly
    np.testing.assert_array_equal(fit("NaivePUET").predict(X), fit("NaivePUET-withP").predict(X))
    np.testing.assert_array_equal(
        fit("PUBaggingET").predict(X), fit("PUBaggingET-withP-bagU-10x10").predict(X)
    )

    def rows_per_bag(model):  # the root of a tree holds every row it was grown on
        return {int(m.estimators_[0].tree_.n_node_samples[0]) for m in model.models_}

    assert rows_per_bag(fit("PUBaggingET-withP-bagU-10x10")) == {40 + 300}
    assert rows_per_bag(fit("PUBaggingET-noP-bagU-10x10")) == {40 + 260}
    assert rows_per_bag(fit("PUBaggingET-noP-bagP-10x10")) == {40 + 40}
    big = fit("PUBaggingET-withP-bagP-10x100")
    assert len(big.models_) == 10 and {len(m.estimators_) for m in big.models_} == {100}
    naive = fit("NaivePUET-noP")
    assert int(naive.estimators_[0].tree_.n_node_samples[0]) == 40 + 260


def test_ablation_report_names_the_setting_near_the_paper(tmp_path):
    import pandas as pd

    from weakfs.experiments._registry import ReportContext
    from weakfs.experiments.pu_extra_trees._protocol import ABLATION_METHODS

    rows = []
    for m in ABLATION_METHODS:
        near = m in ("NaivePUET-noP", "PUBaggingET-noP-bagU-10x10")
        acc, f1 = (54.0, 20.0) if m.startswith("Naive") else (63.0, 45.0)
        for seed in range(3):
            rows.append(
                {
                    "part": "table",
                    "dataset": "mushrooms",
                    "method": m,
                    "seed": seed,
                    "accuracy": acc if near else 48.0,
                    "f1": f1 if near else 0.0,
                    "seconds": 1.0,
                }
            )
    ctx = ReportContext(tmp_path, "pu_extra_trees-tables", RunConfig(), "test")
    text = get("pu_extra_trees-tables").write_report(pd.DataFrame(rows), ctx)
    assert "## Ablation: the PU baselines' settings (mushrooms)" in text
    assert "within 3 points on both: `NaivePUET-noP` (all with U = unlabeled rows only)" in text
    assert "within 3 points on both: `PUBaggingET-noP-bagU-10x10` (all with" in text
