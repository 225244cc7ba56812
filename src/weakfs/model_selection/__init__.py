"""Model selection for PU data: prior-corrected scorers, a PU splitter and the GKF-PUAL paper's
tuning procedure."""

from weakfs.model_selection._pu_search import (
    PUGridGreedySearch,
    make_puf_scorer,
    puf_scorer,
)
from weakfs.model_selection._scorers import PUScorer, make_pu_scorer
from weakfs.model_selection._split import PUStratifiedKFold

__all__ = [
    "PUGridGreedySearch",
    "PUScorer",
    "PUStratifiedKFold",
    "make_pu_scorer",
    "make_puf_scorer",
    "puf_scorer",
]
