"""The project's bad-input suite: every public estimator, every class of user mistake, one clear
exception whose message names the problem.

Each case asserts the exception type and a pattern of its message; the cases are built for
every estimator of the registry (first parameter set) from valid weak data of its kind, so a new
public estimator is covered without editing this file.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from weakfs.utils._estimator_checks import make_weak_data
from weakfs.utils._testing import ESTIMATOR_TEST_PARAMS, all_estimators, target_kind


def _first_instances():
    for cls in all_estimators():
        yield cls(**ESTIMATOR_TEST_PARAMS[cls][0])


def _fit(est, X, y):
    return est.fit(X) if y is None else est.fit(X, y)


def _with_nan(X, y):
    X = X.copy()
    X[3, 1] = np.nan
    return X, y


def _with_inf(X, y):
    X = X.copy()
    X[0, 0] = np.inf
    return X, y


def _no_rows(X, y):
    return X[:0], None if y is None else y[:0]


def _no_columns(X, y):
    return X[:, :0], y


def _one_dimensional(X, y):
    return X[:, 0], y


def _three_dimensional(X, y):
    return X[:, :, None], y


def _strings(X, y):
    return np.full(X.shape, "abc", dtype=object), y


def _complex(X, y):
    return X + 1j, y


def _short_y(X, y):
    return X, y[:-3]


# mistake -> (how to make it, exception, message pattern); applied to every estimator
FIT_CASES = {
    "NaN in X": (_with_nan, ValueError, r"NaN"),
    "infinity in X": (_with_inf, ValueError, r"[Ii]nfinity|inf"),
    "no rows": (_no_rows, ValueError, r"0 sample|empty|no rows"),
    "no columns": (_no_columns, ValueError, r"0 feature"),
    "1-D X": (_one_dimensional, ValueError, r"2D array|2-D"),
    "3-D X": (_three_dimensional, ValueError, r"dim 3|3-D|2D"),
    "strings in X": (_strings, (ValueError, TypeError), r"convert|string|numeric"),
    "complex X": (_complex, ValueError, r"[Cc]omplex"),
}
SUPERVISED_FIT_CASES = {
    "y shorter than X": (_short_y, ValueError, r"inconsistent|rows"),
}
# weak labels of the wrong kind, per kind of estimator
LABEL_CASES = {
    "pu": {
        "a third label value": (
            lambda y: np.where(np.arange(y.size) % 5 == 0, 2, y),
            r"PU labels must be",
        ),
        "no labeled row": (lambda y: np.zeros(y.size, int), r"labeled|positive"),
        "no unlabeled row": (lambda y: np.ones(y.size, int), r"unlabeled"),
        "NaN labels": (lambda y: np.where(np.arange(y.size) == 2, np.nan, y), r"NaN|PU labels"),
    },
    "semi": {
        "no labeled row": (lambda y: np.full(y.size, -1), r"labeled"),
        "one class among the labeled rows": (lambda y: np.where(y == 1, 1, -1), r"class"),
        "a continuous target": (lambda y: np.linspace(0.1, 0.9, y.size), r"continuous|class"),
    },
}


def _relabelled(X, y, relabel):
    return X, relabel(y)


def _cases():
    for est in _first_instances():
        name = type(est).__name__
        kind = target_kind(est)
        for mistake, (make, exc, pattern) in FIT_CASES.items():
            if kind == "none" and mistake == "strings in X":
                continue  # UFVS reads string columns as categorical values: not a mistake
            yield pytest.param(est, make, exc, pattern, id=f"{name}-{mistake}")
        if kind != "none":
            for mistake, (make, exc, pattern) in SUPERVISED_FIT_CASES.items():
                yield pytest.param(est, make, exc, pattern, id=f"{name}-{mistake}")
        for mistake, (relabel, pattern) in LABEL_CASES.get(kind, {}).items():
            make = functools.partial(_relabelled, relabel=relabel)
            yield pytest.param(est, make, ValueError, pattern, id=f"{name}-{mistake}")


@pytest.mark.parametrize("estimator, make, exception, pattern", list(_cases()))
def test_fit_rejects_bad_input_with_a_named_problem(estimator, make, exception, pattern):
    X, y = make_weak_data(target_kind(estimator))
    X_bad, y_bad = make(X, y)
    with pytest.raises(exception, match=pattern):
        _fit(clone(estimator), X_bad, y_bad)


def _output_method(est):
    for method in ("predict", "transform"):
        if hasattr(est, method):
            return method
    return None


@pytest.mark.parametrize("estimator", list(_first_instances()), ids=lambda e: type(e).__name__)
def test_outputs_reject_unfitted_use_and_other_widths(estimator):
    X, y = make_weak_data(target_kind(estimator))
    method = _output_method(estimator)
    if method is None:
        pytest.skip("no predict or transform")
    with pytest.raises(NotFittedError, match="not fitted"):
        getattr(clone(estimator), method)(X)
    fitted = _fit(clone(estimator), X, y)
    with pytest.raises(ValueError, match=r"features"):
        getattr(fitted, method)(X[:, :-1])
    with pytest.raises(ValueError, match=r"NaN"):
        bad = X.copy()
        bad[0, 0] = np.nan
        getattr(fitted, method)(bad)


def test_the_suite_is_large_enough():
    assert len(list(_cases())) >= 80


def _k_cases():
    for est in _first_instances():
        if "n_features_to_select" not in est.get_params():
            continue
        name = type(est).__name__
        for k, pattern in (
            (True, r"n_features_to_select"),
            (0, r"n_features_to_select"),
            (-2, r"n_features_to_select"),
            (50, r"n_features_to_select|features"),
            (1.5, r"n_features_to_select"),
        ):
            yield pytest.param(est, k, pattern, id=f"{name}-k={k!r}")


@pytest.mark.parametrize("estimator, k, pattern", list(_k_cases()))
def test_impossible_numbers_of_features_are_errors(estimator, k, pattern):
    X, y = make_weak_data(target_kind(estimator))  # 4 features
    with pytest.raises(ValueError, match=pattern):
        _fit(clone(estimator).set_params(n_features_to_select=k), X, y)


def test_fscpu_on_constant_data_says_so():
    from weakfs.pu import FSCPUSelector

    X = np.ones((40, 4))
    s = np.r_[np.ones(10, int), np.zeros(30, int)]
    with pytest.raises(ValueError, match="constant"):
        FSCPUSelector(2, n_iter=5, n_clusters=2, random_state=0).fit(X, s)
