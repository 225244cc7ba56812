"""The one n_features_to_select resolver and the ranking-selector base."""

import numpy as np
import pytest

from weakfs._validation import check_n_features_to_select


def _auto(d):
    return int(np.ceil(d ** (2 / 3)))


@pytest.mark.parametrize(
    "value, d, expected",
    [
        (3, 10, 3),
        (10, 10, 10),
        (0.25, 10, 3),
        (1.0, 7, 7),
        (1e-9, 7, 1),
        (None, 5, 3),
        (None, 1, 1),
        ("auto", 27, 9),
        ("auto", 8, 4),
    ],
)
def test_meanings(value, d, expected):
    assert check_n_features_to_select(value, d, auto=_auto) == expected


@pytest.mark.parametrize(
    "value, match",
    [
        (True, "boolean"),
        (np.bool_(False), "boolean"),
        (0, "at least 1"),
        (-2, "at least 1"),
        (11, "larger than the number of features"),
        (1.5, "fraction"),
        (0.0, "fraction"),
        ("all", "fraction"),
    ],
)
def test_errors(value, match):
    with pytest.raises(ValueError, match=match):
        check_n_features_to_select(value, 10, auto=_auto)


def test_auto_only_where_the_method_has_a_default():
    with pytest.raises(ValueError, match="None, a positive int"):
        check_n_features_to_select("auto", 10)


def test_every_ranking_selector_shares_the_base():
    from weakfs._selection import RankingSelector
    from weakfs.pu import MRMRSelector, SemiJMISelector
    from weakfs.semi_supervised import (
        CoTFSSSelector,
        RLSRSelector,
        SemiFisherSelector,
        SSLSSelector,
    )

    for cls in (CoTFSSSelector, RLSRSelector, SemiFisherSelector, SSLSSelector):
        assert issubclass(cls, RankingSelector), cls
    for cls in (MRMRSelector, SemiJMISelector):
        assert issubclass(cls, RankingSelector), cls


# ---------------------------------------------------------------------------------------------
# Arrow and Polars tables wherever a pandas DataFrame goes


def _mixed_frame(n=80):
    import pandas as pd

    rng = np.random.RandomState(0)
    return pd.DataFrame(
        {
            "a": rng.rand(n),
            "colour": rng.choice(["red", "blue"], n),
            "flag": rng.rand(n) < 0.5,
            "k": rng.randint(0, 3, n),
        }
    )


def _check_read_like_pandas(frame, table, numeric_table):
    """Selectors, TablePreparer and UFVS read ``table`` as they read ``frame`` (and
    ``numeric_table``, ``table`` without its text column, as ``frame``'s numbers): the same
    feature names, columns, values and selection."""
    from weakfs.preprocessing import TablePreparer
    from weakfs.pu import SemiJMISelector
    from weakfs.unsupervised import UFVSSelector

    prepared = TablePreparer().fit(frame)
    from_table = TablePreparer().fit(table)
    assert list(from_table.transform(table).columns) == list(prepared.transform(frame).columns)
    assert from_table.transform(table).equals(prepared.transform(frame))
    names = list(UFVSSelector().fit(frame).get_feature_names_out())
    assert list(UFVSSelector().fit(table).get_feature_names_out()) == names
    numeric = frame.drop(columns="colour")
    s = (frame["a"] > 0.6).astype(int).to_numpy()
    expected = SemiJMISelector(2).fit(numeric, s)
    fitted = SemiJMISelector(2).set_output(transform="pandas")
    fitted.fit(numeric_table, s)
    assert list(fitted.feature_names_in_) == ["a", "flag", "k"]
    assert np.array_equal(fitted.scores_, expected.scores_)
    assert list(fitted.transform(numeric).columns) == list(expected.get_feature_names_out())


def test_arrow_tables_are_read_like_pandas_frames():
    import pyarrow as pa

    frame = _mixed_frame()
    table = pa.Table.from_pandas(frame, preserve_index=False)
    _check_read_like_pandas(frame, table, table.drop_columns(["colour"]))


def test_polars_frames_are_read_like_pandas_frames():
    pl = pytest.importorskip("polars")
    frame = _mixed_frame()
    table = pl.from_pandas(frame)
    _check_read_like_pandas(frame, table, table.drop("colour"))


def test_arrow_record_batches_are_chunks_of_a_streamed_fit():
    import pyarrow as pa

    from weakfs.pu import SemiJMISelector

    frame = _mixed_frame(300).drop(columns="colour")
    s = (frame["a"] > 0.6).astype(int).to_numpy()
    batches = pa.Table.from_pandas(frame, preserve_index=False).to_batches(max_chunksize=70)
    chunks = [(b, s[70 * i : 70 * i + b.num_rows]) for i, b in enumerate(batches)]
    streamed = SemiJMISelector(2).fit_chunks(chunks)
    assert list(streamed.feature_names_in_) == ["a", "flag", "k"]
    assert np.array_equal(streamed.scores_, SemiJMISelector(2).fit(frame, s).scores_)
