"""FSCPU paper reproductions: Table 1 (artificial data, FSR) and Table 3 (open data, AUC).

``weakfs reproduce fscpu-table1`` / ``weakfs reproduce fscpu-table3``.  Options (``--set k=v``):
``n_iter`` (compact-GA iterations of FSCPU / FSCPU-MI / LGBM-OPT, default 3000 as the paper),
``clustering`` ("gmm" as the paper, or the faster "gmm-diag" / "kmeans"), ``lgbm_opt_iter``
(default = ``n_iter``), ``rfe_step`` (RFE step of DT-RFE, default 1 = scikit-learn's default as in
the paper), ``n_jobs`` (threads of one FSCPU search, default 1).  ``--quick`` runs the real code on
a reduced protocol (n_iter=20, rfe_step=5) for smoke tests.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import RFE, SelectKBest, chi2
from sklearn.linear_model import Lasso
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MinMaxScaler

from weakfs.datasets import FSCPU_CONDITIONS, load, make_fscpu_synthetic, make_pu_labels
from weakfs.experiments._registry import Experiment, ReportContext, RunConfig
from weakfs.experiments._report import (
    TIE_TOLERANCE,
    markdown_table,
    paper_mean,
    paper_verdict,
    summarize,
    verdict_lines,
)
from weakfs.experiments._runner import cell_grid
from weakfs.metrics import feature_selection_recall
from weakfs.pu import FSCPUSelector, LGBMOptSelector, MRMRSelector, SemiJMISelector
from weakfs.semi_supervised import JSFSSelector, SSelectSelector

__all__ = [
    "EXPERIMENTS",
    "lgbm_auc",
    "load_table3",
    "select_features",
    "spambase_split",
    "table3_split",
]

METHODS_T1 = [
    "fscpu",
    "fscpu-mi",
    "semi-jmi",
    "kbest",
    "lasso",
    "mrmr",
    "dt-rfe",
    "sselect",
    "jsfs",
]
METHODS_T3 = [*METHODS_T1, "lgbm-opt"]
#: the methods that run FSCPUSelector (a clustering per evaluated mask)
FSCPU_METHODS = ("fscpu", "fscpu-mi")
LABEL = {
    "fscpu": "FSCPU",
    "fscpu-mi": "FSCPU-MI",
    "semi-jmi": "semi-JMI",
    "kbest": "K-Best",
    "lasso": "Lasso",
    "mrmr": "mRMR",
    "dt-rfe": "DT-RFE",
    "lgbm-opt": "LGBM-OPT",
    "sselect": "sSelect",
    "jsfs": "JSFS",
}

# paper Table 1 (FSR mean, sd), columns in FSCPU_CONDITIONS order
PAPER_T1 = {
    "kbest": ".82±.10 .78±.05 .87±.04 .86±.08 .67±.08 .66±.06 .79±.07 .76±.06 .42±.05 .35±.03",
    "lasso": ".86±.05 .86±.05 .83±.03 .84±.05 .78±.07 .78±.02 .75±.05 .76±.06 .66±.07 .62±.05",
    "mrmr": ".10±.02 .12±.03 .17±.04 .19±.08 .10±.02 .10±.02 .10±.04 .10±.05 .26±.09 .11±.04",
    "dt-rfe": ".74±.07 .83±.06 .78±.07 .80±.04 .54±.05 .59±.07 .62±.07 .63±.03 1.0±.00 .89±.03",
    "sselect": ".34±.06 .36±.04 .42±.07 .45±.07 .34±.06 .35±.05 .42±.07 .45±.07 .35±.10 .35±.10",
    "jsfs": ".43±.07 .51±.03 .42±.05 .49±.05 .46±.10 .44±.05 .42±.05 .49±.03 .42±.07 .46±.07",
    "semi-jmi": ".97±.03 .98±.02 .89±.05 .94±.05 .70±.12 .69±.08 .71±.10 .79±.03 .93±.02 .57±.08",
    "fscpu": ".91±.07 .90±.08 .75±.09 .82±.06 .92±.06 .89±.07 .78±.09 .78±.07 .56±.09 .51±.10",
    "fscpu-mi": ".90±.06 .79±.09 .74±.06 .82±.06 .87±.06 .86±.06 .76±.14 .81±.03 .59±.10 .54±.08",
}
# paper Table 3 (AUC) for Spam / Iono / RT-IoT
PAPER_T3 = {
    "kbest": (".866±.011", ".832±.030", ".945±.018"),
    "lasso": (".869±.019", ".834±.040", ".983±.002"),
    "mrmr": (".809±.011", ".864±.036", ".898±.022"),
    "dt-rfe": (".841±.017", ".787±.068", ".921±.010"),
    "lgbm-opt": (".856±.040", ".822±.041", ".946±.018"),
    "sselect": (".839±.031", ".829±.026", ".911±.035"),
    "jsfs": (".855±.013", ".825±.053", ".915±.026"),
    "semi-jmi": (".757±.096", ".821±.022", ".922±.019"),
    "fscpu": (".844±.019", ".797±.091", ".910±.017"),
    "fscpu-mi": (".874±.013", ".749±.070", ".916±.020"),
}
DATASETS_T3 = ["spambase", "ionosphere", "rt_iot2022"]
LABELED_RATE = {"spambase": 0.03, "ionosphere": 0.10, "rt_iot2022": 0.02}
#: RT-IoT2022 columns left out: identifiers of a connection, not measurements of it
RT_IOT_IDENTIFIERS = ("id.orig_p", "id.resp_p")
SSELECT_T1_NOTE = (
    "sSelect on this generator: its Laplacian score prefers the irrelevant columns (uniform "
    "noise, whose min-max-scaled spread dominates the k-NN graph of all 50 columns: mean score "
    "0.39 against 0.67 for the relevant ones on ca-10-8-1, seed 0), and with 50 labeled rows "
    "the label-consistency term (mean NMI 0.006) is too weak to counter it, so at 10 % labeled "
    "it keeps the 25 irrelevant columns.  The paper's sSelect is also below chance (FSR "
    ".34-.45); where our reading of the method differs from its code is unknown "
    "(docs/fscpu_baselines.md)."
)
# what is known to make a dataset's numbers differ from the paper's
T3_REASONS = {
    "spambase": "Known: the AUC varies a lot from split to split with 40 labeled rows (see the "
    "10-split spread below); the paper's 3 splits are not ours.",
    "rt_iot2022": "Known: our build keeps 79 numeric columns (the paper does not say which it "
    "dropped to reach 67) and leaves out the two port identifiers.",
}


def _options(config: RunConfig) -> dict:
    quick = config.quick
    opts = {
        "n_iter": int(config.options.get("n_iter", 20 if quick else 3000)),
        "clustering": str(config.options.get("clustering", "gmm")),
        "rfe_step": int(config.options.get("rfe_step", 5 if quick else 1)),
        "n_jobs": int(config.options.get("n_jobs", 1)),
    }
    opts["lgbm_opt_iter"] = int(config.options.get("lgbm_opt_iter", opts["n_iter"]))
    return opts


def lgbm_auc(X_train, s_train, X_test, y_test, seed: int) -> float:
    """LightGBM (100 trees) trained on PU labels, ROC AUC on the test split's true labels."""
    from lightgbm import LGBMClassifier

    model = LGBMClassifier(n_estimators=100, random_state=seed, n_jobs=1, verbose=-1)
    model.fit(X_train, s_train)
    return float(roc_auc_score(y_test, model.predict_proba(X_test)[:, 1]))


def select_features(method: str, X, s, k: int, seed: int, opts: dict) -> np.ndarray:
    """Boolean support of ``k`` features chosen by ``method`` on min-max scaled PU data."""
    d = X.shape[1]
    if method in FSCPU_METHODS:
        sel = FSCPUSelector(
            k,
            n_iter=opts["n_iter"],
            objective="cluster" if method == "fscpu" else "cluster+mi",
            clustering=opts["clustering"],
            n_jobs=opts["n_jobs"],
            random_state=seed,
        )
        return sel.fit(X, s).get_support()
    if method == "semi-jmi":
        return SemiJMISelector(k).fit(X, s).get_support()
    if method == "mrmr":
        return MRMRSelector(k).fit(X, s).get_support()
    if method == "kbest":
        return SelectKBest(chi2, k=k).fit(X, s).get_support()
    if method == "lasso":
        coef = np.abs(Lasso(alpha=5e-5, max_iter=10000).fit(X, s).coef_)
        m = np.zeros(d, dtype=bool)
        m[np.argsort(-coef, kind="stable")[:k]] = True
        return m
    if method == "dt-rfe":
        rf = RandomForestClassifier(n_estimators=100, random_state=seed, n_jobs=1)
        return RFE(rf, n_features_to_select=k, step=opts["rfe_step"]).fit(X, s).get_support()
    if method == "lgbm-opt":
        sel = LGBMOptSelector(k, n_iter=opts["lgbm_opt_iter"], random_state=seed)
        return sel.fit(X, s).get_support()
    # the paper's §6.2.3 gives every selector the training labels as they are, 1 = labeled
    # positive and 0 = unlabeled: the semi-supervised baselines read them as two classes
    if method == "sselect":
        sel = SSelectSelector(k, n_neighbors=5, lam=0.1, allow_fully_labeled=True)
        return sel.fit(X, s).get_support()
    if method == "jsfs":
        sel = JSFSSelector(k, n_neighbors=5, gamma=1e-11, mu=9.95e-3, allow_fully_labeled=True)
        return sel.fit(X, s).get_support()
    raise ValueError(f"unknown method {method!r}")


# ---------------------------------------------------------------- Table 1


def make_cells_t1(config: RunConfig) -> list[dict]:
    names = [c.name for c in FSCPU_CONDITIONS]
    conditions = config.keep("datasets", names)
    methods = config.keep("methods", METHODS_T1)
    return cell_grid(config, 5, ("condition", conditions), methods, **_options(config))


def run_cell_t1(cell: dict) -> dict:
    data = make_fscpu_synthetic(cell["condition"], random_state=cell["seed"])
    X = MinMaxScaler().fit_transform(data.X)
    start = time.perf_counter()
    support = select_features(cell["method"], X, data.s, 25, cell["seed"], cell)
    seconds = time.perf_counter() - start
    fsr = feature_selection_recall(np.flatnonzero(support), data.relevant)
    return {"fsr": float(fsr), "select_seconds": seconds}


def _paper_t1(method: str, condition: str) -> str:
    """The paper's Table-1 value ``"mean±sd"`` of one method and condition."""
    names = [c.name for c in FSCPU_CONDITIONS]
    return PAPER_T1[method].split()[names.index(condition)]


def _fsr(table: pd.DataFrame, method: str, condition: str) -> pd.Series:
    """Our FSR over the runs of one method and condition."""
    return table.loc[(table["method"] == method) & (table["condition"] == condition), "fsr"]


def write_report_t1(table: pd.DataFrame, ctx: ReportContext) -> str:
    names = [c.name for c in FSCPU_CONDITIONS]
    conds = [c for c in names if c in set(table["condition"])]
    ours = summarize(table, ["method", "condition"], ["fsr"], digits=2)
    lines = [
        "Artificial data of the paper's §5.2.1 (`weakfs.datasets.make_fscpu_synthetic`), min-max",
        "scaled, 25 of 50 features selected, FSR = selected relevant / 25.  Each cell: ours",
        "(mean ± sd over the runs) / paper.  Conditions `ca-RATE-NEG-POS` (cluster assumption,",
        "labeled rate %, negative and positive clusters) and `noca-RATE` (positives = outliers).",
        "",
    ]
    header = ["method", *conds]
    rows = []
    for m in [m for m in METHODS_T1 if m in set(table["method"])]:
        row = [LABEL[m]]
        for c in conds:
            hit = ours[(ours["method"] == m) & (ours["condition"] == c)]["fsr"]
            row.append(f"{hit.iloc[0] if len(hit) else '–'} / {_paper_t1(m, c)}")
        rows.append(row)
    lines.append(markdown_table(pd.DataFrame(rows, columns=header)))
    entries = [(c, LABEL[m], _fsr(table, m, c), _paper_t1(m, c)) for c in conds for m in METHODS_T1]
    lines += ["", verdict_lines(entries, digits=2)]
    note = _fscpu_mi_note(table)
    if note:
        lines += ["", note]
    if "sselect" in set(table["method"]):
        lines += ["", SSELECT_T1_NOTE]
    lines += ["", _timing(table), "", _protocol(table)]
    return "\n".join(lines)


def _fscpu_mi_note(table: pd.DataFrame) -> str:
    """FSCPU-MI beside its two parts (FSCPU, semi-JMI), ours and the paper's; only for FSCPU
    cells at the paper's settings, since its reasons are about those runs."""
    names = [c.name for c in FSCPU_CONDITIONS]
    methods = ["fscpu", "fscpu-mi", "semi-jmi"]
    searched = table[table["method"].isin(FSCPU_METHODS)]
    if not ((searched["n_iter"] == 3000) & (searched["clustering"] == "gmm")).all():
        return ""
    have = table.groupby("condition")["method"].agg(set)
    conds = [c for c in names if c in have.index and set(methods) <= have[c]]
    if not conds:
        return ""

    def ours(m: str, c: str) -> float:
        return float(_fsr(table, m, c).mean())

    def paper(m: str, c: str) -> float:
        return paper_mean(_paper_t1(m, c))

    def reaches(fsr, c: str) -> bool:  # FSCPU-MI at least the better of its parts, less 0.02
        fs, mi, jmi = (fsr(m, c) for m in methods)
        return mi >= max(fs, jmi) - 0.02 - TIE_TOLERANCE

    ours_n = sum(reaches(ours, c) for c in conds)
    paper_n = sum(reaches(paper, c) for c in conds)
    lines = [
        "FSCPU-MI sums FSCPU's score and semi-JMI's subset score, each divided by the sd of its "
        "own log, so it should come near the better of the two where either carries the signal.  "
        f"Ours reaches the better of our FSCPU and semi-JMI (less 0.02 FSR) in {ours_n} of "
        f"{len(conds)} conditions, the paper's in {paper_n} of {len(conds)}: the paper's "
        "FSCPU-MI stays near its FSCPU even where its semi-JMI is far higher (ca-40-8-2: "
        "FSCPU .90, semi-JMI .98, FSCPU-MI .79), as if the clustering term weighed more in its "
        "sum than in ours.  So ours lands above the paper mainly at 40 % labeled, where "
        "semi-JMI is strong; the paper publishes no code, so what weighs its sum differently "
        "is unknown."
    ]
    noca = [c for c in conds if c.startswith("noca")]
    if noca:

        def verdict(m: str, c: str) -> str:  # "not run" where the method has no cells
            return paper_verdict(_fsr(table, m, c), _paper_t1(m, c))

        parts = [
            f"{c}: FSCPU {ours('fscpu', c):.2f} / {paper('fscpu', c):.2f} "
            f"({verdict('fscpu', c)}), semi-JMI {ours('semi-jmi', c):.2f} / "
            f"{paper('semi-jmi', c):.2f}"
            for c in noca
        ]
        text = "Without the cluster assumption, ours / paper: " + "; ".join(parts) + "."
        differ = [c for c in noca if verdict("fscpu", c) != "within"]
        checks = ["semi-jmi", "kbest", "lasso", "dt-rfe"]
        matched = [LABEL[m] for m in checks if all(verdict(m, c) == "within" for c in noca)]
        if differ and len(matched) == len(checks):
            text += (
                f"  {', '.join(matched[:-1])} and {matched[-1]} match the paper there, so the data "
                "follow its description; the GMM choices the paper leaves open (initialisation, "
                "tolerance, iteration cap; docs/fscpu.md) decide how ten components split the "
                f"outlier shell and are the likely source of FSCPU's difference on "
                f"{' and '.join(differ)}, unverified."
            )
        lines.append(text)
    return "\n\n".join(lines)


# ---------------------------------------------------------------- Table 3


def load_table3(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Features and binary truth as the paper's §6.2.1 builds them."""
    X, y = load(name)
    if name == "spambase":
        return X.to_numpy(dtype=float), (y.to_numpy() == 1).astype(int)
    if name == "ionosphere":
        return X.to_numpy(dtype=float), (y.to_numpy() == "b").astype(int)  # "bad" = positive
    if name == "rt_iot2022":
        keep = (y != "DOS_SYN_Hping").to_numpy()
        # the two port numbers identify connections, they do not measure them: with a few
        # dozen labels a model memorises ports that do not carry over to the test split
        num = X.loc[keep].select_dtypes("number").drop(columns=list(RT_IOT_IDENTIFIERS))
        yy = y[keep].to_numpy()
        return num.to_numpy(dtype=float), np.isin(yy, ["NMAP_TCP_scan", "DDOS_Slowloris"]).astype(
            int
        )
    raise ValueError(f"unknown Table-3 dataset {name!r}")


def table3_split(name: str, seed: int):
    """A Table-3 split: ``(X_train, PU labels, X_test, y_test)``.

    As the counts of the paper's Table 2 imply: 75/25 stratified on the true class (the test
    part holds ``floor(P / 4)`` of the ``P`` positives: 453, 31, 384), min-max scaled on the
    training part, and ``floor(rate x training positives)`` positives labeled (40, 9, 23).
    """
    X, y = load_table3(name)
    test_pos = int(y.sum()) // 4
    test_size = test_pos + (len(y) - int(y.sum())) // 4
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=test_size, stratify=y, random_state=seed
    )
    scaler = MinMaxScaler().fit(X_tr)
    n_labeled = int(np.floor(LABELED_RATE[name] * int(y_tr.sum())))
    s = make_pu_labels(y_tr, positive=1, n_labeled=n_labeled, random_state=seed).s
    return scaler.transform(X_tr), s, np.clip(scaler.transform(X_te), 0, None), y_te


def spambase_split(seed: int = 0):
    """Spambase as in Table 3: (X_train scaled, PU labels, X_test scaled, y_test)."""
    return table3_split("spambase", seed)


def make_cells_t3(config: RunConfig) -> list[dict]:
    datasets = config.keep("datasets", DATASETS_T3)
    methods = config.keep("methods", METHODS_T3)
    return cell_grid(config, 3, ("dataset", datasets), methods, **_options(config))


def run_cell_t3(cell: dict) -> dict:
    X_tr, s, X_te, y_te = table3_split(cell["dataset"], cell["seed"])
    k = math.ceil(X_tr.shape[1] / 2)
    start = time.perf_counter()
    support = select_features(cell["method"], X_tr, s, k, cell["seed"], cell)
    seconds = time.perf_counter() - start
    auc = lgbm_auc(X_tr[:, support], s, X_te[:, support], y_te, cell["seed"])
    return {
        "auc": auc,
        "select_seconds": seconds,
        "n_features": int(X_tr.shape[1]),
        "k": k,
        "n_labeled": int(s.sum()),
    }


def write_report_t3(table: pd.DataFrame, ctx: ReportContext) -> str:
    ours = summarize(table, ["method", "dataset"], ["auc"])
    dsets = [d for d in DATASETS_T3 if d in set(table["dataset"])]
    rows = []
    for m in [m for m in METHODS_T3 if m in set(table["method"])]:
        row = [LABEL[m]]
        for d in dsets:
            hit = ours[(ours["method"] == m) & (ours["dataset"] == d)]["auc"]
            row.append(f"{hit.iloc[0] if len(hit) else '–'} / {PAPER_T3[m][DATASETS_T3.index(d)]}")
        rows.append(row)
    info = table.groupby("dataset")[["n_features", "k", "n_labeled"]].first()
    lines = [
        "75/25 split stratified on the true class (the test parts hold 453 / 31 / 384 positives,",
        "as the paper's Table 2), min-max scaling fitted on the training split, floor(rate x",
        "training positives) labeled (Spambase 3 % = 40, Ionosphere 10 % of 'b' = 9, RT-IoT2022",
        "2 % of NMAP_TCP_scan + DDOS_Slowloris = 23; DOS_SYN_Hping rows excluded, numeric columns",
        "only, the port identifiers id.orig_p and id.resp_p left out: with 23 labels LightGBM",
        "memorises port numbers that do not carry over to the test split), ceil(d/2) features,",
        "LightGBM (100 trees) on the PU labels, test AUC against the true labels.  Each cell: ours",
        "(mean ± sd) / paper.",
        "",
        markdown_table(pd.DataFrame(rows, columns=["method", *dsets])),
        "",
        verdict_lines(
            [
                (
                    d,
                    LABEL[m],
                    table.loc[(table["method"] == m) & (table["dataset"] == d), "auc"],
                    PAPER_T3[m][DATASETS_T3.index(d)],
                )
                for d in dsets
                for m in METHODS_T3
            ],
            T3_REASONS,
        ),
        "",
        "Per dataset (features d, selected k, labeled rows in the training split):",
        "",
        markdown_table(info.reset_index()),
        "",
        _spread(table),
        "",
        _timing(table),
        "",
        _protocol(table),
    ]
    return "\n".join(lines)


def _spread(table: pd.DataFrame) -> str:
    """Where the paper's mean sits among our splits, for methods run on at least 5 splits."""
    rows = []
    for (m, d), g in table.groupby(["method", "dataset"]):
        if len(g) < 5:
            continue
        auc = g["auc"].to_numpy()
        paper = paper_mean(PAPER_T3[m][DATASETS_T3.index(d)])
        rows.append(
            {
                "dataset": d,
                "method": LABEL[m],
                "splits": len(auc),
                "min": f"{auc.min():.3f}",
                "median": f"{np.median(auc):.3f}",
                "max": f"{auc.max():.3f}",
                "paper mean": f"{paper:.3f}",
                "splits at or above the paper": f"{int((auc >= paper).sum())} of {len(auc)}",
            }
        )
    if not rows:
        return ""
    return (
        "AUC over many splits (methods run on at least 5; a split changes the test part and "
        "which positives are labeled):\n\n" + markdown_table(pd.DataFrame(rows))
    )


def _timing(table: pd.DataFrame) -> str:
    t = table.groupby("method")["select_seconds"].agg(["mean", "max", "count"]).reset_index()
    t["method"] = [LABEL.get(m, m) for m in t["method"]]
    t.columns = ["method", "mean selection s", "max selection s", "cells"]
    return "Wall time of the feature selection per run (one process, 1 thread each):\n\n" + (
        markdown_table(t)
    )


def _runs_per_cell(table: pd.DataFrame) -> str:
    """The runs per cell: one number, or each method's runs where they differ (long runs accrue)."""
    column = "condition" if "condition" in table else "dataset"
    runs = table.groupby(["method", column])["seed"].nunique()
    if runs.nunique() == 1:
        return f"{runs.iloc[0]} run(s) per cell"
    n_columns = table[column].nunique()
    parts = []
    for method, counts in runs.groupby(level="method"):
        low, high = int(counts.min()), int(counts.max())
        text = f"{LABEL.get(method, method)} {low}" + (f"-{high}" if high > low else "")
        if len(counts) < n_columns:
            text += f" ({len(counts)} of {n_columns} {column}s run)"
        parts.append(text)
    return "run(s) per cell: " + ", ".join(parts)


def _protocol(table: pd.DataFrame) -> str:
    first = table.iloc[0]
    ran_lgbm = "lgbm-opt" in set(table["method"])
    lgbm = f"LGBM-OPT n_iter={first['lgbm_opt_iter']}, " if ran_lgbm else ""
    return (
        f"Protocol settings of this run: {_runs_per_cell(table)} (paper: 5 for Table 1, 3 for "
        f"Table 3), FSCPU/FSCPU-MI n_iter={first['n_iter']}, "
        f"clustering={first['clustering']!r}, {lgbm}DT-RFE "
        f"step={first['rfe_step']}; paper: n_iter=3000, Gaussian mixture K=10, RFE step 1.  "
        "Baselines see the PU labels with unlabeled rows as negatives: K-Best = SelectKBest(chi2), "
        "Lasso(alpha=5e-5) ranked by |coef|, mRMR = MIQ on 5 equal-width bins (our "
        "implementation, not pymrmr), DT-RFE = RFE with a 100-tree random forest, semi-JMI = JMI "
        "on 5 equal-width bins; sSelect (lam=0.1, 5 neighbours) and JSFS (5 neighbours, "
        "gamma=1e-11, mu=9.95e-3) read the same 1/0 labels as two classes.  Not run: MRMR-UFS "
        "and ES-MCRFS, whose algorithms are described nowhere we could read beyond the FSCPU "
        "paper's paragraph (only their titles and abstracts are public), and we do not invent "
        "them.  See docs/fscpu.md and "
        "docs/fscpu_baselines.md for every deviation."
    )


# ---------------------------------------------------------------- Figure 1

# the paper's panels (a)-(d): {cluster assumption, labeled rate, negative, positive clusters} =
# {yes, 40 %, 8, 2}, {yes, 10 %, 8, 2}, {no, 10 %}, {yes, 10 %, 1, 2}
FIGURE1_CONDITIONS = ["ca-40-8-2", "ca-10-8-2", "noca-10", "ca-10-1-2"]


def _condition_text(condition: str) -> str:
    """``ca-40-8-2`` -> "40 % labeled, 8 negative / 2 positive clusters"."""
    parts = condition.split("-")
    if parts[0] == "noca":
        return f"no cluster assumption, {parts[1]} % labeled"
    return f"{parts[1]} % labeled, {parts[2]} negative / {parts[3]} positive clusters"


def make_cells_f1(config: RunConfig) -> list[dict]:
    conditions = config.keep("datasets", FIGURE1_CONDITIONS)
    opts = _options(config)
    return [
        {"condition": c, "seed": r, **opts} for c in conditions for r in range(config.n_runs(1))
    ]


def run_cell_f1(cell: dict) -> dict:
    data = make_fscpu_synthetic(cell["condition"], random_state=cell["seed"])
    X = MinMaxScaler().fit_transform(data.X)
    sel = FSCPUSelector(
        25,
        n_iter=cell["n_iter"],
        clustering=cell["clustering"],
        n_jobs=cell["n_jobs"],
        random_state=cell["seed"],
    ).fit(X, data.s)
    step = max(1, cell["n_iter"] // 200)
    return {
        "fsr": feature_selection_recall(np.flatnonzero(sel.support_), data.relevant),
        "every": step,
        "theta_history": np.round(sel.theta_history_[::step], 4).tolist(),
        "relevant": data.relevant.tolist(),
    }


def write_report_f1(table: pd.DataFrame, ctx: ReportContext) -> str:
    import matplotlib.pyplot as plt

    from weakfs.plotting import plot_theta_history

    rows = table.drop_duplicates("condition")
    fig, axes = plt.subplots(1, len(rows), figsize=(4 * len(rows), 3.2), squeeze=False)
    for ax, (_, row) in zip(axes[0], rows.iterrows()):
        hist = np.asarray(row["theta_history"], dtype=float)
        plot_theta_history(hist, relevant=row["relevant"], ax=ax, title=row["condition"])
        ticks = ax.get_xticks()
        ax.set_xticks(ticks[(ticks >= 0) & (ticks < hist.shape[0])])
        ax.set_xticklabels([f"{int(v * row['every'])}" for v in ax.get_xticks()])
    path = ctx.figure_path("theta")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    quarter = table["n_iter"].iloc[0] // 4
    fsr = "; ".join(
        f"{r.condition}: FSR {r.fsr:.2f}, {_converged_share(r.theta_history):.0%} of theta "
        "converged, gap "
        f"{_theta_gap(r.theta_history, r.relevant, quarter // r.every):.2f} at iteration "
        f"{quarter} and {_theta_gap(r.theta_history, r.relevant, -1):.2f} at the end"
        for r in rows.itertuples()
    )
    panels = ", ".join(
        f"({letter}) {_condition_text(c)}" for letter, c in zip("abcd", rows["condition"])
    )
    return (
        "The paper's Figure 1: every theta_i over the compact-GA iterations of one FSCPU run on"
        " the artificial data (relevant features red, irrelevant blue), for the conditions"
        f" {panels}.\n\n![theta]({path.name})\n\n{fsr}.  Converged: theta in [0, 0.1] or"
        " [0.9, 1] at the last iteration, the paper's criterion in its open-data section; gap:"
        " mean theta of the relevant features less that of the irrelevant ones.  The paper"
        " describes (b) as converging close to (a), (c) poorly and (d) relatively poorly.\n\n"
        + _figure1_protocol(table)
    )


def _theta_gap(theta_history, relevant, row: int) -> float:
    """Mean theta of the relevant features less that of the others, at one recorded row."""
    theta = np.asarray(theta_history, dtype=float)[row]
    is_relevant = np.zeros(theta.shape[0], dtype=bool)
    is_relevant[np.asarray(relevant, dtype=int)] = True
    return float(theta[is_relevant].mean() - theta[~is_relevant].mean())


def _converged_share(theta_history) -> float:
    """Share of the final theta within 0.1 of 0 or 1, the FSCPU paper's convergence criterion."""
    last = np.asarray(theta_history, dtype=float)[-1]
    return float(np.mean((last <= 0.1) | (last >= 0.9)))


def _figure1_protocol(table: pd.DataFrame) -> str:
    """The settings of the figure's runs; a panel is Table 1's FSCPU cell of the same condition
    and seed, recorded every ``every`` iterations."""
    first = table.iloc[0]
    seeds = ", ".join(str(s) for s in sorted(set(table["seed"])))
    return (
        f"Protocol settings of this run: one FSCPU run per panel (seed {seeds}), "
        f"n_iter={first['n_iter']}, clustering={first['clustering']!r}, theta drawn every "
        f"{first['every']} iterations; paper: n_iter=3000, Gaussian mixture K=10.  A panel's "
        "data, search and FSR are those of the Table 1 FSCPU cell with the same condition and "
        "seed.  See docs/fscpu.md for every deviation."
    )


TITLES = {
    "fscpu-figure1": "FSCPU Figure 1: theta over the iterations on the artificial data",
    "fscpu-table1": "FSCPU Table 1: feature-selection recall on the artificial PU data",
    "fscpu-table3": "FSCPU Table 3: LightGBM AUC after PU feature selection on open data",
}


def _table1_version(cell: dict) -> int:
    """2 for FSCPU/FSCPU-MI with the mixture: its EM became fused and mixed-precision after the
    first T = 3000 cell was computed, which changes the rounding and so the search path."""
    mixture = cell.get("method") in FSCPU_METHODS and cell.get("clustering") == "gmm"
    return 2 if mixture else 1


# versions: figure1 2 = the paper's panels (two positive clusters); table3 2 = stratified split
# with Table 2's counts, RT-IoT2022 without its port identifiers; table1 see _table1_version
EXPERIMENTS = {
    name: Experiment(name, TITLES[name], *functions, default_runs=runs, version=version)
    for name, functions, runs, version in [
        ("fscpu-figure1", (make_cells_f1, run_cell_f1, write_report_f1), 1, 2),
        ("fscpu-table1", (make_cells_t1, run_cell_t1, write_report_t1), 5, _table1_version),
        ("fscpu-table3", (make_cells_t3, run_cell_t3, write_report_t3), 3, 2),
    ]
}
