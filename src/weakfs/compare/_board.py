"""The leaderboard from the fold scores: each row's interval, each method's automatic k, the
top group of rows the labels cannot tell from the best, and the one recommendation.

**Intervals.**  Every row is scored on the same folds (``cv`` folds, repeated ``r`` times with
other shuffles: ``F = cv r`` scores).  Fold scores of repeated cross-validation are correlated
(their training sets overlap), so the plain standard error is too small; the interval uses the
corrected variance of Nadeau & Bengio ("Inference for the generalization error", Machine
Learning 52, 2003) for repeated k-fold as in Bouckaert & Frank (PAKDD 2004):
``(1/F + n_test/n_train) s^2``, with Student's t on ``F - 1`` degrees of freedom, at 90 %.

**Paired comparisons.**  Two rows are compared on their differences fold by fold (the same
folds), with the same corrected variance.  A row is *tied* with the best when the one-sided test
at 5 % does not find it worse: ``mean difference + t_0.95 * se >= 0``.

**Automatic k.**  Per method, over its grid of k: the best k by mean score, then the smallest k
tied with it.  When half of the grid or more is tied with the best (a flat or noisy curve, where
the smallest tied k would be 1 and the best all columns only by chance), the geometric middle of
the tied ks is taken instead.

**Top group and recommendation.**  The candidates are each method at its automatic k and all
features (random selection is a reference, never recommended).  The top group holds the
candidates tied with the best one.  When all features is in the top group it is the
recommendation: a selection must be found better than every column before the board trades
columns for it (in the benchmark's first cells, recommending the top group's simplest member
instead cost more true AUC than always keeping all features in four of five label regimes);
otherwise the top group's simplest member (fewest features, then fewest seconds).  When the
labels cannot tell the candidates apart (the top group holds more than half of them, or a test
fold holds fewer than ``MIN_LABELED_PER_FOLD`` labeled rows) the board says so in a sentence
and recommends all features, the robust default (in the benchmark no selector's
mean rank beats all features in any label regime, ``docs/compare.md``).  With too few labeled
rows per fold all features stays the recommendation even when the paired test finds it worse:
a test on folds of two or three labeled rows cannot find anything worse either (on the
benchmark's nci9 table, semi-supervised, it found all features below semi-Fisher at k = 20, whose
true AUC was 0.156 lower).  When most rows are tied, all features is the recommendation even
where the test finds it below the best: the sentence says so.  The labels that cannot separate
the selections from each other are no better evidence against every column (the benchmark's
abstaining boards that recommended the top group's largest selection instead, four cells, never
did better than all features: up to 0.345 true AUC below it, where the prior-corrected scores of
the selections exceeded 1 on an over-estimated class prior).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from weakfs._words import counted
from weakfs.metrics import selection_stability

__all__ = ["MIN_LABELED_PER_FOLD", "build_board", "n_repeats_for"]

RANDOM = "random"
ALL_FEATURES = "all features"
#: a test fold with fewer labeled rows than this cannot rank selectors
MIN_LABELED_PER_FOLD = 5
#: the two-sided coverage of a row's interval (one-sided 5 % for the ties)
CONFIDENCE = 0.90


def n_repeats_for(n_labeled: int) -> int:
    """Repetitions of the cross-validation, from the number of labeled rows: fewer labels give
    noisier fold scores, so more repetitions (3 under 50 labeled rows, 2 under 200, else 1)."""
    if n_labeled < 50:
        return 3
    if n_labeled < 200:
        return 2
    return 1


def _corrected_se(values: np.ndarray, test_share: float) -> float:
    """Nadeau-Bengio corrected standard error of the mean of ``F`` fold scores."""
    n = values.shape[0]
    if n < 2:
        return np.nan
    ratio = test_share / (1.0 - test_share)
    return float(np.sqrt((1.0 / n + ratio) * np.var(values, ddof=1)))


def _t(n_folds: int) -> float:
    return float(stats.t.ppf(0.5 + CONFIDENCE / 2.0, max(n_folds - 1, 1)))


def _scores(frame: pd.DataFrame, n_folds: int, column: str = "score") -> np.ndarray:
    """A row's scores in fold order (NaN where a fold is missing)."""
    out = np.full(n_folds, np.nan)
    out[frame["fold"].to_numpy()] = frame[column].to_numpy()
    return out


def _interval(scores: np.ndarray, test_share: float, t: float, bounds) -> tuple[float, float]:
    """The mean's interval from its fold ``scores`` within ``bounds``; NaN, not a zero width,
    from fewer than two distinct fold scores (nothing to measure a spread on)."""
    seen = scores[np.isfinite(scores)]
    if np.unique(seen).size < 2:
        return np.nan, np.nan
    mean, se = float(seen.mean()), _corrected_se(seen, test_share)
    return max(mean - t * se, bounds[0]), min(mean + t * se, bounds[1])


def _tied(candidate: np.ndarray, best: np.ndarray, test_share: float) -> bool:
    """Not found worse than ``best`` by the paired one-sided test on the same folds."""
    diff = candidate - best
    diff = diff[np.isfinite(diff)]
    if diff.size < 2:
        return True
    se = _corrected_se(diff, test_share)
    if not np.isfinite(se) or se == 0:
        return bool(diff.mean() >= 0)
    return bool(diff.mean() + _t(diff.size) * se >= 0)


def _auto_k(rows: pd.DataFrame, fold_scores: dict, test_share: float) -> int:
    """The index (in ``rows``) of a method's automatic k (see the module notes)."""
    best = rows["score"].idxmax()
    tied = [i for i in rows.index if _tied(fold_scores[i], fold_scores[best], test_share)]
    if len(rows) > 2 and 2 * len(tied) >= len(rows):
        # flat or noisy: most of the grid is within noise of the best, so neither end of the
        # tied range is supported by the labels; take its geometric middle
        ks = rows.loc[tied, "k"].to_numpy(dtype=float)
        middle = np.sqrt(ks.min() * ks.max())
        return int(np.asarray(tied)[np.argmin(np.abs(np.log(ks) - np.log(middle)))])
    return int(rows.loc[tied, "k"].idxmin())


def build_board(
    records: list[tuple],
    names: list[str],
    n_features: int,
    *,
    n_folds: int,
    test_share: float,
    min_labeled_per_fold: int,
    with_truth: bool,
    method_order: list[str],
    score_range: tuple[float, float] = (-np.inf, np.inf),
) -> tuple[pd.DataFrame, str | None]:
    """The board and, when the labels cannot separate the candidates, the sentence saying so.

    ``records`` are the folds' ``FoldRow`` (``method, fold, k, score, raw_score, truth,
    seconds, columns``);
    ``score_range`` bounds the scores' intervals (an accuracy's to [0, 1]; the prior-corrected
    AUC is an estimate that can exceed 1 and is left unbounded).
    """
    columns = ["method", "fold", "k", "score", "raw_score", "truth", "seconds", "columns"]
    frame = pd.DataFrame(records, columns=columns)
    order = {m: i for i, m in enumerate([*method_order, RANDOM, ALL_FEATURES])}
    rows, fold_scores = [], {}
    t = _t(n_folds)
    for (method, k), g in frame.groupby(["method", "k"], sort=False):
        supports = np.zeros((len(g), n_features), dtype=bool)
        for i, cols in enumerate(g["columns"]):
            supports[i, cols] = True
        stab = selection_stability(supports) if len(g) > 1 else None
        frequency = supports.mean(axis=0)
        size = round(float(supports.sum(axis=1).mean()))  # k, or a wrapper's mean size
        chosen = [names[j] for j in np.argsort(-frequency, kind="stable")[:size]]
        scores = _scores(g, n_folds)
        mean = float(np.nanmean(scores))
        low, high = _interval(scores, test_share, t, score_range)
        raw_low, raw_high = _interval(_scores(g, n_folds, "raw_score"), test_share, t, (0.0, 1.0))
        row = {
            "method": method,
            "k": int(k),
            "score": mean,
            "score_sd": float(np.nanstd(scores, ddof=1)) if len(g) > 1 else np.nan,
            "score_low": low,
            "score_high": high,
            "raw_score": float(g["raw_score"].mean()),
            "raw_score_low": raw_low,
            "raw_score_high": raw_high,
            "stability": np.nan if stab is None else stab.value,
            "stability_low": np.nan if stab is None else stab.low,
            "stability_high": np.nan if stab is None else stab.high,
            "seconds": g["seconds"].mean(),
            "features_in_folds": [] if method == RANDOM else chosen,
        }
        if with_truth:
            row.update(truth=g["truth"].mean(), truth_sd=g["truth"].std(ddof=1))
        fold_scores[len(rows)] = scores
        rows.append(row)
    board = pd.DataFrame(rows)
    board["k_rule"] = "fixed"
    for method, g in board.groupby("method", sort=False):
        if method != ALL_FEATURES:
            board.loc[_auto_k(g, fold_scores, test_share), "k_rule"] = "auto"
    candidates = board.index[
        (board["method"] != RANDOM)
        & ((board["k_rule"] == "auto") | (board["method"] == ALL_FEATURES))
    ]
    best = board.loc[candidates, "score"].idxmax()
    board["tied"] = False
    for i in candidates:
        board.loc[i, "tied"] = _tied(fold_scores[i], fold_scores[best], test_share)
    top = board.loc[board["tied"]]
    reason = None
    n_tied, n_candidates = int(board["tied"].sum()), len(candidates)
    few_labels = min_labeled_per_fold < MIN_LABELED_PER_FOLD
    if few_labels:
        reason = (
            f"a test fold holds only {counted(min_labeled_per_fold, 'labeled row')} (fewer than "
            f"{MIN_LABELED_PER_FOLD})"
        )
    elif n_candidates > 2 and n_tied > n_candidates / 2:
        reason = f"{n_tied} of {n_candidates} rows are within noise of the best"
    # when the labels cannot tell the candidates apart the paired test is no evidence against
    # every column either: all features, the robust default, whatever its place
    all_features = board.index[board["method"] == ALL_FEATURES]
    if reason is not None and len(all_features):
        pick = all_features[0]
        # with too few labels the reason itself says the test is no evidence (and that wording
        # is what the committed benchmark cells of that case record)
        quiet = board.loc[pick, "tied"] or few_labels
        below = "" if quiet else ", though it scores below the best"
        sentence = (
            f"The labels cannot tell these selectors apart ({reason}): the board recommends all "
            f"features, the robust default{below}, rather than a confident first place."
        )
    elif reason is not None:
        # a board without the all-features row: the member of the top group that keeps the
        # most features (then the most stable)
        largest = top.assign(_stab=top["stability"].fillna(-np.inf)).sort_values(
            ["k", "_stab"], ascending=False, kind="stable"
        )
        pick = largest.index[0]
        sentence = (
            f"The labels cannot tell these selectors apart ({reason}): the board recommends the "
            f"largest selection of its top group ({board.loc[pick, 'method']}, k = "
            f"{board.loc[pick, 'k']}) rather than a confident first place."
        )
    elif len(all_features) and board.loc[all_features[0], "tied"]:
        # selection has not been shown better than keeping every column: keep them (the
        # smaller tied rows stay visible in the top group)
        pick, sentence = all_features[0], None
    else:
        simplest = top.assign(_size=top["k"]).sort_values(["_size", "seconds"], kind="stable")
        pick, sentence = simplest.index[0], None
    board["recommended"] = board.index == pick
    board["_order"] = board["method"].map(order)
    board = board.sort_values(["_order", "k"], kind="stable").drop(columns="_order")
    return board.reset_index(drop=True), sentence
