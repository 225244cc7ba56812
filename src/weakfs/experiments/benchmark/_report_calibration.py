"""The benchmark report's calibration of the board: whether the truly best candidate is in the
top group, the recommendation's regret, and the regret of other rules the board could follow."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments._report import markdown_table
from weakfs.experiments.benchmark._protocol import ALL_FEATURES, RANDOM
from weakfs.experiments.benchmark._report_cells import candidates

__all__ = ["FAR_BELOW", "board_calibration"]


#: truth AUC below the best candidate that counts as a miss (what the board's users are promised:
#: a recommendation within 0.03 of the best, or a board that says it cannot tell)
FAR_BELOW = 0.03


def board_calibration(long: pd.DataFrame) -> str:
    """How well the board's flags hold against the truth, per regime: the share of labeled
    cells whose truly best candidate (highest truth AUC among the board's candidates) is in the
    top group, the recommendation's mean regret (truth AUC below that best), and the mean regret
    of every fixed choice (always one selector, or always all features), over the cells where
    that choice ran."""
    if "recommended" not in long or long["recommended"].isna().all():
        return ""
    rows = []
    alternatives: dict[tuple[str, str], list[float]] = {}
    labeled = candidates(long[long["regime"] != "none"])
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
