"""The documentation site states what the code and the committed reports say: every public name
is in the API reference, and the Results page's numbers are made from results/."""

import importlib
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RESULTS = ROOT / "results"

#: the public subpackages whose ``__all__`` the API reference lists in full
PUBLIC_MODULES = (
    "weakfs.pu",
    "weakfs.semi_supervised",
    "weakfs.unsupervised",
    "weakfs.feature_selection",
    "weakfs.model_selection",
    "weakfs.preprocessing",
    "weakfs.datasets",
    "weakfs.metrics",
    "weakfs.plotting",
    "weakfs.compare",
)


def api_names(text: str) -> set[str]:
    """Fully qualified names listed in the autosummary tables of ``api.rst``."""
    names, module = set(), None
    in_table = False
    for line in text.splitlines():
        if line.startswith(".. currentmodule:: "):
            module = line.split("::", 1)[1].strip()
        elif line.startswith(".. autosummary::"):
            in_table = True
        elif in_table and line.startswith("   ") and not line.strip().startswith(":"):
            if line.strip():
                names.add(f"{module}.{line.strip()}")
        elif in_table and line.strip() and not line.startswith("   "):
            in_table = False
    return names


def public_names() -> set[str]:
    names = {"weakfs.compare_selectors"}
    for module in PUBLIC_MODULES:
        names |= {f"{module}.{name}" for name in importlib.import_module(module).__all__}
    return names


def test_the_api_reference_lists_every_public_name_and_nothing_else():
    listed = api_names((DOCS / "api.rst").read_text(encoding="utf-8"))
    public = public_names()
    assert not public - listed, f"missing from docs/api.rst: {sorted(public - listed)}"
    assert not listed - public, f"in docs/api.rst but not public: {sorted(listed - public)}"


def test_the_api_names_reader_sees_a_missing_name():
    text = (DOCS / "api.rst").read_text(encoding="utf-8")
    removed = text.replace("   FSCPUSelector\n", "", 1)
    assert "weakfs.pu.FSCPUSelector" in api_names(text)
    assert "weakfs.pu.FSCPUSelector" not in api_names(removed)


@pytest.fixture(scope="module")
def docs_extension():
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        yield importlib.import_module("weakfs_docs")
    finally:
        sys.path.remove(str(DOCS / "_ext"))


def _table_rows(markdown: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in markdown.splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]


def test_the_results_page_counts_are_the_scoreboard_csv_counts(docs_extension):
    board = pd.read_csv(RESULTS / "scoreboard.csv")
    rows = _table_rows(docs_extension.scoreboard_counts_markdown())
    per_paper = {r[0]: r for r in rows if len(r) == 7}  # the per-paper table: 7 columns
    # counted here again from the raw verdicts, independently of the scoreboard's own code
    for paper, group in [*board.groupby("paper"), ("all", board)]:
        verdicts = group["verdict"]
        expected = [
            len(group),
            (verdicts == "within").sum(),
            (verdicts == "above").sum(),
            (verdicts == "below").sum(),
            verdicts.str.startswith("not run").sum(),
            (verdicts == "no paper value").sum(),
        ]
        assert [int(v) for v in per_paper[paper][1:]] == [int(v) for v in expected], paper


def test_the_results_page_counts_are_those_of_the_committed_scoreboard_report(docs_extension):
    report = (RESULTS / "scoreboard.md").read_text(encoding="utf-8")
    page = docs_extension.scoreboard_counts_markdown()
    # the per-table table: paper, table, rows and the five verdicts
    per_table = [r for r in _table_rows(page) if len(r) == 8 and r[0] != "paper"]
    assert len(per_table) > 1
    for row in per_table:
        assert "| " + " | ".join(row) + " |" in report, row


def test_the_results_page_benchmark_tables_are_the_reports(docs_extension):
    report = (RESULTS / "benchmark.md").read_text(encoding="utf-8")
    tables = docs_extension.benchmark_tables()
    assert len(tables) == 2
    for table in tables:
        assert table in report
        assert table.count("\n") >= 3  # a header, its rule and rows


def test_the_benchmark_tables_reader_fails_on_a_report_without_its_section(
    docs_extension, tmp_path
):
    report = tmp_path / "benchmark.md"
    report.write_text("# Benchmark\n\n## Something else\n\n| a |\n|---|\n| 1 |\n")
    with pytest.raises(ValueError):
        docs_extension.benchmark_tables(report)


def test_the_results_page_includes_the_generated_tables():
    page = (DOCS / "results.md").read_text(encoding="utf-8")
    for generated in ("scoreboard_counts.md", "benchmark_answer.md"):
        assert re.search(r"```\{include\} _generated/" + re.escape(generated), page)


def test_every_page_is_in_a_toctree():
    """A page left out of every toctree is built but unreachable from the navigation."""
    pages = {p.stem for p in DOCS.glob("*.md")} | {p.stem for p in DOCS.glob("*.rst")}
    # written by sphinx-gallery at build time (an orphan page), and excluded from the build
    pages -= {"sg_execution_times", "README"}
    toctrees = ""
    for p in [*DOCS.glob("*.md"), *DOCS.glob("*.rst")]:
        text = p.read_text(encoding="utf-8")
        toctrees += "\n".join(re.findall(r"```\{toctree\}.*?```", text, flags=re.S))
    listed = set(re.findall(r"^([\w/]+)$", toctrees, flags=re.M))
    assert pages - {"index"} <= listed, sorted(pages - {"index"} - listed)
