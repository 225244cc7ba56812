"""The UFVS selection over a range of cut-offs, with the information measures of the paper's
Figures 5-10 (Shin, Okumoto, Shepard, Kuboyama, Hashimoto, Ohshima, "A Fast Algorithm for
Unsupervised Feature Value Selection", ICAART 2020).

The data are encoded once and every value's bitset is built once; each cut-off then only picks
its candidates (:func:`~weakfs.unsupervised._ufvs._selector.select_candidates`, the selector's own
rule) and runs the search.  No estimator is fitted or modified.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from weakfs._information import entropy, mutual_information
from weakfs._words import counted
from weakfs.unsupervised._ufvs import _kernels as K
from weakfs.unsupervised._ufvs._encoding import _bitset_patterns
from weakfs.unsupervised._ufvs._selector import (
    UFVSSelector,
    _names,
    _search,
    binary_entropy_of_counts,
    resolve_cutoff,
    select_candidates,
)

__all__ = ["UFVSPath", "ufvs_path"]


def ufvs_path(
    X,
    y=None,
    *,
    thresholds=None,
    counts=None,
    n_bins: int = 5,
    keep_discrete_up_to: int | None = None,
    zero_as_absent: bool | None = None,
    categorical_features="auto",
    measures: bool = True,
) -> pd.DataFrame:
    """UFVS over a range of cut-offs and the information measures the paper plots.

    The data are encoded once; for each cut-off the search runs again on the surviving values.

    Parameters
    ----------
    X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), optional
        Class labels ``C`` (only used for the measures, never for the selection).
    thresholds : array-like of float, optional
        Cut-offs in bits.
    counts : array-like of int, optional
        Cut-offs as row counts (the paper's x-axis).  Default: 21 counts evenly spaced from 0 to
        ``n_samples // 2``.  Give ``thresholds`` or ``counts``, not both.
    n_bins, keep_discrete_up_to, zero_as_absent, categorical_features
        As in :class:`UFVSSelector`.
    measures : bool, default=True
        Compute the entropies and mutual informations; ``False`` leaves only the counts and
        times (a pure sweep of the search).

    Returns
    -------
    path : DataFrame
        One row per cut-off with ``min_count``, ``threshold`` (bits), ``n_values`` (all one-hot
        values), ``n_candidates``, ``n_selected`` (``|S|``), ``n_uncoverable``, ``H_S`` and
        ``H_F`` (joint entropies in bits of the selected indicator columns and of all discretised
        features), ``search_ms``; with ``y`` also ``H_C``, ``I_S_C``, ``I_F_C``, ``NMI_S_C`` and
        ``NMI_F_C`` (``NMI = 2 I / (H + H_C)``), and ``selected`` (the ``"feature=value"`` names
        of ``S``), ``largest_share`` (the fraction of rows holding the most common selected
        value).  ``path.attrs`` holds the seconds spent
        encoding (``"encode_seconds"``) and building the bitsets (``"bitsets_seconds"``).

    See Also
    --------
    UFVSPath : the encoded data kept for later cut-offs.

    Examples
    --------
    >>> import pandas as pd
    >>> from weakfs.unsupervised import ufvs_path
    >>> X = pd.DataFrame({"f0": [0, 0, 0, 1, 2], "f1": [2, 1, 0, 0, 0]}).astype("category")
    >>> path = ufvs_path(X, [1, 1, 0, 2, 2], counts=[1])
    >>> path[["min_count", "n_selected", "H_S", "I_S_C", "NMI_S_C"]].round(3)
       min_count  n_selected    H_S  I_S_C  NMI_S_C
    0          1           2  1.522  1.522      1.0
    """
    if thresholds is not None and counts is not None:
        raise ValueError("give either thresholds (bits) or counts (rows), not both")
    runner = UFVSPath(
        X,
        y,
        n_bins=n_bins,
        keep_discrete_up_to=keep_discrete_up_to,
        zero_as_absent=zero_as_absent,
        categorical_features=categorical_features,
        measures=measures,
    )
    return runner.run(thresholds=thresholds, counts=counts)


class UFVSPath:
    """UFVS over any number of cut-offs, with the data encoded once.

    The constructor validates and encodes ``X``, builds the bitset of every feature value and,
    when ``measures``, the label statistics; :meth:`run` then selects the values of each cut-off
    exactly as :class:`UFVSSelector` would (same candidates, same order, same search) and reports
    what :func:`ufvs_path` reports.  Neither the input nor any estimator is modified, so one
    instance serves any number of :meth:`run` calls (e.g. one per cell of an experiment).

    Parameters
    ----------
    X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
        The data, as for :meth:`UFVSSelector.fit`.
    y : array-like of shape (n_samples,), optional
        Class labels ``C`` (only used for the measures, never for the selection).
    n_bins : int, default=5
    keep_discrete_up_to : int or None, default=None
    zero_as_absent : bool or None, default=None
    categorical_features : "auto" or array-like, default="auto"
        As in :class:`UFVSSelector`.
    measures : bool, default=True
        Compute the entropies and mutual informations; ``False`` leaves only the counts and
        times.

    Attributes
    ----------
    encode_seconds : float
        Seconds spent validating and encoding ``X``.
    bitsets_seconds : float
        Seconds spent building the bitsets of all values.
    names : list of str
        The input column names (``x0, x1, ...`` for arrays).

    See Also
    --------
    ufvs_path : one call that builds a ``UFVSPath`` and runs it.
    UFVSSelector : the selection at one cut-off, as a transformer.

    Examples
    --------
    >>> import pandas as pd
    >>> from weakfs.unsupervised import UFVSPath
    >>> X = pd.DataFrame({"f0": [0, 0, 0, 1, 2], "f1": [2, 1, 0, 0, 0]}).astype("category")
    >>> runner = UFVSPath(X, [1, 1, 0, 2, 2])
    >>> runner.run(counts=[0, 1])[["min_count", "n_candidates", "n_selected"]]
       min_count  n_candidates  n_selected
    0          0             6           3
    1          1             2           2
    >>> runner.run(counts=[1])["selected"].iloc[0]
    ['f0=0', 'f1=0']
    """

    def __init__(
        self,
        X,
        y=None,
        *,
        n_bins: int = 5,
        keep_discrete_up_to: int | None = None,
        zero_as_absent: bool | None = None,
        categorical_features="auto",
        measures: bool = True,
    ):
        # a private selector only validates the parameters and the input; it is then dropped
        validator = UFVSSelector(
            n_bins=n_bins,
            keep_discrete_up_to=keep_discrete_up_to,
            zero_as_absent=zero_as_absent,
            categorical_features=categorical_features,
        )
        validator._validate_params()
        start = time.perf_counter()
        enc = validator._encode_fit(X)
        self.encode_seconds = time.perf_counter() - start
        self.names = _names(validator)
        self._enc, self._measures = enc, measures
        n = enc.n_rows
        self._entropies = binary_entropy_of_counts(enc.counts, n)
        self._n_values = int((enc.counts > 0).sum())
        self._labels = None
        if y is not None:
            y_arr = np.asarray(y).ravel()
            if y_arr.shape[0] != n:
                raise ValueError(f"X has {counted(n, 'row')} but y has {y_arr.shape[0]} entries")
            if pd.isna(y_arr).any():
                raise ValueError("y contains missing values (NaN/None)")
            self._labels = np.unique(y_arr, return_inverse=True)[1].ravel()
        if measures:
            feature_codes = enc.feature_patterns()
            self._h_f = entropy(feature_codes)
            if self._labels is not None:
                self._h_c = entropy(self._labels)
                self._i_f = mutual_information(feature_codes, self._labels)
        all_ids = np.flatnonzero(enc.counts > 0)
        start = time.perf_counter()
        self._all_bits = enc.bitsets(all_ids)  # once; each cut-off takes its candidates
        self.bitsets_seconds = time.perf_counter() - start
        self._position = np.full(enc.counts.shape[0], -1, dtype=np.int64)
        self._position[all_ids] = np.arange(all_ids.shape[0])

    def run(self, *, thresholds=None, counts=None) -> pd.DataFrame:
        """The selection and its measures at each cut-off.

        Parameters
        ----------
        thresholds : array-like of float, optional
            Cut-offs in bits.
        counts : array-like of int, optional
            Cut-offs as row counts.  Default: 21 counts evenly spaced from 0 to
            ``n_samples // 2``.  Give ``thresholds`` or ``counts``, not both.

        Returns
        -------
        path : DataFrame
            One row per cut-off, the columns described in :func:`ufvs_path`.
        """
        if thresholds is not None and counts is not None:
            raise ValueError("give either thresholds (bits) or counts (rows), not both")
        n = self._enc.n_rows
        if thresholds is None and counts is None:
            counts = np.unique(np.linspace(0, n // 2, 21).round().astype(int))
        if thresholds is not None:
            cuts = [(float(t), None) for t in np.atleast_1d(thresholds)]
            if any(t < 0 or not np.isfinite(t) for t, _ in cuts):
                raise ValueError(f"thresholds must be finite and >= 0; got {list(thresholds)}")
        else:
            arr = np.atleast_1d(np.asarray(counts))
            if arr.size and (arr.min() < 0 or not np.all(arr == np.round(arr))):
                raise ValueError(f"counts must be non-negative integers; got {list(arr)}")
            cuts = [(None, int(c)) for c in arr]
        path = pd.DataFrame([self._one(t, c) for t, c in cuts])
        path.attrs.update(
            {"encode_seconds": self.encode_seconds, "bitsets_seconds": self.bitsets_seconds}
        )
        return path

    def _one(self, threshold, min_count) -> dict:
        enc, n = self._enc, self._enc.n_rows
        m, threshold, min_count = resolve_cutoff(threshold, min_count, n)
        candidate, ids = select_candidates(enc.counts, self._entropies, n, m, threshold)
        bits = self._all_bits[self._position[ids]]
        kept, covered, t_search = _search(bits)
        sel = ids[kept]
        cols = np.searchsorted(enc.offsets, sel, side="right") - 1
        row = {
            "min_count": min_count,
            "threshold": threshold,
            "n_values": self._n_values,
            "n_candidates": int(candidate.sum()),
            "n_selected": int(kept.shape[0]),
            "n_uncoverable": int(n - K.popcount_words(covered)),
            "search_ms": 1000.0 * t_search,
            "selected": [f"{self.names[c]}={v}" for c, v in zip(cols, enc.value_labels(sel))],
            "largest_share": float(enc.counts[sel].max() / n) if sel.size else 0.0,
        }
        if self._measures:
            patterns = _bitset_patterns(bits[kept], n)
            row["H_S"] = max(0.0, entropy(patterns))  # no -0.0
            row["H_F"] = self._h_f
            if self._labels is not None:
                i_s = mutual_information(patterns, self._labels)
                h_s, h_c, h_f, i_f = row["H_S"], self._h_c, self._h_f, self._i_f
                row.update(
                    {
                        "H_C": h_c,
                        "I_S_C": i_s,
                        "I_F_C": i_f,
                        "NMI_S_C": 2 * i_s / (h_s + h_c) if h_s + h_c > 0 else 1.0,
                        "NMI_F_C": 2 * i_f / (h_f + h_c) if h_f + h_c > 0 else 1.0,
                    }
                )
        return row
