"""Every committed report is what its own header's command writes from the committed cells.

Each report in ``results/`` names the command that rewrites it from its store
(``--cached-only``, or the scoreboard, which computes nothing).  Here every such command runs, as
printed, in a copy of ``results/`` (no cache: only the committed CSVs), and every file of the
copy must then equal the committed file byte for byte: a report whose code drifted from its
committed text, or that the installed pandas/numpy can no longer write, fails here.
"""

from __future__ import annotations

import filecmp
import re
import shlex
import shutil
from pathlib import Path

import pytest

from weakfs.cli import main

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"

#: reports of cells that an older version of the code computed: the current code reads none of
#: their rows (they are marked superseded), so they are kept as they were, not regenerated
FROZEN = {
    "other-settings/fscpu-table3-v1/fscpu-table3.md": "FSCPU Table 3 at version 1 of its cells",
    "other-settings/benchmark-v1/benchmark.md": (
        "the benchmark at version 1 of its cells (360), the report until the current versions "
        "held more cells"
    ),
    "other-settings/benchmark-v2/benchmark.partial.md": "the first 65 benchmark cells at version 2",
}


def _reports() -> list[tuple[str, str]]:
    found = []
    for path in sorted(RESULTS.rglob("*.md")):
        rel = path.relative_to(RESULTS).as_posix()
        if rel.startswith(".cache") or rel in FROZEN:
            continue
        match = re.search(r"^- Command: `(weakfs reproduce [^`]*)`", path.read_text(), re.M)
        if match:
            found.append((rel, match.group(1)))
    return found


REPORTS = _reports()


def test_the_benchmark_is_regenerated_by_the_plain_command():
    """``weakfs reproduce benchmark --cached-only``, with no other option, is its command."""
    header = (RESULTS / "benchmark.md").read_text()
    assert "- Command: `weakfs reproduce benchmark --cached-only`" in header
    assert "- Partial:" not in header  # it reports every committed cell of the current versions


def test_every_report_names_its_command():
    reports = {
        p.relative_to(RESULTS).as_posix()
        for p in RESULTS.rglob("*.md")
        if not p.relative_to(RESULTS).as_posix().startswith(".cache")
    }
    assert reports == {rel for rel, _ in REPORTS} | set(FROZEN)


@pytest.mark.slow
@pytest.mark.parametrize(("report", "command"), REPORTS, ids=[r for r, _ in REPORTS])
def test_report_is_regenerated_byte_for_byte(report, command, tmp_path, monkeypatch, capsys):
    copy = tmp_path / "results"
    shutil.copytree(RESULTS, copy, ignore=shutil.ignore_patterns(".cache"))
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command)[1:]
    if "--cached-only" not in argv and argv[1] not in ("scoreboard", "board-at-k", "fscpu-options"):
        argv.append("--cached-only")
    # their reports read the datasets (the sizes; the benchmark cells' labeled counts)
    needs_data = argv[1] in ("ufvs", "board-at-k")
    try:
        assert main(["--debug", *argv]) == 0
    except FileNotFoundError as exc:  # pragma: no cover - data not staged
        if needs_data:
            pytest.skip(f"data not staged: {exc}")
        raise
    changed = []
    for path in sorted(copy.rglob("*")):
        rel = path.relative_to(copy)
        if path.is_dir() or ".cache" in rel.parts:
            continue
        committed = RESULTS / rel
        if not committed.exists() or not filecmp.cmp(path, committed, shallow=False):
            changed.append(rel.as_posix())
    assert changed == [], f"`{command}` rewrote {changed}"
