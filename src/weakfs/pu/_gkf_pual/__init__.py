"""GKF-PUAL: the ADMM solver (``_admm``), the classifier, the λ1 path and the selector."""

from weakfs.pu._gkf_pual._classifier import GKFPUALClassifier
from weakfs.pu._gkf_pual._path import GKFPUALPath, gkf_pual_path
from weakfs.pu._gkf_pual._selector import GKFPUALSelector

__all__ = ["GKFPUALClassifier", "GKFPUALPath", "GKFPUALSelector", "gkf_pual_path"]
