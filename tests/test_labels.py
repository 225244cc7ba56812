import numpy as np
import pandas as pd
import pytest

from weakfs._labels import check_pu_labels, check_semi_supervised_labels


def test_semi_supervised_coding_is_refused_by_pu_methods():
    """1, 0 and -1 together: 0 is a labeled negative, which a PU method would read as unlabeled
    without a word."""
    from weakfs.pu import SemiJMISelector

    for y in ([1, 0, -1, 1], [1.0, 0.0, -1.0, 1.0], np.array([1, 0, -1], dtype=object)):
        with pytest.raises(ValueError, match="semi-supervised coding"):
            check_pu_labels(y)
    X = np.random.RandomState(0).normal(size=(30, 3))
    with pytest.raises(ValueError, match="semi-supervised coding"):
        SemiJMISelector(n_features_to_select=1).fit(X, np.r_[[1] * 10, [0] * 10, [-1] * 10])


@pytest.mark.parametrize(
    "y",
    [
        [1, 0, 0, 1],
        [1, -1, -1, 1],
        [True, False, False, True],
        [1.0, -1.0, -1.0, 1.0],
        pd.Series([1, 0, 0, 1]),
        np.array([[1], [0], [0], [1]]),
    ],
)
def test_pu_labels_accepted_codings(y):
    s = check_pu_labels(y)
    assert s.dtype == np.int8
    assert s.tolist() == [1, 0, 0, 1]


def test_pu_labels_do_not_modify_input():
    y = np.array([1, -1, -1, 1])
    before = y.copy()
    check_pu_labels(y)
    np.testing.assert_array_equal(y, before)


@pytest.mark.parametrize(
    ("y", "message"),
    [
        ([1, 2, 0], r"values \[2\]"),
        ([0, 0, 0], "no labeled positive"),
        ([1, 1, 1], "no unlabeled row"),
        ([1.0, np.nan, 0.0], "NaN"),
        (["pos", "unl"], "non-numeric"),
        ([1, 0.5, 0], r"values \[0.5\]"),
        ([], "empty"),
    ],
)
def test_pu_labels_errors_name_the_problem(y, message):
    with pytest.raises(ValueError, match=message):
        check_pu_labels(y)


def test_pu_labels_rejects_2d_and_sparse():
    from scipy import sparse

    with pytest.raises(ValueError, match="1-D"):
        check_pu_labels(np.zeros((3, 2)))
    with pytest.raises(TypeError, match="sparse"):
        check_pu_labels(sparse.csr_matrix(np.ones((3, 1))))


def test_semi_supervised_labels():
    lab = check_semi_supervised_labels(["a", "b", -1, "a", "-1"])
    assert lab.labeled.tolist() == [True, True, False, True, False]
    assert lab.classes.tolist() == ["a", "b"]
    assert lab.y_encoded.tolist() == [0, 1, -1, 0, -1]
    num = check_semi_supervised_labels(np.array([3.0, 5.0, -1.0]))
    assert num.n_labeled == 2 and num.n_unlabeled == 1


@pytest.mark.parametrize(
    ("y", "message"),
    [
        ([-1, -1, -1], "no labeled row"),
        ([0, 1, 0], "no unlabeled row"),
        ([0, 0, -1], "1 class"),
        ([0.0, np.nan, 1.0, -1.0], "NaN"),
    ],
)
def test_semi_supervised_errors(y, message):
    with pytest.raises(ValueError, match=message):
        check_semi_supervised_labels(y)
