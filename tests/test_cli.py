"""`weakfs select` on a user's file and on bundled data, and its error messages."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from weakfs._methods import METHOD_ALIASES, METHODS
from weakfs.cli import available_selectors, main


@pytest.fixture(autouse=True)
def _fewer_prior_resamples(monkeypatch):
    """20 bootstrap resamples of an estimated prior's interval, not 100: these tests check what
    the command does with an interval (its statistics are tested with estimate_class_prior)."""
    from weakfs.pu import _prior_resolution

    monkeypatch.setattr(_prior_resolution, "N_BOOTSTRAP", 20)


def _write(frame: pd.DataFrame, folder, suffix: str = ".csv", name: str = "table") -> str:
    path = folder / f"{name}{suffix}"
    frame.to_parquet(path, index=False) if suffix == ".parquet" else frame.to_csv(path, index=False)
    return str(path)


def _table(n: int = 200, seed: int = 0) -> pd.DataFrame:
    """One informative column ("signal strength"), noise, a small category; truth in "truth"."""
    rng = np.random.RandomState(seed)
    truth = rng.random_sample(n) < 0.4
    return pd.DataFrame(
        {
            "signal strength": truth + 0.3 * rng.normal(size=n),
            "noise a": rng.normal(size=n),
            "noise b": rng.uniform(size=n),
            "colour": rng.choice(["red", "green", "blue"], size=n),
            "visits": rng.poisson(3, size=n),
            "truth": truth,
        }
    )


def _fails(argv, capsys) -> str:
    """Run a command that must fail: exit code 2 and one line on stderr (returned)."""
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    return err


def test_select_unsupervised_on_a_csv_file(tmp_path, capsys):
    rng = np.random.RandomState(0)
    frame = pd.DataFrame(
        {
            "colour": rng.choice(["red", "green", "blue"], size=120),
            "size": rng.uniform(0, 10, size=120),
            "flag": rng.randint(0, 2, size=120),
        }
    )
    path = _write(frame, tmp_path, name="data")
    out = tmp_path / "selected.csv"
    assert main(["select", path, "--method", "ufvs", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "ufvs on data.csv: 120 rows x 3 features" in printed
    selected = pd.read_csv(out)
    assert list(selected.columns) == ["rank", "feature", "column", "score"]
    assert len(selected) >= 1 and selected["feature"].str.contains("=").all()  # column=value
    assert set(selected["column"]) <= {"colour", "size", "flag"}


@pytest.mark.slow
def test_select_pu_on_bundled_dataset(tmp_path, capsys):
    out = tmp_path / "sel.parquet"
    argv = ["select", "--dataset", "ionosphere", "--positive", "g", "--labeled-fraction", "0.3"]
    code = main([*argv, "--method", "pu_extra_trees", "-k", "4", "-o", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "68 of 225 positives labeled" in printed
    # the true prior of simulated labels is shown as such, never as the prior used
    assert "true prior of the simulated labels 0.641 (not used)" in printed
    # the prior with its 90 % interval on the same line
    assert re.search(
        r"class prior used: \d\.\d\d \(90 % interval \d\.\d\d–\d\.\d\d(, wide)?, "
        r"estimated by estimate_class_prior, method 'bbe'\)",
        printed,
    )
    assert "selected 4 in" in printed and "score" in printed
    written = pd.read_parquet(out)
    assert written.shape == (4, 4) and list(written["rank"]) == [1, 2, 3, 4]
    assert written["score"].is_monotonic_decreasing


@pytest.mark.slow
def test_select_pu_labels_from_target_column(tmp_path, capsys):
    rng = np.random.RandomState(1)
    X = rng.normal(size=(150, 4))
    s = (X[:, 0] + 0.1 * rng.normal(size=150) > 0.8).astype(int)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(is_fraud=s)
    path = _write(frame, tmp_path, name="fraud")
    argv = ["select", path, "--target", "is_fraud", "--positive", "1", "-k", "1"]
    assert main([*argv, "--method", "pu_extra_trees", "--set", "n_estimators=20"]) == 0
    printed = capsys.readouterr().out
    assert f"{s.sum()} labeled positives" in printed
    assert "1. a" in printed  # the only informative column


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize(
    ("encode", "positive", "expected"),
    [
        (lambda t: t, "False", False),  # bool column: "False" means False
        (lambda t: t, "true", True),
        (lambda t: np.where(t, "yes", "no"), "yes", "yes"),  # text column
        (lambda t: t.astype(int), "0", 0),  # int column
    ],
)
def test_positive_is_read_as_the_target_columns_type(
    encode, positive, expected, suffix, tmp_path, capsys
):
    frame = _table()
    frame["label"] = encode(frame.pop("truth").to_numpy())
    path = _write(frame, tmp_path, suffix)
    argv = ["select", path, "--target", "label", "--positive", positive, "--method", "mrmr"]
    assert main([*argv, "-k", "2"]) == 0
    n_positive = int((frame["label"] == expected).sum())
    assert f"PU labels: {n_positive} labeled positives (label = {expected})" in (
        capsys.readouterr().out
    )


def test_positive_matching_nothing_lists_the_values(tmp_path, capsys):
    frame = _table()
    path = _write(frame.rename(columns={"truth": "is spam"}), tmp_path)
    argv = ["select", path, "--target", "is spam", "--positive", "spam", "--method", "mrmr"]
    err = _fails(argv, capsys)
    n_true = int(frame["truth"].sum())
    assert "--positive 'spam' matches no row of the bool target column 'is spam'" in err
    assert f"True ({n_true})" in err and f"False ({len(frame) - n_true})" in err


def test_simulated_labels_need_a_complete_target_and_pu_labels_need_unlabeled_rows(
    tmp_path, capsys
):
    frame = _table().assign(truth=lambda f: f["truth"].astype(float))
    frame.loc[:4, "truth"] = np.nan
    argv = ["select", _write(frame, tmp_path), "--target", "truth", "--method", "mrmr"]
    # without --labeled-fraction a missing target is an unlabeled row
    assert main([*argv, "--positive", "1", "-k", "1"]) == 0
    err = _fails([*argv, "--positive", "1", "--labeled-fraction", "0.5"], capsys)
    assert "5 rows of 'truth' have no value" in err
    ones = _write(_table().assign(truth=1), tmp_path, name="ones")
    err = _fails(["select", ones, "--target", "truth", "--positive", "1"], capsys)
    assert "PU data needs unlabeled rows" in err


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_ids_and_dates_are_left_out_with_a_note(suffix, tmp_path, capsys):
    frame = _table()
    n = len(frame)
    frame["message id"] = [f"msg-{i:05d}" for i in range(n)]
    frame["row number"] = np.arange(n) * 7 + 3
    frame["sent at"] = pd.date_range("2024-01-01", periods=n, freq="37h").strftime("%Y-%m-%d %H:%M")
    frame["day"] = pd.date_range("2024-01-01", periods=n, freq="D").strftime("%d/%m/%Y")
    frame.loc[frame.index[::20], "day"] = None  # dates with gaps are still dates
    path = _write(frame, tmp_path, suffix)
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "mrmr"]
    argv += ["--no-per-column"]  # k counts encoded features here
    out = tmp_path / "sel.csv"
    assert main([*argv, "-k", "7", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    for name in ("message id", "row number"):
        assert f"left out column {name!r} (a different value on every row, like an ID)" in (
            captured.err
        )
    assert "left out column 'sent at' (date/time strings)" in captured.err
    assert "left out column 'day' (date/time strings)" in captured.err
    # 3 numbers, visits, colour one-hot in 3 columns
    assert "rows x 7 features" in captured.out
    selected = pd.read_csv(out)
    assert not set(selected["column"]) & {"message id", "row number", "sent at", "day"}
    # --keep uses a column anyway (here as a number)
    assert main([*argv, "-k", "1", "--keep", "row number"]) == 0
    assert "rows x 8 features" in capsys.readouterr().out


def test_drop_and_categorical(tmp_path, capsys):
    frame = _table().assign(zone=lambda f: np.arange(len(f)) % 4 + 10)
    path = _write(frame, tmp_path)
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "mrmr"]
    argv += ["--no-per-column", "-k"]  # k counts encoded features here
    assert main([*argv, "1", "--drop", "noise a", "colour"]) == 0
    assert "rows x 4 features" in capsys.readouterr().out  # signal, noise b, visits, zone
    out = tmp_path / "all.json"
    assert main([*argv, "11", "--categorical", "zone", "-o", str(out)]) == 0
    assert "rows x 11 features" in capsys.readouterr().out  # 4 numbers, colour 3, zone 4
    selected = pd.DataFrame(json.loads(out.read_text())["selected"])
    assert {"zone=10", "zone=13", "colour=red"} <= set(selected["feature"])
    assert set(selected.loc[selected["feature"] == "zone=11", "column"]) == {"zone"}
    err = _fails([*argv, "1", "--drop", "nope", "truth"], capsys)
    assert "--drop: no feature column 'nope', 'truth' ('truth' is the target)" in err


def test_text_column_with_too_many_values_is_refused(tmp_path, capsys):
    frame = _table().assign(city=lambda f: [f"city {i % 80}" for i in range(len(f))])
    path = _write(frame, tmp_path)
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "mrmr"]
    err = _fails([*argv, "-k", "1"], capsys)
    assert "more than --max-categories 50 distinct values: 'city' (80)" in err
    assert "--drop" in err and "--categorical" in err
    assert main([*argv, "-k", "1", "--categorical", "city"]) == 0
    assert "rows x 87 features" in capsys.readouterr().out
    assert main([*argv, "-k", "1", "--max-categories", "80"]) == 0


def test_missing_values_are_refused_naming_every_column(tmp_path, capsys):
    frame = _table()
    frame.loc[[1, 5, 9], "noise a"] = np.nan
    frame.loc[[2], "colour"] = None
    path = _write(frame, tmp_path)
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "mrmr"]
    err = _fails([*argv, "-k", "1"], capsys)
    assert "missing values in 2 column(s): 'noise a' (3), 'colour' (1)" in err
    assert "--impute median|most_frequent" in err
    for how in ("median", "most_frequent"):
        assert main([*argv, "-k", "1", "--impute", how]) == 0
        assert "imputed 4 missing values in 2 column(s)" in capsys.readouterr().err


def test_set_passes_parameters_and_rejects_unknown_ones(tmp_path, capsys):
    path = _write(_table(), tmp_path)
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "fscpu"]
    small = ["--set", "n_iter=30", "--set", "n_clusters=2", "--set", "clustering=kmeans"]
    assert main([*argv, "-k", "2", *small, "--no-progress"]) == 0
    err = _fails([*argv, "--set", "n_iters=30"], capsys)
    assert "fscpu (FSCPUSelector) has no parameter 'n_iters'; valid: budget, cache," in err
    assert "n_iter," in err
    # a bad value fails before the table is read
    err = _fails(["select", "nope.csv", "--method", "fscpu", "--set", "n_iter=-1"], capsys)
    assert "'n_iter' parameter of FSCPUSelector" in err
    err = _fails([*argv, "--set", "n_iter"], capsys)
    assert "--set takes PARAM=VALUE" in err


@pytest.mark.parametrize(
    ("name", "extra"),
    [("sel.csv", []), ("sel.parquet", []), ("sel.json", []), ("sel.txt", ["--format", "json"])],
)
def test_output_holds_the_selected_features_and_scores(name, extra, tmp_path, capsys):
    path = _write(_table(), tmp_path, ".parquet")
    out = tmp_path / name
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "semi-jmi"]
    argv += ["--no-per-column"]  # k counts encoded features here
    assert main([*argv, "-k", "3", "-o", str(out), *extra]) == 0
    if out.suffix == ".csv":
        selected = pd.read_csv(out)
    elif out.suffix == ".parquet":
        selected = pd.read_parquet(out)
    else:
        payload = json.loads(out.read_text())
        assert payload["method"] == "semi_jmi" and payload["rows"] == 200  # one spelling
        assert payload["class_prior"] is None  # semi-JMI uses no prior
        assert payload["parameters"] == {"k": 3, "random_state": 0}
        selected = pd.DataFrame(payload["selected"])
    assert list(selected.columns) == ["rank", "feature", "column", "score"]
    # semi-JMI's features in selection order, each with the criterion it was chosen at
    assert len(selected) == 3 and selected["feature"].iloc[0] == "signal strength"
    assert list(selected["rank"]) == [1, 2, 3] and selected["score"].notna().all()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.slow
def test_printed_prior_is_the_one_used(tmp_path, capsys):
    from weakfs.pu import PUExtraTreesClassifier

    frame = _table()
    path = _write(frame, tmp_path)
    out = tmp_path / "sel.json"
    argv = ["select", path, "--target", "truth", "--positive", "True", "-k", "2"]
    argv += ["--labeled-fraction", "0.5", "--set", "n_estimators=10", "-o", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    prior = json.loads(out.read_text())["class_prior"]
    assert prior["how"].endswith("method 'bbe'")
    assert f"class prior used: {prior['value']:.2f} (90 % interval" in printed
    # the model's own prior="auto" on the same rows gives the same number
    from weakfs.cli._labels import _positive_mask
    from weakfs.datasets import make_pu_labels

    mask, _ = _positive_mask(frame["truth"], "True")
    s = make_pu_labels(mask, positive=True, labeled_fraction=0.5, random_state=0).s
    X = pd.get_dummies(frame.drop(columns="truth"), prefix_sep="=", dtype=float)
    model = PUExtraTreesClassifier(n_estimators=2, random_state=0).fit(X, s)
    assert model.prior_ == pytest.approx(prior["value"], rel=1e-12)
    assert f"true prior of the simulated labels {frame['truth'].mean():.3f} (not used)" in printed
    assert main([*argv[:-2], "--prior", "0.45"]) == 0
    assert "class prior used: 0.45 (given)" in capsys.readouterr().out


def test_prior_without_interval_says_why(tmp_path, capsys):
    # a handful of labeled rows: too few for the interval; the point estimate, and one clause
    # saying so
    path = _write(_table(), tmp_path)
    argv = ["select", path, "--target", "truth", "--positive", "True", "-k", "2"]
    assert main([*argv, "--labeled-fraction", "0.06", "--set", "n_estimators=5"]) == 0
    out = capsys.readouterr()
    line = next(x for x in out.out.splitlines() if x.startswith("class prior used:"))
    assert "(no interval: it needs 10 labeled and 10 unlabeled rows, there are " in line
    assert "estimated by estimate_class_prior, method 'bbe')" in line
    assert "Traceback" not in out.err


def test_output_folder_and_format_are_checked_before_the_data_is_read(
    tmp_path, capsys, monkeypatch
):
    import weakfs.cli._select

    def no_reading(args):
        raise AssertionError("the table was read")

    monkeypatch.setattr(weakfs.cli._select, "_read_table", no_reading)
    path = _write(_table(), tmp_path)
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "mrmr", "-o"]
    err = _fails([*argv, str(tmp_path / "no" / "sel.csv")], capsys)
    assert "the folder of --output does not exist" in err
    err = _fails([*argv, str(tmp_path / "sel.txt")], capsys)
    assert "cannot tell the format of sel.txt" in err
    err = _fails([*argv, str(tmp_path)], capsys)
    assert "is a folder" in err


def test_parquet_without_pyarrow_fails_before_any_work(tmp_path, capsys, monkeypatch):
    import weakfs.cli._table

    path = _write(_table(), tmp_path, ".parquet")
    monkeypatch.setattr(weakfs.cli._table, "_has_parquet_engine", lambda: False)
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "mrmr"]
    assert "reading table.parquet needs pyarrow" in _fails(argv, capsys)
    csv = _write(_table(), tmp_path)
    argv = ["select", csv, "--target", "truth", "--positive", "True", "-o"]
    err = _fails([*argv, str(tmp_path / "out.parquet")], capsys)
    assert "writing out.parquet needs pyarrow, which is not installed: pip install pyarrow" in err


def test_a_failed_write_leaves_nothing_behind(tmp_path, capsys, monkeypatch):
    path = _write(_table(), tmp_path)
    out = tmp_path / "sel.csv"

    def broken(self, target, *args, **kwargs):
        with open(target, "w") as handle:
            handle.write("rank,feat")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", broken)
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "mrmr"]
    assert main([*argv, "-k", "1", "-o", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == "weakfs select: error: disk full" and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.csv"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["select", "--dataset", "ionosphere", "--method", "nope"], "unknown or unavailable"),
        (["select", "--dataset", "ionosphere", "--method", "puet"], "--positive"),
        (["select", "--method", "puet"], "give a CSV/Parquet file"),
        (["select", "missing.csv", "--method", "ufvs"], "no such file"),
        (["select", "--dataset", "nope", "--method", "ufvs"], "unknown dataset 'nope'"),
        (["select", "--dataset", "ionosphere", "--method", "ufvs", "-k", "0"], "at least 1"),
        (["select", "--dataset", "ionosphere", "--method", "ufvs", "-k", "999"], "more than the"),
        (
            ["select", "--dataset", "ionosphere", "--method", "ufvs", "-o", "/no/such/dir/x.csv"],
            "folder of --output does not exist",
        ),
        (["select", "--dataset", "ionosphere", "--method", "mrmr", "--prior", "0.3"], "no class"),
        (["select", "--dataset", "ionosphere", "--prior", "1.5"], "number in (0, 1) or 'auto'"),
        (["select", "EMPTY", "--target", "y", "--method", "ufvs"], "empty.csv is empty"),
        (["select", "RAGGED", "--target", "y", "--method", "ufvs"], "ragged.csv is not a readable"),
        (["select", "BINARY", "--target", "y", "--method", "ufvs"], "binary.csv is not a readable"),
        (["select", "HEADER", "--target", "y", "--method", "ufvs"], "nothing to work on"),
        (["reproduce", "nope"], "unknown experiment 'nope'"),
    ],
)
def test_user_mistakes_are_one_line_and_exit_code_2(argv, message, capsys, tmp_path):
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "header.csv").write_text("y\n")
    (tmp_path / "ragged.csv").write_text("a,b,y\n1,2\n3,4,1,5\n")
    (tmp_path / "binary.csv").write_bytes(b"\xff\xfe\x00garbage\xff")
    files = {
        name.upper(): str(tmp_path / f"{name}.csv")
        for name in ("empty", "header", "ragged", "binary")
    }
    argv = [files.get(a, a) for a in argv]
    assert message in _fails(argv, capsys)


def test_usage_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["select", "--dataset", "ionosphere", "--impute", "mean"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "invalid choice: 'mean'" in err


def test_debug_shows_the_traceback():
    with pytest.raises(KeyError, match="unknown experiment"):
        main(["--debug", "reproduce", "nope"])


def test_every_registered_selector_is_available(capsys):
    assert main(["select", "--list"]) == 0
    assert set(available_selectors()) == set(METHODS)


@pytest.mark.slow
def test_every_method_of_a_board_runs_in_select_under_its_name(capsys):
    """One list of methods: whatever compare can put on a board, select runs by that name."""
    from weakfs.compare._methods import METHODS as COMPARED

    assert set(COMPARED) <= set(METHODS)
    argv = ["select", "--dataset", "ionosphere", "--positive", "g", "--labeled-fraction", "0.3"]
    assert main([*argv, "--method", "pu-permutation", "-k", "4", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "selected 4" in printed
    assert re.search(r"class prior used: \d\.\d+ \(90 % interval", printed)


@pytest.mark.slow
def test_old_method_names_are_aliases(tmp_path, capsys):
    assert set(METHOD_ALIASES.values()) <= set(METHODS)
    out = tmp_path / "sel.csv"
    argv = ["select", "--dataset", "ionosphere", "--positive", "g", "--labeled-fraction", "0.3"]
    assert main([*argv, "--method", "puet", "-k", "3", "-o", str(out)]) == 0
    assert pd.read_csv(out).shape == (3, 4)


def _readme_select_lines() -> list[list[str]]:
    import shlex

    readme = Path(__file__).resolve().parents[1] / "README.md"
    lines = []
    for line in readme.read_text().replace("\\\n", " ").splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("weakfs select") and "--help" not in line:
            lines.append(shlex.split(line)[2:])
    return lines


#: options of `weakfs select` that name a file it writes
_OUTPUT_OPTIONS = ("-o", "--reduced", "--save-model")
# small settings, so that the README's examples run in a second on a small table
_SMALL = {"fscpu": ["--set", "n_iter=20", "--set", "n_clusters=2"]}


@pytest.mark.slow
@pytest.mark.parametrize("args", _readme_select_lines(), ids=" ".join)
def test_every_readme_select_line_works_on_a_small_table(args, tmp_path, capsys):
    args = list(args)
    if "--list" not in args:
        target = args[args.index("--target") + 1]
        frame = _table().rename(columns={"truth": target})
        noise = np.random.RandomState(1).normal(size=(len(frame), 8))
        frame = frame.join(pd.DataFrame(noise, columns=[f"extra {j}" for j in range(8)]))
        frame[target] = frame[target].astype(
            int if args[args.index("--positive") + 1] == "1" else bool
        )
        if "--impute" in args:
            frame.loc[::13, "noise a"] = np.nan
        args[0] = _write(frame, tmp_path, Path(args[0]).suffix, name=Path(args[0]).stem)
        for option in _OUTPUT_OPTIONS:  # every file the line writes goes to the test's folder
            if option in args:
                at = args.index(option) + 1
                args[at] = str(tmp_path / args[at])
        if "--method" in args:
            args += _SMALL.get(args[args.index("--method") + 1], [])
        if "--from-board" in args:  # the board the README's compare line writes, as a .csv
            at = args.index("--from-board") + 1
            board = tmp_path / args[at]
            compare = [args[0], "--target", target, "--positive", "1", "--methods", "mrmr"]
            assert main(["compare", *compare, "-k", "2", "--cv", "3", "-o", str(board)]) == 0
            args[at] = str(board)
    assert main(["select", *args]) == 0
    for option in _OUTPUT_OPTIONS:
        if option in args:
            assert Path(args[args.index(option) + 1]).exists(), option


# ---------------------------------------------------------------------------------------------
# the requests and the --set parser every subcommand shares

_SET_TYPES = [
    ("n_iter=20", 20),
    ("n_jobs=1", 1),
    ("delay=0.5", 0.5),
    ("flag=True", True),
    ("rounds=None", None),
    ("clustering=gmm", "gmm"),
    ("clustering=gmm-diag", "gmm-diag"),
    ("name='a b'", "a b"),
    ("sizes=(1, 2)", (1, 2)),
    ("gammas=0.5,0.25", "0.5,0.25"),  # a bare comma-separated list stays text
    ("tables=t2,t3", "t2,t3"),
]
_COMMANDS = {
    "select": (["select", "--dataset", "ionosphere"], "params"),
    "reproduce": (["reproduce", "demo"], "options"),
}


@pytest.mark.parametrize("command", sorted(_COMMANDS))
@pytest.mark.parametrize(("entry", "expected"), _SET_TYPES, ids=[e for e, _ in _SET_TYPES])
def test_set_values_are_typed_alike_by_every_subcommand(command, entry, expected, monkeypatch):
    import importlib

    module = importlib.import_module(f"weakfs.cli._{command}")
    argv, field = _COMMANDS[command]
    seen = []
    monkeypatch.setattr(module, "run", lambda request: seen.append(request) or 0)
    assert main([*argv, "--set", entry]) == 0
    key = entry.split("=", 1)[0]
    value = getattr(seen[0], field)[key]
    assert value == expected and type(value) is type(expected)
    if command == "reproduce":  # what the experiment reads
        options = seen[0].config().options
        assert options[key] == expected and type(options[key]) is type(expected)


@pytest.mark.parametrize(
    ("argv", "prefix"),
    [
        (["select", "--dataset", "ionosphere"], "weakfs select: error: --set takes PARAM=VALUE"),
        (["reproduce", "demo"], "weakfs reproduce: error: --set takes KEY=VALUE"),
    ],
)
@pytest.mark.parametrize("entry", ["n_iter", "=20"])
def test_set_entry_without_key_and_value_names_the_subcommand(argv, prefix, entry, capsys):
    err = _fails([*argv, "--set", entry], capsys)
    assert err.startswith(prefix) and repr(entry) in err


def test_reproduce_user_errors_name_reproduce(capsys):
    err = _fails(["reproduce", "nope"], capsys)
    assert err.startswith("weakfs reproduce: error: unknown experiment 'nope'")
    assert "weakfs select" not in err


def test_requests_are_frozen():
    import dataclasses

    from weakfs.cli import DatasetsRequest, ReproduceRequest, SelectRequest, build_parser

    parse = build_parser().parse_args
    select = SelectRequest.from_args(parse(["select", "x.csv", "--method", "puet", "--set", "a=1"]))
    assert select.method == "pu_extra_trees" and select.table.path == Path("x.csv")
    reproduce = ReproduceRequest.from_args(parse(["reproduce", "demo", "--datasets", "a,b"]))
    assert reproduce.datasets == ("a", "b") and reproduce.options == {}
    datasets = DatasetsRequest.from_args(parse(["datasets", "--data-home", "here"]))
    cases = [(select, "method"), (select.table, "path"), (reproduce, "experiment")]
    for request, name in [*cases, (datasets, "data_home")]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(request, name, "other")
    with pytest.raises(TypeError):
        select.params["a"] = 2  # --set is read-only too


# ---------------------------------------------------------------------------------------------
# --chunksize: a Parquet file streamed in batches of rows


@pytest.mark.parametrize("method", ["semi-jmi", "mrmr"])
def test_chunksize_streams_parquet_to_the_in_memory_selection(method, tmp_path, capsys):
    frame = _table(n=700)
    frame["flag"] = np.random.RandomState(2).random_sample(len(frame)) < 0.3
    path = _write(frame, tmp_path, ".parquet")
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", method]
    argv += ["-k", "4", "--no-progress"]
    in_memory, streamed = tmp_path / "memory.json", tmp_path / "streamed.json"
    assert main([*argv, "--drop", "colour", "-o", str(in_memory)]) == 0
    capsys.readouterr()
    assert main([*argv, "--chunksize", "150", "-o", str(streamed)]) == 0
    out, err = capsys.readouterr()
    assert "left out colour (not one-hot encoded" in err  # the text column, with a note
    assert "700 rows x 5 features, streamed 150 rows at a time" in out
    memory, stream = json.loads(in_memory.read_text()), json.loads(streamed.read_text())
    assert stream["selected"] == memory["selected"]  # names and scores
    assert (stream["rows"], stream["features"]) == (memory["rows"], memory["features"])


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--method", "pu_extra_trees"], "streams the table for semi_jmi, mrmr only"),
        (["--impute", "median"], "--impute cannot be used with --chunksize"),
        (["--reduced", "r.csv"], "--reduced cannot be used with --chunksize"),
        (["--chunksize", "0"], "--chunksize must be at least 1 row"),
    ],
)
def test_chunksize_mistakes_are_one_line(extra, message, tmp_path, capsys):
    path = _write(_table(), tmp_path, ".parquet")
    argv = ["select", path, "--target", "truth", "--positive", "True", "--method", "mrmr"]
    assert message in _fails([*argv, "--chunksize", "50", *extra], capsys)


def test_chunksize_reads_parquet_only_and_refuses_missing_values(tmp_path, capsys):
    frame = _table()
    argv = ["--target", "truth", "--positive", "True", "--method", "mrmr", "--chunksize", "64"]
    csv = _write(frame, tmp_path, ".csv")
    assert "streams a Parquet file" in _fails(["select", csv, *argv], capsys)
    frame.loc[150, "noise a"] = np.nan
    path = _write(frame, tmp_path, ".parquet")
    err = _fails(["select", path, *argv], capsys)
    assert "missing values in 'noise a': --chunksize reads values as they are" in err


@pytest.mark.slow
def test_select_reselects_at_the_prior_interval_ends(tmp_path, capsys):
    # the selection at the interval's two ends, as Jaccard overlaps, printed and in -o
    from weakfs.cli._selectors import _prior_sensitivity
    from weakfs.pu import PUExtraTreesClassifier

    path = _write(_table(), tmp_path)
    out = tmp_path / "sel.json"
    argv = ["select", path, "--target", "truth", "--positive", "True", "-k", "2"]
    argv += ["--labeled-fraction", "0.5", "--set", "n_estimators=10", "-o", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    ends = json.loads(out.read_text())["class_prior"]["selection_at_interval_ends"]
    assert len(ends) == 2 and all(0 <= end["jaccard"] <= 1 for end in ends)
    assert ends[0]["prior"] <= ends[1]["prior"]
    line = next(x for x in printed.splitlines() if x.startswith("selection at the interval"))
    assert f"prior {ends[0]['prior']:.2f} Jaccard {ends[0]['jaccard']:.2f}" in line
    # brute force on a toy selector: the same prior gives Jaccard 1
    X = pd.DataFrame(np.random.RandomState(0).normal(size=(60, 4)), columns=list("abcd"))
    s = (X["a"] > 0.3).astype(int).to_numpy()
    from sklearn.feature_selection import SelectFromModel

    sel = SelectFromModel(
        PUExtraTreesClassifier(n_estimators=5, prior=0.4, random_state=0), max_features=2
    ).fit(X, s)
    same = _prior_sensitivity(sel, X, s, (0.4, 0.4))
    assert [end["jaccard"] for end in same] == [1.0, 1.0]
    # --no-prior-checks: no re-selection
    assert main([*argv[:-2], "--no-prior-checks"]) == 0
    assert "selection at the interval" not in capsys.readouterr().out


def test_select_says_when_the_labeling_is_not_scar(tmp_path, capsys):
    from weakfs.datasets import make_pu_labels

    rng = np.random.RandomState(0)
    X = rng.normal(size=(1200, 4))
    y = (X[:, 0] + 0.3 * rng.normal(size=1200) > 0).astype(int)
    s = make_pu_labels(
        y, positive=1, labeled_fraction=0.3, mechanism="score", X=X, strength=3, random_state=0
    ).s
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(s=s)
    path = tmp_path / "biased.csv"
    frame.to_csv(path, index=False)
    argv = ["select", str(path), "--target", "s", "--positive", "1", "-k", "2", "--no-progress"]
    argv += ["--method", "pu_extra_trees", "--set", "n_estimators=10"]
    assert main(argv) == 0
    assert "SCAR is doubtful" in capsys.readouterr().err
    assert main([*argv, "--no-prior-checks"]) == 0
    assert "SCAR is doubtful" not in capsys.readouterr().err


@pytest.mark.slow
def test_compare_prints_the_prior_interval_and_its_effect(capsys):
    argv = ["compare", "--dataset", "ionosphere", "--positive", "b", "--labeled-fraction", "0.3"]
    assert main([*argv, "--methods", "pu_extra_trees,mrmr", "--cv", "3", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    found = re.search(r"class prior (\d\.\d+): 90 % interval (\d\.\d+)–(\d\.\d+)", printed)
    assert found
    # the interval is the one of the prior the board used, printed so that it holds the value
    value, low, high = map(float, found.groups())
    assert low <= value <= high
    # every board row shows the raw PU AUC (it needs no prior) beside the corrected score; the
    # prior's interval here is wide (about 0.26-0.53), so the raw PU AUC comes first
    assert "the primary score here: the class prior's interval is wide" in printed
    assert re.search(
        r"all features +k=\d+ +raw PU AUC 0\.\d+ \[.*\]  prior-corrected \d\.\d+ \[.*\]", printed
    )
    assert re.search(r"pu_extra_trees \(k=\d+\) re-selected at prior \d\.\d+: Jaccard", printed)
    assert printed.count("estimate_class_prior") == 2  # the note of the prior used, and the line


def test_all_features_recommended_below_a_tied_leader_names_the_leader():
    from weakfs.cli._compare import _not_the_leader

    summary = pd.DataFrame(
        {
            "method": ["mrmr", "all features"],
            "k": [44, 4862],
            "score": [0.859, 0.747],
            "tied": [True, True],
        }
    )
    said = _not_the_leader(summary, summary.iloc[1])
    assert said.startswith("; mrmr (k=44) scored higher (0.859 against 0.747)")
    assert "not significantly" in said
    assert _not_the_leader(summary.iloc[::-1].reset_index(drop=True), summary.iloc[1]) == ""
    # an abstaining board keeps all features although the test finds it worse: not "not
    # significantly"
    summary["tied"] = [True, False]
    said = _not_the_leader(summary, summary.iloc[1])
    assert "not significantly" not in said and "no evidence against every column" in said
