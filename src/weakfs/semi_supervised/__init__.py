"""Semi-supervised selection (scikit-learn's -1 = unlabeled): self-learning, SEW-IL, baselines.

Besides the estimators, the building blocks of SEW-IL are public so that experiments and users
can compose them: :func:`self_learn` (the self-learning loop on encoded labels) with
:func:`make_forest` (its forest), :class:`ForestSubsetObjective` (the search objective) and
:func:`get_criterion` with the criterion classes.
"""

from weakfs.semi_supervised._cot_fss import CoTFSSSelector
from weakfs.semi_supervised._criteria import (
    CBILCriterion,
    CBoundCriterion,
    ForestEvidence,
    OOBErrorCriterion,
    TransductiveBoundCriterion,
    get_criterion,
)
from weakfs.semi_supervised._jsfs import JSFSSelector
from weakfs.semi_supervised._self_learning import SelfLearningClassifier, make_forest, self_learn
from weakfs.semi_supervised._sewil import ForestSubsetObjective, SEWILSelector
from weakfs.semi_supervised._sselect import SSelectSelector
from weakfs.semi_supervised._ssl_baselines import (
    RLSRSelector,
    SemiFisherSelector,
    SSLSSelector,
)

__all__ = [
    "CBILCriterion",
    "CBoundCriterion",
    "CoTFSSSelector",
    "ForestEvidence",
    "ForestSubsetObjective",
    "JSFSSelector",
    "OOBErrorCriterion",
    "RLSRSelector",
    "SEWILSelector",
    "SSLSSelector",
    "SSelectSelector",
    "SelfLearningClassifier",
    "SemiFisherSelector",
    "TransductiveBoundCriterion",
    "get_criterion",
    "make_forest",
    "self_learn",
]
