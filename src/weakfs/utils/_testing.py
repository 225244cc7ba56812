"""The registry of estimators for the test-suite's estimator checks.

Modelled on imbalanced-learn's ``utils/_test_common/instance_generator.py`` and scikit-learn's
``_tested_estimators``:

* :func:`all_estimators` walks every public module of weakfs and returns every ``BaseEstimator``
  subclass exported in an ``__all__``; the test-suite fails when one has no entry in
  ``ESTIMATOR_TEST_PARAMS``.
* ``ESTIMATOR_TEST_PARAMS`` maps each class to one or more keyword-argument sets, all small and
  fast, chosen where the code paths differ (objectives, risks, search strategies, kernels ...).
* ``TARGETS`` says which labels an estimator reads: ``"pu"`` (1 = labeled positive, 0 =
  unlabeled), ``"semi"`` (scikit-learn's ``-1`` = unlabeled), ``"none"`` (unsupervised) or
  ``"supervised"`` (ordinary class labels, e.g. ``PUExtraTreesClassifier(risk="PN")``).
* scikit-learn's checks build their targets through ``_enforce_estimator_tags_y``;
  :func:`weak_target_adapter` wraps it so that a PU estimator receives valid PU labels (the
  larger class of the check's target becomes the labeled one) and a semi-supervised selector a
  target with unlabeled (``-1``) rows.
* ``SKIPPED_CHECKS`` lists the checks that cannot apply to weak labels, each with the weak-label
  check of :mod:`weakfs.utils._estimator_checks` that covers what it tests;
  ``EXPECTED_FAILED_CHECKS`` the checks that fail for a reason to fix, each with that reason.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import pkgutil
from collections.abc import Callable

import numpy as np
from sklearn.base import BaseEstimator, is_classifier
from sklearn.tree import DecisionTreeClassifier

from weakfs.feature_selection import (
    PUPermutationSelector,
    SelectKByCV,
    SelectPerColumn,
    StabilitySelection,
)
from weakfs.model_selection import PUGridGreedySearch
from weakfs.preprocessing import TablePreparer
from weakfs.pu import (
    FSCPUSelector,
    GKFPUALClassifier,
    GKFPUALSelector,
    GLLCClassifier,
    LGBMOptSelector,
    MRMRSelector,
    NNPUClassifier,
    PUALClassifier,
    PUExtraTreesClassifier,
    SemiJMISelector,
    UPUClassifier,
)
from weakfs.semi_supervised import (
    CoTFSSSelector,
    JSFSSelector,
    RLSRSelector,
    SelfLearningClassifier,
    SemiFisherSelector,
    SEWILSelector,
    SSelectSelector,
    SSLSSelector,
)
from weakfs.unsupervised import UFVSSelector

__all__ = [
    "ESTIMATOR_TEST_PARAMS",
    "EXPECTED_FAILED_CHECKS",
    "SKIPPED_CHECKS",
    "TARGETS",
    "all_estimators",
    "as_pu_labels",
    "as_semi_supervised_labels",
    "check_name",
    "expected_failed_checks",
    "skipped_checks",
    "target_kind",
    "weak_target_adapter",
]


# ----------------------------------------------------------------------------------------------
# discovery
# ----------------------------------------------------------------------------------------------


def _public_modules(package: str = "weakfs") -> list[str]:
    """Every importable module of ``package`` whose dotted name has no private part.

    ``weakfs.__main__`` is private by this rule (importing it would run the command line).
    """
    root = importlib.import_module(package)
    names = [package]
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


def all_estimators() -> list[type]:
    """Every ``BaseEstimator`` subclass exported in the ``__all__`` of a public weakfs module.

    Examples
    --------
    >>> from weakfs.utils._testing import all_estimators
    >>> from weakfs.model_selection import PUGridGreedySearch
    >>> PUGridGreedySearch in all_estimators()
    True
    """
    found: dict[str, type] = {}
    for modname in _public_modules():
        module = importlib.import_module(modname)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return sorted(found.values(), key=lambda cls: cls.__name__)


# ----------------------------------------------------------------------------------------------
# the registry: class -> parameter sets
# ----------------------------------------------------------------------------------------------

_FSCPU = {"n_clusters": 2, "n_iter": 5, "random_state": 0}
# the checks' PU targets label every row of one class, so the unlabeled rows are mostly negative:
# a small prior and a larger step train the small network to the checks' accuracy in 20 epochs
_MLP = {
    "hidden_layer_sizes": (8,),
    "max_epochs": 20,
    "learning_rate": 0.01,
    "prior": 0.3,
    "random_state": 0,
}
_SEMI = {"allow_fully_labeled": True}  # scikit-learn's checks give fully labeled targets
_SEWIL = {
    "n_estimators": 3,
    "n_generations": 1,
    "population_size": 4,
    "n_parents": 2,
    "random_state": 0,
    **_SEMI,
}
_COTFSS = {"n_resamples": 2, "n_splits": 2, "random_state": 0, **_SEMI}

#: class -> list of constructor keyword arguments, one instance per dict
ESTIMATOR_TEST_PARAMS: dict[type, list[dict]] = {
    # --- PU: FSCPU and its information-theoretic baselines ---
    FSCPUSelector: [
        # FSCPU: full-covariance mixture, k-means seeds
        {"n_features_to_select": 1, **_FSCPU},
        # FSCPU-MI: the semi-JMI term, k-means clustering
        {"n_features_to_select": 1, "objective": "cluster+mi", "clustering": "kmeans", **_FSCPU},
        # a cost budget instead of k; diagonal mixture with warm starts, no cache
        {"budget": 1.0, "clustering": "gmm-diag", "warm_start": True, "cache": False, **_FSCPU},
    ],
    SemiJMISelector: [{"n_features_to_select": 1}, {"n_features_to_select": None, "n_bins": 3}],
    StabilitySelection: [
        {"estimator": SemiJMISelector(1), "n_resamples": 3, "random_state": 0},
        {
            "estimator": SemiJMISelector(1),
            "n_resamples": 3,
            "resample": "half",
            "n_features_to_select": 1,
            "random_state": 0,
        },
    ],
    SelectKByCV: [
        {"estimator": SemiJMISelector(), "ks": [1, 2], "cv": 2, "prior": 0.6, "random_state": 0}
    ],
    PUPermutationSelector: [
        {
            "estimator": DecisionTreeClassifier(max_depth=2, random_state=0),
            "n_features_to_select": 1,
            "prior": 0.6,
            "n_repeats": 2,
            "random_state": 0,
        }
    ],
    SelectPerColumn: [
        {"estimator": SemiJMISelector(), "n_columns_to_select": 1},
        {
            "estimator": PUExtraTreesClassifier(n_estimators=3, prior=0.9, random_state=0),
            "aggregate": "sum",
        },
    ],
    MRMRSelector: [
        {"n_features_to_select": 1},
        # the quotient without its guard (miq_eps=0 takes the zero-redundancy branch)
        {"n_features_to_select": 0.5, "miq_eps": 0.0, "n_bins": 3},
    ],
    # --- PU: PU Extra Trees ---
    PUExtraTreesClassifier: [
        # PU ET: nnPU risk, quadratic loss, random cut points, hard voting (the checks' PU
        # targets label whole classes: the prior must be at least their labeled share, which
        # reaches 0.825 in the sparse-input checks)
        {"n_estimators": 5, "prior": 0.9, "random_state": 0},
        # the paper's PU random forest under uPU: best splits on bootstraps, savage loss
        {
            "n_estimators": 5,
            "risk": "uPU",
            "loss": "savage",
            "splitter": "best",
            "bootstrap": True,
            "prior": 0.9,
            "random_state": 0,
        },
        # case-control U, logistic loss, soft voting, normalised importances, shallow trees
        {
            "n_estimators": 5,
            "loss": "logistic",
            "unlabeled": "unlabeled",
            "voting": "soft",
            "importance": "normalized",
            "max_depth": 3,
            "max_features": None,
            "prior": 0.5,
            "random_state": 0,
        },
        # PN ET: ordinary trees on fully labeled binary data (targets: any two classes)
        {"n_estimators": 5, "risk": "PN", "loss": "sigmoid", "random_state": 0},
    ],
    # --- PU: GKF-PUAL and its baselines ---
    GKFPUALClassifier: [
        {"C2": 1.0, "sigma": 0.1, "max_iter": 1000},
        # KF-PUAL (no group lasso), fixed ADMM penalties as in the paper, no standardisation
        {
            "C2": 1.0,
            "lambda1": 0.0,
            "mu": (0.1, 0.1, 0.1, 0.1),
            "adaptive_mu": False,
            "standardize": False,
            "max_iter": 100,  # stops before convergence: the max_iter exit
        },
    ],
    LGBMOptSelector: [{"n_features_to_select": 0.5, "n_iter": 4, "random_state": 0}],
    GKFPUALSelector: [
        {},  # the default classifier
        {"estimator": GKFPUALClassifier(C2=1.0, lambda1=0.01, sigma=0.5, max_iter=500)},
        # exactly one feature, chosen along a short λ1 path (few ADMM steps per solve: the
        # checks test the interface, and the bisection for k solves a dozen times per fit)
        {
            "estimator": GKFPUALClassifier(C2=1.0, sigma=0.5, max_iter=50),
            "n_features_to_select": 1,
            "n_lambdas": 3,
        },
    ],
    PUALClassifier: [{}, {"kernel": "linear", "standardize": False, "n_neighbors": 3}],
    GLLCClassifier: [
        {},
        # linear GLLC needs the unlabeled rows weighed up to fit the checks' targets, where every
        # positive is labeled (C2 = 0.5 is in the paper's grid)
        {"kernel": "linear", "C2": 0.5, "standardize": False, "n_neighbors": 3},
    ],
    UPUClassifier: [_MLP, {**_MLP, "hidden_layer_sizes": (4, 4), "batch_size": 32}],
    NNPUClassifier: [_MLP, {**_MLP, "batch_size": 32, "beta": 0.1, "gamma": 0.5}],
    # --- semi-supervised ---
    SelfLearningClassifier: [
        {"n_estimators": 10, "random_state": 0, **_SEMI},
        # a user estimator with a fixed threshold and a capped number of rounds
        {
            "estimator": DecisionTreeClassifier(max_depth=3, random_state=0),
            "threshold": 0.7,
            "max_iter": 2,
            "n_grid": 10,
            **_SEMI,
        },
    ],
    SEWILSelector: [
        # FSGA with CBIL, vote over the final population, relevance test
        _SEWIL,
        # FSGA variant: best candidate, length mutation, no relevance test, C-bound
        {
            **_SEWIL,
            "criterion": "cb",
            "final": "best",
            "length_mutation": True,
            "relevance_test": False,
        },
        # classic GA with the out-of-bag error
        {**_SEWIL, "search": "cga", "criterion": "oob"},
        # forward search with the transductive bound
        {**_SEWIL, "search": "fss", "criterion": "tb", "n_features_to_select": 0.2},
    ],
    SemiFisherSelector: [
        {"n_features_to_select": 1, "n_neighbors": 5, **_SEMI},
        {"n_neighbors": 3, "lam": 0.5, "delta": 0.0, **_SEMI},  # "auto": ceil(d ** (2/3))
    ],
    SSLSSelector: [
        {"n_features_to_select": 1, "n_neighbors": 5, **_SEMI},
        {"n_features_to_select": 0.5, "n_neighbors": 3, "sigma": 1.0, **_SEMI},
    ],
    JSFSSelector: [
        {"n_features_to_select": 1, **_SEMI},
        {
            "n_features_to_select": 0.5,
            "n_neighbors": 3,
            "mu": 1.0,
            "gamma": 0.1,
            "max_iter": 5,
            "fit_intercept": False,
            **_SEMI,
        },
    ],
    SSelectSelector: [
        {"n_features_to_select": 1, "n_neighbors": 3, **_SEMI},
        {
            "n_features_to_select": 0.5,
            "n_neighbors": 2,
            "lam": 0.5,
            "sigma": 1.0,
            "average_method": "max",
            **_SEMI,
        },
    ],
    RLSRSelector: [
        {"n_features_to_select": 1, "max_iter": 5, **_SEMI},
        {"n_features_to_select": 0.5, "gamma": 1.0, "max_iter": 3, "max_inner": 2, **_SEMI},
    ],
    CoTFSSSelector: [
        {"n_features_to_select": 1, "n_start": 0, **_COTFSS},
        # a random start, one feature per step, smaller resamples
        {
            "n_features_to_select": 0.3,
            "n_start": 1,
            "n_add": 1,
            "resample_fraction": 0.3,
            **_COTFSS,
            "n_resamples": 1,
        },
    ],
    # --- unsupervised ---
    TablePreparer: [{}, {"impute": "median"}],
    UFVSSelector: [
        {},
        {"min_count": 1, "n_bins": 3, "keep_discrete_up_to": 3},
        {"threshold": 0.2, "zero_as_absent": True},
    ],
    # --- model selection ---
    PUGridGreedySearch: [
        # grid then greedy moves
        {
            "estimator": GLLCClassifier(kernel="linear"),
            "param_grid": {"C2": [0.1, 1.0]},
            "cv": 2,
            "max_greedy_rounds": 1,
            "random_state": 0,
        },
        # grid only, a tree ensemble with predict_proba
        {
            "estimator": PUExtraTreesClassifier(n_estimators=3, prior="auto", random_state=0),
            "param_grid": {"max_depth": [1, 3]},
            "greedy_params": [],
            "cv": 2,
            "random_state": 0,
        },
        # the one-standard-error rule on the penalty
        {
            "estimator": GLLCClassifier(kernel="linear"),
            "param_grid": {"C2": [0.1, 1.0], "lam": [0.1, 10.0]},
            "greedy_params": [],
            "cv": 2,
            "selection": {"lam": "1se"},
            "random_state": 0,
        },
    ],
}

#: class -> the labels its ``fit`` reads (see the module docstring)
TARGETS: dict[type, str | Callable] = {
    **dict.fromkeys(
        [
            FSCPUSelector,
            LGBMOptSelector,
            SemiJMISelector,
            MRMRSelector,
            GKFPUALClassifier,
            GKFPUALSelector,
            PUALClassifier,
            GLLCClassifier,
            UPUClassifier,
            NNPUClassifier,
            PUGridGreedySearch,
            SelectPerColumn,
            StabilitySelection,
            SelectKByCV,
            PUPermutationSelector,
        ],
        "pu",
    ),
    PUExtraTreesClassifier: lambda est: "supervised" if est.risk == "PN" else "pu",
    **dict.fromkeys(
        [
            SelfLearningClassifier,
            SEWILSelector,
            SemiFisherSelector,
            SSLSSelector,
            RLSRSelector,
            CoTFSSSelector,
            SSelectSelector,
            JSFSSelector,
        ],
        "semi",
    ),
    TablePreparer: "none",
    UFVSSelector: "none",
}


def target_kind(estimator) -> str:
    """``"pu"``, ``"semi"``, ``"none"`` or ``"supervised"``: the labels ``estimator`` reads."""
    kind = TARGETS[type(estimator)]
    return kind(estimator) if callable(kind) else kind


def _tested_estimators():
    """One instance per registered parameter set (parameters deep-copied: never shared).

    An unregistered class yields nothing: ``test_every_public_estimator_is_registered`` names it.
    """
    for cls in all_estimators():
        for params in ESTIMATOR_TEST_PARAMS.get(cls, []):
            yield cls(**copy.deepcopy(params))


# ----------------------------------------------------------------------------------------------
# scikit-learn's checks with weak labels
# ----------------------------------------------------------------------------------------------


def as_pu_labels(y):
    """PU labels (1 = labeled, 0 = unlabeled) made from any target a check builds.

    The largest class becomes the labeled one (a continuous target: the values above the
    median); a target that already is PU-coded keeps its meaning.  The shape (1-D or a column) is
    kept.

    Examples
    --------
    >>> as_pu_labels([1, 2, 2, 1]).tolist(), as_pu_labels([-1, 1, 1]).tolist()
    ([0, 1, 1, 0], [0, 1, 1])
    >>> as_pu_labels([0.1, 0.7, 0.3, 0.9]).tolist()
    [0, 1, 0, 1]
    """
    y = np.asarray(y)
    if y.size == 0 or y.ndim > 2 or (y.ndim == 2 and y.shape[1] != 1):
        return y
    flat = y.reshape(-1)
    if flat.dtype.kind == "f" and not np.all(np.isfinite(flat)):
        return y  # the check is about non-finite targets: leave them
    if flat.dtype.kind == "f" and not np.all(flat == np.round(flat)):
        s = flat > np.median(flat)
    elif flat.dtype.kind in "biuf" and np.isin(flat, (-1, 0, 1)).all():
        s = flat == 1
    else:
        s = flat == np.unique(flat)[-1]
    return s.astype(np.int64).reshape(y.shape)


def as_semi_supervised_labels(y):
    """The target of a check with every third row unlabeled (``-1``), where a class can spare it.

    A row is hidden only if its class keeps at least two labeled rows; a continuous target is
    first cut at its median into two classes; a target already holding ``-1``, or of fewer than
    6 rows, is left as it is.  The shape is kept; a string target becomes an object array.

    Examples
    --------
    >>> as_semi_supervised_labels([0, 1, 0, 1, 0, 1, 0, 1, 0]).tolist()
    [0, 1, -1, 1, 0, -1, 0, 1, -1]
    """
    y = np.asarray(y)
    if y.size < 6 or y.ndim > 2 or (y.ndim == 2 and y.shape[1] != 1):
        return y
    flat = y.reshape(-1)
    if flat.dtype.kind == "f" and not np.all(np.isfinite(flat)):
        return y
    if flat.dtype.kind == "f" and not np.all(flat == np.round(flat)):
        flat = (flat > np.median(flat)).astype(np.int64)
    elif flat.dtype.kind not in "biuf":
        flat = flat.astype(object)
    elif flat.dtype.kind == "b":
        flat = flat.astype(np.int64)
    if np.any(flat == -1):
        return y
    out = flat.copy()
    left = {value: int(np.sum(flat == value)) for value in np.unique(flat)}
    for i in range(2, flat.shape[0], 3):
        if left[flat[i]] > 2:
            left[flat[i]] -= 1
            out[i] = -1
    return out.reshape(y.shape)


def weak_target_adapter(enforce: Callable) -> Callable:
    """Wrap scikit-learn's ``_enforce_estimator_tags_y`` so that its checks feed weak labels.

    scikit-learn's checks build multi-class, ``{1, 2}`` or continuous targets and adapt them to an
    estimator only through its tags; no tag says "PU labels" or "semi-supervised labels", so the
    test-suite patches the adapter: a PU estimator gets :func:`as_pu_labels`, a semi-supervised
    selector :func:`as_semi_supervised_labels`.  A semi-supervised *classifier* keeps the fully
    labeled target (registered with ``allow_fully_labeled=True``): the classifier checks score its
    predictions against that target.
    """

    def _enforce_weak_labels(estimator, y):
        y = enforce(estimator, y)
        kind = target_kind(estimator)
        if kind == "pu":
            return as_pu_labels(y)
        if kind == "semi" and not is_classifier(estimator):
            return as_semi_supervised_labels(y)
        return y

    return _enforce_weak_labels


def check_name(check) -> str:
    """Name of a (possibly ``functools.partial``) check function."""
    return getattr(check, "func", check).__name__


# ----------------------------------------------------------------------------------------------
# checks that cannot apply, and checks expected to fail
# ----------------------------------------------------------------------------------------------

_PU_CLASSES = (
    "PU classes are fixed: classes_ is [0, 1] (1 = labeled positive) whatever the coding of y, "
    "and class names (strings, {1, 2}) are rejected by design; covered by "
    "check_weak_classifier_classes"
)

#: class -> {check name: reason} (or a function of the instance returning it); the check is
#: skipped: it cannot apply to weak labels
SKIPPED_CHECKS: dict[type, dict[str, str] | Callable] = {
    **{
        cls: {"check_classifiers_classes": _PU_CLASSES}
        for cls in (
            GKFPUALClassifier,
            PUALClassifier,
            GLLCClassifier,
            UPUClassifier,
            NNPUClassifier,
            PUGridGreedySearch,
        )
    },
    PUExtraTreesClassifier: lambda est: (
        {"check_classifiers_classes": _PU_CLASSES} if target_kind(est) == "pu" else {}
    ),
    SEWILSelector: lambda est: (
        dict.fromkeys(
            [
                "check_transformer_general",
                "check_transformer_data_not_an_array",
                "check_transformer_preserve_dtypes",
            ],
            "the check fits on its own fully labeled target (not through "
            "_enforce_estimator_tags_y) and the transductive bound needs unlabeled rows; "
            "covered by the weak-label checks, which feed -1 rows",
        )
        if est.criterion == "tb"
        else {}
    ),
    SelfLearningClassifier: {
        "check_classifiers_classes": (
            "semi-supervised labels: the check's classes {-1, 1} make -1 the unlabeled marker "
            "(scikit-learn's convention), leaving one class; string and integer classes with "
            "unlabeled rows are covered by check_weak_classifier_classes"
        ),
    },
}

#: class -> {check name: reason} (or a function of the instance returning it); the check is run
#: and expected to fail (xfail): a defect to fix
EXPECTED_FAILED_CHECKS: dict[type, dict[str, str] | Callable] = {}


def _for_instance(table: dict, estimator) -> dict[str, str]:
    entry = table.get(type(estimator), {})
    return dict(entry(estimator) if callable(entry) else entry)


_SKLEARN_16_POSITIVE_ONLY = "scikit-learn < 1.7: the check itself fails (X -= X.mean() on int32)"


def skipped_checks(estimator) -> dict[str, str]:
    """``{check name: reason}`` of the scikit-learn checks skipped for this instance."""
    skipped = _for_instance(SKIPPED_CHECKS, estimator)
    from sklearn import __version__ as sklearn_version

    # scikit-learn 1.6's check centres an int32 table in place (fixed in 1.7)
    if tuple(int(p) for p in sklearn_version.split(".")[:2]) < (1, 7):
        skipped.setdefault("check_positive_only_tag_during_fit", _SKLEARN_16_POSITIVE_ONLY)
    return skipped


def expected_failed_checks(estimator) -> dict[str, str]:
    """``{check name: reason}`` of the scikit-learn checks expected to fail for this instance."""
    return _for_instance(EXPECTED_FAILED_CHECKS, estimator)
