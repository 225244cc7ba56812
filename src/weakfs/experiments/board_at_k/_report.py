"""The board-at-k report: per label regime and k, the recommendation's regret against the
weak-score argmax and every fixed selector; per family, which selectors are in the top group at
each size; the guide the package ships."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import markdown_table
from weakfs.experiments._report_files import write_if_changed
from weakfs.experiments._report_statistics import friedman_nemenyi

__all__ = ["FAMILY_ORDER", "misses", "regret_table", "size_table", "write_report"]

FAMILY_ORDER = ["tabular", "synthetic", "genes", "text", "images"]
#: the guide's file, beside the report and in the package (``weakfs.compare``)
GUIDE_FILE = "size_guide.json"
#: a recommendation this close to the best selection of its size counts as a hit
NEAR = 0.01


def _per_cell(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (cell, k): the best truth, the recommendation's and the weak argmax's."""
    groups = table.groupby(["dataset", "regime", "seed", "k"])
    best = groups["truth_auc"].max()
    rec = table[table["recommended_at_k"]].set_index(["dataset", "regime", "seed", "k"])
    weak = table.loc[groups["raw_score"].idxmax()].set_index(["dataset", "regime", "seed", "k"])
    return pd.DataFrame(
        {
            "best": best,
            "rule": best - rec["truth_auc"].reindex(best.index),
            "weak": best - weak["truth_auc"].reindex(best.index),
            "tied": groups["tied_at_k"].sum(),
            "rows": groups.size(),
        }
    ).reset_index()


def regret_table(table: pd.DataFrame) -> pd.DataFrame:
    """Per regime and k: the recommendation's mean regret beside the weak argmax's and every
    fixed selector's (each over the cells where it ran, the recommendation's on the same cells
    in parentheses), and whether it is below every one."""
    cells = _per_cell(table)
    best = table.groupby(["dataset", "regime", "seed", "k"])["truth_auc"].transform("max")
    table = table.assign(regret=best - table["truth_auc"])
    out = []
    for (regime, k), group in cells.groupby(["regime", "k"]):
        rows = table[(table["regime"] == regime) & (table["k"] == k)]
        row = {
            "regime": regime,
            "k": k,
            "cells": len(group),
            "recommendation": group["rule"].mean(),
            "within 0.01 of the best": f"{(group['rule'] <= NEAR).mean():.0%}",
            "weak-score argmax": group["weak"].mean(),
        }
        below_all = True
        for method, own in rows.groupby("method"):
            keys = own.set_index(["dataset", "seed"]).index
            same = group.set_index(["dataset", "seed"]).loc[keys, "rule"].mean()
            row[method] = f"{own['regret'].mean():.4f} ({same:.4f})"
            below_all &= bool(same < own["regret"].mean())
        row["below every fixed selector"] = "yes" if below_all else "no"
        out.append(row)
    frame = pd.DataFrame(out)
    first = ["regime", "k", "cells", "recommendation", "within 0.01 of the best"]
    first += ["weak-score argmax", "below every fixed selector"]
    return frame[first + [c for c in frame.columns if c not in first]]


def misses(table: pd.DataFrame) -> list[str]:
    """Where the recommendation's mean regret is not below a fixed selector's on the same
    cells: the pair, the selector and by how much."""
    regrets = regret_table(table)
    out = []
    for row in regrets.to_dict("records"):
        for method, value in row.items():
            if not isinstance(value, str) or " (" not in value:
                continue
            own, same = (float(v) for v in value.rstrip(")").split(" ("))
            if same >= own:
                out.append(
                    f"{row['regime']} k = {row['k']}: {method} {own:.4f} against "
                    f"{same:.4f} (+{same - own:.4f})"
                )
    return out


def size_table(table: pd.DataFrame) -> pd.DataFrame:
    """Per family, regime and k: the selectors in the top group across the family's datasets
    (Friedman's test, then every selector within Nemenyi's critical difference of the best mean
    rank; all of them when Friedman's p is above 0.05), each with its mean truth AUC."""
    out = []
    means = table.groupby(["family", "regime", "k", "dataset", "method"])["truth_auc"].mean()
    for (family, regime, k), group in means.groupby(level=["family", "regime", "k"]):
        wide = group.unstack("method").droplevel(["family", "regime", "k"]).dropna(axis=1)
        n_data, n_methods = wide.shape
        if n_data < 2 or n_methods < 3:
            continue
        ranks = wide.rank(axis=1, ascending=False).mean()
        _, p, cd = friedman_nemenyi(wide)
        top = ranks[ranks <= ranks.min() + cd] if p <= 0.05 else ranks
        top = top.sort_values()
        auc = wide.mean()
        out.append(
            {
                "family": family,
                "regime": regime,
                "k": k,
                "datasets": n_data,
                "Friedman p": p,
                "top group (mean truth AUC)": ", ".join(f"{m} ({auc[m]:.3f})" for m in top.index),
                "best mean truth AUC": f"{auc.idxmax()} ({auc.max():.3f})",
            }
        )
    frame = pd.DataFrame(out)
    frame["family"] = pd.Categorical(frame["family"], FAMILY_ORDER, ordered=True)
    return frame.sort_values(["family", "regime", "k"]).reset_index(drop=True)


def _guide_path(ctx: ReportContext) -> list[Path]:
    """Where the guide is written: beside the report, and into the package when the report is
    the committed one (``results/``), so that one command regenerates both."""
    paths = [Path(ctx.out_dir) / GUIDE_FILE]
    package = Path(__file__).resolve().parents[2]
    if Path(ctx.out_dir).resolve() == package.parents[1] / "results":  # a checkout's results/
        paths.append(package / "compare" / GUIDE_FILE)
    return paths


def write_report(table: pd.DataFrame, ctx: ReportContext) -> str:
    guide_text = table.attrs["size_guide"]
    for path in _guide_path(ctx):
        write_if_changed(path, guide_text + "\n")
    guide = json.loads(guide_text)
    per_cell = _per_cell(table)
    regrets = regret_table(table)
    hits = (per_cell["rule"] <= NEAR).mean()
    pairs = (regrets["below every fixed selector"] == "yes").sum()
    sizes = ", ".join(map(str, sorted(table["k"].unique())))
    n0s = ", ".join(str(int(v)) for v in sorted(table["n0"].unique()))
    lines = [
        "At a size the user names (`weakfs compare -k 20`, `compare_selectors(X, y, k=20)`), "
        "the board recommends the selection of that size with the highest *posterior*: its weak "
        "score relative to the other selections of that size, weighted by n / (n + n0) with n "
        "the labeled rows, plus the rest of the weight on the benchmark's mean gain of that "
        "selector at that size, label kind and table width (`weakfs.compare.SizeGuide`). "
        f"Here every labeled cell of the benchmark at k = {sizes} is judged with a guide "
        "fitted **without its dataset** (allaml and leukemia, the same patients, held out "
        "together, as orl and orlraws10p; n0 chosen by an inner leave-one-out on the other "
        f"datasets: {n0s}). *tied_at_k*: the "
        "rows whose posterior lies within the weak scores' noise at that labeled count of the "
        "recommended one (an approximation from the labeled count: the cells keep no fold "
        "scores). Regret: the best truth AUC among the selections of that size (logistic "
        "regression judge) minus the recommendation's.",
        "",
        f"Over the {len(per_cell)} (cell, k) pairs the recommendation is within {NEAR} of the "
        f"best selection of its size in {hits:.0%} (target 70 %); its mean regret is below "
        f"that of every fixed selector in {pairs} of the {len(regrets)} (regime, k) pairs "
        "(target: all). Each fixed selector's column gives its mean regret over the cells where "
        "it ran and, in parentheses, the recommendation's over the same cells. Where a fixed "
        "selector does better (its regret, the recommendation's, and by how much): "
        + "; ".join(misses(table))
        + ".",
        "",
        markdown_table(regrets),
        "",
        "## Which selector at which size, per family",
        "",
        "Per family and label regime, at k = 10, 20, 50: the selectors in the top group across "
        "the family's datasets (mean truth AUC over each dataset's repetitions; Friedman's test "
        "over the selectors run on every dataset of the family at that k, then those within "
        "Nemenyi's critical difference at 0.05 of the best mean rank; every selector when "
        "Friedman's p exceeds 0.05: the datasets cannot tell them apart), first by mean rank.",
        "",
        markdown_table(size_table(table)),
        "",
        "## The guide the package ships",
        "",
        f"Fitted on every dataset: n0 = {guide['n0']:g}, scale "
        + ", ".join(f"{k} {v:.4g}" for k, v in sorted(guide["scale"].items()))
        + f", from {sum(g['cells'] for g in guide['gains'])} (cell, k, selection) rows; written to "
        f"`{GUIDE_FILE}` here and into the package (`weakfs/compare/{GUIDE_FILE}`).",
    ]
    return "\n".join(lines)
