"""Which selector works on this table: a leaderboard judged by the weak labels alone."""

from weakfs.compare._leaderboard import (
    ALL_FEATURES,
    MIN_BUDGET_SECONDS,
    MIN_LABELED,
    RANDOM,
    compare_selectors,
    rarest_labeled_group,
)
from weakfs.compare._methods import METHODS, applicable_methods
from weakfs.compare._output import leaderboard_summary, plot_leaderboard, write_leaderboard
from weakfs.compare._prior_sensitivity import (
    PRIOR_READERS,
    prior_sensitivity,
    prior_sensitivity_seconds,
)
from weakfs.compare._reading import (
    NO_SELECTOR_RAN,
    board_headline,
    interval_text,
    primary_score_reason,
    stated_verdict,
)
from weakfs.compare._size_guide import SizeGuide, load_size_guide

__all__ = [
    "ALL_FEATURES",
    "METHODS",
    "MIN_BUDGET_SECONDS",
    "MIN_LABELED",
    "NO_SELECTOR_RAN",
    "PRIOR_READERS",
    "RANDOM",
    "SizeGuide",
    "applicable_methods",
    "board_headline",
    "compare_selectors",
    "interval_text",
    "leaderboard_summary",
    "load_size_guide",
    "plot_leaderboard",
    "primary_score_reason",
    "prior_sensitivity",
    "prior_sensitivity_seconds",
    "rarest_labeled_group",
    "stated_verdict",
    "write_leaderboard",
]
