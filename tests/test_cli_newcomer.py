"""What a newcomer's first week with `weakfs select` ran into, each case as it was reported."""

import joblib
import numpy as np
import pandas as pd
import pytest

from test_cli import _fails  # one line on stderr and exit code 2
from weakfs.cli import main


def _clinic(n=300, seed=0) -> pd.DataFrame:
    """A hospital export: an ID, a text sex column, numbers, and a diagnosis that holds CAD,
    healthy and blanks."""
    rng = np.random.RandomState(seed)
    sex = rng.choice(["male", "female"], n)
    chol = rng.normal(200, 30, n)
    cad = (sex == "male") & (chol > 200)
    diagnosis = np.where(cad, "CAD", "healthy").astype(object)
    hidden = rng.rand(n) < 0.8  # most rows are unchecked
    diagnosis[hidden] = None
    return pd.DataFrame(
        {
            "patient id": [f"P{i:04d}" for i in range(n)],
            "sex": sex,
            "cholesterol": chol,
            "age": rng.randint(30, 80, n),
            "bmi": rng.normal(27, 4, n),
            "noise": rng.rand(n),
            "diagnosis": diagnosis,
        }
    )


def _write(frame, folder, name="clinic.csv", sep=","):
    path = folder / name
    frame.to_csv(path, index=False, sep=sep)
    return str(path)


def test_k_counts_source_columns_when_text_columns_were_encoded(tmp_path, capsys):
    """sex=male and sex=female took two of five slots; now k counts table columns."""
    path = _write(_clinic(), tmp_path)
    out = tmp_path / "sel.csv"
    argv = ["select", path, "--target", "diagnosis", "--positive", "CAD", "--method", "semi_jmi"]
    assert main([*argv, "-k", "2", "-o", str(out)]) == 0
    printed = capsys.readouterr()
    assert "selected 2 columns" in printed.out and "k counts source columns" in printed.err
    selected = pd.read_csv(out)
    assert selected["column"].nunique() == 2
    if "sex" in set(selected["column"]):
        assert {"sex=female", "sex=male"} <= set(selected["feature"])
    assert main([*argv, "-k", "2", "--no-per-column", "-o", str(out)]) == 0
    assert len(pd.read_csv(out)) == 2


def test_known_negatives_are_named_not_silently_unlabeled(tmp_path, capsys):
    path = _write(_clinic(), tmp_path)
    argv = ["select", path, "--target", "diagnosis", "--positive", "CAD", "--method", "mrmr"]
    assert main([*argv, "-k", "2"]) == 0
    err = capsys.readouterr().err
    assert "'diagnosis' also holds 'healthy' (" in err and "--negative 'healthy'" in err
    err = _fails([*argv, "--negative", "healthy"], capsys)
    assert "no labeled negatives" in err and "sewil" in err


def test_negative_gives_a_semi_supervised_method_two_labeled_classes(tmp_path, capsys):
    from weakfs.cli._labels import _prepare_labels
    from weakfs.cli._select_request import SelectRequest

    frame = _clinic()
    path = _write(frame, tmp_path)
    args = ["select", path, "--target", "diagnosis", "--method", "sewil"]
    parser_args = (
        __import__("weakfs.cli._main", fromlist=["x"])
        .build_parser()
        .parse_args([*args, "--positive", "CAD", "--negative", "healthy"])
    )
    request = SelectRequest.from_args(parser_args)
    labels = _prepare_labels(request.table, frame["diagnosis"])
    y = frame["diagnosis"].to_numpy()
    assert (labels.values[y == "CAD"] == 1).all() and (labels.values[y == "healthy"] == 0).all()
    assert (labels.values[pd.isna(y)] == -1).all()
    assert "labeled negatives (diagnosis = healthy)" in labels.lines[0]


def test_errors_show_the_users_values_not_internal_codes(tmp_path, capsys):
    frame = _clinic()
    frame["diagnosis"] = np.where(frame["diagnosis"] == "CAD", "yes", None)
    path = _write(frame, tmp_path)
    err = _fails(["select", path, "--target", "diagnosis", "--method", "sewil"], capsys)
    assert "'yes' (" in err and "[0]" not in err


def test_ufvs_says_what_a_value_set_is_and_why_k_does_not_apply(tmp_path, capsys):
    frame = _clinic().drop(columns="diagnosis")
    frame["smoker"] = np.arange(len(frame)) % 3 == 0
    path = _write(frame, tmp_path)
    assert main(["select", path, "--method", "ufvs", "-k", "5"]) == 0
    printed = capsys.readouterr()
    assert "UFVS selects feature values, not columns" in printed.out
    assert "ufvs has no k" in printed.err
    assert "smoker=[" not in printed.out  # a boolean is not cut into 5 bins


def test_gkf_pual_k_means_what_it_means_in_python(tmp_path, capsys):
    from weakfs.pu import GKFPUALSelector

    rng = np.random.RandomState(0)
    X = pd.DataFrame(rng.normal(size=(160, 5)), columns=[f"v{j}" for j in range(5)])
    truth = (X["v0"] ** 2 + X["v1"] ** 2 > 1.4).to_numpy()
    frame = X.assign(y=np.where(truth & (rng.rand(160) < 0.6), 1, 0))
    path = _write(frame, tmp_path)
    out = tmp_path / "sel.csv"
    argv = ["select", path, "--target", "y", "--positive", "1", "--method", "gkf_pual", "-k", "2"]
    assert main([*argv, "--set", "n_lambdas=10", "-o", str(out)]) == 0
    python = GKFPUALSelector(n_features_to_select=2, n_lambdas=10).fit(X, frame["y"])
    assert set(pd.read_csv(out)["feature"]) == set(python.get_feature_names_out())


def test_gkf_pual_screens_many_features_instead_of_refusing(tmp_path, capsys):
    rng = np.random.RandomState(1)
    X = pd.DataFrame(rng.normal(size=(120, 40)), columns=[f"v{j}" for j in range(40)])
    y = ((X["v0"] > 0.3) & (rng.rand(120) < 0.6)).astype(int)
    path = _write(X.assign(y=y), tmp_path)
    argv = ["select", path, "--target", "y", "--positive", "1", "--method", "gkf_pual", "-k", "2"]
    assert main([*argv, "--set", "prefilter=6", "--set", "n_lambdas=8"]) == 0
    assert "screened to 6 of 40 features" in capsys.readouterr().out


def test_printed_scores_say_what_they_are(tmp_path, capsys):
    path = _write(_clinic(), tmp_path)
    argv = ["select", path, "--target", "diagnosis", "--positive", "CAD", "--no-per-column"]
    assert main([*argv, "--method", "mrmr", "-k", "3"]) == 0
    assert "(score: MIQ criterion when chosen" in capsys.readouterr().out
    assert main([*argv, "--method", "semi-jmi", "-k", "3"]) == 0
    assert "(score: JMI criterion when chosen" in capsys.readouterr().out


@pytest.mark.parametrize(("k", "expected"), [("auto", 2), ("0.5", 2), ("3", 3)])
def test_k_takes_auto_and_fractions_as_in_python(k, expected, tmp_path, capsys):
    path = _write(_clinic().drop(columns="sex"), tmp_path)  # 4 feature columns, no text
    out = tmp_path / "sel.csv"
    argv = ["select", path, "--target", "diagnosis", "--positive", "CAD", "--method", "mrmr"]
    assert main([*argv, "-k", k, "-o", str(out)]) == 0  # auto: mRMR's default, half
    assert len(pd.read_csv(out)) == expected


def test_method_names_are_accepted_either_way_and_printed_one_way(tmp_path, capsys):
    path = _write(_clinic(), tmp_path)
    argv = ["select", path, "--target", "diagnosis", "--positive", "CAD", "-k", "1"]
    for spelling in ("semi-jmi", "semi_jmi", "SEMI-JMI"):
        assert main([*argv, "--method", spelling]) == 0
        assert "semi_jmi on clinic.csv" in capsys.readouterr().out


@pytest.mark.parametrize(("sep", "name"), [(";", "semicolon.csv"), ("\t", "tabs.tsv")])
def test_semicolon_and_tab_separated_tables_are_read(sep, name, tmp_path, capsys):
    path = _write(_clinic(), tmp_path, name=name, sep=sep)
    argv = ["select", path, "--target", "diagnosis", "--positive", "CAD", "--method", "mrmr"]
    assert main([*argv, "-k", "1"]) == 0
    assert "rows x 6 features" in capsys.readouterr().out  # the ID left out, sex encoded
    assert main([*argv, "-k", "1", "--sep", sep]) == 0


def test_reduced_table_and_a_saved_selector_reused_on_new_rows(tmp_path, capsys):
    frame = _clinic()
    path = _write(frame, tmp_path)
    reduced, model = tmp_path / "reduced.csv", tmp_path / "selector.joblib"
    argv = ["select", path, "--target", "diagnosis", "--positive", "CAD", "--method", "mrmr"]
    argv += ["-k", "2", "--reduced", str(reduced), "--save-model", str(model)]
    assert main(argv) == 0
    table = pd.read_csv(reduced)
    assert table.shape[0] == len(frame) and "diagnosis" in table.columns
    new = _clinic(seed=5).drop(columns="diagnosis")
    new_path = _write(new, tmp_path, name="new.csv")
    out = tmp_path / "new_reduced.parquet"
    assert main(["transform", str(model), new_path, "-o", str(out), "--with", "patient id"]) == 0
    applied = pd.read_parquet(out)
    assert list(applied.columns) == [*table.columns.drop("diagnosis"), "patient id"]
    pipeline = joblib.load(model)
    assert list(pipeline.named_steps) == ["prepare", "select"]
    err = _fails(["transform", str(model), str(reduced), "-o", str(out)], capsys)
    assert "lacks the column(s)" in err


def test_help_gives_each_methods_default_k(capsys):
    with pytest.raises(SystemExit):
        main(["select", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "fscpu half of the features" in out and "pu_extra_trees features with above-mean" in out


def test_reproduce_set_of_an_option_the_experiment_ignores_is_an_error(tmp_path, capsys):
    err = _fails(
        ["reproduce", "demo", "--runs", "1", "--set", "n_iter=5", "--out", str(tmp_path)], capsys
    )
    assert "demo ignores --set n_iter" in err and "k" in err


def test_reproduce_demo_writes_nothing_into_results(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").mkdir()
    assert main(["reproduce", "demo", "--runs", "1", "--datasets", "ionosphere"]) == 0
    assert list((tmp_path / "results").iterdir()) == []
    assert "the demo is a smoke test" in capsys.readouterr().out


def test_ufvs_reads_a_boolean_column_as_its_two_values(tmp_path, capsys):
    from weakfs.preprocessing import TablePreparer

    frame = pd.DataFrame({"smoker": np.arange(60) % 2 == 0, "size": np.arange(60) % 7 * 1.5})
    prepared = TablePreparer(one_hot=False).fit_transform(frame)
    assert prepared["smoker"].dtype == bool
    path = _write(frame, tmp_path, name="flags.csv")
    out = tmp_path / "values.csv"
    assert main(["select", path, "--method", "ufvs", "--set", "min_count=0", "-o", str(out)]) == 0
    values = pd.read_csv(out)["feature"].tolist()
    assert not any(v.startswith("smoker=[") for v in values)
