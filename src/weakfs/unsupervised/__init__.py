"""Unsupervised selection: UFVS (feature value selection under full coverage)."""

# --- UFVS (issue 2) ---

__all__: list[str] = []
