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
