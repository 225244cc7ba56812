"""weakfs: feature selection when labels are scarce or one-sided.

Subpackages
-----------
pu
    Positive-unlabeled methods: FSCPU, PU Extra Trees, GKF-PUAL, semi-JMI, class-prior estimation.
semi_supervised
    Self-learning and the SEW-IL wrapper with its baselines.
unsupervised
    UFVS, unsupervised feature value selection.
search
    Binary-mask optimisers (compact GA with repair, FSGA, classic GA, forward search).
datasets
    Loaders for the bundled and staged datasets, PU label generation, synthetic generators.
metrics
    Feature-selection recall, PUF-score and PU-corrected metrics.
model_selection
    PUF-score scorer and the GKF-PUAL paper's tuning search (grid, then greedy moves).
preprocessing
    TablePreparer: a real table prepared as ``weakfs select`` prepares it.
feature_selection
    Meta-selectors: per source column, stability selection, automatic k, permutation importance.
compare
    ``compare_selectors``: which selector works on a table, judged from its weak labels alone.
experiments
    The paper reproductions behind ``weakfs reproduce``.
"""

__version__ = "0.2.0"

__all__ = ["__version__", "compare_selectors"]


def __getattr__(name: str):
    # subpackages load on first use, so that ``import weakfs`` stays fast
    if name == "compare_selectors":
        from weakfs.compare import compare_selectors

        return compare_selectors
    raise AttributeError(f"module 'weakfs' has no attribute {name!r}")
