"""Plots: one private module per method, re-exported here.  matplotlib is imported lazily inside
each function so that importing weakfs never needs a display."""

from weakfs.plotting._feature_scores import feature_scores, plot_feature_scores
from weakfs.plotting._fscpu import plot_theta_history
from weakfs.plotting._gkf_pual import plot_gkf_pual_path
from weakfs.plotting._pu_extra_trees import (
    plot_pu_extra_trees_importance_images,
    plot_pu_extra_trees_topk_curve,
)
from weakfs.plotting._sewil import plot_sewil_history
from weakfs.plotting._ufvs import plot_ufvs_path

__all__ = [
    "feature_scores",
    "plot_feature_scores",
    "plot_gkf_pual_path",
    "plot_pu_extra_trees_importance_images",
    "plot_pu_extra_trees_topk_curve",
    "plot_sewil_history",
    "plot_theta_history",
    "plot_ufvs_path",
]
