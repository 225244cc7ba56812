"""Where finished cells are kept: the uncommitted per-cell cache and the committed ``NAME.csv``.

Every finished cell is written at once to ``OUT/.cache/NAME/<cell_key>.json`` (atomic rename), so
an interrupted run resumes.  The committed ``OUT/NAME.csv`` is the long-lived store: one row per
cell, matched by its ``cell_key``; a run adds the rows of the cells it computed and leaves every
row already there as it is, so a run that computes nothing changes no committed file.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["NOT_IN_KEY", "CellCache", "CsvCells", "cell_key", "jsonable"]


#: Cell entries that change how a cell is computed but not its result (every weakfs estimator
#: gives the same result for any ``n_jobs``), so they are left out of the cache key: a cell run
#: with ``n_jobs=2`` is read back by a run that asks for ``n_jobs=1``.
NOT_IN_KEY = frozenset({"n_jobs"})


def cell_key(cell: dict) -> str:
    """A stable file name for a cell: the hash of its canonical JSON (without ``NOT_IN_KEY``)."""
    canonical = json.dumps(
        {k: v for k, v in cell.items() if k not in NOT_IN_KEY}, sort_keys=True, default=str
    )
    return hashlib.sha1(canonical.encode()).hexdigest()[:16]


def jsonable(value):
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


class CellCache:
    def __init__(self, directory: Path):
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    def path(self, cell: dict) -> Path:
        return self.directory / f"{cell_key(cell)}.json"

    def load(self, cell: dict) -> dict | None:
        path = self.path(cell)
        if not path.exists():
            return None
        try:
            return json.loads(path.read_text())
        except json.JSONDecodeError:  # a cell cut off mid-write is simply recomputed
            return None

    def save(self, record: dict) -> None:
        path = self.path(record["cell"])
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record, sort_keys=True))
        tmp.replace(path)  # atomic, so an interrupted run never leaves half a cell


def _canonical(value) -> str:
    """A cell value as text that survives a CSV round trip (1 == 1.0, True == "True")."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, float, np.integer, np.floating)):
        return repr(float(value))
    text = str(value)
    try:
        return repr(float(text))
    except ValueError:
        return text


class _NanNames(ast.NodeTransformer):
    """``nan`` and ``inf`` as Python prints them inside a list, read back as floats."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in ("nan", "inf"):
            return ast.copy_location(ast.Constant(float(node.id)), node)
        return node


#: a list of numbers only (no name, no string): JSON reads it as Python does, 75 times faster
_NUMBERS_ONLY = re.compile(r"[\[\]\d\s,.eE+-]*")


def _literal(text: str):
    """``ast.literal_eval`` that also reads ``nan`` and ``inf``."""
    if _NUMBERS_ONLY.fullmatch(text):
        try:
            return json.loads(text)
        except ValueError:  # Python syntax JSON lacks (a trailing comma, "1.", "+1")
            pass
    return ast.literal_eval(_NanNames().visit(ast.parse(text, mode="eval")))


def _from_csv(value):
    """A result value as the cell returned it: lists (a figure's series, per-k accuracies) are
    written to the CSV as their Python text and read back as lists."""
    if isinstance(value, str) and value.startswith("[") and value.endswith("]"):
        try:
            # a list's missing values are written as Python prints them (nan)
            parsed = _literal(value)
        except (ValueError, SyntaxError):  # text that only looks like a list: "[0.2, 0.4)"
            return value
        return parsed if isinstance(parsed, list) else value
    return jsonable(value)


class CsvCells:
    """The finished cells kept in a committed ``NAME.csv`` (one row per cell).

    Rows carry the ``cell_key`` of their cell.  Rows of CSVs written before that column existed
    are matched on the cell's own entries (``n_jobs`` excluded) and on the absence of the entries
    that other cells of the same run have.
    """

    KEY = "cell_key"

    def __init__(self, path: Path):
        self.path = path
        self.frame = pd.read_csv(path) if path.exists() else pd.DataFrame()
        self.read_rows: set = set()  # labels of the rows read back as cells of this run
        self.read_keys: dict = {}  # their cell keys

    def _text_now(self) -> pd.DataFrame:
        """The CSV as it is now, every field as its text: rows are written back verbatim (a long
        run and a shorter one, or a ``--cached-only`` report, may share the store, so rows
        another invocation wrote since this one started are there too)."""
        if not self.path.exists():
            return pd.DataFrame()
        return pd.read_csv(self.path, dtype=str, keep_default_na=False)

    @classmethod
    def _identity(cls, row: pd.Series) -> frozenset:
        """A row without a cell key, recognised by its values (whatever columns the file has)."""
        return frozenset(
            (col, _canonical(value))
            for col, value in row.items()
            if col not in (cls.KEY, cls.SUPERSEDED) and not pd.isna(value)
        )

    def records(self, cells: list[dict], keys: list[str]) -> dict[str, dict]:
        """Records (as the cache stores them) of those ``cells`` that have a row."""
        frame = self.frame
        if frame.empty or "seconds" not in frame:
            return {}
        keyed = frame[self.KEY] if self.KEY in frame else pd.Series(np.nan, index=frame.index)
        rows: dict[str, object] = {}
        by_key = {k: label for label, k in keyed.items() if isinstance(k, str)}
        legacy = frame[keyed.isna()]
        cell_columns = {k for c in cells for k in c} - NOT_IN_KEY
        lookups: dict[tuple, dict[tuple, object]] = {}
        for cell, key in zip(cells, keys):
            if key in by_key:
                rows[key] = by_key[key]
                continue
            names = tuple(sorted(set(cell) - NOT_IN_KEY))
            if legacy.empty or not set(names) <= set(legacy.columns):
                continue
            if names not in lookups:
                absent = [c for c in cell_columns - set(names) if c in legacy.columns]
                candidates = legacy[legacy[absent].isna().all(axis=1)] if absent else legacy
                lookups[names] = {}
                for label, values in zip(
                    candidates.index, candidates[list(names)].itertuples(index=False)
                ):
                    lookups[names].setdefault(tuple(_canonical(v) for v in values), label)
            label = lookups[names].get(tuple(_canonical(cell[n]) for n in names))
            if label is not None:
                rows[key] = label
        self.read_rows = set(rows.values())
        self.read_keys = {label: key for key, label in rows.items()}
        return {
            key: self._record(cell, frame.loc[rows[key]])
            for cell, key in zip(cells, keys)
            if key in rows
        }

    @staticmethod
    def _record(cell: dict, row: pd.Series) -> dict:
        result = {
            col: _from_csv(value)
            for col, value in row.items()
            if col not in cell
            and col not in ("seconds", CsvCells.KEY, CsvCells.SUPERSEDED)
            and not (isinstance(value, float) and np.isnan(value))
        }
        return {"cell": cell, "result": result, "seconds": float(row["seconds"])}

    SUPERSEDED = "superseded"

    def write(
        self, fresh: pd.DataFrame, keys: list[str], current_version: Callable[[dict], int]
    ) -> tuple[int, int]:
        """Add this run's ``fresh`` rows (cells not yet in the file) and mark the rows of an older
        version of the code ``superseded``; rows already there are kept as they are, in their
        order, so a run that adds nothing leaves the file untouched.  Returns the number of
        rows of other cells (current, superseded) for the report header, ``keys`` being the
        cells of this run."""
        text = self._text_now()
        old = self._older_versions(text, current_version)
        marked = text[self.SUPERSEDED].eq("True") if self.SUPERSEDED in text else old & False
        have = set(text[self.KEY]) if self.KEY in text else set()
        fresh = fresh[~fresh[self.KEY].isin(have)] if len(fresh) else fresh
        if len(fresh) or (old & ~marked).any():
            if old.any():
                text.loc[old, self.SUPERSEDED] = "True"
            # rows of CSVs older than cell keys get theirs once the file is written anyway
            # (rows are only ever appended, so the labels read at the start still hold)
            if self.KEY not in text:
                text[self.KEY] = ""
            for label, key in self.read_keys.items():
                if label in text.index and not text.at[label, self.KEY]:
                    text.at[label, self.KEY] = key
            added = pd.read_csv(io.StringIO(fresh.to_csv(index=False)), dtype=str)
            merged = pd.concat([text, added], ignore_index=True) if len(text) else added
            tmp = self.path.with_suffix(".csv.tmp")
            merged.fillna("").to_csv(tmp, index=False)
            tmp.replace(self.path)
            text = merged.fillna("")
        if text.empty:
            return 0, 0
        superseded = text[self.SUPERSEDED].eq("True") if self.SUPERSEDED in text else old & False
        mine = text[self.KEY].isin(set(keys)) if self.KEY in text else old & False
        n_legacy_mine = len(self.read_rows) - int(mine.sum())  # unkeyed rows read back
        others = int((~superseded & ~mine).sum()) - max(0, n_legacy_mine)
        return others, int(superseded.sum())

    def _older_versions(self, text: pd.DataFrame, current_version) -> pd.Series:
        """Rows computed by an older version of the code than the one that computes their cell."""
        if text.empty:
            return pd.Series(False, index=text.index)
        version = text["version"] if "version" in text else pd.Series("", index=text.index)
        row_version = version.replace("", "1").astype(float).astype(int)
        wanted = [
            current_version({k: v for k, v in row.items() if v != ""})
            for row in text.to_dict("records")
        ]
        return row_version < pd.Series(wanted, index=text.index)


def records_table(records: dict[str, dict], keys: list[str]) -> tuple[pd.DataFrame, list[str]]:
    """One row per finished cell (its keys, its results, ``seconds``) in the order of ``keys``,
    and the keys of those rows."""
    found = [key for key in keys if key in records]
    rows = [
        {**records[k]["cell"], **records[k]["result"], "seconds": records[k]["seconds"]}
        for k in found
    ]
    frame = pd.DataFrame(rows)
    # a cell entry that only some cells have (an option's number) stays an integer, written
    # "1500" as in a store where every cell has it, not "1500.0" beside the missing ones
    for column in {name for k in found for name in records[k]["cell"]}:
        values = [records[k]["cell"].get(column) for k in found]
        integers = [v for v in values if v is not None]
        if 0 < len(integers) < len(values) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in integers
        ):
            frame[column] = pd.array(values, dtype="Int64")
    return frame, found
