"""The README is two screens of what is, now: its shape, and every number in it read again from
the committed reports (the scoreboard's counts per paper, the benchmark's answer)."""

import re
from pathlib import Path

import pandas as pd
import pytest

from weakfs.experiments.scoreboard._report import counts

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
RESULTS = ROOT / "results"


def _paragraphs(text: str) -> list[str]:
    """The README's prose paragraphs (code blocks and tables left out)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    blocks = [b for b in re.split(r"\n\s*\n", text) if b.strip()]
    return [b for b in blocks if not b.lstrip().startswith(("|", "#", "<!--"))]


def _table(text: str, header: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header line starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_the_readme_is_two_screens_without_dates():
    assert len(README.splitlines()) <= 150
    assert len(README.split()) <= 1200
    longest = max(_paragraphs(README), key=lambda p: len(p.split()))
    assert len(longest.split()) <= 120, longest[:200]
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", README)


def test_the_readme_holds_the_two_commands_of_a_newcomer():
    assert "pip install . && weakfs select --dataset spambase" in README
    block = README.split("<!-- test-command -->", 1)[1]
    assert block.split("```bash\n", 1)[1].split("\n```", 1)[0] == (
        'pip install -e ".[test]" && pytest -n 2'
    )


@pytest.mark.skipif(not (RESULTS / "scoreboard.csv").exists(), reason="no committed scoreboard")
def test_the_readme_gives_the_scoreboard_counts_per_paper():
    per_table = counts(pd.read_csv(RESULTS / "scoreboard.csv"))
    per_paper = per_table[per_table["paper"] != "all"].groupby("paper", sort=False).sum()
    shown = _table(README, "| paper | entries |")
    assert [row[0] for row in shown] == list(per_paper.index)
    for paper, entries, within, above, below, not_run in shown:
        expected = per_paper.loc[paper]
        assert int(entries) == expected["rows"], paper
        got = [int(within), int(above), int(below), int(not_run)]
        assert got == [expected[v] for v in ["within", "above", "below", "not run"]], paper
        # a verdict the table leaves out (no paper value) would break this sum
        assert sum(got) == int(entries), paper


@pytest.mark.skipif(not (RESULTS / "benchmark.md").exists(), reason="no committed benchmark")
def test_the_readme_gives_the_benchmark_answer_of_the_report():
    report = (RESULTS / "benchmark.md").read_text()
    logistic = report.split("## Does selection beat all features? (judge: logistic regression)")[1]
    rows = _table(logistic, "| family | regime |")
    by_family = {row[0]: row for row in rows if row[1] == "pu-scar-0.3"}
    assert "30 % of the positives labeled (SCAR)" in " ".join(README.split())
    shown = _table(README, "| family | all features |")
    assert len(shown) == len(by_family)
    for family, all_features, best, gain, holm in shown:
        row = by_family[family]
        assert [all_features, best, gain, holm] == [row[3], row[4], row[6], row[9]], family
