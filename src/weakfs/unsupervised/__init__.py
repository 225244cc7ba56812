"""Unsupervised selection: UFVS (feature value selection under full coverage)."""

# --- UFVS (issue 2) ---
from weakfs.unsupervised._ufvs._selector import UFVSSelector, binary_entropy_of_counts, ufvs_path

__all__: list[str] = []
__all__ += ["UFVSSelector", "binary_entropy_of_counts", "ufvs_path"]  # UFVS (issue 2)
