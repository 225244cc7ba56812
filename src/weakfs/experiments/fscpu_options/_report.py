"""The fscpu-options report: each speed option of FSCPU / FSCPU-MI against the paper's search,
condition by condition, with the paper's search's own seed-to-seed spread as the yardstick."""

from __future__ import annotations

import numpy as np
import pandas as pd

from weakfs.experiments._registry import ReportContext
from weakfs.experiments._report import markdown_table, mean_sd
from weakfs.experiments.fscpu._protocol import CONDITIONS, FSCPU_OPTION_METHODS
from weakfs.experiments.fscpu_options._protocol import DEFAULTS

__all__ = ["ADOPT_CONDITIONS", "pooled_sd", "verdicts", "write_report"]

#: an option is used beyond reproductions when it holds on at least this many of the 10
#: conditions (and on the benchmark's sample of tables)
ADOPT_CONDITIONS = 9
NAMES = {"fscpu": "FSCPU", "fscpu-mi": "FSCPU-MI"}


def pooled_sd(runs: pd.DataFrame) -> float:
    """The seed-to-seed sd of FSR within a condition, pooled over the conditions (each weighted
    by its runs minus one); NaN with no condition of two runs."""
    groups = runs.groupby("condition")["fsr"]
    dof = groups.count() - 1
    var = groups.var(ddof=1)
    keep = dof > 0
    return float(np.sqrt((var[keep] * dof[keep]).sum() / dof[keep].sum())) if keep.any() else np.nan


def verdicts(table: pd.DataFrame, option: str) -> pd.DataFrame:
    """Per condition with runs of both: the option's and the default's mean FSR, the difference
    of the means and the mean difference over the seeds both ran (paired), each with its verdict
    against the default's pooled sd: *within*, *above* or *below*."""
    base = "fscpu" if FSCPU_OPTION_METHODS[option][0] == "cluster" else "fscpu-mi"
    default = table[table["method"] == base]
    ours = table[table["method"] == option]
    sd = pooled_sd(default)
    rows = []
    for condition in CONDITIONS:
        a = ours[ours["condition"] == condition].set_index("seed")["fsr"]
        b = default[default["condition"] == condition].set_index("seed")["fsr"]
        if a.empty or b.empty:
            continue
        diff = a.mean() - b.mean()
        common = a.index.intersection(b.index)
        paired = (a[common] - b[common]).mean() if common.size else np.nan
        rows.append(
            {
                "condition": condition,
                "option": f"{a.mean():.2f} ({a.size})",
                "paper's search": f"{b.mean():.2f} ({b.size})",
                "difference": f"{diff:+.2f}",
                "verdict": _verdict(diff, sd),
                "paired difference": f"{paired:+.2f} ({common.size})" if common.size else "–",
                "paired verdict": _verdict(paired, sd) if common.size else "–",
            }
        )
    return pd.DataFrame(rows)


def _verdict(difference: float, sd: float) -> str:
    return "within" if abs(difference) <= sd else ("above" if difference > 0 else "below")


def _fsr_grid(table: pd.DataFrame, methods: list[str]) -> pd.DataFrame:
    rows = []
    for method in methods:
        runs = table[table["method"] == method]
        row = {"method": method}
        for condition in CONDITIONS:
            values = runs.loc[runs["condition"] == condition, "fsr"]
            row[condition] = f"{mean_sd(values, digits=2)} ({values.size})" if values.size else "–"
        rows.append(row)
    return pd.DataFrame(rows)


def _speed(table: pd.DataFrame, option: str) -> dict:
    """Mean selection seconds of the option and of the default on the conditions both ran."""
    base = "fscpu" if FSCPU_OPTION_METHODS[option][0] == "cluster" else "fscpu-mi"
    ours = table[table["method"] == option]
    default = table[(table["method"] == base) & table["condition"].isin(ours["condition"])]
    em = ours.dropna(subset=["em_at_cap_share"])
    return {
        "option": option,
        "runs": len(ours),
        "seconds per run (mean)": f"{ours['seconds'].mean():.0f}",
        "paper's search, same conditions": f"{default['seconds'].mean():.0f}",
        "ratio": f"{default['seconds'].mean() / ours['seconds'].mean():.1f}x",
        "EM iterations per fit": f"{em['em_iterations_mean'].mean():.1f}" if len(em) else "–",
        "fits at EM's cap": f"{em['em_at_cap_share'].mean():.1%}" if len(em) else "–",
    }


def write_report(table: pd.DataFrame, ctx: ReportContext) -> str:
    lines = [
        "Table 1's artificial data (`weakfs.datasets.make_fscpu_synthetic`, 4,500 × 50, 25 of 50 "
        "features selected, T = 3000, one thread per run).  A run of an option and a run of the "
        "paper's search with the same seed see the same data and the same `random_state`.  "
        "Options (not the paper's method, run only when named): "
        + "; ".join(
            f"`{m}` = {', '.join(f'{k}={v}' for k, v in opts.items())}"
            for m, (_, opts) in FSCPU_OPTION_METHODS.items()
        )
        + ".",
        "",
        "**Yardstick.**  The paper's search's seed-to-seed sd of FSR within a condition, pooled "
        "over the conditions (it has 2 to 5 seeds per condition; a 2-seed sd alone can be 0.00).  "
        "An option is *within* on a condition when its mean FSR differs from the paper's search's "
        "by at most that sd, *above* or *below* otherwise; it *holds* there when within or above.  "
        "*Paired*: the same on the mean difference over the seeds both ran (the same data and "
        "`random_state`), which leaves out the seeds only one of them ran.  "
        f"It is used beyond reproductions only when it holds on at least {ADOPT_CONDITIONS} of "
        "the 10 conditions by both rules and on a sample of the benchmark's tables.",
        "",
    ]
    present = set(table["method"])
    for base in DEFAULTS:
        options = [
            m
            for m, (obj, _) in FSCPU_OPTION_METHODS.items()
            if m in present and (obj == "cluster") == (base == "fscpu")
        ]
        if base not in present:
            continue
        sd = pooled_sd(table[table["method"] == base])
        lines += [
            f"## {NAMES[base]}",
            "",
            f"FSR, mean ± sd (runs).  The paper's search's pooled seed-to-seed sd: **{sd:.3f}**.",
            "",
            markdown_table(_fsr_grid(table, [base, *options])),
            "",
        ]
        for option in options:
            v = verdicts(table, option)
            holds = int(v["verdict"].isin(["within", "above"]).sum())
            holds_paired = int(v["paired verdict"].isin(["within", "above"]).sum())
            missing = len(CONDITIONS) - len(v)
            lines += [
                f"### `{option}`: holds on {holds} of {len(v)} conditions run by the means, "
                f"{holds_paired} paired" + (f" ({missing} not run)" if missing else ""),
                "",
                markdown_table(v),
                "",
            ]
    options = [m for m in FSCPU_OPTION_METHODS if m in present]
    if options:
        lines += [
            "## Speed",
            "",
            "Selection seconds per run as the cells recorded them: runs of one thread each, but "
            "beside other jobs on a 2-core machine, so the ratio of means is indicative only; "
            "the ratios measured in one process on an idle machine are in BENCHMARKS.md "
            "(`benchmarks/bench_fscpu_options.py`).  EM counts: mean over the option's runs "
            "(the paper's cells predate these fields).",
            "",
            markdown_table(pd.DataFrame([_speed(table, m) for m in options])),
            "",
        ]
    return "\n".join(lines)
