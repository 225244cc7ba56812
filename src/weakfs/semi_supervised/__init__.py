"""Semi-supervised selection (scikit-learn's -1 = unlabeled): self-learning, SEW-IL, baselines."""

# --- SEW-IL, self-learning, baselines (issue 6) ---
from weakfs.semi_supervised._criteria import (
    CBILCriterion,
    CBoundCriterion,
    ForestEvidence,
    OOBErrorCriterion,
    TransductiveBoundCriterion,
)
from weakfs.semi_supervised._self_learning import SelfLearningClassifier
from weakfs.semi_supervised._sewil import ForestSubsetObjective, SEWILSelector
from weakfs.semi_supervised._ssl_baselines import (
    CoTFSSSelector,
    RLSRSelector,
    SemiFisherSelector,
    SSLSSelector,
)

__all__: list[str] = []
__all__ += [  # issue 6
    "CBILCriterion",
    "CBoundCriterion",
    "CoTFSSSelector",
    "ForestEvidence",
    "ForestSubsetObjective",
    "OOBErrorCriterion",
    "RLSRSelector",
    "SEWILSelector",
    "SSLSSelector",
    "SelfLearningClassifier",
    "SemiFisherSelector",
    "TransductiveBoundCriterion",
]
