"""Semi-supervised selection (scikit-learn's -1 = unlabeled): self-learning, SEW-IL and baselines."""

# --- SEW-IL, self-learning, baselines (issue 6) ---

__all__: list[str] = []
