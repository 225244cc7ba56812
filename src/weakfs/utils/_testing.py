"""One registry of small-data constructor arguments for scikit-learn's estimator checks.

Modelled on imbalanced-learn's ``_tested_estimators``: every public estimator of weakfs must
appear in
``ESTIMATOR_TEST_PARAMS`` (the test-suite fails otherwise), with the keyword arguments that make it
fast on the tiny arrays the checks use.  Checks that cannot pass by design are listed in
``EXPECTED_FAILED_CHECKS`` with the reason.
"""

from __future__ import annotations

import importlib
import inspect

from sklearn.base import BaseEstimator

PUBLIC_SUBPACKAGES = ("weakfs.pu", "weakfs.semi_supervised", "weakfs.unsupervised")

# class name -> keyword arguments for a fast instance
ESTIMATOR_TEST_PARAMS: dict[str, dict] = {
    # --- unsupervised (issue 2) ---
    "UFVSSelector": {},
    # --- pu extra trees (issue 3) ---
    "PUExtraTreesClassifier": {"n_estimators": 5, "prior": 0.5, "random_state": 0},
    # --- fscpu (issue 4) ---
    "FSCPUSelector": {"n_features_to_select": 1, "n_clusters": 2, "n_iter": 5, "random_state": 0},
    "SemiJMISelector": {"n_features_to_select": 1},
    "MRMRSelector": {"n_features_to_select": 1},
    # --- gkf-pual (issue 5) ---
    "GKFPUALClassifier": {"C2": 1.0, "sigma": 0.1, "max_iter": 1000},
    "GKFPUALSelector": {},
    "PUALClassifier": {},
    "GLLCClassifier": {},
    "UPUClassifier": {"max_epochs": 40, "random_state": 0},
    "NNPUClassifier": {"max_epochs": 40, "random_state": 0},
    # --- sew-il (issue 6) ---
    "SelfLearningClassifier": {"n_estimators": 10, "random_state": 0, "allow_fully_labeled": True},
    "SEWILSelector": {
        "n_estimators": 5,
        "n_generations": 1,
        "population_size": 6,
        "n_parents": 3,
        "random_state": 0,
        "allow_fully_labeled": True,
    },
    "SemiFisherSelector": {"n_features_to_select": 1, "allow_fully_labeled": True},
    "SSLSSelector": {"n_features_to_select": 1, "allow_fully_labeled": True},
    "RLSRSelector": {"n_features_to_select": 1, "max_iter": 5, "allow_fully_labeled": True},
    "CoTFSSSelector": {
        "n_features_to_select": 1,
        "n_start": 0,
        "n_resamples": 2,
        "n_splits": 2,
        "random_state": 0,
        "allow_fully_labeled": True,
    },
}

# reason shared by PU estimators: the checks feed arbitrary class labels (strings, {1, 2}, several
# classes) while a PU estimator accepts only 1 = labeled positive and 0/-1/False = unlabeled
PU_LABELS_ONLY = "PU estimator: y must be 1 (labeled) / 0 (unlabeled); the check uses other labels"

# class name -> {check name: reason}
EXPECTED_FAILED_CHECKS: dict[str, dict[str, str]] = {
    # --- unsupervised (issue 2) ---
    # --- pu extra trees (issue 3) ---
    "PUExtraTreesClassifier": {
        "check_estimators_dtypes": PU_LABELS_ONLY,
        "check_classifier_data_not_an_array": PU_LABELS_ONLY,
        "check_classifiers_classes": PU_LABELS_ONLY,
        "check_fit2d_1feature": PU_LABELS_ONLY,
    },
    # --- fscpu (issue 4) ---
    **{
        name: {
            **dict.fromkeys(
                [
                    "check_dict_unchanged",
                    "check_dont_overwrite_parameters",
                    "check_dtype_object",
                    "check_estimators_dtypes",
                    "check_estimators_fit_returns_self",
                    "check_estimators_overwrite_params",
                    "check_f_contiguous_array_estimator",
                    "check_fit2d_1feature",
                    "check_fit2d_predict1d",
                    "check_fit_score_takes_y",
                    "check_methods_sample_order_invariance",
                    "check_methods_subset_invariance",
                    "check_n_features_in_after_fitting",
                    "check_positive_only_tag_during_fit",
                    "check_readonly_memmap_input",
                ],
                PU_LABELS_ONLY + " (no classifier tags make the check's y binary)",
            ),
            "check_fit2d_1sample": "PU data needs labeled and unlabeled rows; one row is not both",
        }
        for name in ("FSCPUSelector", "SemiJMISelector", "MRMRSelector")
    },
    # --- gkf-pual (issue 5) ---
    **{
        name: {
            "check_estimators_dtypes": PU_LABELS_ONLY,
            "check_classifier_data_not_an_array": PU_LABELS_ONLY,
            "check_classifiers_classes": PU_LABELS_ONLY,
            "check_fit2d_1feature": PU_LABELS_ONLY,
        }
        for name in (
            "GKFPUALClassifier",
            "PUALClassifier",
            "GLLCClassifier",
            "UPUClassifier",
            "NNPUClassifier",
        )
    },
    # the selector is not a classifier, so the checks give it regression/multiclass targets
    "GKFPUALSelector": {
        check: PU_LABELS_ONLY
        for check in (
            "check_fit_score_takes_y",
            "check_estimators_overwrite_params",
            "check_dont_overwrite_parameters",
            "check_estimators_fit_returns_self",
            "check_readonly_memmap_input",
            "check_n_features_in_after_fitting",
            "check_positive_only_tag_during_fit",
            "check_estimators_dtypes",
            "check_dtype_object",
            "check_f_contiguous_array_estimator",
            "check_methods_sample_order_invariance",
            "check_methods_subset_invariance",
            "check_fit2d_1feature",
            "check_dict_unchanged",
            "check_fit2d_predict1d",
        )
    },
    # --- sew-il (issue 6) ---
    "SelfLearningClassifier": {
        "check_classifiers_classes": (
            "semi-supervised labels: the check's binary classes {-1, 1} make -1 the unlabeled "
            "marker (scikit-learn's convention), leaving one class"
        ),
    },
}


def all_estimators() -> list[tuple[str, type]]:
    """Every public estimator class exported by weakfs's method subpackages."""
    found: dict[str, type] = {}
    for modname in PUBLIC_SUBPACKAGES:
        module = importlib.import_module(modname)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
                found[name] = obj
    return sorted(found.items())


def _tested_estimators():
    """Instances built with their registered test parameters."""
    for name, cls in all_estimators():
        yield cls(**ESTIMATOR_TEST_PARAMS.get(name, {}))


def expected_failed_checks(estimator) -> dict[str, str]:
    return EXPECTED_FAILED_CHECKS.get(type(estimator).__name__, {})
