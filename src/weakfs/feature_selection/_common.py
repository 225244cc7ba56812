"""What the meta-selectors share: input checks, the PU scorer and a default downstream model
(the class prior they score with is resolved by ``weakfs.pu.resolve_class_prior``)."""

from __future__ import annotations

import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.validation import validate_data

from weakfs.model_selection import make_pu_scorer

__all__ = ["TiedScoresWarning", "check_meta_input", "default_model", "pu_scorer"]


class TiedScoresWarning(UserWarning):
    """Fewer features than asked for scored above zero: the rest of the selection is filled in
    column order (the stable sort of tied zeros), not chosen by the data.

    Raised by :class:`PUPermutationSelector` when too few labeled rows are held out for a
    shuffle to move one past an unlabeled row; the fitted ``n_tied_selected_`` says how many
    selected features are such ties.  Label more rows, hold out more (``test_size``) or ask for
    fewer features.
    """


def default_model():
    """The downstream model scored on selected columns: standardised logistic regression (fast;
    its scores rank rows by ``P(s = 1 | x)``, which under SCAR ranks them as ``P(y = 1 | x)``)."""
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))


def pu_scorer(metric: str, prior: float):
    """``make_pu_scorer(metric, prior=...)``, the PUF-score needing no prior."""
    return make_pu_scorer(metric) if metric == "puf" else make_pu_scorer(metric, prior=prior)


def check_meta_input(
    meta, X, y, *, y_required: bool, accept_sparse: bool, finite: bool = False, reset: bool = True
):
    """scikit-learn's checks of a meta-selector's input (shape, samples, sparse, features seen in
    fit), returning ``X`` as the inner estimator should get it: a DataFrame as it is (its column
    names and types matter), anything else as a checked array."""
    if y is None and y_required:
        raise ValueError(f"{type(meta).__name__} requires y to be passed, but the target y is None")
    checked = validate_data(
        meta,
        X,
        reset=reset,
        accept_sparse=["csr", "csc"] if accept_sparse else False,
        dtype=None if isinstance(X, pd.DataFrame) else "numeric",
        ensure_all_finite=finite,
        ensure_min_samples=2,
    )
    return X if isinstance(X, pd.DataFrame) else checked


def inherit_tags(tags, estimator):
    """A meta-selector's tags take its inner estimator's input needs (sparse input, missing
    values) and whether it requires ``y``."""
    inner = estimator.__sklearn_tags__()
    tags.input_tags.sparse = inner.input_tags.sparse
    tags.input_tags.allow_nan = inner.input_tags.allow_nan
    tags.target_tags.required = inner.target_tags.required
    return tags
