"""UFVS: value encoding, the selector and the threshold path."""

from weakfs.unsupervised._ufvs._selector import UFVSSelector, binary_entropy_of_counts, ufvs_path

__all__ = ["UFVSSelector", "binary_entropy_of_counts", "ufvs_path"]
