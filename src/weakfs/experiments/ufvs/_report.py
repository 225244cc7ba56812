"""The UFVS experiment's report: per dataset and mode, the paper's quantities along the cut-offs,
a figure, and the paper's claims checked one by one."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import markdown_table
from weakfs.experiments.ufvs._protocol import (
    DATASETS,
    DISCRETE_MAX_VALUES,
    DISCRETE_MODE,
    MODES,
)
from weakfs.experiments.ufvs._summary_report import (
    NEAR,
    TABLE_FRACTIONS,
    _dataset_text,
)

__all__ = ["CLAIMS", "claim_verdicts", "write_report"]


def write_report(table: pd.DataFrame, ctx: ReportContext) -> str:
    from weakfs.plotting import plot_ufvs_path

    table = table.sort_values(["dataset", "mode", "min_count"], kind="stable")
    discrete = table[table["mode"] == DISCRETE_MODE]
    table = table[table["mode"].isin(MODES)]  # the two readings; the third has its own section
    if table.empty:
        return "\n".join(_discrete_section(discrete, table))
    order = {d: i for i, d in enumerate(DATASETS)}
    groups = sorted(table.groupby(["dataset", "mode"]), key=lambda kv: (order[kv[0][0]], kv[0][1]))
    out = [
        "Reproduction of the UFVS paper's Figures 5-10 (Shin et al.): for each dataset, UFVS is "
        "run at a range of cut-offs n (values held by at most n rows, or by at least |D| - n rows, "
        "are "
        "not candidates; the paper's x-axis), and the paper's quantities are measured: |S|, "
        "H(S) against its upper bound H(F), I(S;C) against I(F;C), NMI, and the search time.",
        "",
        "Protocol: numeric columns cut into 5 equal-width bins (as the paper); entropies in bits; "
        "C = the binary class labels (KDD: `normal.` vs every attack), never used by the "
        "selection; cut-offs at fractions "
        f"{', '.join(f'{f:g}' for f in sorted(table['fraction'].unique()))} of the rows. "
        "Mode `paper`: every value, 0 included, is a candidate (the paper's definitions read "
        "literally). Mode `zero_absent`: 0 means absent, only non-zero values are candidates and "
        "a row is covered only through its non-zero entries (the library default for sparse "
        "input, and the reading the paper's figures follow: its count form of the threshold "
        "assumes candidate values held by fewer than half of the rows, its '|S| decreases "
        "rapidly' cannot happen when 0 is a value, and its GISETTE counts (35 features, 350 "
        "values) rule out 5 bins there; see docs/ufvs.md). UFVS is "
        "deterministic, so one run per cell. 'Near' below means at least "
        f"{NEAR:.0%} of the upper bound.",
        "",
        "Deviations from the paper's setting: GISETTE and NOVA are not available here and are "
        "left out; KDD Cup 99 is its 10 % subset (494,021 rows) rather than the paper's 20 %; "
        "DOROTHEA is the 800-row training split with all-zero columns dropped (88,119 features); "
        "HIVA is the OpenML copy; MADELON, ARCENE and DEXTER are train+valid. The paper gives its "
        "results only as plots, so the comparison below is with its stated observations, not "
        "with numbers. Search times are on a shared 2-core machine.",
        "",
        "## Summary",
        "",
    ]
    summaries, sections = [], []
    for (name, mode), g in groups:
        g = g.reset_index(drop=True)
        lines, summary = _dataset_text(name, mode, g)
        summaries.append(summary)
        fig = plot_ufvs_path(g, title=f"{name} ({mode})")
        path = ctx.figure_path(f"{name}_{mode}")
        fig.savefig(path, dpi=110)
        import matplotlib.pyplot as plt

        plt.close(fig)
        n = int(g["n_rows"].iloc[0])
        pick = g[g["fraction"].isin(TABLE_FRACTIONS)]
        tab = pd.DataFrame(
            {
                "n": [f"{c} ({100 * c / n:.1f} %)" for c in pick["min_count"]],
                "candidates": pick["n_candidates"].astype(int),
                "|S|": pick["n_selected"].astype(int),
                "uncoverable": pick["n_uncoverable"].astype(int),
                "H(S)": pick["H_S"],
                "H(F)": pick["H_F"],
                "I(S;C)": pick["I_S_C"],
                "I(F;C)": pick["I_F_C"],
                "NMI(S;C)": pick["NMI_S_C"],
                "NMI(F;C)": pick["NMI_F_C"],
                "search ms": pick["search_ms"],
            }
        )
        sections += [
            f"### {name} ({mode})",
            "",
            f"{n} rows x {int(g['n_features'].iloc[0])} features, {int(g['n_values'].iloc[0])} "
            f"feature values, H(C) = {float(g['H_C'].iloc[0]):.3f} bits.",
            "",
            f"![{name} {mode}]({path.name})",
            "",
            markdown_table(tab),
            "",
            *lines,
            "",
        ]
    out += [markdown_table(pd.DataFrame(summaries)), ""]
    out += _overall(pd.DataFrame(summaries), table)
    out += ["## Per dataset", "", *sections]
    if len(discrete):
        out += _discrete_section(discrete, table)
    return "\n".join(out)


#: the measures compared between the third reading and mode ``paper``
COMPARED = ["n_values", "n_candidates", "n_selected", "H_S", "H_F", "I_S_C", "I_F_C", "NMI_S_C"]


def _discrete_section(discrete: pd.DataFrame, table: pd.DataFrame) -> list[str]:
    """Mode ``discrete`` (columns of few values kept unbinned) beside the two readings."""
    order = {d: i for i, d in enumerate(DATASETS)}
    names = sorted(set(discrete["dataset"]), key=lambda d: order.get(d, len(order)))
    out = [
        f"## A third reading: discrete columns kept as their values ({', '.join(names)})",
        "",
        "These datasets follow neither reading above.  Varied here: the encoding of columns "
        f"with few values.  Mode `{DISCRETE_MODE}`: 0 is a value as in mode `paper`, and every "
        f"numeric column with at most {DISCRETE_MAX_VALUES} distinct values keeps its values "
        f"(`keep_discrete_up_to={DISCRETE_MAX_VALUES}`) instead of being cut into 5 "
        "equal-width bins (the paper's GISETTE counts, 35 features and 350 values, suggest "
        "discrete columns taken as they are); columns of more values are still binned.",
        "",
    ]
    summaries = []
    for name in names:
        g = discrete[discrete["dataset"] == name].sort_values("min_count").reset_index(drop=True)
        n = int(g["n_rows"].iloc[0])
        lines, summary = _dataset_text(name, DISCRETE_MODE, g)
        summaries.append(summary)
        both = table[table["dataset"] == name]
        rows = []
        for f in TABLE_FRACTIONS:
            row = {"n": f"{int(np.floor(f * n))} ({100 * f:.1f} %)"}
            for mode, frame in [(DISCRETE_MODE, g), *both.groupby("mode", sort=False)]:
                hit = frame[np.isclose(frame["fraction"], f)]
                if len(hit):  # no "|" in a table cell
                    row[f"#S {mode}"] = int(hit["n_selected"].iloc[0])
                    row[f"I(S;C)/I(F;C) {mode}"] = float(
                        hit["I_S_C"].iloc[0] / max(hit["I_F_C"].iloc[0], 1e-300)
                    )
            rows.append(row)
        kept = int(g["n_unbinned_columns"].iloc[0]) if "n_unbinned_columns" in g else None
        out += [
            f"### {name}",
            "",
            f"{n} rows x {int(g['n_features'].iloc[0])} features"
            + (f", {kept} of them kept unbinned" if kept is not None else "")
            + f"; {int(g['n_values'].iloc[0])} feature values (mode `paper`: "
            + _values_of(both, "paper")
            + ").",
            "",
            markdown_table(pd.DataFrame(rows)),
            "",
            *lines,
            "",
            f"- {_against_paper_mode(name, g, both)}",
            "",
        ]
    summary = pd.DataFrame(summaries)
    verdicts = ["I(S;C)>=90% I(F;C) for n in", "H(S)>=90% H(F) for n in", "|S| to 1/10 at n"]
    none = summary.loc[(summary[verdicts] == "never").all(axis=1), "dataset"].tolist()
    out += [
        "Against the paper's claims, as in the summary above:",
        "",
        markdown_table(summary),
        "",
        (
            f"Under this third reading {', '.join(none)} still show none of the paper's curves "
            "(I(S;C) near I(F;C), H(S) near H(F), |S| falling fast): keeping discrete columns "
            "unbinned does not explain "
            + ("their" if len(none) > 1 else "its")
            + " departure from the paper."
            if none
            else "Under this third reading every dataset here shows some of the paper's curves."
        ),
        "",
    ]
    return out


def _values_of(both: pd.DataFrame, mode: str) -> str:
    part = both[both["mode"] == mode]
    return str(int(part["n_values"].iloc[0])) if len(part) else "not run"


def _against_paper_mode(name: str, g: pd.DataFrame, both: pd.DataFrame) -> str:
    """Whether keeping discrete columns changes anything against mode ``paper``, computed."""
    paper = both[both["mode"] == "paper"].sort_values("min_count").reset_index(drop=True)
    if paper.empty:
        return f"{name}: mode `paper` not run, nothing to compare."
    merged = g.merge(paper, on="fraction", suffixes=("", "_paper"))
    diff = {
        c: float(np.nanmax(np.abs(merged[c].astype(float) - merged[f"{c}_paper"].astype(float))))
        for c in COMPARED
    }
    if max(diff.values()) < 1e-9:
        return (
            f"{name}: identical to mode `paper` at all {len(merged)} cut-offs (values, "
            "candidates, |S|, H(S), H(F), I(S;C), I(F;C), NMI): its columns of at most "
            f"{DISCRETE_MAX_VALUES} values are 0/1 columns (or constant), and 5 equal-width bins "
            "of a 0/1 column are exactly its two values, so keeping them unbinned changes "
            "nothing; the binning of discrete columns is not why this dataset departs from "
            "the paper."
        )
    changed = ", ".join(f"{c} by up to {v:.3g}" for c, v in diff.items() if v >= 1e-9)
    ours = _dataset_text(name, DISCRETE_MODE, g)[1]
    literal = _dataset_text(name, "paper", paper)[1]
    verdicts = [
        "|S| to 1/10 at n",
        "I(S;C)>=90% I(F;C) for n in",
        "H(S)>=90% H(F) for n in",
    ]
    moved = [f"{c} {literal[c]} -> {ours[c]}" for c in verdicts if ours[c] != literal[c]]
    nmi = f"max NMI(S;C) {literal['max NMI(S;C)']:.4f} -> {ours['max NMI(S;C)']:.4f}"
    return (
        f"{name}: differs from mode `paper` ({changed}, over {len(merged)} cut-offs); the "
        "paper's claims: "
        + ("; ".join(moved) if moved else "the same verdicts as mode `paper`")
        + f"; {nmi}."
        + (
            "  Keeping discrete columns unbinned does not bring it to the paper's figures."
            if all(ours[c] == "never" for c in verdicts)
            else ""
        )
    )


#: the summary's columns that the claims read
I_RUN, H_RUN, TENTH = "I(S;C)>=90% I(F;C) for n in", "H(S)>=90% H(F) for n in", "|S| to 1/10 at n"


def _from_zero(run: str) -> bool:
    """A near-bound run that starts at the smallest cut-off."""
    return run != "never" and run.startswith("0.0-")


def _later(run: str) -> bool:
    """A near-bound run that starts only after the smallest cut-off."""
    return run != "never" and not run.startswith("0.0-")


def _fast(tenth: str) -> bool:
    """|S| falls to a tenth of its n = 0 size by n = 5 % of the rows."""
    return tenth != "never" and float(tenth[:-2]) <= 5.0


#: the paper's claims about its Figures 5-10, each a test of one summary row (dataset, mode)
CLAIMS = {
    f"I(S;C) >= {NEAR:.0%} of I(F;C) from the smallest cut-off": lambda r: _from_zero(r[I_RUN]),
    f"H(S) >= {NEAR:.0%} of H(F) from the smallest cut-off": lambda r: _from_zero(r[H_RUN]),
    "|S| falls to a tenth by n = 5 % of the rows": lambda r: _fast(r[TENTH]),
    "NMI(S;C) above NMI(F;C) at some cut-off": lambda r: r["max NMI(S;C)"] > r["NMI(F;C)"] + 1e-9,
    "search time <= 100 ms at every cut-off": lambda r: r["max search ms"] <= 100,
}


def claim_verdicts(table: pd.DataFrame) -> pd.DataFrame:
    """Whether each of :data:`CLAIMS` holds on each dataset and mode of the two readings
    (``paper``, ``zero_absent``), as the report's summary says: columns dataset, mode, claim,
    holds."""
    table = table.sort_values(["dataset", "mode", "min_count"], kind="stable")
    rows = []
    for (name, mode), g in table[table["mode"].isin(MODES)].groupby(["dataset", "mode"]):
        summary = _dataset_text(name, mode, g.reset_index(drop=True))[1]
        rows += [
            {"dataset": name, "mode": mode, "claim": claim, "holds": bool(test(summary))}
            for claim, test in CLAIMS.items()
        ]
    return pd.DataFrame(rows, columns=["dataset", "mode", "claim", "holds"])


def _overall(summary: pd.DataFrame, table: pd.DataFrame) -> list[str]:
    out = []
    for mode in MODES:
        part = summary[summary["mode"] == mode]
        if not len(part):
            continue

        def which(column, test, frame=part):
            names = frame.loc[frame[column].map(test), "dataset"].tolist()
            return ", ".join(names) or "none"

        fast = part[TENTH].map(_fast)
        nmi_up = part["max NMI(S;C)"] > part["NMI(F;C)"] + 1e-9
        slow = part.loc[part["max search ms"] > 100, "dataset"].tolist()
        out += [
            f"Against the paper's claims, mode `{mode}`:",
            "",
            f"- I(S;C) within {NEAR:.0%} of I(F;C) from the smallest cut-off up to a limit: "
            f"{which(I_RUN, _from_zero)}; only over a later range: {which(I_RUN, _later)}; "
            f"never: {which(I_RUN, lambda v: v == 'never')}.",
            f"- H(S) within {NEAR:.0%} of H(F) from the smallest cut-off: "
            f"{which(H_RUN, _from_zero)}; only over a later range: {which(H_RUN, _later)}; never: "
            f"{which(H_RUN, lambda v: v == 'never')}.",
            "- |S| falls to a tenth of its n = 0 size by n = 5 % of the rows: "
            f"{', '.join(part.loc[fast, 'dataset']) or 'none'}; not: "
            f"{', '.join(part.loc[~fast, 'dataset']) or 'none'}.",
            "- At n = 0, S contains a value held by >= 90 % of the rows (a near-universal value "
            "has the smallest H(v), so Algorithm 1 removes it last and it covers almost every "
            "row by itself; |S| and H(S) are then tiny): "
            f"{', '.join(part.loc[part['top share at n=0'] >= 0.9, 'dataset']) or 'none'}.",
            "- NMI(S;C) above NMI(F;C) at some cut-off (the paper: only KDD and ADA): "
            f"{', '.join(part.loc[nmi_up, 'dataset']) or 'none'}.",
            "- Search time <= 100 ms at every cut-off (the paper's claim): "
            + (f"exceeded on {', '.join(slow)}" if slow else "yes on every dataset")
            + f" (largest {table.loc[table['mode'] == mode, 'search_ms'].max():.1f} ms).",
            "",
        ]
    return out
