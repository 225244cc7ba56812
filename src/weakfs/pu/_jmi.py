"""Information-theoretic PU baselines of FSCPU: semi-JMI and mRMR (MIQ).

Both treat the unlabeled rows as negatives (in the PU case semi-JMI of Sechidis & Brown 2018 is
exactly JMI on the labels "labeled / unlabeled").  Features are discretised into 5 equal-width bins
(columns with at most 5 distinct values keep their values); mutual information is the plug-in
estimate in nats (``weakfs._information``); ties go to the lower column index.

References: K. Sechidis, G. Brown, "Simple strategies for semi-supervised feature selection",
Machine Learning 107 (2018); H. Peng, F. Long, C. Ding, "Feature selection based on mutual
information: criteria of max-dependency, max-relevance, and min-redundancy", IEEE TPAMI 27 (2005).
"""

from __future__ import annotations

import numbers
from typing import ClassVar

import numpy as np
from scipy import sparse
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval

from weakfs._docstrings import fill_doc
from weakfs._information import EncodedColumns, discretize
from weakfs._labels import check_pu_target
from weakfs._selection import RankingSelector
from weakfs._streaming import ChunkPasses, DaskPasses, StreamedColumns, is_dask_collection
from weakfs._validation import check_n_features_to_select, validate_X_y

__all__ = ["MRMRSelector", "SemiJMISelector"]


def _argmax_low(values: np.ndarray, allowed: np.ndarray) -> int:
    v = np.where(allowed, values, -np.inf)
    return int(np.flatnonzero(v == v.max())[0])


class _InfoSelector(RankingSelector):
    _parameter_constraints: ClassVar[dict] = {
        "n_features_to_select": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0, 1, closed="right"),
            None,
        ],
        "n_bins": [Interval(numbers.Integral, 2, None, closed="left"), None],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _prepare(self, X, y):
        X, y = validate_X_y(self, X, y, accept_sparse=["csc", "csr"])
        s = check_pu_target(self, y)
        k = check_n_features_to_select(self.n_features_to_select, X.shape[1])
        if self.n_bins is None:  # every distinct value its own category
            return (X.toarray() if sparse.issparse(X) else np.asarray(X)), s, k
        return discretize(X, self.n_bins), s, k

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Select features of ``X`` for the PU labels ``y``.

        Parameters
        ----------
        X : {array-like, sparse matrix, DataFrame, dask collection} of shape (n_samples, \
                n_features)
            Numeric features without NaN.  A Dask Array or DataFrame is counted on its
            partitions where they are (:meth:`fit_chunks`' passes, one Dask computation each;
            ``X.persist()`` first if the cluster's memory holds it, or each pass computes the
            partitions again): the same result as in memory.
        y : array-like of shape (n_samples,)
            PU labels: 1 (or True) labeled positive, 0, -1 or False unlabeled; with a Dask
            ``X``, a Dask Array, a Dask Series of ``X``'s partitions or labels in memory.

        Returns
        -------
        self : object
        """
        if is_dask_collection(X):
            return self._fit_streamed(DaskPasses(X, y, self))
        codes, s, k = self._prepare(X, y)
        return self._select(_InMemoryCounts(codes, s), k)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_chunks(self, chunks):
        """Fit on data read in chunks of rows: the same selection and scores, bit for bit, as
        :meth:`fit` on all the rows, in the memory of one chunk.

        The fit reads the chunks ``k + 2`` times (semi-JMI; mRMR ``k + 1``): once for each
        column's range and few values (the discretisation of the whole data), once for the
        relevance, then once per selected feature, adding integer counts over the chunks.

        Parameters
        ----------
        chunks : callable or iterable
            A function returning a fresh iterator of ``(X_chunk, y_chunk)`` pairs (called once
            per pass), or a re-iterable such as a list of pairs.  Every ``X_chunk`` (array,
            DataFrame, sparse matrix) has the same columns, with the same names if it has
            names; ``y_chunk`` holds the chunk's PU labels.  Chunks may differ in length; a
            generator (read once) is refused.

        Returns
        -------
        self : object

        Examples
        --------
        >>> import numpy as np
        >>> rng = np.random.RandomState(0)
        >>> X = rng.rand(300, 4); s = (X[:, 2] > 0.7).astype(int)
        >>> def chunks():  # e.g. reading a file part by part
        ...     for start in range(0, 300, 120):
        ...         yield X[start:start + 120], s[start:start + 120]
        >>> streamed = SemiJMISelector(n_features_to_select=2).fit_chunks(chunks)
        >>> in_memory = SemiJMISelector(n_features_to_select=2).fit(X, s)
        >>> streamed.ranking_.tolist() == in_memory.ranking_.tolist()
        True
        >>> bool((streamed.scores_ == in_memory.scores_).all())
        True
        """
        return self._fit_streamed(ChunkPasses(chunks, self))

    def _fit_streamed(self, passes):
        counts = StreamedColumns(passes, self.n_bins)  # the first pass
        n_features, names = passes.layout
        self.n_features_in_ = n_features
        if names is not None:
            self.feature_names_in_ = names
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        k = check_n_features_to_select(self.n_features_to_select, n_features)
        return self._select(counts, k)


class _InMemoryCounts:
    """The statistics a greedy selector reads, from the codes in memory (what
    :class:`weakfs._streaming.StreamedColumns` gives from chunks)."""

    def __init__(self, codes, s):
        self.codes, self.s = codes, s
        self.encoded = EncodedColumns(codes)
        self.shape = codes.shape

    def mutual_information(self) -> np.ndarray:
        return self.encoded.mutual_information(self.s)

    def jmi_pair_column(self, j: int, relevance: np.ndarray) -> np.ndarray:
        return self.encoded.jmi_pair_column(j, self.s, relevance)

    def column_mutual_information(self, j: int) -> np.ndarray:
        return self.encoded.mutual_information(self.codes[:, j])


@fill_doc
class SemiJMISelector(_InfoSelector):
    """Semi-JMI for PU data: JMI with the unlabeled rows as negatives.

    First the feature with the largest ``I(X; s)``, then repeatedly the feature maximising
    ``sum_{j in S} I(X_k, X_j; s)``; ties go to the lower index.  Data larger than memory:
    :meth:`fit_chunks` (chunks of rows, read ``k + 2`` times) or a Dask collection given to
    :meth:`fit`, with the in-memory result bit for bit.

    Parameters
    ----------
    %(n_features_to_select)s
    %(n_bins)s

    Attributes
    ----------
    ranking_ : ndarray of int
        Selected features in selection order.
    scores_ : ndarray of shape (n_features,)
        The criterion value at which each selected feature was chosen (``-inf`` for the rest).
    relevance_ : ndarray of shape (n_features,)
        ``I(X_i; s)`` in nats.
    pair_columns_ : ndarray of shape (n_features, n_selected)
        ``I(X_i, X_j; s)`` in nats for every feature ``i`` and each selected feature ``j``
        (``ranking_`` order), the ``relevance_`` on its own row: the columns of the pair
        matrix that JMI needs, computed in time linear in the number of features for each
        selected one (the whole matrix would be quadratic).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.RandomState(0)
    >>> X = rng.rand(200, 4); s = (X[:, 2] > 0.7).astype(int)
    >>> SemiJMISelector(n_features_to_select=1).fit(X, s).get_support().tolist()
    [False, False, True, False]
    """

    #: what ``scores_`` is, for printed rankings and plots
    SCORE_LABEL = "JMI criterion when chosen (nats; it grows along the selection)"

    def __init__(self, n_features_to_select: int | None = None, *, n_bins: int | None = 5):
        self.n_features_to_select = n_features_to_select
        self.n_bins = n_bins

    def _select(self, counts, k: int):
        d = counts.shape[1]
        rel = counts.mutual_information()
        scores = np.full(d, -np.inf)
        chosen = np.zeros(d, dtype=bool)
        first = _argmax_low(rel, ~chosen)
        order = [first]
        chosen[first] = True
        scores[first] = rel[first]
        # only the columns of the pair matrix for the chosen features (k x d, not d x d)
        columns = [counts.jmi_pair_column(first, rel)]
        acc = columns[0].copy()
        acc[first] = 0.0
        for _ in range(k - 1):
            j = _argmax_low(acc, ~chosen)
            order.append(j)
            chosen[j] = True
            scores[j] = acc[j]
            columns.append(counts.jmi_pair_column(j, rel))
            acc += columns[-1]
        self.relevance_ = rel
        self.pair_columns_ = np.column_stack(columns)
        return self._keep_first(order, len(order), d, scores=scores)


@fill_doc
class MRMRSelector(_InfoSelector):
    """mRMR with the MIQ criterion (Peng et al. 2005) on PU labels (unlabeled as negatives).

    First the feature with the largest ``I(X; s)``; then repeatedly the feature maximising
    ``I(X_k; s) / (mean_{j in S} I(X_k; X_j) + miq_eps)``; ties go to the lower index.  Data
    larger than memory: :meth:`fit_chunks` (chunks of rows, read ``k + 1`` times) or a Dask
    collection given to :meth:`fit`, with the in-memory result bit for bit.

    Parameters
    ----------
    %(n_features_to_select)s
    %(n_bins)s
    miq_eps : float, default=0.01
        Added to the redundancy to guard the quotient against a zero redundancy (the reference
        MATLAB code of mRMR adds 0.01).

    Attributes
    ----------
    ranking_, scores_ : as :class:`SemiJMISelector`
    relevance_ : ndarray of shape (n_features,)
        ``I(X_i; s)`` in nats.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.RandomState(1)
    >>> X = rng.normal(size=(300, 5))
    >>> s = ((X[:, 3] > 0.5) & (rng.rand(300) < 0.6)).astype(int)  # some positives labeled
    >>> MRMRSelector(n_features_to_select=1).fit(X, s).get_support(indices=True).tolist()
    [3]
    """

    _parameter_constraints: ClassVar[dict] = {
        **_InfoSelector._parameter_constraints,
        "miq_eps": [Interval(numbers.Real, 0, None, closed="left")],
    }

    #: what ``scores_`` is, for printed rankings and plots
    SCORE_LABEL = "MIQ criterion when chosen (relevance / mean redundancy; not monotone)"

    def __init__(
        self,
        n_features_to_select: int | None = None,
        *,
        n_bins: int | None = 5,
        miq_eps: float = 0.01,
    ):
        self.n_features_to_select = n_features_to_select
        self.n_bins = n_bins
        self.miq_eps = miq_eps

    def _select(self, counts, k: int):
        d = counts.shape[1]
        rel = counts.mutual_information()
        self.relevance_ = rel
        scores = np.full(d, -np.inf)
        chosen = np.zeros(d, dtype=bool)
        first = _argmax_low(rel, ~chosen)
        order = [first]
        chosen[first] = True
        scores[first] = rel[first]
        red_sum = counts.column_mutual_information(first) if k > 1 else None
        for step in range(1, k):
            quotient = rel / (red_sum / step + self.miq_eps) if self.miq_eps > 0 else None
            if quotient is None:
                with np.errstate(divide="ignore", invalid="ignore"):
                    quotient = np.where(red_sum > 0, rel / (red_sum / step), np.inf)
            j = _argmax_low(quotient, ~chosen)
            order.append(j)
            chosen[j] = True
            scores[j] = quotient[j]
            if step < k - 1:  # the last feature's redundancy would serve no further choice
                red_sum += counts.column_mutual_information(j)
        return self._keep_first(order, len(order), d, scores=scores)
