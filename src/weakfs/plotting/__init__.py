"""Plots: one private module per method, re-exported here.  matplotlib is imported lazily inside
each function so that importing weakfs never needs a display."""

# --- UFVS path panels (issue 2) ---
# --- PU Extra Trees importance image, top-k curves (issue 3) ---
from weakfs.plotting._puet import plot_puet_importance_images, plot_puet_topk_curve

# --- FSCPU theta trajectories (issue 4) ---
# isort: split
from weakfs.plotting._fscpu import plot_theta_history

# --- GKF-PUAL (issue 5) ---
# --- SEW-IL fitness history (issue 6) ---
from weakfs.plotting._sewil import plot_sewil_history
from weakfs.plotting._ufvs import plot_ufvs_path

__all__: list[str] = []
__all__ += ["plot_ufvs_path"]  # UFVS (issue 2)
__all__ += ["plot_puet_importance_images", "plot_puet_topk_curve"]  # PU ET (issue 3)
__all__ += ["plot_sewil_history"]  # SEW-IL (issue 6)
__all__ += ["plot_theta_history"]  # FSCPU (issue 4)
