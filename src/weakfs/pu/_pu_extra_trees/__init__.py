"""PU Extra Trees: the forest estimator and its numba tree kernels."""

from weakfs.pu._pu_extra_trees._classifier import PUExtraTreesClassifier, PUTree

__all__ = ["PUExtraTreesClassifier", "PUTree"]
