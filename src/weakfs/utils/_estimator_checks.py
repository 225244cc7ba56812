"""Estimator checks with valid weak labels: scikit-learn's invariants, fed PU or semi-supervised
targets.

scikit-learn's own checks build multi-class or continuous targets; the test-suite adapts them
(:func:`weakfs.utils._testing.weak_target_adapter`), but the invariants that matter most are
checked here again, directly on data with valid weak labels (:func:`make_weak_data`):

* ``check_weak_fit_idempotent``: ``fit`` twice, or after a fit on other data, gives the same model;
* ``check_weak_n_jobs_invariance``: results do not depend on ``n_jobs``;
* ``check_weak_pickle``: a pickling round-trip gives identical outputs;
* ``check_weak_inputs_unchanged``: ``fit`` and the output methods never write to ``X`` or ``y``
  (arrays, read-only arrays, DataFrames and Series), and read-only inputs give the same model;
* ``check_weak_dtypes``: float64, float32 and integer ``X`` are accepted (integer-valued data give
  the same model as float64), the selectors' ``transform`` keeps the dtype;
* ``check_weak_label_codings``: every accepted coding of the labels gives the same model;
* ``check_weak_invalid_labels``: labels that are not weak labels of the estimator's kind raise;
* ``check_weak_random_state``: the same ``random_state`` gives the same model;
* ``check_weak_feature_names``: ``feature_names_in_``, ``get_feature_names_out`` and pandas output;
* ``check_weak_classifier_classes``: ``classes_``, ``predict``, ``decision_function`` and
  ``predict_proba`` agree, whatever the coding of the labels.

Every check takes an unfitted instance (never modified: checks work on clones) and reads the
estimator's kind of labels from :func:`weakfs.utils._testing.target_kind`.
"""

from __future__ import annotations

import pickle
import warnings
from collections.abc import Callable, Iterator

import numpy as np
import pandas as pd
from joblib import parallel_config
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.base import clone, is_classifier

from weakfs.utils._testing import target_kind

__all__ = [
    "check_weak_classifier_classes",
    "check_weak_dtypes",
    "check_weak_feature_names",
    "check_weak_fit_idempotent",
    "check_weak_inputs_unchanged",
    "check_weak_invalid_labels",
    "check_weak_label_codings",
    "check_weak_n_jobs_invariance",
    "check_weak_pickle",
    "check_weak_random_state",
    "make_weak_data",
    "yield_weak_checks",
]

_OUTPUT_METHODS = ("predict", "predict_proba", "decision_function", "transform")


def make_weak_data(kind: str, *, n_samples: int = 40, n_features: int = 4, random_state=0):
    """A small problem with valid labels of ``kind`` (``y`` is ``None`` for ``"none"``).

    ``X`` is standard normal; the positives (class 1) are the rows with
    ``X[:, 0] + 0.5 X[:, 1] > 0``.  PU labels mark about 60 % of the positives (``1``) and leave the
    rest unlabeled (``0``); semi-supervised labels hide about half the rows (``-1``).  At least four
    rows of each kind (labeled / unlabeled, each class) are kept labeled.

    Examples
    --------
    >>> X, s = make_weak_data("pu")
    >>> X.shape, sorted(set(s.tolist()))
    ((40, 4), [0, 1])
    >>> X, y = make_weak_data("semi")
    >>> sorted(set(y.tolist()))
    [-1, 0, 1]
    """
    rng = np.random.RandomState(random_state)
    X = rng.normal(size=(n_samples, n_features))
    y_true = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(np.int64)
    if kind == "none":
        return X, None
    if kind == "supervised":
        return X, y_true
    positives = np.flatnonzero(y_true == 1)
    if kind == "pu":
        s = (y_true.astype(bool) & (rng.uniform(size=n_samples) < 0.6)).astype(np.int64)
        s[positives[:4]] = 1  # enough labeled rows for 2-fold searches and the PU checks
        return X, s
    if kind == "semi":
        y = y_true.copy()
        hidden = rng.uniform(size=n_samples) < 0.5
        for c in (0, 1):
            hidden[np.flatnonzero(y_true == c)[:4]] = False
        y[hidden] = -1
        return X, y
    raise ValueError(f"unknown kind of labels {kind!r}")


# ----------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------


def _fit(estimator, X, y):
    """Fit ``estimator`` (unsupervised ones without ``y``)."""
    if y is None:
        return estimator.fit(X)
    return estimator.fit(X, y)


def _outputs(estimator, X) -> dict:
    """Every output of a fitted estimator on ``X``: predictions, scores, transform, support."""
    out = {}
    for method in _OUTPUT_METHODS:
        if hasattr(estimator, method):
            out[method] = getattr(estimator, method)(X)
    if hasattr(estimator, "get_support"):
        out["get_support"] = estimator.get_support()
    if hasattr(estimator, "get_feature_names_out"):
        out["get_feature_names_out"] = estimator.get_feature_names_out()
    return out


def _dense(value):
    if sparse.issparse(value):
        value = value.toarray()
    if isinstance(value, pd.DataFrame | pd.Series):
        value = value.to_numpy()
    return np.asarray(value)


def _assert_same_outputs(expected: dict, actual: dict, what: str) -> None:
    assert expected.keys() == actual.keys(), f"{what}: outputs {expected.keys()} != {actual.keys()}"
    for key, value in expected.items():
        a, b = _dense(value), _dense(actual[key])
        msg = f"{what}: {key} differs"
        assert a.shape == b.shape, f"{msg} in shape ({a.shape} != {b.shape})"
        if a.dtype.kind == "f" or b.dtype.kind == "f":
            assert_allclose(a.astype(float), b.astype(float), rtol=1e-7, atol=1e-9, err_msg=msg)
        else:
            assert_array_equal(a, b, err_msg=msg)


def _fitted_outputs(estimator, X, y, X_eval=None) -> dict:
    est = _fit(clone(estimator), X, y)
    return _outputs(est, X if X_eval is None else X_eval)


def _with_params(estimator, **params):
    est = clone(estimator)
    return est.set_params(**{k: v for k, v in params.items() if k in est.get_params(deep=False)})


def _frame(X) -> pd.DataFrame:
    return pd.DataFrame(X, columns=[f"col_{j}" for j in range(X.shape[1])])


# ----------------------------------------------------------------------------------------------
# the checks
# ----------------------------------------------------------------------------------------------


def check_weak_fit_idempotent(estimator) -> None:
    """``fit(X, y)`` twice, and ``fit(X2, y2).fit(X, y)``, give the model of one ``fit(X, y)``."""
    kind = target_kind(estimator)
    X, y = make_weak_data(kind)
    X_other, y_other = make_weak_data(kind, n_samples=30, random_state=1)
    est = _fit(clone(estimator), X, y)
    first = _outputs(est, X)
    _assert_same_outputs(first, _outputs(_fit(est, X, y), X), "fit twice")
    _fit(est, X_other, y_other)
    _assert_same_outputs(first, _outputs(_fit(est, X, y), X), "fit on other data, then refit")


def check_weak_n_jobs_invariance(estimator) -> None:
    """``n_jobs=1`` and ``n_jobs=2`` give the same model (threads: no process start-up)."""
    X, y = make_weak_data(target_kind(estimator))
    with parallel_config(backend="threading"), warnings.catch_warnings():
        # scikit-learn's forests warn about rows never out of bag; weakfs silences it inside its
        # workers, which a warnings filter cannot do reliably from several threads
        warnings.filterwarnings("ignore", message="Some inputs do not have OOB scores")
        one = _fitted_outputs(_with_params(estimator, n_jobs=1), X, y)
        two = _fitted_outputs(_with_params(estimator, n_jobs=2), X, y)
    _assert_same_outputs(one, two, "n_jobs=1 vs n_jobs=2")


def check_weak_pickle(estimator) -> None:
    """A pickled and unpickled fitted estimator gives identical outputs (and refits the same)."""
    X, y = make_weak_data(target_kind(estimator))
    est = _fit(clone(estimator), X, y)
    restored = pickle.loads(pickle.dumps(est))
    _assert_same_outputs(_outputs(est, X), _outputs(restored, X), "pickle round-trip")
    _assert_same_outputs(
        _outputs(est, X), _outputs(_fit(restored, X, y), X), "refit after unpickling"
    )


def check_weak_inputs_unchanged(estimator) -> None:
    """``fit`` and the outputs never write to ``X`` or ``y``; read-only inputs, DataFrames and
    Series give the model of writable arrays."""
    X, y = make_weak_data(target_kind(estimator))
    X_orig = X.copy()
    y_orig = None if y is None else y.copy()
    est = _fit(clone(estimator), X, y)
    expected = _outputs(est, X)
    assert_array_equal(X, X_orig, err_msg="fit or an output method changed X")
    if y is not None:
        assert_array_equal(y, y_orig, err_msg="fit changed y")

    X_ro = X.copy()
    X_ro.setflags(write=False)
    y_ro = None
    if y is not None:
        y_ro = y.copy()
        y_ro.setflags(write=False)
    _assert_same_outputs(expected, _fitted_outputs(estimator, X_ro, y_ro), "read-only X and y")

    df = _frame(X)
    df_orig = df.copy()
    y_series = None if y is None else pd.Series(y, name="target")
    est_df = _fit(clone(estimator), df, y_series)
    out_df = _outputs(est_df, df)
    pd.testing.assert_frame_equal(df, df_orig, obj="X given as a DataFrame")
    if y is not None:
        pd.testing.assert_series_equal(y_series, pd.Series(y_orig, name="target"))
    out_df.pop("get_feature_names_out", None)
    expected = {k: v for k, v in expected.items() if k != "get_feature_names_out"}
    _assert_same_outputs(expected, out_df, "X as a DataFrame, y as a Series")


def check_weak_dtypes(estimator) -> None:
    """float64, float32, int64 and int32 ``X`` are accepted; integer-valued data give the same
    model whatever their dtype; a feature selector's ``transform`` keeps the input dtype."""
    kind = target_kind(estimator)
    X, y = make_weak_data(kind)
    X_int = np.round(2 * X)
    expected = _fitted_outputs(estimator, X_int, y)
    for dtype in (np.int64, np.int32):
        _assert_same_outputs(
            expected,
            _fitted_outputs(estimator, X_int.astype(dtype), y, X_int.astype(dtype)),
            f"X of dtype {np.dtype(dtype).name} vs float64 with the same values",
        )
    for dtype in (np.float32, np.float64):
        est = _fit(clone(estimator), X.astype(dtype), y)
        out = _outputs(est, X.astype(dtype))
        if "predict" in out:
            assert out["predict"].shape == (X.shape[0],)
            if hasattr(est, "classes_"):
                assert np.isin(out["predict"], est.classes_).all()
        if "get_support" in out:
            # a feature selector returns columns of X: their dtype is kept
            assert out["transform"].dtype == dtype, (
                f"transform of {np.dtype(dtype).name} data gave {out['transform'].dtype}"
            )


def _label_codings(kind: str, y) -> list[tuple[str, object]]:
    """Other accepted codings of labels ``y`` of ``kind`` (each means exactly the same)."""
    if kind == "pu":
        return [
            ("bool", y.astype(bool)),
            ("float", y.astype(float)),
            ("int8", y.astype(np.int8)),
            ("-1 for unlabeled", np.where(y == 1, 1, -1)),
            ("list", y.tolist()),
            ("column vector", y.reshape(-1, 1)),
        ]
    if kind == "semi":
        return [
            ("float", y.astype(float)),
            ("int32", y.astype(np.int32)),
            ("list", y.tolist()),
        ]
    if kind == "supervised":
        return [("float", y.astype(float)), ("list", y.tolist())]
    return []


def check_weak_label_codings(estimator) -> None:
    """Every accepted coding of the labels (bool, float, -1 for unlabeled ...) gives the model of
    the int64 labels."""
    kind = target_kind(estimator)
    X, y = make_weak_data(kind)
    if y is None:
        return
    expected = _fitted_outputs(estimator, X, y)
    for name, coded in _label_codings(kind, y):
        with warnings.catch_warnings():
            # a column vector is raveled with scikit-learn's DataConversionWarning
            warnings.simplefilter("ignore")
            actual = _fitted_outputs(estimator, X, coded)
        _assert_same_outputs(expected, actual, f"labels coded as {name}")


def _invalid_labels(kind: str, y) -> list[tuple[str, object]]:
    n = y.shape[0]
    if kind == "pu":
        return [
            ("a third value (2)", np.where(np.arange(n) % 5 == 0, 2, y)),
            ("no labeled row", np.zeros(n, dtype=np.int64)),
            ("no unlabeled row", np.ones(n, dtype=np.int64)),
            ("class names", np.where(y == 1, "spam", "ham")),
            ("a continuous target", np.linspace(0.1, 0.9, n)),
        ]
    if kind == "semi":
        return [
            ("no labeled row", np.full(n, -1)),
            ("one class among the labeled rows", np.where(y == 1, 1, -1)),
        ]
    return []


def check_weak_invalid_labels(estimator) -> None:
    """Labels that are not weak labels of the estimator's kind raise a ``ValueError``."""
    kind = target_kind(estimator)
    X, y = make_weak_data(kind)
    for name, bad in _invalid_labels(kind, y) if y is not None else []:
        try:
            _fit(clone(estimator), X, bad)
        except ValueError:
            continue
        raise AssertionError(f"{type(estimator).__name__} accepted labels with {name}")
    if kind == "semi" and "allow_fully_labeled" in estimator.get_params():
        fully = np.where(y == -1, 0, y)
        try:
            _fit(_with_params(estimator, allow_fully_labeled=False), X, fully)
        except ValueError:
            pass
        else:
            raise AssertionError("fully labeled y accepted with allow_fully_labeled=False")
        try:
            _fit(_with_params(estimator, allow_fully_labeled=True), X, fully)
        except ValueError as exc:  # only a method defined by its unlabeled rows may refuse
            assert "unlabeled rows" in str(exc), str(exc)


def check_weak_random_state(estimator) -> None:
    """Two clones with the same ``random_state`` (int or ``RandomState``) give the same model."""
    X, y = make_weak_data(target_kind(estimator))
    for seed in (0, np.random.RandomState(0)):
        a = _fitted_outputs(_with_params(estimator, random_state=seed), X, y)
        b = _fitted_outputs(_with_params(estimator, random_state=seed), X, y)
        _assert_same_outputs(a, b, f"random_state={seed!r} twice")


def check_weak_feature_names(estimator) -> None:
    """DataFrame input sets ``feature_names_in_``; ``get_feature_names_out`` names the output
    columns (a selector: its selected input columns), also in pandas output; other column names
    at predict/transform time are an error."""
    X, y = make_weak_data(target_kind(estimator))
    df = _frame(X)
    est = _fit(clone(estimator), df, y)
    assert_array_equal(est.feature_names_in_, df.columns.to_numpy(dtype=object))
    renamed = df.rename(columns=lambda c: c.upper())
    for method in _OUTPUT_METHODS:
        if hasattr(est, method):
            try:
                getattr(est, method)(renamed)
            except ValueError as exc:
                assert "feature names" in str(exc), str(exc)
            else:
                raise AssertionError(f"{method} accepted other column names than fit's")
    if not hasattr(est, "get_feature_names_out"):
        return
    names = est.get_feature_names_out()
    if hasattr(est, "get_support"):
        assert_array_equal(names, df.columns[est.get_support()].to_numpy(dtype=object))
    est_np = _fit(clone(estimator), X, y)
    default = np.array([f"x{j}" for j in range(X.shape[1])], dtype=object)
    if hasattr(est_np, "get_support"):
        assert_array_equal(est_np.get_feature_names_out(), default[est_np.get_support()])
    assert_array_equal(est_np.get_feature_names_out(list(df.columns)), names)
    try:
        est_np.get_feature_names_out(["a", "b"])
    except ValueError:
        pass
    else:
        raise AssertionError("get_feature_names_out accepted input_features of the wrong length")
    pandas_est = _fit(clone(estimator).set_output(transform="pandas"), df, y)
    out = pandas_est.transform(df)
    assert isinstance(out, pd.DataFrame), type(out)
    assert_array_equal(out.columns.to_numpy(dtype=object), names)
    assert out.index.equals(df.index)


def _class_codings(kind: str, y) -> list[tuple[object, np.ndarray]]:
    """``(labels, expected classes_)`` pairs for a classifier of ``kind``."""
    if kind == "pu":
        return [
            (y, np.array([0, 1])),
            (y.astype(bool), np.array([0, 1])),
            (np.where(y == 1, 1, -1), np.array([0, 1])),
        ]
    if kind == "semi":
        names = np.array(["neg", "pos"], dtype=object)
        as_names = np.where(y == -1, -1, names[np.clip(y, 0, 1)]).astype(object)
        return [
            (y, np.array([0, 1])),
            (np.where(y == -1, -1, np.where(y == 1, 7, 3)), np.array([3, 7])),
            (as_names, names),
        ]
    if kind == "supervised":
        return [(y, np.array([0, 1])), (np.where(y == 1, "b", "a"), np.array(["a", "b"]))]
    return []


def check_weak_classifier_classes(estimator) -> None:
    """``classes_`` is what the labels mean, ``predict`` returns classes, ``decision_function``
    has the sign of ``predict`` and ``predict_proba`` rows are distributions."""
    kind = target_kind(estimator)
    X, y = make_weak_data(kind)
    for labels, classes in _class_codings(kind, y):
        est = _fit(clone(estimator), X, labels)
        assert_array_equal(est.classes_, classes)
        pred = est.predict(X)
        assert pred.shape == (X.shape[0],)
        assert np.isin(pred, est.classes_).all(), f"predict returned {np.unique(pred)}"
        if hasattr(est, "decision_function"):
            decision = np.asarray(est.decision_function(X))
            if len(classes) == 2:
                assert_array_equal(est.classes_[(decision > 0).astype(int)], pred)
        if hasattr(est, "predict_proba"):
            proba = est.predict_proba(X)
            assert proba.shape == (X.shape[0], len(classes))
            assert np.all((proba >= 0) & (proba <= 1))
            assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-7)


def yield_weak_checks(estimator) -> Iterator[Callable]:
    """The weak-label checks that apply to ``estimator``."""
    params = estimator.get_params(deep=False)
    yield check_weak_fit_idempotent
    if "n_jobs" in params:
        yield check_weak_n_jobs_invariance
    yield check_weak_pickle
    yield check_weak_inputs_unchanged
    yield check_weak_dtypes
    if target_kind(estimator) != "none":
        yield check_weak_label_codings
        yield check_weak_invalid_labels
    if "random_state" in params:
        yield check_weak_random_state
    yield check_weak_feature_names
    if is_classifier(estimator):
        yield check_weak_classifier_classes
