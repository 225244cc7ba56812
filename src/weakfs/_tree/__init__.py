"""weakfs's tree engine: compiled kernels shared by its forests.

``_shared`` holds what every tree needs (a per-tree random stream, the in-place row partition, the
walk from a root to a leaf); ``_gini`` grows classification trees on binned columns (the random
forest of SEW-IL and its self-learning); ``_forest`` wraps them in a scikit-learn classifier.  PU
Extra Trees (``weakfs.pu``) grows its risk-minimising trees with the same shared kernels.
"""

from weakfs._tree._forest import BinnedMatrix, RandomForest

__all__ = ["BinnedMatrix", "RandomForest"]
