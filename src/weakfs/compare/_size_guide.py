"""Which selector at a size the user names: each selection's weak-label score shrunk toward what
the weak-label benchmark knows of that selector at that size.

At a fixed size the board's weak scores are a noisy argmax: with tens of labeled rows their error
is of the order of the differences between selectors, and the highest score is biased toward the
luckiest row (Cawley & Talbot, JMLR 2010).  The guide adds what the benchmark measured: for
each kind of labels (PU or semi-supervised), table width (narrow, under 1,000 columns, or wide)
and size k, every selector's mean truth AUC relative to the other selectors of the same cell
(its *gain*).  A row's posterior is the empirical-Bayes mean (Efron & Morris, JASA 1975)

    posterior = a · scale · (score − mean score of the selections at k) + (1 − a) · gain,
    a = n_labeled / (n_labeled + n0),

where *score* is the weak score that needs no class prior: on PU labels the AUC of labeled
against unlabeled rows (the board's ``raw_score``; the prior-corrected AUC is an affine function
of it whose slope depends on the estimated prior, so it would weigh the labels by the prior), on
semi-supervised labels the accuracy on the labeled rows.
so it follows the weak labels when they are many and the benchmark when they are few.  ``scale``
puts the weak scores' spread on the truth's; ``n0`` is the labeled count at which both weigh
alike, chosen by leave-one-dataset-out regret over the datasets the guide is fitted on (so, in
the evaluation, by an inner leave-one-out within the training datasets).

The guide is fitted from the benchmark's committed cells by ``weakfs reproduce board-at-k``
and ships with the package as ``size_guide.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import ClassVar

import numpy as np
import pandas as pd

__all__ = [
    "GUIDE_FILE",
    "GUIDE_KS",
    "N0_GRID",
    "WIDE_COLUMNS",
    "SizeGuide",
    "label_kind",
    "load_size_guide",
]

#: the sizes the guide knows; a named size between or beyond them reads the nearest on log k
GUIDE_KS = (10, 20, 50)
#: a table of at least this many columns reads the wide tables' gains
WIDE_COLUMNS = 1000
#: the labeled counts at which the weak labels and the benchmark weigh alike, tried in the fit
N0_GRID = (1, 3, 10, 30, 100, 300, 1000)
#: the one file the package ships
GUIDE_FILE = "size_guide.json"


def label_kind(kind: str) -> str:
    """``"pu"`` for any PU labeling, ``"semi"`` for semi-supervised labels."""
    return "semi" if kind.startswith("semi") else "pu"


def nearest_guide_k(k: int) -> int:
    """The guide's size nearest ``k`` on a log scale."""
    return min(GUIDE_KS, key=lambda g: abs(np.log(g) - np.log(max(int(k), 1))))


def relative_to_cell(frame: pd.DataFrame, column: str, by: list[str]) -> pd.Series:
    """``column`` minus its mean over the rows of the same ``by`` group."""
    return frame[column] - frame.groupby(by)[column].transform("mean")


@dataclass(frozen=True)
class SizeGuide:
    """The benchmark's knowledge at a fixed size, and the rule that mixes it with weak scores.

    Attributes
    ----------
    gains : DataFrame
        Columns ``kind``, ``wide``, ``k``, ``method``, ``gain`` (mean truth AUC relative to the
        cell's other selections at that k) and ``cells`` (how many cells it is the mean of).
    scale : dict
        Label kind -> the truth's spread over the weak scores' (their standard deviations
        within a cell).
    n0 : float
        The labeled count at which the weak scores and the benchmark weigh alike.
    noise : dict
        Label kind -> ``c`` of the scaled weak scores' error variance ``c / n_labeled``
        against the truth (relative to the cell), which sets the margin of ``tied``.

    Examples
    --------
    >>> from weakfs.compare import load_size_guide
    >>> guide = load_size_guide()
    >>> methods, scores = ["mrmr", "semi_jmi", "pu_extra_trees"], [0.81, 0.84, 0.80]
    >>> many = guide.posterior(methods, scores, kind="pu", n_columns=50, k=20, n_labeled=10**6)
    >>> methods[int(many.argmax())]  # with many labels the weak scores decide
    'semi_jmi'
    >>> few = guide.posterior(methods, scores, kind="pu", n_columns=50, k=20, n_labeled=0)
    >>> bool(few.argmax() == guide.gain(methods, kind="pu", wide=False, k=20).argmax())
    True
    """

    gains: pd.DataFrame
    scale: dict
    n0: float
    noise: dict

    #: the sizes the guide knows, the width from which a table reads the wide tables' gains,
    #: and the file the package ships (the module's constants, for readers of the class)
    KS: ClassVar[tuple[int, ...]] = GUIDE_KS
    WIDE_COLUMNS: ClassVar[int] = WIDE_COLUMNS
    FILE: ClassVar[str] = GUIDE_FILE
    label_kind = staticmethod(label_kind)

    @classmethod
    def fit(cls, rows: pd.DataFrame, n0: float | None = None) -> SizeGuide:
        """Fit from benchmark rows: one per (cell, k, selection) with columns ``cell``,
        ``group`` (the source of the cell's dataset: twins share one), ``kind``, ``wide``,
        ``k``, ``method``, ``weak``, ``truth`` and ``n_labeled``.  ``n0`` None: the value of
        :data:`N0_GRID` with the lowest leave-one-group-out regret on these rows."""
        guide = cls._from_rows(_with_relative(rows), 1.0 if n0 is None else float(n0))
        if n0 is None:
            guide = guide._with_n0(_leave_one_group_out_n0(rows))
        return guide

    @classmethod
    def _from_rows(cls, rows: pd.DataFrame, n0: float) -> SizeGuide:
        """The gains, scale and noise of rows that hold ``weak_rel`` and ``truth_rel``."""
        gains = (
            rows.groupby(["kind", "wide", "k", "method"])["truth_rel"]
            .agg(gain="mean", cells="size")
            .reset_index()
        )
        spread = rows.groupby("kind")[["truth_rel", "weak_rel"]].std()
        scale = {kind: float(s.truth_rel / s.weak_rel) for kind, s in spread.iterrows()}
        error = rows["kind"].map(scale) * rows["weak_rel"] - rows["truth_rel"]
        # the median of the squared errors (over the median of a chi-square with one degree of
        # freedom): a few wild weak scores must not widen every tie
        noise = (error**2 * rows["n_labeled"]).groupby(rows["kind"]).median() / 0.4549
        return cls(gains, scale, n0, noise.to_dict())

    def _with_n0(self, n0: float) -> SizeGuide:
        return SizeGuide(self.gains, self.scale, float(n0), self.noise)

    def tie_margin(self, kind, n_labeled) -> np.ndarray:
        """How far below the best posterior a row is still within noise of it: the one-sided
        5 % quantile of the difference of two rows' weighted weak-score errors."""
        kinds = pd.Series(np.atleast_1d(kind)).map(label_kind)
        c = kinds.map(self.noise).to_numpy(dtype=float)
        n = np.atleast_1d(np.asarray(n_labeled, dtype=float))
        # no labeled row: the weak scores weigh nothing, so neither does their noise
        return 1.6449 * self.weight(n) * np.sqrt(2 * c / np.maximum(n, 1.0))

    def gain(self, methods, *, kind: str, wide: bool, k: int) -> np.ndarray:
        """Each method's benchmark gain at the guide's size nearest ``k`` on a log scale among
        those the benchmark ran it at (0 for a method it never ran with these labels and width:
        no knowledge, no pull)."""
        known = self.gains[
            (self.gains["kind"] == label_kind(kind)) & (self.gains["wide"] == bool(wide))
        ]
        out = []
        for method in methods:
            own = known[known["method"] == method]
            if own.empty:
                out.append(0.0)
                continue
            nearest = np.argmin(np.abs(np.log(own["k"].to_numpy(float)) - np.log(max(k, 1))))
            out.append(float(own["gain"].iloc[nearest]))
        return np.array(out)

    def weight(self, n_labeled) -> np.ndarray:
        """The weak scores' weight ``n / (n + n0)``."""
        n = np.asarray(n_labeled, dtype=float)
        return n / (n + self.n0)

    def posterior(self, methods, scores, *, kind: str, n_columns: int, k: int, n_labeled: int):
        """The posterior of each selection of size ``k`` on one table (higher is better)."""
        scores = np.asarray(scores, dtype=float)
        centred = scores - np.nanmean(scores)
        a = float(self.weight(n_labeled))
        prior = self.gain(methods, kind=kind, wide=n_columns >= WIDE_COLUMNS, k=k)
        return a * self.scale[label_kind(kind)] * centred + (1 - a) * prior

    def posteriors(self, rows: pd.DataFrame) -> pd.Series:
        """:meth:`posterior` of every row of benchmark-shaped ``rows`` (see :meth:`fit`)."""
        rows = _with_relative(rows)
        key = pd.MultiIndex.from_frame(rows[["kind", "wide", "k", "method"]])
        gains = self.gains.set_index(["kind", "wide", "k", "method"])["gain"]
        prior = gains.reindex(key).fillna(0.0).to_numpy()
        scale = rows["kind"].map(self.scale).to_numpy()
        a = self.weight(rows["n_labeled"])
        return pd.Series(a * scale * rows["weak_rel"] + (1 - a) * prior, index=rows.index)

    def regret(self, rows: pd.DataFrame) -> pd.Series:
        """Per (cell, k) of ``rows``: the best truth minus the truth of the highest posterior."""
        rows = rows.assign(posterior=self.posteriors(rows))
        groups = rows.groupby(["cell", "k"])
        picked = rows.loc[groups["posterior"].idxmax()]
        best = groups["truth"].max()
        return best.to_numpy() - picked.set_index(["cell", "k"])["truth"].reindex(best.index)

    def to_json(self) -> str:
        """The guide as the JSON the package ships (sorted, rounded: one text per guide)."""
        gains = self.gains.sort_values(["kind", "wide", "k", "method"])
        return json.dumps(
            {
                "n0": self.n0,
                "scale": {k: round(v, 6) for k, v in sorted(self.scale.items())},
                "noise": {k: round(v, 6) for k, v in sorted(self.noise.items())},
                "gains": [
                    {
                        "kind": r.kind,
                        "wide": bool(r.wide),
                        "k": int(r.k),
                        "method": r.method,
                        "gain": round(float(r.gain), 6),
                        "cells": int(r.cells),
                    }
                    for r in gains.itertuples()
                ],
            },
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str) -> SizeGuide:
        data = json.loads(text)
        gains = pd.DataFrame(
            data["gains"], columns=["kind", "wide", "k", "method", "gain", "cells"]
        )
        return cls(gains, dict(data["scale"]), float(data["n0"]), dict(data["noise"]))


def _with_relative(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with the weak score and the truth relative to their cell's mean at that k."""
    by = ["cell", "k"]
    return rows.assign(
        weak_rel=relative_to_cell(rows, "weak", by), truth_rel=relative_to_cell(rows, "truth", by)
    )


def _leave_one_group_out_n0(rows: pd.DataFrame) -> float:
    """The value of :data:`N0_GRID` whose guides, each fitted without one group of datasets,
    have the lowest mean regret on that group's cells."""
    groups = rows["group"] if "group" in rows else rows["cell"].str.split("|").str[0]
    regrets: dict[float, list] = {n0: [] for n0 in N0_GRID}
    for group in groups.unique():
        train, test = rows[groups != group], rows[groups == group]
        guide = SizeGuide._from_rows(_with_relative(train), 1.0)
        for n0 in N0_GRID:
            regrets[n0].append(guide._with_n0(n0).regret(test))
    means = {n0: float(pd.concat(r).mean()) for n0, r in regrets.items()}
    return min(means, key=means.get)


def load_size_guide() -> SizeGuide:
    """The guide the package ships (fitted on every dataset of the benchmark)."""
    text = resources.files("weakfs.compare").joinpath(GUIDE_FILE).read_text()
    return SizeGuide.from_json(text)
