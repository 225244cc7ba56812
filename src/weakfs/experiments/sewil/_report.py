"""The SEW-IL experiment's report: Tables 2, 3 and 4 beside the paper, where SEW-IL trails it,
the search history and the cost."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import mannwhitneyu

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import (
    markdown_table,
    mean_sd,
    paper_verdict,
    verdict_lines,
)
from weakfs.experiments.sewil._arms_report import arms_section, tb_printed_section
from weakfs.experiments.sewil._paper import PAPER_T2, PAPER_T34
from weakfs.experiments.sewil._protocol import (
    CRITERIA_ORDER,
    EXTRA_METHODS,
    SLA_ALL_METHOD,
    SPLITS,
    T3_METHODS,
    T4_METHODS,
)
from weakfs.experiments.sewil._subset_report import subset_section

__all__ = ["write_report"]

MISSING = {"Gisette": "GISETTE is not staged (no copy under the size limit)"}
EXTRA_LABELS = {
    "fsga_lenmut": "FSGA + length mutation",
    "fsga_best": "FSGA, best candidate",
    SLA_ALL_METHOD: "SLA, all features",
}
# what is known to make a dataset differ from the paper (data, not method)
VERDICT_REASONS = {
    "Fashion": "Known difference: only 1,000 Fashion-MNIST rows are staged (split 99 / 801 / 100).",
    "MNIST": "Known difference: rows from the official test set, not the training set.",
}


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
        "final self-learning and the scoring (every method's subset is scored by the same "
        "self-learning classifier) do not explain the gap: it lies "
        "in the wrapper (FSGA + CBIL) or in the paper's runs. The cause is not identified. The "
        f"number of features SEW-IL keeps differs from the paper's ({', '.join(sizes)}; ours "
        f"(paper's)), {_size_and_accuracy(rho, p)} (Spearman {rho:.2f} between the two, "
        f"ranked per dataset, p = {p:.2f}, {len(fsga)} splits).\n"
        + _best_candidate_check(table, below)
    )


def _size_and_accuracy(rho: float, p: float) -> str:
    """How the number of kept features goes with ACC-U within a dataset, worded from the test:
    no association unless p < 0.05, and "weakly" while |rho| < 0.3."""
    if not p < 0.05:
        return "but within a dataset it does not go with ACC-U"
    strength = "weakly " if abs(rho) < 0.3 else ""
    larger = "larger" if rho > 0 else "smaller"
    return f"and within a dataset it goes {strength}with ACC-U, {larger} subsets scoring higher"


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
        every = table[(table["method"] == SLA_ALL_METHOD) & (table["dataset"] == ds)]
        if (table["method"] == SLA_ALL_METHOD).any():  # no selection, on the same splits
            same = every[every["seed"].isin(set(s["seed"]))]["acc_u"].dropna()
            row["all features (sla-all)"] = _ms(same) if len(same) else "not run"
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
        f"\nTB is above the paper on {', '.join(tb_above)}. Our transductive bound sums the I "
        "and M terms over the rows predicted k only, as it sums K (docs/sewil.md, Deviations); "
        "the bound as printed counts every row of class i. Where the cells "
        "`criteria-tb-printed` were run, the section 'Table 2 with the transductive bound as "
        "printed' below compares the two on the same subsets.\n"
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
    # a run of criteria cells alone has no selector columns: Tables 3 and 4 then say "not run"
    missing = [c for c in ("acc_u", "acc_t", "n_features") if c not in table]
    table = table.assign(**dict.fromkeys(missing, np.nan))
    runs = table.groupby(["dataset", "method"]).size().reset_index(name="splits")
    # self-learning on every feature joins Tables 3 and 4 (and 2) where it was run
    every = [SLA_ALL_METHOD] if SLA_ALL_METHOD in set(table["method"]) else []
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
            T4_METHODS + every,
            {
                "sewil": "SEW-IL",
                "rlsr": "RLSR",
                "sfs": "SFS",
                "ssls": "SSLS",
                "cotfss": "CoT-FSS",
                **EXTRA_LABELS,
            },
        )
        + _sewil_gap(table),
        "### Table 3 — search strategies of the wrapper (criterion CBIL)\n\n"
        + _table34(
            table,
            T3_METHODS + [m for m in EXTRA_METHODS if m in set(table["method"])] + every,
            {"fss": "FSS", "cga": "CGA", "fsga": "FSGA", **EXTRA_LABELS},
        ),
        "### Table 2 — selection criteria at the FSGA initialisation (ACC-U)\n\n" + _table2(table),
    ]
    sections = (subset_section(table), arms_section(table), tb_printed_section(table))
    parts += [part for part in sections if part]
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
