"""Model selection for PU data: the PUF-score scorer and the GKF-PUAL paper's tuning procedure."""

from weakfs.model_selection._pu_search import (
    PUGridGreedySearch,
    make_puf_scorer,
    puf_scorer,
)

__all__ = ["PUGridGreedySearch", "make_puf_scorer", "puf_scorer"]
