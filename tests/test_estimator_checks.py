"""Estimator checks over every public estimator and every registered parameter set.

* scikit-learn's checks (``parametrize_with_checks``), fed valid weak labels through
  ``weak_target_adapter``; the checks that cannot apply to weak labels are skipped, and the few
  expected to fail are listed with their reasons (``weakfs/utils/_testing.py``);
* weakfs's weak-label checks (``weakfs/utils/_estimator_checks.py``) on data with valid PU or
  semi-supervised labels.
"""

import re

import pytest
import sklearn.utils.estimator_checks as sklearn_checks
from sklearn.utils.estimator_checks import parametrize_with_checks

from weakfs.utils._estimator_checks import yield_weak_checks
from weakfs.utils._testing import (
    ESTIMATOR_TEST_PARAMS,
    EXPECTED_FAILED_CHECKS,
    SKIPPED_CHECKS,
    TARGETS,
    _tested_estimators,
    all_estimators,
    check_name,
    expected_failed_checks,
    skipped_checks,
    weak_target_adapter,
)

_ESTIMATORS = list(_tested_estimators())


def test_every_public_estimator_is_registered():
    public = all_estimators()
    missing = [cls.__name__ for cls in public if cls not in ESTIMATOR_TEST_PARAMS]
    assert not missing, f"add parameter sets for {missing} to weakfs/utils/_testing.py"
    untargeted = [cls.__name__ for cls in public if cls not in TARGETS]
    assert not untargeted, f"say which labels {untargeted} read in TARGETS"
    stale = [
        cls.__name__
        for table in (ESTIMATOR_TEST_PARAMS, TARGETS, SKIPPED_CHECKS, EXPECTED_FAILED_CHECKS)
        for cls in table
        if cls not in public
    ]
    assert not stale, f"{stale} are registered but not public estimators"
    assert all(ESTIMATOR_TEST_PARAMS[cls] for cls in public), "every class needs a parameter set"


def test_discovery_walks_every_subpackage():
    modules = {cls.__module__.split(".")[1] for cls in all_estimators()}
    assert {"pu", "semi_supervised", "unsupervised", "model_selection"} <= modules


def test_skipped_and_expected_failures_name_real_checks():
    names = {
        check_name(check)
        for est in _ESTIMATORS
        for _, check in sklearn_checks.estimator_checks_generator(est, legacy=True, mark=None)
    }
    for est in _ESTIMATORS:
        for table in (skipped_checks(est), expected_failed_checks(est)):
            unknown = set(table) - names
            assert not unknown, f"{type(est).__name__}: no check named {sorted(unknown)}"
            assert all(len(reason) > 40 for reason in table.values()), "give a specific reason"


@parametrize_with_checks(_ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible(estimator, check, monkeypatch):
    reason = skipped_checks(estimator).get(check_name(check))
    if reason is not None:
        pytest.skip(reason)
    monkeypatch.setattr(
        sklearn_checks,
        "_enforce_estimator_tags_y",
        weak_target_adapter(sklearn_checks._enforce_estimator_tags_y),
    )
    check(estimator)


def _id(value) -> str:
    if callable(value) and hasattr(value, "__name__"):
        return value.__name__
    return re.sub(r"\s", "", repr(value))


@pytest.mark.parametrize(
    "estimator, check",
    [(est, check) for est in _ESTIMATORS for check in yield_weak_checks(est)],
    ids=_id,
)
def test_weak_label_checks(estimator, check):
    check(estimator)
