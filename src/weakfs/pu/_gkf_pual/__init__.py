"""GKF-PUAL: the ADMM solver (``_admm``), the classifier and the selector."""

from weakfs.pu._gkf_pual._classifier import GKFPUALClassifier
from weakfs.pu._gkf_pual._selector import GKFPUALSelector

__all__ = ["GKFPUALClassifier", "GKFPUALSelector"]
