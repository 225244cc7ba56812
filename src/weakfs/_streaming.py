"""The counting selectors' statistics added up over chunks of rows: an iterable of ``(X, y)``
pairs read again for every pass, or the partitions of a Dask collection.

A greedy counting selector needs a few passes over the data, each adding integer counts that
are additive over rows:

1. the summary of every column (its range, and its values while it has at most ``n_bins`` of
   them): the discretisation of :func:`weakfs._information.discretize`, and the PU labels'
   counts;
2. the contingency table of every column with the labels (the relevance ``I(X_k; s)``), whose
   empty rows give the compression of :class:`weakfs._information.EncodedColumns`;
3. one pass per selected feature ``j``: the tables of every pair ``(X_k, X_j)`` with the labels
   (semi-JMI) or of every column with ``X_j`` (mRMR).

Codes and counts are integers, the same for any split of the rows, and the mutual information is
computed from them by the same numpy steps as in memory
(:func:`weakfs._information._mi_from_table`): a streamed fit is bit for bit the in-memory fit.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
from scipy import sparse
from sklearn.utils import check_array
from sklearn.utils.validation import _get_feature_names

from weakfs._information import _COMPILED_CELLS, _code_dtype, _mi_from_table
from weakfs._information_kernels import (
    COLUMN_MAJOR,
    PIVOT_MAJOR,
    SINGLE,
    column_summary,
    contingency_counts,
    fixed_width_codes,
)
from weakfs._labels import _as_1d, check_pu_target, pu_one_class_error
from weakfs._validation import as_pandas_if_table
from weakfs._words import counted

__all__ = ["ChunkPasses", "DaskPasses", "StreamedColumns", "is_dask_collection"]

#: what a chunk source must be, said by every error about it
CHUNKS_HELP = (
    "chunks must be a function returning a fresh iterator of (X_chunk, y_chunk) pairs, or a "
    "re-iterable such as a list of pairs"
)


def is_dask_collection(obj) -> bool:
    """Whether ``obj`` is a Dask Array, DataFrame or Series (without importing Dask)."""
    return type(obj).__module__.split(".")[0] == "dask" and hasattr(obj, "__dask_graph__")


# ---------------------------------------------------------------------------------------------
# one chunk


def _describe(n_features: int, names) -> str:
    if names is None:
        return f"{n_features} unnamed columns"
    shown = ", ".join(map(repr, list(names)[:6])) + (", ..." if len(names) > 6 else "")
    return f"{counted(n_features, 'column')} ({shown})"


def _chunk_arrays(estimator, X, y, index: int, layout):
    """One chunk as a C-ordered float64 matrix and int64 PU labels, with its layout
    ``(n_features, feature names or None)``; a ``ValueError`` when the layout is not
    ``layout`` (the first chunk's) or the rows of ``X`` and ``y`` differ."""
    if X is None:
        raise ValueError(f"chunk {index} has no X: {CHUNKS_HELP}")
    if sparse.issparse(X):  # coded as the dense matrix (as discretize codes a sparse one)
        X = X.toarray()
    X = as_pandas_if_table(X)  # an Arrow record batch or table, a Polars DataFrame
    names = _get_feature_names(X)
    X = check_array(
        X, dtype=np.float64, order="C", ensure_min_samples=0, input_name="X", estimator=estimator
    )
    found = (X.shape[1], names)
    if layout is not None:
        same_names = (names is None and layout[1] is None) or (
            names is not None and layout[1] is not None and list(names) == list(layout[1])
        )
        if found[0] != layout[0] or not same_names:
            raise ValueError(
                f"chunk {index} has {_describe(*found)}, the first chunk {_describe(*layout)}: "
                "every chunk must have the same columns"
            )
    if X.shape[0] == 0:
        return X, np.zeros(0, dtype=np.int64), found
    y = _as_1d(y)
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"chunk {index}: X has {counted(X.shape[0], 'row')} and y has {y.shape[0]}; each "
            "chunk's X "
            "and y must have one label per row"
        )
    s = check_pu_target(estimator, y, allow_one_class=True)
    return X, s.astype(np.int64), found


# ---------------------------------------------------------------------------------------------
# the passes: an iterable of chunks, or Dask partitions


class ChunkPasses:
    """Passes over ``(X_chunk, y_chunk)`` pairs, read again for every pass.

    Parameters
    ----------
    chunks : callable or iterable
        A function returning a fresh iterator of pairs (called once per pass), or a
        re-iterable (a list of pairs, or an object whose ``__iter__`` starts again).  A one-shot
        iterator (a generator) is refused: the fit reads the chunks several times.
    estimator : estimator instance
        The estimator being fitted (named in the errors about its input).
    """

    def __init__(self, chunks, estimator):
        if not callable(chunks):
            try:
                again = iter(chunks) is not chunks
            except TypeError:
                raise TypeError(f"{CHUNKS_HELP}; got {type(chunks).__name__}") from None
            if not again:
                raise TypeError(
                    f"{CHUNKS_HELP}; got a one-shot iterator ({type(chunks).__name__}), which "
                    "can be read once, but a greedy fit reads the chunks k + 2 times: pass "
                    "the function that makes it (lambda: read_chunks(...)) instead"
                )
        self.chunks = chunks
        self.estimator = estimator
        self.layout = None
        self.n_rows = None

    def _pairs(self):
        source = self.chunks() if callable(self.chunks) else self.chunks
        try:
            return iter(source)
        except TypeError:
            raise TypeError(
                f"{CHUNKS_HELP}; the function returned a {type(source).__name__}"
            ) from None

    def run(self, add: Callable, merge: Callable):
        """``add(state, X, s) -> state`` over every chunk in one pass (``state`` starts as
        None); ``merge`` is not needed here (one running state)."""
        state, rows, index = None, 0, -1
        for pair in self._pairs():  # not enumerate: its cached tuple would keep the last chunk
            index += 1
            if not isinstance(pair, tuple | list) or len(pair) != 2:
                raise TypeError(f"chunk {index} is not an (X, y) pair: {CHUNKS_HELP}")
            X, s, layout = _chunk_arrays(self.estimator, *pair, index, self.layout)
            self.layout = layout if self.layout is None else self.layout
            if X.shape[0]:
                state = add(state, X, s)
                rows += X.shape[0]
            del pair, X, s  # freed before the next chunk is read: one chunk in memory
        if self.n_rows is None:
            self.n_rows = rows
        elif rows != self.n_rows:
            raise ValueError(
                f"the chunks changed between passes: {counted(self.n_rows, 'row')} in the first "
                "pass, "
                f"{rows} now; {CHUNKS_HELP} giving the same rows each time"
            )
        return state


def _partition_state(estimator, X, y, index: int, layout, add: Callable):
    """One Dask partition's state, for :meth:`DaskPasses.run`."""
    X, s, _ = _chunk_arrays(estimator, X, y, index, layout)
    return (add(None, X, s) if X.shape[0] else None), X.shape[0]


class DaskPasses:
    """Passes over the row partitions of a Dask Array or DataFrame: each pass computes one
    state per partition on the cluster (the scheduler in use: a ``distributed`` client, or
    Dask's default) and merges the states (small count arrays) here.

    Parameters
    ----------
    X : dask.array.Array or dask.dataframe.DataFrame
        The features; a 2-D array is rechunked to whole rows.
    y : dask collection or array-like
        The labels: a Dask Array (rechunked as ``X``'s rows), a Dask Series with ``X``'s
        partitions, or an in-memory array split as ``X``'s rows.
    estimator : estimator instance
        The estimator being fitted (named in the errors about its input).
    """

    def __init__(self, X, y, estimator):
        import dask.array as da

        self.estimator = estimator
        if isinstance(X, da.Array):
            if X.ndim != 2:
                raise ValueError(f"a Dask array X must be 2-D; got {X.ndim} dimensions")
            X = X.rechunk({1: -1})
            rows = X.chunks[0]
            xs = list(X.to_delayed().ravel())
            names = None
        elif hasattr(X, "to_delayed") and hasattr(X, "columns"):
            import pandas as pd

            xs = list(X.to_delayed())
            rows = None
            names = _get_feature_names(pd.DataFrame(columns=X.columns))
        else:
            raise TypeError(f"X must be a Dask Array or DataFrame; got {type(X).__name__}")
        self.layout = (X.shape[1] if rows is not None else len(X.columns), names)
        self.parts = list(zip(xs, self._label_parts(X, y, rows, len(xs)), strict=True))
        self.n_rows = None

    @staticmethod
    def _label_parts(X, y, rows, n_parts: int) -> list:
        import dask.array as da

        if y is None:
            raise ValueError("y is required: a Dask collection or an array of labels")
        if is_dask_collection(y):
            if isinstance(y, da.Array):
                if rows is None:
                    raise TypeError(
                        "y is a Dask Array and X a Dask DataFrame: give y as a Dask Series of "
                        "X's partitions (X[...] or dd.from_pandas with the same partitions)"
                    )
                if any(np.isnan(r) for r in rows):
                    raise ValueError("X has unknown chunk sizes: call X.compute_chunk_sizes()")
                return list(y.rechunk((rows,)).to_delayed().ravel())
            if getattr(y, "npartitions", None) != n_parts or rows is not None:
                raise ValueError(
                    f"y must be a Dask Series with X's {n_parts} partitions (or an array "
                    "of labels in memory)"
                )
            return list(y.to_delayed())
        y = _as_1d(y)
        if rows is None:  # a DataFrame's partition lengths: one cheap pass
            rows = tuple(int(r) for r in X.map_partitions(len).compute())
        if any(np.isnan(r) for r in rows):
            raise ValueError("X has unknown chunk sizes: call X.compute_chunk_sizes()")
        if sum(rows) != y.shape[0]:
            raise ValueError(f"X has {counted(int(sum(rows)), 'row')} and y has {y.shape[0]}")
        return np.split(y, np.cumsum(rows)[:-1].astype(int))

    def run(self, add: Callable, merge: Callable):
        """``add`` on every partition (a fresh state each), then ``merge`` of their states."""
        import dask

        tasks = [
            dask.delayed(_partition_state)(self.estimator, x, y, i, self.layout, add)
            for i, (x, y) in enumerate(self.parts)
        ]
        results = dask.compute(*tasks)
        rows = sum(r for _, r in results)
        if self.n_rows is None:
            self.n_rows = rows
        states = [state for state, _ in results if state is not None]
        return functools.reduce(merge, states) if states else None


# ---------------------------------------------------------------------------------------------
# the statistics


def _sum_states(a, b):
    return tuple(x + y for x, y in zip(a, b, strict=True))


class StreamedColumns:
    """The counts of :class:`weakfs._information.EncodedColumns` (with the codes of
    :func:`weakfs._information.discretize`), added up over passes through chunks.

    The constructor makes the first pass (the summary of every column and the labels' counts);
    :meth:`mutual_information` the second; :meth:`jmi_pair_column` and
    :meth:`column_mutual_information` one pass each.  Every result equals the in-memory one bit
    for bit.

    Parameters
    ----------
    passes : ChunkPasses or DaskPasses
        The chunks.
    n_bins : int
        Equal-width bins; columns with at most ``n_bins`` distinct values keep their values.
    """

    def __init__(self, passes, n_bins: int):
        if n_bins is None:
            raise ValueError(
                "a streamed fit needs n_bins (every distinct value its own category, "
                "n_bins=None, is not bounded over chunks)"
            )
        self.passes, self.n_bins = passes, int(n_bins)
        self.code_dtype = _code_dtype(self.n_bins)
        if np.dtype(self.code_dtype).itemsize > 2:
            raise ValueError(f"a streamed fit takes n_bins <= 65536; got {n_bins}")
        limit = self.n_bins

        def add(state, X, s):
            if state is None:
                d = X.shape[1]
                state = (
                    np.full(d, np.inf),
                    np.full(d, -np.inf),
                    np.empty((d, limit)),
                    np.zeros(d, dtype=np.int64),
                    np.ones(d, dtype=bool),
                    np.zeros(1, dtype=np.int64),
                )
            lo, hi, found, n_found, few, n_labeled = state
            column_summary(X, limit, lo, hi, found, n_found, few)
            n_labeled += s.sum()
            return state

        def merge(a, b):
            lo, hi = np.minimum(a[0], b[0]), np.maximum(a[1], b[1])
            found, n_found, few = a[2].copy(), a[3].copy(), a[4] & b[4]
            for j in np.flatnonzero(few):
                values = np.unique(np.concatenate([a[2][j, : a[3][j]], b[2][j, : b[3][j]]]))
                if values.shape[0] > limit:
                    few[j] = False
                else:
                    found[j, : values.shape[0]] = values
                    n_found[j] = values.shape[0]
            return lo, hi, found, n_found, few, a[5] + b[5]

        state = passes.run(add, merge)
        n = passes.n_rows
        if state is None or not n:
            raise ValueError(f"the chunks hold no rows: {CHUNKS_HELP}")
        self.lo, self.hi, found, self.n_values, self.few, n_labeled = state
        n_labeled = int(n_labeled[0])
        if n_labeled in (0, n):
            raise pu_one_class_error(n, labeled=n_labeled == n)
        self.values = np.zeros_like(found)  # sorted, as equal_width_codes sorts them
        for j in range(found.shape[0]):
            self.values[j, : self.n_values[j]] = np.sort(found[j, : self.n_values[j]])
        self.n_rows, self.n_features = n, found.shape[0]
        self.y_counts = np.array([n - n_labeled, n_labeled], dtype=np.int64)
        self.raw_sizes = np.where(self.few, self.n_values, self.n_bins).astype(np.int64)
        self.code_map = np.tile(np.arange(self.n_bins, dtype=self.code_dtype), (self.n_features, 1))
        self.sizes = None  # after the relevance pass

    @property
    def shape(self) -> tuple[int, int]:
        return self.n_rows, self.n_features

    def _codes(self, X) -> np.ndarray:
        out = np.empty(X.shape, dtype=self.code_dtype)
        fixed_width_codes(
            X, self.lo, self.hi, self.n_bins, self.values, self.n_values, self.few,
            self.code_map, out,
        )  # fmt: skip
        return out

    @staticmethod
    def _offsets(sizes) -> np.ndarray:
        cells = int(sizes.sum()) * 2
        if cells > _COMPILED_CELLS:  # the in-memory fit would count in blocks
            raise ValueError(
                f"a streamed fit counts contingency tables of at most {_COMPILED_CELLS} cells; "
                f"this one has {cells} (features x bins x bins x 2): use fewer bins or features"
            )
        return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)

    def mutual_information(self) -> np.ndarray:
        """``I(X_k; s)`` in nats of every column (the relevance), and the compression of the
        codes: the second pass."""
        sizes = self.raw_sizes
        offsets = self._offsets(sizes)
        pivot = np.zeros(1, dtype=self.code_dtype)

        def add(state, X, s):
            state = state if state is not None else (np.zeros(int(offsets[-1]) * 2, np.int64),)
            contingency_counts(self._codes(X), offsets, s, 2, pivot, 1, SINGLE, state[0])
            return state

        table = self.passes.run(add, _sum_states)[0].reshape(-1, 2)
        present = table.sum(axis=1) > 0  # the codes a column holds: EncodedColumns' compression
        self.sizes = np.add.reduceat(present, offsets[:-1]).astype(np.int64)
        for j in range(self.n_features):
            held = np.flatnonzero(present[offsets[j] : offsets[j + 1]])
            self.code_map[j, held] = np.arange(held.shape[0])
        self.table = table[present]  # the compressed table, (sizes.sum(), 2)
        self.offsets = self._offsets(self.sizes)
        return _mi_from_table(self.table.ravel(), self.sizes, self.y_counts, np.e)

    def jmi_pair_column(self, j: int, relevance: np.ndarray) -> np.ndarray:
        """:meth:`weakfs._information.EncodedColumns.jmi_pair_column` in one pass (both codings
        of the pair counted together)."""
        size_j = int(self.sizes[j])
        sizes = self.sizes * size_j
        offsets = self._offsets(sizes)

        def add(state, X, s):
            if state is None:
                state = tuple(np.zeros(int(offsets[-1]) * 2, np.int64) for _ in range(2))
            codes = self._codes(X)
            pivot = codes[:, j]
            contingency_counts(codes, offsets, s, 2, pivot, size_j, COLUMN_MAJOR, state[0])
            contingency_counts(codes, offsets, s, 2, pivot, size_j, PIVOT_MAJOR, state[1])
            return state

        column_major, pivot_major = self.passes.run(add, _sum_states)
        column = 0.5 * (
            _mi_from_table(column_major, sizes, self.y_counts, np.e)
            + _mi_from_table(pivot_major, sizes, self.y_counts, np.e)
        )
        column[j] = relevance[j]
        return column

    def column_mutual_information(self, j: int) -> np.ndarray:
        """``I(X_k; X_j)`` in nats of every column ``k`` (mRMR's redundancy): one pass."""
        size_j = int(self.sizes[j])
        cells = int(self.sizes.sum()) * size_j
        if cells > _COMPILED_CELLS:
            raise ValueError(
                f"a streamed fit counts contingency tables of at most {_COMPILED_CELLS} cells; "
                f"this one has {cells}: use fewer bins or features"
            )
        offsets = self.offsets
        pivot = np.zeros(1, dtype=self.code_dtype)

        def add(state, X, s):
            state = state if state is not None else (np.zeros(cells, np.int64),)
            codes = self._codes(X)
            y_codes = codes[:, j].astype(np.int64)
            contingency_counts(codes, offsets, y_codes, size_j, pivot, 1, SINGLE, state[0])
            return state

        table = self.passes.run(add, _sum_states)[0]
        y_counts = self.table[offsets[j] : offsets[j + 1]].sum(axis=1)
        return _mi_from_table(table, self.sizes, y_counts, np.e)
