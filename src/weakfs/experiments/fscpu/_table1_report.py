"""The FSCPU Table-1 report: FSR beside the paper, verdicts, the FSCPU-MI and sSelect notes."""

from __future__ import annotations

import pandas as pd

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import (
    TIE_TOLERANCE,
    markdown_table,
    mean_sd,
    ours_paper_grid,
    paper_mean,
    paper_verdict,
    verdict_lines,
)
from weakfs.experiments.fscpu._paper import PAPER_T1
from weakfs.experiments.fscpu._protocol import (
    CONDITIONS,
    FSCPU_METHODS,
    FSCPU_OPTION_METHODS,
    METHODS_T1,
    MRMR_RAW,
)
from weakfs.experiments.fscpu._report import LABEL, protocol_line, timing_table

__all__ = ["write_report_t1"]

SSELECT_T1_NOTE = (
    "sSelect on this generator: its Laplacian score prefers the irrelevant columns (uniform "
    "noise, whose min-max-scaled spread dominates the k-NN graph of all 50 columns: mean score "
    "0.39 against 0.67 for the relevant ones on ca-10-8-1, seed 0), and with 50 labeled rows "
    "the label-consistency term (mean NMI 0.006) is too weak to counter it, so at 10 % labeled "
    "it keeps the 25 irrelevant columns.  The paper's sSelect is also below chance (FSR "
    ".34-.45); where our reading of the method differs from its code is unknown "
    "(docs/fscpu_baselines.md)."
)


def _paper_t1(method: str, condition: str) -> str:
    """The paper's Table-1 value ``"mean±sd"`` of one method and condition."""
    names = CONDITIONS
    return PAPER_T1[method].split()[names.index(condition)]


def _fsr(table: pd.DataFrame, method: str, condition: str) -> pd.Series:
    """Our FSR over the runs of one method and condition."""
    return table.loc[(table["method"] == method) & (table["condition"] == condition), "fsr"]


def write_report_t1(table: pd.DataFrame, ctx: ReportContext) -> str:
    names = CONDITIONS
    conds = [c for c in names if c in set(table["condition"])]
    lines = [
        "Artificial data of the paper's §5.2.1 (`weakfs.datasets.make_fscpu_synthetic`), min-max",
        "scaled, 25 of 50 features selected, FSR = selected relevant / 25.  Each cell: ours",
        "(mean ± sd over the runs, their number in brackets) / paper (5 runs).  Conditions",
        "`ca-RATE-NEG-POS` (cluster assumption,",
        "labeled rate %, negative and positive clusters) and `noca-RATE` (positives = outliers).",
        "",
    ]
    grid = ours_paper_grid(
        table,
        ("method", METHODS_T1),
        ("condition", names),
        "fsr",
        _paper_t1,
        LABEL,
        digits=2,
        runs=True,
    )
    lines.append(markdown_table(grid))
    entries = [(c, LABEL[m], _fsr(table, m, c), _paper_t1(m, c)) for c in conds for m in METHODS_T1]
    lines += ["", verdict_lines(entries, digits=2)]
    note = _fscpu_mi_note(table)
    if note:
        lines += ["", note]
    if "sselect" in set(table["method"]):
        lines += ["", SSELECT_T1_NOTE]
    raw = _mrmr_raw_section(table)
    if raw:
        lines += ["", raw]
    options = _options_section(table, names)
    if options:
        lines += ["", options]
    lines += ["", timing_table(table), "", protocol_line(table)]
    return "\n".join(lines)


def _fscpu_mi_note(table: pd.DataFrame) -> str:
    """FSCPU-MI beside its two parts (FSCPU, semi-JMI), ours and the paper's; only for FSCPU
    cells at the paper's settings, since its reasons are about those runs."""
    names = CONDITIONS
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


#: the FSR of 25 columns drawn at random among 50 of which 25 are relevant
CHANCE_FSR = 0.5


def _mrmr_raw_section(table: pd.DataFrame) -> str:
    """mRMR on 5 equal-width bins (ours) beside mRMR on the raw values (``mrmr-raw``: every
    distinct value its own category, as the paper's pymrmr reads floats) and the paper's."""
    raw = table[table["method"] == MRMR_RAW]
    conds = [c for c in CONDITIONS if c in set(raw["condition"])]
    if not conds:
        return ""
    rows, verdicts, closer = [], {}, []
    for c in conds:
        binned, ours, paper = _fsr(table, "mrmr", c), _fsr(table, MRMR_RAW, c), _paper_t1("mrmr", c)
        verdicts[c] = paper_verdict(ours, paper)
        if len(binned) and abs(ours.mean() - paper_mean(paper)) < abs(
            binned.mean() - paper_mean(paper)
        ):
            closer.append(c)
        rows.append(
            {
                "condition": c,
                "mRMR, 5 bins (ours)": mean_sd(binned, digits=2),
                "mRMR, raw values (ours)": mean_sd(ours, digits=2),
                "paper (pymrmr)": paper,
                "raw against the paper": verdicts[c],
            }
        )
    printed = [paper_mean(v) for v in PAPER_T1["mrmr"].split()]
    values = raw.loc[raw["condition"].isin(conds), "fsr"]
    near_chance = abs(values.mean() - CHANCE_FSR) <= values.std(ddof=1) + TIE_TOLERANCE
    within = [c for c in conds if verdicts[c] == "within"]
    text = (
        f"Raw values bring our mRMR within the paper's sd on {len(within)} of {len(conds)} "
        f"conditions run ({', '.join(within) or 'none'}); "
        f"they move it closer to the paper than 5 bins on {len(closer)} of {len(conds)}.  "
        f"Over the {len(values)} raw runs its FSR is {values.mean():.2f} ± "
        f"{values.std(ddof=1):.2f}, "
        + (
            f"at the {CHANCE_FSR:.2f} of 25 columns drawn at random (within its sd)"
            if near_chance
            else f"not at the {CHANCE_FSR:.2f} of 25 columns drawn at random"
        )
        + f", against the paper's {min(printed):.2f}-{max(printed):.2f} over its ten "
        "conditions.  The columns are min-max-scaled floats, all values distinct, so with raw "
        "values every column's relevance is H(s) and every redundancy log n: the MIQ quotient "
        "is the same for all columns and floating-point ties decide.  So how pymrmr treats "
        "floats does not explain the paper's mRMR."
        if not within
        else ""
    )
    return "\n".join(
        [
            "### mRMR on the raw values (beyond the paper)",
            "",
            "The paper ran mRMR with pymrmr (MIQ, defaults), which takes every distinct value "
            "as a category; ours above (`mrmr`) cuts each column into 5 equal-width bins.  "
            f"`{MRMR_RAW}` is `MRMRSelector(n_bins=None)`: every distinct value its own "
            "category.  FSR, mean ± sd over the runs:",
            "",
            markdown_table(pd.DataFrame(rows)),
            "",
            text,
        ]
    ).rstrip()


def _options_section(table: pd.DataFrame, conditions: list[str]) -> str | None:
    """FSCPU and FSCPU-MI with a speed option (run only when named), beside the paper's value
    of the method they speed up; None when none ran."""
    named = [m for m in FSCPU_OPTION_METHODS if m in set(table["method"])]
    if not named:
        return None

    def paper(method: str, condition: str) -> str:
        base = "fscpu" if FSCPU_OPTION_METHODS[method][0] == "cluster" else "fscpu-mi"
        return _paper_t1(base, condition)

    grid = ours_paper_grid(
        table,
        ("method", named),
        ("condition", conditions),
        "fsr",
        paper,
        {m: f"{m} ({_settings_text(FSCPU_OPTION_METHODS[m][1])})" for m in named},
        digits=2,
        runs=True,
    )
    return (
        "Speed options of `FSCPUSelector` (not the paper's method; run only when named), beside "
        "the paper's value of the method they speed up:\n\n" + markdown_table(grid)
    )


def _settings_text(options: dict) -> str:
    """``search_rows=1500`` from ``{"search_rows": 1500}``."""
    return ", ".join(f"{key}={value}" for key, value in options.items())
