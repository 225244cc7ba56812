"""``weakfs select`` as asked on the command line: the frozen request, checked before any work."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from weakfs._methods import MethodSpec, canonical_method, load_method_class
from weakfs.cli._common import _fail, _parse_set, _refuse_overwriting
from weakfs.cli._output import _output_format, table_format
from weakfs.cli._selectors import _resolve_method, available_selectors
from weakfs.cli._table import PARQUET_SUFFIXES, TableRequest

__all__ = ["SelectRequest", "parse_k"]


#: the board's reference rows, which ``weakfs select`` runs too (under their spellings)
BOARD_REFERENCES = {"all_features": "all features", "random": "random"}


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
    table : TableRequest
        Which table, labels and columns to read (the options ``compare`` shares).
    method : str
        Name of the selector in its one spelling (``semi-jmi`` -> ``semi_jmi``, aliases
        resolved).
    spec : MethodSpec
        How the selector is built.
    prior_checks : bool
        With an estimated prior: run the SCAR check and re-select at the interval's ends.
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
    from_board : str or None
        A board file of ``weakfs compare -o``: its recommended row's features are the
        selection (no fit).
    """

    table: TableRequest | None
    method: str
    spec: MethodSpec | None
    prior_checks: bool = True
    k: int | float | str | None = None
    per_column: bool | None = None
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    n_jobs: int | None = None
    output: str | None = None
    output_format: str | None = None
    reduced: str | None = None
    reduced_format: str | None = None
    save_model: str | None = None
    chunksize: int | None = None
    from_board: str | None = None
    #: a board's reference row run as a selection ("all features", "random"); spec is None
    reference: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> SelectRequest:
        """The request of parsed arguments; everything that can be checked without the data
        is checked here, before any work."""
        reference = BOARD_REFERENCES.get(canonical_method(args.method))
        if reference is not None:
            method, spec, labels, one_hot = reference, None, "none", True
            if args.save_model or args.chunksize:
                _fail(f"{reference} is a board's reference: no --save-model or --chunksize")
        else:
            method, spec = _resolve_method(args.method)
            labels, one_hot = spec.labels, spec.one_hot
            _check_chunksize(args, method, spec)
        if args.from_board and (args.save_model or args.chunksize):
            _fail("--from-board takes the board's features: no --save-model or --chunksize")
        table = None
        if not (args.from_board and not args.path and not args.dataset):
            table = TableRequest.from_args(args, method=method, labels=labels, one_hot=one_hot)
        elif args.reduced:
            _fail("--reduced writes the table reduced to the board's features: give the table")
        _refuse_overwriting(
            None if table is None else table.path,
            output=args.output,
            reduced=args.reduced,
            save_model=args.save_model,
        )
        return cls(
            reference=reference,
            table=table,
            method=method,
            spec=spec,
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
            from_board=args.from_board,
        )


def _check_chunksize(args: argparse.Namespace, method: str, spec: MethodSpec) -> None:
    """``--chunksize``: a Parquet file, a method that fits on chunks, and no option that needs
    the whole table."""
    if args.chunksize is None:
        return
    if args.chunksize < 1:
        _fail(f"--chunksize must be at least 1 row; got {args.chunksize}")
    if not hasattr(load_method_class(spec), "fit_chunks"):
        streamed = [
            name
            for name, other in available_selectors().items()
            if hasattr(load_method_class(other), "fit_chunks")
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
