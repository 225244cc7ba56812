"""``weakfs select``: the output file (checked before any work), the ranking and the writing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from weakfs.cli._common import _fail
from weakfs.cli._table import OUTPUT_FORMATS, _require_parquet


def _output_format(output: str | None, fmt: str | None) -> str | None:
    """The format of ``-o/--output``, checked (with the output folder) before any work is done;
    None without an output."""
    if not output:
        if fmt:
            _fail("--format needs -o/--output")
        return None
    path = Path(output)
    folder = path.resolve().parent
    if not folder.is_dir():
        # checked before the fit: a long run must not end in a failed write
        _fail(f"the folder of --output does not exist: {path.parent}")
    if path.is_dir():
        _fail(f"--output {path} is a folder; give a file name")
    fmt = fmt or OUTPUT_FORMATS.get(path.suffix.lower())
    if fmt is None:
        _fail(
            f"cannot tell the format of {path.name}: name it .csv, .parquet or .json, "
            "or give --format"
        )
    if not os.access(folder, os.W_OK):
        _fail(f"cannot write into the folder of --output: {folder}")
    if fmt == "parquet":
        _require_parquet(f"writing {path.name}")
    return fmt


def table_format(path: str | None, option: str) -> str | None:
    """The format (csv or parquet) of a table written by ``option``, checked before any work;
    None without a path."""
    if not path:
        return None
    target = Path(path)
    if not target.resolve().parent.is_dir():
        _fail(f"the folder of {option} does not exist: {target.parent}")
    fmt = OUTPUT_FORMATS.get(target.suffix.lower())
    if fmt not in ("csv", "parquet"):
        _fail(f"{option} writes a table: name it .csv or .parquet; got {target.name}")
    if fmt == "parquet":
        _require_parquet(f"writing {target.name}")
    return fmt


def write_table(path: str, fmt: str, table: pd.DataFrame) -> None:
    """A whole table, written beside ``path`` and renamed (never half a file)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        if fmt == "csv":
            table.to_csv(tmp, index=False)
        else:
            table.to_parquet(tmp, index=False)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _ranked(selector, names: list[str]) -> tuple[list[str], dict[str, float], str | None]:
    """The selected features best first, their scores and what the scores are.

    Scores come from :func:`weakfs.plotting.feature_scores`.  A selector with ``ranking_`` (the
    features in selection order) keeps that order: a greedy criterion such as semi-JMI's grows
    along the selection, so its values do not rank the features.
    """
    from weakfs.plotting import feature_scores

    try:
        found = feature_scores(selector)
    except TypeError:
        return names, {}, None
    scores = {
        str(n): float(v) for n, v in zip(found.names, found.scores) if np.isfinite(v) and n in names
    }
    label = found.label.replace("$", "").replace("\\", "")  # plain text, not matplotlib TeX
    order = getattr(selector, "ranking_", None)
    columns = getattr(selector, "feature_names_in_", None)
    if order is not None and columns is not None:
        in_order = [str(columns[i]) for i in np.asarray(order)]
        if set(names) <= set(in_order):
            return [n for n in in_order if n in names], scores, label
    if set(names) <= set(scores):
        names = sorted(names, key=lambda name: -scores[name])
    return names, scores, label


def _source_column(feature: str, source: dict[str, str]) -> str:
    """The table column a selected feature comes from (UFVS names its values ``column=value``)."""
    if feature in source:
        return source[feature]
    owners = [c for c in source if feature.startswith(f"{c}=")]
    return max(owners, key=len) if owners else feature


def _write_atomic(path: Path, fmt: str, table: pd.DataFrame, meta: dict) -> None:
    """Write beside ``path`` and rename: an interrupted run leaves no half-written file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        if fmt == "csv":
            table.to_csv(tmp, index=False)
        elif fmt == "parquet":
            table.to_parquet(tmp, index=False)
        else:
            records = [
                {k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()}
                for row in table.astype(object).to_dict(orient="records")
            ]
            payload = {**meta, "selected": records}
            tmp.write_text(json.dumps(payload, indent=2, default=str) + "\n")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _selected_table(names: list[str], scores: dict[str, float], source: dict[str, str]):
    """The rows written to ``-o``: rank, feature, its table column and its score."""
    return pd.DataFrame(
        {
            "rank": np.arange(1, len(names) + 1),
            "feature": names,
            "column": [_source_column(name, source) for name in names],
            "score": [scores.get(name, np.nan) for name in names],
        }
    )
