"""What the benchmark of weak-label feature selection runs: its datasets, families, label regimes,
the fixed numbers of features and the rule that fixes each method's setting from a table's size."""

from __future__ import annotations

import numpy as np

#: name -> (weakfs dataset, the label value(s) read as positive, or a rule); "synth-*" are
#: generated.  A multi-class table is read as its class named here against the rest.
DATASETS = {
    "spambase": ("spambase", 1),
    "ionosphere": ("ionosphere", "b"),
    "mushrooms": ("mushrooms", 1),
    "heart": ("heart_statlog", 2),
    "liver": ("liver_bupa", 2),
    "raisin": ("raisin", "Kecimen"),
    "occupancy": ("occupancy", 1),
    "madelon": ("madelon", 1),
    "ada": ("ada", 1),
    "gina": ("gina", 1),
    "sylva": ("sylva", 1),
    "mnist-even": ("mnist_test10k", "even"),
    "synth-informative": ("synth", "informative"),
    "synth-xor": ("synth", "xor"),
    # gene expression (microarrays, 50-72 rows)
    "colon": ("colon", 1),  # 22 of 62 (Alon et al.: the normal tissue samples)
    "allaml": ("ALLAML", 2),  # AML, 25 of 72
    "leukemia": ("leukemia", 1),  # 25 of 72 (the same patients as ALLAML, discretised)
    "glioma": ("GLIOMA", 1),  # class 1 against the other three, 14 of 50
    "nci9": ("nci9", 1),  # class 1 against the other eight, 9 of 60
    # text (bags of words)
    "pcmac": ("PCMAC", 1),
    "basehock": ("BASEHOCK", 1),
    "relathe": ("RELATHE", 1),
    "dexter": ("dexter", 1),
    # images (pixels)
    "coil20": ("COIL20", 1),  # object 1 against the other 19, 72 of 1,440
    "orl": ("ORL", 1),  # person 1 against the other 39, 10 of 400
    "warppie10p": ("warpPIE10P", 1),  # person 1 against the other 9, 21 of 210
    "orlraws10p": ("orlraws10P", 1),  # person 1 against the other 9, 10 of 100
}
#: dataset -> family (the report answers once per family); "tabular" and "synthetic" are the
#: narrow tables (at most 970 columns), the three others have 1,000 columns or more
FAMILIES = {
    **dict.fromkeys(
        [
            "spambase",
            "ionosphere",
            "mushrooms",
            "heart",
            "liver",
            "raisin",
            "occupancy",
            "madelon",
            "ada",
            "gina",
            "sylva",
            "mnist-even",
        ],
        "tabular",
    ),
    "synth-informative": "synthetic",
    "synth-xor": "synthetic",
    **dict.fromkeys(["colon", "allaml", "leukemia", "glioma", "nci9"], "genes"),
    **dict.fromkeys(["pcmac", "basehock", "relathe", "dexter"], "text"),
    **dict.fromkeys(["coil20", "orl", "warppie10p", "orlraws10p"], "images"),
}
#: label regime -> (kind, parameter): PU under SCAR at a labeled fraction of the positives, PU
#: labeled with a probability that grows with a positive's score (not SCAR), a few labels per
#: class (semi-supervised), or none
REGIMES = {
    "pu-scar-0.1": ("pu", 0.1),
    "pu-scar-0.3": ("pu", 0.3),
    "pu-scar-0.5": ("pu", 0.5),
    "pu-biased-0.3": ("pu-biased", 0.3),
    "semi-5pc": ("semi", 0.05),
    "none": ("none", None),
}
#: the regimes with positive-unlabeled labels, the ones FSCPU and the other PU selectors run in
PU_REGIMES = tuple(r for r, (kind, _) in REGIMES.items() if kind in ("pu", "pu-biased"))
#: rows kept of a larger table (a random subset per repetition)
MAX_ROWS = 3000
#: the rows the searches of FSCPU and FSCPU-MI read in the PU cells of a table with more training
#: rows (``FSCPUSelector(search_rows=...)``: within the paper's search's seed-to-seed sd on the
#: FSCPU paper's ten Table-1 conditions and on the benchmark's tables; docs/fscpu.md)
FSCPU_SEARCH_ROWS = 1500
#: the tables with more training rows than ``FSCPU_SEARCH_ROWS`` (a test checks this against
#: ``training_rows``, which needs the data to tell): their PU cells run the search on those rows
FSCPU_SEARCH_ROWS_TABLES = tuple(
    "spambase mushrooms occupancy madelon ada gina sylva mnist-even".split()
)
#: the share of rows held out (their true labels score the selections)
TEST_SIZE = 0.3
#: the fixed numbers of features every selector (and random selection) is judged at, those below
#: the table's column count
FIXED_KS = (5, 10, 20, 50, 100)
#: the reference rows of ``compare_selectors`` (random columns, every column), by their names
#: there, so that the report needs no computing module
RANDOM, ALL_FEATURES = "random", "all features"
REFERENCES = (RANDOM, ALL_FEATURES)
#: how the notes of a cell that cannot run begin (too few labels for the board: the cell is
#: recorded with no rows, and the report counts it apart)
CANNOT_RUN = "cannot run"
#: the judges of the truth: a model fitted on the true training labels of the selected columns
JUDGES = {"truth_auc": "logistic regression", "truth_auc_trees": "extra trees"}


#: seconds one fit of a wrapper is planned for at its benchmark setting (the ceiling asked is
#: 60 s on one core; the rule aims lower, its constants measured on this project's machine;
#: FSCPU-MI also computes its mutual information once, up to about 17 s on 2,000 columns)
FIT_SECONDS = 40.0
#: the largest k GKF-PUAL runs at in the benchmark
GKF_PUAL_MAX_K = 20


#: seconds per training row of one FSCPU iteration at k columns, the slowest of eight benchmark
#: tables measured (MADELON at k = 5, 20, 50; GINA at k = 100: its mixture's EM converges
#: slowest); between two ks, interpolated on log k
_FSCPU_ROW_SECONDS = {5: 2.0e-5, 20: 9.1e-5, 50: 1.8e-4, 100: 6.2e-4}


def _fscpu_seconds_per_iteration(n_rows: int, k: int) -> float:
    """One iteration of FSCPU (two mixture fits of 10 components on ``n_rows`` rows and ``k``
    columns), by the slowest table measured: a fixed 5 ms and a cost per row growing with k."""
    ks = sorted(_FSCPU_ROW_SECONDS)
    per_row = np.interp(np.log(k), np.log(ks), [_FSCPU_ROW_SECONDS[x] for x in ks])
    if k > ks[-1]:  # beyond the table: about k squared
        per_row = _FSCPU_ROW_SECONDS[ks[-1]] * (k / ks[-1]) ** 2
    return 0.005 + n_rows * float(per_row)


def _fscpu_iterations(n_rows: int, ks) -> dict[int, int]:
    """FSCPU's compact-GA iterations per k that fit ``FIT_SECONDS`` on ``n_rows`` (20 to 3,000)."""
    return {
        int(k): int(min(3000, max(20, FIT_SECONDS / _fscpu_seconds_per_iteration(n_rows, k))))
        for k in ks
    }


def method_settings(
    n_rows: int, n_columns: int, ks, fscpu_search_rows: int | None = None
) -> dict[str, dict]:
    """Each method's setting in a cell, fixed by the table's size (never by a clock).

    ``n_rows`` are the training rows of the comparison, ``n_columns`` the columns its fits read
    (``compare_selectors`` screens a wider table to 2,000 per fold), ``ks`` the numbers of
    features the board runs.  The defaults are kept where a fit stays under ``FIT_SECONDS`` on
    one core; else the iterations of FSCPU's compact GA (per k: its cost grows with k) and the
    generations of SEW-IL's FSGA fall to fit, and GKF-PUAL runs at the ks up to
    ``GKF_PUAL_MAX_K`` only (BENCHMARKS.md gives the times and the quality lost against the
    defaults).

    ``fscpu_search_rows`` (None: the paper's search on every row) runs the search of FSCPU and
    FSCPU-MI on that many rows where the training rows are more
    (``FSCPUSelector(search_rows=...)``); their iterations are then planned for the rows their
    fits read, so they spend the same time on more of them.
    """
    read = n_rows * min(n_columns, 2000)
    search_rows = None
    if fscpu_search_rows is not None and n_rows > fscpu_search_rows:
        search_rows = int(fscpu_search_rows)
    fscpu_iter = _fscpu_iterations(n_rows if search_rows is None else search_rows, ks)
    # fewer iterations take larger steps: the compact GA's learning rate is scaled so that
    # eta * n_iter stays the default's (1 / (2 d) * 3000; without it, 303 iterations on BASEHOCK
    # left the probabilities near their start: truth AUC 0.772 against 0.876 with it, 0.951 at
    # the default 3,000)
    read_columns = min(n_columns, 2000)

    fscpu_eta = {
        k: (None if it == 3000 else 3000 / (2 * read_columns * it)) for k, it in fscpu_iter.items()
    }
    searched = {} if search_rows is None else {"search_rows": search_rows}

    gkf_lambdas = 20 if n_rows <= 1500 else 12
    # SEW-IL: 20 generations of FSGA took 38 s on 1,395 x 2,000 (2.8M values read)
    generations = int(min(20, max(5, 20 * 3.0e6 / max(read, 1))))
    return {
        "fscpu": {"n_iter": fscpu_iter, "eta": fscpu_eta, **searched},
        "fscpu_mi": {"n_iter": dict(fscpu_iter), "eta": dict(fscpu_eta), **searched},
        "sewil": {"n_generations": generations, "n_estimators": 50},
        # its quadratic model of m columns has m (m + 3) / 2 coefficients: at k = 50 (1,325)
        # one fit took over 3 minutes on 1,395 rows, so it runs at the ks up to 20 (screened
        # to 32 columns by prefilter="auto", 560 coefficients)
        # (63 s at k = 20 on spambase's 2,100 rows with 20 lambdas: 12 above 1,500 rows)
        "gkf_pual": {"n_lambdas": {int(k): gkf_lambdas for k in ks if k <= GKF_PUAL_MAX_K}},
        "pu_extra_trees": {"n_estimators": 100},
    }
