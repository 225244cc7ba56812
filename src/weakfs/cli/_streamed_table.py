"""``--chunksize``: a Parquet file's numeric columns, read in batches of rows by the selectors
that fit on chunks (semi-JMI, mRMR)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from weakfs.cli._common import _fail, _names
from weakfs.cli._table import TableRequest, _check_names, _require_parquet

__all__ = ["StreamedTable", "_stream_table"]


@dataclass(frozen=True)
class StreamedTable:
    """A Parquet file read for a streamed fit: the target column (read whole: labels are one
    column), the numeric feature columns streamed in batches, and notes."""

    path: object
    y: pd.Series | None
    columns: tuple[str, ...]
    n_rows: int
    chunksize: int
    notes: tuple[str, ...] = ()

    def chunks(self, labels: np.ndarray):
        """A function returning a fresh iterator of ``(X_chunk, labels_chunk)``: one batch of
        ``chunksize`` rows at a time (``ParquetFile.iter_batches``), the feature columns only,
        as a float DataFrame over one array (no copy on the way to the selector).  pyarrow
        decodes a row group at a time: memory holds about one row group and one chunk."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        columns = list(self.columns)
        pool = pa.default_memory_pool()

        def batches():
            start = 0
            reader = pq.ParquetFile(self.path, pre_buffer=False, buffer_size=1 << 22)
            for batch in reader.iter_batches(batch_size=self.chunksize, columns=columns):
                X = np.empty((batch.num_rows, len(columns)))
                for j, column in enumerate(batch.columns):
                    if column.null_count:
                        _fail(
                            f"missing values in column {columns[j]!r} (rows from {start}): "
                            "--chunksize reads values as they are (no --impute); --drop the "
                            "column or fill it first"
                        )
                    X[:, j] = column.to_numpy(zero_copy_only=False)
                stop = start + batch.num_rows
                del batch, column  # only one batch and one chunk in memory at a time
                pool.release_unused()  # mimalloc keeps freed row groups otherwise
                yield pd.DataFrame(X, columns=columns, copy=False), labels[start:stop]
                del X
                start = stop

        return batches


def _columns_with_nulls(metadata, columns) -> list[str]:
    """The columns whose row-group statistics count missing values (files without statistics
    are checked batch by batch while streaming)."""
    found = set()
    for i in range(metadata.num_row_groups):
        group = metadata.row_group(i)
        for j in range(group.num_columns):
            chunk = group.column(j)
            stats = chunk.statistics
            if stats is not None and stats.has_null_count and stats.null_count:
                found.add(chunk.path_in_schema)
    return [c for c in columns if c in found]


def _is_numeric_field(field) -> bool:
    import pyarrow as pa

    return (
        pa.types.is_integer(field.type)
        or pa.types.is_floating(field.type)
        or (pa.types.is_boolean(field.type))
    )


def _stream_table(request: TableRequest, chunksize: int) -> StreamedTable:
    """``--chunksize``: the schema, the target column and the numeric feature columns of a
    Parquet file, whose rows the fit streams.

    Limited preparation, said in the notes: only integer, float and boolean columns are read
    (booleans as 0/1); other columns (text, dates) are left out, not one-hot encoded; IDs are
    not detected (``--drop`` them); missing values in a feature column are an error."""
    import pyarrow.parquet as pq

    path = request.path
    if not path.is_file():
        _fail(f"no such file: {path}")
    _require_parquet(f"reading {path.name}")
    try:
        reader = pq.ParquetFile(path)
    except Exception as exc:  # pyarrow's errors are several types; all mean "not Parquet"
        _fail(f"{path.name} is not a readable Parquet file: {str(exc).strip()}")
    fields = [f for f in reader.schema_arrow if f.name != request.target]
    target = request.target
    if target is not None and target not in reader.schema_arrow.names:
        _fail(
            f"target column {target!r} not in {path.name}; columns: "
            f"{_names(reader.schema_arrow.names)}"
        )
    _check_names("--drop", request.drop, pd.Index([f.name for f in fields]), target)
    fields = [f for f in fields if f.name not in request.drop]
    columns = tuple(f.name for f in fields if _is_numeric_field(f))
    other = [f.name for f in fields if not _is_numeric_field(f)]
    notes = []
    if other:
        notes.append(
            f"--chunksize reads numeric columns only: left out {_names(other)} (not one-hot "
            "encoded; read the table without --chunksize to use them)"
        )
    if not columns:
        _fail(f"{path.name} has no numeric feature column to stream")
    missing = _columns_with_nulls(reader.metadata, columns)
    if missing:
        _fail(
            f"missing values in {_names(map(repr, missing))}: --chunksize reads values as they "
            "are (no --impute); --drop the columns or fill them first"
        )
    y = None
    if target is not None:
        y = pd.read_parquet(path, columns=[target])[target]
    return StreamedTable(path, y, columns, reader.metadata.num_rows, chunksize, tuple(notes))
