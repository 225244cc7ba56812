"""scikit-learn's estimator checks over every public estimator (imbalanced-learn's pattern)."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from weakfs.utils._testing import (
    ESTIMATOR_TEST_PARAMS,
    _tested_estimators,
    all_estimators,
    expected_failed_checks,
)


def test_every_public_estimator_is_registered():
    missing = [name for name, _ in all_estimators() if name not in ESTIMATOR_TEST_PARAMS]
    assert not missing, f"add test parameters for {missing} in weakfs/utils/_testing.py"


_ESTIMATORS = list(_tested_estimators())

if _ESTIMATORS:

    @parametrize_with_checks(_ESTIMATORS, expected_failed_checks=expected_failed_checks)
    def test_sklearn_compatible(estimator, check):
        check(estimator)
