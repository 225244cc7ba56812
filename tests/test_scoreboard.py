"""The scoreboard: every verdict follows from its own columns, it is written from the committed
stores at the settings of the top-level reports, computes nothing and is rewritten byte for
byte."""

import argparse
import math
import pathlib
import re
import shlex

import numpy as np
import pandas as pd
import pytest

from weakfs.experiments import RunConfig, get, run_experiment
from weakfs.experiments._report import NOT_DESCRIBED, NOT_STAGED, NOT_YET, paper_verdict
from weakfs.experiments._runner import cell_key
from weakfs.experiments.scoreboard._board_report import COLUMNS
from weakfs.experiments.scoreboard._protocol import SOURCES
from weakfs.experiments.scoreboard._report import VERDICTS, counts

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
BOARD = RESULTS / "scoreboard.csv"


def _expected(row) -> str:
    """The verdict rule, written out again: within when |ours - paper| <= the paper's sd (our
    sd where the paper's is empty, 0 with one run), else above / below."""
    if math.isnan(row.ours_mean):
        return "not run"
    if math.isnan(row.paper_mean):
        return "no paper value"
    spread = row.paper_sd
    if math.isnan(spread):
        spread = 0.0 if math.isnan(row.ours_sd) else row.ours_sd
    diff = row.ours_mean - row.paper_mean
    if abs(diff) <= spread + 1e-9:
        return "within"
    return "above" if diff > 0 else "below"


def _check_board(board: pd.DataFrame) -> None:
    assert list(board.columns) == COLUMNS
    for row in board.itertuples():
        kind, _, reason = row.verdict.partition(": ")
        assert kind == _expected(row), row
        assert kind in VERDICTS
        assert (row.ours_runs == 0) == math.isnan(row.ours_mean), row
        assert (row.ours_runs > 1) == (not math.isnan(row.ours_sd)), row
        if kind == "not run":
            assert reason in (NOT_STAGED, NOT_DESCRIBED, NOT_YET), row


@pytest.mark.skipif(not BOARD.exists(), reason="no committed scoreboard")
def test_every_committed_verdict_follows_from_its_columns():
    _check_board(pd.read_csv(BOARD))


@pytest.mark.skipif(not BOARD.exists(), reason="no committed scoreboard")
def test_the_markdown_counts_are_the_csv_counts():
    board = pd.read_csv(BOARD)
    text = (RESULTS / "scoreboard.md").read_text()
    for row in counts(board).itertuples(index=False):
        line = "| " + " | ".join(str(v) for v in row) + " |"
        assert line in text


def _reproduce_config(command: str) -> RunConfig:
    """The RunConfig of a ``weakfs reproduce NAME ...`` command line, as the CLI reads it."""
    from weakfs.cli._reproduce import ReproduceRequest, format_parser

    args = format_parser(argparse.ArgumentParser()).parse_args(shlex.split(command)[2:])
    return ReproduceRequest.from_args(args).config()


@pytest.mark.parametrize("source", list(SOURCES))
def test_sources_are_the_settings_of_the_top_level_reports(source):
    report = RESULTS / f"{source}.md"
    if not report.exists():
        pytest.skip(f"no {report.name}")
    command = re.search(r"^- Command: `(.*)`$", report.read_text(), flags=re.M)[1]
    assert _reproduce_config(command) == SOURCES[source], command


def _store(out, name, cells, results, *, older=False, **extra):
    """A committed store ``out/NAME.csv`` holding ``cells`` with their ``results`` (computed by
    the current code, or by version 1 when ``older``)."""
    experiment = get(name)
    rows = []
    for cell, result in zip(cells, results):
        cell = cell if older else experiment.versioned(cell)
        rows.append({**cell, **result, "seconds": 1.0, "cell_key": cell_key(cell), **extra})
    frame = pd.DataFrame(rows)
    path = out / f"{name}.csv"
    if path.exists():
        frame = pd.concat([pd.read_csv(path), frame], ignore_index=True)
    frame.to_csv(path, index=False)


def _cells(name: str, **match) -> list[dict]:
    cells = get(name).make_cells(SOURCES[name])
    return [c for c in cells if all(c.get(k) == v for k, v in match.items())]


def test_scoreboard_of_a_tiny_synthetic_store(tmp_path):
    kbest = _cells("fscpu-table1", method="kbest", condition="ca-40-8-1")
    fsr = [0.80, 0.84, 0.76, 0.88, 0.72]
    _store(tmp_path, "fscpu-table1", kbest, [{"fsr": v} for v in fsr])
    # rows of older code (FSCPU's cells before version 2, superseded) are never read
    fscpu = _cells("fscpu-table1", method="fscpu", condition="ca-40-8-1")
    _store(tmp_path, "fscpu-table1", fscpu, [{"fsr": 0.0}] * 5, older=True, superseded=True)
    naive = _cells("pu_extra_trees-tables", method="NaivePUET", dataset="mushrooms", part="table")
    accuracy = [53.0, 55.0, 54.0, 52.0, 56.0]
    results = [{"accuracy": v, "f1": 20.0} for v in accuracy]
    _store(tmp_path, "pu_extra_trees-tables", naive, results)

    cells = run_experiment("scoreboard", out_dir=tmp_path)
    assert len(cells) == 5 + 5 and set(cells["experiment"]) == {
        "fscpu-table1",
        "pu_extra_trees-tables",
    }
    board = pd.read_csv(tmp_path / "scoreboard.csv")
    _check_board(board)
    hit = board[board["row"] == "K-Best · ca-40-8-1"].iloc[0]
    assert hit["ours_mean"] == pytest.approx(np.mean(fsr)) and hit["ours_runs"] == 5
    assert (hit["paper_mean"], hit["paper_sd"]) == (0.82, 0.10)
    assert hit["verdict"] == paper_verdict(fsr, ".82±.10") == "within"
    # the PU Extra Trees paper's printed sd decides, as in the reports
    pu = board[(board["table"] == "Table 4") & (board["row"] == "NaivePUET · mushrooms")].iloc[0]
    assert pu["paper_sd"] == 0.32 and pu["ours_sd"] == pytest.approx(np.std(accuracy, ddof=1))
    assert pu["verdict"] == paper_verdict(accuracy, "53.85 ± 0.32") == "within"
    f1 = board[(board["table"] == "Table 5") & (board["row"] == "NaivePUET · mushrooms")].iloc[0]
    assert f1["verdict"] == "within"  # 20.0 in every run, the paper's 19.68 ± 2.04
    upu = board[(board["table"] == "Table 2") & (board["row"] == "uPU-quadratic · mushrooms")]
    assert upu["paper_mean"].iloc[0] == 0.607  # printed "0.607 (0.48)": read as printed
    verdicts = dict(zip(board["row"], board["verdict"]))
    assert verdicts["FSCPU · ca-40-8-1"] == f"not run: {NOT_YET}"
    assert verdicts["K-Best · ca-40-8-2"] == f"not run: {NOT_YET}"
    assert verdicts["ES-MCRFS · ca-40-8-1"] == f"not run: {NOT_DESCRIBED}"
    assert verdicts["SupervisedET · Epsilon"] == f"not run: {NOT_STAGED}"
    assert verdicts["GKF-PUAL · OR2 γ=0.5"] == f"not run: {NOT_STAGED}"
    md = (tmp_path / "scoreboard.md").read_text()
    assert "| FSCPU | Table 1 | 110 | 1 | 0 | 0 | 109 | 0 |" in md
    assert "`fscpu-table1.csv`: 5 cells" in md and "Date" not in md

    # computes nothing and is rewritten byte for byte
    before = {p.name: p.read_bytes() for p in tmp_path.glob("scoreboard.*")}
    run_experiment("scoreboard", out_dir=tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.glob("scoreboard.*")} == before
    assert not (tmp_path / ".cache").exists()


def test_scoreboard_takes_no_options(tmp_path):
    with pytest.raises(ValueError, match="computes nothing"):
        run_experiment("scoreboard", RunConfig(runs=3), out_dir=tmp_path)
    assert not list(tmp_path.iterdir())
