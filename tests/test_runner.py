"""The reproduce runner: cells cached as they finish, resume, local and Dask execution."""

import ast
import json
import sys
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weakfs.cli import main
from weakfs.experiments import RunConfig
from weakfs.experiments._report import paper_mean, paper_verdict, verdict_lines
from weakfs.experiments._runner import cell_key, run_experiment


def test_runner_caches_and_resumes(tmp_path):
    config = RunConfig(runs=1, datasets=["ionosphere"])
    table = run_experiment("demo", config, out_dir=tmp_path)
    assert len(table) == 2 and set(table["method"]) == {"mutual_info", "random"}
    cache = tmp_path / ".cache" / "demo"
    files = sorted(cache.glob("*.json"))
    assert len(files) == 2
    # an interrupted run (cells cached, CSV not yet rewritten): drop one cell, poison the other's
    # result to prove it is read back
    (tmp_path / "demo.csv").unlink()
    files[0].unlink()
    kept = json.loads(files[1].read_text())
    kept["result"]["auc"] = -1.0
    files[1].write_text(json.dumps(kept))
    again = run_experiment("demo", config, out_dir=tmp_path)
    assert (again["auc"] == -1.0).sum() == 1  # cached cell not recomputed
    assert (again["auc"] > 0.5).sum() == 1  # missing cell recomputed
    report = (tmp_path / "demo.md").read_text()
    assert "1 read from the cache or demo.csv" in report and "| ionosphere |" in report
    assert pd.read_csv(tmp_path / "demo.csv").shape[0] == 2


@pytest.mark.slow
def test_runner_on_dask_local_cluster(tmp_path):
    pytest.importorskip("distributed")
    table = run_experiment(
        "demo",
        RunConfig(runs=2, datasets=["ionosphere"]),
        out_dir=tmp_path,
        scheduler="local",
        n_jobs=2,
    )
    assert len(table) == 4 and table["auc"].between(0, 1).all()
    local = run_experiment(
        "demo", RunConfig(runs=2, datasets=["ionosphere"]), out_dir=tmp_path / "local", n_jobs=2
    )
    # the same cells give the same numbers on Dask and on joblib
    merged = table.merge(local, on=["dataset", "method", "seed", "k"])
    assert (merged["auc_x"] == merged["auc_y"]).all()


def test_config_filters_and_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown datasets"):
        run_experiment("demo", RunConfig(datasets=["nope"]), out_dir=tmp_path)
    with pytest.raises(KeyError, match="unknown experiment"):
        run_experiment("no-such", RunConfig(), out_dir=tmp_path)
    assert cell_key({"a": 1, "b": 2}) == cell_key({"b": 2, "a": 1})


def test_cli_reproduce_and_datasets(tmp_path, capsys):
    assert (
        main(
            ["reproduce", "demo", "--runs", "1", "--datasets", "ionosphere", "--out", str(tmp_path)]
        )
        == 0
    )
    assert (tmp_path / "demo.md").exists()
    assert main(["reproduce", "--list"]) == 0
    assert "demo" in capsys.readouterr().out
    assert main(["datasets"]) == 0
    assert "spambase" in capsys.readouterr().out


def test_n_jobs_is_not_part_of_the_cache_key():
    assert cell_key({"a": 1, "n_jobs": 1}) == cell_key({"a": 1, "n_jobs": 2}) == cell_key({"a": 1})
    assert cell_key({"a": 1}) != cell_key({"a": 2})


def test_cached_only_reports_without_running(tmp_path):
    one = RunConfig(runs=1, datasets=["ionosphere"])
    run_experiment("demo", one, out_dir=tmp_path)
    # two runs asked for, one cached: nothing is computed and the report says what is missing
    table = run_experiment(
        "demo", RunConfig(runs=2, datasets=["ionosphere"]), out_dir=tmp_path, cached_only=True
    )
    assert len(table) == 2 and set(table["seed"]) == {0}
    report = (tmp_path / "demo.md").read_text()
    assert "2 finished of 4" in report and "2 not run: report from the cache only" in report
    assert len(list((tmp_path / ".cache" / "demo").glob("*.json"))) == 2


def _fail_if_run(name, cell):
    raise AssertionError(f"cell {cell} was recomputed")


def test_committed_csv_is_the_store_of_a_fresh_clone(tmp_path, monkeypatch):
    import shutil

    from weakfs.experiments import _runner

    two = RunConfig(runs=2, datasets=["ionosphere"])
    first = run_experiment("demo", two, out_dir=tmp_path)
    shutil.rmtree(tmp_path / ".cache")  # a fresh clone has the CSV only
    monkeypatch.setattr(_runner, "execute_cell", _fail_if_run)
    again = run_experiment("demo", two, out_dir=tmp_path)
    cols = ["dataset", "method", "seed", "k", "auc"]
    pd.testing.assert_frame_equal(
        first[cols].sort_values(cols).reset_index(drop=True),
        again[cols].sort_values(cols).reset_index(drop=True),
    )
    # a run of a subset keeps the other cells in the CSV and says so in the report
    run_experiment("demo", RunConfig(runs=1, datasets=["ionosphere"]), out_dir=tmp_path)
    csv = pd.read_csv(tmp_path / "demo.csv")
    assert len(csv) == 4 and csv["cell_key"].is_unique
    # the subset's report goes beside the fuller one, which stays
    partial = (tmp_path / "demo.partial.md").read_text()
    assert "also holds 2 cells of runs with other settings" in partial


def test_csv_without_cell_keys_is_matched_on_the_cell_entries(tmp_path, monkeypatch):
    from weakfs.experiments import _runner

    config = RunConfig(runs=2, datasets=["ionosphere"])
    first = run_experiment("demo", config, out_dir=tmp_path)
    legacy = pd.read_csv(tmp_path / "demo.csv").drop(columns="cell_key")
    legacy["n_jobs"] = 2  # n_jobs never changes a result, so it is not matched
    legacy.to_csv(tmp_path / "demo.csv", index=False)
    import shutil

    shutil.rmtree(tmp_path / ".cache")
    before = (tmp_path / "demo.csv").read_bytes()
    monkeypatch.setattr(_runner, "execute_cell", _fail_if_run)
    again = run_experiment("demo", config, out_dir=tmp_path)
    assert sorted(again["auc"]) == sorted(first["auc"])
    # a run that computes nothing changes no committed file
    assert (tmp_path / "demo.csv").read_bytes() == before
    monkeypatch.undo()
    run_experiment("demo", RunConfig(runs=3, datasets=["ionosphere"]), out_dir=tmp_path)
    csv = pd.read_csv(tmp_path / "demo.csv")  # rewritten with keys once written, no row twice
    assert len(csv) == 6 and csv["cell_key"].notna().all() and csv["cell_key"].is_unique


def test_two_runs_sharing_a_store_keep_each_others_rows(tmp_path, monkeypatch):
    """A long run rewrites the CSV when it ends; rows that a shorter run wrote meanwhile stay,
    and a keyless (legacy) row that both read is not written twice."""
    from weakfs.experiments import _runner

    one_ionosphere = RunConfig(runs=1, datasets=["ionosphere"])
    run_experiment("demo", one_ionosphere, out_dir=tmp_path)
    legacy = pd.read_csv(tmp_path / "demo.csv").drop(columns="cell_key")
    legacy.to_csv(tmp_path / "demo.csv", index=False)  # rows as before keys existed

    real_execute = _runner.execute_cell
    nested = []

    def execute_while_another_run_writes(name, cell):
        if not nested:  # the shorter run starts and ends while the long run computes
            nested.append(True)
            run_experiment("demo", RunConfig(runs=1, datasets=["spambase"]), out_dir=tmp_path)
        return real_execute(name, cell)

    monkeypatch.setattr(_runner, "execute_cell", execute_while_another_run_writes)
    run_experiment("demo", RunConfig(runs=2, datasets=["ionosphere"]), out_dir=tmp_path)
    csv = pd.read_csv(tmp_path / "demo.csv")
    assert sorted(csv["dataset"]) == ["ionosphere"] * 4 + ["spambase"] * 2
    assert csv["cell_key"].notna().all() and csv["cell_key"].is_unique


def test_old_experiment_names_are_aliases():
    from weakfs.experiments import canonical_name, get, names

    assert canonical_name("puet-tables") == "pu_extra_trees-tables" in names()
    assert canonical_name("gkfpual-tables") == "gkf_pual-tables" in names()
    assert get("puet-tables").name == "pu_extra_trees-tables"
    with pytest.raises(KeyError, match="unknown experiment"):
        canonical_name("nope")


def test_version_bump_recomputes_and_marks_older_rows_superseded(tmp_path, monkeypatch):
    """A cell computed by older code is not read back after a version bump; its CSV row stays,
    marked superseded, and the report leaves it out."""
    import dataclasses

    from weakfs.experiments import _registry

    demo = _registry.get("demo")
    config = RunConfig(runs=1, datasets=["ionosphere"])
    first = run_experiment("demo", config, out_dir=tmp_path)
    assert "version" not in first  # version 1: keys as before versions existed
    bumped = dataclasses.replace(demo, version=lambda cell: 2 if cell["method"] == "random" else 1)
    monkeypatch.setattr(_registry, "get", lambda name: bumped)
    monkeypatch.setattr("weakfs.experiments._runner.get", lambda name: bumped)
    calls = []
    real_run = demo.run_cell

    def counting(cell):
        calls.append(cell["method"])
        return real_run(cell)

    monkeypatch.setattr(bumped, "run_cell", counting)
    monkeypatch.setattr(
        "weakfs.experiments._runner.execute_cell",
        lambda name, cell: {"cell": cell, "result": counting(cell), "seconds": 0.0},
    )
    second = run_experiment("demo", config, out_dir=tmp_path)
    assert calls == ["random"]  # only the bumped method ran again
    assert set(second["method"]) == {"mutual_info", "random"} and len(second) == 2
    csv = pd.read_csv(tmp_path / "demo.csv")
    assert len(csv) == 3
    old = csv[csv["superseded"].fillna(False).astype(bool)]
    assert len(old) == 1 and old["method"].item() == "random" and pd.isna(old["version"].item())
    assert "1 rows computed by an older version" in (tmp_path / "demo.md").read_text()


def test_a_report_is_never_replaced_by_one_with_fewer_cells(tmp_path):
    run_experiment("demo", RunConfig(runs=2, datasets=["ionosphere"]), out_dir=tmp_path)
    full = (tmp_path / "demo.md").read_text()
    assert "Cells: 4 finished" in full
    run_experiment("demo", RunConfig(runs=1, datasets=["ionosphere"]), out_dir=tmp_path)
    assert (tmp_path / "demo.md").read_text() == full
    partial = (tmp_path / "demo.partial.md").read_text()
    assert "Cells: 2 finished" in partial and "`demo.md` is unchanged" in partial
    assert len(pd.read_csv(tmp_path / "demo.csv")) == 4  # the CSV keeps every cell


def test_missing_data_stops_the_run_with_one_clear_error(tmp_path, monkeypatch):
    from weakfs.experiments._runner import DataMissingError

    monkeypatch.setenv("WEAKFS_DATA", str(tmp_path / "empty"))
    with pytest.raises(DataMissingError, match="weakfs never downloads data"):
        run_experiment("ufvs", RunConfig(quick=True, datasets=["madelon"]), out_dir=tmp_path)
    assert not (tmp_path / "ufvs.md").exists() and not (tmp_path / "ufvs.csv").exists()
    assert main(["reproduce", "ufvs", "--quick", "--out", str(tmp_path)]) == 2


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_stops_the_workers_and_keeps_finished_cells(tmp_path):
    import signal
    import subprocess

    psutil = pytest.importorskip("psutil")  # installed with dask[distributed]
    cmd = [
        sys.executable, "-m", "weakfs", "reproduce", "demo", "--runs", "3",
        "--datasets", "ionosphere", "--n-jobs", "2", "--set", "delay=60", "--out", str(tmp_path),
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    parent = psutil.Process(proc.pid)
    deadline = time.time() + 60
    workers = []
    while time.time() < deadline and len(workers) < 2:
        time.sleep(0.5)
        workers = [p for p in parent.children(recursive=True) if "python" in p.name().lower()]
    assert workers, "the run never started its workers"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0
    _, alive = psutil.wait_procs(workers, timeout=20)
    assert not alive, f"workers still running after SIGTERM: {[p.pid for p in alive]}"
    assert "Traceback" not in err


def test_an_interrupt_a_pools_clean_up_error_replaced_still_stops_the_run(monkeypatch):
    """A SIGTERM that lands while joblib's pool starts: the pool's clean-up fails (its manager
    thread never started) and replaces the interrupt; the run still stops as interrupted, its
    workers stopped, and an ordinary error still passes through as itself."""
    from weakfs.experiments import _runner

    stopped = []
    monkeypatch.setattr(_runner, "_stop_local_workers", lambda: stopped.append(True))
    with pytest.raises(_runner.RunInterrupted, match="signal 15"):
        with _runner._stop_workers_on_signal():
            try:
                raise _runner.RunInterrupted("signal 15")
            except KeyboardInterrupt:
                raise RuntimeError("cannot join thread before it is started") from None
    assert stopped == [True]
    with pytest.raises(RuntimeError, match="not an interrupt"):
        with _runner._stop_workers_on_signal():
            raise RuntimeError("not an interrupt")
    assert stopped == [True]


def test_stopping_workers_survives_a_pool_whose_start_up_was_cut_short(monkeypatch):
    """The same race one step later: asked for the pool to shut it down, loky tries to join the
    manager thread that never started; the error must not escape, and the pool's processes are
    still terminated."""
    import multiprocessing

    from joblib.externals import loky
    from joblib.externals.loky.backend.process import LokyProcess

    from weakfs.experiments import _runner

    def broken_pool(*args, **kwargs):
        raise RuntimeError("cannot join thread before it is started")

    class FakeWorker(LokyProcess):
        def __init__(self):
            self.terminated = False

        def terminate(self):
            self.terminated = True

    worker = FakeWorker()
    monkeypatch.setattr(loky, "get_reusable_executor", broken_pool)
    monkeypatch.setattr(multiprocessing, "active_children", lambda: [worker])
    _runner._stop_local_workers()
    assert worker.terminated


def _readme_reproduce_lines() -> list[list[str]]:
    import shlex
    from pathlib import Path

    readme = Path(__file__).resolve().parents[1] / "README.md"
    lines = []
    for line in readme.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("weakfs reproduce"):
            lines.append(shlex.split(line)[2:])
    return lines


def test_readme_has_reproduce_lines():
    assert len(_readme_reproduce_lines()) >= 2


@pytest.mark.slow
@pytest.mark.parametrize("args", _readme_reproduce_lines(), ids=" ".join)
def test_every_readme_reproduce_line_works_on_a_tiny_experiment(args, tmp_path, capsys):
    """The README's options, on the demo experiment and into a temporary folder (so that a
    fresh clone's committed results are never touched)."""
    args = list(args)
    if args and not args[0].startswith("-"):
        args[0] = "demo"  # the README's experiment, swapped for the runner's smoke test
    if "--list" not in args:
        args += ["--datasets", "ionosphere", "--out", str(tmp_path)]
        if "--runs" not in args:
            args += ["--runs", "1"]
    if "--cached-only" in args:  # the cells a report is rewritten from are computed first
        assert main(["reproduce", *(a for a in args if a != "--cached-only")]) == 0
    assert main(["reproduce", *args]) == 0
    if "--list" not in args:
        assert (tmp_path / "demo.md").exists() and (tmp_path / "demo.csv").exists()


@pytest.mark.parametrize(
    ("values", "paper", "expected"),
    [
        ([0.75, 0.76], ".757 ± .026", "within"),
        ([0.70], ".757±.026", "below"),
        ([0.80, 0.81], ".757±.026", "above"),
        ([0.90, 0.80], ".757", "above"),  # no paper sd: ours (0.071) decides
        ([0.80, 0.70], ".757", "within"),
        ([0.80], ".757", "above"),  # one run, no paper sd: never within by an sd of 0
        ([0.757], ".757", "within"),  # ... unless it is the paper's value
        ([1.0], "1.0±.00", "within"),
        ([0.72, 0.84], ".81±.03", "within"),  # exactly the sd away, though 0.81 - 0.78 > 0.03
        ([0.80], ".78±.02", "within"),
        ([0.77], ".81±.03", "below"),
        ([], ".7", "not run"),
        ([0.5, np.nan], "NA", "no paper value"),
        ([0.5], None, "no paper value"),
    ],
)
def test_paper_verdict(values, paper, expected):
    assert paper_verdict(values, paper) == expected


def test_paper_mean_reads_mean_with_or_without_sd():
    assert paper_mean(".97±.03") == 0.97
    assert paper_mean(" 0.5 ") == 0.5
    with pytest.raises(ValueError, match="no paper value"):
        paper_mean("NA")


def test_verdict_lines_one_line_per_group_with_reasons():
    text = verdict_lines(
        [
            ("Protein", "A", [0.72, 0.73], ".757 ± .026"),
            ("Protein", "B", [0.76], ".727 ± .024"),
            ("MNIST", "A", [0.8], "NA"),
            ("Isolet", "A", [], ".8"),
        ],
        {"Protein": "Known: a reason."},
    )
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines == [
        "- Protein: A 0.725 vs .757 ± .026: below; B 0.760 vs .727 ± .024: above. Known: a reason."
    ]


def test_cached_only_on_an_unchanged_store_changes_no_file(tmp_path):
    config = RunConfig(runs=2, datasets=["ionosphere"])
    run_experiment("demo", config, out_dir=tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.glob("demo*")}
    table = run_experiment("demo", config, out_dir=tmp_path, cached_only=True)
    assert len(table) == 4
    assert {p.name: p.read_bytes() for p in tmp_path.glob("demo*")} == before


def test_cached_only_with_other_options_says_what_the_cells_were_made_with(tmp_path):
    run_experiment(
        "demo", RunConfig(runs=1, datasets=["ionosphere"]), out_dir=tmp_path, command="made-this"
    )
    before = {p.name: p.read_bytes() for p in tmp_path.glob("demo*")}
    other = RunConfig(runs=1, datasets=["ionosphere"], options={"k": 3})
    with pytest.raises(ValueError, match=r"0 of 2 found.*was made with `made-this`"):
        run_experiment("demo", other, out_dir=tmp_path, cached_only=True)
    assert {p.name: p.read_bytes() for p in tmp_path.glob("demo*")} == before


def test_list_results_are_read_back_from_the_csv_as_lists(tmp_path, monkeypatch):
    """A figure's series survive a fresh clone, which has the CSV and no cache."""
    import dataclasses
    import shutil

    from weakfs.experiments import _registry

    demo = _registry.get("demo")
    seen = []

    def run_cell(cell):
        return {"series": [0.5, 1.5], "names": ["a", "b"], "interval": "[0.2, 0.4)"}

    def write_report(table, ctx):
        seen.append(table)
        return "report"

    listing = dataclasses.replace(demo, run_cell=run_cell, write_report=write_report)
    monkeypatch.setattr("weakfs.experiments._runner.get", lambda name: listing)
    config = RunConfig(runs=1, datasets=["ionosphere"], methods=["random"])
    monkeypatch.setattr(_registry, "get", lambda name: listing)
    run_experiment("demo", config, out_dir=tmp_path)
    shutil.rmtree(tmp_path / ".cache")
    run_experiment("demo", config, out_dir=tmp_path, cached_only=True)
    row = seen[-1].iloc[0]
    assert row["series"] == [0.5, 1.5] and row["names"] == ["a", "b"]
    assert row["interval"] == "[0.2, 0.4)"


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.lists(
            st.one_of(
                st.integers(-(10**20), 10**20),
                st.floats(allow_nan=True, allow_infinity=True),
                st.booleans(),
                st.text(max_size=3),
            ),
            max_size=6,
        ),
        lambda inner: st.lists(inner, max_size=4),
        max_leaves=20,
    )
)
def test_a_list_reads_back_as_python_wrote_it(values):
    """The CSV's lists (numbers through JSON, the rest through Python's literal reader) read back
    exactly as ``repr`` wrote them: same types, same floats, nan and inf included."""
    from weakfs.experiments._store import _from_csv, _NanNames

    text = repr(values)
    read = _from_csv(text)
    expected = ast.literal_eval(_NanNames().visit(ast.parse(text, mode="eval")))
    assert repr(read) == repr(expected) == text
    assert _type_tree(read) == _type_tree(expected)


def _type_tree(value):
    return [_type_tree(v) for v in value] if isinstance(value, list) else type(value)


def test_an_integer_entry_of_some_cells_is_written_as_an_integer(tmp_path):
    from weakfs.experiments._store import CsvCells, records_table

    cells = [{"dataset": "a", "seed": 0}, {"dataset": "b", "seed": 0, "search_rows": 1500}]
    keys = [cell_key(c) for c in cells]
    records = {
        k: {"cell": c, "result": {"auc": 0.5 + i / 10}, "seconds": 1.0}
        for i, (k, c) in enumerate(zip(keys, cells, strict=True))
    }
    frame, found = records_table(records, keys)
    assert found == keys and frame["search_rows"].isna().tolist() == [True, False]
    frame[CsvCells.KEY] = found
    store = CsvCells(tmp_path / "x.csv")
    store.write(frame, found, lambda cell: 1)
    text = (tmp_path / "x.csv").read_text()
    assert ",1500," in text and "1500.0" not in text
    # and read back as the cells' own entries
    back = CsvCells(tmp_path / "x.csv").records(cells, keys)
    assert back[keys[1]]["cell"]["search_rows"] == 1500 and back[keys[0]]["result"]["auc"] == 0.5
