"""The authors' per-split R scripts run end to end (``GKF-PUAL-script``): the pieces against what
the scripts specify (tkks22123/GKF-PUAL, commit f6d319a)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from weakfs.experiments._registry import RunConfig
from weakfs.experiments.gkf_pual._cells import make_cells
from weakfs.experiments.gkf_pual._protocol import SCRIPT
from weakfs.experiments.gkf_pual._scripts import (
    SCRIPTS,
    STAGED_TASKS,
    fit_script,
    parse_script,
    r_f1,
    r_floor_count,
    r_split,
    script_data,
    script_for,
)

#: columns of each script's input file before the noise (features and the class column)
FILE_COLUMNS = {"Pen": 17, "Seeds": 8, "SSMCR": 4, "OR1": 13, "OR2": 13}


def _seeds_like(n_per_class=(20, 20, 5), d=7, seed=0):
    """A table shaped as the Seeds file: classes 1, 2 and 3 (3 is dropped by the script)."""
    rng = np.random.default_rng(seed)
    y = np.repeat([1, 2, 3], n_per_class)
    X = rng.normal(size=(y.size, d)) + 10.0 * (y == 1)[:, None]
    return X, y


def test_r_indexing():
    # R's 1:x floors a fractional x; (p n + 1):n steps from a fractional start and truncates
    assert r_floor_count(52.5) == 52
    train, test = r_split(140)
    assert train.size == 98 and test.size == 42 and test[0] == 98 and test[-1] == 139
    train, test = r_split(145)  # 0.7 * 145 = 101.5: rows 102..144 test, row 145 in neither
    assert train.size == 101 and test.tolist() == list(range(101, 144))


def test_script_data_follows_the_script():
    script = script_for("Seeds", 0.25)
    X, y = _seeds_like()
    data = script_data(script, 0, raw=(X, y))
    # classes 1 and 2 kept (40 rows), 7 variables and 15 of the 31 noise columns
    assert data["n_relevant"] == 7 and data["n_noise"] == 15
    assert data["X_train"].shape == (28, 22) and data["X_test"].shape == (12, 22)
    # floor(0.75 * 20) = 15 positives hidden, 5 labeled, some of them possibly in the test rows
    assert data["n_labeled_all"] == 5
    assert data["s_train"].sum() <= 5
    assert np.all(data["y_train"][data["s_train"] == 1] == 1)
    assert data["y_train"].sum() + data["y_test"].sum() == 20
    # the raw columns are not standardised; the noise is N(0, 1)
    both = np.vstack([data["X_train"], data["X_test"]])
    assert np.isin(both[:, :7], X).all()
    assert abs(both[:, 7:].mean()) < 0.2 and 0.8 < both[:, 7:].std() < 1.2
    # the script's own seeds for repetition 0: the same draw twice, another one for rep 1
    again = script_data(script, 0, raw=(X, y))
    np.testing.assert_array_equal(again["X_train"], data["X_train"])
    other = script_data(script, 1, raw=(X, y))
    assert not np.array_equal(other["X_train"], data["X_train"])


def test_labeled_share_is_gamma():
    # fre_label hides 1 - γ of all positives: γ = 0.5 labels floor-complement of half of them
    X, y = _seeds_like((70, 70, 0))
    for gamma, labeled in ((0.5, 35), (0.25, 18)):
        data = script_data(script_for("Seeds", gamma), 0, raw=(X, y))
        assert data["n_labeled_all"] == labeled


def test_pen_coding():
    rng = np.random.default_rng(1)
    y = np.repeat([1, 8, 4], [20, 20, 40])
    X = rng.integers(0, 100, size=(y.size, 16)).astype(float)
    data = script_data(script_for("Pen", 0.5), 0, raw=(X, y))
    assert data["n_relevant"] == 16 and data["n_noise"] == 16
    assert data["X_train"].shape == (56, 32) and data["X_test"].shape == (24, 32)
    assert data["y_train"].sum() + data["y_test"].sum() == 40  # digits 1 and 8 positive
    assert data["n_labeled_all"] == 20


def test_r_f1_counts_a_zero_score_as_neither():
    y = np.array([1, 1, 0, 0])
    assert r_f1(y, np.array([1.0, -1.0, 1.0, -1.0])) == pytest.approx(50.0)
    # a positive scored exactly 0 is neither a TP nor a FN
    assert r_f1(y, np.array([1.0, 0.0, -1.0, -1.0])) == pytest.approx(100.0)


def test_fit_script_runs_the_fixed_iterations():
    script = dataclasses.replace(script_for("Seeds", 0.5), iter_times=40)
    out = fit_script(script, 0, raw=_seeds_like())
    assert out["n_iter"] == 40 and out["tuning_seconds"] == 0.0
    assert 0.0 <= out["f1"] <= 100.0
    assert out["n_train"] == 28 and out["n_test"] == 12
    # a removed share is a multiple of 1/15 (the 15 noise columns)
    assert np.isclose(out["irrelevant_removed"] * 15 / 100, round(out["irrelevant_removed"] * 0.15))


def test_settings_table():
    assert len(SCRIPTS) == 20 and len({s.file for s in SCRIPTS}) == 20
    staged = [s for s in SCRIPTS if s.staged]
    assert sorted({s.task for s in staged}) == sorted(STAGED_TASKS)
    # one staged script per task and γ; fre_label = 1 - γ in each
    assert len({(s.task, s.gamma) for s in staged}) == len(staged) == 6
    assert all(s.fre_label == 1 - s.gamma for s in staged)
    assert all(s.C1 == 1 and s.theta_K == 1 for s in SCRIPTS)


def test_cells_only_where_a_script_is_staged():
    config = RunConfig(runs=2, methods=[SCRIPT], options={"grid": "reduced"})
    cells = make_cells(config)
    assert {c["dataset"] for c in cells} == set(STAGED_TASKS)
    assert len(cells) == 3 * 2 * 2
    assert all(set(c) == {"dataset", "gamma", "method", "seed"} for c in cells)


EXCERPT = """
iter_times=1500
data111_<-read.table("seeds_dataset.txt",header = FALSE,sep =" ")
ran_start<-122385
for(mgm in 1:30)
for(ran_seed in (ran_start-28))
  data11<-(data1[,c(1:7,9:23)])
  fre_label=0.75
theta_K<-1
for(lambda_1 in c(1))#65
for(lambda_2 in c(1))
for(C_1 in c(1))
for(C_2 in c(0.05 ))
"""


def _check(script, parsed):
    assert parsed["ran_start"] == script.ran_start
    assert parsed["ran_seed"] == script.ran_seed
    assert parsed["n_noise_drawn"] == script.n_noise_drawn
    noise = [c for c in parsed["columns"] if c > FILE_COLUMNS[script.task]]
    assert len(noise) == script.n_noise_kept
    for key in ("fre_label", "iter_times", "C1", "lambda1", "lambda2", "C2", "theta_K"):
        assert parsed[key] == pytest.approx(getattr(script, key)), (script.file, key)


def test_parse_script_excerpt():
    _check(script_for("Seeds", 0.25), parse_script(EXCERPT))


def _repository() -> Path | None:
    path = os.environ.get("WEAKFS_GKF_PUAL_REPO")
    return Path(path) if path else None


@pytest.mark.skipif(
    _repository() is None,
    reason="set WEAKFS_GKF_PUAL_REPO to a clone (or bare git directory) of tkks22123/GKF-PUAL",
)
def test_settings_match_the_scripts():
    repo = _repository()
    for script in SCRIPTS:
        if (repo / script.file).is_file():
            text = (repo / script.file).read_text(encoding="utf-8", errors="replace")
        else:  # a bare git directory
            text = subprocess.run(
                ["git", "-C", str(repo), "show", f"HEAD:{script.file}"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        _check(script, parse_script(text))
