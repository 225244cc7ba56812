"""Which selector works on this table: a leaderboard judged by the weak labels alone."""

from weakfs.compare._leaderboard import ALL_FEATURES, RANDOM, compare_selectors
from weakfs.compare._methods import METHODS, applicable_methods

__all__ = ["ALL_FEATURES", "METHODS", "RANDOM", "applicable_methods", "compare_selectors"]
