"""The SEW-IL report's section on where the selected subset loses: self-learning on every
feature (``sla-all``) against SEW-IL's subset, its arms and the top-m features by the final
population's votes, on the same splits.  Reads finished cells only."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from weakfs.experiments._report import markdown_table, mean_sd, paper_verdict
from weakfs.experiments.sewil._paper import PAPER_T34
from weakfs.experiments.sewil._protocol import (
    ARM_METHODS,
    ORACLE_METHOD,
    SLA_ALL_METHOD,
    SPLITS,
    TOP_M_RULES,
    VOTES_METHOD,
)

__all__ = [
    "oracle_rows",
    "size_rows",
    "subset_rows",
    "subset_section",
    "subset_summary",
    "top_m_frame",
]

#: the top-m rows of the fsga-votes cells, as methods of their own
TOP_M_METHODS = {rule: f"fsga-top-{rule}" for rule in TOP_M_RULES}
TOP_M_MEANING = {
    "own": "FSGA's own count",
    "paper": "the count the paper reports for SEW-IL",
    "d23": "ceil(d^(2/3))",
}


def top_m_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The ``fsga-votes`` cells as one row per (cell, top-m rule): method ``fsga-top-<rule>``,
    with ``acc_u``, ``acc_t`` and ``n_features`` of self-learning on those features."""
    cells = table[table["method"] == VOTES_METHOD]
    frames = []
    for rule, method in TOP_M_METHODS.items():
        names = {f"top_{rule}_acc_u": "acc_u", f"top_{rule}_m": "n_features"}
        if cells.empty or not set(names) <= set(cells):
            continue
        names[f"top_{rule}_acc_t"] = "acc_t"
        cols = [c for c in names if c in cells]
        part = cells[["dataset", "seed", *cols]].dropna(subset=[cols[0]]).rename(columns=names)
        frames.append(part.assign(method=method))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _variants(table: pd.DataFrame) -> pd.DataFrame:
    """Every subset compared with self-learning on all features: SEW-IL's (``fsga``), the
    arms' and the top-m rows."""
    shown = ["fsga", *ARM_METHODS, "fsga_lenmut"]
    own = table.loc[
        table["method"].isin(shown), ["dataset", "seed", "method", "acc_u", "n_features"]
    ]
    return pd.concat([own, top_m_frame(table)], ignore_index=True)


def subset_rows(table: pd.DataFrame) -> pd.DataFrame:
    """One row per dataset x subset: ACC-U (mean ± sd) on the splits it shares with
    ``sla-all``, d', ``sla-all``'s ACC-U on those splits, the mean paired difference and on
    how many of the splits the subset is at least as accurate."""
    every = table[table["method"] == SLA_ALL_METHOD].set_index(["dataset", "seed"])["acc_u"]
    variants = _variants(table)
    order = ["fsga", *ARM_METHODS, "fsga_lenmut", *TOP_M_METHODS.values()]
    rows = []
    for ds in [d for d in SPLITS if d in set(every.index.get_level_values(0))]:
        for method in order:
            cells = variants[(variants["dataset"] == ds) & (variants["method"] == method)]
            cells = cells.set_index(["dataset", "seed"])
            shared = cells.index.intersection(every.index)
            if len(shared) == 0:
                continue
            mine = cells.loc[shared, "acc_u"].to_numpy(dtype=float)
            base = every.loc[shared].to_numpy(dtype=float)
            rows.append(
                {
                    "dataset": ds,
                    "subset": "SEW-IL (fsga)" if method == "fsga" else method,
                    "splits": len(shared),
                    "ACC-U": mean_sd(mine, digits=3),
                    "d'": round(float(cells.loc[shared, "n_features"].mean()), 1),
                    "sla-all ACC-U": mean_sd(base, digits=3),
                    "Δ vs sla-all": round(float(np.mean(mine - base)), 3),
                    "splits ≥ sla-all": f"{int(np.sum(mine >= base - 1e-12))} of {len(shared)}",
                    "_method": method,
                    "_at_least": bool(np.mean(mine) >= np.mean(base) - 1e-12),
                }
            )
    return pd.DataFrame(rows)


def subset_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per subset: datasets compared, datasets where its mean ACC-U is at least ``sla-all``'s
    on the same splits, and the mean of the per-dataset differences."""
    if rows.empty:
        return pd.DataFrame()
    out = []
    for _, r in rows.groupby("_method", sort=False):
        out.append(
            {
                "subset": r["subset"].iloc[0],
                "datasets": len(r),
                "≥ sla-all": int(r["_at_least"].sum()),
                "mean Δ": round(float(r["Δ vs sla-all"].mean()), 3),
            }
        )
    return pd.DataFrame(out)


def size_rows(table: pd.DataFrame) -> pd.DataFrame:
    """Does the subset lose for its size?  Per dataset with at least 10 FSGA subsets (SEW-IL's
    and the arms', one per split, top-m rows excluded: their size is set, not searched) on
    splits ``sla-all`` ran: Spearman's correlation between d' and the split's ACC-U difference
    to ``sla-all``, and the mean difference in the smallest and the largest third of d'."""
    every = table[table["method"] == SLA_ALL_METHOD].set_index(["dataset", "seed"])["acc_u"]
    # the oracle's subsets are searched with the truth: a diagnostic, not one of the wrapper's
    searched = ["fsga", *[a for a in ARM_METHODS if a != ORACLE_METHOD], "fsga_lenmut"]
    own = table[table["method"].isin(searched)].set_index(["dataset", "seed"])
    own = own[own.index.isin(every.index)]
    rows = []
    for ds in [d for d in SPLITS if d in set(own.index.get_level_values(0))]:
        cells = own.loc[[ds]]
        if len(cells) < 10:
            continue
        size = cells["n_features"].to_numpy(dtype=float)
        delta = cells["acc_u"].to_numpy(dtype=float) - every.loc[cells.index].to_numpy(float)
        order = np.argsort(size, kind="stable")
        third = len(order) // 3
        rho, p = spearmanr(size, delta)
        rows.append(
            {
                "dataset": ds,
                "subsets": len(cells),
                "d' range": f"{int(size.min())}–{int(size.max())}",
                "Spearman (d', Δ)": round(float(rho), 2),
                "p": float(f"{p:.2g}"),
                "mean Δ, smallest third": round(float(delta[order[:third]].mean()), 3),
                "mean Δ, largest third": round(float(delta[order[-third:]].mean()), 3),
            }
        )
    return pd.DataFrame(rows)


def oracle_rows(table: pd.DataFrame) -> pd.DataFrame:
    """Per dataset, on the splits ``fsga-oracle``, ``fsga`` and ``sla-all`` all ran: ACC-U and
    ACC-T of each (mean ± sd), the oracle's d', and the oracle's mean ACC-T difference to
    ``sla-all`` (ACC-T, on test rows no criterion saw, is the fair score here: the oracle's
    criterion read the unlabeled rows' true labels, which ACC-U scores)."""
    keyed = {
        m: table[table["method"] == m].set_index(["dataset", "seed"])
        for m in (ORACLE_METHOD, "fsga", SLA_ALL_METHOD)
    }
    shared = keyed[ORACLE_METHOD].index
    for m in ("fsga", SLA_ALL_METHOD):
        shared = shared.intersection(keyed[m].index)
    rows = []
    for ds in [d for d in SPLITS if d in set(shared.get_level_values(0))]:
        keys = shared[shared.get_level_values(0) == ds]
        row: dict = {"dataset": ds, "splits": len(keys)}
        for m, name in ((ORACLE_METHOD, "oracle"), ("fsga", "SEW-IL"), (SLA_ALL_METHOD, "sla-all")):
            cells = keyed[m].loc[keys]
            for score, col in (("ACC-U", "acc_u"), ("ACC-T", "acc_t")):
                row[f"{name} {score}"] = mean_sd(cells[col], digits=3)
            if m == ORACLE_METHOD:
                row["oracle d'"] = round(float(cells["n_features"].mean()), 1)
        oracle_t = keyed[ORACLE_METHOD].loc[keys, "acc_t"].to_numpy(dtype=float)
        every_t = keyed[SLA_ALL_METHOD].loc[keys, "acc_t"].to_numpy(dtype=float)
        sewil_t = keyed["fsga"].loc[keys, "acc_t"].to_numpy(dtype=float)
        row["oracle Δ ACC-T vs sla-all"] = round(float(np.mean(oracle_t - every_t)), 3)
        row["oracle Δ ACC-T vs SEW-IL"] = round(float(np.mean(oracle_t - sewil_t)), 3)
        paper = PAPER_T34["fsga"].get(ds, ("NA",))[0]
        row["paper SEW-IL ACC-U"] = paper
        row["oracle ACC-U vs paper"] = paper_verdict(keyed[ORACLE_METHOD].loc[keys, "acc_u"], paper)
        row["SEW-IL ACC-U vs paper"] = paper_verdict(keyed["fsga"].loc[keys, "acc_u"], paper)
        rows.append(row)
    return pd.DataFrame(rows)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def oracle_conclusion(rows: pd.DataFrame) -> str:
    """One sentence from :func:`oracle_rows`: on how many datasets the truth-guided search
    reaches ``sla-all``'s ACC-T, and what that locates."""
    if rows.empty:
        return ""
    reach = int((rows["oracle Δ ACC-T vs sla-all"] >= 0).sum())
    n = len(rows)
    if reach * 2 > n:
        where = (
            "subsets at least as good as all features exist within FSGA's reach, and a "
            "criterion that ranks them as the truth does finds them: the gap lies in the "
            "criterion's ranking of subsets, not in the search"
        )
    else:
        where = (
            "even a criterion that ranks subsets by the truth does not lead FSGA to a subset "
            "as good as all features: the gap lies in the search and the subsets it can reach "
            "(their size and the pseudo-labels the subsets' forests learn from), not in the "
            "criterion"
        )
    below = rows.loc[rows["oracle ACC-U vs paper"] == "below", "dataset"].tolist()
    reaches = {
        who: int(rows[f"{who} ACC-U vs paper"].isin(("within", "above")).sum())
        for who in ("oracle", "SEW-IL")
    }
    paper = (
        f" Against the paper: the oracle's ACC-U reaches the paper's SEW-IL (within its sd or "
        f"above) on {reaches['oracle']} of {n} datasets, our SEW-IL's on the same splits on "
        f"{reaches['SEW-IL']}"
    )
    if reaches["oracle"] > reaches["SEW-IL"]:
        ahead = int((rows["oracle Δ ACC-T vs SEW-IL"] > 0).sum())
        paper += (
            ": the paper's numbers lie within what this search reaches when its criterion "
            "ranks subsets as the truth does. That ACC-U is optimistic (the oracle read the "
            f"labels it scores); on the test rows, which it did not read, the oracle is ahead "
            f"of our SEW-IL on {ahead} of {n} datasets, so part of that reach is the reading "
            "of the scored labels and part a better ranking of subsets than CBIL's"
        )
    if below:
        paper += (
            f"; on {_and(below)} even the oracle stays below the paper's number: there no "
            "criterion brings this search, with these pseudo-labels and this self-learning, to it"
        )
    paper += "."
    return (
        f"With the truth as its criterion, FSGA's subset reaches `sla-all`'s ACC-T on {reach} "
        f"of {n} datasets: {where}.{paper}"
    )


def _sla_all_vs_paper(table: pd.DataFrame) -> pd.DataFrame:
    """``sla-all`` per dataset against the paper's SEW-IL (its ACC-U and ACC-T) and SEW-IL's
    own cells on the same splits."""
    every = table[table["method"] == SLA_ALL_METHOD]
    fsga = table[table["method"] == "fsga"].set_index(["dataset", "seed"])["acc_u"]
    rows = []
    for ds in [d for d in SPLITS if d in set(every["dataset"])]:
        cells = every[every["dataset"] == ds]
        paper = PAPER_T34["fsga"].get(ds, ("NA", "NA", "NA"))
        keys = pd.MultiIndex.from_arrays([cells["dataset"], cells["seed"]])
        shared = keys.intersection(fsga.index)
        rows.append(
            {
                "dataset": ds,
                "splits": len(cells),
                "sla-all ACC-U": mean_sd(cells["acc_u"], digits=3),
                "sla-all ACC-T": mean_sd(cells["acc_t"], digits=3),
                "paper SEW-IL ACC-U": paper[0],
                "sla-all vs paper SEW-IL": paper_verdict(cells["acc_u"], paper[0]),
                "our SEW-IL, same splits": (
                    mean_sd(fsga.loc[shared], digits=3) if len(shared) else "–"
                ),
            }
        )
    return pd.DataFrame(rows)


def subset_section(table: pd.DataFrame) -> str:
    """The markdown section on the selected subset ("" without ``sla-all`` cells)."""
    if "method" not in table or SLA_ALL_METHOD not in set(table["method"]):
        return ""
    paper = _sla_all_vs_paper(table)
    rows = subset_rows(table)
    summary = subset_summary(rows)
    reach = paper["sla-all vs paper SEW-IL"].isin(("within", "above"))
    parts = [
        "### Where the selected subset loses: self-learning on all features\n\n"
        "`sla-all`: no selection; the same splits, self-learning (200 trees) and scoring as every "
        "selector. It says whether selecting helps at all: the paper's SEW-IL is compared with "
        f"it below. `sla-all` reaches the paper's SEW-IL ACC-U (within its sd or above) on "
        f"{int(reach.sum())} of {len(paper)} datasets.\n\n" + markdown_table(paper) + "\n"
    ]
    if not rows.empty:
        meaning = "; ".join(f"`{TOP_M_METHODS[r]}`: m = {TOP_M_MEANING[r]}" for r in TOP_M_METHODS)
        parts.append(
            "Every subset against `sla-all` on the splits both ran: SEW-IL's own, the FSGA arms' "
            "(see the arms section) and the top-m features by the final population's votes "
            f"(cells `{VOTES_METHOD}`: SEW-IL's FSGA as in the `fsga` cells, its votes recorded; "
            f"{meaning}; the features FSGA removed as irrelevant excluded, ties by column "
            "order).\n\n"
            + markdown_table(rows.drop(columns=["_method", "_at_least"]))
            + "\n\n"
            + markdown_table(summary)
            + "\n"
        )
    sizes = size_rows(table)
    if not sizes.empty:
        parts.append(
            "Does the subset lose for its size? Every searched subset (SEW-IL's and the arms', "
            "one per split) against `sla-all` on its split: Spearman's correlation between its "
            "size d' and its ACC-U difference Δ, and the mean Δ among the smallest and the "
            "largest third of the subsets by d' (ties by order of the cells). A positive "
            "correlation with Δ still negative in the largest third says that larger subsets "
            "lose less but that size alone does not close the gap.\n\n"
            + markdown_table(sizes)
            + "\n"
        )
    oracle = oracle_rows(table)
    if not oracle.empty:
        parts.append(
            f"Is it the criterion or the search? `{ORACLE_METHOD}` is FSGA as in the `fsga` "
            "cells with its criterion replaced by the out-of-bag error against the *true* labels "
            "of every training row (the unlabeled rows' hidden labels included): a diagnostic, "
            "not a method, the best ranking of subsets one forest fit on the pseudo-labels can "
            "give the search. Its ACC-U is optimistic (its criterion read the labels ACC-U "
            "scores); ACC-T, on the test rows, is not.\n\n"
            + markdown_table(oracle)
            + "\n\n"
            + oracle_conclusion(oracle)
            + "\n"
        )
    return "\n".join(parts)
