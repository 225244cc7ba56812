"""Unsupervised selection: UFVS (feature value selection under full coverage)."""

from weakfs.unsupervised._ufvs import UFVSPath, UFVSSelector, binary_entropy_of_counts, ufvs_path

__all__: list[str] = []
__all__ += ["UFVSPath", "UFVSSelector", "binary_entropy_of_counts", "ufvs_path"]  # UFVS
