"""``weakfs select`` as asked on the command line: the frozen request, checked before any work."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import numpy as np

from weakfs.cli._common import _fail, _parse_set
from weakfs.cli._output import _output_format, table_format
from weakfs.cli._selectors import (
    SelectorSpec,
    _load_class,
    _resolve_method,
    available_selectors,
)
from weakfs.cli._table import OUTPUT_FORMATS, PARQUET_SUFFIXES

__all__ = ["SelectRequest", "parse_k"]


def parse_k(text: str | None) -> int | float | str | None:
    """``-k``: a number of features (``10``), a fraction of them (``0.2``) or ``auto`` (the
    method's own default), as ``n_features_to_select`` takes them in Python."""
    if text is None:
        return None
    text = text.strip()
    if text == "auto":
        return "auto"
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is not None and value.is_integer() and value >= 1 and "." not in text:
        return int(value)
    if value is not None and 0 < value < 1:
        return value
    _fail(
        "-k takes a number of features, at least 1 (10), a fraction of them (0.2) or 'auto'; "
        f"got {text!r}"
    )


@dataclass(frozen=True)
class SelectRequest:
    """``weakfs select`` as asked on the command line, checked as far as it can be without the
    data (:meth:`from_args`).

    Attributes
    ----------
    method : str
        Name of the selector in its one spelling (``semi-jmi`` -> ``semi_jmi``, aliases
        resolved).
    spec : SelectorSpec
        How the selector is built.
    path : Path or None
        CSV/Parquet file to read, or None with ``dataset``.
    dataset : str or None
        Bundled or staged dataset to read instead of a file.
    sep : str or None
        Separator of a CSV file; None: detected.
    target, positive, negative : str or None
        Label column (file input), and the target values of the labeled positives and (for
        semi-supervised methods) negatives, as typed.
    labeled_fraction : float or None
        Share of the labels kept when simulating weak labels.
    prior : float, "auto" or None
        Class prior in (0, 1), ``"auto"`` (estimated), or None (the method's default).
    prior_checks : bool
        With an estimated prior: run the SCAR check and re-select at the interval's ends.
    drop, categorical, keep : tuple of str
        Columns left out, one-hot encoded, used although they look like IDs or dates.
    max_categories : int
        Most distinct values of a text column.
    impute : {"median", "most_frequent"} or None
        How missing values are filled; None: they are refused.
    k : int, float, "auto" or None
        Features (or, per column, source columns) to select: a number, a fraction, the
        method's default (``"auto"``), or None (its default too).
    per_column : bool or None
        Count ``k`` in source columns (True), in encoded features (False), or decide: source
        columns when text columns were one-hot encoded and ``k`` is given (None).
    params : mapping
        Parameters of the selector from ``--set`` (read-only).
    n_jobs : int or None
        Parallel jobs, for methods that have them.
    random_state : int
        Seed of the selector and of simulated labels.
    progress : bool
        Show a progress bar (or the elapsed time) on stderr.
    output, output_format : str or None
        File receiving the selected features, and its format.
    reduced, reduced_format : str or None
        File receiving the table reduced to the selected features (and the target), and its
        format.
    save_model : str or None
        File receiving the fitted table preparation and selector (joblib), for ``weakfs
        transform``.
    chunksize : int or None
        Stream the Parquet file this many rows at a time (methods with ``fit_chunks``); None:
        read the whole table.
    """

    method: str
    spec: SelectorSpec
    path: Path | None = None
    dataset: str | None = None
    sep: str | None = None
    target: str | None = None
    positive: str | None = None
    negative: str | None = None
    labeled_fraction: float | None = None
    prior: float | str | None = None
    prior_checks: bool = True
    drop: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    max_categories: int = 50
    impute: str | None = None
    k: int | float | str | None = None
    per_column: bool | None = None
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    n_jobs: int | None = None
    random_state: int = 0
    progress: bool = True
    output: str | None = None
    output_format: str | None = None
    reduced: str | None = None
    reduced_format: str | None = None
    save_model: str | None = None
    chunksize: int | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> SelectRequest:
        """The request of parsed arguments; everything that can be checked without the data
        is checked here, before any work."""
        method, spec = _resolve_method(args.method)
        if not args.dataset and not args.path:
            _fail(f"give a CSV/Parquet file or --dataset NAME{_swallowed_file_hint(args)}")
        if args.max_categories < 1:
            _fail(f"--max-categories must be at least 1; got {args.max_categories}")
        if args.sep is not None and len(args.sep.encode().decode("unicode_escape")) != 1:
            _fail(f"--sep takes one character (',', ';', '\\t', '|'); got {args.sep!r}")
        _check_chunksize(args, method, spec)
        return cls(
            method=method,
            spec=spec,
            **table_fields(args),
            prior_checks=not args.no_prior_checks,
            k=parse_k(args.k),
            per_column=args.per_column,
            params=MappingProxyType(_parse_set(args.set, form="PARAM=VALUE")),
            n_jobs=args.n_jobs,
            output=args.output or None,
            output_format=_output_format(args.output, args.format),
            reduced=args.reduced or None,
            reduced_format=table_format(args.reduced, "--reduced"),
            save_model=_model_path(args.save_model),
            chunksize=args.chunksize,
        )


def _check_chunksize(args: argparse.Namespace, method: str, spec: SelectorSpec) -> None:
    """``--chunksize``: a Parquet file, a method that fits on chunks, and no option that needs
    the whole table."""
    if args.chunksize is None:
        return
    if args.chunksize < 1:
        _fail(f"--chunksize must be at least 1 row; got {args.chunksize}")
    if not hasattr(_load_class(spec), "fit_chunks"):
        streamed = [
            name
            for name, other in available_selectors().items()
            if hasattr(_load_class(other), "fit_chunks")
        ]
        _fail(
            f"--chunksize streams the table for {', '.join(streamed)} only; {method} needs the "
            "whole table in memory (drop --chunksize)"
        )
    if args.dataset or not args.path or Path(args.path).suffix.lower() not in PARQUET_SUFFIXES:
        _fail("--chunksize streams a Parquet file (.parquet, .pq) in batches of rows")
    given = [
        option
        for option, value in (
            ("--categorical", args.categorical),
            ("--keep", args.keep),
            ("--impute", args.impute),
            ("--per-column", args.per_column is not None),
            ("--reduced", args.reduced),
            ("--save-model", args.save_model),
        )
        if value
    ]
    if given:
        _fail(
            f"{', '.join(given)} cannot be used with --chunksize: a streamed table reads its "
            "numeric columns as they are (no one-hot encoding, no imputation) and writes -o only"
        )


def _model_path(path: str | None) -> str | None:
    """``--save-model``: its folder checked before the fit."""
    if path is None:
        return None
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        _fail(f"the folder of --save-model does not exist: {Path(path).parent}")
    return path


def _swallowed_file_hint(args: argparse.Namespace) -> str:
    """A file name that ``--drop``/``--categorical``/``--keep`` took as a column name."""
    swallowed = [
        v for v in (*args.drop, *args.categorical, *args.keep) if Path(v).suffix in OUTPUT_FORMATS
    ]
    return f" ({swallowed[0]} was read as a column name: put the file first)" if swallowed else ""


def table_fields(args: argparse.Namespace) -> dict:
    """The request fields that say which table, labels and columns to read: the options that
    ``select`` and ``compare`` share, read from their parsed arguments."""
    return {
        "path": None if args.dataset or not args.path else Path(args.path),
        "dataset": args.dataset or None,
        "sep": None if args.sep is None else args.sep.encode().decode("unicode_escape"),
        "target": args.target,
        "positive": args.positive,
        "negative": args.negative,
        "labeled_fraction": args.labeled_fraction,
        "prior": _parse_prior(args.prior),
        "drop": tuple(args.drop),
        "categorical": tuple(args.categorical),
        "keep": tuple(args.keep),
        "max_categories": args.max_categories,
        "impute": args.impute,
        "random_state": args.random_state,
        "progress": not args.no_progress,
    }


def _parse_prior(text: str | None) -> float | str | None:
    if text is None or text == "auto":
        return text
    try:
        value = float(text)
    except ValueError:
        value = np.nan
    if not 0 < value < 1:
        _fail(f"--prior takes a number in (0, 1) or 'auto'; got {text!r}")
    return value
