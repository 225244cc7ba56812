"""TablePreparer: the command line's table preparation, as a transformer for Python users."""

import numpy as np
import pandas as pd
import pytest

from weakfs.preprocessing import TablePreparer


def _table(n=40, seed=0):
    rng = np.random.RandomState(seed)
    return pd.DataFrame(
        {
            "patient": [f"P{i:03d}" for i in range(n)],
            "admitted": pd.date_range("2024-01-01", periods=n).strftime("%Y-%m-%d"),
            "age": rng.randint(20, 80, n),
            "sex": rng.choice(["male", "female"], n),
            "smoker": rng.rand(n) < 0.3,
            "bmi": np.round(rng.normal(26, 4, n), 1),
        }
    )


def test_ids_and_dates_are_left_out_and_text_is_one_hot_encoded_with_source_columns():
    prep = TablePreparer().fit(_table())
    assert prep.left_out_ == {
        "patient": "a different value on every row, like an ID",
        "admitted": "date/time strings",
    }
    names = prep.get_feature_names_out().tolist()
    assert names == ["age", "smoker", "bmi", "sex=female", "sex=male"]
    assert prep.source_columns_["sex=male"] == "sex" and prep.source_columns_["age"] == "age"
    out = prep.transform(_table())
    assert list(out.columns) == names and out.dtypes.eq(float).all()
    assert (out["sex=female"] + out["sex=male"] == 1).all()


def test_keep_uses_a_column_that_looks_like_an_id():
    prep = TablePreparer(keep=["patient"], max_categories=100).fit(_table())
    assert "patient" not in prep.left_out_ and prep.source_columns_["patient=P000"] == "patient"


def test_missing_values_are_refused_or_imputed_from_the_fit_data():
    table = _table()
    table.loc[[1, 5], "bmi"] = np.nan
    table.loc[3, "sex"] = np.nan
    with pytest.raises(
        ValueError, match=r"missing values \(NaN\) in 2 column\(s\): 'sex' \(1\), 'bmi' \(2\)"
    ):
        TablePreparer().fit(table)
    prep = TablePreparer(impute="median").fit(table)
    assert prep.fill_values_["bmi"] == table["bmi"].median()
    assert prep.fill_values_["sex"] == table["sex"].mode().iloc[0]
    assert not prep.transform(table).isna().any().any()


def test_too_many_text_values_is_an_error_unless_categorical():
    table = _table()
    table["city"] = [f"c{i % 30}" for i in range(len(table))]
    with pytest.raises(ValueError, match=r"max_categories=10 .*'city' \(30\)"):
        TablePreparer(max_categories=10).fit(table)
    prep = TablePreparer(max_categories=10, categorical=["city"]).fit(table)
    assert sum(v == "city" for v in prep.source_columns_.values()) == 30


def test_unseen_values_at_transform_time_set_no_indicator():
    prep = TablePreparer().fit(_table())
    new = _table().iloc[:3].copy()
    new["sex"] = ["other", "male", "female"]
    out = prep.transform(new)
    assert out[["sex=female", "sex=male"]].to_numpy().tolist() == [[0, 0], [0, 1], [1, 0]]


def test_without_one_hot_text_columns_stay_text_in_place():
    prep = TablePreparer(one_hot=False).fit(_table())
    out = prep.transform(_table())
    assert list(out.columns) == ["age", "sex", "smoker", "bmi"]
    assert pd.api.types.is_string_dtype(out["sex"])


def test_bad_names_and_a_table_with_nothing_left():
    with pytest.raises(ValueError, match="drop: no column 'nope'"):
        TablePreparer(drop=["nope"]).fit(_table())
    with pytest.raises(ValueError, match="drop and categorical both name 'sex'"):
        TablePreparer(drop=["sex"], categorical=["sex"]).fit(_table())
    with pytest.raises(ValueError, match="no feature column left"):
        TablePreparer().fit(_table()[["patient", "admitted"]])


def test_the_command_line_prepares_the_same_columns(tmp_path, capsys):
    from weakfs.cli import main

    table = _table(60)
    table["y"] = np.r_[np.ones(10, int), np.zeros(50, int)]
    path = tmp_path / "t.csv"
    table.to_csv(path, index=False)
    out = tmp_path / "sel.csv"
    argv = ["select", str(path), "--target", "y", "--positive", "1", "--method", "semi-jmi"]
    assert main([*argv, "-k", "5", "--no-per-column", "-o", str(out)]) == 0
    chosen = set(pd.read_csv(out)["feature"])
    expected = set(TablePreparer().fit(table.drop(columns="y")).get_feature_names_out())
    assert chosen == expected
