"""GKF-PUAL: the ADMM solver, the classifier and the selector."""

from weakfs.pu._gkf_pual._classifier import GKFPUALClassifier, GKFPUALSelector

__all__ = ["GKFPUALClassifier", "GKFPUALSelector"]
