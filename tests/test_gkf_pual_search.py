"""PUF-score tuning (grid then greedy ±10 %) and the gkf_pual-tables experiment plumbing."""

import itertools

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold

from weakfs.metrics import puf_score
from weakfs.model_selection import PUGridGreedySearch, puf_scorer
from weakfs.pu import GLLCClassifier


def _data(seed=0, n=160):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    s = (y.astype(bool) & (rng.uniform(size=n) < 0.5)).astype(int)
    return X, y, s


def _brute_force_cv(X, s, params, seed):
    from weakfs._validation import spawn_seeds

    folds = StratifiedKFold(4, shuffle=True, random_state=int(spawn_seeds(seed, 1)[0]))
    scores = []
    for tr, te in folds.split(X, s):
        est = GLLCClassifier(kernel="linear", **params).fit(X[tr], s[tr])
        scores.append(puf_score(s[te], est.predict(X[te])))
    return float(np.mean(scores))


def test_grid_stage_scores_match_brute_force_and_greedy_improves():
    X, _, s = _data()
    grid = {"C2": [0.3, 0.05], "lam": [0.1, 10.0]}
    search = PUGridGreedySearch(
        GLLCClassifier(kernel="linear"), grid, max_greedy_rounds=3, random_state=0
    ).fit(X, s)
    grid_rows = [r for r in search.cv_results_ if r["stage"] == "grid"]
    assert len(grid_rows) == 4
    for r in grid_rows:
        assert r["mean_score"] == pytest.approx(_brute_force_cv(X, s, r["params"], 0))
    best_grid = max(grid_rows, key=lambda r: r["mean_score"])
    assert search.greedy_path_[0]["score"] == best_grid["mean_score"]
    # accepted greedy moves strictly improve, and each is a ±10 % move of one parameter
    path = search.greedy_path_
    for a, b in itertools.pairwise(path):
        assert b["score"] > a["score"]
        changed = [k for k in a["params"] if a["params"][k] != b["params"][k]]
        assert len(changed) == 1
        ratio = b["params"][changed[0]] / a["params"][changed[0]]
        assert ratio == pytest.approx(1.1) or ratio == pytest.approx(0.9)
    assert search.best_score_ == path[-1]["score"]
    assert search.best_score_ >= max(r["mean_score"] for r in search.cv_results_) - 1e-12
    # refit on all the data with the best parameters
    ref = GLLCClassifier(kernel="linear", **search.best_params_).fit(X, s)
    np.testing.assert_allclose(search.decision_function(X), ref.decision_function(X))
    assert search.tuning_seconds_ > 0 and search.refit_seconds_ > 0


def test_results_do_not_depend_on_n_jobs():
    X, _, s = _data(seed=2)
    grid = {"C2": [0.3, 0.05], "lam": [0.1, 1.0]}
    a = PUGridGreedySearch(
        GLLCClassifier(kernel="linear"), grid, max_greedy_rounds=1, random_state=3, n_jobs=1
    ).fit(X, s)
    from joblib import parallel_config

    with parallel_config(backend="threading"):  # no process start-up cost in the test
        b = PUGridGreedySearch(
            GLLCClassifier(kernel="linear"), grid, max_greedy_rounds=1, random_state=3, n_jobs=2
        ).fit(X, s)
    assert a.best_params_ == b.best_params_ and a.best_score_ == b.best_score_


def test_puf_scorer_and_errors():
    X, _, s = _data()
    est = GLLCClassifier(kernel="linear", C2=0.1).fit(X, s)
    assert puf_scorer(est, X, s) == puf_score(s, est.predict(X))
    with pytest.raises(ValueError, match="param_grid is empty"):
        PUGridGreedySearch(est, {}).fit(X, s)
    few = np.zeros_like(s)
    few[:2] = 1
    with pytest.raises(ValueError, match="4-fold CV needs at least 4 labeled"):
        PUGridGreedySearch(est, {"C2": [0.1]}).fit(X, few)


def test_experiment_cells_and_a_quick_cell():
    from weakfs.experiments._registry import RunConfig, get
    from weakfs.experiments.gkf_pual import make_split
    from weakfs.experiments.gkf_pual._cells import make_cells, run_cell

    assert get("gkf_pual-tables").name == "gkf_pual-tables"
    cells = make_cells(RunConfig(runs=1, quick=True, datasets=["Seeds"], methods=["GKF-PUAL"]))
    assert len(cells) == 2 and {c["gamma"] for c in cells} == {0.5, 0.25}
    data = make_split("Seeds", 0.5, 0)
    d = data["n_relevant"]
    assert data["X_train"].shape[1] == 3 * d == 21
    # γ is the label frequency inside the training set: labeled / all positives in training
    s, y = data["s_train"], data["y_train"]
    assert s.sum() / y.sum() == pytest.approx(0.5, abs=0.05)
    assert np.all(y[s == 1] == 1)
    out = run_cell(cells[0])
    assert 0 <= out["f1"] <= 100 and 0 <= out["irrelevant_removed"] <= 100
    assert out["n_evaluations"] == 1
    # the λ1-path option marks only the searches with λ1 on their grid; without it no key
    assert all("lambda1_path" not in c for c in cells)
    both = RunConfig(
        runs=1,
        quick=True,
        datasets=["Seeds"],
        methods=["GKF-PUAL", "PUAL"],
        options={"lambda1_path": "true"},
    )
    marked = {c["method"]: c.get("lambda1_path", False) for c in make_cells(both)}
    assert marked == {"GKF-PUAL": True, "PUAL": False}


def test_paper_stopping_rule_variant_is_opt_in_and_stops_early():
    from weakfs.experiments._registry import RunConfig
    from weakfs.experiments.gkf_pual import PAPER_STOP
    from weakfs.experiments.gkf_pual._cells import make_cells, run_cell

    default = make_cells(RunConfig(runs=1, quick=True, datasets=["Seeds"]))
    assert PAPER_STOP not in {c["method"] for c in default}
    cells = make_cells(
        RunConfig(runs=1, quick=True, datasets=["Seeds"], methods=["GKF-PUAL", PAPER_STOP])
    )
    optimum = run_cell(next(c for c in cells if c["method"] == "GKF-PUAL" and c["gamma"] == 0.5))
    early = run_cell(next(c for c in cells if c["method"] == PAPER_STOP and c["gamma"] == 0.5))
    # the paper's loose rule (fixed mu, eps_abs 0.25) stops long before the optimum
    assert early["n_iter"] < optimum["n_iter"]
    assert 0 <= early["irrelevant_removed"] <= 100


def test_one_standard_error_rule_takes_the_largest_penalty_within_one_se():
    X, _, s = _data(seed=1)
    grid = {"C2": [0.3, 0.05], "lam": [0.01, 0.1, 1.0, 10.0, 100.0]}
    kw = {"max_greedy_rounds": 1, "random_state": 0}
    best = PUGridGreedySearch(GLLCClassifier(kernel="linear"), grid, **kw).fit(X, s)
    one_se = PUGridGreedySearch(
        GLLCClassifier(kernel="linear"), grid, selection={"lam": "1se"}, **kw
    ).fit(X, s)
    # the same search; only the final choice differs
    assert one_se.top_params_ == best.best_params_ == best.top_params_
    assert one_se.top_score_ == best.best_score_
    rows = one_se.cv_results_
    (top,) = [r for r in rows if r["params"] == one_se.top_params_]
    se = np.std(top["fold_scores"], ddof=1) / np.sqrt(4)
    assert one_se.top_score_se_ == pytest.approx(se)
    within = [r for r in rows if r["mean_score"] >= one_se.top_score_ - se]
    assert one_se.best_params_["lam"] == max(r["params"]["lam"] for r in within)
    assert one_se.best_params_["lam"] >= best.best_params_["lam"]
    assert one_se.best_score_ >= one_se.top_score_ - se
    ref = GLLCClassifier(kernel="linear", **one_se.best_params_).fit(X, s)
    np.testing.assert_allclose(one_se.decision_function(X), ref.decision_function(X))
    # "best" is the paper's rule
    same = PUGridGreedySearch(
        GLLCClassifier(kernel="linear"), grid, selection={"lam": "best"}, **kw
    ).fit(X, s)
    assert same.best_params_ == best.best_params_


@pytest.mark.parametrize(
    ("selection", "match"),
    [
        ({"lam": "2se"}, "'best' or '1se'"),
        ({"lam": "1se", "C2": "1se"}, "one parameter"),
        ({"sigma": "1se"}, "numeric parameter of param_grid"),
    ],
)
def test_selection_errors(selection, match):
    X, _, s = _data()
    search = PUGridGreedySearch(
        GLLCClassifier(kernel="linear"), {"C2": [0.1], "lam": [1.0]}, selection=selection
    )
    with pytest.raises(ValueError, match=match):
        search.fit(X, s)


def test_selection_rule_cells_share_the_paper_search():
    from weakfs.experiments._registry import RunConfig
    from weakfs.experiments.gkf_pual import K_FEATURES, ONE_SE
    from weakfs.experiments.gkf_pual._cells import make_cells, run_cell

    cells = make_cells(
        RunConfig(runs=1, quick=True, datasets=["Seeds"], methods=["GKF-PUAL", ONE_SE, K_FEATURES])
    )
    out = {c["method"]: run_cell(c) for c in cells if c["gamma"] == 0.5}
    paper = out["GKF-PUAL"]
    assert out[ONE_SE]["paper_params"] == out[K_FEATURES]["paper_params"] == paper["best_params"]
    d = 7  # Seeds: 7 original columns, 14 appended
    k = out[K_FEATURES]
    kept, removed = k["relevant_kept"] / 100 * d, (100 - k["irrelevant_removed"]) / 100 * 2 * d
    assert round(kept + removed) == d  # exactly d columns selected
    assert 0 <= k["f1_on_selected"] <= 100 and k["lambda1_max"] > 0
