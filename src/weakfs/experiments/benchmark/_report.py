"""The benchmark's report: per family of tables, whether selection beats all features (at which k,
with which selector, and how sure), truth AUC against k, the board's calibration, a leaderboard
per label regime with mean ranks and their critical difference, wins against random selection,
how well the weak-label score predicts the truth, and cost against benefit."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import markdown_table
from weakfs.experiments._report_statistics import (
    friedman_nemenyi,
    holm,
    wilcoxon_greater,
)
from weakfs.experiments.benchmark._protocol import (
    ALL_FEATURES,
    DATASETS,
    FAMILIES,
    FIXED_KS,
    JUDGES,
    MAX_ROWS,
    REFERENCES,
    REGIMES,
    TEST_SIZE,
)
from weakfs.experiments.benchmark._report_calibration import board_calibration
from weakfs.experiments.benchmark._report_cells import (
    candidates,
    cannot_run,
    left_out,
    long_table,
    settings_text,
)
from weakfs.experiments.benchmark._report_figures import cost_plot, k_plot

__all__ = ["write_report"]


def _rounded(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` rounded to three decimals for a table, except a nonzero number that would print
    as 0 (or -0): it keeps one significant digit, so a gain just below zero reads as one."""
    rounded = frame.round(3)
    for column in frame.select_dtypes("float").columns:
        tiny = (rounded[column] == 0) & (frame[column] != 0)
        rounded.loc[tiny, column] = [float(f"{v:.1g}") for v in frame.loc[tiny, column]]
    return rounded


def _family_answer(long: pd.DataFrame, judge: str) -> pd.DataFrame:
    """Per family and regime: does a selector at some k beat all features?  Every (selector,
    k) run on every dataset of the family-regime is paired with all features by dataset (the
    mean truth AUC over repetitions), the one with the largest mean difference is reported with
    its Wilcoxon signed-rank p (one-sided, greater) and Holm's adjustment over every (selector,
    k) tried there, since picking the best of many inflates a single test."""
    rows = []
    for (family, regime), g in long.groupby(["family", "regime"], sort=False):
        g = g.assign(
            choice=g["method"]
            + np.where(g.get("k_rule", "fixed") == "auto", " (auto k)", " k=" + g["k"].astype(str))
        )
        g.loc[g["method"] == ALL_FEATURES, "choice"] = ALL_FEATURES
        means = g.groupby(["dataset", "choice"])[judge].mean().unstack()
        if ALL_FEATURES not in means or means.shape[0] < 1:
            continue
        base = means[ALL_FEATURES]
        tried = [c for c in means.columns if c != ALL_FEATURES and means[c].notna().all()]
        if not tried:
            continue
        gain = means[tried].sub(base, axis=0)
        pvalues = []
        for c in tried:
            diff = gain[c].to_numpy()
            if means.shape[0] >= 2 and np.any(diff != 0):
                pvalues.append(wilcoxon_greater(diff))
            else:
                pvalues.append(1.0)
        adjusted = holm(pvalues)
        best = int(np.argmax(gain.mean().to_numpy()))
        verdict = "yes" if adjusted[best] < 0.05 else "not shown"
        if gain[tried[best]].mean() <= 0:
            verdict = "no"
        rows.append(
            {
                "family": family,
                "regime": regime,
                "datasets": int(means.shape[0]),
                "all features": base.mean(),
                "best selector and k": tried[best],
                "its truth AUC": means[tried[best]].mean(),
                "gain": gain[tried[best]].mean(),
                "datasets where it wins": int((gain[tried[best]] > 0).sum()),
                "p (Wilcoxon)": pvalues[best],
                "p (Holm)": adjusted[best],
                "selection beats all features": verdict,
            }
        )
    if not rows:
        return pd.DataFrame(rows)
    # the families in their order, each family's regimes in the grid's order
    order = {name: i for i, name in enumerate(dict.fromkeys([*FAMILIES.values(), *REGIMES]))}
    answer = pd.DataFrame(rows)
    rank = answer["family"].map(order) * len(order) + answer["regime"].map(order)
    return answer.loc[rank.sort_values(kind="stable").index].reset_index(drop=True)


def _stability(features: pd.Series, d: int) -> float:
    from weakfs.metrics import selection_stability

    if len(features) < 2 or d < 2:
        return np.nan
    Z = np.zeros((len(features), d), dtype=bool)
    for i, cols in enumerate(features):
        Z[i, list(cols)] = True
    return selection_stability(Z).value


def _leaderboard(long: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    scores = ["truth_auc", "random_auc", "truth_f1", "weak_score", "select_seconds"]
    means = long.groupby(["dataset", "method"])[scores].mean().reset_index()
    complete = means.pivot(index="dataset", columns="method", values="truth_auc").dropna(axis=1)
    ranks = complete.rank(axis=1, ascending=False).mean()
    rows = []
    for method, g in means.groupby("method"):
        g = g.set_index("dataset")
        beats = (g["truth_auc"] > g["random_auc"]).mean() if method not in REFERENCES else np.nan
        runs = long[long["method"] == method].groupby("dataset")
        stab = [_stability(g["features"], int(g["n_features"].iloc[0])) for _, g in runs]
        fsr = long.loc[long["method"] == method, "fsr"].mean()
        rows.append(
            {
                "method": method,
                "mean rank": ranks.get(method, np.nan),
                "truth AUC": g["truth_auc"].mean(),
                "truth F1": g["truth_f1"].mean(),
                "beats random of its size (share of datasets)": beats,
                "weak-label score": g["weak_score"].mean(),
                "stability over repetitions": (
                    np.nanmean(stab) if np.isfinite(stab).any() else np.nan
                ),
                "FSR (synthetic)": fsr,
                "seconds": g["select_seconds"].mean(),
                "datasets": len(g),
            }
        )
    board = pd.DataFrame(rows).sort_values(["mean rank", "truth AUC"], ascending=[True, False])
    n_data, n_methods = complete.shape
    note = ""
    if n_data >= 2 and n_methods >= 3:
        stat, p, cd = friedman_nemenyi(complete)
        note = (
            f"Friedman test over {n_data} datasets x {n_methods} methods (those run on every "
            f"dataset of this regime): chi2 = {stat:.1f}, p = {p:.3g}; Nemenyi's critical "
            f"difference at 0.05: {cd:.2f} ranks (two methods whose mean ranks differ by less are "
            "not told apart)."
        )
    return board, note


def _wins_and_losses(long: pd.DataFrame) -> pd.DataFrame:
    """Per method: the datasets where its mean truth AUC is the best of the selectors, and those
    where it falls below random selection of as many columns."""
    means = long.groupby(["dataset", "method"])[["truth_auc", "random_auc"]].mean()
    auc = means["truth_auc"].unstack()
    selectors = [m for m in auc.columns if m not in REFERENCES]
    # a dataset where no selector ran in the budget (references only) has no best selector
    best = auc[selectors].dropna(how="all").idxmax(axis=1)
    rows = []
    for method in selectors:
        mine = means.xs(method, level="method")
        below = mine.index[mine["truth_auc"] < mine["random_auc"]]
        rows.append(
            {
                "method": method,
                "best selector on": ", ".join(sorted(best.index[best == method])) or "-",
                "below random on": ", ".join(sorted(below)) or "-",
            }
        )
    return pd.DataFrame(rows)


def _agreement(long: pd.DataFrame) -> str:
    """How well the weak-label score (what the user sees) predicts the truth AUC, per cell:
    the mean Spearman correlation over every row of the board and over the selectors alone, and
    how often the selector the weak score ranks first is within 0.03 truth AUC of the best."""
    rho_all, rho_sel, top_ok = [], [], []
    for _, g in long.dropna(subset=["weak_score"]).groupby(["dataset", "regime", "seed"]):
        if len(g) >= 3 and g["weak_score"].nunique() > 1 and g["truth_auc"].nunique() > 1:
            rho_all.append(spearmanr(g["weak_score"], g["truth_auc"]).statistic)
        sel = g[~g["method"].isin(REFERENCES)]
        if len(sel) >= 3 and sel["weak_score"].nunique() > 1 and sel["truth_auc"].nunique() > 1:
            rho_sel.append(spearmanr(sel["weak_score"], sel["truth_auc"]).statistic)
        if len(sel) >= 2:
            first = sel.loc[sel["weak_score"].idxmax(), "truth_auc"]
            top_ok.append(first >= sel["truth_auc"].max() - 0.03)
    if not rho_all:
        return ""
    return (
        f"How well the weak-label score predicts the truth, per cell: mean Spearman correlation "
        f"{np.nanmean(rho_all):.2f} over the board's rows ({len(rho_all)} cells), "
        f"{np.nanmean(rho_sel):.2f} over the selectors alone; the selector the weak score ranks "
        f"first is within 0.03 truth AUC of the best selector in {int(np.sum(top_ok))} of "
        f"{len(top_ok)} cells."
    )


def write_report(table: pd.DataFrame, ctx: ReportContext) -> str:
    n_cells = len(table)
    grid = len(DATASETS) * len(REGIMES)
    done = table.groupby(["dataset", "regime"])["seed"].nunique()  # cells that cannot run too
    cannot, cannot_text = cannot_run(table)
    table = table[~cannot]
    long = long_table(table)
    families = {}
    for name, family in FAMILIES.items():
        families.setdefault(family, []).append(name)
    lines = [
        "The benchmark of feature selection from weak labels. Per cell (dataset, label "
        "regime, repetition): a stratified train/test split "
        f"({int((1 - TEST_SIZE) * 100)}/{int(TEST_SIZE * 100)}; tables above {MAX_ROWS} rows are "
        f"subsampled to {MAX_ROWS} per repetition), the training labels hidden as the regime "
        "says, `compare_selectors` on the training rows (every selector that reads those labels, "
        f"at the fixed k in {{{', '.join(map(str, FIXED_KS))}}} below the column count and at its "
        "automatic k, at settings fixed by the table's size, no time budget; the features of "
        "an automatic-k row are those a refit on all training rows selects, of a fixed-k row "
        "those chosen in the most folds), then every selection judged by the truth: "
        + " and ".join(JUDGES.values())
        + " fitted on the *true* training labels of the selected columns, ROC AUC on the test "
        "rows (and F1 of the logistic regression). Random columns of the same size (5 draws) "
        "are every selection's reference. The weak-label score is what a user would have seen "
        "(the prior-corrected CV AUC for PU labels, accuracy on labeled rows for "
        "semi-supervised).",
        "",
        "Families: "
        + "; ".join(f"{f}: {', '.join(names)}" for f, names in families.items())
        + " (tabular and synthetic have at most 970 columns, the others 1,000 or more; a "
        "multi-class table is its first class against the rest).",
        "",
        f"Grid done: {done.size} of {grid} (dataset, regime) pairs have cells; {n_cells} cells, "
        f"{int((done >= 5).sum())} pairs with the 5 repetitions asked for"
        + (f" ({int(cannot.sum())} of the cells cannot run)." if cannot.any() else "."),
        "",
        *([cannot_text, ""] if cannot_text else []),
        "Regimes: " + "; ".join(f"`{r}`" for r in REGIMES) + " (pu-scar-F: SCAR, a share F of "
        "the positives labeled; pu-biased-0.3: a positive's chance of a label grows with "
        'its logistic score, `make_pu_labels(mechanism="score")`, 30 % on average; '
        "semi-5pc: 5 % of each class labeled; none: no labels, UFVS's "
        "values mapped to their columns).",
        "",
        " ".join(t for t in (settings_text(table), left_out(table)) if t),
        "",
    ]
    if long.empty:
        return "\n".join([*lines, "No cell finished."])
    for judge, name in JUDGES.items():
        if long[judge].isna().all():
            continue
        answer = _family_answer(long, judge)
        if answer.empty:
            continue
        lines += [
            f"## Does selection beat all features? (judge: {name})",
            "",
            "Per family and regime, the (selector, k) with the largest mean truth-AUC gain over "
            "all features across the family's datasets (each dataset's mean over repetitions); "
            "`yes` when its one-sided Wilcoxon p, Holm-adjusted over every (selector, k) tried "
            "there, is below 0.05; `no` when even the best loses on average; else `not shown`.",
            "",
            markdown_table(_rounded(answer)),
            "",
        ]
    k_figure = k_plot(long, ctx)
    if k_figure:
        lines += [f"![truth AUC against k per family and regime]({k_figure})", ""]
    lines += [f"![cost against benefit]({cost_plot(long, ctx)})", ""]
    calibration = board_calibration(long)
    lines += [calibration] if calibration else []
    ranked = candidates(long)
    for regime in [r for r in REGIMES if r in set(ranked["regime"])]:
        in_regime = ranked[ranked["regime"] == regime]
        board, note = _leaderboard(in_regime)
        datasets = sorted(set(in_regime["dataset"]))
        lines += [
            f"## {regime}",
            "",
            f"Datasets: {', '.join(datasets)}. Each selector at its automatic k.",
            "",
            markdown_table(_rounded(board)),
            "",
            note,
            "",
            _agreement(in_regime),
            "",
            "Where each selector wins and loses (mean truth AUC per dataset):",
            "",
            markdown_table(_wins_and_losses(in_regime)),
            "",
        ]
    return "\n".join(lines)
