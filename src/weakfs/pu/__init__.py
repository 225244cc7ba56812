"""Positive-unlabeled (PU) learning: selectors and classifiers for data with labeled positives only.

Labels follow ``weakfs._labels.check_pu_labels``: 1 = labeled positive; 0, -1 or False = unlabeled.
"""

# Each method lives in its own private module and is re-exported here (one import line per module).
# --- PU Extra Trees (issue 3) ---
# --- FSCPU, semi-JMI, mRMR (issue 4) ---
# --- GKF-PUAL and its baselines (issue 5) ---

__all__: list[str] = []
