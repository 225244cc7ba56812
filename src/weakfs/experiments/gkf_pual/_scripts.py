"""The GKF-PUAL authors' per-split R scripts, run end to end in Python (``GKF-PUAL-script``).

The authors' repository **tkks22123/GKF-PUAL** (commit ``f6d319a``) holds twenty scripts
``<data>_RRGLLC_<γ>_<n>.R``.  Each one prepares its data, splits it once and fits GKF-PUAL at
one hard-coded setting.  What a script does, in order (Seeds at γ = 0.25 as the example):

1. Read the raw table (no standardisation).  Pen: the first 200 rows of digit 1, 200 of digit 8
   and 400 of digit 4 in file order; SSMCR: the first 500 rows of the sepsis study cohort,
   re-stacked as the alive rows then the dead ones; Seeds: the whole file.
2. ``set.seed(ran_start)``; draw ``1 + k`` columns of N(0, 1) noise, one column after the other,
   and append them all (Seeds: 31 columns).
3. ``set.seed(ran_seed)`` (``ran_start - 28`` in all but one script); shuffle the rows (Pen
   shuffles a second time); keep the two classes; code the positive class +1.
4. Hide the label of ``floor(fre_label · n_P)`` positives chosen at random (R's ``1:x`` floors a
   fractional ``x``).  ``fre_label`` is 0.5 in the γ = 0.5 scripts and 0.75 in the γ = 0.25
   ones, so γ is the labeled share of all positives.
5. The first ``floor(0.7 n)`` rows (of the shuffled table) train, the rest test with their true
   labels; the training rows are labeled positives (label kept) and unlabeled rows (all others).
   Labeled positives therefore land in the test set too.
6. Keep the real columns and the first ``n_noise_kept`` noise columns (Seeds: 15 of the 31;
   Pen: 16 of 41; SSMCR: 6 of 31).
7. Fit with μ = 0.01 fixed, ``iter_times`` iterations and no stopping test, the L1-norm group
   threshold, the R start, the dense Gaussian graph of width θ_K = 1 (``GKFPUALClassifier``
   with the R-code options) at the script's C1, λ1, λ2, C2.
8. F1 = 2TP/(2TP + FP + FN) of ``sign(f)`` on the test rows (a score of exactly 0 is neither
   positive nor negative).  The scripts compute no share of removed columns; we count the kept
   noise columns whose coefficients are all zero after the R zero test.

The helpers the scripts call, and what they compute:

- ``sdcc(defpar) = sqrt(defpar[3]) − 1.5 + U(−defpar[4]³, defpar[4]³)``: with ``defpar[3] =
  2.56`` this is 0.1 ± 0.02 (0.2714418³ = 0.0200, 0.2814³ = 0.0223).  It becomes ``sk``, the
  share of test labels whose sign ``dup_AD`` flips into a copy (``dup1`` → ``tact``) that is
  never read.  Dead code, but it consumes R random numbers after the split.
- ``RYL(iter_times, ran_seed, ran_start)``: ``iter_times / 100`` when ``ran_seed ==
  ran_start``, else ``iter_times``.  No script has equal seeds, so the counts stand.
- ``inte(c(length(data12), n_f), defpar)``: 1 when there are ``defpar[1] − 1 = 118`` rows and
  ``defpar[2] = 6`` columns, else 0 (0 for every staged script); stored in ``che``/``lunn``,
  never read.
- ``fyj(1, 1)`` returns 1 (initial ``lambda_1`` and ``beta``, overwritten); ``ptr`` makes
  unused aliases; ``sample(labb, round(0.85·…))`` (``sfk``) is another dead random draw.
- ``cons_ver``: after the last iteration, every coefficient whose copy in ``t`` is below 1e-6
  is set to 0 (``zero_tol=1e-6``).

**Random numbers.** R's Mersenne-Twister seeding, ``sample`` and ``rnorm`` (inversion) are not
numpy's, so the scripts' exact noise columns, row order and hidden labels cannot be reproduced.
We use the scripts' seeds with ``numpy.random.RandomState`` and keep everything else as the
scripts do: counts, shares, which columns are kept, the order of the operations, the settings.
Repetition ``r`` adds ``r`` to both seeds (``r = 0``: the scripts' own seeds).

**Not runnable here.** The eleven OR1 scripts and ``OR2_RRGLLC_0.5_6.R`` read the authors'
engineered ``Online Retail.csv`` (13 columns; rows 188341–188641 and 512708–513008 of their
file), and the other two OR2 scripts ``online_retail_II.csv``; neither table is available.  The
OR1 scripts keep ``c(1:4, 6:13)`` of that file and none of the appended noise columns, so their
irrelevant columns, if any, are already in the file.
"""

from __future__ import annotations

import math
import re

import numpy as np

from weakfs.datasets import load
from weakfs.experiments.gkf_pual._protocol import SCRIPTS, STAGED_TASKS, Script, script_for

__all__ = [
    "SCRIPTS",
    "STAGED_TASKS",
    "Script",
    "fit_script",
    "parse_script",
    "r_f1",
    "r_floor_count",
    "r_split",
    "script_data",
    "script_estimator",
    "script_for",
]


def r_floor_count(x: float) -> int:
    """The length of R's ``1:x`` for ``x >= 1``: R floors a fractional upper end."""
    return math.floor(x)


def r_split(n: int, p_trte: float = 0.7) -> tuple[np.ndarray, np.ndarray]:
    """Row positions (0-based) of R's ``1:(p·n)`` (train) and ``(p·n + 1):n`` (test).

    Both ends are the same float products as in R; a fractional start ``p·n + 1`` makes R step
    through ``p·n + 1, p·n + 2, …`` and truncate each index, so the last row is dropped then.
    """
    top = p_trte * n
    train = np.arange(r_floor_count(top))
    steps = np.arange(top + 1.0, n + 1e-9, 1.0)
    test = np.floor(steps).astype(int) - 1
    return train, test


def _raw_table(task: str) -> tuple[np.ndarray, np.ndarray]:
    """The rows a script reads before the noise, in the script's order, with R's labels."""
    if task == "Pen":
        X, y = load("pendigits")  # UCI tra then tes, the order of the authors' csv export
        X, y = X.to_numpy(float), y.to_numpy()
        rows = np.concatenate(
            [np.flatnonzero(y == c)[:k] for c, k in ((1, 200), (8, 200), (4, 400))]
        )
        return X[rows], y[rows]
    if task == "SSMCR":
        X, y = load("sepsis_study")
        X, y = X.to_numpy(float)[:500], y.to_numpy()[:500]
        rows = np.concatenate([np.flatnonzero(y == 1), np.flatnonzero(y == 0)])
        return X[rows], y[rows]
    if task == "Seeds":
        X, y = load("seeds")
        return X.to_numpy(float), y.to_numpy()
    raise KeyError(f"no staged script data for {task!r}")


def _positive(task: str, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(keep, positive): the rows of the script's two classes and which of them are coded +1."""
    if task == "Pen":
        return np.isin(y, [1, 8, 4]), np.isin(y, [1, 8])
    if task == "SSMCR":
        return np.isin(y, [0, 1]), y == 1
    return np.isin(y, [1, 2]), y == 1  # Seeds: Kama (1) +1, Rosa (2) −1, Canadian dropped


def script_data(script: Script, rep: int = 0, raw=None) -> dict:
    """One script's data preparation, labeling and split (module docstring, steps 1–6).

    Parameters
    ----------
    script : Script
        A staged script.
    rep : int, default=0
        Repetition: both seeds are shifted by ``rep`` (0: the script's own seeds, drawn by numpy).
    raw : tuple of ndarray, optional
        ``(X, y)`` to use instead of the staged table (tests), in the script's row order.

    Returns
    -------
    dict
        ``X_train``, ``s_train`` (1 labeled positive, 0 unlabeled), ``y_train``, ``X_test``,
        ``y_test`` (1 positive, 0 negative), ``n_relevant``, ``n_noise`` and ``n_labeled_all``
        (labeled positives before the split).
    """
    X, y = _raw_table(script.task) if raw is None else raw
    n = X.shape[0]
    # step 2: the noise columns, drawn column after column (rnorm(n) in a loop)
    noise = (
        np.random.RandomState(script.ran_start + rep).standard_normal((script.n_noise_drawn, n)).T
    )
    X = np.concatenate([X, noise], axis=1)
    rng = np.random.RandomState(script.ran_seed + rep)
    # step 3: shuffle (Pen twice), then keep the two classes
    order = rng.permutation(n)
    if script.task == "Pen":
        order = order[rng.permutation(n)]
    X, y = X[order], y[order]
    keep, pos = _positive(script.task, y)
    X, pos = X[keep], pos[keep]
    # step 4: hide floor(fre_label * n_P) positives: sample(1:n_P)[1:(fre_label * n_P)]
    pos_rows = np.flatnonzero(pos)
    hidden = pos_rows[
        rng.permutation(pos_rows.size)[: r_floor_count(script.fre_label * pos_rows.size)]
    ]
    labeled = pos.copy()
    labeled[hidden] = False
    # step 6: real columns and the first n_noise_kept noise columns
    d = X.shape[1] - script.n_noise_drawn
    X = X[:, : d + script.n_noise_kept]
    # step 5: the first 70 % of the rows train, the rest test (true labels)
    train, test = r_split(X.shape[0])
    return {
        "X_train": X[train],
        "s_train": labeled[train].astype(int),
        "y_train": pos[train].astype(int),
        "X_test": X[test],
        "y_test": pos[test].astype(int),
        "n_relevant": d,
        "n_noise": script.n_noise_kept,
        "n_labeled_all": int(labeled.sum()),
    }


def script_estimator(script: Script):
    """``GKFPUALClassifier`` with the R-code options at the script's settings (step 7)."""
    from weakfs.pu import GKFPUALClassifier

    return GKFPUALClassifier(
        C1=script.C1,
        C2=script.C2,
        lambda1=script.lambda1,
        lambda2=script.lambda2,
        sigma=math.sqrt(script.theta_K),  # R's weight exp(-‖d‖²/2/θ_K): σ² = θ_K
        standardize=False,
        mu=0.01,
        adaptive_mu=False,
        stopping="none",
        max_iter=script.iter_times,
        group_norm="l1",
        init="r-code",
        zero_tol=1e-6,
        n_neighbors=None,
    )


def r_f1(y_true: np.ndarray, score: np.ndarray) -> float:
    """F1 (%) of ``sign(score)`` as the scripts count it: a score of 0 is neither class."""
    pred = np.sign(score)
    pos = y_true == 1
    tp = int(np.sum(pred[pos] == 1))
    fn = int(np.sum(pred[pos] == -1))
    fp = int(np.sum(pred[~pos] == 1))
    denom = 2 * tp + fp + fn
    return 100.0 * 2 * tp / denom if denom else 0.0


def fit_script(script: Script, rep: int = 0, raw=None) -> dict:
    """Run one script end to end (steps 1–8); returns the cell's measurements."""
    import time

    data = script_data(script, rep, raw)
    est = script_estimator(script)
    t0 = time.perf_counter()
    est.fit(data["X_train"], data["s_train"])
    seconds = time.perf_counter() - t0
    score = est.decision_function(data["X_test"])
    d = data["n_relevant"]
    sup = est.support_
    return {
        "script": script.file,
        "f1": r_f1(data["y_test"], score),
        "irrelevant_removed": float(100.0 * (~sup[d:]).mean()) if sup.size > d else float("nan"),
        "relevant_kept": float(100.0 * sup[:d].mean()),
        "predicted_positive_share": float(100.0 * (score > 0).mean()),
        "test_positive_share": float(100.0 * data["y_test"].mean()),
        "n_train": int(data["s_train"].size),
        "n_labeled": int(data["s_train"].sum()),
        "n_test": int(data["y_test"].size),
        "n_iter": int(est.n_iter_),
        "fit_seconds": seconds,
        "tuning_seconds": 0.0,
        "n_evaluations": 0,
        "best_params": str(
            {
                "C1": script.C1,
                "C2": script.C2,
                "lambda1": script.lambda1,
                "lambda2": script.lambda2,
                "theta_K": script.theta_K,
            }
        ),
    }


_NUM = r"([0-9.]+)"


def parse_script(text: str) -> dict:
    """Read the settings a script hard-codes from its R source (for the tests).

    Returns a dict with the keys of :class:`Script` that the source determines: ``ran_start``,
    ``ran_seed``, ``n_noise_drawn``, ``n_noise_kept`` (given the number of data columns),
    ``fre_label``, ``iter_times``, ``C1``, ``lambda1``, ``lambda2``, ``C2``, ``theta_K`` and the
    kept column list ``columns``.
    """

    text = re.sub(r"#[^\n]*", "", text)  # R comments (one script comments out a ran_start)

    def one(pattern: str, cast=float):
        found = re.findall(pattern, text)
        if not found:
            raise ValueError(f"pattern {pattern!r} not found")
        return cast(found[-1])

    start = one(r"ran_start\s*<-\s*(\d+)", int)
    seed_expr = one(r"for\s*\(\s*ran_seed\s+in\s*\(([^)]*)\)", str)
    seed = start - int(seed_expr.split("-")[1]) if "ran_start" in seed_expr else int(seed_expr)
    cols = one(r"data11\s*<-\s*\(?\s*data1\[\s*,\s*c\(([^)]*)\)\s*\]", str)
    columns: list[int] = []
    for part in cols.split(","):
        lo, _, hi = part.strip().partition(":")
        columns += list(range(int(lo), int(hi or lo) + 1))
    return {
        "ran_start": start,
        "ran_seed": seed,
        "n_noise_drawn": 1 + one(r"for\s*\(\s*mgm\s+in\s+1:(\d+)\)", int),
        "columns": columns,
        "fre_label": one(r"fre_label\s*=\s*" + _NUM),
        "iter_times": one(r"iter_times\s*=\s*(\d+)", int),
        "C1": one(r"for\s*\(\s*C_1\s+in\s+c\(\s*" + _NUM),
        "lambda1": one(r"for\s*\(\s*lambda_1\s+in\s+c\(\s*" + _NUM),
        "lambda2": one(r"for\s*\(\s*lambda_2\s+in\s+c\(\s*" + _NUM),
        "C2": one(r"for\s*\(\s*C_2\s+in\s+c\(\s*" + _NUM),
        "theta_K": one(r"theta_K\s*<-\s*" + _NUM),
    }
