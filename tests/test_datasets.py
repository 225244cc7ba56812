import numpy as np
import pandas as pd
import pytest
from scipy import sparse

from weakfs import datasets
from weakfs.datasets import DatasetNotFoundError, load, make_informative_noise, make_pu_labels


@pytest.mark.parametrize("name", ["spambase", "ionosphere", "mushrooms"])
def test_bundled_load_without_data_dir(name, tmp_path, monkeypatch):
    monkeypatch.setenv("WEAKFS_DATA", str(tmp_path))  # empty directory: bundled copy is used
    X, y = load(name)
    info = datasets.DATASETS[name]
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert X.shape == (info.n_rows, info.n_features)
    assert "y" not in X.columns


def test_missing_dataset_names_file_and_dirs(tmp_path):
    with pytest.raises(DatasetNotFoundError) as err:
        load("madelon", data_home=tmp_path)
    assert "madelon.csv.gz" in str(err.value) and str(tmp_path) in str(err.value)
    with pytest.raises(KeyError, match="unknown dataset"):
        load("no_such_dataset")


def test_list_shows_where_it_looked(tmp_path):
    table = datasets.list_datasets(tmp_path)
    assert set(datasets.DATASETS) == set(table["name"])
    assert str(tmp_path) in table.attrs["searched"]
    assert table.set_index("name").loc["madelon", "path"] == "missing"
    assert table.set_index("name").loc["spambase", "bundled"]


@pytest.mark.needs_data("dexter")
def test_sparse_and_split_loading():
    X, y, split = load("dexter", return_split=True)
    assert sparse.isspmatrix_csr(X) and X.shape == (600, 20000)
    assert set(y.unique()) == {-1, 1} and y.dtype.kind == "i"
    assert split.value_counts().to_dict() == {"train": 300, "valid": 300}


@pytest.mark.needs_data("unsw_nb15_82332")
def test_extra_columns_are_not_features():
    X, _y, extra = load("unsw_nb15_82332", return_extra=True)
    assert "attack_cat" not in X.columns and list(extra.columns) == ["attack_cat"]
    assert X.shape == (82332, 42)


def test_make_pu_labels_scar():
    y = np.array(["a"] * 60 + ["b"] * 40)
    pu = make_pu_labels(y, positive="b", labeled_fraction=0.25, random_state=0)
    assert pu.n_positive == 40 and pu.n_labeled == 10 and pu.s.sum() == 10
    assert np.all(pu.y_true[pu.s == 1] == 1)  # only positives get labeled
    assert pu.prior == pytest.approx(0.4) and pu.label_frequency == pytest.approx(0.25)
    s, _y_true = pu
    again = make_pu_labels(y, positive="b", labeled_fraction=0.25, random_state=0)
    np.testing.assert_array_equal(s, again.s)
    several = make_pu_labels([0, 1, 2, 3, 1], positive=[1, 3], n_labeled=3, random_state=1)
    assert several.n_positive == 3 and several.s.sum() == 3
    by_func = make_pu_labels(np.arange(10), positive=lambda v: v > 6, n_labeled=1)
    assert by_func.n_positive == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"positive": "z", "n_labeled": 1}, "no row has a positive label"),
        ({"positive": "a"}, "exactly one"),
        ({"positive": "a", "labeled_fraction": 1.5}, r"range \(0(\.0)?, 1(\.0)?\]"),
        ({"positive": "a", "n_labeled": 99}, "between 1"),
    ],
)
def test_make_pu_labels_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make_pu_labels(["a", "b", "a"], **kwargs)


def test_informative_noise_generator():
    X, y, relevant = make_informative_noise(
        400, n_informative=3, n_redundant=2, n_noise=10, random_state=0
    )
    assert X.shape == (400, 15) and len(relevant) == 5
    from weakfs._information import equal_width_bins, mutual_information_columns

    mi = mutual_information_columns(equal_width_bins(X.to_numpy())[0], y)
    noise = np.setdiff1d(np.arange(15), relevant)
    assert mi[relevant].min() > mi[noise].max()
