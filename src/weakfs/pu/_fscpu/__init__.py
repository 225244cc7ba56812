"""FSCPU and FSCPU-MI: the selector, its cluster-assumption objective and the mixture EM."""

from weakfs.pu._fscpu._selector import ClusterAssumptionObjective, FSCPUSelector

__all__ = ["ClusterAssumptionObjective", "FSCPUSelector"]
