"""One UFVS dataset and mode summarised along the cut-offs: where |S|, H(S), I(S;C) and NMI(S;C)
stand against the full feature set, in the words and numbers the report and the claims use."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["NEAR", "TABLE_FRACTIONS", "_dataset_text"]

TABLE_FRACTIONS = [0, 0.01, 0.05, 0.1, 0.2]
NEAR = 0.9  # "near": at least 90 % of the upper bound


def _limit(frame: pd.DataFrame, ratio: pd.Series) -> tuple[int, int] | None:
    """First run of consecutive cut-offs with ``ratio >= NEAR``: (first n, last n), or None."""
    ok = (ratio >= NEAR).to_numpy()
    if not ok.any():
        return None
    start = int(np.argmax(ok))
    stop = start
    while stop + 1 < len(ok) and ok[stop + 1]:
        stop += 1
    counts = frame["min_count"].to_numpy()
    return int(counts[start]), int(counts[stop])


def _run_text(run: tuple[int, int] | None, n: int) -> str:
    if run is None:
        return "never"
    return f"{100 * run[0] / n:.1f}-{100 * run[1] / n:.1f} %"


def _pct(count: int, n: int) -> str:
    return f"{count} rows ({100 * count / n:.1f} %)"


def _run_span(run: tuple[int, int], n: int, ratio: pd.Series) -> str:
    """The cut-offs of a near-bound run; a start after n = 0 also quotes the ratio at n = 0."""
    first, last = run
    start = (
        "from n = 0" if first == 0 else f"from n = {_pct(first, n)} (at n = 0: {ratio.iloc[0]:.0%})"
    )
    return f"{start} up to n = {_pct(last, n)}"


def _size_claim(g: pd.DataFrame, n: int) -> tuple[str, str]:
    """The paper's '|S| decreases rapidly': the line, and where |S| falls to a tenth."""
    first = g.iloc[0]
    s0 = int(first["n_selected"])
    nonzero = g[g["n_selected"] > 0]
    tenth = nonzero[nonzero["n_selected"] <= max(1, s0 // 10)]
    if s0 == 0:
        return "- |S| is already 0 at n = 0.", "never"
    if len(tenth):
        c = int(tenth["min_count"].iloc[0])
        line = (
            f"- |S| falls from {s0} (of {int(first['n_values'])} values) at n = 0 to "
            f"{int(tenth['n_selected'].iloc[0])} at n = {_pct(c, n)}: "
            + (
                "fast, as the paper says."
                if c <= 0.05 * n
                else "but not fast (beyond 5 % of rows)."
            )
        )
        return line, f"{100 * c / n:.1f} %"
    line = (
        f"- |S| is {s0} at n = 0 and at most {int(g['n_selected'].max())} along the path: it "
        "never falls to a tenth of its n = 0 size, unlike the paper's curves."
    )
    return line, "never"


def _universal_claim(g: pd.DataFrame, n: int) -> list[str]:
    """A near-universal value in S at n = 0, which keeps |S| and H(S) tiny."""
    share = float(g.iloc[0]["largest_share"])
    if share < 0.9:
        return []
    return [
        f"- At n = 0, S contains a value held by {round(share * n)} of the {n} rows: "
        "near-universal "
        "values have the smallest H(v), so Algorithm 1 removes them last, and such a value "
        "plus a few others covering the remaining rows is all that is left; H(S) is then "
        "tiny. Only the symmetric side of the cut-off (values held by >= |D| - n rows are "
        "dropped) removes them as n grows."
    ]


def _information_claim(g: pd.DataFrame, n: int, i_ratio: pd.Series, i_run) -> str:
    """The paper's 'I(S;C) stays close to I(F;C) up to a limit'."""
    first = g.iloc[0]
    i_near = f"{NEAR:.0%} of I(F;C) = {float(first['I_F_C']):.3f} bits"
    trivial = abs(float(first["I_F_C"]) - float(first["H_C"])) < 1e-9
    note = (
        " (I(F;C) = H(C) here: the discretised rows are almost all distinct, so any"
        " fine partition explains the labels)"
        if trivial and float(first["H_F"]) > 0.95 * np.log2(n)
        else ""
    )
    if i_run is None:
        return (
            f"- I(S;C) never reaches {i_near} (at most {i_ratio.max():.0%}, at n = 0: "
            f"{i_ratio.iloc[0]:.0%}){note}: the paper's 'I(S;C) stays close to I(F;C) up to a "
            "limit' does not hold here."
        )
    a_n, b_n = i_run
    after = g[g["min_count"] > b_n]
    drop = (
        f", then {i_ratio[after.index[0]]:.0%} at n = {_pct(int(after['min_count'].iloc[0]), n)}"
        if len(after) and np.isfinite(i_ratio[after.index[0]])
        else ""
    )
    return f"- I(S;C) is >= {i_near} {_run_span(i_run, n, i_ratio)}{drop}{note}: " + (
        "agrees with the paper's 'close to I(F;C) up to a limit'."
        if a_n == 0
        else "close to I(F;C) over a range, but not from the smallest cut-offs."
    )


def _entropy_claim(g: pd.DataFrame, n: int, h_ratio: pd.Series, h_run) -> str:
    """H(S) against its upper bound H(F)."""
    h_near = f"{NEAR:.0%} of H(F) = {float(g.iloc[0]['H_F']):.2f} bits"
    if h_run is None:
        return (
            f"- H(S) never reaches {h_near} (at most {h_ratio.max():.0%}): not near its upper "
            "bound, unlike the paper's curves (except its KDD, where H(S) is about half of H(F))."
        )
    return f"- H(S) is >= {h_near} {_run_span(h_run, n, h_ratio)}."


def _nmi_claim(g: pd.DataFrame, n: int) -> str:
    """Where NMI(S;C) exceeds NMI(F;C), as the paper reports for KDD and ADA."""
    better = g[g["NMI_S_C"] > g["NMI_F_C"] + 1e-9]
    if not len(better):
        return "- NMI(S;C) never exceeds NMI(F;C)."
    best = better.loc[better["NMI_S_C"].idxmax()]
    i_f, h_f = float(g.iloc[0]["I_F_C"]), float(g.iloc[0]["H_F"])
    return (
        f"- NMI(S;C) exceeds NMI(F;C) = {float(best['NMI_F_C']):.3f}: up to "
        f"{float(best['NMI_S_C']):.3f} at n = {_pct(int(best['min_count']), n)} with "
        f"|S| = {int(best['n_selected'])}"
        + (f" ({best['selected_values']})" if best["selected_values"] else "")
        + f"; there H(S) is {float(best['H_S']) / h_f:.0%} of H(F) and I(S;C) is "
        f"{float(best['I_S_C']) / max(i_f, 1e-300):.0%} of I(F;C) (the paper's KDD: H(S) "
        "about half of H(F), I(S;C) close to I(F;C), NMI above NMI(F;C) with < 30 values)."
    )


def _dataset_text(name: str, mode: str, g: pd.DataFrame) -> tuple[list[str], dict]:
    """The paper's claims checked on one dataset and mode, and its row of the summary."""
    n = int(g["n_rows"].iloc[0])
    first = g.iloc[0]
    i_ratio = g["I_S_C"] / g["I_F_C"].where(g["I_F_C"] > 0)
    h_ratio = g["H_S"] / g["H_F"].where(g["H_F"] > 0)
    i_run = _limit(g, i_ratio.fillna(1.0))
    h_run = _limit(g, h_ratio.fillna(1.0))
    size_line, tenth_at = _size_claim(g, n)
    lines = [
        size_line,
        *_universal_claim(g, n),
        _information_claim(g, n, i_ratio, i_run),
        _entropy_claim(g, n, h_ratio, h_run),
        _nmi_claim(g, n),
        f"- Search time at most {g['search_ms'].max():.1f} ms (median "
        f"{g['search_ms'].median():.2f} ms); the paper reports <= 100 ms.",
    ]
    summary = {
        "dataset": name,
        "mode": mode,
        "rows x features": f"{n} x {int(first['n_features'])}",
        "values": int(first["n_values"]),
        "|S| at n=0": int(first["n_selected"]),
        "|S| to 1/10 at n": tenth_at,
        "top share at n=0": float(first["largest_share"]),
        "I(F;C)": float(first["I_F_C"]),
        "I(S;C)>=90% I(F;C) for n in": _run_text(i_run, n),
        "H(S)>=90% H(F) for n in": _run_text(h_run, n),
        "max NMI(S;C)": float(g["NMI_S_C"].max()),
        "NMI(F;C)": float(first["NMI_F_C"]),
        "max search ms": float(g["search_ms"].max()),
    }
    return lines, summary
