"""The SEW-IL experiment's cells: the splits of the paper's Table 1, one selector per (dataset,
method, split), self-learning on the selected features, and Table 2's criteria."""

from __future__ import annotations

import time
import warnings

import numpy as np
from scipy import sparse
from sklearn.model_selection import train_test_split

from weakfs.datasets import load
from weakfs.experiments._registry import RunConfig
from weakfs.experiments.sewil._protocol import (
    ARM_METHODS,
    BINARISED,
    COTFSS_DATASETS,
    CRITERIA_ORDER,
    EXTRA_METHODS,
    FSGA_ARMS,
    METHODS,
    ORACLE_METHOD,
    SLA_ALL_METHOD,
    SPLITS,
    SUBSET_METHODS,
    TB_PRINTED_CRITERIA,
    TB_PRINTED_METHOD,
    VOTES_METHOD,
    criterion_column,
)

__all__ = ["VERSION", "load_split", "make_cells", "run_cell"]


def _version(cell: dict) -> int:
    """2: weakfs's forest, FSGA's elite, back-filling and child length as the authors' code,
    MNIST/Fashion binarised; CoT-FSS 3: its start comes from the labeled rows, at most k features;
    criteria 3: their self-learning uses weakfs's forest too (it used scikit-learn's). New methods
    start at their family's version: the FSGA arms at 2, criteria with the printed TB at 3."""
    return 3 if cell.get("method") in ("cotfss", "criteria", TB_PRINTED_METHOD) else 2


#: raised whenever a change here alters a cell's result (a function of the cell)
VERSION = _version


def _tables(config: RunConfig) -> list[str]:
    raw = config.options.get("tables", "t2,t3,t4")
    return [t.strip() for t in str(raw).split(",") if t.strip()]


def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", list(SPLITS))
    on_request = [*EXTRA_METHODS, *ARM_METHODS, TB_PRINTED_METHOD, *SUBSET_METHODS]
    methods = config.keep("methods", METHODS + on_request) if config.methods else METHODS
    tables = _tables(config)
    runs = config.n_runs(20)
    opts = {
        "n_jobs": int(config.options.get("n_jobs", 1)),
        "n_estimators": int(config.options.get("n_estimators", 200)),
    }
    if config.quick:
        opts["n_estimators"] = min(opts["n_estimators"], 20)
    # split-major order, cheap methods and SEW-IL first, Table 2 (40 SLA runs per split) last:
    # an interrupted run still has complete splits of the main tables (finished cells are cached)
    order = ["fsga", "rlsr", "sfs", "ssls", "fss", "cga", "cotfss", "criteria", *on_request]
    # --set runs_by_method=rlsr:20,sfs:20 gives some methods their own number of splits
    per_method = {}
    for item in str(config.options.get("runs_by_method", "")).split(","):
        if item.strip():
            name, _, n = item.partition(":")
            per_method[name.strip()] = int(n)
    cells = []
    for seed in range(max([runs, *per_method.values()])):
        for m in [m for m in order if m in methods and seed < per_method.get(m, runs)]:
            for ds in datasets:
                if m in ("criteria", TB_PRINTED_METHOD) and "t2" not in tables:
                    continue
                if m in ("fss", "cga", *EXTRA_METHODS) and "t3" not in tables:
                    continue
                if m in ("fsga", *ARM_METHODS, *SUBSET_METHODS) and not {"t3", "t4"} & set(tables):
                    continue
                if m in ("rlsr", "sfs", "ssls", "cotfss") and "t4" not in tables:
                    continue
                if m == "cotfss" and ds not in COTFSS_DATASETS:
                    continue
                cells.append(
                    {"dataset": ds, "method": m, "seed": seed, "quick": config.quick, **opts}
                )
    return cells


def load_split(dataset: str, seed: int, *, binarise: bool = True):
    """``X_train, y_semi, y_train_true, X_test, y_test`` (classes encoded 0..K-1) for one split;
    MNIST and Fashion pixels binarised unless ``binarise=False``."""
    name, n_l, n_u, n_t = SPLITS[dataset]
    X, y = load(name)
    if sparse.issparse(X):
        X = X.toarray()
    else:
        X = X.to_numpy(dtype=float)
        if np.isnan(X).any():  # mice_protein: column means (the paper does not say)
            X = np.where(np.isnan(X), np.nanmean(X, axis=0), X)
    X = np.asarray(X, dtype=np.float32)
    if binarise and dataset in BINARISED:  # as the authors' code does: a pixel is on or off
        X = (X > 0).astype(np.float32)
    _, y = np.unique(np.asarray(y), return_inverse=True)
    idx = np.arange(X.shape[0])
    if n_l + n_u + n_t < X.shape[0]:  # MNIST/Fashion: a subset as in the paper
        idx, _ = train_test_split(idx, train_size=n_l + n_u + n_t, stratify=y, random_state=seed)
    tr, te = train_test_split(idx, test_size=n_t, stratify=y[idx], random_state=seed)
    lab, unl = train_test_split(tr, train_size=n_l, stratify=y[tr], random_state=seed)
    tr = np.concatenate([lab, unl])
    y_semi = y[tr].copy()
    y_semi[n_l:] = -1
    return X[tr], y_semi, y[tr], X[te], y[te]


def _evaluate(X, y_semi, y_true, X_te, y_te, support, seed, n_estimators, n_jobs):
    from weakfs.semi_supervised import SelfLearningClassifier

    cols = np.flatnonzero(support)
    sla = SelfLearningClassifier(n_estimators=n_estimators, random_state=seed, n_jobs=n_jobs)
    sla.fit(X[:, cols], y_semi)
    unl = y_semi == -1
    acc_u = float(np.mean(sla.predict(X[unl][:, cols]) == y_true[unl]))
    acc_t = float(np.mean(sla.predict(X_te[:, cols]) == y_te))
    return acc_u, acc_t


def _criteria_cell(
    X, y_semi, y_true, X_te, y_te, seed, n_estimators, n_jobs, quick, names=None, details=False
):
    """Table 2: 40 random subsets, each criterion's pick, and the ground truth (best ACC-U).

    ``names``: the criteria (default Table 2's four); ``details``: also the index of each pick and
    of the best subset, and the Spearman correlation over the subsets of minus each criterion
    with ACC-U (``<criterion>_rho``)."""
    from joblib import Parallel, delayed

    from weakfs.semi_supervised import ForestSubsetObjective, get_criterion, make_forest, self_learn

    names = CRITERIA_ORDER if names is None else names
    d = X.shape[1]
    rng = np.random.RandomState(seed)
    n_sub = 10 if quick else 40
    n0 = int(np.floor(np.sqrt(d)))
    masks = np.zeros((n_sub, d), dtype=bool)
    for r in range(n_sub):
        masks[r, rng.choice(d, n0, replace=False)] = True
    lab = y_semi >= 0
    codes = y_semi.astype(np.intp)
    sla = self_learn(
        X,
        codes,
        make_estimator=lambda: make_forest("weakfs", n_estimators, seed, n_jobs),
    )
    c = sla["y_codes"]
    train = c >= 0
    # one forest per subset gives the evidence for all four criteria (same seed as SEW-IL's)
    subsets = ForestSubsetObjective(
        X[train], c[train], lab[train], X_unlabeled=X[~lab], n_estimators=n_estimators, seed=seed
    )
    crits = [get_criterion(name) for name in names]

    def score_all(mask):
        evidence = subsets.evidence(mask)
        return [float(cr(evidence)) for cr in crits]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        values = np.array(
            Parallel(n_jobs=n_jobs, prefer="threads")(delayed(score_all)(m) for m in masks)
        )
    out = {name: int(np.argmin(values[:, j])) for j, name in enumerate(names)}
    accs = [
        _evaluate(X, y_semi, y_true, X_te, y_te, m, seed, n_estimators, n_jobs)[0] for m in masks
    ]
    res = {"gt_acc_u": float(np.max(accs))}
    for name, i in out.items():
        res[f"{criterion_column(name)}_acc_u"] = float(accs[i])
    res["n_features"] = n0
    if details:
        from scipy.stats import spearmanr

        res["gt_index"] = int(np.argmax(accs))
        res["n_subsets"] = n_sub
        for j, name in enumerate(names):
            col = criterion_column(name)
            res[f"{col}_index"] = out[name]
            with warnings.catch_warnings():  # a constant criterion has no rank correlation
                warnings.simplefilter("ignore")
                rho = spearmanr(-values[:, j], accs)[0]
            res[f"{col}_rho"] = float(rho)
    return res


class TruthOOBError:
    """The oracle arm's criterion: out-of-bag error against the true labels of the training rows.

    Not a method (it reads the hidden labels of the unlabeled rows): it shows what FSGA's search
    returns when its criterion ranks subsets as well as the truth can through one forest fit on
    the (pseudo-)labels. ``y_true_codes``: every training row's true class index, in the order
    of the rows given to the selector; the selector must pseudo-label every row (it trains the
    subsets' forests on the pseudo-labeled rows only, so that their order is the rows' order).
    """

    name = "oob-truth"
    needs_unlabeled_votes = False

    def __init__(self, y_true_codes: np.ndarray):
        self.y_true_codes = np.asarray(y_true_codes, dtype=np.intp)

    def __call__(self, evidence) -> float:
        from dataclasses import replace

        from weakfs.semi_supervised import OOBErrorCriterion

        if len(evidence.y_train) != len(self.y_true_codes):
            raise ValueError(
                "the oracle needs every training row pseudo-labeled: "
                f"{len(evidence.y_train)} of {len(self.y_true_codes)} are"
            )
        # the OOB criterion itself, read at the true labels instead of the (pseudo-)labels
        return OOBErrorCriterion()(replace(evidence, y_train=self.y_true_codes))


def _fsga_arm(method: str, d: int, seed: int, n_est: int, n_jobs, quick_ga: dict, criterion=None):
    """The selector of one FSGA arm: SEW-IL's FSGA (vote output) with the arm's criterion
    (``criterion`` overrides it: the oracle's needs the labels); ``fsga-lenmut-bounded`` adds
    the length mutation bounded to ``floor(n0 / 4)`` features per change (``n0 =
    floor(sqrt(d))``, at least 1), ``fsga-lenmut-unbounded`` the unbounded one."""
    from weakfs.semi_supervised import SEWILSelector

    bounded = method == "fsga-lenmut-bounded"
    n0 = int(np.floor(np.sqrt(d)))
    return SEWILSelector(
        criterion=FSGA_ARMS[method] if criterion is None else criterion,
        search="fsga",
        length_mutation=bounded or method == "fsga-lenmut-unbounded",
        max_length_change=max(1, n0 // 4) if bounded else None,
        final="vote",
        n_estimators=n_est,
        random_state=seed,
        n_jobs=n_jobs,
        **quick_ga,
    )


def _wrapper_evidence(sel, y_semi, y_true) -> dict:
    """What a fitted SEW-IL's wrapper worked with: its criterion's value on the returned subset,
    the accuracy of its pseudo-labels on the unlabeled training rows (those self-learning
    labeled) against the hidden truth and their share, and gamma / beta of the returned
    subset's mislabeling matrix."""
    unl = y_semi == -1
    pseudo = np.asarray(sel.pseudo_labels_)[unl]
    got = pseudo != -1
    p = np.asarray(sel.mislabeling_matrix_, dtype=float)
    return {
        "criterion_value": float(sel.criterion_value_),
        "pseudo_label_accuracy": (
            float(np.mean(pseudo[got] == y_true[unl][got])) if got.any() else float("nan")
        ),
        "pseudo_label_share": float(np.mean(got)),
        "mislabeling_gamma": float(np.sum(np.max(p, axis=0))),
        "mislabeling_beta": float(np.max(np.sum(p, axis=1))),
    }


def _top_m_by_votes(sel, d: int, m: int) -> np.ndarray:
    """Mask of the ``m`` features the final population holds most often (features FSGA removed
    as irrelevant excluded; ties, features no candidate holds among them, by column order)."""
    votes = np.asarray(sel.vote_share_, dtype=float).copy()
    votes[sel.removed_features_] = -1.0
    order = np.argsort(-votes, kind="stable")
    mask = np.zeros(d, dtype=bool)
    mask[order[: min(m, d - len(sel.removed_features_))]] = True
    return mask


def _votes_cell(sel, dataset: str, d: int, evaluate) -> dict:
    """What a ``fsga-votes`` cell adds to the ``fsga`` cell's results: the final population's
    vote counts (``column:count``, nonzero only) and, per top-m rule, m, ACC-U and ACC-T of
    self-learning on the top-m features by votes, and how many of them any candidate held."""
    from weakfs.experiments.sewil._paper import PAPER_T34

    counts = np.rint(np.asarray(sel.vote_share_) * sel.population_size).astype(int)
    out: dict = {
        "votes": ";".join(f"{j}:{c}" for j, c in enumerate(counts) if c > 0),
        "population_size": int(sel.population_size),
    }
    paper = PAPER_T34["fsga"].get(dataset, (None, None, "NA"))[2]
    sizes = {
        "own": int(sel.support_.sum()),
        "paper": None if paper == "NA" else int(paper),
        "d23": int(np.ceil(d ** (2 / 3))),
    }
    for rule, m in sizes.items():
        if m is None:
            continue
        mask = _top_m_by_votes(sel, d, m)
        acc_u, acc_t = evaluate(mask)
        out[f"top_{rule}_m"] = int(mask.sum())
        out[f"top_{rule}_acc_u"] = acc_u
        out[f"top_{rule}_acc_t"] = acc_t
        out[f"top_{rule}_voted"] = int(np.sum(counts[mask] > 0))
    return out


def run_cell(cell: dict) -> dict:
    from weakfs.semi_supervised import (
        CoTFSSSelector,
        RLSRSelector,
        SemiFisherSelector,
        SEWILSelector,
        SSLSSelector,
    )

    X, y_semi, y_true, X_te, y_te = load_split(cell["dataset"], cell["seed"])
    seed, n_est, n_jobs = cell["seed"], cell["n_estimators"], cell["n_jobs"]
    method = cell["method"]
    t0, cpu0 = time.perf_counter(), time.process_time()
    if method in ("criteria", TB_PRINTED_METHOD):
        extra = {"names": TB_PRINTED_CRITERIA, "details": True} if method != "criteria" else {}
        res = _criteria_cell(
            X, y_semi, y_true, X_te, y_te, seed, n_est, n_jobs, cell["quick"], **extra
        )
        res["select_seconds"] = time.perf_counter() - t0
        res["select_cpu_seconds"] = time.process_time() - cpu0
        return res
    quick_ga = {"n_generations": 3, "population_size": 12, "n_parents": 4} if cell["quick"] else {}

    def evaluate(mask):
        return _evaluate(X, y_semi, y_true, X_te, y_te, mask, seed, n_est, n_jobs)

    if method == SLA_ALL_METHOD:  # no selection: self-learning on every feature
        acc_u, acc_t = evaluate(np.ones(X.shape[1], dtype=bool))
        return {
            "acc_u": acc_u,
            "acc_t": acc_t,
            "n_features": int(X.shape[1]),
            "select_seconds": 0.0,
            "select_cpu_seconds": 0.0,
        }
    if method == VOTES_METHOD:  # the fsga cell's selector (the fsga-cbil arm), recording votes
        sel = _fsga_arm("fsga-cbil", X.shape[1], seed, n_est, n_jobs, quick_ga)
    elif method in ("fsga", "cga", "fss", *EXTRA_METHODS):
        sel = SEWILSelector(
            criterion="cbil",
            search="fsga" if method in EXTRA_METHODS else method,
            length_mutation=method == "fsga_lenmut",
            final="best" if method == "fsga_best" else "vote",
            n_estimators=n_est,
            random_state=seed,
            n_jobs=n_jobs,
            **quick_ga,
        )
    elif method == ORACLE_METHOD:
        # the selector's class codes are y's values only when every class has a labeled row
        if not np.array_equal(np.unique(y_semi[y_semi >= 0]), np.unique(y_true)):
            raise ValueError("the oracle needs a labeled row of every class")
        oracle = TruthOOBError(y_true)
        sel = _fsga_arm(method, X.shape[1], seed, n_est, n_jobs, quick_ga, criterion=oracle)
    elif method in FSGA_ARMS:
        sel = _fsga_arm(method, X.shape[1], seed, n_est, n_jobs, quick_ga)
    elif method == "rlsr":
        sel = RLSRSelector()
    elif method == "sfs":
        sel = SemiFisherSelector()
    elif method == "ssls":
        sel = SSLSSelector()
    elif method == "cotfss":
        sel = CoTFSSSelector(random_state=seed, n_jobs=n_jobs)
    else:
        raise ValueError(f"unknown method {method!r}")
    sel.fit(X, y_semi)
    select_seconds = time.perf_counter() - t0
    # CPU time of all threads: CPU / n_jobs is the wall time the selection needs on idle cores
    select_cpu_seconds = time.process_time() - cpu0
    support = sel.get_support()
    acc_u, acc_t = evaluate(support)
    out = {
        "acc_u": acc_u,
        "acc_t": acc_t,
        "n_features": int(support.sum()),
        "select_seconds": select_seconds,
        "select_cpu_seconds": select_cpu_seconds,
    }
    if method in ("fsga", "cga", *EXTRA_METHODS, *ARM_METHODS, VOTES_METHOD):
        # best criterion value per generation, for the history figure
        out["history"] = ";".join(f"{-v:.6g}" for v in sel.history_["best_fitness"])
        out["n_evaluations"] = int(sel.n_evaluations_)
    if method in ARM_METHODS:
        out.update(_wrapper_evidence(sel, y_semi, y_true))
        if sel.max_length_change is not None:
            out["max_length_change"] = int(sel.max_length_change)
    if method == VOTES_METHOD:
        out.update(_votes_cell(sel, cell["dataset"], X.shape[1], evaluate))
    return out
