"""The benchmark report's figures: truth AUC against k per family and regime, and cost against
benefit."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments._registry import ReportContext
from weakfs.experiments.benchmark._protocol import (
    ALL_FEATURES,
    FAMILIES,
    FIXED_KS,
    REFERENCES,
    REGIMES,
)

__all__ = ["cost_plot", "k_plot"]


def k_plot(long: pd.DataFrame, ctx: ReportContext) -> str | None:
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


def cost_plot(long: pd.DataFrame, ctx: ReportContext) -> str:
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
