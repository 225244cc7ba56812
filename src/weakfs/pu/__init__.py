"""Positive-unlabeled (PU) learning: selectors and classifiers for data with labeled positives only.

Labels follow ``weakfs._labels.check_pu_labels``: 1 = labeled positive; 0, -1 or False = unlabeled.
"""

# Each method lives in its own private module and is re-exported here (one import line per module).
# --- PU Extra Trees (issue 3) ---
from weakfs.pu._extra_trees._classifier import PUExtraTreesClassifier, PUTree

# --- FSCPU, semi-JMI, mRMR (issue 4) ---
# isort: split
from weakfs.pu._fscpu._selector import FSCPUSelector

# --- GKF-PUAL and its baselines (issue 5) ---
from weakfs.pu._gkf_pual._classifier import GKFPUALClassifier, GKFPUALSelector
from weakfs.pu._jmi import MRMRSelector, SemiJMISelector
from weakfs.pu._prior import estimate_class_prior
from weakfs.pu._pual_baselines import (
    GLLCClassifier,
    NNPUClassifier,
    PUALClassifier,
    UPUClassifier,
)

__all__: list[str] = []
__all__ += [  # issue 5 (after the list exists)
    "GKFPUALClassifier",
    "GKFPUALSelector",
    "GLLCClassifier",
    "NNPUClassifier",
    "PUALClassifier",
    "UPUClassifier",
]
__all__ += ["PUExtraTreesClassifier", "PUTree", "estimate_class_prior"]  # issue 3
__all__ += ["FSCPUSelector", "MRMRSelector", "SemiJMISelector"]  # issue 4
