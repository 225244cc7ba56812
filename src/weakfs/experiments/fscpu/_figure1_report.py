"""The FSCPU Figure-1 report: theta over the iterations, one panel per condition."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments._registry import ReportContext

__all__ = ["write_report_f1"]


def _condition_text(condition: str) -> str:
    """``ca-40-8-2`` -> "40 % labeled, 8 negative / 2 positive clusters"."""
    parts = condition.split("-")
    if parts[0] == "noca":
        return f"no cluster assumption, {parts[1]} % labeled"
    return f"{parts[1]} % labeled, {parts[2]} negative / {parts[3]} positive clusters"


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
