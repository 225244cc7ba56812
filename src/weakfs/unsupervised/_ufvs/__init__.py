"""UFVS: value encoding (``_encoding``), the selector (``_selector``) and the threshold path
(``_path``)."""

from weakfs.unsupervised._ufvs._path import UFVSPath, ufvs_path
from weakfs.unsupervised._ufvs._selector import UFVSSelector, binary_entropy_of_counts

__all__ = ["UFVSPath", "UFVSSelector", "binary_entropy_of_counts", "ufvs_path"]
