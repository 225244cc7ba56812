"""The benchmark's report: per family of tables, whether selection beats all features (at which k,
with which selector, and how sure), truth AUC against k, the board's calibration, a leaderboard
per label regime with mean ranks and their critical difference, wins against random selection,
how well the weak-label score predicts the truth, and cost against benefit."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
from scipy.stats import friedmanchisquare, rankdata, spearmanr, wilcoxon

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import markdown_table
from weakfs.experiments.benchmark._protocol import (
    ALL_FEATURES,
    CANNOT_RUN,
    DATASETS,
    FAMILIES,
    FIXED_KS,
    JUDGES,
    MAX_ROWS,
    RANDOM,
    REFERENCES,
    REGIMES,
    TEST_SIZE,
)

__all__ = ["write_report"]

#: Nemenyi's critical values q_0.05 for 2..12 methods (Demšar, JMLR 2006, Table 5)
NEMENYI_Q05 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102,
               10: 3.164, 11: 3.219, 12: 3.268}  # fmt: skip


#: the per-method lists of a cell
PER_METHOD = ("k", "weak_score", "truth_auc", "random_auc", "truth_f1", "select_seconds", "fsr")
#: per-method lists that cells from version 4 on also hold
PER_METHOD_V4 = ("truth_auc_trees", "random_auc_trees")


def _long(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (cell, method)."""
    rows = []
    for _, cell in table.iterrows():
        for i, method in enumerate(cell["method"]):
            rows.append(
                {
                    "dataset": cell["dataset"],
                    "regime": cell["regime"],
                    "seed": cell["seed"],
                    "method": method,
                    **{key: cell[key][i] for key in PER_METHOD},
                    **{
                        key: cell[key][i] if isinstance(cell.get(key), list) else np.nan
                        for key in PER_METHOD_V4
                    },
                    "features": cell["features"][i],
                    **{
                        key: cell[key][i]
                        for key in ("k_rule", "tied", "recommended")
                        if isinstance(cell.get(key), list)
                    },
                    "n_features": cell["n_features"],
                }
            )
    long = pd.DataFrame(rows)
    if not long.empty:
        long["family"] = long["dataset"].map(FAMILIES)
    return long


def _candidates(long: pd.DataFrame) -> pd.DataFrame:
    """The rows a leaderboard ranks: each selector at its automatic k, and the references (all
    features; random selection where a cell ran it as a row)."""
    if "k_rule" not in long:
        return long
    return long[(long["k_rule"] != "fixed") | long["method"].isin(REFERENCES)]


def _holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment of ``pvalues`` (family-wise error)."""
    p = np.asarray(pvalues, dtype=float)
    order = np.argsort(p)
    adjusted = np.empty_like(p)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, (p.size - rank) * p[i])
        adjusted[i] = min(1.0, running)
    return adjusted.tolist()


#: up to this many differences the signed-rank test enumerates every sign pattern (2**13 = 8192
#: sums), which is what scipy's ``wilcoxon`` does there; larger samples go to scipy
EXACT_SIGN_FLIPS_MAX_N = 13


@functools.cache
def _sign_patterns(n: int) -> np.ndarray:
    """Every subset of ``n`` items as a ``(2**n, n)`` 0/1 matrix."""
    return (np.arange(2**n)[:, None] >> np.arange(n)) & 1


def _wilcoxon_greater(diff: np.ndarray) -> float:
    """One-sided (greater) Wilcoxon signed-rank p of the paired differences ``diff``.

    Zeros are dropped and ties take average ranks (scipy's defaults); up to
    ``EXACT_SIGN_FLIPS_MAX_N`` differences the p is the share of the ``2**n`` equally likely sign
    patterns whose positive-rank sum reaches the observed one.  That is scipy's answer there
    (its exact null without ties, its exhaustive permutation test with ties or zeros; every sum
    of half-integer ranks and every share of ``2**n`` is exact in floating point), computed as
    one product instead of thousands of calls, and the same with every scipy release.
    """
    if diff.size > EXACT_SIGN_FLIPS_MAX_N:
        return float(wilcoxon(diff, alternative="greater").pvalue)
    nonzero = diff[diff != 0]
    ranks = rankdata(np.abs(nonzero))
    observed = ranks[nonzero > 0].sum()
    sums = _sign_patterns(nonzero.size) @ ranks
    return float(np.count_nonzero(sums >= observed) / sums.size)


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
                pvalues.append(_wilcoxon_greater(diff))
            else:
                pvalues.append(1.0)
        holm = _holm(pvalues)
        best = int(np.argmax(gain.mean().to_numpy()))
        verdict = "yes" if holm[best] < 0.05 else "not shown"
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
                "p (Holm)": holm[best],
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


def _k_plot(long: pd.DataFrame, ctx: ReportContext) -> str | None:
    """Truth AUC against k, per family (rows) and regime (columns): every selector's fixed-k
    rows, random columns of the same k (dashed), all features (dotted line)."""
    import matplotlib.pyplot as plt

    if "k_rule" not in long or not (long["k_rule"] == "fixed").any():
        return None
    fixed = long[(long["k_rule"] == "fixed") & long["k"].isin(FIXED_KS)]
    families = [f for f in dict.fromkeys(FAMILIES.values()) if f in set(long["family"])]
    regimes = [r for r in REGIMES if r in set(long["regime"])]
    fig, axes = plt.subplots(
        len(families), len(regimes), figsize=(3 * len(regimes), 2.6 * len(families)),
        squeeze=False, sharex=True,
    )  # fmt: skip
    methods = sorted(set(fixed["method"]) - set(REFERENCES))
    colours = dict(zip(methods, plt.cm.tab10(np.linspace(0, 1, max(len(methods), 1)))))
    for i, family in enumerate(families):
        for j, regime in enumerate(regimes):
            ax = axes[i, j]
            g = long[(long["family"] == family) & (long["regime"] == regime)]
            f = fixed[(fixed["family"] == family) & (fixed["regime"] == regime)]
            for method, h in f[~f["method"].isin(REFERENCES)].groupby("method"):
                curve = h.groupby("k")["truth_auc"].mean()
                ax.plot(curve.index, curve.values, marker="o", ms=3, color=colours[method],
                        label=method)  # fmt: skip
            rand = f.groupby("k")["random_auc"].mean()
            if not rand.empty:
                ax.plot(rand.index, rand.values, ls="--", color="grey", label="random")
            every = g.loc[g["method"] == ALL_FEATURES, "truth_auc"]
            if not every.empty:
                ax.axhline(every.mean(), ls=":", color="black", label=ALL_FEATURES)
            ax.set_xscale("log")
            ax.set_title(f"{family}, {regime}", fontsize=8)
            ax.tick_params(labelsize=7)
    handles, labels = [], []
    for ax in axes.ravel():
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 6), fontsize=7)
    fig.supxlabel("k (log scale)", fontsize=8)
    fig.supylabel("truth AUC (logistic regression, mean)", fontsize=8)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    path = ctx.figure_path("k")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path.name


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
        stat, p = friedmanchisquare(*[complete[m] for m in complete.columns])
        q = NEMENYI_Q05.get(min(n_methods, 12))
        cd = q * np.sqrt(n_methods * (n_methods + 1) / (6 * n_data))
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


def _cost_plot(long: pd.DataFrame, ctx: ReportContext) -> str:
    import matplotlib.pyplot as plt

    gain = long.assign(gain=long["truth_auc"] - long["random_auc"])
    selectors = gain[~gain["method"].isin(REFERENCES)]
    summary = selectors.groupby("method")[["select_seconds", "gain"]].mean()
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.scatter(summary["select_seconds"].clip(lower=1e-3), summary["gain"])
    for method, row in summary.iterrows():
        ax.annotate(method, (max(row["select_seconds"], 1e-3), row["gain"]), fontsize=8)
    ax.axhline(0, color="grey", ls=":")
    ax.set_xscale("log")
    ax.set_xlabel("seconds per fold (mean)")
    ax.set_ylabel("truth AUC above random columns\nof the same number (mean)")
    fig.tight_layout()
    path = ctx.figure_path("cost")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


def _left_out(table: pd.DataFrame) -> str:
    """How often each selector was left out of its cells, for the budget or because its fit
    failed (from the cells' notes)."""
    import re

    notes = table["notes"].fillna("").astype(str) if "notes" in table else pd.Series(dtype=str)
    budget: dict[str, int] = {}
    failed: dict[str, int] = {}
    for text in notes:
        for method, why in re.findall(r"(\w+) left out: (its (?:trial )?fit failed)?", text):
            counts = failed if why else budget
            counts[method] = counts.get(method, 0) + 1
    labeled = int((table["regime"] != "none").sum())
    lines = []
    timed = "budget" in table  # cells before version 4 ran within a time budget
    if timed and budget:
        parts = [f"{m} in {n} of {labeled}" for m, n in sorted(budget.items())]
        lines.append(
            "Left out for the time budget (at its cheapest setting it would not fit in what the "
            "references and rankers left), in cells with labels: " + "; ".join(parts) + "."
        )
    elif timed:
        lines.append("No selector was left out for the budget.")
    if failed:
        parts = [f"{m} in {n} of {labeled}" for m, n in sorted(failed.items())]
        lines.append(
            "Left out because its fit raised an error (the cell's notes give it): "
            + "; ".join(parts)
            + "."
        )
    return " ".join(lines)


#: truth AUC below the best candidate that counts as a miss (what the board's users are promised:
#: a recommendation within 0.03 of the best, or a board that says it cannot tell)
FAR_BELOW = 0.03


def _board_calibration(long: pd.DataFrame) -> str:
    """How well the board's flags hold against the truth, per regime: the share of labeled
    cells whose truly best candidate (highest truth AUC among the board's candidates) is in the
    top group, the recommendation's mean regret (truth AUC below that best), and the mean regret
    of every fixed choice (always one selector, or always all features), over the cells where
    that choice ran."""
    if "recommended" not in long or long["recommended"].isna().all():
        return ""
    rows = []
    alternatives: dict[tuple[str, str], list[float]] = {}
    labeled = _candidates(long[long["regime"] != "none"])
    for regime, g in labeled.groupby("regime", sort=False):
        cells = [c for _, c in g.groupby(["dataset", "seed"]) if c["recommended"].any()]
        if not cells:
            continue
        covered, regret, fixed, selections, costly_misses = [], [], {}, 0, 0
        for c in cells:
            cand = c[c["method"] != RANDOM]
            best = cand["truth_auc"].max()
            for rule, row in _recommendation_rules(cand).items():
                alternatives.setdefault((regime, rule), []).append(best - float(row["truth_auc"]))
            # strictly the top group: with too few labels the recommendation (all features)
            # may lie outside it
            covered.append(bool(cand.loc[cand["truth_auc"].idxmax(), "tied"]))
            recommended = cand.loc[cand["recommended"]].iloc[0]
            regret.append(best - float(recommended["truth_auc"]))
            # a miss of the top group matters where the recommendation paid for it
            costly_misses += (not covered[-1]) and regret[-1] > FAR_BELOW
            selections += recommended["method"] != ALL_FEATURES
            for method, truth in zip(cand["method"], cand["truth_auc"]):
                fixed.setdefault(method, []).append(best - truth)
        best_fixed = min(fixed, key=lambda m: np.mean(fixed[m]))
        rows.append(
            {
                "regime": regime,
                "cells": len(cells),
                "best in top group": f"{100 * np.mean(covered):.0f} %",
                f"best outside it and recommendation > {FAR_BELOW} below": int(costly_misses),
                "recommendation's mean regret": round(float(np.mean(regret)), 4),
                "cells recommending a selection": int(selections),
                "best fixed choice": best_fixed,
                "its mean regret": round(float(np.mean(fixed[best_fixed])), 4),
                "all features' mean regret": round(
                    float(np.mean(fixed.get(ALL_FEATURES, [np.nan]))), 4
                ),
                # the test: strictly below every fixed choice (ties are not below)
                "below every fixed choice": (
                    "yes" if np.mean(regret) < np.mean(fixed[best_fixed]) - 1e-12 else "no"
                ),
            }
        )
    if not rows:
        return ""
    return "\n".join(
        [
            "## The board's calibration",
            "",
            "Per labeled cell, the board's candidates (each selector at its automatic k, and all "
            "features) against the truth: is the truly best candidate in the top group (and in "
            f"how many cells it is not while the recommendation lies more than {FAR_BELOW} below "
            "it), and how far below it (truth AUC) is the recommendation (and in how many cells "
            "it is a selection rather than all features); beside it the fixed choice with the "
            "lowest mean regret over the cells where it ran, and whether the recommendation's "
            "mean regret is strictly below that of every fixed choice. Truth AUC of the logistic "
            "regression judge.",
            "",
            markdown_table(pd.DataFrame(rows)),
            "",
            "The same cells under other rules the board could follow (the board's rule is in "
            "docs/compare.md): mean regret, and the cells more than 0.03 truth AUC below the best "
            "candidate. *all features*: always every column; *simplest tied*: the top group's "
            "fewest features; *largest tied selection*: the top group's largest selection (all "
            "features if it holds none); *highest tied score*: the top group's highest weak-label "
            "score.",
            "",
            markdown_table(_rules_table(alternatives)),
            "",
        ]
    )


def _recommendation_rules(cand: pd.DataFrame) -> dict[str, pd.Series]:
    """The row each recommendation rule picks among one cell's candidates."""
    # positions by numpy on the cell's few rows (a stable lexsort sorts as pandas' stable
    # sort_values does, NaN last): this runs once per labeled cell
    everything = np.flatnonzero(cand["method"].to_numpy() == ALL_FEATURES)
    group = np.flatnonzero(cand["tied"].to_numpy().astype(bool))
    selections = group[cand["method"].to_numpy()[group] != ALL_FEATURES]
    k = cand["k"].to_numpy(dtype=float)
    seconds = cand["select_seconds"].to_numpy(dtype=float)
    score = cand["weak_score"].to_numpy(dtype=float)
    score_or_lowest = np.where(np.isnan(score), -np.inf, score)  # a missing score ranks lowest
    positions = {
        "the board": np.flatnonzero(cand["recommended"].to_numpy().astype(bool))[0],
        "all features": everything[0] if everything.size else None,
        # the board's own tie-breaks: fewest features, then fewest seconds; the largest
        # selection, then (as the cells do not record stability) the higher score
        "simplest tied": (group[np.lexsort((seconds[group], k[group]))[0]] if group.size else None),
        "largest tied selection": (
            selections[np.lexsort((score[selections], k[selections]))[-1]]
            if selections.size
            else (everything[0] if everything.size else None)
        ),
        "highest tied score": (
            group[np.argsort(score_or_lowest[group], kind="stable")[-1]] if group.size else None
        ),
    }
    return {rule: cand.iloc[pos] for rule, pos in positions.items() if pos is not None}


def _rules_table(alternatives: dict[tuple[str, str], list[float]]) -> pd.DataFrame:
    """Per regime and rule: the mean regret and the cells more than ``FAR_BELOW`` below."""
    regimes = list(dict.fromkeys(regime for regime, _ in alternatives))
    rules = list(dict.fromkeys(rule for _, rule in alternatives))
    table = []
    for regime in regimes:
        row = {"regime": regime}
        for rule in rules:
            regrets = np.asarray(alternatives.get((regime, rule), []))
            row[rule] = (
                f"{regrets.mean():.4f} ({int((regrets > FAR_BELOW).sum())} of {regrets.size})"
                if regrets.size
                else "–"
            )
        table.append(row)
    return pd.DataFrame(table)


def _cannot_run(table: pd.DataFrame) -> tuple[pd.Series, str]:
    """Which cells cannot run (too few labels for the board: recorded with no rows), and a
    sentence naming them per regime and dataset."""
    notes = table["notes"].fillna("").astype(str) if "notes" in table else None
    if notes is None:
        return pd.Series(False, index=table.index), ""
    cannot = notes.str.startswith(CANNOT_RUN)
    if not cannot.any():
        return cannot, ""
    parts = []
    for regime, cells in table[cannot].groupby("regime", sort=False):
        per_dataset = [
            f"{dataset} seed{'s' if len(seeds) > 1 else ''} "
            + ", ".join(str(int(s)) for s in sorted(seeds))
            for dataset, seeds in cells.groupby("dataset")["seed"]
        ]
        parts.append(f"{regime}: {'; '.join(per_dataset)}")
    reason = notes[cannot].iloc[0].split(": ", 1)[-1]
    n = int(cannot.sum())
    text = (
        f"Cannot run: {n} cell{'s' if n > 1 else ''} ({' | '.join(parts)}), whose split leaves too "
        f"few labels (as in the first of them: {reason}); they are final, hold no rows and are "
        "left out of everything below."
    )
    return cannot, text


def _settings_text(table: pd.DataFrame) -> str:
    """The settings the cells ran with (fixed by each table's size), per method: the range."""
    if "settings" not in table:
        return ""
    import json

    seen: dict = {}
    for text in table["settings"].dropna():
        for method, values in json.loads(text).items():
            for key, value in values.items():  # a value per k: each k's
                for one in value.values() if isinstance(value, dict) else [value]:
                    seen.setdefault((method, key), set()).add(one)
    parts = [
        f"{m} {key}={min(v)}" + (f"..{max(v)}" if len(v) > 1 else "")
        for (m, key), v in sorted(seen.items())
        if all(isinstance(x, (int, float)) for x in v)
    ]
    if not parts:
        return ""
    return "Settings run (fixed by each table's size, `method_settings`): " + "; ".join(parts) + "."


def write_report(table: pd.DataFrame, ctx: ReportContext) -> str:
    n_cells = len(table)
    grid = len(DATASETS) * len(REGIMES)
    done = table.groupby(["dataset", "regime"])["seed"].nunique()  # cells that cannot run too
    cannot, cannot_text = _cannot_run(table)
    table = table[~cannot]
    long = _long(table)
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
        " ".join(t for t in (_settings_text(table), _left_out(table)) if t),
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
    k_plot = _k_plot(long, ctx)
    if k_plot:
        lines += [f"![truth AUC against k per family and regime]({k_plot})", ""]
    lines += [f"![cost against benefit]({_cost_plot(long, ctx)})", ""]
    calibration = _board_calibration(long)
    lines += [calibration] if calibration else []
    candidates = _candidates(long)
    for regime in [r for r in REGIMES if r in set(candidates["regime"])]:
        in_regime = candidates[candidates["regime"] == regime]
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
