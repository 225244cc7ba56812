"""Sphinx extension: the Results page's tables and figure, made from the committed reports in
``results/`` at every build, so the page cannot drift from them.

Writes into ``docs/_generated/`` (not committed), which ``docs/results.md`` includes:

- ``scoreboard_counts.md``: the verdict counts per paper and per paper table, from
  ``results/scoreboard.csv`` (the counting of ``weakfs reproduce scoreboard``);
- ``scoreboard_verdicts.png``: the same counts per paper as bars;
- ``benchmark_answer.md``: the benchmark's two answer tables, copied from ``results/benchmark.md``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
RESULTS = ROOT / "results"
GENERATED = DOCS / "_generated"

#: the sections of results/benchmark.md whose first table the Results page shows
BENCHMARK_SECTIONS = (
    "## Does selection beat all features? (judge: logistic regression)",
    "## The board's calibration",
)


def _markdown_table(frame: pd.DataFrame) -> str:
    lines = ["| " + " | ".join(map(str, frame.columns)) + " |"]
    lines.append("|" + "---|" * len(frame.columns))
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def scoreboard_counts(board: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The verdict counts per paper (with the total row) and per paper table."""
    from weakfs.experiments.scoreboard._report import counts

    per_table = counts(board)
    tables = per_table[per_table["paper"] != "all"]
    numbers = [c for c in per_table.columns if c not in ("paper", "table")]
    per_paper = tables.groupby("paper", sort=False)[numbers].sum().reset_index()
    total = per_table[per_table["paper"] == "all"][["paper", *numbers]]
    return pd.concat([per_paper, total], ignore_index=True), per_table


def scoreboard_counts_markdown(csv: Path = RESULTS / "scoreboard.csv") -> str:
    per_paper, per_table = scoreboard_counts(pd.read_csv(csv))
    return (
        "<!-- made from results/scoreboard.csv at build time by docs/_ext/weakfs_docs.py -->\n\n"
        + _markdown_table(per_paper)
        + "\n\nPer paper table:\n\n"
        + _markdown_table(per_table)
        + "\n"
    )


def benchmark_tables(report: Path = RESULTS / "benchmark.md") -> list[str]:
    """The first table under each of ``BENCHMARK_SECTIONS`` in the benchmark's report."""
    lines = report.read_text(encoding="utf-8").splitlines()
    found = []
    for heading in BENCHMARK_SECTIONS:
        start = lines.index(heading)  # a ValueError names a heading the report no longer has
        rows = []
        for line in lines[start + 1 :]:
            if line.startswith("|"):
                rows.append(line)
            elif rows or line.startswith("## "):
                break
        if not rows:
            raise ValueError(f"results/benchmark.md has no table under {heading!r}")
        found.append("\n".join(rows))
    return found


def benchmark_answer_markdown(report: Path = RESULTS / "benchmark.md") -> str:
    beats, calibration = benchmark_tables(report)
    return (
        "<!-- copied from results/benchmark.md at build time by docs/_ext/weakfs_docs.py -->\n\n"
        "**Does selection beat all features?** (truth AUC of a logistic regression on the "
        "selected columns, per family and label regime)\n\n"
        + beats
        + "\n\n**The board's calibration** (is the truly best candidate in the board's top "
        "group, and how far below it the recommendation lies)\n\n" + calibration + "\n"
    )


def _plot_verdicts(per_paper: pd.DataFrame, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    papers = per_paper[per_paper["paper"] != "all"].set_index("paper")
    kinds = ["within", "above", "below", "not run", "no paper value"]
    colours = ["#2e7d32", "#1565c0", "#c62828", "#9e9e9e", "#e0e0e0"]
    fig, ax = plt.subplots(figsize=(8, 3.2))
    left = pd.Series(0, index=papers.index)
    for kind, colour in zip(kinds, colours):
        ax.barh(papers.index, papers[kind], left=left, color=colour, label=kind)
        left += papers[kind]
    ax.invert_yaxis()
    ax.set_xlabel("paper entries")
    ax.set_title("Reproduced paper entries by verdict (results/scoreboard.csv)")
    ax.legend(ncol=5, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, -0.45))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _write_if_changed(path: Path, text: str) -> None:
    # an unchanged file keeps its time stamp, so Sphinx does not rebuild the page for nothing
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app=None) -> None:
    GENERATED.mkdir(exist_ok=True)
    _write_if_changed(GENERATED / "scoreboard_counts.md", scoreboard_counts_markdown())
    _write_if_changed(GENERATED / "benchmark_answer.md", benchmark_answer_markdown())
    per_paper, _ = scoreboard_counts(pd.read_csv(RESULTS / "scoreboard.csv"))
    _plot_verdicts(per_paper, GENERATED / "scoreboard_verdicts.png")


def setup(app):
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
