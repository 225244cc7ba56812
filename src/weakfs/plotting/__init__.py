"""Plots: one private module per method, re-exported here.  matplotlib is imported lazily inside
each function so that importing weakfs never needs a display."""

# --- UFVS path panels (issue 2) ---
# --- PU Extra Trees importance image, top-k curves (issue 3) ---
# --- FSCPU theta trajectories (issue 4) ---
# --- GKF-PUAL (issue 5) ---
# --- SEW-IL fitness history (issue 6) ---

__all__: list[str] = []
