"""The GKF-PUAL experiment's cells: one tuned classifier per (task, γ, method, repetition)."""

from __future__ import annotations

import functools
import time

from sklearn.metrics import f1_score

from weakfs.experiments._registry import RunConfig
from weakfs.experiments.gkf_pual._protocol import (
    DATASETS,
    EXTRA_METHODS,
    GRIDS,
    LAMBDA1_METHODS,
    METHODS,
    ONE_SE,
    PAPER_STOP,
    R_CODE,
    R_CODE_ITERATIONS,
    SCRIPT,
    SELECTION_METHODS,
)
from weakfs.experiments.gkf_pual._scripts import STAGED_TASKS, fit_script, script_for
from weakfs.experiments.gkf_pual._tasks import make_split

__all__ = ["VERSION", "make_cells", "run_cell"]


def _version(cell: dict) -> int:
    """2 for the paper-stopping variant (eq. 31's dual residuals only, ``stopping="paper"``)."""
    return 2 if cell.get("method") == PAPER_STOP else 1


#: raised whenever a change here alters a cell's result (a function of the cell)
VERSION = _version


def _grid_for(method: str, grid: str) -> dict:
    g = GRIDS[grid]
    if method in ("GKF-PUAL", PAPER_STOP, R_CODE, *SELECTION_METHODS):
        lambda2 = [0.1] if grid == "reduced" else g["lam"]
        return {"lambda1": g["lambda1"], "lambda2": lambda2, "sigma": g["sigma"], "C2": g["C2"]}
    if method == "KF-PUAL":
        return {"lambda2": g["lam"], "sigma": g["sigma"], "C2": g["C2"]}
    return {"lam": g["lam"], "sigma": g["sigma"], "C2": g["C2"]}


def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", DATASETS)
    methods = config.keep("methods", METHODS + EXTRA_METHODS) if config.methods else METHODS
    # the paper's protocol is the default; --set grid=reduced / greedy_rounds=N trade it for time
    grid = str(config.options.get("grid", "tiny" if config.quick else "full"))
    rounds = config.options.get("greedy_rounds", 0 if config.quick else None)
    rounds = None if rounds is None else int(rounds)
    gammas = [float(g) for g in str(config.options.get("gammas", "0.5,0.25")).split(",")]
    # --set lambda1_path=true: GKF-PUAL's grid stage fits its λ1 values along warm-started paths
    # (an option; in the cell key only when set, so the separate-fit cells keep their keys)
    lambda1_path = str(config.options.get("lambda1_path", "false")).lower() in ("1", "true", "yes")
    # repetition-major: a run cut short (they take hours) leaves every dataset with the same reps
    cells = [
        {"dataset": d, "gamma": g, "method": m, "seed": r, "grid": grid, "greedy_rounds": rounds}
        for r in range(config.n_runs(10))
        for d in datasets
        for g in gammas
        for m in methods
    ]
    # the authors' scripts: only where their data are staged, and with no tuning, so without the
    # grid in the cell (their results do not depend on it)
    cells = [
        {k: c[k] for k in ("dataset", "gamma", "method", "seed")} if c["method"] == SCRIPT else c
        for c in cells
        if c["method"] != SCRIPT or c["dataset"] in STAGED_TASKS
    ]
    if lambda1_path:
        for cell in cells:
            if cell["method"] in LAMBDA1_METHODS:
                cell["lambda1_path"] = True
    return cells


#: the graph solver's rule the committed cells ran: factored up to 2,000 training rows (the
#: library's "auto" now switches at 500; conjugate gradients give the same fits to ~1e-13, but
#: the GKF-PUAL-k path can bisect to a slightly other λ1, so the experiment keeps the old rule)
GRAPH_SOLVER = 2000


def _estimator(method: str, seed: int, prior: float):
    from weakfs.pu import (
        GKFPUALClassifier,
        GLLCClassifier,
        NNPUClassifier,
        PUALClassifier,
        UPUClassifier,
    )

    if method in ("GKF-PUAL", *SELECTION_METHODS):
        return GKFPUALClassifier(standardize=False, max_iter=5000, graph_solver=GRAPH_SOLVER)
    if method == PAPER_STOP:
        return GKFPUALClassifier(
            standardize=False,
            max_iter=5000,
            graph_solver=GRAPH_SOLVER,
            adaptive_mu=False,
            tol=1e-3,
            abs_tol=0.25,
            stopping="paper",
        )
    if method == R_CODE:
        # the authors' R code: fixed mu, no stopping test, L1-norm group threshold, its start,
        # its zero test through t and its dense graph over all pairs
        return GKFPUALClassifier(
            standardize=False,
            mu=0.01,
            adaptive_mu=False,
            stopping="none",
            max_iter=R_CODE_ITERATIONS,
            group_norm="l1",
            init="r-code",
            zero_tol=1e-6,
            n_neighbors=None,
        )
    if method == "KF-PUAL":
        return GKFPUALClassifier(
            lambda1=0.0, standardize=False, max_iter=5000, graph_solver=GRAPH_SOLVER
        )
    if method == "PUAL":
        return PUALClassifier(standardize=False)
    if method == "GLLC":
        return GLLCClassifier(standardize=False)
    if method == "uPU":
        return UPUClassifier(prior=prior, standardize=False, random_state=seed)
    if method == "nnPU":
        return NNPUClassifier(prior=prior, standardize=False, random_state=seed)
    raise KeyError(method)


def run_cell(cell: dict) -> dict:
    from threadpoolctl import threadpool_limits

    # one BLAS thread per cell: cells already run in parallel, and oversubscribed BLAS threads
    # made each factorisation 5-10x slower on the shared 2-core machine
    with threadpool_limits(1):
        return _run_cell(cell)


def _path_param(lambda1_path: bool) -> str | None:
    """``PUGridGreedySearch``'s ``path_param`` for a cell's ``lambda1_path`` option."""
    return "lambda1" if lambda1_path else None


@functools.lru_cache(maxsize=2)
def _paper_search(
    dataset: str, gamma: float, seed: int, grid: str, rounds: int | None, lambda1_path: bool
) -> dict:
    """The GKF-PUAL search of one (task, γ, repetition), as the ``GKF-PUAL`` cells run it, with
    the one-standard-error choice beside the best-score one.  Cached in the process: the
    ``GKF-PUAL-1se`` and ``GKF-PUAL-k`` cells of a split (adjacent in the cell order) run it once;
    the result does not depend on which cell computed it."""
    from weakfs.model_selection import PUGridGreedySearch

    data = make_split(dataset, gamma, seed)
    search = PUGridGreedySearch(
        _estimator("GKF-PUAL", seed, 0.0),
        _grid_for("GKF-PUAL", grid),
        max_greedy_rounds=rounds,
        cv=4,
        random_state=seed,
        selection={"lambda1": "1se"},
        refit=False,
        path_param=_path_param(lambda1_path),
    ).fit(data["X_train"], data["s_train"])
    return {
        "paper_params": dict(search.top_params_),
        "paper_cv_puf": float(search.top_score_),
        "cv_puf_se": float(search.top_score_se_),
        "one_se_params": dict(search.best_params_),
        "one_se_cv_puf": float(search.best_score_),
        "tuning_seconds": float(search.tuning_seconds_),
        "n_evaluations": int(search.n_evaluations_),
    }


def _run_selection_cell(cell: dict, data: dict, out: dict):
    """A ``GKF-PUAL-1se`` or ``GKF-PUAL-k`` cell: the paper's search, then λ1 by the cell's rule;
    returns the fitted model and its support."""
    from weakfs.pu import GKFPUALSelector

    tuned = _paper_search(
        cell["dataset"],
        cell["gamma"],
        cell["seed"],
        cell["grid"],
        cell["greedy_rounds"],
        bool(cell.get("lambda1_path", False)),
    )
    out.update(
        tuning_seconds=tuned["tuning_seconds"],
        n_evaluations=tuned["n_evaluations"],
        paper_params=str(tuned["paper_params"]),
        cv_puf_se=tuned["cv_puf_se"],
    )
    base = _estimator(cell["method"], cell["seed"], 0.0)
    t0 = time.perf_counter()
    if cell["method"] == ONE_SE:
        model = base.set_params(**tuned["one_se_params"]).fit(data["X_train"], data["s_train"])
        out.update(cv_puf=tuned["one_se_cv_puf"], best_params=str(tuned["one_se_params"]))
        support = model.support_
    else:
        others = {k: v for k, v in tuned["paper_params"].items() if k != "lambda1"}
        selector = GKFPUALSelector(
            base.set_params(**others), n_features_to_select=data["n_relevant"]
        ).fit(data["X_train"], data["s_train"])
        model, support = selector.estimator_, selector.support_
        # the classifier the paper's tuning gives, refitted on the d selected columns only
        on_selected = _estimator("GKF-PUAL", cell["seed"], 0.0).set_params(**tuned["paper_params"])
        on_selected.fit(data["X_train"][:, support], data["s_train"])
        pred = on_selected.predict(data["X_test"][:, support])
        out["f1_on_selected"] = float(f1_score(data["y_test"], pred, zero_division=0.0)) * 100.0
        out.update(
            best_params=str({**others, "lambda1": selector.lambda1_}),
            lambda1_max=float(selector.path_.lambda1_max),
            lambda1_max_exact=bool(selector.path_.lambda1_max_exact),
            path_seconds=float(selector.path_.seconds),
            n_model_features=int(model.support_.sum()),
            n_relevant=int(data["n_relevant"]),
        )
    out["fit_seconds"] = time.perf_counter() - t0
    return model, support


def _run_cell(cell: dict) -> dict:
    from weakfs.model_selection import PUGridGreedySearch

    if cell["method"] == SCRIPT:
        return fit_script(script_for(cell["dataset"], cell["gamma"]), rep=cell["seed"])

    data = make_split(cell["dataset"], cell["gamma"], cell["seed"])
    Xtr, s, Xte = data["X_train"], data["s_train"], data["X_test"]
    prior = float(data["y_train"][s == 0].mean())
    est = _estimator(cell["method"], cell["seed"], prior)
    out: dict = {"n_train": int(s.size), "n_labeled": int(s.sum()), "n_test": int(Xte.shape[0])}
    support = None
    if cell["method"] in ("uPU", "nnPU"):
        t0 = time.perf_counter()
        model = est.fit(Xtr, s)
        out.update(tuning_seconds=0.0, fit_seconds=time.perf_counter() - t0, n_evaluations=0)
    elif cell["method"] in SELECTION_METHODS:
        model, support = _run_selection_cell(cell, data, out)
    else:
        search = PUGridGreedySearch(
            est,
            _grid_for(cell["method"], cell["grid"]),
            max_greedy_rounds=cell["greedy_rounds"],
            cv=4,
            random_state=cell["seed"],
            path_param=_path_param(cell.get("lambda1_path", False)),
        ).fit(Xtr, s)
        model = search.best_estimator_
        out.update(
            tuning_seconds=search.tuning_seconds_,
            fit_seconds=search.refit_seconds_,
            n_evaluations=search.n_evaluations_,
            cv_puf=search.best_score_,
            best_params=str(search.best_params_),
        )
    pred = model.predict(Xte)
    out["f1"] = float(f1_score(data["y_test"], pred, zero_division=0.0)) * 100.0
    # % of the test rows predicted positive, and % truly positive: where the PUF-score tuning
    # picks a classifier that calls (almost) every row positive, the F1 is that of the
    # all-positive rule, 2π / (1 + π), whatever the model
    out["predicted_positive_share"] = float(100.0 * pred.mean())
    out["test_positive_share"] = float(100.0 * data["y_test"].mean())
    if cell["method"] in ("GKF-PUAL", "KF-PUAL", PAPER_STOP, R_CODE, *SELECTION_METHODS):
        d = data["n_relevant"]
        sup = model.support_ if support is None else support
        out["irrelevant_removed"] = float(100.0 * (~sup[d:]).mean())
        out["relevant_kept"] = float(100.0 * sup[:d].mean())
        out["n_iter"] = int(model.n_iter_)
    return out
