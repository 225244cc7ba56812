"""Cross-validation splitters for PU labels."""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import StratifiedKFold

from weakfs._labels import check_pu_labels
from weakfs._words import counted

__all__ = ["PUStratifiedKFold"]


class PUStratifiedKFold(StratifiedKFold):
    """K-fold that spreads the labeled positives evenly over the folds.

    Stratifies on the PU labels, so every test fold holds the same share of labeled positives
    (``n_labeled // n_splits`` or one more) and the prior-corrected scorers of
    :func:`~weakfs.model_selection.make_pu_scorer` see comparable folds.  ``y`` must be PU
    labels (1 labeled positive; 0, -1 or False unlabeled), with at least ``n_splits`` labeled and
    ``n_splits`` unlabeled rows.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2.
    shuffle : bool, default=False
        Shuffle each label group before splitting.
    random_state : int, RandomState instance or None, default=None
        Seed of the shuffle (only with ``shuffle=True``).

    Examples
    --------
    >>> import numpy as np
    >>> from weakfs.model_selection import PUStratifiedKFold
    >>> s = np.r_[np.ones(6, int), np.zeros(14, int)]
    >>> [int(s[test].sum()) for _, test in PUStratifiedKFold(3).split(np.zeros((20, 1)), s)]
    [2, 2, 2]
    """

    def split(self, X, y, groups=None):
        s = check_pu_labels(y, name="y")
        n_labeled = int(s.sum())
        n_unlabeled = int(s.shape[0] - n_labeled)
        if min(n_labeled, n_unlabeled) < self.n_splits:
            raise ValueError(
                f"n_splits={self.n_splits} needs at least {self.n_splits} labeled and "
                f"{counted(self.n_splits, 'unlabeled row')}; y has {n_labeled} labeled and "
                f"{n_unlabeled} "
                "unlabeled"
            )
        return super().split(X, np.asarray(s), groups)
