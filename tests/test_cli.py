"""`weakfs select` on a user's file and on bundled data, and its error messages."""

import numpy as np
import pandas as pd
import pytest

from weakfs.cli import SELECTORS, available_selectors, main


def test_select_unsupervised_on_a_csv_file(tmp_path, capsys):
    rng = np.random.RandomState(0)
    frame = pd.DataFrame(
        {
            "colour": rng.choice(["red", "green", "blue"], size=120),
            "size": rng.uniform(0, 10, size=120),
            "flag": rng.randint(0, 2, size=120),
        }
    )
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "selected.csv"
    assert main(["select", str(path), "--method", "ufvs", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "ufvs on data.csv: 120 rows x 3 features" in printed
    selected = pd.read_csv(out)
    assert len(selected) == 120 and selected.shape[1] >= 1
    assert all("=" in c for c in selected.columns)  # indicator columns feature=value
    # full coverage: every row holds at least one selected value
    assert (selected.to_numpy().sum(axis=1) >= 1).all()


def test_select_pu_on_bundled_dataset(tmp_path, capsys):
    out = tmp_path / "sel.parquet"
    code = main(
        [
            "select",
            "--dataset",
            "ionosphere",
            "--positive",
            "g",
            "--labeled-fraction",
            "0.3",
            "--method",
            "pu_extra_trees",
            "-k",
            "4",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "68 of 225 positives labeled" in printed
    assert "selected 4 in" in printed and "score" in printed
    written = pd.read_parquet(out)
    assert written.shape == (351, 5) and "y" in written.columns


def test_select_pu_labels_from_target_column(tmp_path, capsys):
    rng = np.random.RandomState(1)
    X = rng.normal(size=(150, 4))
    s = (X[:, 0] + 0.1 * rng.normal(size=150) > 0.8).astype(int)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(is_fraud=s)
    path = tmp_path / "fraud.csv"
    frame.to_csv(path, index=False)
    assert (
        main(
            [
                "select",
                str(path),
                "--target",
                "is_fraud",
                "--positive",
                "1",
                "--method",
                "pu_extra_trees",
                "-k",
                "1",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert f"{s.sum()} labeled positives" in printed
    assert "1. a" in printed  # the only informative column


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
        (["select", "EMPTY", "--target", "y", "--method", "ufvs"], "No columns to parse"),
        (["select", "HEADER", "--target", "y", "--method", "ufvs"], "nothing to select from"),
        (["reproduce", "nope"], "unknown experiment 'nope'"),
    ],
)
def test_user_mistakes_are_one_line_and_exit_code_2(argv, message, capsys, tmp_path):
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "header.csv").write_text("y\n")
    files = {"EMPTY": str(tmp_path / "empty.csv"), "HEADER": str(tmp_path / "header.csv")}
    argv = [files.get(a, a) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_debug_shows_the_traceback():
    with pytest.raises(KeyError, match="unknown experiment"):
        main(["--debug", "reproduce", "nope"])


def test_every_registered_selector_is_available(capsys):
    assert main(["select", "--list"]) == 0
    assert set(available_selectors()) == set(SELECTORS)


def test_old_method_names_are_aliases(tmp_path, capsys):
    from weakfs.cli import SELECTOR_ALIASES, SELECTORS

    assert set(SELECTOR_ALIASES.values()) <= set(SELECTORS)
    out = tmp_path / "sel.csv"
    argv = ["select", "--dataset", "ionosphere", "--positive", "g", "--labeled-fraction", "0.3"]
    assert main([*argv, "--method", "puet", "-k", "3", "-o", str(out)]) == 0
    assert pd.read_csv(out).shape == (351, 4)
