"""Shared docstring fragments: parameters that mean the same in every estimator are written once.

A line holding only ``%(name)s`` in a docstring is replaced by the fragment ``name``, indented
like the placeholder; lines written under the placeholder (indented one more level) continue the
description with what is particular to the estimator.  Other ``%`` signs are left alone.
"""

from __future__ import annotations

import re
import textwrap
from typing import TypeVar

__all__ = ["DOCSTRING_PARAMETERS", "fill_doc"]

DOCSTRING_PARAMETERS: dict[str, str] = {
    "pu_metric_parameters": """\
s : array-like of shape (n_samples,)
    PU labels (1 labeled positive; 0, -1 or False unlabeled).
y_pred : array-like of shape (n_samples,)
    Predictions; positive means ``1`` or ``True`` (``-1``/``0`` negative).
prior : float
    Share of positives among all rows (labeled ones included), above the labeled share.""",
    "random_state": """\
random_state : int, RandomState instance or None, default=None
    Seed of every random draw of the fit: the same seed gives the same result, for any
    ``n_jobs``.""",
    "n_jobs": """\
n_jobs : int or None, default=None
    Parallel jobs through joblib (``None``: one, unless inside a ``joblib.parallel_config``
    context; ``-1``: every core).  Results do not depend on it.""",
    "verbose": """\
verbose : bool, int or "auto", default="auto"
    Progress of the long loop of the fit: a tqdm bar on stderr (true), nothing (false), or,
    with ``"auto"``, one line with the estimated time and then a bar when the loop's first
    steps say it will take more than a minute (silent otherwise).  On a first run the first
    step compiles the numba kernels it uses; the bar says so instead of a rate.""",
    "sewil_n_features_to_select": """\
n_features_to_select : "auto", int, float or None, default="auto"
    Features to keep.  ``"auto"``: ``ceil(d ** (2/3))``, the number SEW-IL's paper selects;
    int, fraction in (0, 1] or ``None`` (half) as everywhere in weakfs.""",
    "n_features_to_select": """\
n_features_to_select : int, float or None, default=None
    Features to keep: an int, a fraction in (0, 1] (rounded up) or ``None`` (half, rounded
    up), as everywhere in weakfs.""",
    "n_bins": """\
n_bins : int or None, default=5
    Equal-width bins per column for the mutual-information estimates; a column with at most
    ``n_bins`` distinct values keeps its values.  ``None``: no binning, every distinct value of
    a column is its own category (what the reference mRMR implementations do with
    floating-point input).""",
    "allow_fully_labeled": """\
allow_fully_labeled : bool, default=False
    Accept a ``y`` without any ``-1`` (the method then runs as a supervised one).  By default
    a fully labeled ``y`` raises a ``ValueError``: semi-supervised input was expected.""",
    "forest": """\
forest : {"weakfs", "sklearn"}, default="weakfs"
    The random forest: weakfs's own (the same algorithm as scikit-learn's
    ``RandomForestClassifier``, grown by compiled kernels on columns binned once; several times
    faster) or scikit-learn's, for comparison.  They agree within the noise of the seeds, not
    tree by tree.""",
    "plot_path": """\
path : str or Path, optional
    Save the figure there (png) and close it.""",
    "returns_figure": """\
Returns
-------
fig : matplotlib.figure.Figure""",
    "pu_X_y": """\
X : array-like of shape (n_samples, n_features)
    Training data.
y : array-like of shape (n_samples,)
    PU labels: 1 for labeled positives; 0, -1 or False for unlabeled rows.""",
    "ranking_attributes": """\
ranking_ : ndarray of int
    Feature indices, best first (for forward searches: in the order they were added).
support_ : ndarray of bool
    The first ``n_features_to_select`` features of ``ranking_``.""",
    "ga_population": """\
n_generations : int, default=20
    Generations after the initial population.
population_size : int, default=40
    Candidates per generation.
n_parents : int, default=8
    Elite candidates kept and mated each generation (in ``[2, population_size]``).""",
}

DOCSTRING_PARAMETERS["pu_fit_parameters"] = (
    "Parameters\n----------\n"
    + DOCSTRING_PARAMETERS["pu_X_y"]
    + "\n\nReturns\n-------\nself : object\n    The fitted estimator."
)

_PLACEHOLDER = re.compile(r"^(?P<indent>[ ]*)%\((?P<name>\w+)\)s[ ]*$", re.MULTILINE)

T = TypeVar("T")


def fill_doc(obj: T) -> T:
    """Replace every ``%(name)s`` line of ``obj.__doc__`` by its shared fragment.

    Examples
    --------
    >>> @fill_doc
    ... class Model:
    ...     '''Parameters
    ...     ----------
    ...     %(verbose)s
    ...     '''
    >>> Model.__doc__.splitlines()[2].strip()
    'verbose : bool, int or "auto", default="auto"'
    """
    doc = obj.__doc__
    if not doc:  # python -OO strips docstrings
        return obj

    def fragment(match: re.Match) -> str:
        name = match["name"]
        if name not in DOCSTRING_PARAMETERS:
            raise KeyError(f"no shared docstring fragment named {name!r}")
        return textwrap.indent(DOCSTRING_PARAMETERS[name], match["indent"])

    obj.__doc__ = _PLACEHOLDER.sub(fragment, doc)
    return obj
