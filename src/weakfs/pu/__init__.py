"""Positive-unlabeled (PU) learning: selectors and classifiers for data with labeled positives only.

Labels follow ``weakfs._labels.check_pu_labels``: 1 = labeled positive; 0, -1 or False = unlabeled.
"""

# Each method lives in its own private module or subpackage and is re-exported here.
from weakfs.pu._fscpu import FSCPUSelector
from weakfs.pu._gkf_pual import (
    GKFPUALClassifier,
    GKFPUALPath,
    GKFPUALSelector,
    gkf_pual_path,
)
from weakfs.pu._jmi import MRMRSelector, SemiJMISelector
from weakfs.pu._lgbm_opt import LGBMOptSelector
from weakfs.pu._nnpu import NNPUClassifier, UPUClassifier
from weakfs.pu._prior import ClassPriorEstimate, WidePriorIntervalWarning, estimate_class_prior
from weakfs.pu._prior_resolution import (
    ResolvedPrior,
    resolve_class_prior,
    selection_at_interval_ends,
)
from weakfs.pu._pu_extra_trees import PUExtraTreesClassifier, PUTree
from weakfs.pu._pual import GLLCClassifier, PUALClassifier
from weakfs.pu._scar_check import SCARCheck, check_scar

__all__ = [
    "ClassPriorEstimate",
    "FSCPUSelector",
    "GKFPUALClassifier",
    "GKFPUALPath",
    "GKFPUALSelector",
    "GLLCClassifier",
    "LGBMOptSelector",
    "MRMRSelector",
    "NNPUClassifier",
    "PUALClassifier",
    "PUExtraTreesClassifier",
    "PUTree",
    "ResolvedPrior",
    "SCARCheck",
    "SemiJMISelector",
    "UPUClassifier",
    "WidePriorIntervalWarning",
    "check_scar",
    "estimate_class_prior",
    "gkf_pual_path",
    "resolve_class_prior",
    "selection_at_interval_ends",
]
