"""``weakfs reproduce sewil-tables``: SEW-IL Tables 2, 3 and 4 on the datasets available locally.

Protocol (paper §4, Table 1): per split, a stratified test set of ``n_t`` rows, then ``l`` labeled
and ``u`` unlabeled training rows (stratified); a selector runs on the training rows (unlabeled
ones coded ``-1``); self-learning (SLA, 200 trees) is retrained on the selected features and scored
on the unlabeled training rows (ACC-U) and on the test rows (ACC-T).

Cells are (table, dataset, method, seed):

* ``t2``: method ``criteria`` -- 40 random subsets of ``floor(sqrt(d))`` features (the FSGA
  initialisation); each criterion (OOB, TB, CB, CBIL) picks its best subset; GT is the best ACC-U
  among the 40 subsets (SLA run on each).
* ``t3``: ``fss``, ``cga``, ``fsga`` -- SEW-IL (CBIL) with the three search strategies.
* ``t4``: ``rlsr``, ``sfs``, ``ssls``, ``cotfss``, ``sewil`` (= FSGA with CBIL, shared with t3).

Options (``--set key=value``): ``n_jobs`` (inside a cell, default 1), ``n_estimators`` (default
200), ``tables`` (e.g. ``t3,t4``; default all three), ``runs_by_method`` (e.g. ``rlsr:20,sfs:20``:
those methods get their own number of splits, the others ``--runs``).
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.stats import mannwhitneyu
from sklearn.model_selection import train_test_split

from weakfs.datasets import load
from weakfs.experiments._registry import Experiment, ReportContext, RunConfig
from weakfs.experiments._report import (
    markdown_table,
    mean_sd,
    paper_rows,
    paper_verdict,
    verdict_lines,
)

# dataset -> (weakfs name, l, u, n_t); Fashion: only 1,000 rows are staged (see the report)
SPLITS = {
    "Protein": ("mice_protein", 97, 875, 108),
    "Madelon": ("madelon", 234, 2106, 260),
    "Isolet": ("Isolet", 140, 1264, 156),
    "Fashion": ("fashion_mnist_test1000", 99, 801, 100),
    "MNIST": ("mnist_test10k", 99, 9801, 100),
    "Coil20": ("COIL20", 130, 1166, 144),
    "PCMAC": ("PCMAC", 175, 1574, 194),
    "RELATHE": ("RELATHE", 128, 1156, 143),
    "BASEHOCK": ("BASEHOCK", 180, 1614, 199),
}
#: image datasets whose pixels the authors' code binarises (x > 0)
BINARISED = {"MNIST", "Fashion"}
MISSING = {"Gisette": "GISETTE is not staged (no copy under the size limit; see MANIFEST.md)"}
T3_METHODS = ["fss", "cga", "fsga"]
T4_METHODS = ["rlsr", "sfs", "ssls", "cotfss", "sewil"]
METHODS = ["criteria", *T3_METHODS, *T4_METHODS[:-1]]  # t4 "sewil" is t3 "fsga"
# the paper ran CoT-FSS only where it finished within 1 hour per split
# variants run only when asked for with --methods (shown in Table 3 when present):
# fsga_lenmut = FSGA with the optional length mutation (grow / shrink / keep); fsga_best = FSGA
# whose output is the final population's best candidate (the authors' code) instead of the vote
EXTRA_METHODS = ["fsga_lenmut", "fsga_best"]
EXTRA_LABELS = {"fsga_lenmut": "FSGA + length mutation", "fsga_best": "FSGA, best candidate"}
COTFSS_DATASETS = {"Protein", "Madelon", "Isolet", "Coil20"}
CRITERIA_ORDER = ["oob", "tb", "cb", "cbil"]

# the paper's numbers ("mean ± sd" strings as printed)
_PAPER_T2_TEXT = """
dataset | GT | OOB | TB | CB | CBIL
Protein | .665 ± .025 | .615 ± .036 | .441 ± .06 | .613 ± .03 | .622 ± .03
Madelon | .589 ± .016 | .564 ± .034 | .503 ± .014 | .568 ± .029 | .57 ± .028
Isolet | .678 ± .019 | .644 ± .039 | .435 ± .02 | .625 ± .027 | .633 ± .035
Fashion | .619 ± .014 | .57 ± .031 | .543 ± .022 | .575 ± .029 | .58 ± .023
MNIST | .549 ± .012 | .377 ± .028 | .499 ± .034 | .451 ± .036 | .463 ± .038
Coil20 | .918 ± .012 | .908 ± .021 | .866 ± .023 | .891 ± .025 | .898 ± .023
PCMAC | .62 ± .011 | .574 ± .032 | .54 ± .021 | .61 ± .024 | .61 ± .02
RELATHE | .643 ± .012 | .592 ± .021 | .577 ± .015 | .598 ± .021 | .598 ± .025
BASEHOCK | .69 ± .011 | .655 ± .041 | .586 ± .01 | .666 ± .036 | .658 ± .034
"""
_PAPER_T34_TEXT = """
method | dataset | ACC-U | ACC-T | d'
fss | Protein | .733 ± .028 | .73 ± .042 | 19
fss | Madelon | .585 ± .043 | .591 ± .053 | 63
fss | Isolet | .78 ± .027 | .778 ± .038 | 73
fss | Fashion | .625 ± .029 | .617 ± .033 | 86
fss | MNIST | .724 ± .021 | .724 ± .047 | 86
fss | Coil20 | .896 ± .018 | .889 ± .025 | 102
fss | PCMAC | .638 ± .066 | .615 ± .098 | 222
fss | RELATHE | .728 ± .024 | .708 ± .047 | 266
fss | BASEHOCK | NA | NA | NA
cga | Protein | .761 ± .03 | .751 ± .043 | 41
cga | Madelon | .584 ± .021 | .604 ± .042 | 250
cga | Isolet | .837 ± .017 | .838 ± .03 | 313
cga | Fashion | .691 ± .017 | .686 ± .033 | 392
cga | MNIST | .818 ± .022 | .829 ± .049 | 396
cga | Coil20 | .938 ± .012 | .933 ± .023 | 506
cga | PCMAC | .818 ± .019 | .847 ± .031 | 1647
cga | RELATHE | .773 ± .026 | .78 ± .049 | 2169
cga | BASEHOCK | .91 ± .012 | .923 ± .024 | 2433
fsga | Protein | .757 ± .026 | .753 ± .043 | 33
fsga | Madelon | .666 ± .042 | .662 ± .046 | 27
fsga | Isolet | .814 ± .017 | .802 ± .033 | 66
fsga | Fashion | .668 ± .018 | .657 ± .026 | 100
fsga | MNIST | .786 ± .018 | .794 ± .046 | 91
fsga | Coil20 | .941 ± .011 | .939 ± .024 | 102
fsga | PCMAC | .813 ± .022 | .83 ± .035 | 57
fsga | RELATHE | .74 ± .036 | .726 ± .054 | 71
fsga | BASEHOCK | .915 ± .007 | .912 ± .024 | 75
rlsr | Protein | .727 ± .024 | .721 ± .046 | 19
rlsr | Madelon | .558 ± .036 | .564 ± .062 | 63
rlsr | Isolet | .822 ± .02 | .814 ± .029 | 73
rlsr | Fashion | .591 ± .016 | .59 ± .041 | 86
rlsr | MNIST | .21 ± .022 | .212 ± .03 | 86
rlsr | Coil20 | .922 ± .013 | .916 ± .025 | 102
rlsr | PCMAC | .817 ± .021 | .825 ± .037 | 222
rlsr | RELATHE | .759 ± .019 | .757 ± .045 | 266
rlsr | BASEHOCK | .908 ± .015 | .912 ± .024 | 287
sfs | Protein | .712 ± .028 | .716 ± .049 | 19
sfs | Madelon | .589 ± .028 | .601 ± .032 | 63
sfs | Isolet | .672 ± .022 | .659 ± .037 | 73
sfs | Fashion | .528 ± .034 | .52 ± .054 | 86
sfs | MNIST | .111 ± .002 | .109 ± .003 | 86
sfs | Coil20 | .81 ± .015 | .816 ± .025 | 102
sfs | PCMAC | .726 ± .047 | .727 ± .061 | 222
sfs | RELATHE | .658 ± .033 | .647 ± .037 | 266
sfs | BASEHOCK | .83 ± .039 | .831 ± .053 | 287
ssls | Protein | .685 ± .028 | .673 ± .048 | 19
ssls | Madelon | .553 ± .04 | .566 ± .06 | 63
ssls | Isolet | .666 ± .016 | .649 ± .036 | 73
ssls | Fashion | .512 ± .031 | .504 ± .045 | 86
ssls | MNIST | .445 ± .062 | .451 ± .052 | 86
ssls | Coil20 | .813 ± .018 | .809 ± .023 | 102
ssls | PCMAC | .595 ± .057 | .598 ± .066 | 222
ssls | RELATHE | .606 ± .02 | .607 ± .028 | 266
ssls | BASEHOCK | .656 ± .075 | .666 ± .086 | 287
cotfss | Protein | .715 ± .039 | .715 ± .05 | 19
cotfss | Madelon | .54 ± .042 | .531 ± .062 | 63
cotfss | Isolet | .658 ± .058 | .648 ± .071 | 73
cotfss | Coil20 | .843 ± .069 | .832 ± .083 | 102
"""
PAPER_T2 = {row[0]: tuple(row[1:]) for row in paper_rows(_PAPER_T2_TEXT)[1:]}
# what is known to make a dataset differ from the paper (data, not method)
VERDICT_REASONS = {
    "Fashion": "Known difference: only 1,000 Fashion-MNIST rows are staged (split 99 / 801 / 100).",
    "MNIST": "Known difference: rows from the official test set, not the training set.",
}
# method -> dataset -> (ACC-U, ACC-T, d')
PAPER_T34: dict[str, dict[str, tuple]] = {}
for _m, _ds, _u, _t, _k in paper_rows(_PAPER_T34_TEXT)[1:]:
    PAPER_T34.setdefault(_m, {})[_ds] = (_u, _t, _k if _k == "NA" else int(_k))


def _tables(config: RunConfig) -> list[str]:
    raw = config.options.get("tables", "t2,t3,t4")
    return [t.strip() for t in str(raw).split(",") if t.strip()]


def make_cells(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", list(SPLITS))
    methods = config.keep("methods", METHODS + EXTRA_METHODS) if config.methods else METHODS
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
    order = ["fsga", "rlsr", "sfs", "ssls", "fss", "cga", "cotfss", "criteria", *EXTRA_METHODS]
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
                if m == "criteria" and "t2" not in tables:
                    continue
                if m in ("fss", "cga", *EXTRA_METHODS) and "t3" not in tables:
                    continue
                if m == "fsga" and not {"t3", "t4"} & set(tables):
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


def _criteria_cell(X, y_semi, y_true, X_te, y_te, seed, n_estimators, n_jobs, quick):
    """Table 2: 40 random subsets, each criterion's pick, and the ground truth (best ACC-U)."""
    from joblib import Parallel, delayed

    from weakfs.semi_supervised import ForestSubsetObjective, get_criterion, make_forest, self_learn

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
    crits = [get_criterion(name) for name in CRITERIA_ORDER]

    def score_all(mask):
        evidence = subsets.evidence(mask)
        return [float(cr(evidence)) for cr in crits]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        values = np.array(
            Parallel(n_jobs=n_jobs, prefer="threads")(delayed(score_all)(m) for m in masks)
        )
    out = {name: int(np.argmin(values[:, j])) for j, name in enumerate(CRITERIA_ORDER)}
    accs = [
        _evaluate(X, y_semi, y_true, X_te, y_te, m, seed, n_estimators, n_jobs)[0] for m in masks
    ]
    res = {"gt_acc_u": float(np.max(accs))}
    for name, i in out.items():
        res[f"{name}_acc_u"] = float(accs[i])
    res["n_features"] = n0
    return res


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
    if method == "criteria":
        res = _criteria_cell(X, y_semi, y_true, X_te, y_te, seed, n_est, n_jobs, cell["quick"])
        res["select_seconds"] = time.perf_counter() - t0
        res["select_cpu_seconds"] = time.process_time() - cpu0
        return res
    quick_ga = {"n_generations": 3, "population_size": 12, "n_parents": 4} if cell["quick"] else {}
    if method in ("fsga", "cga", "fss", *EXTRA_METHODS):
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
    acc_u, acc_t = _evaluate(X, y_semi, y_true, X_te, y_te, support, seed, n_est, n_jobs)
    out = {
        "acc_u": acc_u,
        "acc_t": acc_t,
        "n_features": int(support.sum()),
        "select_seconds": select_seconds,
        "select_cpu_seconds": select_cpu_seconds,
    }
    if method in ("fsga", "cga", *EXTRA_METHODS):
        # best criterion value per generation, for the history figure
        out["history"] = ";".join(f"{-v:.6g}" for v in sel.history_["best_fitness"])
        out["n_evaluations"] = int(sel.n_evaluations_)
    return out


def _ms(values) -> str:
    return mean_sd(values, digits=3)


def _marks(groups: dict[str, np.ndarray]) -> dict[str, str]:
    """'' for the best mean, '↓' where Mann–Whitney U (one-sided, p < 0.01) says worse."""
    means = {k: float(np.mean(v)) for k, v in groups.items() if len(v)}
    if not means:
        return {}
    best = max(means, key=means.get)
    out = {}
    for k, v in groups.items():
        if k == best or len(v) < 2 or len(groups[best]) < 2:
            out[k] = "**" if k == best else ""
            continue
        p = mannwhitneyu(v, groups[best], alternative="less").pvalue
        out[k] = "↓" if p < 0.01 else ""
    return out


def _table34(table: pd.DataFrame, methods: list[str], rename: dict[str, str]) -> str:
    rows = []
    for ds in SPLITS:
        sub = table[table["dataset"] == ds]
        if sub.empty:
            continue
        for metric, label, k in (("acc_u", "ACC-U", 0), ("acc_t", "ACC-T", 1)):
            groups = {m: sub.loc[sub["method"] == m, metric].dropna().to_numpy() for m in methods}
            marks = _marks(groups)
            row = {"dataset": ds, "score": label}
            for m in methods:
                g = groups[m]
                shown = rename.get(m, m)
                ours = "not run" if g.size == 0 else _ms(g)
                if marks.get(m) == "**":
                    ours = f"**{ours}**"
                elif marks.get(m) == "↓":
                    ours = f"{ours} ↓"
                paper = PAPER_T34.get("fsga" if m == "sewil" else m, {}).get(ds)
                row[f"{shown} ours"] = ours
                row[f"{shown} paper"] = "NA" if paper is None else paper[k]
                if k == 0:
                    nf = sub.loc[sub["method"] == m, "n_features"].dropna()
                    row[f"{shown} d' ours"] = "–" if nf.empty else f"{nf.mean():.0f}"
                    row[f"{shown} d' paper"] = "NA" if paper is None else paper[2]
                else:
                    row[f"{shown} d' ours"] = ""
                    row[f"{shown} d' paper"] = ""
            rows.append(row)
    if not rows:
        return "_no cells were run for this table_\n"
    entries = [
        (
            ds,
            rename.get(m, m),
            table.loc[(table["dataset"] == ds) & (table["method"] == m), "acc_u"].dropna(),
            PAPER_T34.get("fsga" if m == "sewil" else m, {}).get(ds, ("NA",))[0],
        )
        for ds in SPLITS
        for m in methods
    ]
    verdicts = verdict_lines(entries, VERDICT_REASONS)
    return markdown_table(pd.DataFrame(rows)) + "\n\nACC-U. " + verdicts + "\n"


def _sewil_gap(table: pd.DataFrame) -> str:
    """Where SEW-IL is below the paper, what the cells say about why: the baselines' verdicts on
    the same splits, and whether the number of selected features goes with ACC-U."""
    from scipy.stats import spearmanr

    below: list[str] = []
    base_verdicts: list[str] = []
    sizes: list[str] = []
    for ds in SPLITS:
        sub = table[table["dataset"] == ds]
        ours = sub[sub["method"] == "fsga"]
        if paper_verdict(ours["acc_u"].dropna(), PAPER_T34["fsga"].get(ds, ("NA",))[0]) != "below":
            continue
        below.append(ds)
        n_ours = ours["n_features"].mean()
        n_paper = PAPER_T34["fsga"][ds][2]
        if n_paper != "NA":
            sizes.append(f"{ds} {n_ours:.0f} ({n_paper})")
        for m in (m for m in T4_METHODS if m != "sewil"):  # the baselines
            paper = PAPER_T34.get(m, {}).get(ds)
            verdict = paper_verdict(
                sub.loc[sub["method"] == m, "acc_u"].dropna(), paper and paper[0]
            )
            if verdict in ("within", "above", "below"):
                base_verdicts.append(verdict)
    if not below:
        return ""
    fsga = table[table["method"] == "fsga"].dropna(subset=["acc_u", "n_features"])
    ranks = fsga.groupby("dataset")[["n_features", "acc_u"]].rank()  # within a dataset
    rho, p = spearmanr(ranks["n_features"], ranks["acc_u"]) if len(fsga) > 2 else (np.nan, np.nan)
    n_base = len(base_verdicts)
    return (
        f"\nSEW-IL is below the paper on {len(below)} of the datasets run ({', '.join(below)}). "
        f"On the same splits the baselines are within or above the paper in "
        f"{n_base - base_verdicts.count('below')} of {n_base} comparisons, so the splits, the "
        "self-learning and the scoring (shared by all methods) do not explain the gap: it lies "
        "in the wrapper (FSGA + CBIL) or in the paper's runs. The cause is not identified. The "
        f"number of features SEW-IL keeps differs from the paper's ({', '.join(sizes)}; ours "
        "(paper's)), but within a dataset it does not go with ACC-U (Spearman "
        f"{rho:.2f} between the two, ranked per dataset, p = {p:.2f}, {len(fsga)} splits).\n"
        + _best_candidate_check(table, below)
    )


def _best_candidate_check(table: pd.DataFrame, below: list[str]) -> str:
    """The vote against the authors' code's output (the final population's best candidate) on
    the splits both were run on, for the datasets where SEW-IL is below the paper."""
    pairs = []
    for ds in below:
        sub = table[table["dataset"] == ds]
        vote = sub[sub["method"] == "fsga"].set_index("seed")
        best = sub[sub["method"] == "fsga_best"].set_index("seed")
        seeds = vote.index.intersection(best.index)
        if len(seeds) == 0:
            continue
        best, vote = best.loc[seeds], vote.loc[seeds]
        verdict = paper_verdict(best["acc_u"], PAPER_T34["fsga"][ds][0])
        pairs.append(
            f"{ds} {best['acc_u'].mean():.3f} against {vote['acc_u'].mean():.3f} ({len(seeds)} "
            f"splits, {best['n_features'].mean():.0f} against {vote['n_features'].mean():.0f} "
            f"features; {verdict} the paper)"
        )
    if not pairs:
        return ""
    return (
        "\nOutput rule: the paper combines the final population by a vote, the authors' code "
        "returns its best candidate. On the same splits, ACC-U of the best candidate against "
        f"the vote (the default): {'; '.join(pairs)}.\n"
    )


def _table2(table: pd.DataFrame) -> str:
    sub = table[table["method"] == "criteria"]
    if sub.empty:
        return "_no cells were run for this table_\n"
    rows = []
    for ds in SPLITS:
        s = sub[sub["dataset"] == ds]
        if s.empty:
            continue
        row = {"dataset": ds, "runs": len(s)}
        paper = PAPER_T2[ds]
        for i, name in enumerate(["gt", *CRITERIA_ORDER]):
            row[f"{name.upper()} ours"] = _ms(s[f"{name}_acc_u"].dropna())
            row[f"{name.upper()} paper"] = paper[i]
        rows.append(row)
    entries = [
        (ds, name.upper(), sub.loc[sub["dataset"] == ds, f"{name}_acc_u"].dropna(), PAPER_T2[ds][i])
        for ds in SPLITS
        if (sub["dataset"] == ds).any()
        for i, name in enumerate(["gt", *CRITERIA_ORDER])
    ]
    verdicts = verdict_lines(entries, VERDICT_REASONS)
    tb_above = [
        ds
        for ds, label, values, paper in entries
        if label == "TB" and paper_verdict(values, paper) == "above"
    ]
    note = (
        f"\nTB is above the paper on {', '.join(tb_above)}. A known deviation can explain it: "
        "our transductive bound sums the I and M terms over the rows predicted k only, as it "
        "sums K (docs/sewil.md, Deviations). The bound as printed counts every row of class i "
        "and comes out larger for confident, correct votes, which makes good subsets look "
        "worse.\n"
        if tb_above
        else ""
    )
    return markdown_table(pd.DataFrame(rows)) + "\n\n" + verdicts + "\n" + note


def _history_figure(table: pd.DataFrame, ctx: ReportContext) -> str | None:
    """Mean best CBIL per generation (over splits) for FSGA and CGA, one panel per dataset."""
    if "history" not in table:
        return None
    sub = table[table["method"].isin(["fsga", "cga"]) & table["history"].notna()]
    if sub.empty:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    datasets = [d for d in SPLITS if d in set(sub["dataset"])]
    fig, axes = plt.subplots(1, len(datasets), figsize=(4 * len(datasets), 3), squeeze=False)
    for ax, ds in zip(axes[0], datasets):
        for m in ("fsga", "cga"):
            hs = sub[(sub["dataset"] == ds) & (sub["method"] == m)]["history"]
            if hs.empty:
                continue
            curves = np.array([[float(v) for v in str(h).split(";")] for h in hs])
            ax.plot(curves.mean(axis=0), "o-", ms=3, label=m.upper())
        ax.set_title(ds)
        ax.set_xlabel("generation")
        ax.set_ylabel("best CBIL")
        ax.legend(fontsize=8)
    fig.tight_layout()
    path = ctx.figure_path("history")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path.name


def _timing(table: pd.DataFrame) -> pd.DataFrame:
    names = {
        "select_seconds": "select s",
        "select_cpu_seconds": "select CPU s",
        "seconds": "whole split s",
    }
    cols = [c for c in names if c in table]  # older cells did not record the CPU time
    grouped = table.groupby(["dataset", "method"], sort=False)
    out = grouped[cols].mean().round(1).rename(columns=names)
    if "n_jobs" in table:
        out.insert(0, "n_jobs", grouped["n_jobs"].max())
    out.insert(0, "splits", grouped.size())
    return out.reset_index()


def write_report(table: pd.DataFrame, ctx: ReportContext) -> str:
    runs = table.groupby(["dataset", "method"]).size().reset_index(name="splits")
    timing = _timing(table) if "select_seconds" in table else pd.DataFrame()
    parts = [
        "Protocol: paper §4 and Table 1 split sizes (labeled / unlabeled / test, stratified), "
        "self-learning with a 200-tree random forest retrained on the selected features; ACC-U = "
        "accuracy on the unlabeled training rows, ACC-T on the test rows; mean ± sd over splits "
        "(seed = split index). Bold: best mean; ↓: one-sided Mann–Whitney U p < 0.01 against the "
        "best (it needs at least 5 splits per method to be reachable).\n",
        "Datasets: " + "; ".join(f"{k}: {v}" for k, v in MISSING.items()) + ". Fashion: only "
        "1,000 Fashion-MNIST rows are staged, so its split is 99 / 801 / 100 instead of the "
        "paper's 99 / 9,801 / 100. MNIST: the 10,000 rows of the official test set (the authors "
        "drew theirs from the training set, which is not staged here). MNIST and Fashion pixels "
        "are binarised (x > 0), as the authors' code does. Protein (mice_protein) has missing "
        "values, filled with column means.\n",
        "### What was run\n\n" + markdown_table(runs) + "\n",
        "### Table 4 — comparison with the state of the art (SEW-IL = FSGA + CBIL)\n\n"
        + _table34(
            table.replace({"method": {"fsga": "sewil"}}),
            T4_METHODS,
            {"sewil": "SEW-IL", "rlsr": "RLSR", "sfs": "SFS", "ssls": "SSLS", "cotfss": "CoT-FSS"},
        )
        + _sewil_gap(table),
        "### Table 3 — search strategies of the wrapper (criterion CBIL)\n\n"
        + _table34(
            table,
            T3_METHODS + [m for m in EXTRA_METHODS if m in set(table["method"])],
            {"fss": "FSS", "cga": "CGA", "fsga": "FSGA", **EXTRA_LABELS},
        ),
        "### Table 2 — selection criteria at the FSGA initialisation (ACC-U)\n\n" + _table2(table),
    ]
    fig = _history_figure(table, ctx)
    if fig:
        parts.append(f"### FSGA / CGA search history\n\n![history]({fig})\n")
    if not timing.empty:
        parts.append(
            "### Seconds per split (mean over the splits run)\n\n"
            "`select` is the selection's wall time, `select CPU` its CPU time summed over the "
            "threads (recorded since 2026-11-23; CPU / wall shows how many cores the selection "
            "got: on an idle 2-core machine its threads used 1.3-1.6), `whole split` the cell "
            "(selection, self-learning on the selected features, scoring).\n\n"
            + markdown_table(timing)
            + "\n"
        )
    parts.append(
        "Deviations: see docs/sewil.md (CBIL's gamma as stated in Theorem 2.4; FSGA outputs "
        "the features of the final population's vote at 0.1 (the paper's rule; its threshold "
        "is ours) and keeps removed features in the elite, as the authors' code; forests are "
        "weakfs's random forest (scikit-learn's algorithm, checked equal "
        "within seed noise); no length mutation by default, the variant FSGA + length mutation "
        "is shown when run, and so is FSGA with the best candidate as output; Fashion size; "
        "CoT-FSS run only where the paper reports it). Cells "
        "of version 2 (this code); rows of earlier code stay in the CSV marked superseded.\n"
    )
    return "\n".join(parts)


TITLE = "SEW-IL: Tables 2, 3 and 4 (criteria, search strategies, state of the art)"
# version 2: weakfs's forest, FSGA's elite, back-filling and child length as the authors' code,
# MNIST/Fashion binarised; CoT-FSS 3: its start comes from the labeled rows, at most k features;
# criteria 3: their self-learning uses weakfs's forest too (it used scikit-learn's)
EXPERIMENT = Experiment(
    "sewil-tables",
    TITLE,
    make_cells,
    run_cell,
    write_report,
    20,
    __doc__ or "",
    version=lambda cell: 3 if cell.get("method") in ("cotfss", "criteria") else 2,
)
