"""The public functions check their arguments with scikit-learn's ``validate_params``, as
scikit-learn's own public functions do: a bad argument is an ``InvalidParameterError`` (a
ValueError and a TypeError) naming the parameter, the function and what it accepts."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from weakfs.compare import compare_selectors, rarest_labeled_group
from weakfs.datasets import make_informative_noise, make_pu_labels
from weakfs.feature_selection import default_k_grid
from weakfs.metrics import pu_roc_auc_score, selection_stability
from weakfs.model_selection import make_pu_scorer
from weakfs.pu import check_scar, estimate_class_prior, resolve_class_prior
from weakfs.semi_supervised import self_learn


def _pu(n=200, d=6, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    return X, y * (rng.rand(n) < 0.5)


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda X, s: estimate_class_prior(X, s, method="km2"), "method"),
        (lambda X, s: estimate_class_prior(X, s, n_bootstrap=2.5), "n_bootstrap"),
        (lambda X, s: resolve_class_prior(X, s, prior=1.5), "prior"),
        (lambda X, s: resolve_class_prior(X, s, unlabeled="most"), "unlabeled"),
        (lambda X, s: make_pu_labels(s, labeled_fraction=0.5, mechanism="biased"), "mechanism"),
        (lambda X, s: make_pu_labels(s, n_labeled=0), "n_labeled"),
        (lambda X, s: check_scar(X, s, alpha=2.0), "alpha"),
        (lambda X, s: compare_selectors(X, s, cv=1), "cv"),
        (lambda X, s: compare_selectors(X, s, budget=0), "budget"),
        (lambda X, s: compare_selectors(X, s, n_random=0), "n_random"),
        (lambda X, s: pu_roc_auc_score(s, X[:, 0], prior=1.5), "prior"),
        (lambda X, s: selection_stability(X > 0, confidence=2.0), "confidence"),
        (lambda X, s: make_pu_scorer("auc", prior=0.3), "metric"),
        (lambda X, s: default_k_grid(0), "n_features"),
        (lambda X, s: make_informative_noise(positive_share=1.5), "positive_share"),
        (lambda X, s: self_learn(X, s, make_estimator=None), "make_estimator"),
        (lambda X, s: rarest_labeled_group(s, "none"), "kind"),
    ],
)
def test_a_bad_argument_is_named_by_validate_params(call, parameter):
    X, s = _pu()
    with pytest.raises(InvalidParameterError, match=f"'{parameter}' parameter of"):
        call(X, s)


def test_compare_refuses_missing_values_in_X_and_names_their_columns():
    X, s = _pu()
    X[3, 2], X[5, 4] = np.nan, np.inf
    with pytest.raises(ValueError, match=r"X holds 2 missing or infinite values .* \(x2, x4\)"):
        compare_selectors(X, s, prior=0.5)


def test_compare_on_a_table_without_rows_says_so():
    with pytest.raises(ValueError, match="the table has no rows"):
        compare_selectors(np.empty((0, 3)), np.empty(0), prior=0.5)


def test_compare_reads_labels_through_the_label_module():
    # -1 marks unlabeled rows of PU labels too (check_pu_labels' vocabulary)
    X, s = _pu()
    pu_minus = np.where(s == 1, 1, -1)
    board = compare_selectors(
        X, pu_minus, methods=["mrmr"], ks=[2], cv=2, n_random=1, prior=0.5, budget=None
    )
    assert board.attrs["labels"] == "pu"
    with pytest.raises(ValueError, match=r"y must hold PU labels .* it holds \[0, 1, 2\]"):
        compare_selectors(X, np.arange(len(s)) % 3, prior=0.5)


def test_compare_returns_its_notes_on_the_board():
    X, s = _pu()
    with pytest.raises(TypeError):
        compare_selectors(X, s, notes=[])  # no output argument
    board = compare_selectors(X, s, methods=["mrmr"], ks=[2], cv=2, n_random=1, prior=0.5)
    assert any(n.startswith("class prior used: 0.5") for n in board.attrs["notes"])
